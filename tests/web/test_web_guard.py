"""The guard at the web's edge, against a tiny app of its own: every attack it refuses is
tried and the handler is shown not to have run; what it lets through is tried too."""

import asyncio
import warnings
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardlab.web.guard import (
    DEFAULT_LIMITS,
    Guard,
    GuardError,
    Limit,
    Proxies,
    RateLimiter,
    browser_key,
    client_key,
    too_many,
)

with warnings.catch_warnings():  # starlette >= 1 would rather have httpx2
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

OWN = "http://testserver"  # the TestClient's own origin
EVIL = "https://evil.example"
JSON = {"content-type": "application/json"}
WRITES = ["POST", "PUT", "PATCH", "DELETE"]


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_app(calls: Counter[str], **guard: Any) -> Guard:
    """A POST (and PUT, PATCH, DELETE) route, GET routes, a WebSocket, behind a Guard."""

    async def write(request: Request) -> Response:
        calls["write"] += 1
        return JSONResponse({"body": (await request.body()).decode("latin-1")})

    async def read(request: Request) -> Response:
        calls["read"] += 1
        return JSONResponse({"key": client_key(request)})

    async def page(request: Request) -> Response:
        calls["page"] += 1
        return PlainTextResponse("a page")

    async def ws(websocket: WebSocket) -> None:
        calls["ws"] += 1
        await websocket.accept()
        await websocket.send_text("hello")
        await websocket.close()

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        calls["lifespan"] += 1
        yield

    routes = [
        Route("/api/write", write, methods=WRITES),
        Route("/api/read", read),
        Route("/page", page),
        Route("/form", write, methods=["POST"]),
        WebSocketRoute("/api/ws", ws),
    ]
    return Guard(Starlette(routes=routes, lifespan=lifespan), **guard)


@pytest.fixture
def calls() -> Counter[str]:
    return Counter()


@pytest.fixture
def client(calls: Counter[str]) -> Iterator[TestClient]:
    with TestClient(make_app(calls)) as c:
        yield c


# ---- cross-site requests -------------------------------------------------------------------


@pytest.mark.parametrize("method", WRITES)
def test_foreign_origin_write_is_refused(
    client: TestClient, calls: Counter[str], method: str
) -> None:
    r = client.request(method, "/api/write", json={"a": 1}, headers={"origin": EVIL})
    assert r.status_code == 403
    assert r.json() == {
        "error": "cross-site request refused: origin 'https://evil.example' is not this server's"
    }
    assert calls["write"] == 0


@pytest.mark.parametrize(
    "origin",
    [
        "null",
        "https://testserver",  # another scheme
        "http://testserver:8080",  # another port
        "http://testserver.evil.example",
        "http://evil.example/http://testserver",
        "http://user@testserver",
        "file://",
        "",
        "testserver",
    ],
)
def test_other_origins_are_refused(client: TestClient, calls: Counter[str], origin: str) -> None:
    r = client.post("/api/write", json={}, headers={"origin": origin})
    assert r.status_code == 403, r.text
    assert r.json()["error"].startswith("cross-site request refused: origin ")
    assert calls["write"] == 0


def test_a_form_post_to_a_page_is_refused_too(client: TestClient, calls: Counter[str]) -> None:
    r = client.post("/form", data={"a": "1"}, headers={"origin": EVIL})
    assert r.status_code == 403
    assert calls["write"] == 0


@pytest.mark.parametrize("origin", [OWN, "HTTP://TestServer", "http://testserver:80"])
def test_same_origin_write_is_allowed(client: TestClient, calls: Counter[str], origin: str) -> None:
    r = client.post("/api/write", json={"a": 1}, headers={"origin": origin})
    assert r.status_code == 200, r.text
    assert r.json() == {"body": '{"a":1}'}
    assert calls["write"] == 1


def test_same_origin_counts_the_host_port() -> None:
    calls: Counter[str] = Counter()
    with TestClient(make_app(calls), base_url="https://cards.example:8443") as c:
        assert c.post(
            "/api/write", json={}, headers={"origin": "https://cards.example:8443"}
        ).is_success
        r = c.post("/api/write", json={}, headers={"origin": "https://cards.example"})
        assert r.status_code == 403
    assert calls["write"] == 1


