"""What an operator watches: ``/healthz``, ``/readyz`` and ``/metrics`` (Prometheus).

- ``GET /healthz``: 200 ``ok`` while the process serves; it asks nothing of the store,
  but answers 503 once an outage of the store has lasted past ``--outage-limit`` (see
  :mod:`cardlab.web.store_watch`): the process is then of no use until restarted.
- ``GET /readyz``: 200 ``ready`` when the store is not in an outage and answers a
  trivial query and, with ``--redis``, Redis answers a ping and this process renewed its
  leases lately, and it is not draining; else 503 with the reason on one line (a load
  balancer stops sending it requests).
- ``POST /drain``: hand this process's tables to the others and stop
  (:mod:`cardlab.web.balance`; ``cardlab web --redis`` only, 409 otherwise), served to
  the same clients as ``/metrics``; 202 with what it does.
- ``GET /metrics``: this process's counters in Prometheus's text format, every series
  labelled ``process`` (the id this process has in the lobby and the logs). It is served
  to loopback clients that did not come through a proxy (no ``X-Forwarded-For`` or
  ``Forwarded`` header), or to anyone sending ``Authorization: Bearer <token>`` when
  ``cardlab web --metrics-token`` set one; everyone else gets 403.

The counts are taken at the edges of the tables, never inside a room: the store's writes
through :class:`MeteredStore` (hands dealt, actions stored, write latency), the
WebSocket messages through :meth:`Metrics.timed` (action latency), the rate limiter's
refusals through :func:`count_refusals`, the sockets open through :class:`SocketGauge`,
and the lease takeovers by :class:`~cardlab.web.table_manager.TableManager`. Live tables
and seats are read from the manager when scraped.

The registry is this app's own (not the library's global one), so two apps in one
process (tests) count apart.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import json
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardlab.web.guard import RateLimiter

log = logging.getLogger(__name__)


class TableManager(Protocol):
    """What the metrics read of :class:`cardlab.web.table_manager.TableManager` (named
    here, not imported: the manager counts its takeovers in :class:`Metrics`)."""

    @property
    def rooms(self) -> dict[str, Any]: ...

    @property
    def store(self) -> Any: ...

    @property
    def cluster(self) -> Any: ...

    @property
    def keeper(self) -> Any: ...

    @property
    def kept_at(self) -> float | None: ...

    @property
    def watch(self) -> Any: ...


CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
READY_TIMEOUT = 2.0  # seconds the store and Redis have to answer /readyz
LEASE_SLACK = 3  # lease ticks missed before a process is not ready
# seconds: an action is handled in well under a millisecond; a store write in a few
REFUSAL_LOG_EVERY = 10.0  # seconds between log lines about refused WebSockets
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


def process_name() -> str:
    """This process's id, as the logs, the lobby and the metrics show it: host, pid and a
    few random hex digits (a pid is reused after a restart)."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class Metrics:
    """The counters of one web app, in a registry of their own, each labelled with
    ``process``."""

    def __init__(self, process: str) -> None:
        self.process = process
        self.registry = CollectorRegistry(auto_describe=True)
        labels = ["process"]
        reg = self.registry
        self.hands = Counter(
            "cardlab_hands_dealt", "Hands dealt (stored as begun).", labels, registry=reg
        ).labels(process)
        self.actions = Counter(
            "cardlab_actions", "Actions stored (people's and bots').", labels, registry=reg
        ).labels(process)
        self.action_seconds = Histogram(
            "cardlab_action_seconds",
            "Seconds to handle a player's action message (validated, stored, broadcast).",
            labels,
            registry=reg,
            buckets=LATENCY_BUCKETS,
        ).labels(process)
        self._store_seconds = Histogram(
            "cardlab_store_write_seconds",
            "Seconds a store write took, by kind.",
            ["process", "write"],
            registry=reg,
            buckets=LATENCY_BUCKETS,
        )
        self.takeovers = Counter(
            "cardlab_lease_takeovers",
            "Tables this process took over from another (their lease was free).",
            labels,
            registry=reg,
        ).labels(process)
        self._refusals = Counter(
            "cardlab_rate_limit_refusals",
            "Requests and messages refused by a rate limit, by bucket.",
            ["process", "bucket"],
            registry=reg,
        )
        self.sockets = Gauge(
            "cardlab_websocket_connections", "WebSockets open now.", labels, registry=reg
        ).labels(process)
        self.socket_refusals = Counter(
            "cardlab_websocket_refusals",
            "WebSockets refused: this process had --max-sockets open.",
            labels,
            registry=reg,
        ).labels(process)
        self._handovers = Counter(
            "cardlab_table_handovers",
            "Tables this process handed over to another at a hand's end, by reason "
            "(balance, drain).",
            ["process", "reason"],
            registry=reg,
        )

    def handovers(self, reason: str) -> None:
        self._handovers.labels(self.process, reason).inc()

    def store_write(self, write: str) -> AbstractContextManager[None]:
        """Time one store write of kind ``write`` (the store's method name)."""
        return self._store_seconds.labels(self.process, write).time()

    def refused(self, bucket: str) -> None:
        self._refusals.labels(self.process, bucket).inc()

    def timed(self, handle: Callable[..., Any]) -> Callable[..., Any]:
        """``handle`` (:func:`~cardlab.web.table_routes.handle_message`) timing the action
        messages."""

        def handle_timed(room: Any, seat: Any, text: Any, *args: Any, **kwargs: Any) -> Any:
            if _kind(text) != "action":
                return handle(room, seat, text, *args, **kwargs)
            with self.action_seconds.time():
                return handle(room, seat, text, *args, **kwargs)

        return handle_timed

    def watch(self, manager: TableManager) -> None:
        """Report ``manager``'s live tables, seats and owners when scraped."""
        self.registry.register(_TablesCollector(manager, self.process))

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


