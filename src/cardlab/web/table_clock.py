"""Who answers each decision of a web table's hand: a bot after its short delay, the
clock of a person (whose expiry plays the default action: check if free, else fold;
stand pat in a draw; bring in at stud), or at once a seat that left. One task waits
for each decision; a running clock is saved every ``CLOCK_SAVE`` seconds, so a
restarted server resumes it.

Each function is one of the methods of :class:`~cardlab.web.table_room.Room` that schedule
and answer the decisions (``room`` is the room).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import TYPE_CHECKING

from cardlab.bots import get_bot
from cardlab.errors import CardlabError
from cardlab.table import HandState, Phase, seat_view
from cardlab.web.table_payload import default_action

if TYPE_CHECKING:
    from cardlab.web.table_room import Room

log = logging.getLogger(__name__)

QUICK_BOTS = frozenset({"random", "station"})  # act at once, in the event loop
CLOCK_SAVE = 5.0  # seconds between saves of a running clock


def _schedule_decision(room: Room) -> None:
    hand = room.session.hand
    if hand is None or hand.actor is None:
        return
    seat = room.session.seat_of(hand.actor)
    if seat is None:
        return
    info = room.seats[seat]
    resumed, room._resume_clock = room._resume_clock, None
    if hand.phase is Phase.SHOWDOWN and hand.must_show():
        room._auto(hand)  # the rules turn this hand up: shown at once, nobody is asked
        return
    if info.kind == "bot":
        room._schedule(room._bot_turn(room.turn, seat))
    elif info.leaving or info.kind == "open" or (info.sitting_out and room.config.tournament):
        room._schedule(room._leaving_turn(room.turn))
    elif room.config.clock > 0:
        remaining = room.config.clock if resumed is None else max(0.0, resumed)
        room.deadline = asyncio.get_running_loop().time() + remaining
        room._schedule(room._clock(room.turn))


async def _clock(room: Room, turn: int) -> None:
    loop = asyncio.get_running_loop()
    while room.deadline is not None and turn == room.turn:
        left = room.deadline - loop.time()
        if left <= 0:
            break
        await asyncio.sleep(min(CLOCK_SAVE, left))
        left = 0.0 if room.deadline is None else room.deadline - loop.time()
        if turn == room.turn and left > 0:
            with contextlib.suppress(CardlabError):
                if room.writes_off_loop:
                    await asyncio.to_thread(room.store.save_clock, room.id, room.action_seq, left)
                else:
                    room.store.save_clock(room.id, room.action_seq, left)
    hand = room.session.hand
    if turn != room.turn or hand is None or hand.is_over:
        return
    room._auto(hand)


async def _leaving_turn(room: Room, turn: int) -> None:
    await asyncio.sleep(0)
    hand = room.session.hand
    if turn == room.turn and hand is not None and not hand.is_over:
        room._auto(hand)


def _auto(room: Room, hand: HandState) -> None:
    if room._storing is not None:  # the decision was just answered: being stored
        return
    try:
        room._play(default_action(hand.legal(), hand))
    except CardlabError:
        log.exception("table %s: the default action could not be played", room.id)


async def _bot_turn(room: Room, turn: int, seat: int) -> None:
    await asyncio.sleep(room.config.bot_delay)
    hand = room.session.hand
    if turn != room.turn or hand is None or hand.actor is None:
        return
    if hand.phase is Phase.SHOWDOWN:  # a bot shows or mucks as the clock would
        room._auto(hand)
        return
    view = seat_view(hand, hand.actor)
    rng = random.Random(room._bot_rng.getrandbits(64))
    bot = get_bot(room.seats[seat].bot)
    try:
        if bot.name in QUICK_BOTS:
            action = bot.act(view, rng)
        else:  # a bot that thinks (equity...) must not stall the other tables
            action = await asyncio.to_thread(bot.act, view, rng)
    except Exception:  # a broken bot must not stop the table
        log.exception("bot %s failed at table %s", room.seats[seat].bot, room.id)
        action = default_action(hand.legal(), hand)
    if turn != room.turn or hand.is_over:
        return
    try:
        room._play(action)
    except CardlabError:
        room._auto(hand)
