"""How long a run may take: its work is estimated before it starts, and a run whose
estimate passes :data:`LIMIT_SECONDS` is refused with the figure and what to ask for
instead, rather than started with an ETA of years.

The estimates come from each computation's own conservative rate (a sampled showdown,
an exact Omaha evaluation, an Open Seven game on this machine's cores): they say "about",
and they are meant to catch a slip of the keyboard, not to plan a cluster.
"""

from __future__ import annotations

import math

from cardlab.errors import GameError

LIMIT_SECONDS = 24 * 3600.0
"""The longest estimated run a command starts: a day on this machine."""


class TooMuchWork(GameError):
    """A run whose estimated time is past the limit; the message says what to ask instead."""

    def __init__(self, what: str, seconds: float, instead: str, limit: float) -> None:
        self.seconds = seconds
        self.limit = limit
        super().__init__(
            f"{what} would take about {duration(seconds)} on this machine (the limit is "
            f"{duration(limit)}): {instead}"
        )


def duration(seconds: float) -> str:
    """``75`` -> ``"75 s"``, then minutes, hours and days (``"3.2e+09 days"`` past a
    trillion of them)."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.0f} h"
    days = seconds / 86400
    return f"{days:,.0f} days" if days < 1e12 else f"{days:.1e} days"


def seconds_for(work: int | float, per_second: float) -> float:
    """``work`` units at ``per_second``, in seconds (infinite, rather than an overflow,
    for a count too big for a float)."""
    try:
        return float(work) / per_second
    except OverflowError:
        return math.inf


def check(what: str, seconds: float, instead: str, *, limit: float = LIMIT_SECONDS) -> None:
    """Raise :class:`TooMuchWork` if ``seconds`` (the estimate of ``what``) is past ``limit``."""
    if seconds > limit:
        raise TooMuchWork(what, seconds, instead, limit)
