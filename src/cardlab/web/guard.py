"""The checks at the web's edge: cross-site requests, request bodies and rate limits.

:class:`Guard` is a pure ASGI middleware; :class:`RateLimiter` is the token-bucket
limiter it uses, which route code shares for finer buckets (``"create"``, ``"join"``,
``"message"``) through :func:`client_key` and :func:`too_many`.

Why these checks, and why they are enough
-----------------------------------------
A table seat and a table's host are held by an HttpOnly browser cookie, so a page on
another site must never act for a visitor (CSRF), nor open a WebSocket to a table in
the visitor's name (cross-site WebSocket hijacking).

1. **Origin.** Browsers send ``Origin`` with every cross-origin request that can change
   state and with every WebSocket handshake; a page cannot forge it. A state-changing
   request (POST, PUT, PATCH, DELETE) or a WebSocket handshake whose ``Origin`` is
   neither this server's own (the request's scheme and ``Host``) nor one of
   ``allowed_origins`` is refused with 403 (WebSocket: closed with 4403 before it is
   accepted, which servers send as HTTP 403). ``Origin: null`` (sandboxed frames, some
   redirects, ``file:`` pages) is refused. Without ``Origin``, a browser's
   ``Sec-Fetch-Site: cross-site`` or ``same-site`` is refused too (a sibling subdomain is
   not this server). Without either header the client is not a browser page (curl, a
   script), which a cross-site attacker cannot make a visitor run, so it is allowed.
2. **Content-Type.** A state-changing request with a body must be ``application/json``
   (parameters such as ``; charset=utf-8`` allowed). A browser sends that type
   cross-site only after a CORS preflight, which this server never approves; so even
   an origin check that missed a case would leave a page only the "simple" types
   (``text/plain``, forms), which are refused with 415. A request *without* a
   Content-Type is allowed only when its body is really empty (read, not trusted from
   ``Content-Length``): some actions post nothing, and an empty request carries no
   data an attacker could choose; a cross-site page sending one is refused by rule 1.
3. **Rate.** With a limiter, each HTTP request under ``/api/`` and each WebSocket
   handshake takes a token from the client's ``"request"`` bucket; an empty bucket
   answers 429 with ``Retry-After`` (a handshake is closed with 4403 and the wait).
   With many processes (``cardlab web --redis``) the buckets are kept in Redis
   (:class:`SharedRateLimiter`), so a client spreading its requests over the processes
   has one budget, not one per process.

The client key is the peer address; behind reverse proxies (``trust_forwarded``, a
:class:`Proxies`) it is the address the outermost trusted proxy reported: each proxy
appends the address it was reached from to ``X-Forwarded-For``, so with ``hops``
proxies in a row the client is the ``hops``-th address from the right, and whatever a
client wrote before it is ignored (a client that sends ``X-Forwarded-For: 1.2.3.4``
through one proxy arrives as ``1.2.3.4, <its own address>``, and is keyed by its own).
With ``addresses``, only a peer (and each inner proxy) in those networks is believed; a
request from anywhere else is keyed by its peer. Then ``X-Forwarded-Proto`` and
``X-Forwarded-Host`` also name this server's own origin. Without ``trust_forwarded`` no
forwarding header is read (nor by uvicorn: ``cardlab web`` turns its proxy headers off,
which otherwise believe any ``X-Forwarded-For`` from 127.0.0.1).
An IPv6 client is keyed by its /64 network, which one host usually owns whole.

**Per browser.** A browser that carries the ``cardlab_id`` cookie (:data:`BROWSER_COOKIE`)
has buckets of its own, keyed by a digest of the cookie: the Guard's ``"request"`` and
the routes' ``"join"`` are taken from the browser's bucket, and, when the limiter has
one, from the address's ``"<bucket>/address"`` bucket shared by every browser there
(a bigger budget: friends behind one NAT). A browser over its own budget is refused
before it takes from the address's, so one flooding browser cannot spend the budget of
the others. A request without the cookie (a first visit, a script) takes the
address's ``"<bucket>"`` bucket, as before. ``"create"`` stays per address: a new
cookie is free, and creating tables is what fills ``--max-tables``.

Not covered here: the ``Host`` header is not checked, so DNS rebinding (a foreign name
resolving to a local server) needs Starlette's ``TrustedHostMiddleware`` as well.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardlab.errors import CardlabError
from cardlab.web.payload import shown

log = logging.getLogger(__name__)
__all__ = [
    "BROWSER_COOKIE",
    "DEFAULT_LIMITS",
    "MAX_KEYS",
    "Guard",
    "GuardError",
    "Limit",
    "Proxies",
    "RateLimiter",
    "SharedRateLimiter",
    "browser_key",
    "client_key",
    "take",
    "too_many",
]

MAX_KEYS = 100_000  # client keys a limiter remembers; the least recently seen go first
MAX_KEY_LENGTH = 64  # characters of a client key kept (an IPv6 address is at most 45)
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
WS_REFUSED = 4403  # the close code of a refused WebSocket handshake ("403" in 4000-4999)
_EPSILON = 1e-9  # seconds: clock arithmetic slack, so waiting the retry-after is enough
_DEFAULT_PORTS = {"http": ":80", "https": ":443"}
_WS_SCHEMES = {"ws": "http", "wss": "https", "http": "http", "https": "https"}
_SCOPE_KEY = "cardlab.client_key"  # where Guard leaves the key it used, for the routes
BROWSER_COOKIE = "cardlab_id"  # the browser's secret (see cardlab.web.table_routes)
MAX_HOPS = 10  # proxies in a row a server may be told it stands behind
ADDRESS = "/address"  # the suffix of a bucket every browser at one address shares
# "https://" + a DNS name of at most 253 characters + ":65535", with room to spare
_LONGEST_ORIGIN = 300
_NOT_IN_ORIGIN = frozenset("/?#@\\ \t\r\n")


class GuardError(CardlabError):
    """A guard or rate limiter set up with a value it cannot use: a malformed origin,
    a limit that is not positive, or a bucket that was never configured."""


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``count`` events per ``per`` seconds, in a burst or spread out."""

    count: int
    per: float

    def __post_init__(self) -> None:
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise GuardError(f"a limit's count must be a whole number >= 1: {self.count!r}")
        number = isinstance(self.per, int | float) and not isinstance(self.per, bool)
        if not number or not 0 < self.per < math.inf:
            raise GuardError(f"a limit's period must be a positive number of seconds: {self.per!r}")


