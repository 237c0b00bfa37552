"""Table leases in a real Redis (tests/_redis.py) and the store's fence on both stores:
one owner at a time, a token that grows with every claim (counted by the store, so even
a Redis that forgot everything cannot hand a token out twice), and a stale owner whose
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
TAKEN_4_3 = r"taken over by another process \(fencing token 4 > 3\)"


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
            assert store_a.claim_table("t", lease_a.token) == lease_a.token == 1
            store_a.begin_hand("t", 1, START, {"hand": 1})
            store_a.add_action("t", 0, "p1 cbr 4")
            time.sleep(0.5)  # A is partitioned: no renewal, the lease expires
            lease_b = b.acquire("t")
            assert lease_b is not None
            assert store_b.claim_table("t", lease_b.token) == lease_b.token == 2
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
        # nothing of A's reached the store after B's claim; B resumes and writes
        live = store_b.live_hand("t")
        assert live is not None and live.actions == ("p1 cbr 4",)
        assert store_b.table("t").state == {"hand": 1}
        assert store_b.ledger("t") == []
        store_b.add_action("t", 1, "p2 cc")
        live = store_b.live_hand("t")
        assert live is not None and live.actions == ("p1 cbr 4", "p2 cc")


def test_every_claim_gets_a_new_higher_token(location: str) -> None:
    """The store hands the tokens out: one more than the last claim's, at least the
    lease's hint; the same hint twice still gives two tokens, and only the last
    claim's token may write."""
    with Store.open(location) as store, Store.open(location) as other:
        store.save_table("t", {}, {})
        assert store.fence("t") is None
        store.add_action("t", 0, "x")  # an unclaimed table is not fenced
        assert store.claim_table("t", 3) == 3
        assert other.claim_table("t", 3) == 4  # the same hint again: a new token
        assert store.fence("t") == 4
        with pytest.raises(StoreError, match=TAKEN_4_3):
            store.add_action("t", 1, "y")
        other.add_action("t", 1, "y")
        assert store.claim_table("t", 2) == 5  # a lower hint (Redis restarted): still up
        assert store.claim_table("t", 9) == 9  # a higher hint is taken as it is
        assert store.claim_table("t") == 10
        with pytest.raises(StoreError, match="taken over by another process"):
            other.add_action("t", 2, "z")
        with pytest.raises(StoreError, match="at least 1"):
            store.claim_table("t", 0)
        assert store.fence("t") == 10


def test_concurrent_claims_never_share_a_token(location: str) -> None:
    """Four stores claiming one table at once, 20 times each: 80 distinct tokens, 1 to 80."""
    import threading

    stores = [Store.open(location) for _ in range(4)]
    got: list[int] = []
    lock = threading.Lock()

    def claim(store: Store) -> None:
        for _ in range(20):
            token = store.claim_table("t", 1)
            with lock:
                got.append(token)

    try:
        threads = [threading.Thread(target=claim, args=(store,)) for store in stores]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(got) == list(range(1, 81))
        assert stores[0].fence("t") == 80
    finally:
        for store in stores:
            store.close()