def test_allowed_origins_are_allowed(calls: Counter[str]) -> None:
    app = make_app(calls, allowed_origins=["https://Cards.example:443/", "http://localhost:5173"])
    with TestClient(app) as c:
        for origin in ["https://cards.example", "http://localhost:5173", OWN]:
            assert c.post("/api/write", json={}, headers={"origin": origin}).status_code == 200
        for origin in [EVIL, "http://cards.example", "http://localhost:5174"]:
            assert c.post("/api/write", json={}, headers={"origin": origin}).status_code == 403
    assert calls["write"] == 3


@pytest.mark.parametrize("site", ["cross-site", "same-site", "Cross-Site"])
def test_cross_site_fetch_metadata_without_origin_is_refused(
    client: TestClient, calls: Counter[str], site: str
) -> None:
    r = client.post("/api/write", json={}, headers={"sec-fetch-site": site})
    assert r.status_code == 403
    assert "Sec-Fetch-Site" in r.json()["error"]
    assert calls["write"] == 0


@pytest.mark.parametrize("site", ["same-origin", "none"])
def test_same_origin_fetch_metadata_is_allowed(
    client: TestClient, calls: Counter[str], site: str
) -> None:
    assert client.post("/api/write", json={}, headers={"sec-fetch-site": site}).status_code == 200
    assert calls["write"] == 1


def test_a_client_without_browser_headers_is_allowed(
    client: TestClient, calls: Counter[str]
) -> None:
    assert client.post("/api/write", json={"a": 1}).status_code == 200  # curl, a script
    assert calls["write"] == 1


def test_reads_are_not_checked(client: TestClient, calls: Counter[str]) -> None:
    headers = {"origin": EVIL, "sec-fetch-site": "cross-site", "content-type": "text/plain"}
    assert client.get("/api/read", headers=headers).status_code == 200
    assert client.get("/page", headers=headers).text == "a page"
    assert calls["read"] == calls["page"] == 1


def test_lifespan_passes_through(client: TestClient, calls: Counter[str]) -> None:
    assert calls["lifespan"] == 1


# ---- request bodies -------------------------------------------------------------------------


@pytest.mark.parametrize("method", WRITES)
def test_text_plain_write_is_refused(client: TestClient, calls: Counter[str], method: str) -> None:
    r = client.request(
        method, "/api/write", content=b'{"a": 1}', headers={"content-type": "text/plain"}
    )
    assert r.status_code == 415
    assert r.json() == {
        "error": f"a {method} request must be sent as application/json, got 'text/plain'"
    }
    assert calls["write"] == 0


@pytest.mark.parametrize(
    "kind",
    [
        "text/plain;charset=UTF-8",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonp",
        "application/json-patch+json",
        "application/jsonx; charset=utf-8",
        "",
    ],
)
def test_other_body_types_are_refused(client: TestClient, calls: Counter[str], kind: str) -> None:
    r = client.post("/api/write", content=b"{}", headers={"content-type": kind})
    assert r.status_code == 415, r.text
    assert calls["write"] == 0


def test_a_form_post_is_refused(client: TestClient, calls: Counter[str]) -> None:
    r = client.post("/api/write", data={"a": "1"})
    assert r.status_code == 415
    assert "application/x-www-form-urlencoded" in r.json()["error"]
    assert calls["write"] == 0


@pytest.mark.parametrize(
    "kind", ["application/json; charset=utf-8", "Application/JSON", " application/json ;x=1"]
)
def test_json_with_parameters_is_allowed(
    client: TestClient, calls: Counter[str], kind: str
) -> None:
    r = client.post("/api/write", content=b'{"a": 1}', headers={"content-type": kind})
    assert r.status_code == 200
    assert r.json() == {"body": '{"a": 1}'}
    assert calls["write"] == 1


def test_an_empty_write_needs_no_content_type(client: TestClient, calls: Counter[str]) -> None:
    assert client.post("/api/write").json() == {"body": ""}
    assert client.post("/api/write", headers={"content-length": "0"}).json() == {"body": ""}
    assert client.delete("/api/write").json() == {"body": ""}
    assert calls["write"] == 3


def test_a_body_without_content_type_is_refused(client: TestClient, calls: Counter[str]) -> None:
    def chunks() -> Iterator[bytes]:  # no Content-Length: the body must be read to be seen
        yield b""
        yield b"{}"

    for content in [b"{}", chunks()]:
        r = client.post("/api/write", content=content)
        assert r.status_code == 415
        assert r.json()["error"].endswith("got a body without a Content-Type")
    assert calls["write"] == 0


