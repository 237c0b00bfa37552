"""The hands of a web table, one after another: when the next one is dealt (recorded in
the store before any card is shown), each action checked, stored and then applied
(write-ahead), the end of a hand stored with the table's new state, a hand in play
replayed after a restart, a show after a hand won uncontested, and the client seeds
and seed reveals of fair dealing.

Each function is one of the methods of :class:`~cardlab.web.table_room.Room` that play
the hands (``room`` is the room).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections import deque
from typing import TYPE_CHECKING, Any

from cardlab.errors import ActionError, CardlabError
from cardlab.table import Action, HandState, apply
from cardlab.table.actions import verify
from cardlab.table.dealing import Dealer, FairDeal
from cardlab.table.history import record
from cardlab.table.phh import dumps as phh_text
from cardlab.web import table_tournament as sng
from cardlab.web.table_arrivals import dealt_in
from cardlab.web.table_phh import finished

if TYPE_CHECKING:
    from cardlab.web.table_room import Room

log = logging.getLogger(__name__)

KEEP_HANDS = 100  # finished hands kept in memory per table for the PHH download
SEED_WAIT = 1.5  # seconds a deal waits for the client seeds of connected browsers


def act(room: Room, seat: int | None, text: str, *, turn: int | None = None) -> None:
    """Play ``text`` (``f``, ``c``, ``r 20``, ``b``, ``d 木7``, ``s``, ``m``) for
    ``seat``; :class:`ActionError` (nothing changes) when it is not that seat's turn,
    the action is illegal, or ``turn`` shows the client saw an older state."""
    hand = room.session.hand
    if seat is None:
        raise ActionError("you have no seat at this table (join first)")
    if hand is None or hand.is_over:
        raise ActionError("no hand is being played: wait for the next deal")
    if turn is not None and turn != room.turn:
        raise ActionError(f"the hand moved on (your screen showed turn {turn}, now {room.turn})")
    if room._storing is not None:  # a double click: the first is being stored
        raise ActionError(f"the hand moved on (the action of turn {room.turn} is being stored)")
    actor = hand.actor
    if actor is None or room.session.seat_of(actor) != seat:
        who = "nobody" if actor is None else room.seats[room.session.seat_of(actor) or 0].name
        raise ActionError(f"it is not your turn (waiting for {who})")
    room.touch()
    try:
        room._play(Action.parse(text, room.game.game.deck))
    except ActionError as error:
        # the engine names players by position ("p2 must ..."): say "you"
        message = re.sub(rf"\bp{actor + 1}\b", "you", str(error))
        message = message.replace("you has ", "you have ").replace("you is ", "you are ")
        raise ActionError(message) from None


def _play(room: Room, action: Action) -> None:
    """Check ``action``, store it, then apply it and tell everyone (write-ahead).

    With a store on a server (``room.writes_off_loop``: PostgreSQL), the write runs in a
    worker thread, so the event loop serves the other tables meanwhile: the action is
    checked now and applied (then announced) by a task once it is stored. One such write
    is in flight per table at a time (a second action is refused until it lands), so the
    table's actions reach the store in order, and nothing changes the hand before it."""
    hand = room.session.hand
    if hand is None or hand.is_over:
        raise ActionError("no hand is being played")
    if room._storing is not None:
        raise ActionError("the last action is still being stored: try again")
    verify(hand, action)
    if not room.writes_off_loop:
        room.store.add_action(room.id, room.action_seq, str(action))
        room.action_seq += 1
        apply(hand, action)
        room._changed()
        return
    assert room.deal is not None  # a hand in play was dealt
    stored = _store_then_apply(room, hand, action, room.turn, room.deal.hand_number)
    room._storing = asyncio.get_running_loop().create_task(stored)