DEFAULT_LIMITS: Mapping[str, Limit] = MappingProxyType(
    {
        "create": Limit(10, 60.0),  # new tables or games per minute, per address
        "join": Limit(30, 60.0),  # seats taken per minute, per browser
        "join/address": Limit(150, 60.0),  # ... by every browser at one address
        "message": Limit(50, 1.0),  # WebSocket messages per second (per connection)
        "notes": Limit(60, 60.0),  # player notes written per minute, per browser
        "notes/address": Limit(300, 60.0),  # ... by every browser at one address
        "hud_upload": Limit(10, 60.0),  # own hand histories sent to the HUD per minute
        "hud_upload/address": Limit(50, 60.0),  # ... by every browser at one address
        "request": Limit(600, 10.0),  # API requests per 10 seconds, per browser (Guard's)
        "request/address": Limit(3000, 10.0),  # ... by every browser at one address
    }
)


class RateLimiter:
    """Token buckets keyed by (client key, bucket name), one :class:`Limit` per name.

    Each bucket is kept as the time it will be full again (the generic cell rate
    algorithm: one float per bucket); a full bucket is forgotten, as it is the same as
    a new one. Memory stays bounded under a flood: full buckets are swept once per
    longest period, and at most ``max_keys`` client keys are kept, the least recently
    seen forgotten first (which lets that client start afresh). ``clock`` gives seconds;
    tests pass a fake one. Not thread-safe: call it from the event loop.
    """

    def __init__(
        self,
        limits: Mapping[str, Limit] = DEFAULT_LIMITS,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = MAX_KEYS,
    ) -> None:
        if not limits:
            raise GuardError("a rate limiter needs at least one bucket: {}")
        for name, limit in limits.items():
            if not isinstance(limit, Limit):
                raise GuardError(f"bucket {name!r} must have a Limit: {shown(limit)}")
        if isinstance(max_keys, bool) or not isinstance(max_keys, int) or max_keys < 1:
            raise GuardError(f"max_keys must be a whole number >= 1: {max_keys!r}")
        self.limits: Mapping[str, Limit] = MappingProxyType(dict(limits))
        self.max_keys = max_keys
        self._clock = clock
        self._full_at: OrderedDict[str, dict[str, float]] = OrderedDict()
        self._sweep_every = max(limit.per for limit in self.limits.values())
        self._last_sweep = clock()

    def __repr__(self) -> str:
        return f"RateLimiter({dict(self.limits)!r}, max_keys={self.max_keys!r})"

    def __len__(self) -> int:
        """The number of client keys remembered now."""
        return len(self._full_at)

    def hit(self, key: str, bucket: str) -> float | None:
        """Take one token from ``key``'s ``bucket``: None if there was one, else the
        seconds until there will be (nothing is taken then)."""
        limit = self.limits.get(bucket)
        if limit is None:
            raise GuardError(f"unknown rate-limit bucket {bucket!r}: have {sorted(self.limits)}")
        now = self._clock()
        if now - self._last_sweep >= self._sweep_every:
            self._sweep(now)
        interval = limit.per / limit.count  # seconds one token takes to come back
        buckets = self._full_at.get(key)
        if buckets is None:
            buckets = self._full_at[key] = {}
            if len(self._full_at) > self.max_keys:
                self._full_at.popitem(last=False)
        else:
            self._full_at.move_to_end(key)
        full_at = max(buckets.get(bucket, now), now)
        wait = full_at - now - (limit.per - interval)  # > 0: not one token left
        if wait > _EPSILON:
            return wait
        buckets[bucket] = full_at + interval
        return None

    async def take(self, key: str, bucket: str) -> float | None:
        """:meth:`hit`, for callers on the event loop (a shared limiter asks Redis)."""
        return self.hit(key, bucket)

    def _sweep(self, now: float) -> None:
        """Forget every full bucket, and every key left with none."""
        self._last_sweep = now
        for key in list(self._full_at):
            buckets = self._full_at[key]
            for name in [name for name, full_at in buckets.items() if full_at <= now]:
                del buckets[name]
            if not buckets:
                del self._full_at[key]