# ---- WebSockets -----------------------------------------------------------------------------


@pytest.mark.parametrize("origin", [EVIL, "null", "https://testserver"])
def test_foreign_websocket_is_refused(client: TestClient, calls: Counter[str], origin: str) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/api/ws", headers={"origin": origin}),
    ):
        pass
    assert refused.value.code == 4403
    assert "cross-site request refused" in refused.value.reason
    assert calls["ws"] == 0


def test_cross_site_websocket_without_origin_is_refused(
    client: TestClient, calls: Counter[str]
) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/api/ws", headers={"sec-fetch-site": "cross-site"}),
    ):
        pass
    assert refused.value.code == 4403
    assert calls["ws"] == 0


@pytest.mark.parametrize("headers", [{"origin": OWN}, {"origin": "HTTP://testserver:80"}, {}])
def test_same_origin_websocket_is_accepted(
    client: TestClient, calls: Counter[str], headers: dict[str, str]
) -> None:
    with client.websocket_connect("/api/ws", headers=headers) as ws:
        assert ws.receive_text() == "hello"
    assert calls["ws"] == 1


def test_secure_websocket_is_compared_as_https(calls: Counter[str]) -> None:
    app = make_app(calls, allowed_origins=["https://cards.example"])
    with TestClient(app) as c:
        for origin in ["https://testserver", "https://cards.example"]:
            with c.websocket_connect("wss://testserver/api/ws", headers={"origin": origin}) as ws:
                assert ws.receive_text() == "hello"
        with (
            pytest.raises(WebSocketDisconnect),
            c.websocket_connect("wss://testserver/api/ws", headers={"origin": OWN}),
        ):
            pass
    assert calls["ws"] == 2


# ---- the rate limiter -----------------------------------------------------------------------


def test_a_bucket_empties_and_refills() -> None:
    clock = FakeClock()
    limiter = RateLimiter({"create": Limit(3, 1.5)}, clock=clock)
    assert [limiter.hit("a", "create") for _ in range(3)] == [None, None, None]
    wait = limiter.hit("a", "create")
    assert wait == pytest.approx(0.5)  # one token comes back every 1.5 / 3 seconds
    assert limiter.hit("a", "create") == pytest.approx(0.5)  # a refusal takes nothing
    clock.now += 0.25
    assert limiter.hit("a", "create") == pytest.approx(0.25)
    clock.now += 0.25
    assert limiter.hit("a", "create") is None
    assert limiter.hit("a", "create") == pytest.approx(0.5)
    clock.now += 10  # long idle: full again, no more than full
    assert [limiter.hit("a", "create") for _ in range(4)][-2:] == [None, pytest.approx(0.5)]


def test_waiting_the_retry_after_is_always_enough() -> None:
    clock = FakeClock()
    limiter = RateLimiter({"message": Limit(20, 1.0)}, clock=clock)
    allowed = 0
    for _ in range(1000):
        wait = limiter.hit("a", "message")
        if wait is None:
            allowed += 1
        else:
            clock.now += wait
            assert limiter.hit("a", "message") is None
            allowed += 1
    assert allowed == 1000
    assert clock.now - 1000.0 == pytest.approx((1000 - 20) / 20)


def test_keys_and_buckets_are_independent() -> None:
    clock = FakeClock()
    limiter = RateLimiter({"join": Limit(1, 60.0), "create": Limit(1, 60.0)}, clock=clock)
    assert limiter.hit("a", "join") is None
    assert limiter.hit("a", "join") == pytest.approx(60.0)
    assert limiter.hit("b", "join") is None
    assert limiter.hit("a", "create") is None
    assert len(limiter) == 2


def test_the_oldest_key_is_forgotten_first() -> None:
    clock = FakeClock()
    limiter = RateLimiter({"join": Limit(1, 60.0)}, clock=clock, max_keys=3)
    for key in "abc":
        assert limiter.hit(key, "join") is None
    assert limiter.hit("a", "join") is not None  # "a" is now the most recent, "b" the oldest
    assert limiter.hit("d", "join") is None
    assert len(limiter) == 3
    assert limiter.hit("c", "join") is not None  # kept
    assert limiter.hit("a", "join") is not None  # kept
    assert limiter.hit("b", "join") is None  # forgotten, so it starts afresh