@pytest.mark.parametrize("forget", ["flushall", "restart"])
def test_a_redis_that_forgets_cannot_let_a_stale_owner_write(
    location: str, redis_server: Any, forget: str
) -> None:
    """A holds the table with store token 3 (after two earlier owners); Redis loses
    everything (FLUSHALL, or a restart with no persistence), so its counter starts at 1
    again. B takes the free lease (Redis token 1) and claims: the store gives it 4, and
    A's writes are refused while B's go on. With the old fence (Redis's count, a claim
    accepted at an equal token) B would have reached token 3 again, A's token."""
    redis_server.flush()
    with Store.open(location) as store_a, Store.open(location) as store_b:
        store_a.save_table("t", {"game": "nlhe"}, {"hand": 0})
        client = redis.Redis.from_url(redis_server.url)
        try:
            a = TableLeases(client, ttl=30.0, owner="A")
            tokens = []
            for _ in range(2):  # two earlier owners, who let the table go
                earlier = a.acquire("t")
                assert earlier is not None
                tokens.append(store_b.claim_table("t", earlier.token))
                a.release(earlier)
            lease_a = a.acquire("t")
            assert lease_a is not None and lease_a.token == 3
            tokens.append(store_a.claim_table("t", lease_a.token))
            store_a.begin_hand("t", 1, START, {"hand": 1})
            store_a.add_action("t", 0, "p1 cbr 4")
        finally:
            client.close()
        if forget == "flushall":
            redis_server.flush()
        else:
            redis_server.stop_process()
            redis_server.start()  # empty: the tests run Redis with no persistence
        client = redis.Redis.from_url(redis_server.url)
        try:
            assert client.get("cardlab:fence:t") is None and client.get("cardlab:lease:t") is None
            a = TableLeases(client, ttl=30.0, owner="A")
            b = TableLeases(client, ttl=30.0, owner="B")
            lease_b = b.acquire("t")  # A's lease is gone with the data: free
            assert lease_b is not None and lease_b.token == 1  # Redis counts from 1 again
            tokens.append(store_b.claim_table("t", lease_b.token))
            assert a.renew(lease_a) is None  # A learns it at its next renewal...
        finally:
            client.close()
        assert tokens == [1, 2, 3, 4]  # every holder its own token
        assert store_a.fence("t") == 4
        with pytest.raises(StoreError, match=TAKEN_4_3):
            store_a.add_action("t", 1, "p2 cc")  # ...but its writes are refused before that
        with pytest.raises(StoreError, match="taken over by another process"):
            store_a.end_hand("t", _record(), {"hand": 9})
        store_b.add_action("t", 1, "p2 cc")
        live = store_b.live_hand("t")
        assert live is not None and live.actions == ("p1 cbr 4", "p2 cc")
        assert store_b.hands(table_id="t") == []


def _record() -> Any:
    from datetime import UTC, datetime

    from cardlab.store import HandRecord

    return HandRecord(
        game="nlhe",
        variant="NT",
        phh="variant = 'NT'\n",
        board="",
        actions=1,
        showdown=False,
        decided_by=None,
        source="web",
        players=("ann", "bob"),
        starting_stacks=(100, 100),
        finishing_stacks=(102, 98),
        played_at=datetime(2026, 1, 1, tzinfo=UTC),
        table_id="t",
    )


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
    from cardlab.web.table_routes import TableManager

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
            with pytest.raises(StoreError, match="no longer holds table"):
                room.save()  # refused in A's process, before reaching the store
            b.rooms[tid].save()  # the owner's writes go on
            b.close_all()

    try:
        asyncio.run(scenario())
    finally:
        client.close()


def test_keepers_after_redis_forgets(location: str, redis_url: str) -> None:
    """Two keepers (the lease side of two processes): A creates the table; Redis is
    flushed; B's next look takes the free lease and claims a new token from the store,
    A's writes are refused, and A's next look finds its lease lost."""
    from cardlab.web.lease import TableKeeper

    client = redis.Redis.from_url(redis_url)
    try:
        with Store.open(location) as store_a, Store.open(location) as store_b:
            keeper_a = TableKeeper(TableLeases(client, ttl=30.0, owner="A"), store_a)
            keeper_b = TableKeeper(TableLeases(client, ttl=30.0, owner="B"), store_b)
            keeper_a.take_new("t")
            store_a.save_table("t", {"game": "nlhe"}, {"hand": 0})
            assert keeper_a.held["t"].token == 1
            assert keeper_b.tick() == ([], [])  # held by A
            client.flushall()
            lost, taken = keeper_b.tick()
            assert lost == [] and [record.table_id for record in taken] == ["t"]
            assert keeper_b.held["t"].token == 2 == store_b.fence("t")
            assert client.get("cardlab:fence:t") == b"1"  # Redis's count is only a floor
            with pytest.raises(StoreError, match="taken over by another process"):
                store_a.save_table("t", {"game": "nlhe"}, {"hand": 9})
            assert keeper_a.tick() == (["t"], [])  # the lease is B's now
            assert keeper_a.held == {}
            store_b.save_table("t", {"game": "nlhe"}, {"hand": 1})
            assert store_a.table("t").state == {"hand": 1}
    finally:
        client.close()


