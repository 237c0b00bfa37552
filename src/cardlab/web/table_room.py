"""A live web table: seats and their secret tokens, hands dealt fairly one after another,
bots and clocks run by the server, every change stored before it is pushed to everyone.

A :class:`Room` wraps a :class:`~cardlab.table.Session`. What a client is sent comes
from :mod:`cardlab.web.table_payload` (its own seat's view). A person's seat is theirs
through a secret browser token (an HttpOnly cookie); the room keeps only its SHA-256.
Everything runs on the server's event loop: an action is checked, written to the store
and applied with no ``await`` in between, so two clicks cannot interleave and nothing is
announced that the store does not hold. Each decision has one task waiting for it (a
bot's short delay, a leaving player's fold, or the clock of a person, whose expiry plays
the default action: check if free, else fold; stand pat in a draw; bring in at stud).

Write-ahead (docs/web-tables.md, "Restarts"): a deal is recorded (its number, seats,
stacks, client seeds and commitment) before any card is shown, each action before it is
announced, and the end of the hand with the table's new state in one transaction. A
restarted server replays the hand in play from the same fair shuffle and the stored
actions and resumes at the same decision with the clock it had; a hand that cannot be
replayed is cancelled and every chip goes back to where it was before the deal. Deal
numbers never repeat, so a cancelled hand's cards are never dealt again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import re
import secrets
from collections import deque
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any, Protocol

from cardlab.bots import get_bot
from cardlab.errors import ActionError, CardlabError, GameError
from cardlab.table import Action, HandState, Phase, Session, apply, seat_view
from cardlab.table.actions import verify
from cardlab.table.dealing import Dealer, FairDeal
from cardlab.table.history import record
from cardlab.table.phh import dumps as phh_text
from cardlab.table.tournament import Tournament
from cardlab.web import table_tournament as sng
from cardlab.web.table_chat import Chat
from cardlab.web.table_config import TableConfig, check_name, name_key, parse_config
from cardlab.web.table_fair import TableSeeds
from cardlab.web.table_payload import default_action, payload
from cardlab.web.table_phh import FinishedHand, finished, showdown_summary
from cardlab.web.table_seating import (
    SeatRequest,
    SeatRequests,
    ask_for_seat,
    dealt_in,
    waiting_note,
)
from cardlab.web.table_store import TableStore

log = logging.getLogger(__name__)

KEEP_HANDS = 100  # finished hands kept in memory per table for the PHH download
KEEP_NOTICES = 5
QUICK_BOTS = frozenset({"random", "station"})  # act at once, in the event loop
CLOCK_SAVE = 5.0  # seconds between saves of a running clock
SEED_WAIT = 1.5  # seconds a deal waits for the client seeds of connected browsers
BOT_HANDS = 200  # hands a table of bots plays while nobody watches


class TableFull(GameError):
    """Every seat for a person is taken."""


class Connection(Protocol):
    async def send_text(self, data: str) -> None: ...


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
        self.last_activity = _now()
        self._seeders: set[int] = set()  # seats whose browser has sent client seeds
        self._joined: dict[int, float] = {}  # seat -> when a person sat down
        self._bot_rng = random.Random(config.seed) if config.practice else random.Random()
        self._task: asyncio.Task[None] | None = None
        self._broadcaster: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._conns: dict[int, tuple[Connection, int | None, bool]] = {}
        self._next_conn = 0
        self.seat_requests = SeatRequests()  # pending requests for a seat (approve_seats)
        self.chat = Chat(is_host=self.is_host, on_change=self.notify)  # memory only
        self.tournament: Tournament | None = None  # a sit-and-go, once it has started
        self.tournament_level: int | None = None  # the level of the hand dealt last
        self.tournament_mark: float | None = None  # time-based levels: counting since

    # --- saving and restoring ------------------------------------------------------

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

    def _resume(self, live: Any) -> None:
        """Replay the stored hand in play; cancel it if it cannot be replayed."""
        start = live.start
        try:
            deal = FairDeal(
                str(start["commitment"]),
                tuple(str(s) for s in start["client_seeds"]),
                int(live.deal_number),
                self.config.practice,
            )
            from cardlab.table.dealing import parse_server_seed

            seed = parse_server_seed(self.store.seed(self.id, deal.commitment).server_seed)
            dealer = Dealer(self.game.game.deck, seed, deal)
            self.session.button = int(start["button"])
            posts = [int(p) for p in start.get("posts", [])]
            sng.resume_level(self, start)
            hand = self.session.new_hand(
                dealer=dealer,
                order=[int(s) for s in start["order"]],
                posts=posts,
                showdown="manual",
            )
            deck = self.game.game.deck
            for text in live.actions:
                action = Action.parse(text, deck)
                verify(hand, action)
                apply(hand, action)
        except (CardlabError, KeyError, TypeError, ValueError) as error:
            self.session.hand = None
            self.deal = self.dealer = None
            log.warning("table %s: hand %s cannot be resumed: %s", self.id, live.deal_number, error)
            self.store.cancel_hand(self.id, self.state())
            self.notices.append(
                f"deal {live.deal_number} could not be resumed after a restart ({error}); "
                "it was cancelled and every chip returned"
            )
            return
        self.deal, self.dealer = deal, dealer
        names = [self.seats[s].name for s in self.session.order]
        self.hand_names = [str(n) for n in start.get("names", names)]
        self.hand_sittings = [str(n) for n in start.get("sittings", [""] * len(names))]
        self.action_seq = len(live.actions)
        self._ended = False
        self._resume_clock = live.clock_remaining
        self.notices.append(
            f"hand {self.session.hands_played + 1} resumed after a server restart "
            f"at action {self.action_seq}"
        )

    # --- seats -------------------------------------------------------------------------

    def join(
        self, name: object, seat: int | None, token_sha256: str, *, sends_seeds: bool = False
    ) -> int | SeatRequest:
        """Seat the person whose browser token hashes to ``token_sha256`` (the first open
        seat, or ``seat`` counted from 0); a browser that already has a seat here gets
        that seat again. Returns the seat. ``sends_seeds``: the person's page will send
        client seeds, so the next deal waits a moment for its first one. With
        ``approve_seats`` anybody but the host gets a pending request for the host to
        answer instead (:mod:`cardlab.web.table_seating`)."""
        if self.closed or self.closing:
            raise TableFull(f"table {self.id!r} is closed")
        mine = self.seat_of_hash(token_sha256)
        if mine is not None:
            return mine
        sng.check_join(self)
        if self.config.practice and token_sha256 != self.host_sha256:
            raise TableFull(
                "this is a practice table (its creator fixed the cards): it seats only its creator"
            )
        text = check_name(name)
        if self.config.approve_seats and not self.is_host(token_sha256):
            return ask_for_seat(self, text, seat, token_sha256, sends_seeds)
        seat = self.free_seat(text, seat)
        self.seat_requests.withdraw(token_sha256)  # asked before approval was turned off
        return self.sit_down(text, seat, token_sha256, sends_seeds)

    def free_seat(self, name: str, seat: int | None, taken: Collection[str] = ()) -> int:
        """The seat for a person called ``name`` (``seat``, else the first open one);
        :class:`TableFull` when the name is taken (or among ``taken``) or no seat is."""
        keys = {name_key(s.name) for s in self.seats if s.kind != "open"}
        if name_key(name) in keys | {name_key(t) for t in taken}:
            raise TableFull(f"the name {name!r} is taken at this table: choose another")
        open_seats = [i for i, s in enumerate(self.seats) if s.kind == "open"]
        if not open_seats:
            raise TableFull(f"table {self.id!r} is full: every seat is taken")
        if seat is None:
            return open_seats[0]
        if seat not in open_seats:
            free = ", ".join(str(i + 1) for i in open_seats)
            raise TableFull(f"seat {seat + 1} is not free (free: {free})")
        return seat

    def sit_down(self, text: str, seat: int, token_sha256: str, sends_seeds: bool) -> int:
        """Seat a person (checked) with the seat's starting stack, a buy-in in the
        ledger; at a running table they wait to come in (:func:`dealt_in`)."""
        stack = self.config.stack_of(seat)
        self.seats[seat] = SeatInfo(
            "human",
            text,
            token_sha256=token_sha256,
            sitting=secrets.token_urlsafe(12),
            waiting=self.deals > 0,
        )
        self.session.seats[seat].name = text
        self.session.seats[seat].stack = stack
        if sends_seeds:
            self._joined[seat] = _now()
        with self.store.transaction():
            self.save()
            self.store.add_ledger(self.id, seat, text, "buy-in", stack)
        self.touch()
        self.notify()
        self._maybe_deal()
        return seat

    def seat_of_hash(self, token_sha256: str | None) -> int | None:
        """The seat of the person whose token hashes to ``token_sha256``."""
        if not token_sha256:
            return None
        found = None
        for i, s in enumerate(self.seats):
            if (
                s.kind == "human"
                and s.token_sha256
                and hmac.compare_digest(s.token_sha256, token_sha256)
            ):
                found = i
        return found

    def is_host(self, token_sha256: str | None) -> bool:
        return (
            bool(token_sha256)
            and bool(self.host_sha256)
            and hmac.compare_digest(self.host_sha256, str(token_sha256))
        )

    def leave(self, seat: int | None) -> None:
        """The person in ``seat`` gives it back: their token stops working at once; the
        stack goes to the ledger now, or when the hand they are in ends (their
        decisions meanwhile are the clock's: check if free, else fold)."""
        if seat is None or self.seats[seat].kind != "human":
            raise ActionError("you have no seat at this table")
        info = self.seats[seat]
        info.token_sha256 = ""
        for conn_id, (conn, at, host) in list(self._conns.items()):
            if at == seat:  # the socket watches on as a spectator
                self._conns[conn_id] = (conn, None, host)
        hand = self.session.hand
        position = None if hand is None else self.session.position_of(seat)
        if sng.stays_in(self, seat):  # a tournament seat plays on, folded by the clock
            info.sitting_out = True
            self.save()
            self.notices.append(f"{info.name} left: their hands fold until they are out")
            if hand is not None and position is not None and hand.actor == position:
                self._schedule(self._leaving_turn(self.turn))
        elif self.live() and position is not None:
            info.leaving = True
            self.save()
            self.notices.append(f"{info.name} is leaving after this hand")
            if hand is not None and hand.actor == position:
                self._schedule(self._leaving_turn(self.turn))
        else:
            self._stand_up(seat)
        self.touch()
        self.notify()

    def _stand_up(self, seat: int) -> None:
        info = self.seats[seat]
        amount = self.session.seats[seat].stack
        self.seats[seat] = SeatInfo("open", f"seat {seat + 1}")
        self.session.seats[seat].stack = 0
        self.session.seats[seat].name = f"seat {seat + 1}"
        with self.store.transaction():
            self.save()
            self.store.add_ledger(self.id, seat, info.name, "cash-out", amount)

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.kind == "open")

    @property
    def people(self) -> set[int]:
        return {i for i, s in enumerate(self.seats) if s.kind == "human" and not s.leaving}

    def start_now(self, seat: int | None) -> None:
        """A seated person deals the first hand without waiting for the open seats."""
        if seat is None:
            raise ActionError("only a seated player can start the table")
        if not self.started:
            self.started = True
            self.save()
            self._maybe_deal()
            self.notify()

    def sit_out(self, seat: int | None, out: bool = True) -> None:
        """The person in ``seat`` sits out (dealt no cards, posts nothing, from the next
        hand) or back in. After ``max_missed`` missed hands a seat is stood up."""
        if seat is None or self.seats[seat].kind != "human":
            raise ActionError("you have no seat at this table")
        info = self.seats[seat]
        if not out and info.sitting_out and info.missed:  # back after missing hands
            info.waiting = True
        info.sitting_out = out
        info.missed = 0
        self.save()
        self.touch()
        self.notify()
        if not out:
            self._maybe_deal()

    def add_chips(self, seat: int | None, amount: object) -> None:
        """A rebuy or top-up of ``amount`` chips for ``seat``, between its hands, up to
        the table's buy-in cap; a buy-in in the ledger."""
        if seat is None or self.seats[seat].kind != "human":
            raise ActionError("you have no seat at this table")
        sng.check_rebuy(self)
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise ActionError(f"a rebuy is a positive whole number of chips: {amount!r:.40}")
        if self.live() and self.session.position_of(seat) is not None:
            raise ActionError("chips can be added between your hands, not during one")
        stack = self.session.seats[seat].stack
        cap = self.config.buy_in_cap
        if stack + amount > cap:
            raise ActionError(
                f"the table allows at most {cap} chips in front of you: you have {stack}, "
                f"so add at most {max(0, cap - stack)}"
            )
        self.session.seats[seat].stack = stack + amount
        self.seats[seat].missed = 0
        with self.store.transaction():
            self.save()
            self.store.add_ledger(self.id, seat, self.seats[seat].name, "buy-in", amount)
        self.notices.append(f"{self.seats[seat].name} added {amount} chips")
        self.touch()
        self.notify()
        self._maybe_deal()

    def ledger(self) -> dict[str, Any]:
        """The ledger: every buy-in and cash-out, each person's totals and net (what
        they took away and have on the table, less what they brought), and the check
        that chips brought less chips taken equal the chips at the table."""
        entries = self.store.ledger(self.id)
        people: dict[str, dict[str, int]] = {}
        for e in entries:
            row = people.setdefault(e.player, {"bought": 0, "cashed": 0, "on_table": 0})
            row["bought" if e.kind == "buy-in" else "cashed"] += e.amount
        # a hand in play counts as it started: its bets are nobody's yet
        stacks = [s.stack for s in self.session.seats]
        for i, info in enumerate(self.seats):
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

    # --- the host -----------------------------------------------------------------------

    def pause(self, paused: bool = True) -> None:
        """The host stops dealing after the hand in play, or deals again."""
        self.paused = paused
        if self.tournament is not None:
            sng.tick(self, stop=paused)
        self.save()
        self.notices.append("the host paused the table" if paused else "the host resumed")
        self.notify()
        if not paused:
            self._maybe_deal()

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

    def change_settings(self, data: dict[str, Any]) -> None:
        """The host changes the stakes, clock, bot delay, pause or limits: from the next
        hand (checked now: a refused change changes nothing)."""
        unknown = sorted(str(k)[:30] for k in data if k not in self.SETTINGS)
        sng.check_settings(self, data)
        if unknown:
            raise ActionError(
                f"the host can change {', '.join(self.SETTINGS)}; not {', '.join(unknown)}"
            )
        config = parse_config(self.config.as_dict() | data, saved=True)
        if self.live():
            self._next_config = config
            self.notices.append("the host changed the settings: from the next hand")
        else:
            self._next_config = config
            self._apply_next_config()
            self.notices.append("the host changed the settings")
        self.notify()

    def _apply_next_config(self) -> None:
        if self._next_config is None:
            return
        self.config, self._next_config = self._next_config, None
        self.game = self.config.table_game()
        self.session.game = self.game
        with contextlib.suppress(CardlabError):
            self.save()

    def remove(self, seat: object) -> None:
        """The host removes a person or a bot from ``seat`` (from 1): its stack goes to
        the ledger now, or when the hand it plays ends."""
        index = self._seat_index(seat)
        info = self.seats[index]
        if info.kind == "open":
            raise ActionError(f"seat {index + 1} is empty")
        if info.kind == "bot":
            info.kind = "human"  # leaves like a person: check or fold, then stands up
        self.leave(index)
        self.notices.append(f"the host removed {info.name}")

    def add_bot(self, seat: object, bot: object) -> None:
        """The host seats a bot in an open seat, with the table's starting stack."""
        index = self._seat_index(seat)
        if self.seats[index].kind != "open":
            raise ActionError(f"seat {index + 1} is not free")
        if not isinstance(bot, str):
            raise ActionError(f"a bot is named by a string: {bot!r:.40}")
        name = get_bot(bot).name
        label = f"{name} bot {index + 1}"
        stack = self.config.stack_of(index)
        self.seats[index] = SeatInfo("bot", label, name)
        self.session.seats[index].name = label
        self.session.seats[index].stack = stack
        with self.store.transaction():
            self.save()
            self.store.add_ledger(self.id, index, label, "buy-in", stack)
        self.notify()
        self._maybe_deal()

    def transfer_host(self, seat: object) -> None:
        """The host hands the table to the person in ``seat`` (from 1)."""
        index = self._seat_index(seat)
        info = self.seats[index]
        if info.kind != "human" or not info.token_sha256:
            raise ActionError(f"seat {index + 1} has no person to be the host")
        self.host_sha256 = info.token_sha256
        self.save()
        self.notices.append(f"{info.name} is the host now")
        self.notify()

    def _seat_index(self, seat: object) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= len(self.seats):
            raise ActionError(f"a seat is a number from 1 to {len(self.seats)}: {seat!r:.40}")
        return seat - 1

    # --- fair dealing ------------------------------------------------------------------

    def offer_seed(self, seat: int | None, deal: object, seed: object) -> None:
        if seat is None:
            raise ActionError("only a seated player sends a client seed")
        self.fair.offer(seat, deal, seed)
        self._seeders.add(seat)

    def request_reveal(self, seat: int | None) -> None:
        """A seated person asks to reveal the server seed: now between hands, else at
        the end of the hand in play."""
        if seat is None:
            raise ActionError("only a seated player can ask to reveal the seed")
        if self.live():
            if not self.fair.reveal_requested:
                self.fair.reveal_requested = True
                self.save()
                self.notices.append(
                    f"{self.seats[seat].name} asked to reveal the seed: after this hand"
                )
        else:
            self._reveal()
        self.notify()

    def _reveal(self) -> None:
        old, seed = self.fair.reveal()
        self.finished = deque(
            (h.revealed(seed) if h.commitment == old else h for h in self.finished),
            maxlen=KEEP_HANDS,
        )
        self.save()
        self.notices.append(f"server seed {old[:12]}... revealed; a new seed is in use")

    # --- playing -------------------------------------------------------------------------

    @property
    def hand(self) -> HandState | None:
        return self.session.hand

    def live(self) -> bool:
        hand = self.session.hand
        return hand is not None and not hand.is_over

    def act(self, seat: int | None, text: str, *, turn: int | None = None) -> None:
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
        self.touch()
        try:
            self._play(Action.parse(text, self.game.game.deck))
        except ActionError as error:
            # the engine names players by position ("p2 must ..."): say "you"
            message = re.sub(rf"\bp{actor + 1}\b", "you", str(error))
            message = message.replace("you has ", "you have ").replace("you is ", "you are ")
            raise ActionError(message) from None

    def _play(self, action: Action) -> None:
        """Check ``action``, store it, then apply it and tell everyone (write-ahead)."""
        hand = self.session.hand
        if hand is None or hand.is_over:
            raise ActionError("no hand is being played")
        verify(hand, action)
        self.store.add_action(self.id, self.action_seq, str(action))
        self.action_seq += 1
        apply(hand, action)
        self._changed()

    # --- a show after a hand won uncontested ---------------------------------------------

    def can_show(self, seat: int | None) -> bool:
        """The person in ``seat`` won the last hand with everyone else folded and may
        still show their cards: once, until the next deal."""
        return self._show_refusal(seat) is None

    def _show_refusal(self, seat: int | None) -> str | None:
        """Why the person in ``seat`` may not show their cards now (None: they may)."""
        if seat is None or self.seats[seat].kind != "human":
            return "you have no seat at this table"
        if self.live():
            return "the hand is still being played: at the showdown you are asked to show"
        hand, window = self.session.hand, self._show_window
        if hand is None or window is None or window[1] is not hand or self.closed:
            return "there is no finished hand to show your cards from"
        position = self.session.position_of(seat)
        if position is None or self.hand_sittings[position] != self.seats[seat].sitting:
            return "you did not play the last hand"
        if hand.has_shown(position):
            return "your cards are already shown"
        if hand.winner_may_show != position:
            return "only the winner of a hand everyone else folded to may show after it"
        return None

    def show_hand(self, seat: int | None) -> None:
        """The person in ``seat``, who won the last hand with everyone else folded, shows
        their cards before the next deal: the stored hand gets its ``pN sm CARDS`` line
        first (write-ahead), then every client sees the cards."""
        why = self._show_refusal(seat)
        if why is not None:
            raise ActionError(why)
        assert seat is not None and self._show_window is not None
        hand_id, hand, number = self._show_window
        position = self.session.position_of(seat)
        k = next((k for k, h in enumerate(self.finished) if h.number == number), None)
        if position is None or k is None:
            raise ActionError("there is no finished hand to show your cards from")
        hand.verify_show_or_muck(True, position)
        done = self.finished[k].shown_after(hand, position)
        try:
            self.store.amend_hand(self.id, hand_id, phh_text(done.history), done.decisions)
        except CardlabError:
            log.exception("table %s: the show after hand %d could not be stored", self.id, number)
            raise ActionError("the server could not store your show: try again") from None
        hand.show_or_muck(True, player=position)
        self.finished[k] = done
        self._last_summary = None
        self.touch()
        self.notify()

    def wake(self) -> None:
        """Start the room's tasks on the running loop (idempotent)."""
        if self.closed:
            return
        if self._broadcaster is None or self._broadcaster.done():
            self._broadcaster = asyncio.get_running_loop().create_task(self._broadcast_loop())
        hand = self.session.hand
        if self.live():
            if self._task is None or self._task.done():
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

    def watched(self) -> bool:
        return bool(self._conns)

    def _can_deal(self) -> bool:
        if self.open_seats == 0:
            self.started = True
        if self.closed or self.closing or not self.started or self.paused or sng.is_over(self):
            return False
        if len(self.session.next_order(self._sitting_out())) < 2:
            return False
        # nobody watching (people seated or not): a few hands, then the table waits
        return self.watched() or self.unwatched_hands < self.bot_hands

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
        # give the browsers that send client seeds a moment to send this deal's
        waited = 0.0
        while waited < SEED_WAIT and self._missing_seeds():
            await asyncio.sleep(0.05)
            waited += 0.05
        if self._can_deal() and not self.live():
            self._deal()

    def _missing_seeds(self) -> bool:
        """A browser that sends client seeds has not sent this deal's yet (or a person
        just sat down, whose page is still connecting)."""
        connected = self.connected_seats()
        fresh = {s for s, at in self._joined.items() if _now() - at < SEED_WAIT}
        return any(
            (s in connected or s in fresh) and not self.fair.has_seed(s)
            for s in self.people & (self._seeders | fresh)
        )

    def _sitting_out(self) -> set[int]:
        if self.config.tournament:  # away in a tournament: dealt in, folded by the clock
            return set()
        return {i for i, s in enumerate(self.seats) if s.sitting_out}

    def _dealt_in(self, order: list[int]) -> tuple[list[int], list[int]]:
        """Of the seats that may play (by position), those dealt in and the positions
        that post to come in: the waiting seats come in by the table's ``new_players``."""
        waiting = {s for s in order if self.seats[s].waiting}
        return dealt_in(order, waiting, self.game.stakes.blinds, self.config.new_players)

    def _count_missed(self, order: list[int]) -> None:
        """Each seat with chips that sat this deal out missed a hand; one that missed
        ``max_missed`` hands is stood up (its stack to the ledger)."""
        for i, info in enumerate(self.seats):
            if info.sitting_out and i not in order and self.session.seats[i].stack > 0:
                info.missed += 1
                if info.missed >= self.config.max_missed and info.kind == "human":
                    self.notices.append(f"{info.name} missed {info.missed} hands: stood up")
                    self._stand_up(i)

    def _deal(self) -> None:
        """Deal the next hand: recorded in the store before any card is shown."""
        level = sng.before_deal(self)
        self._count_missed(self.session.next_order(self._sitting_out()))
        order, posts = self._dealt_in(self.session.next_order(self._sitting_out()))
        joining = [s for s in order if self.seats[s].waiting]
        for s in joining:
            self.seats[s].waiting = False
        number = self.deals
        deal = self.fair.deal(number, order, self.people)
        dealer = Dealer(self.game.game.deck, self.fair.server_seed, deal)
        start: dict[str, Any] = {
            "order": order,
            "button": self.session.button,
            "client_seeds": list(deal.client_seeds),
            "commitment": deal.commitment,
            "names": [self.seats[s].name for s in order],
            "sittings": [self.seats[s].sitting for s in order],
            "posts": posts,
        }
        if level is not None:
            start["level"] = level
        self.deals = number + 1
        try:
            self.store.begin_hand(self.id, number, start, self.state())
        except CardlabError:
            for s in joining:
                self.seats[s].waiting = True
            log.exception("table %s: deal %d could not be stored; not dealt", self.id, number)
            self.notices.append("the server could not store the next deal; it was not dealt")
            self.notify()
            return
        self.session.new_hand(dealer=dealer, order=order, posts=posts, showdown="manual")
        self.deal, self.dealer = deal, dealer
        self.hand_names, self.hand_sittings = start["names"], start["sittings"]
        self.action_seq = 0
        self._ended = False
        if not self.watched():
            self.unwatched_hands += 1
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
        info = self.seats[seat]
        resumed, self._resume_clock = self._resume_clock, None
        if hand.phase is Phase.SHOWDOWN and hand.must_show():
            self._auto(hand)  # the rules turn this hand up: shown at once, nobody is asked
            return
        if info.kind == "bot":
            self._schedule(self._bot_turn(self.turn, seat))
        elif info.leaving or info.kind == "open" or (info.sitting_out and self.config.tournament):
            self._schedule(self._leaving_turn(self.turn))
        elif self.config.clock > 0:
            remaining = self.config.clock if resumed is None else max(0.0, resumed)
            self.deadline = asyncio.get_running_loop().time() + remaining
            self._schedule(self._clock(self.turn))

    async def _clock(self, turn: int) -> None:
        loop = asyncio.get_running_loop()
        while self.deadline is not None and turn == self.turn:
            left = self.deadline - loop.time()
            if left <= 0:
                break
            await asyncio.sleep(min(CLOCK_SAVE, left))
            left = 0.0 if self.deadline is None else self.deadline - loop.time()
            if turn == self.turn and left > 0:
                with contextlib.suppress(CardlabError):
                    self.store.save_clock(self.id, self.action_seq, left)
        hand = self.session.hand
        if turn != self.turn or hand is None or hand.is_over:
            return
        self._auto(hand)

    async def _leaving_turn(self, turn: int) -> None:
        await asyncio.sleep(0)
        hand = self.session.hand
        if turn == self.turn and hand is not None and not hand.is_over:
            self._auto(hand)

    def _auto(self, hand: HandState) -> None:
        try:
            self._play(default_action(hand.legal(), hand))
        except CardlabError:
            log.exception("table %s: the default action could not be played", self.id)

    async def _bot_turn(self, turn: int, seat: int) -> None:
        await asyncio.sleep(self.config.bot_delay)
        hand = self.session.hand
        if turn != self.turn or hand is None or hand.actor is None:
            return
        if hand.phase is Phase.SHOWDOWN:  # a bot shows or mucks as the clock would
            self._auto(hand)
            return
        view = seat_view(hand, hand.actor)
        rng = random.Random(self._bot_rng.getrandbits(64))
        bot = get_bot(self.seats[seat].bot)
        try:
            if bot.name in QUICK_BOTS:
                action = bot.act(view, rng)
            else:  # a bot that thinks (equity...) must not stall the other tables
                action = await asyncio.to_thread(bot.act, view, rng)
        except Exception:  # a broken bot must not stop the table
            log.exception("bot %s failed at table %s", self.seats[seat].bot, self.id)
            action = default_action(hand.legal(), hand)
        if turn != self.turn or hand.is_over:
            return
        try:
            self._play(action)
        except CardlabError:
            self._auto(hand)

    async def _end_of_hand(self) -> None:
        hand = self.session.hand
        if hand is None or hand.result is None or self._ended or self.deal is None:
            return
        self._ended = True
        self._show_window = None
        names = list(self.hand_names)
        order = self.session.order
        number = self.session.hands_played + 1
        fields = self.deal.user_fields() | {
            "_seats": [s + 1 for s in order],
            "_table": self.id,
            "_sittings": list(self.hand_sittings),
        }
        if self.dealer is not None and self.dealer.piles:
            fields["_reshuffled"] = [" ".join(c.ascii for c in p) for p in self.dealer.piles]
        done = finished(hand, number, order, names, fields)
        stored = record(hand, players=names, source="web", table_id=self.id, history=done.history)
        before = {seat: self.session.seats[seat].stack for seat in order}
        self.session.end_hand()
        try:
            sng.after_hand(self, before)
        except CardlabError:
            log.exception("table %s: the tournament's places could not be saved", self.id)
        leaving = [i for i, s in enumerate(self.seats) if s.leaving]
        try:
            with self.store.transaction():
                hand_id = self.store.end_hand(self.id, stored, self.state())
                for seat in leaving:
                    self._stand_up(seat)
            self._show_window = (hand_id, hand, number)
        except CardlabError:
            log.exception("saving hand %d of table %s failed", number, self.id)
        self.finished.append(done)
        self._apply_next_config()
        self._last = (number, hand, names)
        self._last_summary = None
        if self.fair.reveal_requested:
            self._reveal()
        if self.closing:
            self.close_table()
            return
        self.notify()
        await asyncio.sleep(self.config.pause)
        self._task = None
        self._maybe_deal()
        self.notify()

    # --- closing -----------------------------------------------------------------------

    def request_close(self, *, now: bool = False) -> None:
        """The host closes the table: at once between hands; during a hand at its end,
        or (``now``) at once with the hand cancelled and every chip returned."""
        if self.closed:
            return
        if self.live() and not now:
            self.closing = True
            self.notices.append("the host is closing the table after this hand")
            self.notify()
            return
        if self.live():
            self._cancel_hand("the host closed the table")
        self.close_table()

    def _cancel_hand(self, why: str) -> None:
        number = self.session.hands_played + 1
        self.session.hand = None
        self.deal = self.dealer = None
        self._ended = True
        self.turn += 1
        self.deadline = None
        self.store.cancel_hand(self.id, self.state())
        self.notices.append(f"hand {number} was cancelled ({why}); every chip returned")

    def close_table(self) -> None:
        """Close now: reveal the seed, every person's stack to the ledger, the table
        marked closed in the store (its hands stay), every client told."""
        if self.closed:
            return
        self.closing = False
        try:
            if self.deals > 0 or self.finished:
                self._reveal()
            people = [i for i, s in enumerate(self.seats) if s.kind == "human"]
            with self.store.transaction():
                for seat in people:
                    self._stand_up(seat)
                self.store.close_table(self.id, self.state())
        except CardlabError:
            log.exception("closing table %s", self.id)
        self.closed = True
        self.notices.append("the table is closed")
        self.notify()
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        if self.on_close is not None:
            self.on_close(self)

    # --- what clients see ------------------------------------------------------------

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

    # --- connections --------------------------------------------------------------

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
        self.last_activity = _now()

    def clock(self) -> float:
        """Seconds on the server's monotonic clock."""
        return _now()

    def idle_for(self) -> float:
        return _now() - self.last_activity

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
                    await asyncio.wait_for(conn.send_text(texts[key]), 10)
                except Exception:  # gone, or too slow: it reconnects and gets the state
                    self._conns.pop(conn_id, None)
            if self.closed:
                return


def _now() -> float:
    import time

    return time.monotonic()
