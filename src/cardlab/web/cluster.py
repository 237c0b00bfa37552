"""Many ``cardlab web`` processes, one set of tables: forwarding through Redis.

Each table runs in the one process holding its lease (:mod:`cardlab.web.lease`); every
process serves every HTTP and WebSocket endpoint of every table. A process that does not
run a table (a *non-owner*) relays what its clients ask to the owner and the owner's
answers back, through Redis pub/sub:

- every process listens on its own channel ``cardlab:node:<id>`` (``id`` is its lease
  owner id, the value of the lease key, so the holder of a table's lease names the
  channel to reach it);
- a **request** is one message to the owner's channel ``{"kind", "id", "from", "table",
  ...}``; the owner answers with ``{"kind": "reply", "id", ...}`` on the asker's channel.
  ``PUBLISH`` counts the listeners: none (the owner died) is an error at once; no answer
  within :data:`TIMEOUT` seconds is an error too. Nothing is ever resent, so an action
  is applied once or not at all;
- an **HTTP** request to a table (:class:`ClusterForward`, a middleware) travels whole:
  method, path, query, headers (the browser cookie), body and the rate-limit key of the
  client; the owner runs it through its own routes and the answer travels back whole
  (status, headers such as ``Set-Cookie``, body);
- a **WebSocket** of a non-owner is opened at the owner as a *remote connection*
  (:class:`RemoteConn`) with the browser's keys: the owner seats it as it would a local
  socket, and everything the owner sends that connection (its own seat's view, its
  chat status) is published to the non-owner's channel addressed to that connection
  alone (``{"kind": "deliver", "conn", "text"}``). The holder of seat 2's cards is the
  only socket they are delivered to; other sockets of the same process get their own
  views. Messages from the socket go to the owner as requests (``ws_msg``) and the
  answer meant for that client alone (an error, a chat status) comes back as the reply;
- a request to **create** a table (``POST /api/tables``) is relayed whole, the same way,
  to the least loaded process (:mod:`cardlab.web.balance` chooses it, ``"place": true``
  in the message), which creates the table; and a process that hands a table over tells
  the receiver to take it at once (``{"kind": "adopt", "table", "from"}``, a notice);
- the non-owner watches the lease of each table it relays (every :data:`WATCH`
  seconds): when the owner changes (a failover, or this process took the table over) it
  closes those sockets with 1012 and the pages reconnect, to the new owner.

The lobby is shared through the hash ``cardlab:tables`` (table id -> its lobby summary
and the time it was written): each owner writes its tables' summaries every lease tick
and when a table is created, and deletes a table's entry when it closes.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardlab.errors import CardlabError
from cardlab.web.lease import HANDED, PREFIX, TableLeases

log = logging.getLogger(__name__)

TIMEOUT = 5.0  # seconds a request waits for the owner's answer
WATCH = 1.0  # seconds between looks at the lease of a table whose sockets are relayed
STALE = 60.0  # seconds after which a lobby entry nobody rewrote is left out
MAX_FORWARDED_BODY = 256 * 1024  # bytes of a request body relayed (the routes take less)
QUEUE = 256  # messages waiting for one relayed socket before it is dropped as too slow
TABLES = f"{PREFIX}tables"
_TABLE_PATH = re.compile(r"/(?:api/)?tables/([A-Za-z0-9_-]{1,64})(?:/.*)?")
_STORED_REPLAY = re.compile(r"/api/hands/\d{1,18}/replay")
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_NOT_TABLES = frozenset({"options"})

Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class ClusterError(CardlabError):
    """The process running a table could not be reached, or did not answer in time."""


class Moved(ClusterError):
    """The table is between owners (its owner stopped running it, none took it yet)."""


def channel(node: str) -> str:
    return f"{PREFIX}node:{node}"


def table_of(scope: Scope) -> str | None:
    """The id of the table an HTTP request or WebSocket is about (None: no table)."""
    path = str(scope.get("path", ""))
    found = _TABLE_PATH.fullmatch(path)
    if found is not None:
        return None if found.group(1) in _NOT_TABLES else found.group(1)
    if _STORED_REPLAY.fullmatch(path):  # a table's stored hand: ?table=T
        from urllib.parse import parse_qs

        query = bytes(scope.get("query_string", b"")).decode("latin-1")
        given = parse_qs(query).get("table", [""])[0]
        return given if _TABLE_ID.fullmatch(given) else None
    return None


class Cluster:
    """One process's link to the others: its channel, the requests it waits on, the
    sockets it relays. ``client``: a ``redis.asyncio.Redis``; ``node``: this process's
    lease owner id."""

    def __init__(self, client: Any, node: str, *, timeout: float = TIMEOUT) -> None:
        self.redis = client
        self.node = node
        self.timeout = timeout
        self.app: ASGIApp | None = None  # the routes, below the forwarder (ClusterForward)
        self.is_local: Callable[[str], bool] = lambda table_id: False
        # where a new table goes (None: here), and whether this process takes new tables
        # (cardlab.web.balance)
        self.place: Callable[[], Awaitable[str | None]] | None = None
        self.accepts_tables: Callable[[], bool] = lambda: True
        self.handlers: dict[str, Handler] = {"http": self._serve_http}
        self.sockets: dict[str, asyncio.Queue[dict[str, Any]]] = {}  # relayed, by key
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._numbers = itertools.count(1)
        self._listener: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ready = asyncio.Event()

    # --- running -----------------------------------------------------------------------

    async def start(self) -> None:
        """Listen on this process's channel (returns once subscribed)."""
        self._listener = asyncio.get_running_loop().create_task(self._listen())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), 10)

    async def stop(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(BaseException):
                await self._listener
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(ClusterError("this process is stopping"))
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _listen(self) -> None:
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(channel(self.node))
                self._ready.set()
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None and message.get("type") == "message":
                        self._dispatch(message["data"])
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception:  # Redis away for a moment: listen again
                log.exception("the cluster channel failed; listening again")
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(0.5)

    def _dispatch(self, data: bytes | str) -> None:
        try:
            message = json.loads(data)
            kind = message["kind"]
        except (ValueError, KeyError, TypeError):
            log.warning("a malformed cluster message: %.80r", data)
            return
        if kind == "reply":
            future = self._waiting.pop(str(message.get("id")), None)
            if future is not None and not future.done():
                future.set_result(message)
        elif kind == "deliver":
            queue = self.sockets.get(str(message.get("conn")))
            if queue is None and message.get("from") and message.get("text") is not None:
                # a socket closed here whose close the owner missed: tell it again
                notice = {
                    "kind": "ws_close",
                    "table": message.get("table"),
                    "conn": message["conn"],
                }
                self.notify(str(message["from"]), notice)
            elif queue is not None:
                try:
                    queue.put_nowait(message)
                except asyncio.QueueFull:  # too slow: the socket closes and reconnects
                    queue.put_nowait({"close": 1013})
        elif kind in self.handlers:
            self._spawn(self._answer(self.handlers[kind], message))
        else:
            log.warning("an unknown cluster message kind: %.40r", kind)

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(self, handler: Handler, message: dict[str, Any]) -> None:
        asker, number = message.get("from"), message.get("id")
        try:
            body = await handler(message)
        except Moved as exc:
            body = {"moved": True, "error": str(exc)}
        except CardlabError as exc:
            body = {"error": str(exc)[:300]}
        except Exception:
            log.exception("serving a %s request from another process", message.get("kind"))
            body = {"error": "the table's process failed to serve the request"}
        if asker is None or number is None:
            return  # a notice (ws_close): nobody waits
        with contextlib.suppress(Exception):
            await self.publish(str(asker), {"kind": "reply", "id": number} | body)

    # --- talking to the other processes ------------------------------------------------

    async def publish(self, node: str, message: dict[str, Any]) -> int:
        """Send ``message`` to process ``node``; how many listened (0: it is gone)."""
        return int(await self.redis.publish(channel(node), json.dumps(message)))

    async def request(self, node: str, message: dict[str, Any]) -> dict[str, Any]:
        """Ask process ``node``; its answer. :class:`ClusterError` if it is gone or does
        not answer within the timeout, :class:`Moved` if it no longer runs the table."""
        number = f"{self.node}:{next(self._numbers)}"
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        try:
            try:
                listened = await self.publish(node, message | {"id": number, "from": self.node})
            except Exception as exc:  # Redis itself away
                raise ClusterError(f"the table's process cannot be reached ({exc})") from None
            if listened == 0:
                raise Moved(
                    "the process running this table has stopped; another takes it over "
                    "within seconds: try again"
                )
            try:
                answer = await asyncio.wait_for(future, self.timeout)
            except TimeoutError:
                raise ClusterError(
                    f"the process running this table did not answer within "
                    f"{self.timeout:g} s (it may have stopped; another takes the table over "
                    "within seconds): reload to see whether your request was done"
                ) from None
        finally:
            self._waiting.pop(number, None)
        if answer.get("moved"):
            raise Moved(str(answer.get("error", "the table is moving to another process")))
        return answer

    def notify(self, node: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``node`` without waiting (nobody answers)."""
        self._spawn(self._quietly(self.publish(node, message)))

    @staticmethod
    async def _quietly(coro: Awaitable[Any]) -> None:
        with contextlib.suppress(Exception):
            await coro

    async def owner(self, table_id: str) -> str | None:
        """The process holding ``table_id``'s lease (None: nobody now, or it is being
        handed over)."""
        value = await self.redis.get(TableLeases.lease_key(table_id))
        if value is None:
            return None
        text = value.decode() if isinstance(value, bytes) else str(value)
        return None if text.startswith(HANDED) else text

    # --- the shared lobby -------------------------------------------------------------

    async def advertise(self, summaries: dict[str, dict[str, Any]]) -> None:
        """Write the lobby entries of the tables this process runs."""
        if summaries:
            now = time.time()
            mapping = {tid: json.dumps(s | {"at": now}) for tid, s in summaries.items()}
            await self.redis.hset(TABLES, mapping=mapping)

    def withdraw(self, table_id: str) -> None:
        """A table closed: out of the lobby."""
        self._spawn(self._quietly(self.redis.hdel(TABLES, table_id)))

    async def known(self, table_id: str) -> bool:
        """An open table some process ran lately (its lobby entry, public or not)."""
        return bool(await self.redis.hexists(TABLES, table_id))

    async def tables(self) -> dict[str, dict[str, Any]]:
        """Every open table's lobby entry, as its owner last wrote it."""
        raw = await self.redis.hgetall(TABLES)
        now = time.time()
        out: dict[str, dict[str, Any]] = {}
        for key, value in raw.items():
            try:
                entry = json.loads(value)
                at = float(entry.pop("at"))
            except (ValueError, KeyError, TypeError):
                continue
            if now - at <= STALE:
                out[key.decode() if isinstance(key, bytes) else str(key)] = entry
        return out

    # --- HTTP at the owner -----------------------------------------------------------

    async def _serve_http(self, message: dict[str, Any]) -> dict[str, Any]:
        """Run a relayed HTTP request through this process's routes."""
        table_id = str(message.get("table", ""))
        if self.app is None:
            raise Moved("this process is not serving yet: try again")
        if message.get("place"):  # a new table placed here (cardlab.web.balance)
            if not self.accepts_tables():
                raise Moved("this process is stopping and takes no new tables: try again")
        elif not self.is_local(table_id):
            raise Moved("this process no longer runs the table: try again")
        scope: Scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": str(message["method"]),
            "scheme": str(message.get("scheme", "http")),
            "path": str(message["path"]),
            "raw_path": str(message["path"]).encode(),
            "query_string": str(message.get("query", "")).encode("latin-1"),
            "root_path": "",
            "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in message["headers"]],
            "client": tuple(message["client"]) if message.get("client") else None,
            "server": tuple(message["server"]) if message.get("server") else None,
            "cardlab.client_key": str(message.get("client_key", "unknown")),
            "cardlab.forwarded": True,
        }
        body = base64.b64decode(message.get("body", ""))
        sent = False

        async def receive() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.sleep(3600)  # nobody disconnects a relayed request
            return {"type": "http.disconnect"}

        status = 500
        headers: list[list[str]] = []
        chunks: list[bytes] = []

        async def send(event: Message) -> None:
            nonlocal status
            if event["type"] == "http.response.start":
                status = int(event["status"])
                headers.extend(
                    [k.decode("latin-1"), v.decode("latin-1")] for k, v in event["headers"]
                )
            elif event["type"] == "http.response.body":
                chunks.append(bytes(event.get("body", b"")))

        await self.app(scope, receive, send)
        return {
            "status": status,
            "headers": headers,
            "body": base64.b64encode(b"".join(chunks)).decode("ascii"),
        }