def test_a_flood_of_keys_stays_bounded() -> None:
    clock = FakeClock()
    limiter = RateLimiter(DEFAULT_LIMITS, clock=clock, max_keys=100)
    for i in range(10_000):
        limiter.hit(f"10.0.{i // 256}.{i % 256}", "request")
        assert len(limiter) <= 100
    assert len(limiter) == 100


def test_full_buckets_are_swept() -> None:
    clock = FakeClock()
    limiter = RateLimiter({"message": Limit(20, 1.0), "join": Limit(30, 60.0)}, clock=clock)
    for i in range(500):
        limiter.hit(str(i), "message")
    limiter.hit("long", "join")
    assert len(limiter) == 501
    clock.now += 60.0  # the longest period: every bucket is full again
    limiter.hit("new", "message")
    assert len(limiter) == 1


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(1, 5),
    per=st.sampled_from([0.5, 1.0, 3.0, 60.0]),
    gaps=st.lists(st.floats(0, 2, allow_nan=False), min_size=1, max_size=60),
)
def test_no_window_allows_more_than_a_burst_and_its_refill(
    count: int, per: float, gaps: list[float]
) -> None:
    """Token-bucket law: in any span of s seconds at most count + s * count / per pass."""
    clock = FakeClock()
    limiter = RateLimiter({"b": Limit(count, per)}, clock=clock)
    passed = []
    for gap in gaps:
        clock.now += gap
        if limiter.hit("k", "b") is None:
            passed.append(clock.now)
    assert passed, "a fresh bucket lets the first hit through"
    for i, start in enumerate(passed):
        for j in range(i, len(passed)):
            assert j - i + 1 <= count + (passed[j] - start) * count / per + 1e-6


def test_limits_and_limiters_refuse_bad_values() -> None:
    for count, per in [(0, 1.0), (-1, 1.0), (1.5, 1.0), (True, 1.0), (1, 0), (1, -1.0)]:
        with pytest.raises(GuardError):
            Limit(count, per)  # type: ignore[arg-type]
    with pytest.raises(GuardError, match="nan"):
        Limit(1, float("nan"))
    with pytest.raises(GuardError, match="'send'"):
        RateLimiter({"join": Limit(1, 1.0)}).hit("a", "send")
    with pytest.raises(GuardError):
        RateLimiter({})
    with pytest.raises(GuardError):
        RateLimiter({"join": Limit(1, 1.0)}, max_keys=0)


def test_limit_repr_round_trips() -> None:
    limit = Limit(10, 60.0)
    assert repr(limit) == "Limit(count=10, per=60.0)"
    assert eval(repr(limit)) == limit


# ---- the limiter in the guard ---------------------------------------------------------------


def limited(calls: Counter[str], clock: FakeClock, **guard: Any) -> Guard:
    limiter = RateLimiter({"request": Limit(2, 10.0)}, clock=clock)
    return make_app(calls, limiter=limiter, **guard)


def test_over_the_limit_is_429_with_retry_after(calls: Counter[str]) -> None:
    clock = FakeClock()
    with TestClient(limited(calls, clock)) as c:
        assert c.get("/api/read").status_code == 200
        assert c.post("/api/write", json={}).status_code == 200
        r = c.get("/api/read")
        assert r.status_code == 429
        assert r.headers["retry-after"] == "5"
        assert r.json() == {"error": "too many requests: try again in 5 s", "retry_after": 5}
        assert c.post("/api/write", json={}).status_code == 429
        assert c.get("/page").status_code == 200  # only the API is limited
        clock.now += 5.0
        assert c.get("/api/read").status_code == 200
    assert calls["read"] == 2
    assert calls["write"] == 1


def test_other_clients_are_not_limited(calls: Counter[str]) -> None:
    clock = FakeClock()
    app = limited(calls, clock)
    with TestClient(app, client=("10.0.0.1", 1)) as a, TestClient(app, client=("10.0.0.2", 1)) as b:
        for _ in range(2):
            assert a.get("/api/read").status_code == 200
        assert a.get("/api/read").status_code == 429
        assert b.get("/api/read").json() == {"key": "10.0.0.2"}


