"""Table leases in a real Redis (tests/_redis.py) and the store's fence on both stores:
one owner at a time, a token that grows with every acquisition, and a stale owner whose
writes the store refuses."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
import redis

from _postgres import PostgresServer, postgres_server
from _redis import redis_server, redis_url
from cardlab.errors import StoreError
from cardlab.store import Store
from cardlab.web.lease import Lease, TableLeases

__all__ = ["postgres_server", "redis_server", "redis_url"]

T = TypeVar("T")


def run(make: Callable[[Any], T], url: str) -> T:
    """Run ``make(client)`` with a new Redis client for ``url``."""
    client = redis.Redis.from_url(url)
    try:
        return make(client)
    finally:
        client.close()


def test_one_owner_at_a_time_and_tokens_grow(redis_url: str) -> None:
    def scenario(client: Any) -> None:
        a = TableLeases(client, ttl=5.0, owner="A")
        b = TableLeases(client, ttl=5.0, owner="B")
        first = a.acquire("t1")
        assert first is not None and first.token == 1 and first.owner == "A"
        assert b.acquire("t1") is None  # held
        assert a.acquire("t1") is None  # not re-entrant either
        assert a.holder("t1") == "A"
        assert client.pttl("cardlab:lease:t1") > 4000
        other = b.acquire("t2")  # tables are independent
        assert other is not None and other.token == 1
        stranger = Lease("t1", "B", 1, 0.0)
        assert b.release(stranger) is False  # compare-and-delete: not B's
        assert a.holder("t1") == "A"
        assert a.release(first) is True
        assert a.holder("t1") is None
        second = b.acquire("t1")
        assert second is not None and second.token == 2 and second.owner == "B"
        assert client.get("cardlab:fence:t1") == b"2"

    run(scenario, redis_url)


def test_renewal_keeps_the_lease_and_expiry_lets_another_take_it(redis_url: str) -> None:
    def scenario(client: Any) -> None:
        a = TableLeases(client, ttl=0.4, owner="A")
        b = TableLeases(client, ttl=0.4, owner="B")
        lease = a.acquire("t")
        assert lease is not None
        for _ in range(4):  # 0.8 s in all, twice the ttl: renewals keep it
            time.sleep(0.2)
            renewed = a.renew(lease)
            assert renewed is not None and renewed.token == lease.token
            assert renewed.until > lease.until
            lease = renewed
            assert b.acquire("t") is None
        time.sleep(0.6)  # no renewal past the ttl: expired
        assert a.holder("t") is None
        stolen = b.acquire("t")
        assert stolen is not None and stolen.token == lease.token + 1
        assert a.renew(lease) is None  # compare-and-extend: B's now
        assert a.release(lease) is False
        assert b.holder("t") == "B"

    run(scenario, redis_url)


def test_bad_ttl_is_refused() -> None:
    with pytest.raises(ValueError, match="positive number of seconds"):
        TableLeases(redis.Redis(), ttl=0)


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "hands.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_schema()


START = {"seats": ["ann", "bob"], "stacks": [100, 100]}


def test_a_partitioned_owner_cannot_write(location: str, redis_url: str) -> None:
    """A takes the table, stalls past its lease (its renewals paused), B takes the lease
    and claims the table with a higher token: every write of A is refused, B's go on."""
    with Store.open(location) as store_a, Store.open(location) as store_b:
        store_a.save_table("t", {"game": "nlhe"}, {"hand": 0})

        def scenario(client: Any) -> tuple[Lease, Lease]:
            a = TableLeases(client, ttl=0.3, owner="A")
            b = TableLeases(client, ttl=0.3, owner="B")
            lease_a = a.acquire("t")
            assert lease_a is not None
            store_a.claim_table("t", lease_a.token)
            store_a.begin_hand("t", 1, START, {"hand": 1})
            store_a.add_action("t", 0, "p1 cbr 4")
            time.sleep(0.5)  # A is partitioned: no renewal, the lease expires
            lease_b = b.acquire("t")
            assert lease_b is not None
            store_b.claim_table("t", lease_b.token)
            return lease_a, lease_b

        lease_a, lease_b = run(scenario, redis_url)
        assert lease_b.token == lease_a.token + 1
        assert store_a.fence("t") == store_b.fence("t") == lease_b.token
        refused = f"taken over by another process \\(fencing token {lease_b.token} >"
        with pytest.raises(StoreError, match=refused):
            store_a.add_action("t", 1, "p2 cc")
        with pytest.raises(StoreError, match=refused):
            store_a.save_table("t", {"game": "nlhe"}, {"hand": 9})
        with pytest.raises(StoreError, match=refused):
            store_a.cancel_hand("t", {"hand": 9})
        with pytest.raises(StoreError, match=refused):
            store_a.add_ledger("t", 0, "ann", "buy-in", 100)
        with pytest.raises(StoreError, match="claimed with fencing token"):
            store_a.claim_table("t", lease_a.token)  # nor can it claim back with the old one
        # nothing of A's reached the store after B's claim; B resumes and writes
        live = store_b.live_hand("t")
        assert live is not None and live.actions == ("p1 cbr 4",)
        assert store_b.table("t").state == {"hand": 1}
        assert store_b.ledger("t") == []
        store_b.add_action("t", 1, "p2 cc")
        live = store_b.live_hand("t")
        assert live is not None and live.actions == ("p1 cbr 4", "p2 cc")


