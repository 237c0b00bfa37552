"""The operator's endpoints in one process: /healthz, /readyz (503 once the store is
gone), /metrics refused to strangers, and its counters against a scripted run (the
actions this test sends, the hands it sees dealt, the rate-limit refusals it gets)."""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
pytest.importorskip("prometheus_client")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from cardlab.store import Store
from cardlab.web import create_app
from cardlab.web.guard import Limit, RateLimiter
from cardlab.web.logs import JsonLines, log_config

parser = pytest.importorskip("prometheus_client.parser")

TOKEN = "a-token-of-twenty-characters"
BEARER = {"authorization": f"Bearer {TOKEN}"}
PROCESS = "test-process-1"


@pytest.fixture
def store() -> Store:
    return Store.in_memory()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    limiter = RateLimiter(
        {
            "create": Limit(3, 60.0),
            "join": Limit(30, 60.0),
            "message": Limit(50, 1.0),
            "request": Limit(600, 10.0),
        }
    )
    app = create_app(table_store=store, limiter=limiter, process=PROCESS, metrics_token=TOKEN)
    with TestClient(app) as c:
        yield c


def samples(client: TestClient) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample of /metrics by (name, labels)."""
    answer = client.get("/metrics", headers=BEARER)
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain; version=0.0.4")
    found = {}
    for family in parser.text_string_to_metric_families(answer.text):
        for s in family.samples:
            found[(s.name, frozenset(s.labels.items()))] = s.value
    return found


def value(found: dict[Any, float], name: str, **labels: str) -> float:
    return found.get((name, frozenset(({"process": PROCESS} | labels).items())), 0.0)


def test_health_and_readiness(client: TestClient, store: Store) -> None:
    assert (client.get("/healthz").status_code, client.get("/healthz").text) == (200, "ok")
    assert client.get("/readyz").status_code == 200
    store.close()  # the store gone: alive, not ready
    assert client.get("/healthz").status_code == 200
    answer = client.get("/readyz")
    assert answer.status_code == 503
    assert answer.text.startswith("not ready: the store is unreachable") and "closed" in answer.text


def test_metrics_refused_to_strangers() -> None:
    with TestClient(create_app(limiter=None)) as c:  # no token: loopback clients only
        answer = c.get("/metrics")  # the test client's address is "testclient"
        assert answer.status_code == 403 and "loopback" in answer.text
    with TestClient(create_app(limiter=None, metrics_token=TOKEN)) as c:
        assert c.get("/metrics").status_code == 403
        assert c.get("/metrics", headers={"authorization": "Bearer wrong"}).status_code == 403
        assert c.get("/metrics", headers=BEARER).status_code == 200


def test_counters_match_a_scripted_run(client: TestClient, store: Store) -> None:
    body = {"game": "fesca78-holdem", "seats": 2, "stack": 100, "clock": 0, "pause": 0}
    created = client.post("/api/tables", json=body | {"public": True})
    assert created.status_code == 201
    tid = created.json()["id"]
    assert created.json()["process"] == PROCESS
    lobby = client.get("/api/tables").json()["tables"]
    assert [(t["id"], t["process"]) for t in lobby] == [(tid, PROCESS)]
    cookies = []
    for name in ("ann", "bob"):
        client.cookies.clear()
        joined = client.post(f"/api/tables/{tid}/join", json={"name": name})
        cookies.append(joined.headers["set-cookie"].split(";")[0])
    client.cookies.clear()
    sent = 0
    url = f"/api/tables/{tid}/ws"
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w1,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w2,
    ):
        found = samples(client)
        assert value(found, "cardlab_websocket_connections") == 2
        sockets = [(w1, cookies[0]), (w2, cookies[1])]
        while True:  # hand 1: each seat calls or checks (shows at the showdown)
            views = [
                client.get(f"/api/tables/{tid}", headers={"cookie": c}).json() for _, c in sockets
            ]
            if views[0]["last"] is not None:
                break
            for (ws, _), view in zip(sockets, views, strict=True):
                legal = view["legal"]
                if legal is not None:
                    action = "s" if legal["phase"] == "showdown" else "c"
                    ws.send_json({"type": "action", "action": action, "turn": view["turn"]})
                    sent += 1
                    while True:
                        m = ws.receive_json()
                        assert m["type"] != "error", m
                        if m["type"] == "state" and (m["turn"] > view["turn"] or m["last"]):
                            break
        ws_chat = w1
        ws_chat.send_json({"type": "ping"})  # not an action: not timed
        assert ws_chat.receive_json()["type"] in ("pong", "state")
        for _ in range(50):  # the next hand may begin meanwhile: a steady reading
            dealt = client.get(f"/api/tables/{tid}").json()["table"]["hand_number"]
            found = samples(client)
            if dealt == client.get(f"/api/tables/{tid}").json()["table"]["hand_number"]:
                break
    assert sent >= 4  # two streets at least, two players
    # stored: the test's actions and those the table played itself (the last show)
    live = store.live_hand(tid)
    stored = sum(h.actions for h in store.hands(table_id=tid)) + len(live.actions if live else ())
    assert stored >= sent
    assert value(found, "cardlab_actions_total") == stored
    assert value(found, "cardlab_store_write_seconds_count", write="add_action") == stored
    assert value(found, "cardlab_action_seconds_count") == sent  # the messages sent
    assert value(found, "cardlab_hands_dealt_total") == dealt
    assert value(found, "cardlab_tables") == 1
    assert value(found, "cardlab_seats", kind="human") == 2
    assert value(found, "cardlab_table_owner", table=tid) == 1
    # the sockets closed: none open
    assert value(samples(client), "cardlab_websocket_connections") == 0
    refused = 0
    for _ in range(4):  # the create bucket holds 3, one was used above
        refused += client.post("/api/tables", json=body).status_code == 429
    assert refused == 2
    assert value(samples(client), "cardlab_rate_limit_refusals_total", bucket="create") == refused


def test_json_log_lines() -> None:
    config = log_config("info", "json")
    assert config["loggers"]["cardlab"]["level"] == "INFO"
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        "x",
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/healthz", "1.1", 200),
        None,
    )
    line = json.loads(JsonLines().format(record))
    assert line["status"] == 200 and line["path"] == "/healthz" and line["level"] == "info"
    assert line["message"] == '127.0.0.1:5 - "GET /healthz HTTP/1.1" 200'
    with pytest.raises(ValueError, match="log level"):
        log_config("loud", "text")


class _Keeper:
    every = 1.0


class _Redis:
    def __init__(self, error: Exception | None) -> None:
        self.error = error

    async def ping(self) -> bool:
        if self.error is not None:
            raise self.error
        return True


class _Cluster:
    def __init__(self, error: Exception | None = None) -> None:
        self.redis = _Redis(error)


def test_readiness_with_leases_and_redis() -> None:
    """/readyz's reasons in cluster mode: leases never taken or renewed too long ago,
    and Redis refusing its ping (stand-ins for the keeper and Redis; the real processes'
    ready answer is in test_web_cluster_metrics.py)."""
    import asyncio
    import time
    from types import SimpleNamespace

    from cardlab.web.metrics import not_ready

    manager: Any = SimpleNamespace(
        store=Store.in_memory(), cluster=_Cluster(), keeper=_Keeper(), kept_at=None
    )
    assert asyncio.run(not_ready(manager)) == "the table leases were not taken yet"
    manager.kept_at = time.monotonic() - 10
    assert asyncio.run(not_ready(manager)) == "the table leases were last renewed 10 s ago"
    manager.kept_at = time.monotonic()
    assert asyncio.run(not_ready(manager)) is None
    manager.cluster = _Cluster(ConnectionError("Connection refused"))
    assert asyncio.run(not_ready(manager)) == "Redis is unreachable: Connection refused"
