"""``cardlab replay``: play the hands of a PHH file on the engine and show them."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import click
from rich.markup import escape

from cardlab import render
from cardlab.cli._common import emit, emit_json, format_option
from cardlab.table import phh
from cardlab.table.history import Replay, replay
from cardlab.table.narrate import streets


def load_histories(path: str) -> list[phh.HandHistory]:
    """Every hand of a .phh or .phhs file (a .phhs holds tables [1], [2], ...)."""
    p = Path(path)
    if p.suffix.lower() == ".phhs":
        return phh.load_all(p)
    return [phh.load(p)]


def _number(value: int | Decimal) -> int | float:
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def replay_summary(r: Replay) -> dict[str, Any]:
    """The JSON of one replayed hand."""
    return {
        "variant": r.history.variant,
        "game": r.hand.game.game.key,
        "players": list(r.history.players or ()),
        "starting_stacks": [_number(v) for v in r.starting_stacks],
        "finishing_stacks": [_number(v) for v in r.finishing_stacks],
        "winnings": [_number(v) for v in r.winnings],
        "showdown": bool(r.hand.result and r.hand.result.showdown),
        "decided_by": r.hand.result.decided_by if r.hand.result else None,
    }


@click.command(name="replay")
@click.argument("file", type=click.Path(dir_okay=False))
@format_option("text", "json")
def replay_command(file: str, fmt: str) -> None:
    """Replay every hand of a PHH hand-history FILE (.phh or .phhs), street by street."""
    histories = load_histories(file)
    replays = [replay(h, label=f"hand {k + 1}") for k, h in enumerate(histories)]
    if fmt == "json":
        emit_json({"hands": [replay_summary(r) for r in replays]})
        return
    for k, r in enumerate(replays, 1):
        print_replay(r, title=f"hand {k} of {len(replays)}")


def print_replay(r: Replay, *, title: str) -> None:
    """A replayed hand street by street, then each player's stacks."""
    console = render.console()
    names = list(r.history.players or [f"p{i + 1}" for i in range(r.hand.players)])
    game = r.hand.game
    console.print(
        f"[bold]{escape(title)}[/bold] — {r.history.variant}, "
        f"{escape(game.game.name)} ({game.stakes.describe()}), {r.hand.players} players",
        highlight=False,
    )
    for street, text in streets(r.hand, names):
        if text:
            console.print(f"  [cyan]{escape(street)}[/cyan]: {escape(text)}", highlight=False)
    rows = [
        (name, str(start), str(finish), f"{net:+}" if net else "0")
        for name, start, finish, net in zip(
            names, r.starting_stacks, r.finishing_stacks, r.winnings, strict=True
        )
    ]
    console.print(
        render.text_table(
            ("player", "start", "finish", "net"),
            rows,
            justify=("left", "right", "right", "right"),
        )
    )
    if r.scale != 1:
        emit(f"  amounts as in the file (played in units of 1/{r.scale})")