def test_claims_only_go_up(location: str) -> None:
    with Store.open(location) as store:
        store.save_table("t", {}, {})
        assert store.fence("t") is None
        store.add_action("t", 0, "x")  # an unclaimed table is not fenced
        store.claim_table("t", 3)
        store.claim_table("t", 3)  # the same owner again
        assert store.fence("t") == 3
        with pytest.raises(StoreError, match="claimed with fencing token 3 > 2"):
            store.claim_table("t", 2)
        assert store.fence("t") == 3
        with pytest.raises(StoreError, match="at least 1"):
            store.claim_table("t", 0)


def test_leases_expire_in_real_time(redis_url: str) -> None:
    """The lease's ``until`` is a monotonic time no later than the real expiry."""

    def scenario(client: Any) -> tuple[float, float]:
        leases = TableLeases(client, ttl=0.5)
        lease = leases.acquire("t")
        assert lease is not None
        while leases.holder("t") is not None:
            time.sleep(0.01)
        return lease.until, time.monotonic()

    until, gone = run(scenario, redis_url)
    assert until <= gone < until + 0.5


def test_a_manager_runs_only_the_tables_it_holds(tmp_path: Path, redis_url: str) -> None:
    """Two managers on one store: the creator runs the table; the other takes it only
    once the creator's lease is gone, and the creator then stops running it."""
    from cardlab.web.lease import TableKeeper
    from cardlab.web.tables import TableManager

    path = tmp_path / "hands.sqlite3"
    client = redis.Redis.from_url(redis_url)

    async def scenario() -> None:  # rooms run on an event loop
        with Store.open(path) as store_a, Store.open(path) as store_b:
            keeper_a = TableKeeper(TableLeases(client, ttl=0.3, owner="A"), store_a)
            keeper_b = TableKeeper(TableLeases(client, ttl=0.3, owner="B"), store_b)
            a = TableManager(store_a, keeper=keeper_a)
            b = TableManager(store_b, keeper=keeper_b)
            room = a.create({"game": "fesca78-holdem", "seats": 2, "stack": 100}, "h" * 64)
            tid = room.id
            assert b.rooms == {} and store_b.fence(tid) == 1
            await b.keep()  # A holds the lease: B leaves the table alone
            assert b.rooms == {}
            await asyncio.sleep(0.5)  # A stalls past its lease
            await b.keep()
            assert list(b.rooms) == [tid] and store_b.fence(tid) == 2
            assert b.rooms[tid].state() == room.state()  # restored as A left it
            await a.keep()  # A finds its lease lost and stops running the table
            assert a.rooms == {} and keeper_a.held == {}
            with pytest.raises(StoreError, match="taken over by another process"):
                room.save()
            b.rooms[tid].save()  # the owner's writes go on
            b.close_all()

    try:
        asyncio.run(scenario())
    finally:
        client.close()
