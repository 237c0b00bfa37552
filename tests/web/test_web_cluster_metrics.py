"""The operator's view of two real ``cardlab web --redis`` processes over one PostgreSQL
store and one Redis: /healthz and /readyz, /metrics refused through a proxy, its counters
against a hand this test plays (its own action messages, the actions the store kept),
the process running each table in the lobby and the metrics, and after a ``kill -9`` of
the owner, the takeover counted and logged (one JSON line) by the process that took it."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from test_web_cluster import Socket, address, create, join, play_hand

from _cluster import Nginx, WebProcess, start_web
from _postgres import PostgresServer, postgres_server
from _redis import RedisServer, redis_server
from cardlab.store import Store

__all__ = ["postgres_server", "redis_server"]

httpx = pytest.importorskip("httpx")
parser = pytest.importorskip("prometheus_client.parser")

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def scrape(process: WebProcess) -> Samples:
    answer = httpx.get(f"{process.base}/metrics")  # from loopback, not proxied
    assert answer.status_code == 200, answer.text
    found = {}
    for family in parser.text_string_to_metric_families(answer.text):
        for s in family.samples:
            found[(s.name, frozenset(s.labels.items()))] = s.value
    return found


def value(found: Samples, name: str, **labels: str) -> float:
    (hit,) = [v for (n, ls), v in found.items() if n == name and set(labels.items()) <= ls] or [0.0]
    return hit


def process_of(found: Samples) -> str:
    return next(dict(ls)["process"] for n, ls in found if n == "cardlab_tables")


class Counting(Socket):
    """A socket counting the action messages it sent."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.actions = 0

    def send(self, message: dict[str, Any]) -> None:
        self.actions += message.get("type") == "action"
        super().send(message)


@pytest.fixture
def two(
    postgres_server: PostgresServer, redis_server: RedisServer, tmp_path: Any
) -> Iterator[tuple[str, list[WebProcess]]]:
    redis_server.flush()
    db = postgres_server.new_schema()
    processes = start_web(db, redis_server.url, 2, tmp_path, extra=["--log-format", "json"])
    try:
        yield db, processes
    finally:
        for process in processes:
            process.stop()


@pytest.mark.slow
def test_health_metrics_and_a_takeover(two: tuple[str, list[WebProcess]]) -> None:
    db, (a, b) = two
    for p in (a, b):
        assert httpx.get(f"{p.base}/healthz").text == "ok"
        ready = httpx.get(f"{p.base}/readyz")
        assert (ready.status_code, ready.text) == (200, "ready")
        proxied = httpx.get(f"{p.base}/metrics", headers={"x-forwarded-for": "203.0.113.9"})
        assert proxied.status_code == 403
    nginx = Nginx([a.port, b.port])  # the doc's site
    nginx.start()
    try:
        # through nginx /metrics is a stranger's request; a replay of the largest PHH the
        # app reads (1 MiB: the request is over nginx's default limit of 1 MiB) reaches it
        assert httpx.get(f"{nginx.base}/metrics").status_code == 403
        upload = httpx.post(f"{nginx.base}/api/replay", json={"phh": "x" * 1024 * 1024})
        assert upload.status_code == 400 and "error" in upload.json(), upload.text[:200]
    finally:
        nginx.stop()
    tid = create(a.base, address(), name="watched", public=True)["id"]
    ann, bob = join(a.base, tid, "ann"), join(a.base, tid, "bob")
    players = [Counting(a.base, tid, ann), Counting(a.base, tid, bob)]
    try:
        for s in players:
            s.wait_for(lambda m: m["type"] == "state")
        players[0].send({"type": "start"})
        play_hand(players, 1)
        found = scrape(a)
        assert value(found, "cardlab_websocket_connections") == 2
    finally:
        for s in players:
            s.close()
    a_name = process_of(found)
    with Store.open(db, read_only=True) as store:
        live = store.live_hand(tid)
        stored = sum(h.actions for h in store.hands(table_id=tid))
        stored += len(live.actions) if live is not None else 0
        dealt = len(store.hands(table_id=tid)) + (live is not None)
    sent = sum(s.actions for s in players)
    assert sent >= 4
    assert value(found, "cardlab_actions_total") == stored
    assert value(found, "cardlab_action_seconds_count") == sent
    assert value(found, "cardlab_hands_dealt_total") == dealt
    assert value(found, "cardlab_store_write_seconds_count", write="add_action") == stored
    assert value(found, "cardlab_table_owner", table=tid) == 1
    assert value(found, "cardlab_seats", kind="human") == 2
    lobby = {t["id"]: t for t in httpx.get(f"{b.base}/api/tables").json()["tables"]}
    assert lobby[tid]["process"] == a_name
    b_name = process_of(scrape(b))
    assert b_name != a_name and value(scrape(b), "cardlab_lease_takeovers_total") == 0

    a.kill()  # kill -9: B takes the table over when the lease runs out
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        lobby = {t["id"]: t for t in httpx.get(f"{b.base}/api/tables").json()["tables"]}
        if lobby.get(tid, {}).get("process") == b_name:
            break
        time.sleep(0.2)
    assert lobby[tid]["process"] == b_name
    found = scrape(b)
    assert value(found, "cardlab_lease_takeovers_total") == 1
    assert value(found, "cardlab_table_owner", table=tid) == 1
    assert httpx.get(f"{b.base}/readyz").status_code == 200
    lines = [json.loads(line) for line in b.log.read_text().splitlines() if line.startswith("{")]
    taken = [line for line in lines if "took over" in line["message"]]
    assert [line["message"] for line in taken] == [f"process {b_name} took over table {tid!r}"]
    assert taken[0]["level"] == "warning" and taken[0]["logger"] == "cardlab.web.table_manager"