def test_forwarded_for_is_honoured_only_when_trusted(calls: Counter[str]) -> None:
    clock = FakeClock()
    with TestClient(limited(calls, clock)) as c:  # not trusted: one peer, one bucket
        for i in range(2):
            r = c.get("/api/read", headers={"x-forwarded-for": f"10.0.0.{i}"})
            assert r.json() == {"key": "testclient"}
        assert c.get("/api/read", headers={"x-forwarded-for": "10.0.0.9"}).status_code == 429
    with TestClient(limited(calls, clock, trust_forwarded=Proxies(hops=2))) as c:
        for i in range(5):  # two proxies: the client is the second address from the right
            r = c.get("/api/read", headers={"x-forwarded-for": f"10.0.0.{i}, 192.168.0.1"})
            assert r.json() == {"key": f"10.0.0.{i}"}
        headers = {"x-forwarded-for": "10.0.0.0, 192.168.0.1"}
        assert c.get("/api/read", headers=headers).status_code == 200  # its second
        assert c.get("/api/read", headers=headers).status_code == 429


def test_a_header_the_client_wrote_is_not_believed_through_a_proxy(calls: Counter[str]) -> None:
    """One proxy appending to X-Forwarded-For: whatever the client wrote before its own
    address (one made-up address, or several: more hops than configured) is ignored, so
    rotating it gets no new budget."""
    clock = FakeClock()
    with TestClient(limited(calls, clock, trust_forwarded=True)) as c:
        made_up = ("10.0.0.1", "10.0.0.2, 10.0.0.3", "1.1.1.1, 2.2.2.2, 3.3.3.3")
        answers = [
            c.get("/api/read", headers={"x-forwarded-for": f"{text}, 198.51.100.7"})
            for text in made_up
        ]
        assert [r.status_code for r in answers] == [200, 200, 429]
        assert [r.json() for r in answers[:2]] == [{"key": "198.51.100.7"}] * 2
        assert c.get("/api/read").json() == {"key": "testclient"}  # the peer: its own bucket
        spoofed = {"x-forwarded-for": "10.9.9.9, 198.51.100.7"}
        assert c.get("/api/read", headers=spoofed).status_code == 429


def test_forwarding_headers_only_from_the_proxy_addresses(calls: Counter[str]) -> None:
    clock = FakeClock()
    behind = Proxies(1, ("10.0.0.0/8",))
    app = limited(calls, clock, trust_forwarded=behind)
    headers = {"x-forwarded-for": "203.0.113.5"}
    with TestClient(app, client=("10.1.2.3", 1)) as c:  # the proxy
        assert c.get("/api/read", headers=headers).json() == {"key": "203.0.113.5"}
    with TestClient(app, client=("198.51.100.9", 1)) as c:  # not a proxy: its own address
        for _ in range(2):
            assert c.get("/api/read", headers=headers).json() == {"key": "198.51.100.9"}
        assert c.get("/api/read", headers={"x-forwarded-for": "203.0.113.6"}).status_code == 429
    # two hops allowed, but the inner one is no proxy of ours: the walk stops there
    two = Proxies(2, ("10.0.0.0/8",))
    scope = {
        "type": "http",
        "client": ("10.0.0.1", 5),
        "headers": [(b"x-forwarded-for", b"1.2.3.4, 198.51.100.1")],
    }
    assert client_key(scope, trust_forwarded=two) == "198.51.100.1"
    inner = dict(scope, headers=[(b"x-forwarded-for", b"1.2.3.4, 10.2.2.2")])
    assert client_key(inner, trust_forwarded=two) == "1.2.3.4"
    assert client_key(inner, trust_forwarded=Proxies(1, ("10.0.0.0/8",))) == "10.2.2.2"


@pytest.mark.parametrize(
    ("hops", "addresses", "why"),
    [
        (0, (), "proxy hops"),
        (11, (), "proxy hops"),
        (True, (), "proxy hops"),
        (1, ("not an address",), "proxy address"),
        (1, "10.0.0.0/8", "list of networks"),
    ],
)
def test_proxies_refuse_bad_settings(hops: Any, addresses: Any, why: str) -> None:
    with pytest.raises(GuardError, match=why):
        Proxies(hops, addresses)