async def _store_then_apply(
    room: Room, hand: HandState, action: Action, turn: int, deal_number: int
) -> None:
    """The rest of :func:`_play` off the event loop: store ``action`` in a worker thread,
    then apply it, unless the hand was cancelled meanwhile (the store then holds nothing
    of it: the write is only for ``deal_number`` while it is in play)."""
    try:
        await asyncio.to_thread(
            room.store.add_action,
            room.id,
            room.action_seq,
            str(action),
            deal_number=deal_number,
        )
    except CardlabError:
        room._storing = None
        log.exception("table %s: an action could not be stored; not played", room.id)
        room.notices.append("the server could not store an action: it was not played")
        room.notify()
        return
    room._storing = None
    if room.session.hand is not hand or room.turn != turn or hand.is_over:
        return  # cancelled while it was stored
    room.action_seq += 1
    apply(hand, action)
    room._changed()


def watched(room: Room) -> bool:
    return bool(room._conns)


def _can_deal(room: Room) -> bool:
    if room.open_seats == 0:
        room.started = True
    if room.closed or room.closing or not room.started or room.paused or sng.is_over(room):
        return False
    if len(room.session.next_order(room._sitting_out())) < 2:
        return False
    # nobody watching (people seated or not): a few hands, then the table waits
    return room.watched() or room.unwatched_hands < room.bot_hands


def _maybe_deal(room: Room) -> None:
    if room.live() or (room._task is not None and not room._task.done()):
        return
    if room._can_deal():
        with contextlib.suppress(RuntimeError):  # no running loop: wake() deals later
            # a restored table waits its pause too, so people can come back first
            delay = room.config.pause if room.session.hands_played else 0.0
            room._schedule(room._deal_soon(delay))


async def _deal_soon(room: Room, delay: float) -> None:
    await asyncio.sleep(delay)
    # give the browsers that send client seeds a moment to send this deal's
    waited = 0.0
    while waited < SEED_WAIT and room._missing_seeds():
        await asyncio.sleep(0.05)
        waited += 0.05
    if room._can_deal() and not room.live():
        room._deal()


def _missing_seeds(room: Room) -> bool:
    """A browser that sends client seeds has not sent this deal's yet (or a person
    just sat down, whose page is still connecting)."""
    connected = room.connected_seats()
    fresh = {s for s, at in room._joined.items() if time.monotonic() - at < SEED_WAIT}
    return any(
        (s in connected or s in fresh) and not room.fair.has_seed(s)
        for s in room.people & (room._seeders | fresh)
    )


def _sitting_out(room: Room) -> set[int]:
    if room.config.tournament:  # away in a tournament: dealt in, folded by the clock
        return set()
    return {i for i, s in enumerate(room.seats) if s.sitting_out}


def _dealt_in(room: Room, order: list[int]) -> tuple[list[int], list[int]]:
    """Of the seats that may play (by position), those dealt in and the positions
    that post to come in: the waiting seats come in by the table's ``new_players``."""
    waiting = {s for s in order if room.seats[s].waiting}
    return dealt_in(order, waiting, room.game.stakes.blinds, room.config.new_players)


def _count_missed(room: Room, order: list[int]) -> None:
    """Each seat with chips that sat this deal out missed a hand; one that missed
    ``max_missed`` hands is stood up (its stack to the ledger)."""
    for i, info in enumerate(room.seats):
        if info.sitting_out and i not in order and room.session.seats[i].stack > 0:
            info.missed += 1
            if info.missed >= room.config.max_missed and info.kind == "human":
                room.notices.append(f"{info.name} missed {info.missed} hands: stood up")
                room._stand_up(i)


