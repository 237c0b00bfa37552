"""Spreading the tables over the ``cardlab web --redis`` processes: placement, balance,
handover and drain.

- **Load.** Every lease tick each process writes its load, the live tables it runs, to
  the Redis hash ``cardlab:load`` (process id -> ``{"tables", "draining", "at"}``); an
  entry older than :data:`FRESH` seconds is a process that stopped and is left out.
- **Placement.** A request to create a table is served by the least loaded process that
  is not draining (:meth:`Balancer.place`); the process nginx sent it to relays it there
  whole (:class:`~cardlab.web.cluster.ClusterForward`), as it relays a request about a
  table, so no sticky session is needed. Ties go to the process that got the request.
- **Balance.** Every tick each process works out, from the same loads, the same plan
  (:func:`plan_moves`: who gives how many tables to whom so that no two processes differ
  by more than one table, moving as few as possible) and carries out its own part: a
  process that joins gets its fair share. A table moves only after it has stayed
  :data:`MIN_STAY` seconds with the process (counted from the first tick that saw it
  there): one just taken over after a crash, received or restored is not handed on in
  the same instant, so its pages reconnect once, not twice in a row.
- **Handover.** A table given away deals no new hand; at the end of the hand in play it
  stops here (its clock saved, its sockets closed with 1012 so the pages reconnect), its
  lease is handed to the receiver (:meth:`~cardlab.web.lease.TableKeeper.hand_over`),
  and the receiver is told to take it at once (``{"kind": "adopt"}``). The receiver
  claims it in the store with a new fencing token and resumes it from the store, as after
  a failover; if the receiver is gone, the lease runs out and any process takes the
  table. One log line per handover, by the giver.
- **Drain** (``SIGTERM``, or ``POST /drain``: :mod:`cardlab.web.metrics`): the process
  takes no new table, hands every table over at the end of its hand, spreading them over
  the least loaded processes, and a table whose hand has not ended within the bound
  (``cardlab web --drain-timeout``) is handed over in the middle of its hand, which the
  receiver resumes at the same decision. Then the process stops (exit 0).

Balance moves never happen mid-hand; a table whose hand does not end waits.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from cardlab.web.cluster import Cluster, Moved, channel
from cardlab.web.lease import PREFIX

log = logging.getLogger(__name__)

LOADS = f"{PREFIX}load"
FRESH = 6.0  # seconds: a load entry older than this is a process that stopped
DRAIN_TIMEOUT = 60.0  # seconds a drain waits for hands to end before moving them mid-hand
DRAIN_GRACE = 10.0  # seconds past the bound a drain waits for handovers under way
POLL = 0.1  # seconds between looks at a table waiting for its hand to end
LOOK_EVERY = 10  # polls between looks at whether the receiver still runs
RESTART = 1012  # the close code telling a page to reconnect (the table changed hands)
MIN_STAY = 10.0  # seconds a table stays with a process before balance may move it


@dataclass(frozen=True, slots=True)
class Move:
    """``count`` tables to go from process ``giver`` to process ``receiver``."""

    giver: str
    receiver: str
    count: int


def fair_shares(loads: Mapping[str, int]) -> dict[str, int]:
    """How many tables each process should run: the total split as evenly as it goes,
    the one more (the remainder) to the processes running the most now (ties by id), so
    that as few tables as possible move."""
    if not loads:
        return {}
    if any(n < 0 for n in loads.values()):
        raise ValueError(f"a process runs a negative number of tables: {dict(loads)!r}")
    base, extra = divmod(sum(loads.values()), len(loads))
    order = sorted(loads, key=lambda p: (-loads[p], p))
    return {p: base + (1 if k < extra else 0) for k, p in enumerate(order)}


def plan_moves(loads: Mapping[str, int]) -> list[Move]:
    """The moves that bring every process to its :func:`fair_shares`: each process
    above its share gives its surplus to those below theirs (both in order of id), so
    every process working from the same loads finds the same plan."""
    shares = fair_shares(loads)
    surplus = {p: loads[p] - shares[p] for p in sorted(loads) if loads[p] > shares[p]}
    wanting = {p: shares[p] - loads[p] for p in sorted(loads) if loads[p] < shares[p]}
    moves: list[Move] = []
    givers, takers = list(surplus), list(wanting)
    while givers and takers:
        giver, taker = givers[0], takers[0]
        count = min(surplus[giver], wanting[taker])
        moves.append(Move(giver, taker, count))
        surplus[giver] -= count
        wanting[taker] -= count
        if surplus[giver] == 0:
            givers.pop(0)
        if wanting[taker] == 0:
            takers.pop(0)
    return moves


def least_loaded(loads: Mapping[str, int], me: str) -> str:
    """Where a new table goes: the process with the fewest tables; ``me`` (the process
    asked) when it is one of them, else the first such by id."""
    fewest = min(loads.values())
    if loads.get(me) == fewest:
        return me
    return min(p for p, n in loads.items() if n == fewest)


class Tables(Protocol):
    """What the balancer needs of :class:`~cardlab.web.table_manager.TableManager`."""

    @property
    def rooms(self) -> dict[str, Any]: ...

    @property
    def process(self) -> str: ...

    @property
    def keeping(self) -> asyncio.Lock: ...

    @property
    def keeper(self) -> Any: ...

    async def receive(self, table_id: str, giver: str) -> None: ...


class Balancer:
    """One process's part in placing, balancing and draining the tables (see the module
    documentation). ``on_handover(reason)``: counts a table handed away (the metrics);
    ``min_stay``: the seconds a table stays before balance moves it; ``clock``: monotonic
    seconds (injected so tests control time)."""

    def __init__(
        self,
        tables: Tables,
        cluster: Cluster,
        *,
        drain_timeout: float = DRAIN_TIMEOUT,
        on_handover: Callable[[str], None] = lambda reason: None,
        min_stay: float = MIN_STAY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if not drain_timeout >= 0:
            raise ValueError(f"a drain's bound is seconds >= 0, got {drain_timeout!r}")
        if not min_stay >= 0:
            raise ValueError(f"a table's least stay is seconds >= 0, got {min_stay!r}")
        self.min_stay = min_stay
        self.clock = clock
        # each room this process runs -> when a tick first saw it (a room is made anew
        # whenever the table comes here: created, restored, received or taken over)
        self._arrived: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()
        self.tables = tables
        self.cluster = cluster
        self.drain_timeout = drain_timeout
        self.on_handover = on_handover
        self.leaving: dict[str, asyncio.Task[None]] = {}  # tables being handed away
        self.draining = False
        self.drained: asyncio.Event | None = None  # set once a drain is over
        self._drain: asyncio.Task[None] | None = None
        cluster.handlers["adopt"] = self._adopt
        cluster.place = self.place
        cluster.accepts_tables = self.accepts_tables

    # --- loads ---------------------------------------------------------------------------

    def load(self) -> int:
        """The live tables this process runs."""
        return sum(1 for room in list(self.tables.rooms.values()) if not room.closed)

    async def publish(self) -> None:
        entry = {"tables": self.load(), "draining": self.draining, "at": time.time()}
        await self.cluster.redis.hset(LOADS, self.cluster.node, json.dumps(entry))

    async def stop(self) -> None:
        """The process stops: handovers waiting for a hand's end are given up (the
        leases go as the process stops) and its load is forgotten."""
        for task in list(self.leaving.values()):
            task.cancel()
        with contextlib.suppress(Exception):
            await self.cluster.redis.hdel(LOADS, self.cluster.node)

    async def loads(self) -> dict[str, int]:
        """The tables of every process that is not draining and still listens on its
        channel (a process killed a moment ago is left out at once); this one's counted
        now, if it is not draining."""
        raw = await self.cluster.redis.hgetall(LOADS)
        now = time.time()
        found: dict[str, int] = {}
        for key, value in raw.items():
            node = _text(key)
            try:
                entry = json.loads(value)
                fresh = now - float(entry["at"]) <= FRESH
                tables, draining = int(entry["tables"]), bool(entry["draining"])
            except (ValueError, KeyError, TypeError):
                continue
            if fresh and not draining and tables >= 0 and node != self.cluster.node:
                found[node] = tables
        if found:
            listening = await self.cluster.redis.pubsub_numsub(*map(channel, found))
            alive = {_text(name) for name, count in listening if int(count) > 0}
            found = {node: n for node, n in found.items() if channel(node) in alive}
        if not self.draining:
            found[self.cluster.node] = self.load()
        return found

    async def place(self) -> str | None:
        """The process a new table is created at (None: here); raises
        :class:`~cardlab.web.cluster.Moved` when this process drains and no other runs."""
        loads = await self.loads()
        if not loads:
            raise Moved("this server is stopping and takes no new tables: try again")
        chosen = least_loaded(loads, self.cluster.node)
        return None if chosen == self.cluster.node else chosen

    def accepts_tables(self) -> bool:
        return not self.draining

    # --- balance ------------------------------------------------------------------------

    async def tick(self) -> None:
        """Write this process's load; unless it drains or is already handing tables
        over, carry out its part of the balance plan."""
        await self.publish()
        now = self.clock()
        for room in list(self.tables.rooms.values()):
            self._arrived.setdefault(room, now)
        if self.draining or self.leaving:
            return
        loads = await self.loads()
        for move in plan_moves(loads):
            if move.giver == self.cluster.node:
                for table_id in self._pick(move.count):
                    self.give(table_id, move.receiver, "balance")

    def _pick(self, count: int) -> list[str]:
        """The tables to give away, of those here for :attr:`min_stay` seconds at least:
        first those between hands, then those with the fewest connections (the fewest
        pages to reconnect). Fewer than ``count`` when too few have stayed long enough
        (a later tick plans again)."""
        now = self.clock()
        rooms = [
            r
            for r in list(self.tables.rooms.values())
            if not r.closed
            and r.id not in self.leaving
            and now - self._arrived.setdefault(r, now) >= self.min_stay
        ]
        rooms.sort(key=lambda r: (r.live(), len(r.audience), r.id))
        return [r.id for r in rooms[:count]]

    # --- handing a table over -------------------------------------------------------------

    def give(
        self, table_id: str, to: str, reason: str, *, force_after: float | None = None
    ) -> None:
        """Hand ``table_id`` over to process ``to`` at the end of its hand (or, with
        ``force_after``, after that many seconds whatever the hand)."""
        if table_id in self.leaving:
            return
        task = asyncio.get_running_loop().create_task(self._give(table_id, to, reason, force_after))
        self.leaving[table_id] = task
        task.add_done_callback(lambda _: self.leaving.pop(table_id, None))

    async def _give(self, table_id: str, to: str, reason: str, force_after: float | None) -> None:
        if table_id not in self.tables.rooms:
            return
        room: Any = self.tables.rooms[table_id]
        room.leaving = True  # no new hand (table_pace)
        started = time.monotonic()
        looks = 0
        try:
            while True:
                if room.closed or not self._runs(table_id, room):
                    return  # closed, or its lease lost meanwhile
                storing = (
                    room.runner.storing
                    or bool(room.chat.pending)  # a chat message being stored comes along
                    or (room.shell.storing_task is not None and not room.shell.storing_task.done())
                )
                between = not room.live() and not room.runner.waiting_to_end()
                late = force_after is not None and time.monotonic() - started >= force_after
                ready = not storing and (between or late)
                looks += 1
                if (ready or looks % LOOK_EVERY == 0) and not await self._listening(to):
                    log.info(
                        "process %s: %r not handed to %s (gone)", self.tables.process, table_id, to
                    )
                    return  # the receiver stopped meanwhile: the next tick plans again
                if ready:
                    break
                await asyncio.sleep(POLL)
            # from here to the lease's handover nothing of this table runs here
            hand = room.session.hands_played
            mid_hand = room.live()
            del self.tables.rooms[table_id]
            room.close()
            room.audience.hang_up(RESTART)
        finally:
            room.leaving = False
            if self._runs(table_id, room) and not room.closed:
                room.wake()  # not handed over after all: it deals again
        async with self.tables.keeping:
            given = await asyncio.to_thread(self.tables.keeper.hand_over, table_id, to)
        if not given:
            log.warning(
                "process %s lost the lease of table %r while handing it over to %s",
                self.tables.process, table_id, to,
            )  # fmt: skip
            return
        self.cluster.notify(to, {"kind": "adopt", "table": table_id, "from": self.cluster.node})
        self.on_handover(reason)
        where = f"in the middle of hand {hand + 1}" if mid_hand else f"after hand {hand}"
        log.warning(
            "process %s handed table %r over to process %s (%s, %s)",
            self.tables.process, table_id, to, reason, where,
        )  # fmt: skip

    async def _listening(self, node: str) -> bool:
        """Process ``node`` is alive (it listens on its channel)."""
        try:
            answer = await self.cluster.redis.pubsub_numsub(channel(node))
        except Exception:  # Redis away: no handover now
            return False
        return bool(answer) and int(answer[0][1]) > 0

    def _runs(self, table_id: str, room: object) -> bool:
        """``room`` is still the table ``table_id`` this process runs."""
        return self.tables.rooms.get(table_id) is room

    async def _adopt(self, message: dict[str, Any]) -> dict[str, Any]:
        """Another process handed this one a table: take it now (not at the next tick)."""
        table_id, giver = str(message.get("table", "")), str(message.get("from", ""))
        await self.tables.receive(table_id, giver)
        return {}

    # --- drain ----------------------------------------------------------------------------

    def request_drain(self) -> None:
        """Start draining (idempotent); :attr:`drained` is set when it is over."""
        if self._drain is None:
            self.drained = asyncio.Event()
            self._drain = asyncio.get_running_loop().create_task(self._drain_all())

    async def _drain_all(self) -> None:
        assert self.drained is not None
        self.draining = True
        start = time.monotonic()
        deadline = start + self.drain_timeout
        count = self.load()
        log.warning(
            "process %s is draining: %d tables to hand over within %g s",
            self.tables.process, count, self.drain_timeout,
        )  # fmt: skip
        try:
            with contextlib.suppress(Exception):
                await self.publish()
            while True:
                waiting = [
                    r.id
                    for r in self.tables.rooms.values()
                    if not r.closed and r.id not in self.leaving
                ]
                if not waiting and not self.leaving:
                    break
                now = time.monotonic()
                try:
                    loads = await self.loads()
                except Exception:  # Redis away for a moment: look again
                    loads = {}
                if waiting and loads:
                    self._spread(waiting, loads, max(0.0, deadline - now))
                elif not loads and not self.leaving:
                    break  # nobody to hand them to: their leases go when this process stops
                if now > deadline + DRAIN_GRACE:
                    break  # a handover stuck (a store write that does not return)
                await asyncio.sleep(0.2)
        finally:
            left = self.load()
            took = time.monotonic() - start
            if left:
                log.warning(
                    "process %s stops with %d tables not handed over after %.1f s (no "
                    "other process runs to take them): the next process to start takes "
                    "them from the store",
                    self.tables.process, left, took,
                )  # fmt: skip
            else:
                log.warning(
                    "process %s drained: %d tables handed over in %.1f s",
                    self.tables.process, count, took,
                )  # fmt: skip
            self.drained.set()

    def _spread(self, waiting: list[str], loads: dict[str, int], force_after: float) -> None:
        counts = dict(loads)
        for table_id in waiting:
            to = least_loaded(counts, "")
            counts[to] += 1
            self.give(table_id, to, "drain", force_after=force_after)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)