def test_a_stalled_owner_retakes_its_table_only_after_its_room_stopped(
    location: str, redis_url: str
) -> None:
    """A stalls past its lease and no other process takes the table meanwhile (the
    whole machine starved). A's next look finds the lease lost: it must not claim the
    table again in that same look, since the room that ran it here is still live (and
    on the event loop, while the look runs in a thread) and would go on writing with the
    new token while a new room is restored from an older record: a hand stored twice, or
    one that does not start with the stacks the last ended with. Until the table is
    claimed again, A's writes to it are refused; the next look takes it anew."""
    from cardlab.web.lease import TableKeeper

    client = redis.Redis.from_url(redis_url)
    try:
        with Store.open(location) as store_a:
            keeper_a = TableKeeper(TableLeases(client, ttl=0.3, owner="A"), store_a)
            keeper_a.take_new("t")
            store_a.save_table("t", {"game": "nlhe"}, {"hand": 0})
            time.sleep(0.5)  # A stalls: its lease expires, no one takes it
            lost, taken = keeper_a.tick()
            assert lost == ["t"] and taken == []  # not retaken in the look that lost it
            assert store_a.fence("t") == 1
            with pytest.raises(StoreError, match="no longer holds table 't'"):
                store_a.save_table("t", {"game": "nlhe"}, {"hand": 9})  # the old room's
            with pytest.raises(StoreError, match="no longer holds table 't'"):
                store_a.add_action("t", 0, "p1 cc")
            assert store_a.table("t").state == {"hand": 0}
            lost, taken = keeper_a.tick()  # the next look: the room was dropped meanwhile
            assert lost == [] and [record.table_id for record in taken] == ["t"]
            assert keeper_a.held["t"].token == 2 == store_a.fence("t")
            store_a.save_table("t", {"game": "nlhe"}, {"hand": 1})  # the new room writes
            assert store_a.table("t").state == {"hand": 1}
    finally:
        client.close()


def test_a_table_handed_over_is_no_longer_written_by_the_giver(
    location: str, redis_url: str
) -> None:
    """Once A hands the lease over, its store refuses A's writes to the table at once,
    before the receiver has claimed it (a table handed back later to A is claimed anew)."""
    from cardlab.web.lease import TableKeeper

    client = redis.Redis.from_url(redis_url)
    try:
        with Store.open(location) as store_a, Store.open(location) as store_b:
            keeper_a = TableKeeper(TableLeases(client, ttl=5.0, owner="A"), store_a)
            keeper_b = TableKeeper(TableLeases(client, ttl=5.0, owner="B"), store_b)
            keeper_a.take_new("t")
            store_a.save_table("t", {"game": "nlhe"}, {"hand": 0})
            assert keeper_a.hand_over("t", "B")
            with pytest.raises(StoreError, match="no longer holds table 't'"):
                store_a.save_table("t", {"game": "nlhe"}, {"hand": 9})
            record = keeper_b.take("t")
            assert record is not None and record.state == {"hand": 0}
            assert keeper_b.held["t"].handed and store_b.fence("t") == 2
            store_b.save_table("t", {"game": "nlhe"}, {"hand": 1})
    finally:
        client.close()


def test_a_manager_that_stalled_past_its_leases_restarts_its_tables_cleanly(
    tmp_path: Path, redis_url: str
) -> None:
    """A manager alone stalls past its lease (issue 32's broken chain: no other process
    took the table meanwhile). Its next look drops the room it ran, whose writes are
    refused from then on, and takes the table back only at the look after, as a new room
    restored from the store."""
    from cardlab.web.lease import TableKeeper
    from cardlab.web.table_routes import TableManager

    path = tmp_path / "hands.sqlite3"
    client = redis.Redis.from_url(redis_url)

    async def scenario() -> None:
        with Store.open(path) as store:
            keeper = TableKeeper(TableLeases(client, ttl=0.3, owner="A"), store)
            a = TableManager(store, keeper=keeper)
            old = a.create({"game": "fesca78-holdem", "seats": 2, "stack": 100}, "h" * 64)
            tid = old.id
            await asyncio.sleep(0.5)  # the process stalls: its lease lapses, no one takes it
            await a.keep()
            assert a.rooms == {} and keeper.held == {}  # the old room is stopped first
            with pytest.raises(StoreError, match="no longer holds table"):
                old.save()
            await a.keep()  # taken back, claimed anew: a new room from the store
            new = a.rooms[tid]
            assert new is not old and store.fence(tid) == 2
            assert new.state() == old.state()
            assert old.gate.away  # retired before the claim: it starts nothing more
            new.save()
            a.close_all()

    try:
        asyncio.run(scenario())
    finally:
        client.close()