def _deal(room: Room) -> None:
    """Deal the next hand: recorded in the store before any card is shown."""
    level = sng.before_deal(room)
    room._count_missed(room.session.next_order(room._sitting_out()))
    order, posts = room._dealt_in(room.session.next_order(room._sitting_out()))
    joining = [s for s in order if room.seats[s].waiting]
    for s in joining:
        room.seats[s].waiting = False
    number = room.deals
    deal = room.fair.deal(number, order, room.people)
    dealer = Dealer(room.game.game.deck, room.fair.server_seed, deal)
    start: dict[str, Any] = {
        "order": order,
        "button": room.session.button,
        "client_seeds": list(deal.client_seeds),
        "commitment": deal.commitment,
        "names": [room.seats[s].name for s in order],
        "sittings": [room.seats[s].sitting for s in order],
        "posts": posts,
    }
    if level is not None:
        start["level"] = level
    room.deals = number + 1
    try:
        room.store.begin_hand(room.id, number, start, room.state())
    except CardlabError:
        for s in joining:
            room.seats[s].waiting = True
        log.exception("table %s: deal %d could not be stored; not dealt", room.id, number)
        room.notices.append("the server could not store the next deal; it was not dealt")
        room.notify()
        return
    room.session.new_hand(dealer=dealer, order=order, posts=posts, showdown="manual")
    room.deal, room.dealer = deal, dealer
    room.hand_names, room.hand_sittings = start["names"], start["sittings"]
    room.action_seq = 0
    room._ended = False
    if not room.watched():
        room.unwatched_hands += 1
    room._changed()


def _changed(room: Room) -> None:
    room.turn += 1
    room.deadline = None
    room.notify()
    if room.live():
        room._schedule_decision()
    else:
        room._schedule(room._end_of_hand())


async def _end_of_hand(room: Room) -> None:
    hand = room.session.hand
    if hand is None or hand.result is None or room._ended or room.deal is None:
        return
    room._ended = True
    room._show_window = None
    names = list(room.hand_names)
    order = room.session.order
    number = room.session.hands_played + 1
    fields = room.deal.user_fields() | {
        "_seats": [s + 1 for s in order],
        "_table": room.id,
        "_sittings": list(room.hand_sittings),
    }
    if room.dealer is not None and room.dealer.piles:
        fields["_reshuffled"] = [" ".join(c.ascii for c in p) for p in room.dealer.piles]
    done = finished(hand, number, order, names, fields)
    stored = record(hand, players=names, source="web", table_id=room.id, history=done.history)
    before = {seat: room.session.seats[seat].stack for seat in order}
    room.session.end_hand()
    try:
        sng.after_hand(room, before)
    except CardlabError:
        log.exception("table %s: the tournament's places could not be saved", room.id)
    leaving = [i for i, s in enumerate(room.seats) if s.leaving]
    try:
        with room.store.transaction():
            hand_id = room.store.end_hand(room.id, stored, room.state())
            for seat in leaving:
                room._stand_up(seat)
        room._show_window = (hand_id, hand, number)
    except CardlabError:
        log.exception("saving hand %d of table %s failed", number, room.id)
    room.finished.append(done)
    room._apply_next_config()
    room._last = (number, hand, names)
    room._last_summary = None
    if room.fair.reveal_requested:
        room._reveal()
    if room.closing:
        room.close_table()
        return
    room.notify()
    await asyncio.sleep(room.config.pause)
    room._task = None
    room._maybe_deal()
    room.notify()


def _resume(room: Room, live: Any) -> None:
    """Replay the stored hand in play; cancel it if it cannot be replayed."""
    start = live.start
    try:
        deal = FairDeal(
            str(start["commitment"]),
            tuple(str(s) for s in start["client_seeds"]),
            int(live.deal_number),
            room.config.practice,
        )
        from cardlab.table.dealing import parse_server_seed

        seed = parse_server_seed(room.store.seed(room.id, deal.commitment).server_seed)
        dealer = Dealer(room.game.game.deck, seed, deal)
        room.session.button = int(start["button"])
        posts = [int(p) for p in start.get("posts", [])]
        sng.resume_level(room, start)
        hand = room.session.new_hand(
            dealer=dealer,
            order=[int(s) for s in start["order"]],
            posts=posts,
            showdown="manual",
        )
        deck = room.game.game.deck
        for text in live.actions:
            action = Action.parse(text, deck)
            verify(hand, action)
            apply(hand, action)
    except (CardlabError, KeyError, TypeError, ValueError) as error:
        room.session.hand = None
        room.deal = room.dealer = None
        log.warning("table %s: hand %s cannot be resumed: %s", room.id, live.deal_number, error)
        room.store.cancel_hand(room.id, room.state())
        room.notices.append(
            f"deal {live.deal_number} could not be resumed after a restart ({error}); "
            "it was cancelled and every chip returned"
        )
        return
    room.deal, room.dealer = deal, dealer
    names = [room.seats[s].name for s in room.session.order]
    room.hand_names = [str(n) for n in start.get("names", names)]
    room.hand_sittings = [str(n) for n in start.get("sittings", [""] * len(names))]
    room.action_seq = len(live.actions)
    room._ended = False
    room._resume_clock = live.clock_remaining
    room.notices.append(
        f"hand {room.session.hands_played + 1} resumed after a server restart "
        f"at action {room.action_seq}"
    )


