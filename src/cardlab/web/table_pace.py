"""The rhythm of a web table: after each change, who answers next; between hands, the
host's new settings, a seed reveal, closing and the pause; then the next deal, once the
pages that send client seeds have sent this deal's (for at most :data:`SEED_WAIT`
seconds).

:class:`Pace` owns nothing but the decision of what comes next: it asks the parts it is
given (the hand runner, the decision clock, the seating, the host's controls, the
tournament director, the fair seeds, the connections) and schedules on the table's
:class:`~cardlab.web.table_outlets.Tasks`. What spans the whole room (closing, a seed
reveal) comes as callbacks.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from cardlab.web.table_audience import Audience, Connection
from cardlab.web.table_clock import DecisionClock
from cardlab.web.table_fair import TableSeeds
from cardlab.web.table_hand import HandRunner
from cardlab.web.table_host import HostControls
from cardlab.web.table_outlets import Outlets, Tasks
from cardlab.web.table_seats import Seating
from cardlab.web.table_tournament import Director

__all__ = ["SEED_WAIT", "Pace"]

SEED_WAIT = 1.5  # seconds a deal waits at most for the client seeds of connected pages


class Pace:
    """What comes next at one table; see the module documentation. ``accepting()``:
    the table is neither closed nor closing; ``closing()``: it closes after this hand;
    ``close()`` and ``reveal()``: the room's; ``bot_hands``: the hands dealt in a row
    with nobody watching before the table waits; ``held()``: no new hand is dealt (the
    table moves to another process at this hand's end, :mod:`cardlab.web.balance`);
    ``shut()``: nothing may move (the store is away, :mod:`cardlab.web.table_gate`)."""

    def __init__(
        self,
        outlets: Outlets,
        tasks: Tasks,
        runner: HandRunner,
        clock: DecisionClock,
        seating: Seating,
        controls: HostControls,
        director: Director,
        fair: TableSeeds,
        audience: Audience,
        *,
        accepting: Callable[[], bool],
        closing: Callable[[], bool],
        close: Callable[[], None],
        reveal: Callable[[], None],
        bot_hands: int,
        held: Callable[[], bool] = lambda: False,
        shut: Callable[[], bool] = lambda: False,
    ) -> None:
        self.out = outlets
        self.tasks = tasks
        self.runner = runner
        self.clock = clock
        self.seating = seating
        self.controls = controls
        self.director = director
        self.fair = fair
        self.audience = audience
        self.accepting = accepting
        self.closing = closing
        self.close = close
        self.reveal = reveal
        self.shut = shut
        self.bot_hands = bot_hands
        self.held = held  # no new hand: the table is being handed to another process

    def watched(self) -> bool:
        return len(self.audience) > 0

    def connect(self, conn: Connection, seat: int | None, host: bool = False) -> int:
        """A page connects (as ``seat``, the host or a spectator): the table is watched
        again, everyone hears of it, and a deal waiting for someone may come."""
        conn_id = self.audience.connect(conn, seat, host)
        self.runner.unwatched = 0
        self.out.touch()
        self.out.notify()
        self.maybe_deal()
        return conn_id

    def disconnect(self, conn_id: int) -> None:
        if self.audience.disconnect(conn_id):
            self.out.touch()
            self.out.notify()

    def changed(self) -> None:
        """After a deal or an action: the next decision's answer, or between hands."""
        if self.runner.live():
            self.clock.schedule_decision()
            return
        self.clock.stop()
        self.runner.finish()
        with contextlib.suppress(RuntimeError):  # no running loop: wake() goes on
            self.tasks.schedule(self.between_hands())

    async def between_hands(self) -> None:
        self.runner.finish()  # a hand resumed over, or one that ended as it was dealt
        self.controls.apply_next()
        if self.fair.reveal_requested:
            self.reveal()
        if self.closing():
            self.close()
            return
        self.out.notify()
        await asyncio.sleep(self.controls.config.pause)
        self.tasks.done()
        self.maybe_deal()
        self.out.notify()

    def can_deal(self) -> bool:
        seating = self.seating
        if seating.open_seats == 0:
            seating.started = True
        if not self.accepting() or self.shut() or not seating.started or self.controls.paused:
            return False
        if self.held():
            return False
        if self.director.over:
            return False
        if len(self.runner.session.next_order(seating.sitting_out())) < 2:
            return False
        # nobody watching (people seated or not): a few hands, then the table waits (a
        # multi-table tournament's table plays on: the other tables wait for it)
        unwatched_ok = self.runner.unwatched < self.bot_hands or self.director.link is not None
        return self.watched() or unwatched_ok

    def maybe_deal(self) -> None:
        if self.runner.live() or self.tasks.busy() or not self.can_deal():
            return
        with contextlib.suppress(RuntimeError):  # no running loop: wake() deals later
            # a restored table waits its pause too, so people can come back first
            played = self.runner.session.hands_played
            delay = self.controls.config.pause if played else 0.0
            self.tasks.schedule(self._deal_soon(delay))

    async def _deal_soon(self, delay: float) -> None:
        await asyncio.sleep(delay)
        waited = 0.0  # the pages that send client seeds have a moment to send this deal's
        while waited < SEED_WAIT and self.fair.missing(
            self.seating.people, self.audience.seats(), time.monotonic(), SEED_WAIT
        ):
            await asyncio.sleep(0.05)
            waited += 0.05
        if self.can_deal() and not self.runner.live():
            self.runner.deal_next(self.watched())

    def wake(self) -> None:
        """Start whatever the table waits for (idempotent)."""
        if self.shut():
            return
        if self.runner.live():
            if not self.tasks.busy() and not self.runner.storing:
                self.clock.schedule_decision()
        elif self.runner.waiting_to_end():
            if not self.tasks.busy():
                self.tasks.schedule(self.between_hands())
        else:
            self.maybe_deal()
