"""``cardlab showdown``: settle a showdown — best fives, winners, the deciding step."""

from __future__ import annotations

import click

from cardlab import render
from cardlab.cli._common import (
    deck_option,
    emit,
    emit_json,
    format_option,
    game_from,
    game_option,
    rule_option,
)
from cardlab.poker.showdown import settle


@click.command()
@game_option("fesca78-holdem")
@deck_option(None)
@click.option("--board", "-b", default="", help="The board cards (games with a board).")
@click.option("--dead", default="", help="Cards out of play (checked against the deal).")
@rule_option
@format_option("text", "json")
@click.argument("hands", nargs=-1, required=True)
def showdown(
    game_name: str,
    deck: str | None,
    board: str,
    dead: str,
    rule: tuple[str, ...],
    fmt: str,
    hands: tuple[str, ...],
) -> None:
    """Settle a showdown of 2..10 players: each HAND is a player's cards, quoted."""
    game = game_from(game_name, rule, deck)
    result = settle(game, list(hands), board=board, dead=dead)
    if fmt == "json":
        emit_json(result.as_dict())
        return
    rows = [
        (
            p.seat + 1,
            " ".join(str(c) for c in p.hole),
            p.value.describe(),
            render.fraction_str(p.share) if p.share else "",
        )
        for p in result.players
    ]
    title = f"{game.name}" + (
        f" — board {' '.join(map(str, result.board))}" if result.board else ""
    )
    console = render.console()
    console.print(
        render.text_table(
            ("seat", "cards", "best five", "pot"),
            rows,
            title=title,
            justify=("right", "left", "left", "right"),
        )
    )
    seats = ", ".join(str(w + 1) for w in result.winners)
    if result.split:
        emit(f"split pot between seats {seats}: equal hands")
    else:
        emit(f"seat {seats} wins, decided by {result.decided_by}")
