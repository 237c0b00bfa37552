"""The connections of a web table and the task that pushes the state to them.

:class:`Audience` owns the connections (each with its seat, None for a spectator, and
whether it is the host's) and the broadcast task: :meth:`Audience.notify` wakes it, and
it sends each connection the state for its (seat, host) from the ``render`` callback,
worked out once per kind of viewer. A connection too slow or gone is dropped (its page
reconnects and gets the state).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Protocol

__all__ = ["Audience", "Connection"]


class Connection(Protocol):
    async def send_text(self, data: str) -> None: ...


class Audience:
    """The connections of one table; ``render(seat, host)``: the state's JSON text."""

    def __init__(self, render: Callable[[int | None, bool], str]) -> None:
        self.render = render
        self._conns: dict[int, tuple[Connection, int | None, bool]] = {}
        self._next = 0
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.closed = False  # the table is closed: the last state sent, the task ends
        self._closing: set[asyncio.Task[None]] = set()

    def connect(self, conn: Connection, seat: int | None, host: bool = False) -> int:
        self._next += 1
        self._conns[self._next] = (conn, seat, host)
        return self._next

    def disconnect(self, conn_id: int) -> bool:
        return self._conns.pop(conn_id, None) is not None

    def has(self, conn_id: int) -> bool:
        return conn_id in self._conns

    def __len__(self) -> int:
        return len(self._conns)

    def seats(self) -> set[int]:
        """The seats with a connection."""
        return {s for _, s, _ in self._conns.values() if s is not None}

    def unseat(self, seat: int) -> None:
        """The person in ``seat`` left: their sockets watch on as a spectator's."""
        for conn_id, (conn, at, host) in list(self._conns.items()):
            if at == seat:
                self._conns[conn_id] = (conn, None, host)

    def rehost(self, is_host: Callable[[int | None], bool]) -> None:
        """The table has a new host: the sockets of the seat ``is_host`` names are the
        host's, no other (the old host's page loses its panel at once)."""
        for conn_id, (conn, at, _host) in list(self._conns.items()):
            self._conns[conn_id] = (conn, at, is_host(at))

    def hang_up(self, code: int) -> None:
        """Send every connection the state as it is now, then close it with ``code`` and
        forget it (the table stops running here: 1012 tells the pages to reconnect, to
        its new owner)."""
        conns = list(self._conns.values())
        self._conns.clear()
        loop = asyncio.get_running_loop()
        texts: dict[tuple[int | None, bool], str] = {}
        for conn, seat, host in conns:
            if (seat, host) not in texts:
                texts[seat, host] = self.render(seat, host)
            task = loop.create_task(_last_word(conn, texts[seat, host], code))
            self._closing.add(task)
            task.add_done_callback(self._closing.discard)

    def notify(self) -> None:
        self._wake.set()

    async def close_all(self, code: int) -> None:
        """Close every connection with ``code`` (one that cannot be closed is dropped)
        and stop: nothing more is sent."""
        conns = [conn for conn, _, _ in self._conns.values()]
        self._conns.clear()
        self.stop()
        await asyncio.gather(*(_close(conn, code) for conn in conns))

    def start(self) -> None:
        """Start the broadcast task on the running loop (idempotent)."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._loop())

    def stop(self) -> None:
        if self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()

    async def _loop(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            texts: dict[tuple[int | None, bool], str] = {}
            for conn_id, (conn, seat, host) in list(self._conns.items()):
                key = (seat, host)
                if key not in texts:
                    texts[key] = self.render(seat, host)
                try:
                    # asyncio.timeout, not wait_for: on 3.11 wait_for may swallow a
                    # cancel that comes as the send completes, and stop() would not end us
                    async with asyncio.timeout(10):
                        await conn.send_text(texts[key])
                except Exception:  # gone, or too slow: it reconnects and gets the state
                    self._conns.pop(conn_id, None)
            if self.closed:
                return


async def _last_word(conn: Connection, text: str, code: int) -> None:
    """Send ``text``, then close ``conn`` with ``code`` (if it can be closed)."""
    with contextlib.suppress(Exception):  # gone already, or too slow
        async with asyncio.timeout(10):
            await conn.send_text(text)
    close = getattr(conn, "close", None)
    if close is not None:
        with contextlib.suppress(Exception):
            await close(code=code)


async def _close(conn: Connection, code: int) -> None:
    close = getattr(conn, "close", None)  # a WebSocket, or a relayed one (RemoteConn)
    if close is not None:
        with contextlib.suppress(Exception):  # gone already
            async with asyncio.timeout(5):
                await close(code=code)
