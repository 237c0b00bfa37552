"""A table's state between hands as the store keeps it: gathered from the room's parts,
and read back (checked) into the values a room is built from.

The state is one JSON object (``tables.state``): the seats and their stacks, the
button, the hands played and deals dealt, the host's pause, the seat requests, the fair
dealing's seeds, a sit-and-go's standings, the home game's extras (time banks, timed
blinds, avatars: :mod:`~cardlab.web.table_extras`), its rules' memory
(:mod:`~cardlab.web.table_house`) and the chat's mutes and numbering
(:mod:`~cardlab.web.table_chat`; its messages are the store's ``chat_lines``). A hand
in play is not in it (the store's ``live_hands`` has it, and
:meth:`~cardlab.web.table_hand.HandRunner.resume` replays it); the stacks are those the
hand started with. docs/web-tables.md, "Restarts".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from cardlab.errors import GameError
from cardlab.table import Session
from cardlab.table.tournament import Tournament
from cardlab.web.table_config import TableConfig
from cardlab.web.table_fair import TableSeeds
from cardlab.web.table_seats import SeatInfo, Seating, opening_seats
from cardlab.web.table_store import TableStore

__all__ = ["SavedTable", "table_state"]


class _Saves(Protocol):
    """A part whose state is saved with the table."""

    def state(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class SavedTable:
    """What a room starts from: a new table's defaults, or a saved state
    (:meth:`from_state`). ``seats`` and ``stacks`` None: a new table's (its bots and
    open seats, :func:`~cardlab.web.table_seats.opening_seats`)."""

    seats: list[SeatInfo] | None = None
    stacks: list[int] | None = None
    button: int | None = None
    hands_played: int = 0
    started: bool = False
    deals: int = 0
    host_sha256: str = ""
    fair: dict[str, Any] = field(default_factory=dict)
    paused: bool = False
    requests: list[dict[str, Any]] = field(default_factory=list)
    sat: dict[str, list[str]] | None = None
    tournament: Tournament | None = None
    extras: dict[str, Any] = field(default_factory=dict)  # table_extras
    house: dict[str, Any] | None = None  # the home-game rules' memory (table_house.py)
    chat: dict[str, Any] | None = None  # the chat's mutes and numbering (table_chat.py)

    @classmethod
    def from_state(cls, table_id: str, state: dict[str, Any]) -> SavedTable:
        """The saved ``state`` of table ``table_id``, checked: :class:`GameError` for a
        seat of an unknown kind or a negative stack (KeyError, TypeError, ValueError for
        a state that is not one)."""
        seats = [SeatInfo.from_dict(s) for s in state["seats"]]
        if any(s.kind not in ("open", "human", "bot") for s in seats):
            raise GameError(f"a saved table has a seat of an unknown kind: {table_id!r}")
        stacks = [int(v) for v in state["stacks"]]
        if any(v < 0 for v in stacks):
            raise GameError(f"a saved table has a negative stack: {table_id!r}")
        saved = state.get("tournament")
        return cls(
            seats=seats,
            stacks=stacks,
            button=int(state["button"]),
            hands_played=int(state["hands_played"]),
            started=bool(state["started"]),
            deals=int(state.get("deals", state["hands_played"])),
            host_sha256=str(state.get("host_sha256", "")),
            fair=dict(state.get("fair") or {}),
            paused=bool(state.get("paused", False)),
            requests=list(state.get("requests") or []),
            sat=state.get("sat"),
            tournament=Tournament.from_dict(saved) if saved else None,
            extras=dict(state.get("extras") or {}),
            house=state.get("house"),
            chat=_chat_state(table_id, state.get("chat")),
        )

    def session(self, config: TableConfig) -> tuple[list[SeatInfo], Session]:
        """The seats and the session (stacks, button, hands played) of a table with
        ``config`` from this state."""
        seats, stacks = opening_seats(config, self.seats, self.stacks)
        session = Session(config.table_game(), [s.name for s in seats], [max(1, v) for v in stacks])
        for seat, value in zip(session.seats, stacks, strict=True):
            seat.stack = value
        if self.button is not None:
            session.button = self.button % config.seats
        session.hands_played = self.hands_played
        return seats, session

    def seeds(self, table_id: str, store: TableStore, config: TableConfig) -> TableSeeds:
        """The table's fair dealing (its seed in use, those revealed) from this state."""
        fair = self.fair
        seeds = TableSeeds(
            table_id, store, practice=config.seed, current=fair.get("commitment"),
            revealed=fair.get("revealed"), reveal_requested=bool(fair.get("reveal_requested")),
            rotations=int(fair.get("rotations", 0)), seeders=fair.get("seeders"),
        )  # fmt: skip
        seeds.next_deal = self.deals
        return seeds


def table_state(
    session: Session,
    seating: Seating,
    deals: int,
    paused: bool,
    *,
    fair: _Saves,
    director: _Saves,
    extras: _Saves,
    house: _Saves | None = None,
    chat: _Saves | None = None,
) -> dict[str, Any]:
    """The state to save (see the module documentation) of a table's parts."""
    return {
        "seats": [s.as_dict() for s in seating.seats],
        "stacks": [s.stack for s in session.seats],
        "button": session.button,
        "hands_played": session.hands_played,
        "started": seating.started,
        "deals": deals,
        "paused": paused,
        "requests": seating.requests.state(),
        "host_sha256": seating.host_sha256,
        "sat": seating.sat,
        "fair": fair.state(),
        "tournament": director.state(),
        "extras": extras.state(),
        **({} if house is None else {"house": house.state()}),
        **({} if chat is None else {"chat": chat.state()}),
    }


def _chat_state(table_id: str, saved: object) -> dict[str, Any] | None:
    """The chat's saved state (``Chat.state``), its shape checked: :class:`GameError`."""
    if saved is None:
        return None
    if isinstance(saved, dict):
        muted = saved.get("muted", [])
        counts = [saved.get(key, 1) for key in ("spectators", "next_id", "next_key")]
        if (
            isinstance(muted, list)
            and all(_is_mute(m) for m in muted)
            and all(type(v) is int and v >= 0 for v in counts)
        ):
            return dict(saved)
    raise GameError(f"a saved table has a chat state that is not one: {table_id!r}")


def _is_mute(entry: object) -> bool:
    """``[author, key, name]`` as :meth:`~cardlab.web.table_chat.Chat.state` saves it."""
    return (
        isinstance(entry, list)
        and len(entry) == 3
        and isinstance(entry[0], str)
        and type(entry[1]) is int
        and isinstance(entry[2], str)
    )