def test_one_flooding_browser_leaves_the_others_at_its_address_their_budget(
    calls: Counter[str],
) -> None:
    """Three browsers behind one NAT: the flooder is refused on its own bucket (spending
    nothing of the address's), the host's controls in another browser still work; the
    address's budget still bounds them all, and a request without the cookie is held by
    the address's own bucket."""
    clock = FakeClock()
    limiter = RateLimiter(
        {"request": Limit(3, 10.0), "request/address": Limit(7, 10.0)}, clock=clock
    )
    app = make_app(calls, limiter=limiter)
    with TestClient(app) as c:
        flood = {"cookie": "cardlab_id=flooder"}
        codes = [c.get("/api/read", headers=flood).status_code for _ in range(20)]
        assert codes == [200] * 3 + [429] * 17
        host = {"cookie": "other=1; cardlab_id=host-browser"}
        assert [c.post("/api/write", json={}, headers=host).status_code for _ in range(3)] == [
            200
        ] * 3
        assert c.get("/api/read", headers={"cookie": "cardlab_id=third"}).status_code == 200
        # the address's budget is spent (3 + 3 + 1 = 7): a fourth browser waits
        assert c.get("/api/read", headers={"cookie": "cardlab_id=fourth"}).status_code == 429
        clock.now += 10
        assert [c.get("/api/read").status_code for _ in range(4)] == [200] * 3 + [429]


def test_browser_key() -> None:
    def scope(*cookies: bytes) -> Scope:
        return {"type": "http", "headers": [(b"cookie", c) for c in cookies]}

    assert browser_key(scope()) is None
    assert browser_key(scope(b"cardlab_id=")) is None
    assert browser_key(scope(b"other=x")) is None
    one = browser_key(scope(b"a=1; cardlab_id=secret"))
    assert one is not None and one.startswith("browser:") and "secret" not in one
    assert one == browser_key(scope(b"b=2", b"cardlab_id=secret"))
    assert one != browser_key(scope(b"cardlab_id=secreT"))
    assert len(browser_key(scope(b"cardlab_id=" + b"x" * 10_000)) or "") <= 64


def test_forwarded_proto_and_host_name_the_own_origin_only_when_trusted(
    calls: Counter[str],
) -> None:
    headers = {
        "host": "127.0.0.1:8000",
        "x-forwarded-proto": "https",
        "x-forwarded-host": "cards.example",
        "origin": "https://cards.example",
    }
    with TestClient(make_app(calls)) as c:
        assert c.post("/api/write", json={}, headers=headers).status_code == 403
    with TestClient(make_app(calls, trust_forwarded=True)) as c:
        assert c.post("/api/write", json={}, headers=headers).status_code == 200
    assert calls["write"] == 1


def test_client_key() -> None:
    def scope(client: tuple[str, int] | None, *headers: tuple[bytes, bytes]) -> Scope:
        return {"type": "http", "client": client, "headers": list(headers)}

    assert client_key(scope(("10.1.2.3", 5))) == "10.1.2.3"
    assert client_key(scope(("2001:db8::1", 5))) == "2001:db8::/64"
    assert client_key(scope(("2001:db8::ffff:1", 5))) == "2001:db8::/64"  # one /64, one key
    assert client_key(scope(("::ffff:10.1.2.3", 5))) == "10.1.2.3"
    assert client_key(scope(None)) == "unknown"
    forwarded = scope(("10.0.0.1", 5), (b"x-forwarded-for", b" 203.0.113.7 , 10.0.0.1"))
    assert client_key(forwarded) == "10.0.0.1"
    assert client_key(forwarded, trust_forwarded=True) == "10.0.0.1"  # the proxy's report
    assert client_key(forwarded, trust_forwarded=Proxies(2)) == "203.0.113.7"
    assert client_key(Request(forwarded), trust_forwarded=Proxies(2)) == "203.0.113.7"
    assert client_key(forwarded, trust_forwarded=Proxies(3)) == "203.0.113.7"  # fewer there
    huge = scope(("10.0.0.1", 5), (b"x-forwarded-for", b"x" * 10_000))
    assert len(client_key(huge, trust_forwarded=True)) <= 64
    empty = scope(("10.0.0.1", 5), (b"x-forwarded-for", b""))
    assert client_key(empty, trust_forwarded=True) == "10.0.0.1"


