"""A live web table: the facade that wires its parts (docs/web-internals.md).

Each concern is a part that owns its state and gets its collaborators in its
constructor; none imports this module: :class:`~cardlab.web.table_seats.Seating` (seats,
requests, the ledger), :class:`~cardlab.web.table_hand.HandRunner` (the deal, each
action's write-ahead steps, the turn, a hand's end), :class:`~cardlab.web.table_clock.DecisionClock`
(bots, clocks), :class:`~cardlab.web.table_host.HostControls` (settings, pause),
:class:`~cardlab.web.table_tournament.Director` (a sit-and-go),
:class:`~cardlab.web.table_fair.TableSeeds`, :class:`~cardlab.web.table_chat.Chat`,
:class:`~cardlab.web.table_audience.Audience` (the connections) and
:class:`~cardlab.web.table_pace.Pace` (what comes next). The room saves and restores
their state and does what spans them: closing, a seed reveal, handing the table over.
An action's steps are carried out at once on SQLite, with the write in a worker thread
on PostgreSQL (:mod:`cardlab.web.table_steps`); write-ahead and restarts are described
in docs/web-tables.md, "Restarts".
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from cardlab.errors import ActionError, CardlabError, GameError
from cardlab.table import Action, Session, TableGame
from cardlab.table.tournament import Tournament
from cardlab.web.table_arrivals import SeatRequests
from cardlab.web.table_audience import Audience, Connection
from cardlab.web.table_chat import Chat
from cardlab.web.table_clock import DecisionClock
from cardlab.web.table_config import TableConfig, parse_config
from cardlab.web.table_errors import TableFull
from cardlab.web.table_fair import TableSeeds
from cardlab.web.table_hand import KEEP_HANDS, HandRunner
from cardlab.web.table_host import HostControls
from cardlab.web.table_odds import TableOdds
from cardlab.web.table_outlets import Outlets, Tasks
from cardlab.web.table_pace import Pace
from cardlab.web.table_payload import payload, status
from cardlab.web.table_seats import SeatInfo, Seating, digest, opening_seats
from cardlab.web.table_steps import carry_out, carry_out_off_loop
from cardlab.web.table_tournament import Director

__all__ = ["BOT_HANDS", "KEEP_HANDS", "Connection", "Room", "SeatInfo", "TableFull", "digest"]

log = logging.getLogger(__name__)

KEEP_NOTICES = 5
BOT_HANDS = 200  # hands a table of bots plays while nobody watches


class Room:
    """One table; see the module documentation. Its parts are public attributes:
    ``seating``, ``runner``, ``clock``, ``controls``, ``director``, ``fair``, ``chat``,
    ``audience``."""

    def __init__(
        self,
        table_id: str,
        config: TableConfig,
        store: Any,
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
        paused: bool = False,
        requests: list[dict[str, Any]] | None = None,
        sat: dict[str, list[str]] | None = None,
        tournament: Tournament | None = None,
    ) -> None:
        self.id, self.store, self.bot_hands, self.on_close = table_id, store, bot_hands, on_close
        seats, stacks = opening_seats(config, seats, stacks)
        self.session = session = Session(
            config.table_game(), [s.name for s in seats], [max(1, v) for v in stacks]
        )
        for seat, value in zip(session.seats, stacks, strict=True):
            seat.stack = value
        if button is not None:
            session.button = button % config.seats
        session.hands_played = hands_played
        self.closed = self.closing = False
        self.notices: deque[str] = deque(maxlen=KEEP_NOTICES)
        self.last_activity = time.monotonic()
        self.writes_off_loop = getattr(store, "dialect", "sqlite") == "postgresql"
        self.storing_task: asyncio.Task[bool] | None = None
        out = Outlets(table_id, store, self.notify, self.notices.append, self.save, self.touch)
        self.tasks = Tasks()
        self.controls = HostControls(
            out, session, config, paused=paused, live=self.live,
            check=lambda data: self.director.check_settings(data), on_pause=self._on_pause,
        )  # fmt: skip
        settings, game = (lambda: self.controls.config), (lambda: self.controls.game)
        self.director = Director(
            out, session, settings, game, lambda: self.seating.seats, tournament
        )
        self.seating = Seating(
            out, session, settings, seats, self.director, host_sha256=host_sha256,
            started=started, requests=SeatRequests(requests or ()), sat=sat,
            in_hand=lambda seat: self.runner.in_hand(seat), accepting=self.accepting,
            dealt_before=lambda: self.runner.deals > 0, on_seated=self._seated,
            on_left=self._left, on_change=lambda: self.pace.maybe_deal(),
        )  # fmt: skip
        fair = fair or {}
        self.fair = TableSeeds(
            table_id, store, practice=config.seed, current=fair.get("commitment"),
            revealed=fair.get("revealed"), reveal_requested=bool(fair.get("reveal_requested")),
            rotations=int(fair.get("rotations", 0)), seeders=fair.get("seeders"),
        )  # fmt: skip
        self.fair.next_deal = deals
        self.runner = HandRunner(
            out, session, self.seating, self.fair, self.director, settings, game,
            state=self.state, on_change=lambda: self.pace.changed(), deals=deals,
        )  # fmt: skip
        self.clock = DecisionClock(
            out, session, lambda: self.seating.seats, settings, self.tasks,
            turn=lambda: self.runner.turn, seq=lambda: self.runner.action_seq,
            storing=lambda: self.runner.storing, play=self._play, off_loop=self.writes_off_loop,
            rng=random.Random(config.seed) if config.practice else random.Random(),
        )  # fmt: skip
        self.chat = Chat(is_host=self.seating.is_host, on_change=self.notify)  # memory only
        self.odds = TableOdds(self.notify)  # exact odds, hints: memory only
        self.audience = Audience(self._render)
        self.pace = Pace(
            out, self.tasks, self.runner, self.clock, self.seating, self.controls,
            self.director, self.fair, self.audience, accepting=self.accepting,
            closing=lambda: self.closing, close=self.close_table, reveal=self._reveal,
            bot_hands=bot_hands,
        )  # fmt: skip

    # --- the parts' shared values -----------------------------------------------------------

    @property
    def config(self) -> TableConfig:
        return self.controls.config

    @property
    def game(self) -> TableGame:
        return self.controls.game

    @property
    def seats(self) -> list[SeatInfo]:
        return self.seating.seats

    def live(self) -> bool:
        return self.runner.live()

    def accepting(self) -> bool:
        return not (self.closed or self.closing)

    def watched(self) -> bool:
        return self.pace.watched()

    # --- saving and restoring ---------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The table's state between hands (a hand in play is in the store's
        ``live_hands``; these stacks are the ones it started with)."""
        return {
            "seats": [s.as_dict() for s in self.seating.seats],
            "stacks": [s.stack for s in self.session.seats],
            "button": self.session.button,
            "hands_played": self.session.hands_played,
            "started": self.seating.started,
            "deals": self.runner.deals,
            "paused": self.controls.paused,
            "requests": self.seating.requests.state(),
            "host_sha256": self.seating.host_sha256,
            "sat": self.seating.sat,
            "fair": self.fair.state(),
            "tournament": self.director.state(),
        }

    def save(self) -> None:
        self.store.save_table(self.id, self.config.as_dict(), self.state())

    @classmethod
    def restore(
        cls,
        table_id: str,
        config: dict[str, Any],
        state: dict[str, Any],
        store: Any,
        **options: Any,
    ) -> Room:
        """The table as saved, with its hand in play resumed (or cancelled)."""
        seats = [SeatInfo.from_dict(s) for s in state["seats"]]
        if any(s.kind not in ("open", "human", "bot") for s in seats):
            raise GameError(f"a saved table has a seat of an unknown kind: {table_id!r}")
        stacks = [int(v) for v in state["stacks"]]
        if any(v < 0 for v in stacks):
            raise GameError(f"a saved table has a negative stack: {table_id!r}")
        saved = state.get("tournament")
        room = cls(
            table_id, parse_config(config, saved=True), store, seats=seats, stacks=stacks,
            button=int(state["button"]), hands_played=int(state["hands_played"]),
            started=bool(state["started"]), deals=int(state.get("deals", state["hands_played"])),
            host_sha256=str(state.get("host_sha256", "")), fair=state.get("fair"),
            paused=bool(state.get("paused", False)), requests=state.get("requests", []),
            sat=state.get("sat"),
            tournament=Tournament.from_dict(saved) if saved else None, **options,
        )  # fmt: skip
        room.runner.load_finished()
        live = store.live_hand(table_id)
        if live is not None:
            room.clock.resume_from = room.runner.resume(live)
        return room

    # --- the hands --------------------------------------------------------------------------

    def act(self, seat: int | None, text: str, *, turn: int | None = None) -> None:
        """Play ``text`` for ``seat`` (see :meth:`HandRunner.act`)."""
        self._carry_out(self.runner.act(seat, text, turn=turn))

    def _play(self, action: Action) -> None:
        self._carry_out(self.runner.plan(action))

    def _carry_out(self, steps: Any) -> None:
        if not self.writes_off_loop:
            if not carry_out(self.runner, steps):
                raise ActionError("the server could not store the action: it was not played")
            return
        loop = asyncio.get_running_loop()
        # kept while it runs (a task nobody holds may be collected)
        self.storing_task = loop.create_task(carry_out_off_loop(self.runner, steps))

    def offer_seed(self, seat: int | None, deal: object, seed: object) -> None:
        if seat is None:
            raise ActionError("only a seated player sends a client seed")
        self.fair.offer(seat, deal, seed)

    def request_reveal(self, seat: int | None) -> None:
        """A seated person asks to reveal the server seed: now between hands, else at
        the end of the hand in play."""
        if seat is None:
            raise ActionError("only a seated player can ask to reveal the seed")
        if not self.live():
            self._reveal()
        elif not self.fair.reveal_requested:
            self.fair.reveal_requested = True
            self.save()
            self.notices.append(
                f"{self.seats[seat].name} asked to reveal the seed: after this hand"
            )
        self.notify()

    def _reveal(self) -> None:
        old, seed = self.fair.reveal()
        self.runner.revealed(old, seed)
        self.save()
        self.notices.append(f"server seed {old[:12]}... revealed; a new seed is in use")

    def ledger(self) -> dict[str, Any]:
        """The ledger (:meth:`Seating.ledger`), with a sit-and-go's prizes."""
        return self.seating.ledger() | {"tournament": self.director.ledger()}

    def show_hand(self, seat: int | None) -> None:
        self.runner.show_hand(seat, self.closed)

    def rabbit_hunt(self) -> None:
        self.runner.rabbit_hunt()

    def set_hints(self, seat: int | None, on: object) -> None:
        try:
            self.odds.set_hints(seat, on)
        except ValueError as error:
            raise ActionError(str(error)) from None

    # --- the host ---------------------------------------------------------------------------

    def _on_pause(self, paused: bool) -> None:
        if self.director.tournament is not None:
            self.director.tick(stop=paused)
        if not paused:
            self.pace.maybe_deal()

    def transfer_host(self, seat: object) -> None:
        self.seating.transfer_host(seat)
        index = self.seating.seat_index(seat)
        self.audience.rehost(lambda at: at == index)

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
            self.cancel_hand("the host closed the table")
        self.close_table()

    def cancel_hand(self, why: str) -> None:
        self.clock.stop()
        self.runner.cancel(why)

    def close_table(self) -> None:
        """Close now: reveal the seed, every person's stack to the ledger, the table
        marked closed in the store (its hands stay), every client told."""
        if self.closed:
            return
        self.closing = False
        try:
            if self.runner.deals > 0 or self.runner.finished:
                self._reveal()
            with self.store.transaction():
                self.seating.stand_up_everyone()
                self.store.close_table(self.id, self.state())
        except CardlabError:
            log.exception("closing table %s", self.id)
        self.closed = self.audience.closed = True
        self.notices.append("the table is closed")
        self.notify()
        self.tasks.cancel()
        if self.on_close is not None:
            self.on_close(self)

    # --- the seats' follow-ups --------------------------------------------------------------

    def _seated(self, seat: int, sends_seeds: bool) -> None:
        if sends_seeds:
            self.fair.expect(seat, time.monotonic())
        self.pace.maybe_deal()

    def _left(self, seat: int) -> None:
        self.audience.unseat(seat)
        if not self.seating.people & {seat}:
            self.fair.forget(seat)
        hand = self.session.hand
        position = None if hand is None else self.session.position_of(seat)
        if hand is not None and position is not None and hand.actor == position and self.live():
            self.clock.answer_now()

    # --- tasks and connections --------------------------------------------------------------

    def wake(self) -> None:
        """Start the room's tasks on the running loop (idempotent)."""
        if not self.closed:
            self.audience.start()
            self.pace.wake()

    def close(self) -> None:
        """Stop the room's tasks (the server stops; the table stays open in the store):
        a running clock is saved first, so a restarted server resumes it."""
        self.clock.save()
        self.tasks.cancel()
        self.audience.stop()

    def status(self) -> str:
        return status(
            runner=self.runner, seating=self.seating, director=self.director,
            closed=self.closed, closing=self.closing, paused=self.controls.paused,
            can_deal=self.pace.can_deal,
        )  # fmt: skip

    def _render(self, seat: int | None, host: bool) -> str:
        return json.dumps(self.payload(seat, host=host), ensure_ascii=False)

    def payload(self, seat: int | None, *, host: bool = False) -> dict[str, Any]:
        return payload(
            seat, host=host, table_id=self.id, controls=self.controls, seating=self.seating,
            runner=self.runner, director=self.director, fair=self.fair, chat=self.chat,
            notices=list(self.notices), connected=self.audience.seats(),
            clock=self.clock.remaining(), status=self.status(), closed=self.closed,
            closing=self.closing, odds=self.odds,
        )  # fmt: skip

    def connect(self, conn: Connection, seat: int | None, host: bool = False) -> int:
        conn_id = self.audience.connect(conn, seat, host)
        self.runner.unwatched = 0
        self.touch()
        self.notify()
        self.pace.maybe_deal()
        return conn_id

    def disconnect(self, conn_id: int) -> None:
        if self.audience.disconnect(conn_id):
            self.touch()
            self.notify()

    def touch(self) -> None:
        self.last_activity = time.monotonic()

    def idle_for(self) -> float:
        return time.monotonic() - self.last_activity

    def notify(self) -> None:
        self.audience.notify()