AWAY = 5.0  # seconds a shared limiter that could not reach Redis limits per process alone

# GCRA as in RateLimiter.hit, in Redis: KEYS[1] holds the time (ms, Redis's clock, which
# every process shares) the bucket is full again; ARGV: the period and a token's interval
# in ms. Returns "" when a token was taken, else the ms to wait (as text: a fraction).
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local per = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local full = tonumber(redis.call('GET', KEYS[1]) or now)
if full < now then full = now end
local wait = full - now - (per - interval)
if wait > 0.000001 then return tostring(wait) end
full = full + interval
redis.call('SET', KEYS[1], tostring(full), 'PX', math.ceil(full - now) + 1)
return ''
"""


class SharedRateLimiter(RateLimiter):
    """The same token buckets kept in Redis, shared by every process using the same
    Redis (``client``: a ``redis.asyncio.Redis``). One Lua script per token taken keeps
    each bucket as the time it is full again (``cardlab:rate:<bucket>:<client key>``,
    expiring when full); the clock is Redis's, so processes whose clocks differ agree.

    ``local``: buckets that stay in this process (the default: ``"message"``, which is
    per WebSocket connection, and a connection lives in one process). If Redis cannot be
    reached, this process's own buckets limit for the next :data:`AWAY` seconds (logged),
    rather than none, and no request waits on Redis meanwhile.
    :meth:`hit` is the in-process limiter; call :meth:`take` to share."""

    def __init__(
        self,
        client: object,
        limits: Mapping[str, Limit] = DEFAULT_LIMITS,
        *,
        local: Iterable[str] = ("message",),
        prefix: str = "cardlab:rate:",
        **options: Any,
    ) -> None:
        super().__init__(limits, **options)
        self.client = client
        self.local = frozenset(local)
        self.prefix = prefix
        self._script: Any = client.register_script(_TAKE)  # type: ignore[attr-defined]
        self._warned = 0.0
        self._away_until = 0.0

    def __repr__(self) -> str:
        return f"SharedRateLimiter({dict(self.limits)!r}, local={sorted(self.local)!r})"

    async def take(self, key: str, bucket: str) -> float | None:
        limit = self.limits.get(bucket)
        if limit is None:
            raise GuardError(f"unknown rate-limit bucket {bucket!r}: have {sorted(self.limits)}")
        if bucket in self.local or time.monotonic() < self._away_until:
            return self.hit(key, bucket)
        per = limit.per * 1000
        try:
            answer = await self._script(
                keys=[f"{self.prefix}{bucket}:{key[:MAX_KEY_LENGTH]}"],
                args=[repr(per), repr(per / limit.count)],
            )
        except Exception as exc:  # Redis away: this process's buckets for a while
            now = time.monotonic()
            self._away_until = now + AWAY  # not every request waits for a connect
            if now - self._warned > 60:
                self._warned = now
                log.warning("shared rate limits unavailable (%s): limiting per process", exc)
            return self.hit(key, bucket)
        text = answer.decode() if isinstance(answer, bytes) else str(answer or "")
        return float(text) / 1000 if text else None


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class Proxies:
    """The reverse proxies this server stands behind, whose ``X-Forwarded-*`` headers
    it believes: ``hops`` proxies in a row (each appending the address it was reached
    from to ``X-Forwarded-For``), and, when ``addresses`` names networks
    (``"10.0.0.0/8"``, ``"127.0.0.1"``), only proxies at those addresses."""

    hops: int = 1
    addresses: tuple[str, ...] = ()
    networks: tuple[Network, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        hops = self.hops
        if isinstance(hops, bool) or not isinstance(hops, int) or not 1 <= hops <= MAX_HOPS:
            raise GuardError(f"proxy hops must be a whole number from 1 to {MAX_HOPS}: {hops!r}")
        if isinstance(self.addresses, str):
            raise GuardError(f"proxy addresses must be a list of networks: {self.addresses!r}")
        networks = []
        for text in self.addresses:
            try:
                networks.append(ipaddress.ip_network(str(text).strip(), strict=False))
            except ValueError:
                raise GuardError(
                    f"a proxy address is an IP address or network, such as 10.0.0.0/8: "
                    f"{shown(text)}"
                ) from None
        object.__setattr__(self, "networks", tuple(networks))

    def trusts(self, address: str) -> bool:
        """Whether a proxy at ``address`` is believed."""
        if not self.networks:
            return True
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        return any(ip in network for network in self.networks)

    def client(self, peer: str, forwarded_for: Sequence[str]) -> str:
        """The client's address: walking from the peer back through ``X-Forwarded-For``
        (its addresses in order), at most ``hops`` proxies, each one trusted."""
        chain = [*forwarded_for, peer]
        client = peer
        for hop in range(1, self.hops + 1):
            if len(chain) <= hop or not self.trusts(chain[-hop]):
                break
            client = chain[-hop - 1]  # the address proxy ``hop`` was reached from
        return client


def _proxies(trust_forwarded: bool | Proxies) -> Proxies | None:
    """``trust_forwarded`` as the proxies believed (True: one, at any address)."""
    if isinstance(trust_forwarded, Proxies):
        return trust_forwarded
    if trust_forwarded is True:
        return Proxies()
    if trust_forwarded is False:
        return None
    raise GuardError(f"trust_forwarded is true, false or a Proxies: {shown(trust_forwarded)}")


def client_key(
    connection: Scope | HTTPConnection, *, trust_forwarded: bool | Proxies = False
) -> str:
    """The key a client is rate-limited by: its address (an IPv6 one as its /64 network).

    Behind a :class:`Guard` this is the key the guard used (it records it in the
    scope), so routes need not repeat ``trust_forwarded``. ``connection`` is an ASGI
    scope, a ``Request`` or a ``WebSocket``.
    """
    scope = connection.scope if isinstance(connection, HTTPConnection) else connection
    recorded = scope.get(_SCOPE_KEY)
    if isinstance(recorded, str):
        return recorded
    client = scope.get("client")
    address = str(client[0]) if client else ""
    proxies = _proxies(trust_forwarded)
    if proxies is not None:
        address = proxies.client(address, _items(_header_values(scope, b"x-forwarded-for")))
    return _address_key(address) if address else "unknown"


def browser_key(connection: Scope | HTTPConnection) -> str | None:
    """The key of the browser making a request: a digest of its ``cardlab_id`` cookie
    (None without one). Any cookie value gets its own key; a client making them up is
    still held by its address's buckets."""
    scope = connection.scope if isinstance(connection, HTTPConnection) else connection
    for value in _header_values(scope, b"cookie"):
        for item in value.split(";"):
            name, sep, secret = item.strip().partition("=")
            if sep and name == BROWSER_COOKIE and secret:
                digest = hashlib.sha256(secret.strip().encode("latin-1")).hexdigest()
                return f"browser:{digest[:32]}"
    return None


