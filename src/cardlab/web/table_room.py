"""A live web table: seats and their secret tokens, hands dealt fairly one after another,
bots and clocks run by the server, every change stored before it is pushed to everyone.

A :class:`Room` wraps a :class:`~cardlab.table.Session`. What a client is sent comes
from :mod:`cardlab.web.table_payload` (its own seat's view). A person's seat is theirs
through a secret browser token (an HttpOnly cookie); the room keeps only its SHA-256.
Everything runs on the server's event loop: an action is checked, written to the store
and applied with no ``await`` in between, so two clicks cannot interleave and nothing is
announced that the store does not hold. (With PostgreSQL the write goes to a worker
thread instead, so that the loop serves the other tables while the server answers; the
action is applied only once stored, and the table takes no other action meanwhile: see
:func:`cardlab.web.table_hand._play`.) Each decision has one task waiting for it (a
bot's short delay, a leaving player's fold, or the clock of a person, whose expiry plays
the default action: check if free, else fold; stand pat in a draw; bring in at stud).

Write-ahead (docs/web-tables.md, "Restarts"): a deal is recorded (its number, seats,
stacks, client seeds and commitment) before any card is shown, each action before it is
announced, and the end of the hand with the table's new state in one transaction. A
restarted server replays the hand in play from the same fair shuffle and the stored
actions and resumes at the same decision with the clock it had; a hand that cannot be
replayed is cancelled and every chip goes back to where it was before the deal. Deal
numbers never repeat, so a cancelled hand's cards are never dealt again.

This module keeps the room's state (set up in ``Room.__init__``), saving and
restoring it, what clients are sent and the connections; the methods of each concern
are functions of ``room`` in their own module, listed in the class body:
:mod:`~cardlab.web.table_seats` (who sits where, chips, the ledger),
:mod:`~cardlab.web.table_hand` (dealing, acting, the end of a hand, fair dealing),
:mod:`~cardlab.web.table_clock` (clocks and bots) and :mod:`~cardlab.web.table_host`
(the host's operations, closing).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from cardlab.errors import CardlabError, GameError
from cardlab.table import HandState, Session
from cardlab.table.dealing import Dealer, FairDeal
from cardlab.table.tournament import Tournament
from cardlab.web import table_clock, table_hand, table_host, table_seats
from cardlab.web.table_arrivals import SeatRequests, waiting_note
from cardlab.web.table_chat import Chat
from cardlab.web.table_config import TableConfig, parse_config
from cardlab.web.table_errors import TableFull
from cardlab.web.table_fair import TableSeeds
from cardlab.web.table_hand import KEEP_HANDS
from cardlab.web.table_payload import payload
from cardlab.web.table_phh import FinishedHand, showdown_summary
from cardlab.web.table_seats import SeatInfo, digest
from cardlab.web.table_store import TableStore

__all__ = ["BOT_HANDS", "KEEP_HANDS", "Connection", "Room", "SeatInfo", "TableFull", "digest"]

log = logging.getLogger(__name__)

KEEP_NOTICES = 5
BOT_HANDS = 200  # hands a table of bots plays while nobody watches


class Connection(Protocol):
    async def send_text(self, data: str) -> None: ...


class Room:
    """One table; see the module documentation."""

    def __init__(
        self,
        table_id: str,
        config: TableConfig,
        store: TableStore,
        *,
        seats: list[SeatInfo] | None = None,
        stacks: list[int] | None = None,
        button: int | None = None,
        hands_played: int = 0,
        started: bool = False,
        deals: int = 0,
        host_sha256: str = "",
        fair: dict[str, Any] | None = None,
        bot_hands: int = BOT_HANDS,
        on_close: Callable[[Room], None] | None = None,
    ) -> None:
        self.id = table_id
        self.config = config
        self.store = store
        self.game = config.table_game()
        n = config.seats
        if seats is None:
            seats = [
                SeatInfo("bot", f"{config.bots[i + 1]} bot {i + 1}", config.bots[i + 1])
                if i + 1 in config.bots
                else SeatInfo("open", f"seat {i + 1}")
                for i in range(n)
            ]
        if stacks is None:
            stacks = [config.stack_of(i) if s.kind == "bot" else 0 for i, s in enumerate(seats)]
        if len(seats) != n or len(stacks) != n:
            raise GameError(f"a saved table of {n} seats has {len(seats)} seats")
        self.seats = seats
        self.session = Session(self.game, [s.name for s in seats], [max(1, v) for v in stacks])
        for seat, value in zip(self.session.seats, stacks, strict=True):
            seat.stack = value
        if button is not None:
            self.session.button = button % n
        self.session.hands_played = hands_played
        self.started = started or all(s.kind == "bot" for s in seats)
        self.deals = deals
        self.host_sha256 = host_sha256
        fair = fair or {}
        self.fair = TableSeeds(
            table_id,
            store,
            practice=config.seed,
            current=fair.get("commitment"),
            revealed=fair.get("revealed"),
            reveal_requested=bool(fair.get("reveal_requested", False)),
            rotations=int(fair.get("rotations", 0)),
        )
        self.fair.next_deal = deals
        self.bot_hands = bot_hands
        self.on_close = on_close
        self.deal: FairDeal | None = None
        self.dealer: Dealer | None = None
        self.hand_names: list[str] = []  # the players of the current hand by position
        self.hand_sittings: list[str] = []
        self.action_seq = 0
        self._ended = True  # the current hand (if any) has been stored as finished
        self.turn = 0  # counts changes of the live hand; a client may echo it
        self.finished: deque[FinishedHand] = deque(maxlen=KEEP_HANDS)
        self.notices: deque[str] = deque(maxlen=KEEP_NOTICES)
        self._last: tuple[int, HandState, list[str]] | None = None
        self._last_summary: dict[str, Any] | None = None
        # the last hand as stored (its id), while its uncontested winner may show
        self._show_window: tuple[int, HandState, int] | None = None
        self.deadline: float | None = None
        self._resume_clock: float | None = None
        self.closed = False
        self.closing = False
        self.paused = False  # the host stopped dealing (between hands)
        self._next_config: TableConfig | None = None  # the host's settings for next hand
        self.unwatched_hands = 0
        self.last_activity = time.monotonic()
        self._seeders: set[int] = set()  # seats whose browser has sent client seeds
        self._joined: dict[int, float] = {}  # seat -> when a person sat down
        self._bot_rng = random.Random(config.seed) if config.practice else random.Random()
        self._task: asyncio.Task[None] | None = None
        # a store on a server (PostgreSQL) is written from a worker thread, one action in
        # flight at a time (table_hand._play); SQLite's commits take microseconds
        self.writes_off_loop = getattr(store, "dialect", "sqlite") == "postgresql"
        self._storing: asyncio.Task[None] | None = None  # the action being stored
        self._broadcaster: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._conns: dict[int, tuple[Connection, int | None, bool]] = {}
        self._next_conn = 0
        self.seat_requests = SeatRequests()  # pending requests for a seat (approve_seats)
        self.chat = Chat(is_host=self.is_host, on_change=self.notify)  # memory only
        self.tournament: Tournament | None = None  # a sit-and-go, once it has started
        self.tournament_level: int | None = None  # the level of the hand dealt last
        self.tournament_mark: float | None = None  # time-based levels: counting since

    # --- seats: cardlab.web.table_seats ---------------------------------------------------

    join = table_seats.join
    free_seat = table_seats.free_seat
    sit_down = table_seats.sit_down
    seat_of_hash = table_seats.seat_of_hash
    is_host = table_seats.is_host
    leave = table_seats.leave
    _stand_up = table_seats._stand_up
    start_now = table_seats.start_now
    sit_out = table_seats.sit_out
    add_chips = table_seats.add_chips
    ledger = table_seats.ledger

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.kind == "open")

    @property
    def people(self) -> set[int]:
        return {i for i, s in enumerate(self.seats) if s.kind == "human" and not s.leaving}

    # --- the hands: cardlab.web.table_hand ------------------------------------------------

    act = table_hand.act
    _play = table_hand._play
    watched = table_hand.watched
    _can_deal = table_hand._can_deal
    _maybe_deal = table_hand._maybe_deal
    _deal_soon = table_hand._deal_soon
    _missing_seeds = table_hand._missing_seeds
    _sitting_out = table_hand._sitting_out
    _dealt_in = table_hand._dealt_in
    _count_missed = table_hand._count_missed
    _deal = table_hand._deal
    _changed = table_hand._changed
    _end_of_hand = table_hand._end_of_hand
    _resume = table_hand._resume
    can_show = table_hand.can_show
    _show_refusal = table_hand._show_refusal
    show_hand = table_hand.show_hand
    offer_seed = table_hand.offer_seed
    request_reveal = table_hand.request_reveal
    _reveal = table_hand._reveal

    @property
    def hand(self) -> HandState | None:
        return self.session.hand

    def live(self) -> bool:
        hand = self.session.hand
        return hand is not None and not hand.is_over

    # --- clocks and bots: cardlab.web.table_clock -----------------------------------------

    _schedule_decision = table_clock._schedule_decision
    _clock = table_clock._clock
    _leaving_turn = table_clock._leaving_turn
    _auto = table_clock._auto
    _bot_turn = table_clock._bot_turn

    # --- the host: cardlab.web.table_host -------------------------------------------------

    pause = table_host.pause
    SETTINGS = table_host.SETTINGS
    change_settings = table_host.change_settings
    _apply_next_config = table_host._apply_next_config
    remove = table_host.remove
    add_bot = table_host.add_bot
    transfer_host = table_host.transfer_host
    _seat_index = table_host._seat_index
    request_close = table_host.request_close
    _cancel_hand = table_host._cancel_hand
    close_table = table_host.close_table

    # --- saving and restoring -------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The table's state between hands (a hand in play is in the store's
        ``live_hands``; these stacks are the ones it started with)."""
        return {
            "seats": [s.as_dict() for s in self.seats],
            "stacks": [s.stack for s in self.session.seats],
            "button": self.session.button,
            "hands_played": self.session.hands_played,
            "started": self.started,
            "deals": self.deals,
            "paused": self.paused,
            "requests": self.seat_requests.state(),
            "host_sha256": self.host_sha256,
            "fair": self.fair.state(),
            "tournament": None if self.tournament is None else self.tournament.as_dict(),
        }

    def snapshot(self) -> tuple[dict[str, Any], dict[str, Any]]:
        return self.config.as_dict(), self.state()

    def save(self) -> None:
        self.store.save_table(self.id, self.config.as_dict(), self.state())

    @classmethod
    def restore(
        cls,
        table_id: str,
        config: dict[str, Any],
        state: dict[str, Any],
        store: TableStore,
        **options: Any,
    ) -> Room:
        """The table as saved, with its hand in play resumed (or cancelled)."""
        checked = parse_config(config, saved=True)
        seats = [
            SeatInfo(
                str(s["kind"]),
                str(s["name"]),
                str(s.get("bot", "")),
                str(s.get("token_sha256", "")),
                bool(s.get("leaving", False)),
                str(s.get("sitting", "")),
                bool(s.get("sitting_out", False)),
                int(s.get("missed", 0)),
                waiting=bool(s.get("waiting", False)),
            )
            for s in state["seats"]
        ]
        if any(s.kind not in ("open", "human", "bot") for s in seats):
            raise GameError(f"a saved table has a seat of an unknown kind: {table_id!r}")
        stacks = [int(v) for v in state["stacks"]]
        if any(v < 0 for v in stacks):
            raise GameError(f"a saved table has a negative stack: {table_id!r}")
        room = cls(
            table_id,
            checked,
            store,
            seats=seats,
            stacks=stacks,
            button=int(state["button"]),
            hands_played=int(state["hands_played"]),
            started=bool(state["started"]),
            deals=int(state.get("deals", state["hands_played"])),
            host_sha256=str(state.get("host_sha256", "")),
            fair=state.get("fair"),
            **options,
        )
        room.paused = bool(state.get("paused", False))
        if state.get("tournament"):
            room.tournament = Tournament.from_dict(state["tournament"])
        room.seat_requests = SeatRequests(state.get("requests", []))
        room._load_finished()
        live = store.live_hand(table_id)
        if live is not None:
            room._resume(live)
        return room

    def _load_finished(self) -> None:
        """The table's last stored hands, for the PHH download after a restart."""
        try:
            records = self.store.hands(table_id=self.id, limit=KEEP_HANDS)
        except CardlabError:
            return
        for rec in reversed(records):
            with contextlib.suppress(CardlabError, KeyError, TypeError, ValueError):
                self.finished.append(FinishedHand.from_record(rec))

    # --- tasks ----------------------------------------------------------------------------

    def wake(self) -> None:
        """Start the room's tasks on the running loop (idempotent)."""
        if self.closed:
            return
        if self._broadcaster is None or self._broadcaster.done():
            self._broadcaster = asyncio.get_running_loop().create_task(self._broadcast_loop())
        hand = self.session.hand
        if self.live():
            if (self._task is None or self._task.done()) and self._storing is None:
                self._schedule_decision()
        elif hand is not None and not self._ended:
            if self._task is None or self._task.done():
                self._schedule(self._end_of_hand())
        else:
            self._maybe_deal()

    def close(self) -> None:
        """Stop the room's tasks (the server stops; the table stays open in the store)."""
        for task in (self._task, self._broadcaster):
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    def _schedule(self, coro: Any) -> None:
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            self._task.cancel()
        self._task = asyncio.get_running_loop().create_task(coro)

    # --- what clients see -----------------------------------------------------------------

    @property
    def last(self) -> dict[str, Any] | None:
        """The showdown summary of the last finished hand (worked out when first asked:
        a table nobody watches never pays for the best fives)."""
        if self._last is None:
            return None
        if self._last_summary is None:
            number, hand, names = self._last
            replay = f"/tables/{self.id}/hands/{number}/replay"  # web/replay.py
            self._last_summary = {"hand": number, "replay": replay, **showdown_summary(hand, names)}
        return self._last_summary

    def status(self) -> str:
        if self.closed:
            return "the table is closed"
        if self.live():
            hand = self.session.hand
            assert hand is not None
            seat = self.session.seat_of(hand.actor)
            who = "" if seat is None else f": {self.seats[seat].name} to act"
            closing = " (the table closes after this hand)" if self.closing else ""
            waits = waiting_note(self)
            return f"hand {self.session.hands_played + 1}, {hand.street_name}{who}{closing}{waits}"
        if self.tournament is not None and self.tournament.over:
            return f"the tournament is over: {self.tournament.winner} wins"
        if len(self.session.next_order()) < 2:
            if sum(1 for s in self.seats if s.kind != "open") < 2:
                return "waiting for players"
            return "the table is over: fewer than two players have chips"
        if not self.started:
            return f"waiting for players ({self.open_seats} open seats) or a start"
        if self.paused:
            return f"paused by the host{waiting_note(self)}"
        if not self._can_deal():
            return f"paused: nobody has watched the last {self.unwatched_hands} hands"
        if self._last is not None:
            return f"hand {self._last[0]} is over: the next one comes shortly{waiting_note(self)}"
        return "the next hand is being dealt"

    def payload(self, seat: int | None, *, host: bool = False) -> dict[str, Any]:
        return payload(self, seat, host=host)

    # --- connections ----------------------------------------------------------------------

    def connect(self, conn: Connection, seat: int | None, host: bool = False) -> int:
        self._next_conn += 1
        self._conns[self._next_conn] = (conn, seat, host)
        self.unwatched_hands = 0
        self.touch()
        self.notify()
        self._maybe_deal()
        return self._next_conn

    def disconnect(self, conn_id: int) -> None:
        if self._conns.pop(conn_id, None) is not None:
            self.touch()
            self.notify()

    def has_connection(self, conn_id: int) -> bool:
        return conn_id in self._conns

    def connected_seats(self) -> set[int]:
        return {s for _, s, _ in self._conns.values() if s is not None}

    @property
    def connections(self) -> int:
        return len(self._conns)

    def touch(self) -> None:
        self.last_activity = time.monotonic()

    def clock(self) -> float:
        """Seconds on the server's monotonic clock."""
        return time.monotonic()

    def idle_for(self) -> float:
        return time.monotonic() - self.last_activity

    def notify(self) -> None:
        self._wake.set()

    async def _broadcast_loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            texts: dict[tuple[int | None, bool], str] = {}
            for conn_id, (conn, seat, host) in list(self._conns.items()):
                key = (seat, host)
                if key not in texts:
                    texts[key] = json.dumps(self.payload(seat, host=host), ensure_ascii=False)
                try:
                    # asyncio.timeout, not wait_for: on 3.11 wait_for may swallow a
                    # cancel that comes as the send completes, and close() would not end us
                    async with asyncio.timeout(10):
                        await conn.send_text(texts[key])
                except Exception:  # gone, or too slow: it reconnects and gets the state
                    self._conns.pop(conn_id, None)
            if self.closed:
                return


def _now() -> float:
    return time.monotonic()
