"""Table leases in Redis: one process at a time owns a web table (``cardlab web --redis``).

A lease is the Redis key ``cardlab:lease:<table id>`` holding the owner's random id, set
with ``SET NX PX`` (only if free, expiring after ``ttl`` seconds). Taking it also
increments ``cardlab:fence:<table id>`` in the same Lua script. The owner renews the lease
well before it expires (a compare-and-extend: only if the key still holds its id) and
releases it with a compare-and-delete, so a process never extends or drops a lease that
is no longer its.

A lease alone cannot stop a process that stalled (a long pause, a network partition)
and still believes it owns the table: its lease may have expired and been taken. So the
new owner claims the table in the store (:meth:`cardlab.store.Store.claim_table`), which
hands it a fencing token one higher than every earlier claim's, and the store refuses
every write made with any other token: the fence. The store, not Redis, counts the
tokens: Redis's counter is only a floor for them, so a Redis that restarts empty (its
counters back at 1) can make a table wait for a new lease, never let two holders share
a token.

A lease may also be **handed over** (:mod:`cardlab.web.balance`): at a hand's end the owner
sets the lease's value to ``handed:<receiver's id>`` (a compare-and-set, so only while it
still holds it; meanwhile the table has no owner), and the receiver takes a lease handed
to it as it takes a free one:
with a new token, claimed in the store. If the receiver never takes it, the lease runs
out (after twice ``ttl``) and any process takes the table, as after a crash.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, replace
from typing import Any

from cardlab.errors import StoreError

PREFIX = "cardlab:"
HANDED = "handed:"  # a lease's value while it goes to the owner named after this

_ACQUIRE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    return {redis.call('INCR', KEYS[2]), 0}
end
if redis.call('GET', KEYS[1]) == ARGV[3] then
    redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
    return {redis.call('INCR', KEYS[2]), 1}
end
return {0, 0}
"""

_HAND_OVER = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) and 1 or 0
end
return 0
"""

_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


@dataclass(frozen=True, slots=True)
class Lease:
    """A lease held on ``table_id``: the owner's id, its fencing token (Redis's count of
    acquisitions; once claimed, the store's token), until when (``time.monotonic()``)
    it is surely held, as last taken or renewed, and whether it was taken as handed over
    to this owner (not free)."""

    table_id: str
    owner: str
    token: int
    until: float
    handed: bool = False


class TableLeases:
    """The leases one process takes on web tables, through a Redis client
    (``redis.Redis``; each call is one round trip, as a store write is). ``ttl``: seconds
    a lease lasts unless renewed."""

    def __init__(self, client: Any, *, ttl: float = 5.0, owner: str | None = None) -> None:
        if not ttl > 0:
            raise ValueError(f"a lease lasts a positive number of seconds, got {ttl!r}")
        self.client = client
        self.ttl = ttl
        self.owner = owner if owner is not None else secrets.token_hex(16)
        self._acquire = client.register_script(_ACQUIRE)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)
        self._hand_over = client.register_script(_HAND_OVER)

    @staticmethod
    def lease_key(table_id: str) -> str:
        return f"{PREFIX}lease:{table_id}"

    @staticmethod
    def fence_key(table_id: str) -> str:
        return f"{PREFIX}fence:{table_id}"

    @property
    def _ms(self) -> int:
        return max(1, round(self.ttl * 1000))

    def acquire(self, table_id: str) -> Lease | None:
        """Take the lease on ``table_id`` if it is free or was handed over to this owner
        (None if another holds it)."""
        started = time.monotonic()
        token, handed = self._acquire(
            keys=[self.lease_key(table_id), self.fence_key(table_id)],
            args=[self.owner, self._ms, HANDED + self.owner],
        )
        if int(token) == 0:
            return None
        return Lease(table_id, self.owner, int(token), started + self.ttl, bool(int(handed)))

    def hand_over(self, lease: Lease, to: str) -> bool:
        """Give ``lease`` to the owner ``to`` (it lasts twice ``ttl`` for them to take it,
        a busy receiver included); False if it was no longer held."""
        key = self.lease_key(lease.table_id)
        done = self._hand_over(keys=[key], args=[lease.owner, HANDED + to, 2 * self._ms])
        return bool(int(done))

    def renew(self, lease: Lease) -> Lease | None:
        """Extend ``lease`` by ``ttl`` from now; None if it is no longer held (expired,
        perhaps taken by another process)."""
        started = time.monotonic()
        done = self._renew(keys=[self.lease_key(lease.table_id)], args=[lease.owner, self._ms])
        if not int(done):
            return None
        return Lease(lease.table_id, lease.owner, lease.token, started + self.ttl)

    def release(self, lease: Lease) -> bool:
        """Give ``lease`` up (whether it was still held)."""
        done = self._release(keys=[self.lease_key(lease.table_id)], args=[lease.owner])
        return bool(int(done))

    def holder(self, table_id: str) -> str | None:
        """The owner id holding ``table_id``'s lease (None: free, or being handed over)."""
        value = self.client.get(self.lease_key(table_id))
        if value is None:
            return None
        text = value.decode() if isinstance(value, bytes) else str(value)
        return None if text.startswith(HANDED) else text


