"""A live web table: the facade that wires its parts (docs/web-internals.md, "The
parts": each owns its state, gets its collaborators in its constructor and imports
nothing of this module). The room builds them from a saved table, holds them as public
attributes, passes each request on, and does itself only what spans parts: a seat that
sits down or leaves, the host handed over, the pause, the server stopping.
"""

from __future__ import annotations

import random
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from cardlab.table import Action, TableGame
from cardlab.web.table_arrivals import SeatRequests
from cardlab.web.table_audience import Audience, Connection
from cardlab.web.table_chat import Chat
from cardlab.web.table_clock import DecisionClock
from cardlab.web.table_closing import Closing
from cardlab.web.table_coach import Matrices
from cardlab.web.table_config import TableConfig, parse_config
from cardlab.web.table_errors import TableFull
from cardlab.web.table_extras import Extras
from cardlab.web.table_gate import StoreGate
from cardlab.web.table_hand import KEEP_HANDS, HandRunner
from cardlab.web.table_host import HostControls
from cardlab.web.table_house import HouseRules
from cardlab.web.table_odds import TableOdds
from cardlab.web.table_outlets import Outlets, Tasks
from cardlab.web.table_pace import Pace
from cardlab.web.table_saved import SavedTable, table_state
from cardlab.web.table_seats import SeatInfo, Seating, digest
from cardlab.web.table_steps import Shell
from cardlab.web.table_tournament import Director
from cardlab.web.table_view import View

__all__ = ["BOT_HANDS", "KEEP_HANDS", "Connection", "Room", "SeatInfo", "TableFull", "digest"]

KEEP_NOTICES = 5
BOT_HANDS = 200  # hands a table of bots plays while nobody watches