class ClusterForward:
    """A pure ASGI middleware (inside the :class:`~cardlab.web.guard.Guard`): an HTTP
    request about a table another process runs is relayed to that process and its
    answer given back, and so is a request to create a table that belongs on a less
    loaded process (:meth:`Cluster.place`); everything else goes on to the routes. While
    a table has no owner (a failover) its requests get 503 with ``Retry-After: 1``; a
    request the owner does not answer in time gets 504 (see :class:`Cluster`)."""

    def __init__(self, app: ASGIApp, *, cluster: Cluster) -> None:
        self.app = app
        self.cluster = cluster
        cluster.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("cardlab.forwarded"):
            await self.app(scope, receive, send)
            return
        if scope["method"] == "POST" and scope["path"] == "/api/tables":
            await self._place(scope, receive, send)
            return
        table_id = table_of(scope)
        if table_id is None or self.cluster.is_local(table_id):
            await self.app(scope, receive, send)
            return
        try:
            owner = await self.cluster.owner(table_id)
            if owner is None or owner == self.cluster.node:
                if not await self.cluster.known(table_id):
                    await self.app(scope, receive, send)  # no such table: the routes say so
                    return
                raise Moved("the table is moving to another process: try again in a moment")
            body = await _read_body(receive)
            if body is None:
                response = JSONResponse(
                    {"error": f"the request body is over {MAX_FORWARDED_BODY} bytes"}, 413
                )
                await response(scope, receive, send)
                return
            answer = await self.cluster.request(owner, _relayed(scope, table_id, body))
        except Moved as exc:
            response = JSONResponse({"error": str(exc), "retry_after": 1}, 503)
            response.headers["Retry-After"] = "1"
            await response(scope, receive, send)
            return
        except ClusterError as exc:
            await JSONResponse({"error": str(exc)}, 504)(scope, receive, send)
            return
        except Exception as exc:  # Redis away
            log.warning("relaying a request for table %r failed: %s", table_id, exc)
            message = "the tables' shared service (Redis) cannot be reached: try again"
            await JSONResponse({"error": message}, 503)(scope, receive, send)
            return
        await _answer(answer, scope, receive, send)

    async def _place(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A new table: created here, or relayed whole to the least loaded process
        (:meth:`Cluster.place`); if that one has gone or stopped taking tables, here."""
        place = self.cluster.place
        try:
            target = None if place is None else await place()
        except Moved as exc:  # this process drains and no other runs
            await JSONResponse({"error": str(exc), "retry_after": 1}, 503)(scope, receive, send)
            return
        except Exception as exc:  # Redis away: the table is made here
            log.warning("placing a new table failed: %s", exc)
            target = None
        body: bytes | None = None
        if target is not None:
            body = await _read_body(receive)
            if body is None:
                response = JSONResponse(
                    {"error": f"the request body is over {MAX_FORWARDED_BODY} bytes"}, 413
                )
                await response(scope, receive, send)
                return
            message = _relayed(scope, "", body) | {"place": True}
            try:
                answer = await self.cluster.request(target, message)
            except Moved:  # never reached it, or it refused before doing anything
                answer = None
            except ClusterError as exc:  # no answer in time: it may have made the table
                await JSONResponse({"error": str(exc)}, 504)(scope, receive, send)
                return
            if answer is not None:
                await _answer(answer, scope, receive, send)
                return
        if not self.cluster.accepts_tables():
            refusal = "this server is stopping and takes no new tables: try again"
            await JSONResponse({"error": refusal, "retry_after": 1}, 503)(scope, receive, send)
            return
        await self.app(scope, _replay(body) if body is not None else receive, send)


def _replay(body: bytes) -> Receive:
    """A ``receive`` giving ``body`` again (read once already)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    return receive


async def _answer(answer: dict[str, Any], scope: Scope, receive: Receive, send: Send) -> None:
    """Give the client the owner's answer to a relayed request."""
    if "error" in answer and "status" not in answer:
        await JSONResponse({"error": answer["error"]}, 502)(scope, receive, send)
        return
    headers = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in answer["headers"]]
    await send({"type": "http.response.start", "status": int(answer["status"]), "headers": headers})
    await send({"type": "http.response.body", "body": base64.b64decode(answer["body"])})


