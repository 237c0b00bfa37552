"""A site's hand against its replay: does the engine, playing the hand's actions, come to
the figures the site wrote?

The engine plays without rake; the site writes what each player collected after it.
So for each player the replay's collected amount less the site's is that player's share
of the rake: never negative, nothing for a player the replay pays nothing, and the
shares add up to the rake the site wrote (with its jackpot and other fees). The
finishing stacks (the starting stack, less what the text says the player put in, plus
what came back uncalled and what was collected) differ from the replay's by the same
share; the replay's pots add up to the site's total pot. Each difference names the
first line of the text that disagrees.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from cardlab.table.history import Replay
from cardlab.table.phh_actions import format_amount
from cardlab.table.sites._text import Figures


def _line(figures: Figures, name: str, kind: str) -> int:
    found = getattr(figures, kind).get(name)
    if found:
        return int(found[0][1])
    return figures.player_line.get(name, 0)


def _coin(history: Any) -> Decimal:
    """The smallest amount the text writes: a cent for 0.25, a chip for 1,500."""
    places = 0
    for value in (*history.starting_stacks, *(history.winnings or ())):
        exponent = Decimal(value).as_tuple().exponent
        if isinstance(exponent, int):
            places = max(places, -exponent)
    return Decimal(1).scaleb(-places)


def disagreements(r: Replay, figures: Figures) -> list[str]:
    """How the site's figures differ from the replay ``r``, first line first; empty when
    every figure agrees."""
    history = r.history
    names = list(history.players or ())
    out: list[tuple[int, str]] = []
    mine = r.winnings
    theirs = list(history.winnings or ())
    shares = [Decimal(m) - Decimal(t) for m, t in zip(mine, theirs, strict=True)]
    # a pot of money split finer than the site's coin (8.055 each): the site pays
    # whole coins, one winner a coin more; within a coin, the site's is taken
    coin = _coin(history)
    slack = [coin if (Decimal(m) / coin) % 1 else Decimal(0) for m in mine]
    shares = [Decimal(0) if abs(d) < e else d for d, e in zip(shares, slack, strict=True)]
    for name, m, t, share in zip(names, mine, theirs, shares, strict=True):
        if share < 0 or (share > 0 and not t and not m):
            out.append(
                (
                    _line(figures, name, "collected"),
                    f"{name!r} collected {format_amount(t)}, the replay pays {format_amount(m)}",
                )
            )
    finishing = list(history.finishing_stacks or ())
    ends = zip(names, r.finishing_stacks, finishing, shares, slack, strict=True)
    for name, mf, tf, share, give in ends:
        if share >= 0 and abs(Decimal(mf) - Decimal(tf) - share) > give:
            out.append(
                (
                    _line(figures, name, "returned"),
                    f"{name!r} ends with {format_amount(tf)} by the text, "
                    f"{format_amount(Decimal(mf) - share)} by the replay",
                )
            )
    for name in names:
        said = sum((Decimal(v) for v, _ in figures.returned.get(name, ())), Decimal(0))
        done = Decimal(figures.uncalled.get(name, 0))
        if said != done and (figures.returned or said):
            line = _line(figures, name, "returned")
            out.append(
                (
                    line,
                    f"{format_amount(said)} returned to {name!r} uncalled, the actions "
                    f"leave {format_amount(done)} uncalled",
                )
            )
    rake = Decimal(figures.rake[0]) if figures.rake is not None else Decimal(0)
    if not out and figures.rake is not None and sum(shares, Decimal(0)) != rake:
        line = figures.rake[1] if figures.rake is not None else 0
        out.append(
            (
                line,
                f"rake {format_amount(rake)}, the replay's pots less the collected "
                f"amounts leave {format_amount(sum(shares, Decimal(0)))}",
            )
        )
    if figures.total_pot is not None:
        pot = sum((Decimal(m) for m in mine), Decimal(0))
        if figures.pot_after_rake:
            pot -= rake
        if pot != Decimal(figures.total_pot[0]):
            out.append(
                (
                    figures.total_pot[1],
                    f"total pot {format_amount(figures.total_pot[0])}, "
                    f"the replay's {format_amount(pot)}",
                )
            )
    out.sort(key=lambda item: item[0])
    return [f"line {line}: {text}" for line, text in out]
