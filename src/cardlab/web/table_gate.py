"""Whether a web table may move: its store reachable, and this process still running it.

:class:`StoreGate` is the part of a room (:mod:`cardlab.web.table_room`) that the
manager (:mod:`cardlab.web.table_manager`) shuts when the store goes away
(:meth:`StoreGate.suspend`: nothing moves, every page says why) or when this process no
longer runs the table (:meth:`StoreGate.retire`: its pages are closed so that they
reconnect). A shut gate is never opened again: the manager restores the table from the
store into a new room (:mod:`cardlab.web.store_watch`), since a write in flight as the
store went away may or may not have been kept.
"""

from __future__ import annotations

from collections.abc import Callable

from cardlab.web.table_audience import Audience
from cardlab.web.table_clock import DecisionClock
from cardlab.web.table_errors import AWAY, StoreAway
from cardlab.web.table_outlets import Tasks

__all__ = ["StoreGate"]


class StoreGate:
    """The gate of one table; ``notify()`` pushes the state to its pages."""

    def __init__(
        self, clock: DecisionClock, tasks: Tasks, audience: Audience, notify: Callable[[], None]
    ) -> None:
        self.clock = clock
        self.tasks = tasks
        self.audience = audience
        self.notify = notify
        self.away = False  # shut: nothing that must be stored is done

    def check(self) -> None:
        """:class:`StoreAway` while the gate is shut (nothing could be stored)."""
        if self.away:
            raise StoreAway(f"{AWAY}: nothing was done, try again then")

    def _stop(self) -> None:
        self.away = True
        self.clock.stop()
        self.tasks.cancel()

    def suspend(self) -> None:
        """The store is unreachable: no deal, bot or clock runs; every page is told."""
        self._stop()
        self.notify()

    async def retire(self, code: int) -> None:
        """This room no longer runs the table (its lease was lost, or the table is
        restored anew from the store): nothing more is done nor stored, and every page
        connected is closed with ``code`` (1012: it reconnects, to whoever runs the
        table now)."""
        self._stop()
        await self.audience.close_all(code)
