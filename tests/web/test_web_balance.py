"""Spreading tables over processes (:mod:`cardlab.web.balance`): the balance plan against a
brute force over every balanced outcome, the placement rule, a lease handed from one
process to another in a real Redis, the per-process WebSocket limit of one app, and a
table's least stay before balance moves it."""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import random
import time
from types import SimpleNamespace

import pytest
import redis
from hypothesis import given
from hypothesis import strategies as st

from _redis import redis_server, redis_url
from cardlab.web.balance import Balancer, Move, fair_shares, least_loaded, plan_moves
from cardlab.web.lease import TableLeases

__all__ = ["redis_server", "redis_url"]

TOKEN = "a-metrics-token-of-the-tests"
BEARER = {"authorization": f"Bearer {TOKEN}"}

loads_st = st.dictionaries(
    st.sampled_from(["a", "b", "c", "d", "e"]), st.integers(0, 12), min_size=1, max_size=5
)


def applied(loads: dict[str, int], moves: list[Move]) -> dict[str, int]:
    after = dict(loads)
    for move in moves:
        after[move.giver] -= move.count
        after[move.receiver] += move.count
    return after


def fewest_moved(loads: dict[str, int]) -> int:
    """Brute force: the fewest tables that must move for no two processes to differ by
    more than one, over every balanced outcome with the same total."""
    total, n = sum(loads.values()), len(loads)
    best = None
    names = sorted(loads)
    for low in range(total + 1):
        for shape in itertools.product((low, low + 1), repeat=n):
            if sum(shape) != total:
                continue
            moved = sum(max(0, loads[p] - t) for p, t in zip(names, shape, strict=True))
            best = moved if best is None else min(best, moved)
    assert best is not None
    return best


@given(loads_st)
def test_the_plan_balances_with_the_fewest_moves(loads: dict[str, int]) -> None:
    moves = plan_moves(loads)
    after = applied(loads, moves)
    assert sum(after.values()) == sum(loads.values())
    assert max(after.values()) - min(after.values()) <= 1
    assert all(n >= 0 for n in after.values()) and all(m.count > 0 for m in moves)
    assert sum(m.count for m in moves) == fewest_moved(loads)
    givers, receivers = {m.giver for m in moves}, {m.receiver for m in moves}
    assert not givers & receivers  # nobody gives and receives
    mean = sum(loads.values()) / len(loads)
    assert all(loads[g] > mean for g in givers) and all(loads[r] < mean for r in receivers)


@given(loads_st, st.randoms(use_true_random=False))
def test_every_process_finds_the_same_plan(loads: dict[str, int], rng: random.Random) -> None:
    items = list(loads.items())
    rng.shuffle(items)
    assert plan_moves(dict(items)) == plan_moves(loads)  # whatever order Redis lists them


def test_a_process_that_joins_gets_its_share() -> None:
    assert plan_moves({"a": 6, "b": 6, "c": 0}) == [Move("a", "c", 2), Move("b", "c", 2)]
    assert plan_moves({"a": 12, "b": 0}) == [Move("a", "b", 6)]
    assert plan_moves({"a": 5, "b": 4, "c": 4}) == []  # one apart: nothing moves
    assert fair_shares({"a": 7, "b": 1, "c": 1}) == {"a": 3, "b": 3, "c": 3}
    with pytest.raises(ValueError, match="negative"):
        fair_shares({"a": -1})


def test_a_new_table_goes_to_the_least_loaded_process() -> None:
    assert least_loaded({"a": 3, "b": 1, "c": 1}, "a") == "b"  # ties: the first by id
    assert least_loaded({"a": 3, "b": 1, "c": 1}, "c") == "c"  # ties: the one asked
    assert least_loaded({"a": 0}, "a") == "a"