@pytest.mark.parametrize(("wait", "seconds"), [(0.0001, 1), (1.0, 1), (2.1, 3), (59.5, 60)])
def test_too_many_rounds_up(wait: float, seconds: int) -> None:
    r = too_many(wait)
    assert r.status_code == 429
    assert r.headers["retry-after"] == str(seconds)


def test_guard_refuses_bad_settings() -> None:
    app = make_app(Counter())
    with pytest.raises(GuardError, match="list of origins"):
        Guard(app, allowed_origins="https://cards.example")
    for origin in ["https://cards.example/path", "*", "null", "ftp://x", "https://"]:
        with pytest.raises(GuardError, match="scheme://host"):
            Guard(app, allowed_origins=[origin])
    with pytest.raises(GuardError, match="'request' bucket"):
        Guard(app, limiter=RateLimiter({"join": Limit(1, 1.0)}))


# ---- any headers: never a server error --------------------------------------------------------


async def inner(scope: Scope, receive: Receive, send: Send) -> None:
    """The app behind the guard: reads the whole body, answers 200; accepts WebSockets."""
    if scope["type"] == "websocket":
        assert (await receive())["type"] == "websocket.connect"
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": 1000})
        return
    while (message := await receive())["type"] == "http.request":
        if not message.get("more_body"):
            break
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def drive(guard: Guard, scope: Scope, incoming: list[Message]) -> list[Message]:
    sent: list[Message] = []

    async def receive() -> Message:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        sent.append(message)

    asyncio.run(guard(scope, receive, send))
    return sent


INTERESTING = [
    b"",
    b"null",
    b"http://testserver",
    b"https://evil.example",
    b"http://",
    b"http://:80",
    b"https://[::1]:443",
    b"application/json",
    b"application/json;",
    b";",
    b"cross-site",
    b"testserver",
    b"\xff\xfe\x00",
    b"a" * 2000,
]
header_values = st.none() | st.sampled_from(INTERESTING) | st.binary(max_size=60)
GUARDS = [
    Guard(inner),
    Guard(
        inner,
        allowed_origins=["https://cards.example"],
        limiter=RateLimiter(DEFAULT_LIMITS, clock=FakeClock()),
        trust_forwarded=True,
    ),
]


@settings(max_examples=300, deadline=None)
@given(
    guard=st.sampled_from(GUARDS),
    kind=st.sampled_from(["http", "websocket"]),
    method=st.sampled_from([*WRITES, "GET", "OPTIONS", "post"]),
    scheme=st.sampled_from(["http", "https", "ws", "wss", "ftp"]),
    path=st.sampled_from(["/api/x", "/page", "/api/", ""]),
    client=st.none() | st.tuples(st.sampled_from(["10.0.0.1", "::1", "x"]), st.integers(0, 9)),
    origin=header_values,
    content_type=header_values,
    host=header_values,
    site=header_values,
    forwarded=header_values,
    body=st.lists(st.binary(max_size=8), max_size=3),
)
def test_any_headers_never_cause_a_server_error(
    guard: Guard,
    kind: str,
    method: str,
    scheme: str,
    path: str,
    client: tuple[str, int] | None,
    origin: bytes | None,
    content_type: bytes | None,
    host: bytes | None,
    site: bytes | None,
    forwarded: bytes | None,
    body: list[bytes],
) -> None:
    named = [
        (b"origin", origin),
        (b"content-type", content_type),
        (b"host", host),
        (b"sec-fetch-site", site),
        (b"x-forwarded-for", forwarded),
        (b"x-forwarded-host", host),
        (b"x-forwarded-proto", site),
    ]
    headers = [(name, value) for name, value in named if value is not None]
    scope: Scope = {"type": kind, "path": path, "scheme": scheme, "headers": headers}
    scope.update(client=client, server=("testserver", 80))
    if kind == "http":
        scope["method"] = method
        incoming: list[Message] = [
            {"type": "http.request", "body": chunk, "more_body": i < len(body) - 1}
            for i, chunk in enumerate(body or [b""])
        ]
        sent = drive(guard, scope, incoming)
        assert sent[0]["type"] == "http.response.start"
        assert sent[0]["status"] in (200, 403, 415, 429)
    else:
        sent = drive(guard, scope, [{"type": "websocket.connect"}])
        assert sent[0]["type"] in ("websocket.accept", "websocket.close")
        if sent[0]["type"] == "websocket.close":
            assert sent[0]["code"] == 4403
