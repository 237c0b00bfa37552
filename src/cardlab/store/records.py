"""The values a store keeps and gives back: hands, web tables, arena runs and statistics.

Every value is frozen and checked when it is made, so a record that reaches the database
is always one the database can hold: texts are valid UTF-8 without NUL characters
(PostgreSQL's text has none), chip counts are integers between 0 and 2**63 - 1 (SQLite's
INTEGER, PostgreSQL's BIGINT), and times are aware and kept in UTC.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from cardlab.errors import StoreError

INT64_MAX = 2**63 - 1


def utc_now() -> datetime.datetime:
    """The current time, aware, in UTC."""
    return datetime.datetime.now(datetime.UTC)


def utc_text(moment: datetime.datetime) -> str:
    """``moment`` as fixed-width UTC text, sorted as time (``2026-11-30T19:50:00.000000Z``)."""
    naive = _utc(moment, "time").replace(tzinfo=None)
    return naive.isoformat(timespec="microseconds") + "Z"


def parse_utc(text: str) -> datetime.datetime:
    """The aware UTC time written by :func:`utc_text`."""
    return datetime.datetime.fromisoformat(text.removesuffix("Z")).replace(tzinfo=datetime.UTC)


def _utc(moment: object, name: str) -> datetime.datetime:
    if not isinstance(moment, datetime.datetime):
        raise StoreError(f"{name} must be a datetime, got {moment!r}")
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise StoreError(f"{name} must be an aware datetime (with a time zone), got {moment!r}")
    try:
        return moment.astimezone(datetime.UTC)
    except OverflowError:
        raise StoreError(f"{name} is out of range in UTC: {moment!r}") from None


def _text(value: object, name: str, *, empty: bool = True) -> str:
    if not isinstance(value, str):
        raise StoreError(f"{name} must be a string, got {value!r}")
    if not empty and not value:
        raise StoreError(f"{name} must not be empty, got {value!r}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise StoreError(f"{name} is not valid Unicode text: {value!r}") from None
    if "\x00" in value:  # PostgreSQL's text cannot hold it, so no store keeps it
        raise StoreError(f"{name} holds a NUL character: {value!r}")
    return value


def _count(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StoreError(f"{name} must be an integer, got {value!r}")
    if not 0 <= value <= INT64_MAX:
        raise StoreError(f"{name} must be between 0 and 2**63 - 1, got {value!r}")
    return value


def _counts(values: Iterable[object], name: str) -> tuple[int, ...]:
    if isinstance(values, str | bytes):
        raise StoreError(f"{name} must be a sequence of integers, got {values!r}")
    return tuple(_count(value, f"{name}[{i}]") for i, value in enumerate(values))


@dataclass(frozen=True, slots=True)
class HandRecord:
    """One played hand as the store keeps it.

    ``phh`` (the hand's full history in the PHH format) is the source of truth; the other
    fields repeat what it says in columns the store can search and count. ``game`` is the
    registry key or deck file the hand was played with (``"fesca78-holdem"``), ``variant``
    the PHH code (``"NT"``), ``board`` the board cards as text (``""`` if none),
    ``actions`` the number of actions, ``decided_by`` how the pot was won if the engine
    says so, ``source`` where the hand came from (``"play"``, ``"arena"``, ``"web"``,
    ``"import"``...), ``table_id`` the web table it was played at, ``commitment`` the
    fair-dealing commitment it was dealt under (docs/fair-dealing.md). ``id`` is set by
    the store; it is ignored when a record is added.
    """

    game: str
    variant: str
    phh: str
    players: tuple[str, ...]
    starting_stacks: tuple[int, ...]
    finishing_stacks: tuple[int, ...]
    board: str
    actions: int
    showdown: bool
    decided_by: str | None
    source: str
    table_id: str | None = None
    played_at: datetime.datetime = field(default_factory=utc_now)
    id: int | None = None
    commitment: str | None = None

    def __post_init__(self) -> None:
        _text(self.game, "game", empty=False)
        _text(self.variant, "variant")
        _text(self.phh, "phh")
        _text(self.board, "board")
        _text(self.source, "source", empty=False)
        if isinstance(self.players, str):
            raise StoreError(f"players must be a sequence of names, got {self.players!r}")
        players = tuple(_text(p, f"players[{i}]") for i, p in enumerate(self.players))
        if not players:
            raise StoreError("a hand needs at least one player, got players=()")
        starting = _counts(self.starting_stacks, "starting_stacks")
        finishing = _counts(self.finishing_stacks, "finishing_stacks")
        for name, stacks in (("starting_stacks", starting), ("finishing_stacks", finishing)):
            if len(stacks) != len(players):
                raise StoreError(
                    f"{name} must have one stack per player ({len(players)}), got {stacks!r}"
                )
        _count(self.actions, "actions")
        if not isinstance(self.showdown, bool):
            raise StoreError(f"showdown must be True or False, got {self.showdown!r}")
        if self.decided_by is not None:
            _text(self.decided_by, "decided_by")
        if self.table_id is not None:
            _text(self.table_id, "table_id", empty=False)
        if self.id is not None:
            _count(self.id, "id")
        if self.commitment is not None:
            _text(self.commitment, "commitment", empty=False)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "starting_stacks", starting)
        object.__setattr__(self, "finishing_stacks", finishing)
        object.__setattr__(self, "played_at", _utc(self.played_at, "played_at"))

    @property
    def winnings(self) -> tuple[int, ...]:
        """Each seat's net result in chips: finishing minus starting stack."""
        return tuple(
            f - s for s, f in zip(self.starting_stacks, self.finishing_stacks, strict=True)
        )


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A web table as last saved: its configuration and its state between hands (JSON),
    and when it was closed (None: open)."""

    table_id: str
    config: dict[str, Any]
    state: dict[str, Any]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    closed_at: datetime.datetime | None = None


@dataclass(frozen=True, slots=True)
class ArenaRun:
    """One arena run: how it was set up and what came out (JSON), and when it was stored."""

    id: int
    config: dict[str, Any]
    results: dict[str, Any]
    played_at: datetime.datetime


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's record in one game: hands dealt in and net chips won (or lost)."""

    name: str
    hands: int
    net: int


@dataclass(frozen=True, slots=True)
class GameStats:
    """Totals for one game: hands stored, how many reached showdown, and each player."""

    game: str
    hands: int
    showdowns: int
    players: tuple[PlayerStats, ...]

    @property
    def showdown_share(self) -> Fraction:
        """The exact share of hands that reached showdown."""
        return Fraction(self.showdowns, self.hands) if self.hands else Fraction(0)
