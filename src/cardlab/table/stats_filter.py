"""Which hands and seats the player statistics count: by site, game, stakes, date range,
table size and position (:class:`HandFilter`), and the parsing of each filter's text
as the command line takes it."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from cardlab.errors import CardlabError
from cardlab.table.player_stats import HandSummary, PlayerStats, player_stats

POSITIONS = (
    "UTG",
    *(f"UTG+{k}" for k in range(1, 6)),
    "LJ",
    "HJ",
    "CO",
    "BTN",
    "SB",
    "BB",
)
"""Every position name a seat can have (:func:`cardlab.table.stat_counts.positions`)."""

_AMOUNT = re.compile(r"\d+(\.\d+)?")


@dataclass(frozen=True, slots=True)
class HandFilter:
    """The hands to count; an empty field keeps every hand. ``stakes`` are blinds as
    ``(small, big)`` (a hand matches on its first two posted blinds, so a straddled
    hand counts at its blinds; in a game without blinds, its small and big bet);
    ``since``/``until`` are days, both included (a hand whose day is unknown is left
    out when either is given); ``table_sizes`` count the seats dealt in; ``positions``
    keeps only the seats at those positions (the other seats of a hand kept are not
    counted)."""

    sites: frozenset[str] = frozenset()
    games: frozenset[str] = frozenset()
    stakes: frozenset[tuple[Fraction, ...]] = frozenset()
    since: datetime.date | None = None
    until: datetime.date | None = None
    table_sizes: frozenset[int] = frozenset()
    positions: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        unknown = sorted(set(self.positions) - set(POSITIONS))
        if unknown:
            raise CardlabError(
                f"unknown position {unknown[0]!r}: expected one of {', '.join(POSITIONS)}"
            )
        if self.since is not None and self.until is not None and self.since > self.until:
            raise CardlabError(f"the date range is empty: {self.since} is after {self.until}")

    def matches(self, summary: HandSummary) -> bool:
        """Whether the hand is counted (its seats then by :attr:`positions`)."""
        if self.sites and (summary.site or "").lower() not in {s.lower() for s in self.sites}:
            return False
        if self.games and summary.game not in self.games:
            return False
        if self.stakes and tuple(summary.stakes[:2]) not in self.stakes:
            return False
        if self.since is not None or self.until is not None:
            day = summary.day
            if day is None:
                return False
            if self.since is not None and day < self.since:
                return False
            if self.until is not None and day > self.until:
                return False
        return not self.table_sizes or len(summary.seats) in self.table_sizes

    def select(self, summaries: Iterable[HandSummary]) -> list[HandSummary]:
        """The hands that match, in the order given."""
        return [s for s in summaries if self.matches(s)]

    def stats(
        self, summaries: Iterable[HandSummary], *, by_position: bool = False
    ) -> list[PlayerStats]:
        """:func:`~cardlab.table.player_stats.player_stats` of the hands and seats that
        match."""
        return player_stats(
            self.select(summaries),
            by_position=by_position,
            positions=self.positions or None,
        )


def parse_stakes(text: str) -> tuple[Fraction, ...]:
    """``"0.5/1"`` as ``(Fraction(1, 2), Fraction(1))``: the small and big blind."""
    parts = text.strip().split("/")
    if len(parts) != 2 or not all(_AMOUNT.fullmatch(p.strip()) for p in parts):
        raise CardlabError(f"stakes are the two blinds as SMALL/BIG (e.g. 0.5/1), got {text!r}")
    return tuple(Fraction(p.strip()) for p in parts)


def parse_day(text: str, what: str = "date") -> datetime.date:
    """``"2024-03-01"`` as a date."""
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise CardlabError(f"{what} is a day as YYYY-MM-DD, got {text!r}") from None


def parse_position(text: str) -> str:
    """A position name in any case (``"btn"`` is ``"BTN"``)."""
    name = text.strip().upper()
    if name not in POSITIONS:
        raise CardlabError(f"unknown position {text!r}: expected one of {', '.join(POSITIONS)}")
    return name