class Room:
    """One table; see the module documentation. Its parts are public attributes:
    ``seating``, ``runner``, ``clock``, ``controls``, ``director``, ``fair``, ``chat``,
    ``audience``, ``extras``."""

    def __init__(
        self,
        table_id: str,
        config: TableConfig,
        store: Any,
        *,
        saved: SavedTable | None = None,
        bot_hands: int = BOT_HANDS,
        on_close: Callable[[Room], None] | None = None,
        matrices: Matrices | None = None,
    ) -> None:
        was = saved or SavedTable()
        self.id, self.store, self.bot_hands, self.on_close = table_id, store, bot_hands, on_close
        seats, session = was.session(config)
        self.session = session
        self.leaving = False  # handed to another process at this hand's end (web.balance)
        self.notices: deque[str] = deque(maxlen=KEEP_NOTICES)
        self.last_activity = time.monotonic()
        off_loop = getattr(store, "dialect", "sqlite") == "postgresql"
        out = Outlets(table_id, store, self.notify, self.notices.append, self.save, self.touch)
        self.tasks = Tasks()
        self.controls = HostControls(
            out, session, config, paused=was.paused, live=self.live,
            check=lambda data: self.director.check_settings(data), on_pause=self._on_pause,
        )  # fmt: skip
        settings, game = (lambda: self.controls.config), (lambda: self.controls.game)
        self.extras = Extras(
            out, session, settings, game, lambda: self.seating.seats,
            runner=lambda: self.runner, clock=lambda: self.clock,
            muted=lambda author: self.chat.muted(author), saved=was.extras, matrices=matrices,
        )  # fmt: skip
        self.director = Director(
            out, session, settings, game, lambda: self.seating.seats, was.tournament,
            cash=self.extras.blinds,
        )  # fmt: skip
        self.seating = Seating(
            out, session, settings, seats, self.director, host_sha256=was.host_sha256,
            started=was.started, requests=SeatRequests(was.requests), sat=was.sat,
            in_hand=lambda seat: self.runner.in_hand(seat), accepting=self.accepting,
            dealt_before=lambda: self.runner.deals > 0, on_seated=self._seated,
            on_left=self._left, on_change=lambda: self.pace.maybe_deal(),
        )  # fmt: skip
        self.fair = was.seeds(table_id, store, config)
        self.house = HouseRules(out, session, settings, game, lambda: self.seating.seats, was.house)
        self.runner = HandRunner(
            out, session, self.seating, self.fair, self.director, settings, game,
            state=self.state, deals=was.deals,
            on_change=lambda: self.extras.after_change(self.pace.changed),
            house=self.house,
        )  # fmt: skip
        self.shell = Shell(self.runner, off_loop=off_loop)  # the steps of each action
        self.clock = DecisionClock(
            out, session, lambda: self.seating.seats, settings, self.tasks,
            turn=lambda: self.runner.turn, seq=lambda: self.runner.action_seq,
            storing=lambda: self.runner.storing, play=self._play, off_loop=off_loop,
            rng=random.Random(config.seed) if config.practice else random.Random(),
        )  # fmt: skip
        self.chat = Chat.at_table(out, self.seating.is_host, lambda: self.gate.away, off_loop)
        self.odds = TableOdds(self.notify)  # exact odds, hints: memory only
        self.audience = Audience(lambda seat, host: self.view.render(seat, host))
        self.gate = StoreGate(self.clock, self.tasks, self.audience, self.notify)  # the store
        self.ending = Closing(
            out, self.fair, self.runner, self.seating, self.clock, self.audience, self.tasks,
            state=self.state, on_closed=lambda: on_close(self) if on_close else None,
        )  # fmt: skip
        self.pace = Pace(
            out, self.tasks, self.runner, self.clock, self.seating, self.controls,
            self.director, self.fair, self.audience, accepting=self.accepting,
            shut=lambda: self.gate.away,
            closing=lambda: self.ending.closing, close=self.ending.close, reveal=self.ending.reveal,
            bot_hands=bot_hands, held=lambda: self.leaving,
        )  # fmt: skip
        self.view = View(
            table_id, lambda: list(self.notices), controls=self.controls, seating=self.seating,
            runner=self.runner, director=self.director, fair=self.fair, chat=self.chat,
            audience=self.audience, clock=self.clock, ending=self.ending, pace=self.pace,
            extras=self.extras, away=lambda: self.gate.away, odds=self.odds,
        )  # fmt: skip

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
        return self.ending.accepting()

    @property
    def closed(self) -> bool:
        return self.ending.closed

    def state(self) -> dict[str, Any]:
        """The table's state between hands (:func:`~cardlab.web.table_saved.table_state`)."""
        return table_state(
            self.session, self.seating, self.runner.deals, self.controls.paused, chat=self.chat,
            fair=self.fair, director=self.director, extras=self.extras, house=self.house,
        )  # fmt: skip

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
        """The table as saved, with its hand in play resumed (or cancelled) and its chat."""
        saved = SavedTable.from_state(table_id, state)
        room = cls(table_id, parse_config(config, saved=True), store, saved=saved, **options)
        room.runner.load_finished()
        room.chat.restore(store.chat_lines(table_id), saved.chat)
        live = store.live_hand(table_id)
        if live is not None:
            room.clock.resume_from = room.runner.resume(live)
        return room

    def act(self, seat: int | None, text: str, *, turn: int | None = None) -> None:
        """Play ``text`` for ``seat`` (see :meth:`HandRunner.act`)."""
        self.shell(self.runner.act(seat, text, turn=turn))

    def _play(self, action: Action) -> None:
        self.shell(self.runner.plan(action))

    def _on_pause(self, paused: bool) -> None:
        if self.director.tournament is not None:
            self.director.tick(stop=paused)
        self.extras.on_pause(paused)
        if not paused:
            self.pace.maybe_deal()

    def transfer_host(self, seat: object) -> None:
        self.seating.transfer_host(seat)
        index = self.seating.seat_index(seat)
        self.audience.rehost(lambda at: at == index)

    def _seated(self, seat: int, sends_seeds: bool) -> None:
        if sends_seeds:
            self.fair.expect(seat, time.monotonic())
        self.pace.maybe_deal()

    def _left(self, seat: int) -> None:
        self.audience.unseat(seat)
        if not self.seating.people & {seat}:
            self.fair.forget(seat)
        self.clock.seat_left(seat)

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
        return self.view.status()

    def payload(self, seat: int | None, *, host: bool = False) -> dict[str, Any]:
        return self.view.payload(seat, host=host)

    def connect(self, conn: Connection, seat: int | None, host: bool = False) -> int:
        return self.pace.connect(conn, seat, host)

    def disconnect(self, conn_id: int) -> None:
        self.pace.disconnect(conn_id)

    def touch(self) -> None:
        self.last_activity = time.monotonic()

    def idle_for(self) -> float:
        return time.monotonic() - self.last_activity

    def notify(self) -> None:
        self.audience.notify()
