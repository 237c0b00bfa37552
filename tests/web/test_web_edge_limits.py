"""The rate limits at the web's edge as an attacker meets them: a real ``cardlab web``
believes no ``X-Forwarded-For`` without ``--trust-proxy`` (uvicorn's own proxy headers
would, from 127.0.0.1), and through a trusted proxy only the address the proxy reported;
one flooding browser behind a NAT does not lock its friends out of the host's controls,
in one process and with the limits shared through Redis by several."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
httpx = pytest.importorskip("httpx")

from _cluster import WebProcess, free_port  # noqa: E402
from _redis import redis_server, redis_url  # noqa: E402
from cardlab.store import Store  # noqa: E402
from cardlab.web import create_app  # noqa: E402
from cardlab.web.guard import DEFAULT_LIMITS, Limit, RateLimiter, SharedRateLimiter, take  # noqa: E402

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

__all__ = ["redis_server", "redis_url"]

TWO_SEATS = {"game": "fesca78-holdem", "seats": 2, "stack": 100, "clock": 0, "pause": 0}


class _Server(WebProcess):
    """``cardlab web --memory`` with the options given (no Redis, no --trust-proxy of
    its own)."""

    def launch(self) -> None:
        import os
        import subprocess
        import sys

        from _cluster import _die_with_parent

        command = [sys.executable, "-m", "cardlab", "web", "--port", str(self.port), "--memory"]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [*command, *self.extra],
                stdout=subprocess.DEVNULL,
                stderr=log,
                env=os.environ | {"PYTHONUNBUFFERED": "1"},
                preexec_fn=_die_with_parent,
            )


@contextlib.contextmanager
def _serving(tmp_path: Path, *options: str) -> Iterator[str]:
    server = _Server("", "", tmp_path / f"web-{free_port()}.log", extra=options)
    server.start()
    try:
        yield server.base
    finally:
        server.stop()


def _creations(base: str, forwarded: list[str]) -> list[int]:
    return [
        httpx.post(f"{base}/api/tables", json=TWO_SEATS, headers={"x-forwarded-for": f}).status_code
        for f in forwarded
    ]


@pytest.mark.slow
def test_a_rotating_forwarded_for_gets_no_new_budget_from_a_real_server(tmp_path: Path) -> None:
    """14 creations from 127.0.0.1, each claiming another address: ten are the budget of
    one client, the rest are refused; behind a trusted proxy that appends, the made-up
    addresses are ignored too, and a proxy at another address is not believed."""
    rotating = [f"10.1.{k}.9" for k in range(14)]
    with _serving(tmp_path) as base:
        assert _creations(base, rotating) == [201] * 10 + [429] * 4
    with _serving(tmp_path, "--trust-proxy") as base:  # one proxy; it appended the peer
        appended = [f"{f}, 203.0.113.4" for f in rotating]
        assert _creations(base, appended) == [201] * 10 + [429] * 4
        assert _creations(base, ["203.0.113.5"]) == [201]  # another client of the proxy
    with _serving(tmp_path, "--trust-proxy", "--proxy-address", "192.0.2.1") as base:
        assert _creations(base, rotating) == [201] * 10 + [429] * 4  # 127.0.0.1: no proxy


def _browser() -> dict[str, str]:
    return {"cookie": f"cardlab_id={secrets.token_urlsafe(32)}"}


def test_a_flooding_browser_leaves_the_host_controls_of_its_friends_working() -> None:
    """Three browsers behind one address: one floods the API until it is refused; the
    host (another browser there) still pauses and resumes its table, and a friend still
    reads it."""
    limiter = RateLimiter(
        {
            "create": Limit(10, 60.0),
            "join": Limit(30, 60.0),
            "message": Limit(50, 1.0),
            "request": Limit(40, 10.0),
            "request/address": Limit(200, 10.0),
        },
        clock=lambda: 1000.0,  # no token comes back during the test
    )
    app = create_app(table_store=Store.in_memory(), limiter=limiter)
    host, flooder, friend = _browser(), _browser(), _browser()
    with TestClient(app) as client:
        answer = client.post("/api/tables", json=TWO_SEATS, headers=host)
        assert answer.status_code == 201, answer.text
        tid = answer.json()["id"]
        client.cookies.clear()
        codes = [client.get(f"/api/tables/{tid}", headers=flooder).status_code for _ in range(300)]
        assert codes == [200] * 40 + [429] * 260  # refused on its own budget
        for op in ("pause", "resume"):
            r = client.post(f"/api/tables/{tid}/host", json={"op": op}, headers=host)
            assert r.status_code == 200, r.text
        assert client.get(f"/api/tables/{tid}", headers=friend).status_code == 200


def test_the_default_limits_give_an_address_more_than_one_browser() -> None:
    for bucket in ("request", "join"):
        one, every = DEFAULT_LIMITS[bucket], DEFAULT_LIMITS[f"{bucket}/address"]
        assert every.per == one.per and every.count >= 3 * one.count


def test_per_browser_limits_are_shared_through_redis(redis_url: str) -> None:
    """Two processes' limiters on one Redis: a browser's budget is one for both, the
    flooder's refusals spend nothing of its address's, and another browser there still
    gets through either process."""
    import redis.asyncio

    limits: dict[str, Limit] = {
        "request": Limit(3, 60.0),
        "request/address": Limit(5, 60.0),
        "message": Limit(1, 60.0),
    }

    def scope(cookie: str) -> dict[str, Any]:
        headers = [(b"cookie", f"cardlab_id={cookie}".encode())]
        return {"type": "http", "client": ("198.51.100.20", 1), "headers": headers}

    async def scenario() -> None:
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            await client.flushdb()
            one, two = SharedRateLimiter(client, limits), SharedRateLimiter(client, limits)
            flooder, friend = scope("flood"), scope("friend")
            waits = [await take((one, two)[k % 2], flooder, "request") for k in range(12)]
            assert waits[:3] == [None] * 3
            assert all(w is not None and w > 0 for w in waits[3:])  # one budget for both
            assert [await take(two, friend, "request") for _ in range(2)] == [None, None]
            # the address's five are spent now (3 + 2): a third browser there waits
            assert await take(one, scope("third"), "request") is not None
            assert await client.exists("cardlab:rate:request/address:198.51.100.20") == 1
        finally:
            await client.aclose()

    asyncio.run(scenario())
