"""What the host of a web table does: pause and resume the dealing, change the settings
from the next hand, remove a player, seat a bot, hand the table to another person,
and close the table (at once, or after the hand in play). Approving requests for a
seat is :mod:`cardlab.web.table_arrivals`'s.

Each function is one of the methods of :class:`~cardlab.web.table_room.Room` that the host
calls, or that close the table (``room`` is the room).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

from cardlab.bots import get_bot
from cardlab.errors import ActionError, CardlabError
from cardlab.web import table_tournament as sng
from cardlab.web.table_config import parse_config
from cardlab.web.table_seats import SeatInfo

if TYPE_CHECKING:
    from cardlab.web.table_room import Room

log = logging.getLogger(__name__)


def pause(room: Room, paused: bool = True) -> None:
    """The host stops dealing after the hand in play, or deals again."""
    room.paused = paused
    if room.tournament is not None:
        sng.tick(room, stop=paused)
    room.save()
    room.notices.append("the host paused the table" if paused else "the host resumed")
    room.notify()
    if not paused:
        room._maybe_deal()


SETTINGS = (
    "blinds",
    "ante",
    "bring_in",
    "small_bet",
    "big_bet",
    "betting",
    "clock",
    "bot_delay",
    "pause",
    "max_buy_in",
    "max_missed",
    "public",
    "name",
    "approve_seats",
    "new_players",
)


def change_settings(room: Room, data: dict[str, Any]) -> None:
    """The host changes the stakes, clock, bot delay, pause or limits: from the next
    hand (checked now: a refused change changes nothing)."""
    unknown = sorted(str(k)[:30] for k in data if k not in room.SETTINGS)
    sng.check_settings(room, data)
    if unknown:
        raise ActionError(
            f"the host can change {', '.join(room.SETTINGS)}; not {', '.join(unknown)}"
        )
    config = parse_config(room.config.as_dict() | data, saved=True, changed=True)
    if room.live():
        room._next_config = config
        room.notices.append("the host changed the settings: from the next hand")
    else:
        room._next_config = config
        room._apply_next_config()
        room.notices.append("the host changed the settings")
    room.notify()


def _apply_next_config(room: Room) -> None:
    if room._next_config is None:
        return
    room.config, room._next_config = room._next_config, None
    room.game = room.config.table_game()
    room.session.game = room.game
    with contextlib.suppress(CardlabError):
        room.save()


def remove(room: Room, seat: object) -> None:
    """The host removes a person or a bot from ``seat`` (from 1): its stack goes to
    the ledger now, or when the hand it plays ends."""
    index = room._seat_index(seat)
    info = room.seats[index]
    if info.kind == "open":
        raise ActionError(f"seat {index + 1} is empty")
    if info.kind == "bot":
        info.kind = "human"  # leaves like a person: check or fold, then stands up
    room.leave(index)
    room.notices.append(f"the host removed {info.name}")


def add_bot(room: Room, seat: object, bot: object) -> None:
    """The host seats a bot in an open seat, with the table's starting stack."""
    index = room._seat_index(seat)
    if room.seats[index].kind != "open":
        raise ActionError(f"seat {index + 1} is not free")
    if not isinstance(bot, str):
        raise ActionError(f"a bot is named by a string: {bot!r:.40}")
    name = get_bot(bot).name
    label = f"{name} bot {index + 1}"
    stack = room.config.stack_of(index)
    room.seats[index] = SeatInfo("bot", label, name)
    room.session.seats[index].name = label
    room.session.seats[index].stack = stack
    with room.store.transaction():
        room.save()
        room.store.add_ledger(room.id, index, label, "buy-in", stack)
    room.notify()
    room._maybe_deal()


def transfer_host(room: Room, seat: object) -> None:
    """The host hands the table to the person in ``seat`` (from 1)."""
    index = room._seat_index(seat)
    info = room.seats[index]
    if info.kind != "human" or not info.token_sha256:
        raise ActionError(f"seat {index + 1} has no person to be the host")
    room.host_sha256 = info.token_sha256
    room.save()
    room.notices.append(f"{info.name} is the host now")
    room.notify()


def _seat_index(room: Room, seat: object) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= len(room.seats):
        raise ActionError(f"a seat is a number from 1 to {len(room.seats)}: {seat!r:.40}")
    return seat - 1


def request_close(room: Room, *, now: bool = False) -> None:
    """The host closes the table: at once between hands; during a hand at its end,
    or (``now``) at once with the hand cancelled and every chip returned."""
    if room.closed:
        return
    if room.live() and not now:
        room.closing = True
        room.notices.append("the host is closing the table after this hand")
        room.notify()
        return
    if room.live():
        room._cancel_hand("the host closed the table")
    room.close_table()


def _cancel_hand(room: Room, why: str) -> None:
    number = room.session.hands_played + 1
    room.session.hand = None
    room.deal = room.dealer = None
    room._ended = True
    room.turn += 1
    room.deadline = None
    room.store.cancel_hand(room.id, room.state())
    room.notices.append(f"hand {number} was cancelled ({why}); every chip returned")


def close_table(room: Room) -> None:
    """Close now: reveal the seed, every person's stack to the ledger, the table
    marked closed in the store (its hands stay), every client told."""
    if room.closed:
        return
    room.closing = False
    try:
        if room.deals > 0 or room.finished:
            room._reveal()
        people = [i for i, s in enumerate(room.seats) if s.kind == "human"]
        with room.store.transaction():
            for seat in people:
                room._stand_up(seat)
            room.store.close_table(room.id, room.state())
    except CardlabError:
        log.exception("closing table %s", room.id)
    room.closed = True
    room.notices.append("the table is closed")
    room.notify()
    if room._task is not None and room._task is not asyncio.current_task():
        room._task.cancel()
    if room.on_close is not None:
        room.on_close(room)