def _kind(text: object) -> object:
    """A WebSocket message's ``type`` (None if it is not a JSON object)."""
    try:
        message = json.loads(text) if isinstance(text, str) and len(text) < 10_000 else None
    except (ValueError, RecursionError):
        return None
    return message.get("type") if isinstance(message, dict) else None


class _TablesCollector(Collector):
    def __init__(self, manager: TableManager, process: str) -> None:
        self.manager = manager
        self.process = process

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        rooms = [room for room in list(self.manager.rooms.values()) if not room.closed]
        tables = GaugeMetricFamily(
            "cardlab_tables", "Live tables this process runs.", labels=["process"]
        )
        tables.add_metric([self.process], len(rooms))
        seats = GaugeMetricFamily(
            "cardlab_seats",
            "Seats of the live tables this process runs, by who sits (human, bot, open).",
            labels=["process", "kind"],
        )
        kinds = {"human": 0, "bot": 0, "open": 0}
        for room in rooms:
            for info in room.seats:
                kind = info.kind if info.kind in kinds else "open"
                kinds[kind] += 1
        for kind, n in kinds.items():
            seats.add_metric([self.process, kind], n)
        owner = GaugeMetricFamily(
            "cardlab_table_owner",
            "1 for each live table, labelled with the process that runs it.",
            labels=["process", "table"],
        )
        for room in rooms:
            owner.add_metric([self.process, room.id], 1)
        draining = GaugeMetricFamily(
            "cardlab_draining",
            "1 while this process drains (hands its tables over, takes no new one).",
            labels=["process"],
        )
        balancer = getattr(self.manager, "balancer", None)
        draining.add_metric([self.process], int(balancer is not None and balancer.draining))
        yield from (tables, seats, owner, draining)
        watch = getattr(self.manager, "watch", None)
        if watch is not None:
            outages = CounterMetricFamily(
                "cardlab_store_outages",
                "Times the store became unreachable (the tables paused until it returned).",
                labels=["process"],
            )
            outages.add_metric([self.process], watch.outages)
            down = GaugeMetricFamily(
                "cardlab_store_unreachable_seconds",
                "Seconds the store has been unreachable (0: it answers).",
                labels=["process"],
            )
            down.add_metric([self.process], watch.down_for())
            yield from (outages, down)

    def describe(self) -> Iterator[GaugeMetricFamily]:
        return iter(())


class MeteredStore:
    """A table store whose writes are counted and timed in :class:`Metrics`; every other
    call goes straight to the store it wraps."""

    _WRITES = frozenset(
        {
            "save_table",
            "close_table",
            "begin_hand",
            "add_action",
            "save_clock",
            "end_hand",
            "amend_hand",
            "cancel_hand",
            "add_seed",
            "reveal_seed",
            "add_ledger",
            "save_results",
        }
    )

    def __init__(self, store: Any, metrics: Metrics) -> None:
        self._store = store
        self._metrics = metrics

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if name not in self._WRITES:
            return found
        metrics = self._metrics

        def write(*args: Any, **kwargs: Any) -> Any:
            with metrics.store_write(name):
                done = found(*args, **kwargs)
            if name == "begin_hand":
                metrics.hands.inc()
            elif name == "add_action":
                metrics.actions.inc()
            return done

        return write


def count_refusals(limiter: RateLimiter, metrics: Metrics) -> None:
    """Count ``limiter``'s refusals by bucket in ``metrics`` (its ``take`` wrapped)."""
    take = limiter.take

    async def counted(key: str, bucket: str) -> float | None:
        wait = await take(key, bucket)
        if wait is not None:
            metrics.refused(bucket)
        return wait

    limiter.take = counted  # type: ignore[method-assign]


