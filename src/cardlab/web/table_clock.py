"""Who answers each decision of a web table's hand: a bot after its short delay, the
clock of a person (whose expiry plays the default action: check if free, else fold;
stand pat in a draw; bring in at stud), or at once a seat that left.

:class:`DecisionClock` owns the deadline of the decision in play, the seconds a
restarted server's clock resumes with, and the bots' random numbers. One task waits for
each decision (the room's :class:`~cardlab.web.table_outlets.Tasks`); a running clock
is saved every ``CLOCK_SAVE`` seconds and when the server stops, so a restarted server
resumes it. What it plays goes through the room's ``play`` callback: the same
write-ahead steps as a person's action.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Sequence

from cardlab.bots import get_bot
from cardlab.errors import ActionError, CardlabError
from cardlab.table import Action, HandState, Phase, Session, seat_view
from cardlab.web.table_config import TableConfig
from cardlab.web.table_outlets import Outlets, Tasks
from cardlab.web.table_payload import default_action
from cardlab.web.table_seats import SeatInfo

__all__ = ["CLOCK_SAVE", "QUICK_BOTS", "DecisionClock"]

log = logging.getLogger(__name__)

QUICK_BOTS = frozenset({"random", "station"})  # act at once, in the event loop
CLOCK_SAVE = 5.0  # seconds between saves of a running clock


class DecisionClock:
    """Who answers the decisions of one table; see the module documentation.
    ``turn()``: the hand runner's turn; ``seq()``: its stored actions; ``storing()``:
    an action is being stored; ``play(action)``: plays an action (raises
    :class:`CardlabError` when it is refused); ``off_loop``: the store is written from
    a worker thread."""

    def __init__(
        self,
        outlets: Outlets,
        session: Session,
        seats: Callable[[], Sequence[SeatInfo]],
        config: Callable[[], TableConfig],
        tasks: Tasks,
        *,
        turn: Callable[[], int],
        seq: Callable[[], int],
        storing: Callable[[], bool],
        play: Callable[[Action], None],
        off_loop: bool = False,
        rng: random.Random | None = None,
    ) -> None:
        self.out = outlets
        self.session = session
        self.seats = seats
        self.config = config
        self.tasks = tasks
        self.turn = turn
        self.seq = seq
        self.storing = storing
        self.play = play
        self.off_loop = off_loop
        self.rng = rng if rng is not None else random.Random()
        self.deadline: float | None = None  # on the event loop's clock
        self.resume_from: float | None = None  # seconds left when the server stopped

    def stop(self) -> None:
        self.deadline = None

    def remaining(self) -> float | None:
        """Seconds left on the clock of the decision in play (None: no clock runs)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - asyncio.get_running_loop().time())

    def schedule_decision(self) -> None:
        """Start whatever answers the decision in play."""
        self.deadline = None
        hand = self.session.hand
        if hand is None or hand.actor is None:
            return
        seat = self.session.seat_of(hand.actor)
        if seat is None:
            return
        info = self.seats()[seat]
        config = self.config()
        resumed, self.resume_from = self.resume_from, None
        turn = self.turn()
        if hand.phase is Phase.SHOWDOWN and hand.must_show():
            self.auto(hand)  # the rules turn this hand up: shown at once, nobody is asked
            return
        if info.kind == "bot":
            self.tasks.schedule(self._bot_turn(turn, seat))
        elif info.leaving or info.kind == "open" or (info.sitting_out and config.tournament):
            self.answer_now()
        elif config.clock > 0:
            remaining = config.clock if resumed is None else max(0.0, resumed)
            self.deadline = asyncio.get_running_loop().time() + remaining
            self.tasks.schedule(self._clock(turn))

    def extend(self, seconds: float) -> None:
        """Add ``seconds`` to the clock that runs (a time bank), saved at once so a
        restarted server resumes the longer clock."""
        if self.deadline is None:
            raise ActionError("no clock runs for this decision")
        self.deadline += seconds
        self.save()

    def answer_now(self) -> None:
        """The seat to act left: the clock answers for it at once."""
        self.deadline = None
        self.tasks.schedule(self._leaving_turn(self.turn()))

    def seat_left(self, seat: int) -> None:
        """``seat`` left the table: if it is to act in the hand in play, answer now."""
        position = self.session.position_of(seat)
        if position is not None and self.live() and self.session.hand.actor == position:  # type: ignore[union-attr]
            self.answer_now()

    def save(self) -> None:
        """Store the clock's seconds left (the server stops: it resumes from them)."""
        left = self.remaining()
        if left is not None and self.live():
            with contextlib.suppress(CardlabError):
                self.out.store.save_clock(self.out.table_id, self.seq(), left)

    def live(self) -> bool:
        hand = self.session.hand
        return hand is not None and not hand.is_over

    async def _clock(self, turn: int) -> None:
        loop = asyncio.get_running_loop()
        while self.deadline is not None and turn == self.turn():
            left = self.deadline - loop.time()
            if left <= 0:
                break
            await asyncio.sleep(min(CLOCK_SAVE, left))
            left = 0.0 if self.deadline is None else self.deadline - loop.time()
            if turn == self.turn() and left > 0:
                with contextlib.suppress(CardlabError):
                    store, table, seq = self.out.store, self.out.table_id, self.seq()
                    if self.off_loop:
                        await asyncio.to_thread(store.save_clock, table, seq, left)
                    else:
                        store.save_clock(table, seq, left)
        hand = self.session.hand
        if turn != self.turn() or hand is None or hand.is_over:
            return
        self.auto(hand)

    async def _leaving_turn(self, turn: int) -> None:
        await asyncio.sleep(0)
        hand = self.session.hand
        if turn == self.turn() and hand is not None and not hand.is_over:
            self.auto(hand)

    def auto(self, hand: HandState) -> None:
        """Play the default action of the decision in play."""
        if self.storing():  # the decision was just answered: being stored
            return
        try:
            self.play(default_action(hand.legal(), hand))
        except CardlabError:
            log.exception("table %s: the default action could not be played", self.out.table_id)

    async def _bot_turn(self, turn: int, seat: int) -> None:
        await asyncio.sleep(self.config().bot_delay)
        hand = self.session.hand
        if turn != self.turn() or hand is None or hand.actor is None:
            return
        if hand.phase is Phase.SHOWDOWN:  # a bot shows or mucks as the clock would
            self.auto(hand)
            return
        if hand.phase is Phase.RUNS:  # a bot has no preference: the people decide
            try:
                self.play(Action.runs(None))
            except CardlabError:
                self.auto(hand)
            return
        view = seat_view(hand, hand.actor)
        rng = random.Random(self.rng.getrandbits(64))
        name = self.seats()[seat].bot
        bot = get_bot(name)
        try:
            if bot.name in QUICK_BOTS:
                action = bot.act(view, rng)
            else:  # a bot that thinks (equity...) must not stall the other tables
                action = await asyncio.to_thread(bot.act, view, rng)
        except Exception:  # a broken bot must not stop the table
            log.exception("bot %s failed at table %s", name, self.out.table_id)
            action = default_action(hand.legal(), hand)
        if turn != self.turn() or hand.is_over:
            return
        try:
            self.play(action)
        except CardlabError:
            self.auto(hand)