async def take(
    limiter: RateLimiter, connection: Scope | HTTPConnection, bucket: str
) -> float | None:
    """Take a token of ``bucket`` for the client making this request: from its
    browser's bucket and then its address's ``"<bucket>/address"`` (when the limiter
    has that bucket and the request carries the browser cookie), else from its
    address's ``bucket``. None if taken, else the seconds to wait."""
    address = client_key(connection)
    browser = browser_key(connection)
    shared = bucket + ADDRESS
    if browser is None or shared not in limiter.limits:
        return await limiter.take(address, bucket)
    wait = await limiter.take(browser, bucket)
    if wait is not None:
        return wait  # refused before it spends the address's budget
    return await limiter.take(address, shared)


def too_many(retry_after: float) -> JSONResponse:
    """The 429 answer to a client over its limit, who may try again in ``retry_after``
    seconds (rounded up to a whole second, at least 1)."""
    seconds = max(1, math.ceil(retry_after))
    return JSONResponse(
        {"error": f"too many requests: try again in {seconds} s", "retry_after": seconds},
        status_code=429,
        headers={"Retry-After": str(seconds)},
    )


class Guard:
    """A pure ASGI middleware refusing cross-site writes and WebSockets, non-JSON write
    bodies, and clients over their ``"request"`` limit (see the module docstring).

    ``allowed_origins``: other origins trusted like this server's own, such as
    ``"https://cards.example"`` (scheme, host and port only). ``limiter``: limits HTTP
    requests under ``/api/`` (it must have a ``"request"`` bucket). ``trust_forwarded``:
    read the client and this server's origin from ``X-Forwarded-*`` headers set by
    these :class:`Proxies` (True: one proxy, at any address).
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        allowed_origins: Sequence[str] = (),
        limiter: RateLimiter | None = None,
        trust_forwarded: bool | Proxies = False,
    ) -> None:
        if isinstance(allowed_origins, str):
            raise GuardError(f"allowed_origins must be a list of origins: {allowed_origins!r}")
        if limiter is not None and "request" not in limiter.limits:
            raise GuardError(f"the guard's limiter needs a 'request' bucket: {limiter!r}")
        self.app = app
        self.allowed_origins = frozenset(allowed_origin(text) for text in allowed_origins)
        self.limiter = limiter
        self.proxies = _proxies(trust_forwarded)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        scope[_SCOPE_KEY] = client_key(scope, trust_forwarded=self.proxies or False)
        if kind == "websocket":
            refusal = self._cross_site(scope)
            if refusal is None and self.limiter is not None:
                # a handshake is a request too: a client over its budget opens no socket
                wait = await take(self.limiter, scope, "request")
                if wait is not None:
                    refusal = f"too many requests: try again in {math.ceil(wait)} s"
            if refusal is None:
                await self.app(scope, receive, send)
            elif (await receive())["type"] == "websocket.connect":
                reason = refusal.encode()[:123].decode("utf-8", "ignore")  # a close frame's cap
                await send({"type": "websocket.close", "code": WS_REFUSED, "reason": reason})
            return
        if self.limiter is not None and scope.get("path", "").startswith("/api/"):
            wait = await take(self.limiter, scope, "request")
            if wait is not None:
                await too_many(wait)(scope, receive, send)
                return
        if str(scope.get("method", "")).upper() not in STATE_CHANGING:
            await self.app(scope, receive, send)
            return
        refusal = self._cross_site(scope)
        if refusal is not None:
            await JSONResponse({"error": refusal}, status_code=403)(scope, receive, send)
            return
        receive, refusal = await _not_json(scope, receive)
        if refusal is not None:
            await JSONResponse({"error": refusal}, status_code=415)(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _cross_site(self, scope: Scope) -> str | None:
        """Why this request is refused as cross-site, or None if it is not."""
        origins = _header_values(scope, b"origin")
        if not origins:
            site = _first(_header_values(scope, b"sec-fetch-site")).lower()
            if site in ("cross-site", "same-site"):
                return f"cross-site request refused: Sec-Fetch-Site is {shown(site)}"
            return None
        own = self._own_origin(scope)
        for text in origins:
            origin = _normal_origin(text)
            if origin is None or (origin != own and origin not in self.allowed_origins):
                return f"cross-site request refused: origin {shown(text)} is not this server's"
        return None

    def _own_origin(self, scope: Scope) -> str | None:
        """This server's origin as the client addressed it: scheme and Host."""
        scheme = _WS_SCHEMES.get(str(scope.get("scheme", "http")).lower(), "http")
        host = _first(_header_values(scope, b"host"))
        client = scope.get("client")
        if self.proxies is not None and self.proxies.trusts(str(client[0]) if client else ""):
            scheme = _WS_SCHEMES.get(
                _first(_header_values(scope, b"x-forwarded-proto")).lower(), scheme
            )
            host = _first(_header_values(scope, b"x-forwarded-host")) or host
        if not host:
            server = scope.get("server")
            if not server or server[1] is None:
                return None
            host = f"{server[0]}:{server[1]}"
        return _normal_origin(f"{scheme}://{host}")


