"""A live web table: seats and their secret tokens, hands dealt one after another, bots
and clocks run by the server, every change pushed to everyone watching.

A :class:`Room` wraps a :class:`~cardlab.table.Session`. Everything a client is sent
comes from :func:`~cardlab.table.seat_view` for its own seat (a spectator's view for a
client with no seat), so no hidden card and no seed ever leaves the server. A person's
seat is theirs through a random token (kept in an HttpOnly cookie); the room keeps only
its SHA-256, so a saved table holds no key. Everything runs on the server's event loop:
an action is checked and applied with no ``await`` in between, so two clicks cannot
interleave, and each decision has one task waiting for it (a bot's short delay, or the
clock of a person, whose expiry plays the default action: check if free, else fold;
stand pat in a draw; bring in at stud).

Between hands the table is saved (:meth:`Room.snapshot`), so a restarted server resumes
every table between hands with every chip where it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from cardlab.bots import get_bot
from cardlab.errors import ActionError, CardlabError, GameError
from cardlab.table import Action, HandState, Legal, Phase, Session, apply, seat_view
from cardlab.table import events as ev
from cardlab.table.history import record
from cardlab.web.table_config import TableConfig, check_name, parse_config
from cardlab.web.table_phh import FinishedHand, describe, finished, showdown_summary

log = logging.getLogger(__name__)

KEEP_HANDS = 100  # finished hands kept in memory per table for the PHH download
LOG_LINES = 200
QUICK_BOTS = frozenset({"random", "station"})  # act at once, in the event loop


class TableFull(GameError):
    """Every seat for a person is taken."""


class Connection(Protocol):
    async def send_text(self, data: str) -> None: ...


@dataclass
class SeatInfo:
    """Who sits in a seat: ``kind`` is "open" (free for a person), "human" or "bot"."""

    kind: str
    name: str
    bot: str = ""
    token_sha256: str = ""


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def default_action(legal: Legal) -> Action:
    """What the clock plays: check if free, else fold; stand pat; bring in; show."""
    if legal.phase is Phase.DRAW:
        return Action.discard()
    if legal.phase is not Phase.BET:
        return Action.show()
    if legal.call == 0:
        return Action.call()
    if legal.call is None and legal.bring_in is not None:
        return Action.bring_in()
    return Action.fold() if legal.fold else Action.call()


def presets(legal: Legal, pot: int, top_bet: int, to_call: int) -> list[dict[str, Any]]:
    """Bet or raise sizes for the buttons: min, half pot, pot, all-in, each a legal
    *to* amount (duplicates dropped)."""
    lo, hi = legal.raise_min, legal.raise_max
    if lo is None or hi is None:
        return []
    after_call = pot + to_call
    wanted = [
        ("min", lo),
        ("½ pot", top_bet + after_call // 2),
        ("pot", top_bet + after_call),
        ("all-in", hi),
    ]
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for label, amount in wanted:
        amount = max(lo, min(hi, amount))
        if amount == hi and label != "all-in":
            continue  # the all-in button says it best
        if amount not in seen:
            seen.add(amount)
            out.append({"label": label, "amount": amount})
    return out


class Room:
    """One table; see the module documentation."""

    def __init__(
        self,
        table_id: str,
        config: TableConfig,
        *,
        seats: list[SeatInfo] | None = None,
        stacks: list[int] | None = None,
        button: int | None = None,
        hands_played: int = 0,
        started: bool = False,
        on_hand: Callable[[Room, Any], Any] | None = None,
    ) -> None:
        self.id = table_id
        self.config = config
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
            stacks = [config.stack_of(i) if s.kind != "open" else 0 for i, s in enumerate(seats)]
        if len(seats) != n or len(stacks) != n:
            raise GameError(f"a saved table of {n} seats has {len(seats)} seats")
        self.seats = seats
        self.session = Session(
            self.game,
            [s.name for s in seats],
            [max(1, v) for v in stacks],
            seed=config.seed,
            button=button,
        )
        for seat, value in zip(self.session.seats, stacks, strict=True):
            seat.stack = value
        self.session.hands_played = hands_played
        self.started = started or all(s.kind == "bot" for s in seats)
        self.turn = 0  # counts changes of the live hand; a client may echo it
        self.finished: deque[FinishedHand] = deque(maxlen=KEEP_HANDS)
        self._last: tuple[int, HandState, list[str]] | None = None
        self._last_summary: dict[str, Any] | None = None
        self.deadline: float | None = None
        self.closed = False
        self.on_hand = on_hand
        self._task: asyncio.Task[None] | None = None
        self._broadcaster: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._conns: dict[int, tuple[Connection, int | None]] = {}
        self._next_conn = 0

    # --- saving and restoring ------------------------------------------------------

    def snapshot(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The table's config and its state between hands (a hand in progress is not
        saved: a restart deals it again from the stacks it started with)."""
        state = {
            "seats": [
                {"kind": s.kind, "name": s.name, "bot": s.bot, "token_sha256": s.token_sha256}
                for s in self.seats
            ],
            "stacks": self._stacks_between_hands(),
            "button": self._button_between_hands(),
            "hands_played": self.session.hands_played,
            "started": self.started,
        }
        return self.config.as_dict(), state

    def _stacks_between_hands(self) -> list[int]:
        hand = self.session.hand
        stacks = [s.stack for s in self.session.seats]
        if hand is not None and not hand.is_over:
            for p, start in enumerate(hand.starting_stacks):
                seat = self.session.seat_of(p)
                if seat is not None:
                    stacks[seat] = start
        return stacks

    def _button_between_hands(self) -> int:
        return self.session.button

    @classmethod
    def restore(
        cls, table_id: str, config: dict[str, Any], state: dict[str, Any], **options: Any
    ) -> Room:
        checked = parse_config(config)
        seats = [
            SeatInfo(str(s["kind"]), str(s["name"]), str(s.get("bot", "")), str(s["token_sha256"]))
            for s in state["seats"]
        ]
        if any(s.kind not in ("open", "human", "bot") for s in seats):
            raise GameError(f"a saved table has a seat of an unknown kind: {table_id!r}")
        stacks = [int(v) for v in state["stacks"]]
        if any(v < 0 for v in stacks):
            raise GameError(f"a saved table has a negative stack: {table_id!r}")
        return cls(
            table_id,
            checked,
            seats=seats,
            stacks=stacks,
            button=int(state["button"]),
            hands_played=int(state["hands_played"]),
            started=bool(state["started"]),
            **options,
        )

    # --- seats -------------------------------------------------------------------------

    def join(self, name: object, seat: int | None = None) -> tuple[int, str]:
        """Seat a person (the first open seat, or ``seat`` counted from 0); returns the
        seat and its new secret token."""
        text = check_name(name)
        open_seats = [i for i, s in enumerate(self.seats) if s.kind == "open"]
        if not open_seats:
            raise TableFull(f"table {self.id!r} is full: every seat is taken")
        if seat is None:
            seat = open_seats[0]
        elif seat not in open_seats:
            free = ", ".join(str(i + 1) for i in open_seats)
            raise TableFull(f"seat {seat + 1} is not free (free: {free})")
        token = secrets.token_urlsafe(32)
        self.seats[seat] = SeatInfo("human", text, token_sha256=digest(token))
        self.session.seats[seat].name = text
        self.session.seats[seat].stack = self.config.stack_of(seat)
        self.notify()
        self._maybe_deal()
        return seat, token

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat whose secret ``token`` is (None: no seat)."""
        if not token or len(token) > 200:
            return None
        wanted = digest(token)
        found = None
        for i, s in enumerate(self.seats):
            if s.kind == "human" and hmac.compare_digest(s.token_sha256, wanted):
                found = i
        return found

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.kind == "open")

    def start_now(self, seat: int | None) -> None:
        """A seated person deals the first hand without waiting for the open seats."""
        if seat is None:
            raise ActionError("only a seated player can start the table")
        if not self.started:
            self.started = True
            self._maybe_deal()
            self.notify()

    # --- playing -------------------------------------------------------------------------

    @property
    def hand(self) -> HandState | None:
        return self.session.hand

    def live(self) -> bool:
        hand = self.session.hand
        return hand is not None and not hand.is_over

    def act(self, seat: int | None, text: str, *, turn: int | None = None) -> ev.Event:
        """Play ``text`` (``f``, ``c``, ``r 20``, ``b``, ``d 木7``, ``s``, ``m``) for
        ``seat``; :class:`ActionError` (nothing changes) when it is not that seat's turn,
        the action is illegal, or ``turn`` shows the client saw an older state."""
        hand = self.session.hand
        if seat is None:
            raise ActionError("you have no seat at this table (join first)")
        if hand is None or hand.is_over:
            raise ActionError("no hand is being played: wait for the next deal")
        if turn is not None and turn != self.turn:
            raise ActionError(
                f"the hand moved on (your screen showed turn {turn}, now {self.turn})"
            )
        actor = hand.actor
        if actor is None or self.session.seat_of(actor) != seat:
            who = "nobody" if actor is None else self.seats[self.session.seat_of(actor) or 0].name
            raise ActionError(f"it is not your turn (waiting for {who})")
        action = Action.parse(text, self.game.game.deck)
        event = apply(hand, action)
        self._changed()
        return event

    def wake(self) -> None:
        """Start the room's tasks on the running loop (idempotent)."""
        if self.closed:
            return
        if self._broadcaster is None or self._broadcaster.done():
            self._broadcaster = asyncio.get_running_loop().create_task(self._broadcast_loop())
        if self.live():
            if self._task is None or self._task.done():
                self._schedule_decision()
        else:
            self._maybe_deal()

    def close(self) -> None:
        self.closed = True
        for task in (self._task, self._broadcaster):
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    def _schedule(self, coro: Any) -> None:
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            self._task.cancel()
        self._task = asyncio.get_running_loop().create_task(coro)

    def _can_deal(self) -> bool:
        if self.open_seats == 0:
            self.started = True
        return not self.closed and self.started and self.session.can_deal()

    def _maybe_deal(self) -> None:
        if self.live() or (self._task is not None and not self._task.done()):
            return
        if self._can_deal():
            with contextlib.suppress(RuntimeError):  # no running loop: wake() deals later
                # a restored table waits its pause too, so people can come back first
                delay = self.config.pause if self.session.hands_played else 0.0
                self._schedule(self._deal_soon(delay))

    async def _deal_soon(self, delay: float) -> None:
        await asyncio.sleep(delay)
        if self._can_deal() and not self.live():
            self.session.new_hand()
            self._changed()

    def _changed(self) -> None:
        self.turn += 1
        self.deadline = None
        self.notify()
        if self.live():
            self._schedule_decision()
        else:
            self._schedule(self._end_of_hand())

    def _schedule_decision(self) -> None:
        hand = self.session.hand
        if hand is None or hand.actor is None:
            return
        seat = self.session.seat_of(hand.actor)
        if seat is None:
            return
        if self.seats[seat].kind == "bot":
            self._schedule(self._bot_turn(self.turn, seat))
        elif self.config.clock > 0:
            loop = asyncio.get_running_loop()
            self.deadline = loop.time() + self.config.clock
            self._schedule(self._clock(self.turn))

    async def _clock(self, turn: int) -> None:
        await asyncio.sleep(self.config.clock)
        hand = self.session.hand
        if turn != self.turn or hand is None or hand.is_over:
            return
        apply(hand, default_action(hand.legal()))
        self._changed()

    async def _bot_turn(self, turn: int, seat: int) -> None:
        await asyncio.sleep(self.config.bot_delay)
        hand = self.session.hand
        if turn != self.turn or hand is None or hand.actor is None:
            return
        view = seat_view(hand, hand.actor)
        rng = random.Random(
            f"cardlab web table {self.config.seed} hand {self.session.hands_played} turn {turn}"
        )
        bot = get_bot(self.seats[seat].bot)
        try:
            if bot.name in QUICK_BOTS:
                action = bot.act(view, rng)
            else:  # a bot that thinks (equity...) must not stall the other tables
                action = await asyncio.to_thread(bot.act, view, rng)
        except Exception:  # a broken bot must not stop the table
            log.exception("bot %s failed at table %s", self.seats[seat].bot, self.id)
            action = default_action(hand.legal())
        if turn != self.turn or hand.is_over:
            return
        try:
            apply(hand, action)
        except CardlabError:
            apply(hand, default_action(hand.legal()))
        self._changed()

    async def _end_of_hand(self) -> None:
        hand = self.session.hand
        if hand is None or hand.result is None:
            return
        names = self.session.names()
        seats = [self.session.seat_of(p) or 0 for p in range(hand.players)]
        number = self.session.hands_played + 1
        self.finished.append(finished(hand, number, seats, names))
        self.session.end_hand()
        if self.on_hand is not None:
            # saved before anyone is told the hand is over: what they see is on disk
            stored = record(hand, players=names, source="web", table_id=self.id)
            try:
                await self.on_hand(self, stored)
            except Exception:
                log.exception("saving hand %d of table %s failed", number, self.id)
        self._last = (number, hand, names)
        self._last_summary = None
        self.notify()
        await asyncio.sleep(self.config.pause)
        if self._can_deal():
            self.session.new_hand()
            self._changed()
        else:
            self.notify()

    # --- what clients see ------------------------------------------------------------

    @property
    def last(self) -> dict[str, Any] | None:
        """The showdown summary of the last finished hand (worked out when first asked:
        a table nobody watches never pays for the best fives)."""
        if self._last is None:
            return None
        if self._last_summary is None:
            number, hand, names = self._last
            self._last_summary = {"hand": number, **showdown_summary(hand, names)}
        return self._last_summary

    def status(self) -> str:
        if self.live():
            hand = self.session.hand
            assert hand is not None
            seat = self.session.seat_of(hand.actor)
            who = "" if seat is None else f": {self.seats[seat].name} to act"
            return f"hand {self.session.hands_played + 1}, {hand.street_name}{who}"
        if not self.session.can_deal():
            if sum(1 for s in self.seats if s.kind != "open") < 2:
                return "waiting for players"
            return "the table is over: fewer than two players have chips"
        if not self.started:
            return f"waiting for players ({self.open_seats} open seats) or a start"
        if self._last is not None:
            return f"hand {self._last[0]} is over: the next one comes shortly"
        return "the next hand is being dealt"

    def payload(self, seat: int | None) -> dict[str, Any]:
        """Everything the client of ``seat`` (None: a spectator) is sent."""
        hand = self.session.hand
        position = None if hand is None or seat is None else self.session.position_of(seat)
        view = None if hand is None else seat_view(hand, position)
        names = self.session.names() if hand is not None else []
        connected = {s for _, s in self._conns.values()}
        players = []
        for i, info in enumerate(self.seats):
            p = None if hand is None else self.session.position_of(i)
            pv = None if view is None or p is None else view.players[p]
            players.append(
                {
                    "seat": i + 1,
                    "name": info.name,
                    "kind": info.kind,
                    "bot": info.bot,
                    "stack": self.session.seats[i].stack
                    if pv is None or view is None or view.over
                    else pv.stack,
                    "bet": 0 if pv is None else pv.bet,
                    "in_hand": pv is not None and pv.in_hand,
                    "all_in": pv is not None and pv.all_in and not (view is not None and view.over),
                    "cards": []
                    if pv is None
                    else ["??" if c is None else str(c) for c in pv.cards],
                    "up": [] if pv is None else list(pv.up),
                    "button": self.session.button == i,
                    "actor": view is not None
                    and p is not None
                    and view.actor == p
                    and not view.over,
                    "connected": i in connected,
                    "you": seat == i,
                }
            )
        out: dict[str, Any] = {
            "type": "state",
            "table": {
                "id": self.id,
                "name": self.config.name,
                "game": self.config.game,
                "game_name": self.game.game.name,
                "stakes": self.game.stakes.describe(),
                "config": self.config.public(),
                "hand_number": self.session.hands_played + (1 if self.live() else 0),
                "started": self.started,
                "status": self.status(),
                "open_seats": self.open_seats,
            },
            "seats": players,
            "you": None if seat is None else {"seat": seat + 1, "name": self.seats[seat].name},
            "turn": self.turn,
            "hand": None,
            "legal": None,
            "clock": None,
            "log": [],
            "last": self.last,
        }
        if view is not None and hand is not None:
            out["hand"] = {
                "street": view.street,
                "phase": view.phase.value,
                "board": [str(c) for c in view.board],
                "pots": [
                    {"amount": p.amount, "players": [names[i] for i in p.players]}
                    for p in view.pots
                ],
                "total_pot": view.total_pot,
                "over": view.over,
            }
            out["log"] = [describe(e, names) for e in view.history][-LOG_LINES:]
            if view.legal is not None and not view.over:
                out["legal"] = self._legal_payload(view.legal, view, hand)
            if self.deadline is not None and hand.actor is not None:
                loop = asyncio.get_running_loop()
                out["clock"] = {
                    "seat": (self.session.seat_of(hand.actor) or 0) + 1,
                    "remaining": max(0.0, self.deadline - loop.time()),
                    "total": self.config.clock,
                }
        return out

    def _legal_payload(self, legal: Legal, view: Any, hand: HandState) -> dict[str, Any]:
        top = max(p.bet for p in view.players)
        me = view.players[legal.player]
        to_call = 0 if legal.call is None else legal.call
        return {
            "phase": legal.phase.value,
            "fold": legal.fold,
            "call": legal.call,
            "check": legal.call == 0,
            "bring_in": legal.bring_in,
            "raise_min": legal.raise_min,
            "raise_max": legal.raise_max,
            "complete": legal.complete,
            "bet": top == 0,
            "discard": legal.discard,
            "hole": [str(c) for c in me.cards if c is not None],
            "presets": presets(legal, view.total_pot, top, to_call),
            "default": str(default_action(legal)),
        }

    # --- connections --------------------------------------------------------------

    def connect(self, conn: Connection, seat: int | None) -> int:
        self._next_conn += 1
        self._conns[self._next_conn] = (conn, seat)
        self.notify()
        return self._next_conn

    def disconnect(self, conn_id: int) -> None:
        if self._conns.pop(conn_id, None) is not None:
            self.notify()

    @property
    def connections(self) -> int:
        return len(self._conns)

    def notify(self) -> None:
        self._wake.set()

    async def _broadcast_loop(self) -> None:
        while not self.closed:
            await self._wake.wait()
            self._wake.clear()
            texts: dict[int | None, str] = {}
            for conn_id, (conn, seat) in list(self._conns.items()):
                if seat not in texts:
                    texts[seat] = json.dumps(self.payload(seat), ensure_ascii=False)
                try:
                    await asyncio.wait_for(conn.send_text(texts[seat]), 10)
                except Exception:  # gone, or too slow: it reconnects and gets the state
                    self._conns.pop(conn_id, None)
