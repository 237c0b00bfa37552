"""WebSockets of tables another process runs (``cardlab web --redis``).

Both sides of a relayed socket (see :mod:`cardlab.web.cluster` for the protocol):

- :func:`relay_socket`, in the process the browser is connected to: it opens the
  socket at the owner (``ws_open``, with the browser's keys, which the owner checks as it
  would its own socket's cookie), hands every message to the owner (``ws_msg``) and
  writes to the browser what the owner delivers to this connection, in order;
- :class:`RemoteSockets`, in the owner: the relayed sockets of its rooms, each a
  :class:`~cardlab.web.cluster.RemoteConn` in the room's connections, so the room's
  broadcast sends it its own seat's view like any socket of its own.

When the table changes hands (the owner died, or this process took the table over) the
relaying process closes the socket with 1012 and the page reconnects, to the new owner.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket

from cardlab.web.cluster import (
    QUEUE,
    WATCH,
    Cluster,
    ClusterError,
    Moved,
    RemoteConn,
    new_socket_key,
)

if TYPE_CHECKING:
    from cardlab.web.table_room import Room

RESTART = 1012  # the close code telling a page to reconnect (the table changed hands)
TRY_AGAIN = 1013
SEND_TIMEOUT = 10.0

Handle = Callable[..., dict[str, Any] | None]
RoomOf = Callable[[str], "Room | None"]


@dataclass
class _Remote:
    room: Room
    conn_id: int
    author: str | None
    seated: bool


class RemoteSockets:
    """At the owner: the sockets other processes relay to this process's rooms.
    ``room_of``: the room this process runs by id (None: not here); ``handle``: what a
    WebSocket message does (:func:`cardlab.web.table_routes.handle_message`)."""

    def __init__(self, cluster: Cluster, room_of: RoomOf, handle: Handle) -> None:
        self.cluster = cluster
        self.room_of = room_of
        self.handle = handle
        self.sockets: dict[str, _Remote] = {}
        cluster.handlers.update(ws_open=self.open, ws_msg=self.message, ws_close=self.close)

    def _room(self, message: dict[str, Any]) -> Room:
        room = self.room_of(str(message.get("table", "")))
        if room is None or room.closed:
            raise Moved("this process no longer runs the table: reconnecting")
        return room

    async def open(self, message: dict[str, Any]) -> dict[str, Any]:
        room = self._room(message)
        room.wake()
        author = _key(message.get("author"))
        seat = room.seating.seat_of_hash(author)
        host = room.seating.is_host(_key(message.get("browser")))
        key = str(message["conn"])
        conn = RemoteConn(self.cluster, str(message["from"]), key, room.id)
        conn_id = room.connect(conn, seat, host)  # its state comes with the broadcast
        room.chat.listen(conn_id, conn, author)
        room.extras.coach.listen(conn_id, conn, author)  # the coach's reviews reach it too
        self.sockets[key] = _Remote(room, conn_id, author, seat is not None)
        return {"greeting": room.chat.greeting(author)}

    async def message(self, message: dict[str, Any]) -> dict[str, Any]:
        remote = self.sockets.get(str(message.get("conn")))
        room = self._room(message)
        if remote is None or remote.room is not room or not room.audience.has(remote.conn_id):
            raise Moved("the connection to the table was lost: reconnecting")
        seat = room.seating.seat_of_hash(remote.author) if remote.seated else None
        remote.seated = seat is not None
        text = message.get("text")
        reply = self.handle(
            room, seat, text if isinstance(text, str) else None, None, author=remote.author
        )
        return {"reply": reply}

    async def close(self, message: dict[str, Any]) -> dict[str, Any]:
        remote = self.sockets.pop(str(message.get("conn")), None)
        if remote is not None:
            remote.room.chat.unlisten(remote.conn_id)
            remote.room.extras.coach.unlisten(remote.conn_id)
            remote.room.disconnect(remote.conn_id)
        return {}

    def sweep(self) -> None:
        """Forget the sockets their rooms dropped (their process is gone, or too slow)
        and those of rooms this process no longer runs."""
        for key, remote in list(self.sockets.items()):
            room = remote.room
            here = self.room_of(room.id) is room and not room.closed
            if not here or not room.audience.has(remote.conn_id):
                remote.room.chat.unlisten(remote.conn_id)
                remote.room.extras.coach.unlisten(remote.conn_id)
                del self.sockets[key]


def _key(value: object) -> str | None:
    return value if isinstance(value, str) and value else None


async def relay_socket(
    websocket: WebSocket,
    cluster: Cluster,
    table_id: str,
    owner: str,
    *,
    author: str | None,
    browser: str | None,
    runs_here: Callable[[str], bool],
    limit: Callable[[str], Awaitable[dict[str, Any] | None]],
) -> None:
    """Serve ``websocket`` for ``table_id``, which process ``owner`` runs. ``author`` and
    ``browser``: the browser's keys for this table and for its host check; ``runs_here``:
    whether this process runs a table now; ``limit``: the error for a message over the
    connection's rate (None: within it), given the connection's key."""
    key = new_socket_key(cluster)
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE)
    cluster.sockets[key] = queue
    opened = False
    code = RESTART
    tasks: list[asyncio.Task[Any]] = []
    try:
        try:
            answer = await cluster.request(
                owner,
                {
                    "kind": "ws_open",
                    "table": table_id,
                    "conn": key,
                    "author": author,
                    "browser": browser,
                },
            )
        except ClusterError:
            await websocket.close(code=TRY_AGAIN)  # the page tries again in a second
            return
        opened = True
        await websocket.accept()
        greeting = answer.get("greeting")
        if greeting is not None:
            queue.put_nowait({"text": json.dumps(greeting, ensure_ascii=False)})
        loop = asyncio.get_running_loop()
        tasks = [
            loop.create_task(_write(websocket, queue)),
            loop.create_task(_watch(cluster, table_id, owner, runs_here)),
            loop.create_task(_read(websocket, cluster, table_id, owner, key, queue, limit)),
        ]
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            result = None if task.cancelled() or task.exception() else task.result()
            if isinstance(result, int):
                code = result
    finally:
        cluster.sockets.pop(key, None)
        for task in tasks:
            task.cancel()
        if opened:
            cluster.notify(owner, {"kind": "ws_close", "table": table_id, "conn": key})
            with contextlib.suppress(Exception):
                await websocket.close(code=code)


async def _write(websocket: WebSocket, queue: asyncio.Queue[dict[str, Any]]) -> int:
    """Write what the owner delivers, in order; the close code when it says to close."""
    while True:
        item = await queue.get()
        if "close" in item:
            return int(item["close"])
        try:
            async with asyncio.timeout(SEND_TIMEOUT):  # (not wait_for: see table_room)
                await websocket.send_text(str(item["text"]))
        except Exception:  # gone, or too slow: it reconnects and gets the state
            return TRY_AGAIN


async def _watch(
    cluster: Cluster, table_id: str, owner: str, runs_here: Callable[[str], bool]
) -> int:
    """Return (closing the socket) once the table is no longer ``owner``'s."""
    while True:
        await asyncio.sleep(WATCH)
        if runs_here(table_id):
            return RESTART
        try:
            now = await cluster.owner(table_id)
        except Exception:  # Redis away for a moment: look again
            continue
        if now != owner:
            return RESTART


async def _read(
    websocket: WebSocket,
    cluster: Cluster,
    table_id: str,
    owner: str,
    key: str,
    queue: asyncio.Queue[dict[str, Any]],
    limit: Callable[[str], Awaitable[dict[str, Any] | None]],
) -> int:
    """Hand the browser's messages to the owner, one at a time; its answers back."""
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return 1000
        reply = await limit(key)
        if reply is None:
            try:
                answer = await cluster.request(
                    owner,
                    {"kind": "ws_msg", "table": table_id, "conn": key, "text": message.get("text")},
                )
                reply = answer.get("reply")
                if "error" in answer and reply is None:
                    reply = {"type": "error", "message": str(answer["error"])[:300]}
            except Moved as exc:
                queue.put_nowait({"text": json.dumps({"type": "error", "message": str(exc)})})
                queue.put_nowait({"close": RESTART})  # the writer closes after the error
                continue
            except ClusterError as exc:
                reply = {"type": "error", "message": str(exc)[:300]}
        if reply is not None:
            try:
                queue.put_nowait({"text": json.dumps(reply, ensure_ascii=False)})
            except asyncio.QueueFull:
                return TRY_AGAIN