def connect(url: str) -> Any:
    """A Redis client for ``url`` (``redis://host:port/db``); :class:`StoreError`
    with the install command if redis-py is missing or the URL is not Redis's."""
    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise StoreError(f"--redis takes a redis://host:port URL, got {url!r}")
    try:
        import redis
    except ImportError:
        raise StoreError(
            "cardlab web --redis needs the Redis client: pip install 'cardlab[scale]'"
        ) from None
    return redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)


class TableKeeper:
    """The tables one ``cardlab web --redis`` process runs: those whose lease it holds.

    :meth:`take_new` leases a table this process creates; :meth:`tick` (every
    :attr:`every` seconds, a third of the lease) renews the leases held, and takes the
    lease of every open table of the store whose lease is free (its owner stopped or
    died), claiming it in the store with the new token. The caller restores the taken
    tables from the store and stops those whose lease was lost. A lease lost is
    disclaimed in the store at once (the room still running here writes no more), and
    its table is not taken back in the same tick, only once the caller stopped its room."""

    def __init__(self, leases: TableLeases, store: Any, *, every: float | None = None) -> None:
        self.leases = leases
        self.store = store
        self.every = every if every is not None else leases.ttl / 3
        self.held: dict[str, Lease] = {}

    def take_new(self, table_id: str) -> None:
        """Lease and claim the new table ``table_id`` before anything of it is stored."""
        lease = self.leases.acquire(table_id)
        if lease is None:
            raise StoreError(f"the lease of the new table {table_id!r} is taken")
        token = self.store.claim_table(table_id, lease.token)
        self.held[table_id] = replace(lease, token=token)

    def hand_over(self, table_id: str, to: str) -> bool:
        """Hand the lease of ``table_id`` to the process ``to`` (the table stopped here
        at a hand's end); False if it was no longer this process's."""
        lease = self.held.pop(table_id, None)
        if lease is None:
            return False
        self.store.disclaim(table_id)
        return bool(self.leases.hand_over(lease, to))

    def let_go(self, table_id: str) -> None:
        """Release the lease of ``table_id`` (it closed, or this process stops)."""
        lease = self.held.pop(table_id, None)
        if lease is not None:
            self.leases.release(lease)

    def renew(self) -> list[str]:
        """Renew the leases held: the ids of the tables whose lease was lost."""
        lost = []
        for table_id, lease in list(self.held.items()):
            renewed = self.leases.renew(lease)
            if renewed is None:
                del self.held[table_id]
                self.store.disclaim(table_id)  # the room still running here writes no more
                lost.append(table_id)
            else:
                self.held[table_id] = renewed
        return lost

    def tick(self) -> tuple[list[str], list[Any]]:
        """Renew the leases held and take the free ones: (ids of the tables whose lease
        was lost, records of the tables just taken, read after their claim)."""
        lost = self.renew()
        taken: list[Any] = []
        try:
            saved_tables = self.store.tables()
        except StoreError:  # the store is away: the leases held are renewed all the same
            return lost, taken
        for saved in saved_tables:
            # a table lost just now is not taken back in the same tick, even if its lease
            # is free (this process stalled past it and no other took it): the room that
            # ran it here must stop first (the caller drops it on this tick's answer), else
            # it would go on writing with the new claim while a new room is restored
            if saved.table_id not in self.held and saved.table_id not in lost:
                record = self.take(saved.table_id)
                if record is not None:
                    taken.append(record)
        return lost, taken

    def take(self, table_id: str) -> Any:
        """Take ``table_id``'s lease if it is free or handed to this process, and claim
        the table: its record, read after the claim (None: not taken, or closed, or
        held already)."""
        if table_id in self.held:
            return None
        got = self.leases.acquire(table_id)
        if got is None:
            return None
        try:
            got = replace(got, token=self.store.claim_table(table_id, got.token))
            # read again after the claim: the last owner's writes are all in now
            record = self.store.table(table_id)
        except StoreError:
            self.store.disclaim(table_id)
            self.leases.release(got)
            return None
        if record.closed_at is not None:
            self.store.disclaim(table_id)
            self.leases.release(got)
            return None
        self.held[table_id] = got
        return record