def can_show(room: Room, seat: int | None) -> bool:
    """The person in ``seat`` won the last hand with everyone else folded and may
    still show their cards: once, until the next deal."""
    return room._show_refusal(seat) is None


def _show_refusal(room: Room, seat: int | None) -> str | None:
    """Why the person in ``seat`` may not show their cards now (None: they may)."""
    if seat is None or room.seats[seat].kind != "human":
        return "you have no seat at this table"
    if room.live():
        return "the hand is still being played: at the showdown you are asked to show"
    hand, window = room.session.hand, room._show_window
    if hand is None or window is None or window[1] is not hand or room.closed:
        return "there is no finished hand to show your cards from"
    position = room.session.position_of(seat)
    if position is None or room.hand_sittings[position] != room.seats[seat].sitting:
        return "you did not play the last hand"
    if hand.has_shown(position):
        return "your cards are already shown"
    if hand.winner_may_show != position:
        return "only the winner of a hand everyone else folded to may show after it"
    return None


def show_hand(room: Room, seat: int | None) -> None:
    """The person in ``seat``, who won the last hand with everyone else folded, shows
    their cards before the next deal: the stored hand gets its ``pN sm CARDS`` line
    first (write-ahead), then every client sees the cards."""
    why = room._show_refusal(seat)
    if why is not None:
        raise ActionError(why)
    assert seat is not None and room._show_window is not None
    hand_id, hand, number = room._show_window
    position = room.session.position_of(seat)
    k = next((k for k, h in enumerate(room.finished) if h.number == number), None)
    if position is None or k is None:
        raise ActionError("there is no finished hand to show your cards from")
    hand.verify_show_or_muck(True, position)
    done = room.finished[k].shown_after(hand, position)
    try:
        room.store.amend_hand(room.id, hand_id, phh_text(done.history), done.decisions)
    except CardlabError:
        log.exception("table %s: the show after hand %d could not be stored", room.id, number)
        raise ActionError("the server could not store your show: try again") from None
    hand.show_or_muck(True, player=position)
    room.finished[k] = done
    room._last_summary = None
    room.touch()
    room.notify()


def offer_seed(room: Room, seat: int | None, deal: object, seed: object) -> None:
    if seat is None:
        raise ActionError("only a seated player sends a client seed")
    room.fair.offer(seat, deal, seed)
    room._seeders.add(seat)


def request_reveal(room: Room, seat: int | None) -> None:
    """A seated person asks to reveal the server seed: now between hands, else at
    the end of the hand in play."""
    if seat is None:
        raise ActionError("only a seated player can ask to reveal the seed")
    if room.live():
        if not room.fair.reveal_requested:
            room.fair.reveal_requested = True
            room.save()
            room.notices.append(
                f"{room.seats[seat].name} asked to reveal the seed: after this hand"
            )
    else:
        room._reveal()
    room.notify()


def _reveal(room: Room) -> None:
    old, seed = room.fair.reveal()
    room.finished = deque(
        (h.revealed(seed) if h.commitment == old else h for h in room.finished),
        maxlen=KEEP_HANDS,
    )
    room.save()
    room.notices.append(f"server seed {old[:12]}... revealed; a new seed is in use")
