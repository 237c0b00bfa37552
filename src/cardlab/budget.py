"""How long a run may take and how much memory it may hold: its work is estimated
before it starts, and a run whose estimate passes :data:`LIMIT_SECONDS` or
:data:`LIMIT_BYTES` is refused with the figure and what to ask for instead, rather than
started with an ETA of years or left to fill the machine's memory.

The estimates come from each computation's own conservative rate (a sampled showdown,
an exact Omaha evaluation, an Open Seven game on this machine's cores): they say "about",
and they are meant to catch a slip of the keyboard, not to plan a cluster.
"""

from __future__ import annotations

import math

from cardlab.errors import GameError

LIMIT_SECONDS = 24 * 3600.0
"""The longest estimated run a command starts: a day on this machine."""

LIMIT_BYTES = 4 * 10**9
"""The most memory a run's estimate may hold: 4 GB, a share of a laptop's memory."""


class TooMuchWork(GameError):
    """A run whose estimated time is past the limit; the message says what to ask instead."""

    def __init__(self, what: str, seconds: float, instead: str, limit: float) -> None:
        self.seconds = seconds
        self.limit = limit
        super().__init__(
            f"{what} would take about {duration(seconds)} on this machine (the limit is "
            f"{duration(limit)}): {instead}"
        )


class TooMuchMemory(GameError):
    """A run whose estimated memory is past the limit; the message says what to ask instead."""

    def __init__(self, what: str, nbytes: float, instead: str, limit: float) -> None:
        self.nbytes = nbytes
        self.limit = limit
        super().__init__(
            f"{what} would hold about {size(nbytes)} of memory (the limit is {size(limit)}): "
            f"{instead}"
        )


def size(nbytes: float) -> str:
    """``3e6`` -> ``"3.0 MB"``, ``1.3e10`` -> ``"13 GB"`` (decimal units, as disks and
    ``free -h`` say them), then TB (``"1.2e+06 TB"`` past a million of those)."""
    for unit, scale in (("kB", 1e3), ("MB", 1e6), ("GB", 1e9)):
        if nbytes < 1000 * scale:
            digits = 0 if nbytes >= 10 * scale else 1
            return f"{nbytes / scale:.{digits}f} {unit}"
    terabytes = nbytes / 1e12
    return f"{terabytes:,.0f} TB" if terabytes < 1e6 else f"{terabytes:.1e} TB"


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


def check_memory(what: str, nbytes: float, instead: str, *, limit: float = LIMIT_BYTES) -> None:
    """Raise :class:`TooMuchMemory` if ``nbytes`` (the estimate of ``what``) is past
    ``limit``."""
    if nbytes > limit:
        raise TooMuchMemory(what, nbytes, instead, limit)