def _relayed(scope: Scope, table_id: str, body: bytes) -> dict[str, Any]:
    return {
        "kind": "http",
        "table": table_id,
        "method": scope["method"],
        "scheme": scope.get("scheme", "http"),
        "path": scope["path"],
        "query": bytes(scope.get("query_string", b"")).decode("latin-1"),
        "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
        "client": list(scope["client"]) if scope.get("client") else None,
        "server": list(scope["server"]) if scope.get("server") else None,
        "client_key": scope.get("cardlab.client_key", "unknown"),
        "body": base64.b64encode(body).decode("ascii"),
    }


async def _read_body(receive: Receive) -> bytes | None:
    """The whole request body (None: over :data:`MAX_FORWARDED_BODY` bytes)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = bytes(message.get("body", b""))
        size += len(chunk)
        if size > MAX_FORWARDED_BODY:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


class RemoteConn:
    """At the owner: a WebSocket another process holds, reached through its channel.
    Sending to it publishes the text addressed to that one connection."""

    def __init__(self, cluster: Cluster, node: str, key: str, table_id: str) -> None:
        self.cluster = cluster
        self.node = node
        self.key = key
        self.table_id = table_id

    async def send_text(self, data: str) -> None:
        message = {"kind": "deliver", "conn": self.key, "text": data}
        message |= {"table": self.table_id, "from": self.cluster.node}
        listened = await self.cluster.publish(self.node, message)
        if listened == 0:  # that process is gone: the room drops this connection
            raise ConnectionError(f"process {self.node[:8]} is gone")

    async def close(self, code: int = 1000) -> None:
        """Close the socket at the process holding it (with ``code``: 1012, reconnect)."""
        message = {"kind": "deliver", "conn": self.key, "close": code, "table": self.table_id}
        await self.cluster.publish(self.node, message)


def new_socket_key(cluster: Cluster) -> str:
    """A key naming one relayed socket of this process, unique across processes."""
    return f"{cluster.node}:{secrets.token_hex(8)}"
