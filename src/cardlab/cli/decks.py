"""``cardlab decks``: list the decks, show one as a grid of cards."""

from __future__ import annotations

import sys
from typing import Any

import click
from rich.table import Table

from cardlab import render
from cardlab.cli._common import emit, emit_json, format_option
from cardlab.decks import BUILTIN_DECKS, Deck, get_deck


def _deck_summary(deck: Deck) -> dict[str, Any]:
    return {
        "name": deck.name,
        "cards": len(deck),
        "suits": [
            {"key": s.key, "symbol": s.symbol, "name": s.name, "role": s.role.value}
            for s in deck.suits
        ],
        "ranks": [r.key for r in deck.ranks],
        "wrap": deck.wrap.value,
        "description": deck.description,
    }


@click.group(invoke_without_command=True)
@format_option("text", "json", "csv")
@click.pass_context
def decks(ctx: click.Context, fmt: str) -> None:
    """List the built-in decks (``cardlab decks show NAME`` prints one)."""
    if ctx.invoked_subcommand is not None:
        return
    all_decks = [get_deck(name) for name in BUILTIN_DECKS]
    if fmt == "json":
        emit_json({"decks": [_deck_summary(d) for d in all_decks]})
        return
    rows = [
        (
            d.name,
            len(d),
            " ".join(s.symbol for s in d.suits),
            _rank_span(d),
            d.wrap.value,
            d.description,
        )
        for d in all_decks
    ]
    header = ("deck", "cards", "suits", "ranks", "wrap", "contents")
    if fmt == "csv":
        emit(render.to_csv(header, rows))
        return
    table = render.text_table(
        header, rows, justify=("left", "right", "left", "left", "left", "left")
    )
    render.console().print(table)


@decks.command()
@click.argument("name")
@format_option("text", "json", "csv")
@click.option("--ascii", "use_ascii", is_flag=True, help="Write cards in ASCII (M7, YZ).")
def show(name: str, fmt: str, use_ascii: bool) -> None:
    """Show the cards of deck NAME (a built-in name or a TOML file) as a grid."""
    deck = get_deck(name)
    plain = not render.can_encode(sys.stdout)
    use_ascii = use_ascii or plain

    def text(card: Any) -> str:
        if card is None:
            return ""
        return str(card.ascii if use_ascii else card)

    if fmt == "json":
        data = _deck_summary(deck)
        data["card_list"] = [text(c) for c in deck.cards]
        emit_json(data)
        return
    grid = deck.grid()
    if fmt == "csv":
        header = ["suit", *(r.key for r in deck.ranks)]
        emit(render.to_csv(header, ([s.key, *(text(c) for c in row)] for s, row in grid)))
        return
    table = Table(
        title=f"{deck.name}: {len(deck)} cards, ranks {deck.wrap.value}",
        title_justify="left",
        header_style="bold",
    )
    table.add_column("suit", justify="left")
    for r in deck.ranks:
        table.add_column(r.key, justify="center")
    for suit, row in grid:
        label = f"{suit.symbol} {suit.name}"
        table.add_row(render.ascii_text(label) if plain else label, *(text(c) for c in row))
    render.console().print(table)
    if deck.description:
        emit(deck.description)


def _rank_span(deck: Deck) -> str:
    keys = [r.key for r in deck.ranks]
    return f"{keys[0]}..{keys[-1]}" if len(keys) > 3 else " ".join(keys)
