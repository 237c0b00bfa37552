"""A web process's watch on its PostgreSQL store: an outage seen, the tables paused, and
every table restored from the store once it is back.

Every action is written to the store before anyone sees it, so while the store cannot
be reached no table can move. :class:`StoreWatch` asks the store a trivial question
(:meth:`cardlab.store.Store.ping`) every :data:`EVERY` seconds:

- when it gets no answer, an **outage** begins: one ``warning`` log line, and
  ``on_down()`` pauses every table (the manager's: no deal, bot or clock; every page
  shows :data:`~cardlab.web.table_errors.AWAY`; whatever must be stored is refused with
  that message). ``/readyz`` answers 503 meanwhile (:mod:`cardlab.web.metrics`). The
  store itself connects again, its tries spaced by a growing wait
  (:meth:`cardlab.store.Store._connect_again`);
- when it answers again, the outage ends: one ``warning`` log line with its length, and
  ``on_up()`` restores every table from what the store holds (a write that was in
  flight as the server went away may or may not have been kept: the store, not this
  process's memory, says which), and the pages reconnect to the restored tables;
- a connection lost and made again between two looks (a quick restart of the server)
  counts as an outage too (the store's ``reconnects`` changed), for the same reason;
- an outage longer than ``limit`` seconds is logged once more (``error``), makes
  :attr:`StoreWatch.expired` true (``/healthz`` answers 503: the process is no longer
  healthy) and, if ``stop`` is given (``cardlab web --outage-exit``), calls it: the
  process stops with a non-zero status so its supervisor starts it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["EVERY", "LIMIT", "StoreWatch"]

log = logging.getLogger(__name__)

EVERY = 1.0  # seconds between looks at the store while it answers
AGAIN = 0.5  # seconds between looks during an outage (the store spaces its own tries)
ANSWER = 2.0  # seconds the store has to answer a look
LIMIT = 60.0  # seconds of outage after which the process is not healthy (--outage-limit)


class StoreWatch:
    """The watch on one store; see the module documentation. ``on_down()`` and
    ``on_up()``: the manager's (pause every table; restore them); ``clock``: monotonic
    seconds."""

    def __init__(
        self,
        store: Any,
        *,
        on_down: Callable[[], None],
        on_up: Callable[[], Awaitable[None]],
        limit: float = LIMIT,
        stop: Callable[[], None] | None = None,
        every: float = EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not limit > 0:
            raise ValueError(f"an outage limit is a positive number of seconds: {limit!r}")
        self.store = store
        self.on_down = on_down
        self.on_up = on_up
        self.limit = limit
        self.stop = stop
        self.every = every
        self.clock = clock
        self.down_since: float | None = None  # clock() when the outage began
        self.reason = ""  # the store's last error, during an outage
        self.expired = False  # the outage lasted past the limit
        self.outages = 0  # outages seen (the metrics' count)
        self._seen = self._reconnects()
        self._task: asyncio.Task[None] | None = None

    def _reconnects(self) -> int:
        return int(getattr(self.store, "reconnects", 0))

    @property
    def down(self) -> bool:
        return self.down_since is not None

    def down_for(self) -> float:
        """Seconds the outage in progress has lasted (0: none)."""
        return 0.0 if self.down_since is None else self.clock() - self.down_since

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(AGAIN if self.down else self.every)
            try:
                await self.look()
            except Exception:  # the watch must outlive anything a table does on resume
                log.exception("watching the store failed")

    async def look(self) -> None:
        """Ask the store once; begin or end an outage accordingly."""
        try:
            await asyncio.wait_for(asyncio.to_thread(self.store.ping), ANSWER)
        except Exception as exc:  # StoreError, TimeoutError, the driver's own
            why = f"no answer in {ANSWER:g} s" if isinstance(exc, TimeoutError) else str(exc)
            self.reason = why[:300]
            if not self.down:
                self._begin()
            self._check_limit()
            return
        reconnects = self._reconnects()
        if not self.down and reconnects == self._seen:
            return
        self._seen = reconnects
        if not self.down:  # lost and made again between two looks: a short outage
            self.reason = "its connection was lost and made again"
            self._begin()
        await self._end()

    def _begin(self) -> None:
        self.down_since = self.clock()
        self.outages += 1
        log.warning(
            "the store is unreachable (%s): every table is paused until it returns", self.reason
        )
        self.on_down()

    async def _end(self) -> None:
        lasted = self.down_for()
        self.down_since = None
        self.expired = False
        self.reason = ""
        await self.on_up()
        log.warning(
            "the store is reachable again after %.1f s: every table resumed from what it holds",
            lasted,
        )

    def _check_limit(self) -> None:
        if self.expired or self.down_for() < self.limit:
            return
        self.expired = True
        then = "stopping so that a supervisor starts it again" if self.stop else "not healthy"
        log.error(
            "the store has been unreachable for %.0f s (the outage limit): %s",
            self.down_for(),
            then,
        )
        if self.stop is not None:
            self.stop()