def test_a_lease_handed_over_goes_to_its_receiver_only(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    try:
        a, b, c = (TableLeases(client, ttl=5.0, owner=name) for name in "ABC")
        lease = a.acquire("t1")
        assert lease is not None and not lease.handed
        assert a.hand_over(lease, "B")
        assert a.holder("t1") is None  # between owners
        assert a.renew(lease) is None and not a.hand_over(lease, "C")  # not A's any more
        assert c.acquire("t1") is None and a.acquire("t1") is None  # meant for B
        got = b.acquire("t1")
        assert got is not None and got.handed and got.token == lease.token + 1
        assert b.holder("t1") == "B" and b.acquire("t1") is None  # not re-entrant
        assert b.renew(got) is not None
        # a handover nobody takes runs out, and the table is anyone's again
        short = TableLeases(client, ttl=0.2, owner="B")
        assert short.hand_over(got, "D")  # D has twice the lease's time to take it
        time.sleep(0.3)
        assert c.acquire("t1") is None
        time.sleep(0.3)
        late = c.acquire("t1")
        assert late is not None and not late.handed
    finally:
        client.close()


def test_websockets_past_the_limit_are_refused_counted_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

    from cardlab.web import create_app

    app = create_app(max_sockets=2, metrics_token=TOKEN)
    body = {"game": "fesca78-holdem", "seats": 2, "stack": 100, "clock": 0, "pause": 0}
    with TestClient(app) as client, caplog.at_level(logging.WARNING, "cardlab"):
        tid = client.post("/api/tables", json=body).json()["id"]
        url = f"/api/tables/{tid}/ws"
        with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
            assert one.receive_json()["type"] == "state"
            assert two.receive_json()["type"] == "state"
            for _ in range(3):
                with client.websocket_connect(url) as third:
                    with pytest.raises(WebSocketDisconnect) as closed:
                        third.receive_json()
                    assert closed.value.code == 1013
        with client.websocket_connect(url) as again:  # the two closed: room again
            assert again.receive_json()["type"] == "state"
        text = client.get("/metrics", headers=BEARER).text
    refused = [line for line in text.splitlines() if line.startswith("cardlab_websocket_refusals")]
    assert refused and refused[0].endswith(" 3.0")
    lines = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(lines) == 1 and "refused 1 WebSocket(s): 2 open" in lines[0]  # one per 10 s


def test_a_drain_without_redis_is_refused() -> None:
    from starlette.testclient import TestClient

    from cardlab.web import create_app

    with TestClient(app := create_app(metrics_token=TOKEN)) as client:
        answer = client.post("/drain", headers=BEARER)
        assert answer.status_code == 409 and "--redis" in answer.text
        assert client.get("/readyz").status_code == 200
        assert client.post("/drain").status_code == 403  # the metrics' token, or nothing
    assert app.state.tables.balancer is None


class _Redis:
    """The Redis calls of a balance tick, in memory: every process listens."""

    def __init__(self) -> None:
        self.loads: dict[str, str] = {}

    async def hset(self, key: str, field: str, value: str) -> None:
        self.loads[field] = value

    async def hgetall(self, key: str) -> dict[str, str]:
        return dict(self.loads)

    async def pubsub_numsub(self, *channels: str) -> list[tuple[str, int]]:
        return [(name, 1) for name in channels]


class _Room:
    def __init__(self, table_id: str) -> None:
        self.id = table_id
        self.closed = False
        self.audience: list[object] = []

    def live(self) -> bool:
        return False


def test_a_table_just_taken_over_is_not_handed_on_at_once() -> None:
    """Process b runs one table, takes three over (a crash of another process), and c
    runs none: the plan has b give two to c, but only the table that stayed
    ``min_stay`` seconds goes at once; the three go once they have stayed as long (a
    room made anew, the table back from elsewhere, starts again)."""
    redis_fake = _Redis()
    cluster = SimpleNamespace(redis=redis_fake, node="b", handlers={})
    tables = SimpleNamespace(rooms={"old": _Room("old")}, process="b")
    now = [0.0]
    balancer = Balancer(tables, cluster, min_stay=10.0, clock=lambda: now[0])  # type: ignore[arg-type]
    given: list[tuple[str, str, str]] = []
    balancer.give = lambda table_id, to, reason, **_: given.append((table_id, to, reason))  # type: ignore[method-assign]

    def tick(at: float) -> list[str]:
        now[0] = at
        redis_fake.loads["c"] = json.dumps({"tables": 0, "draining": False, "at": time.time()})
        given.clear()
        asyncio.run(balancer.tick())
        assert all(to == "c" and reason == "balance" for _, to, reason in given)
        return [table_id for table_id, _, _ in given]

    assert tick(0.0) == []  # one table for two processes: balanced
    for table_id in ("t1", "t2", "t3"):  # taken over just before the tick
        tables.rooms[table_id] = _Room(table_id)
    assert tick(20.0) == ["old"]  # 4 against 0: two should go; one has stayed long enough
    assert tick(29.9) == ["old"]
    assert tick(30.0) == ["old", "t1"]
    tables.rooms["old"] = _Room("old")  # the table went away and came back
    assert tick(35.0) == ["t1", "t2"]
    assert tick(45.0) == ["old", "t1"]