def allowed_origin(text: str) -> str:
    """An ``allowed_origins`` entry, normalised like a request's Origin (one trailing
    slash forgiven); anything but an http(s) scheme, host and port is an error."""
    origin = _normal_origin(text.removesuffix("/")) if isinstance(text, str) else None
    if origin is None:
        raise GuardError(
            f"an allowed origin must be scheme://host[:port], such as "
            f"'https://cards.example': {shown(text)}"
        )
    return origin


def _normal_origin(text: str) -> str | None:
    """``"HTTPS://Example.com:443"`` as ``"https://example.com"``; None for anything
    that is not an http(s) scheme, host and optional port (``"null"``, a path)."""
    if len(text) > _LONGEST_ORIGIN:
        return None
    scheme, sep, host = text.strip().lower().partition("://")
    if not sep or scheme not in _DEFAULT_PORTS or not host or not _NOT_IN_ORIGIN.isdisjoint(host):
        return None
    return f"{scheme}://{host.removesuffix(_DEFAULT_PORTS[scheme])}"


async def _not_json(scope: Scope, receive: Receive) -> tuple[Receive, str | None]:
    """Why a write's body is refused as not JSON, or None; and the ``receive`` to use
    from now on (without a Content-Type, the body is read until it shows a byte)."""
    expected = f"a {scope['method']} request must be sent as application/json"
    types = _header_values(scope, b"content-type")
    if types:
        bad = [text for text in types if _media_type(text) != "application/json"]
        return receive, (f"{expected}, got {shown(bad[0])}" if bad else None)
    read = await _read_until_data(receive)
    why = f"{expected}, got a body without a Content-Type" if read[-1].get("body") else None
    return _replay(read, receive), why


