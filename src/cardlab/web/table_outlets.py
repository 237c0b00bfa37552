"""What every part of a web table is given to reach the rest: the table's id and store,
and the callbacks that push the state to the clients, add a line to the table's
notices, save the table's state and mark it active; and the one task waiting for the
table's next decision, deal or end of hand.

A part (:mod:`~cardlab.web.table_seats`, :mod:`~cardlab.web.table_hand`,
:mod:`~cardlab.web.table_clock`, :mod:`~cardlab.web.table_host`,
:mod:`~cardlab.web.table_tournament`) gets an :class:`Outlets` in its constructor and
never sees the room (:mod:`cardlab.web.table_room`), which wires them.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from cardlab.web.table_store import TableStore

__all__ = ["Outlets", "Tasks"]


def _nothing() -> None:
    return None


def _ignore(_text: str) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Outlets:
    """A table's id and store and the room's callbacks (each does nothing by default,
    so a part can be tested alone)."""

    table_id: str
    store: TableStore
    notify: Callable[[], None] = _nothing  # push the state to every client
    notice: Callable[[str], None] = _ignore  # a line in the table's notices
    save: Callable[[], None] = _nothing  # store the table's state between hands
    touch: Callable[[], None] = _nothing  # something happened (the idle clock restarts)
    clock: Callable[[], float] = field(default=time.monotonic)  # monotonic seconds


class Tasks:
    """The one task of a table that waits for its next decision (a bot, a clock), its
    next deal or the end of its hand: scheduling another cancels it."""

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None

    def schedule(self, coro: Coroutine[Any, Any, None]) -> None:
        current = asyncio.current_task()
        if self._task is not None and self._task is not current and not self._task.done():
            self._task.cancel()
        self._task = asyncio.get_running_loop().create_task(coro)

    def busy(self) -> bool:
        """A task waits (the one running now counts only until it calls :meth:`done`)."""
        return self._task is not None and not self._task.done()

    def done(self) -> None:
        """The running task has done its work (a deal may be scheduled after it)."""
        if self._task is asyncio.current_task():
            self._task = None

    def cancel(self) -> None:
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