class SocketGauge:
    """ASGI middleware: the WebSockets open now (counted from their accept to their end),
    and with ``limit`` at most that many at once: a handshake past it is accepted and
    closed at once with 1013 (try again later; the page reconnects, through the load
    balancer perhaps to another process), counted and logged (one line per
    :data:`REFUSAL_LOG_EVERY` seconds with the count since the last)."""

    def __init__(self, app: ASGIApp, metrics: Metrics, limit: int | None = None) -> None:
        if limit is not None and limit < 1:
            raise ValueError(f"a WebSocket limit is a positive count, got {limit!r}")
        self.app = app
        self.metrics = metrics
        self.limit = limit
        self.admitted = 0  # sockets past the limit check, not yet ended
        self._unlogged = 0
        self._logged_at = -math.inf

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        if self.limit is not None and self.admitted >= self.limit:
            await self._refuse(send)
            return
        self.admitted += 1
        try:
            await self._serve(scope, receive, send)
        finally:
            self.admitted -= 1

    async def _refuse(self, send: Send) -> None:
        self.metrics.socket_refusals.inc()
        self._unlogged += 1
        now = time.monotonic()
        if now - self._logged_at >= REFUSAL_LOG_EVERY:
            log.warning(
                "process %s refused %d WebSocket(s): %d open, its limit (--max-sockets)",
                self.metrics.process, self._unlogged, self.admitted,
            )  # fmt: skip
            self._unlogged, self._logged_at = 0, now
        await send({"type": "websocket.accept"})
        reason = "this server has all the connections it takes: reconnecting"
        await send({"type": "websocket.close", "code": 1013, "reason": reason})

    async def _serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        accepted = False

        async def watched(message: Message) -> None:
            nonlocal accepted
            if message["type"] == "websocket.accept" and not accepted:
                accepted = True
                self.metrics.sockets.inc()
            await send(message)

        try:
            await self.app(scope, receive, watched)
        finally:
            if accepted:
                self.metrics.sockets.dec()


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def metrics_allowed(request: Request, token: str | None) -> bool:
    """Whether ``request`` may read /metrics: the right bearer token, or (with no token
    set) a loopback client that did not come through a proxy."""
    if token is not None:
        given = request.headers.get("authorization", "")
        return hmac.compare_digest(given.encode(), f"Bearer {token}".encode())
    proxied = "x-forwarded-for" in request.headers or "forwarded" in request.headers
    client = request.client
    return not proxied and client is not None and _loopback(client.host)


def health_routes(
    manager: TableManager, metrics: Metrics, *, token: str | None = None
) -> list[BaseRoute]:
    """``/healthz``, ``/readyz`` and ``/metrics`` (see the module's docstring)."""

    async def healthz(request: Request) -> Response:
        watch = getattr(manager, "watch", None)
        if watch is not None and watch.expired:
            lasted = watch.down_for()
            return PlainTextResponse(
                f"unhealthy: the store has been unreachable for {lasted:.0f} s", 503
            )
        return PlainTextResponse("ok")

    async def readyz(request: Request) -> Response:
        reason = await not_ready(manager)
        if reason is None:
            return PlainTextResponse("ready")
        return PlainTextResponse(f"not ready: {reason}", status_code=503)

    async def drain(request: Request) -> Response:
        if not metrics_allowed(request, token):
            why = "a bearer token" if token is not None else "a loopback client, not proxied"
            return PlainTextResponse(f"/drain is served only to {why}", status_code=403)
        balancer = getattr(manager, "balancer", None)
        if balancer is None:
            message = "a drain needs --redis: a process alone has nobody to hand its tables to"
            return PlainTextResponse(message, status_code=409)
        balancer.request_drain()
        tables = balancer.load()
        return PlainTextResponse(
            f"draining: {tables} tables to hand over within {balancer.drain_timeout:g} s, "
            "then the process stops",
            status_code=202,
        )

    async def scrape(request: Request) -> Response:
        if not metrics_allowed(request, token):
            why = "a bearer token" if token is not None else "a loopback client, not proxied"
            return PlainTextResponse(f"/metrics is served only to {why}", status_code=403)
        return Response(metrics.exposition(), media_type=CONTENT_TYPE)

    return [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", scrape),
        Route("/drain", drain, methods=["POST"]),
    ]


async def not_ready(manager: TableManager) -> str | None:
    """Why this process should not be sent requests now (None: it is ready)."""
    balancer = getattr(manager, "balancer", None)
    if balancer is not None and balancer.draining:
        return "draining (its tables are handed to the other processes; then it stops)"
    watch = getattr(manager, "watch", None)
    if watch is not None and watch.down:
        lasted = watch.down_for()
        return f"the store is unreachable ({lasted:.0f} s, the tables paused): {watch.reason}"
    store = manager.store
    ping = getattr(store, "ping", None)
    if ping is not None:
        try:
            await asyncio.wait_for(asyncio.to_thread(ping), READY_TIMEOUT)
        except TimeoutError:
            return f"the store did not answer in {READY_TIMEOUT:g} s"
        except Exception as exc:  # StoreError, or the driver's own
            return f"the store is unreachable: {str(exc)[:200]}"
    if manager.cluster is not None:
        try:
            await asyncio.wait_for(manager.cluster.redis.ping(), READY_TIMEOUT)
        except TimeoutError:
            return f"Redis did not answer in {READY_TIMEOUT:g} s"
        except Exception as exc:  # redis.ConnectionError and kin
            return f"Redis is unreachable: {str(exc)[:200]}"
    if manager.keeper is not None:
        bound = LEASE_SLACK * manager.keeper.every
        kept = manager.kept_at
        if kept is None:
            return "the table leases were not taken yet"
        late = time.monotonic() - kept
        if late > bound:
            return f"the table leases were last renewed {late:.0f} s ago"
    return None
