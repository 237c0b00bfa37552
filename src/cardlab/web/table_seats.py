"""Who sits where at a web table: a person sitting down (with a secret browser token,
of which the room keeps only the SHA-256) or leaving, sitting out, adding chips, and
the ledger of every buy-in and cash-out. Asking the host for a seat and coming in at
a running table are :mod:`cardlab.web.table_arrivals`'s.

Each function is one of the methods of :class:`~cardlab.web.table_room.Room` that change
the seats (``room`` is the room).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardlab.errors import ActionError
from cardlab.web import table_tournament as sng
from cardlab.web.table_arrivals import SeatRequest, ask_for_seat
from cardlab.web.table_config import check_name, name_key
from cardlab.web.table_errors import TableFull

if TYPE_CHECKING:
    from cardlab.web.table_room import Room

log = logging.getLogger(__name__)


@dataclass
class SeatInfo:
    """Who sits in a seat: ``kind`` is "open" (free for a person), "human" or "bot";
    ``leaving``: the person left during a hand and stands up when it ends."""

    kind: str
    name: str
    bot: str = ""
    token_sha256: str = ""
    leaving: bool = False
    sitting: str = ""  # a random id per person and sitting-down (who played which hand)
    sitting_out: bool = False  # dealt no cards, posts nothing
    missed: int = 0  # hands missed while sitting out
    waiting: bool = False  # new at a running table: waits for the big blind or to post

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "token_sha256": self.token_sha256,
            "leaving": self.leaving,
            "sitting": self.sitting,
            "sitting_out": self.sitting_out,
            "missed": self.missed,
            "waiting": self.waiting,
        }


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def join(
    room: Room, name: object, seat: int | None, token_sha256: str, *, sends_seeds: bool = False
) -> int | SeatRequest:
    """Seat the person whose browser token hashes to ``token_sha256`` (the first open
    seat, or ``seat`` counted from 0); a browser that already has a seat here gets
    that seat again. Returns the seat. ``sends_seeds``: the person's page will send
    client seeds, so the next deal waits a moment for its first one. With
    ``approve_seats`` anybody but the host gets a pending request for the host to
    answer instead (:mod:`cardlab.web.table_arrivals`)."""
    if room.closed or room.closing:
        raise TableFull(f"table {room.id!r} is closed")
    mine = room.seat_of_hash(token_sha256)
    if mine is not None:
        return mine
    sng.check_join(room)
    if room.config.practice and token_sha256 != room.host_sha256:
        raise TableFull(
            "this is a practice table (its creator fixed the cards): it seats only its creator"
        )
    text = check_name(name)
    if room.config.approve_seats and not room.is_host(token_sha256):
        return ask_for_seat(room, text, seat, token_sha256, sends_seeds)
    seat = room.free_seat(text, seat)
    room.seat_requests.withdraw(token_sha256)  # asked before approval was turned off
    return room.sit_down(text, seat, token_sha256, sends_seeds)


def free_seat(room: Room, name: str, seat: int | None, taken: Collection[str] = ()) -> int:
    """The seat for a person called ``name`` (``seat``, else the first open one);
    :class:`TableFull` when the name is taken (or among ``taken``) or no seat is."""
    keys = {name_key(s.name) for s in room.seats if s.kind != "open"}
    if name_key(name) in keys | {name_key(t) for t in taken}:
        raise TableFull(f"the name {name!r} is taken at this table: choose another")
    open_seats = [i for i, s in enumerate(room.seats) if s.kind == "open"]
    if not open_seats:
        raise TableFull(f"table {room.id!r} is full: every seat is taken")
    if seat is None:
        return open_seats[0]
    if seat not in open_seats:
        free = ", ".join(str(i + 1) for i in open_seats)
        raise TableFull(f"seat {seat + 1} is not free (free: {free})")
    return seat


def sit_down(room: Room, text: str, seat: int, token_sha256: str, sends_seeds: bool) -> int:
    """Seat a person (checked) with the seat's starting stack, a buy-in in the
    ledger; at a running table they wait to come in (:func:`dealt_in`)."""
    stack = room.config.stack_of(seat)
    room.seats[seat] = SeatInfo(
        "human",
        text,
        token_sha256=token_sha256,
        sitting=secrets.token_urlsafe(12),
        waiting=room.deals > 0,
    )
    room.session.seats[seat].name = text
    room.session.seats[seat].stack = stack
    if sends_seeds:
        room._joined[seat] = time.monotonic()
    with room.store.transaction():
        room.save()
        room.store.add_ledger(room.id, seat, text, "buy-in", stack)
    room.touch()
    room.notify()
    room._maybe_deal()
    return seat


def seat_of_hash(room: Room, token_sha256: str | None) -> int | None:
    """The seat of the person whose token hashes to ``token_sha256``."""
    if not token_sha256:
        return None
    found = None
    for i, s in enumerate(room.seats):
        if (
            s.kind == "human"
            and s.token_sha256
            and hmac.compare_digest(s.token_sha256, token_sha256)
        ):
            found = i
    return found


def is_host(room: Room, token_sha256: str | None) -> bool:
    return (
        bool(token_sha256)
        and bool(room.host_sha256)
        and hmac.compare_digest(room.host_sha256, str(token_sha256))
    )


def leave(room: Room, seat: int | None) -> None:
    """The person in ``seat`` gives it back: their token stops working at once; the
    stack goes to the ledger now, or when the hand they are in ends (their
    decisions meanwhile are the clock's: check if free, else fold)."""
    if seat is None or room.seats[seat].kind != "human":
        raise ActionError("you have no seat at this table")
    info = room.seats[seat]
    info.token_sha256 = ""
    for conn_id, (conn, at, host) in list(room._conns.items()):
        if at == seat:  # the socket watches on as a spectator
            room._conns[conn_id] = (conn, None, host)
    hand = room.session.hand
    position = None if hand is None else room.session.position_of(seat)
    if sng.stays_in(room, seat):  # a tournament seat plays on, folded by the clock
        info.sitting_out = True
        room.save()
        room.notices.append(f"{info.name} left: their hands fold until they are out")
        if hand is not None and position is not None and hand.actor == position:
            room._schedule(room._leaving_turn(room.turn))
    elif room.live() and position is not None:
        info.leaving = True
        room.save()
        room.notices.append(f"{info.name} is leaving after this hand")
        if hand is not None and hand.actor == position:
            room._schedule(room._leaving_turn(room.turn))
    else:
        room._stand_up(seat)
    room.touch()
    room.notify()


def _stand_up(room: Room, seat: int) -> None:
    info = room.seats[seat]
    amount = room.session.seats[seat].stack
    room.seats[seat] = SeatInfo("open", f"seat {seat + 1}")
    room.session.seats[seat].stack = 0
    room.session.seats[seat].name = f"seat {seat + 1}"
    with room.store.transaction():
        room.save()
        room.store.add_ledger(room.id, seat, info.name, "cash-out", amount)


def start_now(room: Room, seat: int | None) -> None:
    """A seated person deals the first hand without waiting for the open seats."""
    if seat is None:
        raise ActionError("only a seated player can start the table")
    if not room.started:
        room.started = True
        room.save()
        room._maybe_deal()
        room.notify()


def sit_out(room: Room, seat: int | None, out: bool = True) -> None:
    """The person in ``seat`` sits out (dealt no cards, posts nothing, from the next
    hand) or back in. After ``max_missed`` missed hands a seat is stood up."""
    if seat is None or room.seats[seat].kind != "human":
        raise ActionError("you have no seat at this table")
    info = room.seats[seat]
    if not out and info.sitting_out and info.missed:  # back after missing hands
        info.waiting = True
    info.sitting_out = out
    info.missed = 0
    room.save()
    room.touch()
    room.notify()
    if not out:
        room._maybe_deal()


def add_chips(room: Room, seat: int | None, amount: object) -> None:
    """A rebuy or top-up of ``amount`` chips for ``seat``, between its hands, up to
    the table's buy-in cap; a buy-in in the ledger."""
    if seat is None or room.seats[seat].kind != "human":
        raise ActionError("you have no seat at this table")
    sng.check_rebuy(room)
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise ActionError(f"a rebuy is a positive whole number of chips: {amount!r:.40}")
    if room.live() and room.session.position_of(seat) is not None:
        raise ActionError("chips can be added between your hands, not during one")
    stack = room.session.seats[seat].stack
    cap = room.config.buy_in_cap
    if stack + amount > cap:
        raise ActionError(
            f"the table allows at most {cap} chips in front of you: you have {stack}, "
            f"so add at most {max(0, cap - stack)}"
        )
    room.session.seats[seat].stack = stack + amount
    room.seats[seat].missed = 0
    with room.store.transaction():
        room.save()
        room.store.add_ledger(room.id, seat, room.seats[seat].name, "buy-in", amount)
    room.notices.append(f"{room.seats[seat].name} added {amount} chips")
    room.touch()
    room.notify()
    room._maybe_deal()


def ledger(room: Room) -> dict[str, Any]:
    """The ledger: every buy-in and cash-out, each person's totals and net (what
    they took away and have on the table, less what they brought), and the check
    that chips brought less chips taken equal the chips at the table."""
    entries = room.store.ledger(room.id)
    people: dict[str, dict[str, int]] = {}
    for e in entries:
        row = people.setdefault(e.player, {"bought": 0, "cashed": 0, "on_table": 0})
        row["bought" if e.kind == "buy-in" else "cashed"] += e.amount
    # a hand in play counts as it started: its bets are nobody's yet
    stacks = [s.stack for s in room.session.seats]
    for i, info in enumerate(room.seats):
        if info.kind != "open":
            row = people.setdefault(info.name, {"bought": 0, "cashed": 0, "on_table": 0})
            row["on_table"] += stacks[i]
    rows = [
        {"player": name, **row, "net": row["cashed"] + row["on_table"] - row["bought"]}
        for name, row in people.items()
    ]
    brought = sum(e.amount for e in entries if e.kind == "buy-in")
    taken = sum(e.amount for e in entries if e.kind == "cash-out")
    return {
        "entries": [
            {
                "at": e.at.isoformat(),
                "seat": e.seat + 1,
                "player": e.player,
                "kind": e.kind,
                "amount": e.amount,
            }
            for e in entries
        ],
        "players": rows,
        "chips_brought": brought,
        "chips_taken": taken,
        "chips_on_table": sum(stacks),
        "balanced": brought - taken == sum(stacks),
    }