def _media_type(content_type: str) -> str:
    """``"Application/JSON; charset=utf-8"`` as ``"application/json"``."""
    return content_type.partition(";")[0].strip().lower()


def _header_values(scope: Scope, name: bytes) -> list[str]:
    """Every value of header ``name`` (lower case), as Latin-1 text like Starlette's."""
    return [value.decode("latin-1") for key, value in scope.get("headers", ()) if key == name]


def _items(values: Iterable[str]) -> list[str]:
    """The comma-separated items of every value, in order, blanks left out."""
    return [item.strip() for value in values for item in value.split(",") if item.strip()]


def _first(values: Iterable[str]) -> str:
    """The first comma-separated item of the first value ("" if none)."""
    for value in values:
        return value.partition(",")[0].strip()
    return ""


def _address_key(address: str) -> str:
    """An address as a rate-limit key: IPv6 as its /64 network, anything else cut short."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:MAX_KEY_LENGTH]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


async def _read_until_data(receive: Receive) -> list[Message]:
    """The request's messages up to the first with body bytes, or to its end."""
    read: list[Message] = []
    while True:
        message = await receive()
        read.append(message)
        if message["type"] != "http.request" or message.get("body"):
            return read
        if not message.get("more_body", False):
            return read


def _replay(read: list[Message], receive: Receive) -> Receive:
    """A ``receive`` giving the messages already read, then the rest."""
    pending = list(read)

    async def replayed() -> Message:
        return pending.pop(0) if pending else await receive()

    return replayed
