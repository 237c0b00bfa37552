"""The web tables a process runs: created, restored from the store, closed when idle, and
with ``--redis`` leased, taken over and shown in the shared lobby.

:class:`TableManager` holds every live :class:`~cardlab.web.table_room.Room` by id;
:mod:`cardlab.web.table_routes` serves them. Without a lease keeper a process runs every open
table of its store; with one (``cardlab web --redis``, :mod:`cardlab.web.lease`) only the
tables whose lease it holds, and the others reach it through :mod:`cardlab.web.cluster`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import functools
import logging
import secrets
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from cardlab.errors import CardlabError, GameError, StoreError
from cardlab.web.balance import DRAIN_TIMEOUT, Balancer
from cardlab.web.cluster import Cluster
from cardlab.web.guard import RateLimiter
from cardlab.web.lease import TableKeeper
from cardlab.web.store_watch import LIMIT as OUTAGE_LIMIT
from cardlab.web.store_watch import StoreWatch
from cardlab.web.table_coach import Matrices, default_matrices
from cardlab.web.table_config import TableConfig, parse_config
from cardlab.web.table_relay import RESTART as RECONNECT
from cardlab.web.table_relay import RemoteSockets
from cardlab.web.table_room import BOT_HANDS, Room
from cardlab.web.table_saved import SavedTable
from cardlab.web.table_store import TableStore, open_table_store

if TYPE_CHECKING:
    from cardlab.web.metrics import Metrics

log = logging.getLogger(__name__)

IDLE_CLOSE = 30 * 60.0  # seconds: a table with no person seated and nothing happening
JANITOR_EVERY = 30.0
# days a closed table's ledger, hands and page stay for those who sat at it and its host
# (``--retention-days`` when shorter: the store deletes the table then)
KEEP_CLOSED_DAYS = 7.0


class TableNotFound(GameError):
    """No table has that id."""


class TableManager:
    """Every live table by id, each stored as it plays (see :class:`Room`)."""

    def __init__(
        self,
        store: TableStore | None = None,
        *,
        max_tables: int = 500,
        idle_close: float = IDLE_CLOSE,
        bot_hands: int = BOT_HANDS,
        retention_days: float | None = None,
        limiter: RateLimiter | None = None,
        janitor_every: float = JANITOR_EVERY,
        keeper: TableKeeper | None = None,
        cluster: Cluster | None = None,
        process: str | None = None,
        metrics: Metrics | None = None,
        drain_timeout: float = DRAIN_TIMEOUT,
        matrices: Matrices | None = None,
        outage_limit: float = OUTAGE_LIMIT,
    ) -> None:
        self.store: TableStore = store if store is not None else open_table_store(None)
        # the coach's push/fold class matrices, shared by every table (table_coach)
        self.matrices = matrices if matrices is not None else default_matrices()
        self.max_tables = max_tables
        self.idle_close = idle_close
        self.bot_hands = bot_hands
        self.retention_days = retention_days
        self.limiter = limiter
        self.janitor_every = janitor_every
        self.rooms: dict[str, Room] = {}
        # closed tables, for the people who sat at them: id -> (room, when closed, Unix)
        self.closed: dict[str, tuple[Room, float]] = {}
        self._janitor: asyncio.Task[None] | None = None
        # with --redis (cardlab.web.lease), only the tables whose lease this process holds
        self.keeper = keeper
        # with --redis: the other processes (cardlab.web.cluster), who serve our tables
        # to their clients and theirs to ours
        self.cluster = cluster
        self.remote: RemoteSockets | None = None  # set by table_routes (the messages' side)
        # this process's id in the lobby, the logs and the metrics (cardlab.web.metrics)
        self.process = process if process is not None else "local"
        self.metrics = metrics
        self.kept_at: float | None = None  # time.monotonic() of the last lease tick that worked
        if cluster is not None:
            cluster.is_local = self.runs
        # the lease keeper's calls, one at a time (its tick, a handover, a table received)
        self.keeping = asyncio.Lock()
        # with both: placement, balance and drain (cardlab.web.balance)
        self.balancer: Balancer | None = None
        if cluster is not None and keeper is not None:
            counted = (lambda reason: metrics.handovers(reason)) if metrics else (lambda r: None)
            self.balancer = Balancer(
                self, cluster, drain_timeout=drain_timeout, on_handover=counted
            )
        self._background: set[asyncio.Task[Any]] = set()
        # a store on a server may go away: its tables pause and are restored after
        self.watch: StoreWatch | None = None
        if getattr(self.store, "dialect", "sqlite") == "postgresql":
            self.watch = StoreWatch(
                self.store, on_down=self._pause_all, on_up=self._resume_all, limit=outage_limit
            )
        if keeper is None:
            for saved in self.store.tables():
                self._restore(saved)
            self._restore_closed()

    @property
    def keep_closed(self) -> float:
        """Seconds a closed table stays available to the people who sat at it."""
        days = KEEP_CLOSED_DAYS
        if self.retention_days is not None:
            days = min(days, self.retention_days)
        return days * 86400.0

    def _restore_closed(self) -> None:
        now = time.time()
        for saved in self.store.tables(closed=True):
            closed_at = getattr(saved, "closed_at", None)
            if closed_at is None or now - closed_at.timestamp() >= self.keep_closed:
                continue
            room = self._load(saved)
            if room is not None:
                room.ending.mark_closed()
                self.closed[saved.table_id] = (room, closed_at.timestamp())

    def find(self, table_id: str, browser: str | None, *, wake: bool = True) -> Room:
        """The table ``table_id`` to read (its page, state, ledger, hands): an open one
        (woken, on the event loop), or a closed one the caller sat at or hosted;
        :class:`TableNotFound` else."""
        room = self.rooms.get(table_id)
        if room is not None:
            if wake:
                room.wake()
            return room
        kept = self.closed.get(table_id)
        if kept is not None and kept[0].seating.sat_here(browser):
            return kept[0]
        raise TableNotFound(f"no table {table_id[:40]!r} (the link may be wrong or closed)")

    def runs(self, table_id: str) -> bool:
        """This process runs the table ``table_id`` now."""
        return table_id in self.rooms

    def _load(self, saved: Any, *, store_errors: bool = False) -> Room | None:
        """The saved table as a room (None, logged, if it cannot be restored; with
        ``store_errors``, :class:`StoreError` if the store cannot be read)."""
        try:
            return Room.restore(
                saved.table_id,
                saved.config,
                saved.state,
                self.store,
                bot_hands=self.bot_hands,
                on_close=self._closed,
                matrices=self.matrices,
            )
        except StoreError:
            if store_errors:
                raise
            log.exception("table %r could not be restored", saved.table_id)
            return None
        except (CardlabError, KeyError, TypeError, ValueError):
            log.exception("table %r could not be restored", saved.table_id)
            return None

    def _restore(self, saved: Any) -> Room | None:
        room = self._load(saved)
        if room is not None:
            self.rooms[saved.table_id] = room
        return room

    def _prepare(self, data: dict[str, Any]) -> tuple[str, TableConfig]:
        if len(self.rooms) >= self.max_tables:
            raise GameError(
                f"the server has {len(self.rooms)} live tables, its limit: try again later"
            )
        return secrets.token_urlsafe(16), parse_config(data)  # 128 bits

    def create(self, data: dict[str, Any], host_sha256: str) -> Room:
        table_id, config = self._prepare(data)
        if self.keeper is not None:
            self.keeper.take_new(table_id)
        return self._open(table_id, config, host_sha256)

    async def open_table(self, data: dict[str, Any], host_sha256: str) -> Room:
        """:meth:`create` on the event loop: the lease is taken off the loop, and the
        new table is in the shared lobby at once."""
        if self.keeper is None:
            return self.create(data, host_sha256)
        table_id, config = self._prepare(data)
        await asyncio.to_thread(self.keeper.take_new, table_id)
        room = self._open(table_id, config, host_sha256)
        if self.cluster is not None:
            with contextlib.suppress(Exception):  # the next lease tick writes it anyway
                await self.cluster.advertise({table_id: self.summary(room)})
                if self.balancer is not None:  # the next placement counts this table
                    await self.balancer.publish()
        return room

    def _open(self, table_id: str, config: TableConfig, host_sha256: str) -> Room:
        room = Room(
            table_id,
            config,
            self.store,
            saved=SavedTable(host_sha256=host_sha256),
            bot_hands=self.bot_hands,
            on_close=self._closed,
            matrices=self.matrices,
        )
        with self.store.transaction():
            room.save()
            for seat, info in enumerate(room.seats):
                if info.kind == "bot":  # bots bring their chips too: the ledger balances
                    self.store.add_ledger(
                        table_id, seat, info.name, "buy-in", room.session.seats[seat].stack
                    )
        self.rooms[table_id] = room
        return room

    def get(self, table_id: str) -> Room:
        """The open table ``table_id`` to change (a join, a host's operation...):
        :class:`StoreAway` while its store is unreachable."""
        room = self.rooms.get(table_id)
        if room is None:
            raise TableNotFound(f"no table {table_id[:40]!r} (the link may be wrong or closed)")
        room.gate.check()
        room.wake()
        return room

    # --- the store's outages (cardlab.web.store_watch) -----------------------------------

    def _pause_all(self) -> None:
        for room in list(self.rooms.values()):
            room.gate.suspend()

    async def _resume_all(self) -> None:
        """Restore every paused table from the store; a table that cannot be read now
        stays paused (the watch sees the store away again and resumes it later)."""
        for table_id, room in list(self.rooms.items()):
            if room.gate.away:
                await self._reload(table_id, room)

    async def _reload(self, table_id: str, old: Room) -> None:
        try:
            saved = await asyncio.to_thread(self.store.table, table_id)
            fresh = await asyncio.to_thread(functools.partial(self._load, saved, store_errors=True))
        except StoreError as exc:
            log.warning("table %r cannot be restored from the store yet: %s", table_id, exc)
            return
        if self.rooms.get(table_id) is not old:  # its lease was lost meanwhile
            return
        if fresh is None or saved.closed_at is not None:
            self.rooms.pop(table_id, None)
            if self.keeper is not None:
                await asyncio.to_thread(self.keeper.let_go, table_id)
        else:
            self.rooms[table_id] = fresh
            fresh.chat.take_over(old.chat.kept())  # with what was said while away
            fresh.notices.append("the table's store is back: play resumes")
            fresh.wake()
        self._spawn(old.gate.retire(RECONNECT))

    def _drop(self, room: Room) -> None:
        """This process no longer runs ``room``: its pages reconnect to the new owner."""
        self.rooms.pop(room.id, None)
        self._spawn(room.gate.retire(RECONNECT))

    def _closed(self, room: Room) -> None:
        self.rooms.pop(room.id, None)
        self.closed[room.id] = (room, time.time())
        if self.cluster is not None:
            self.cluster.withdraw(room.id)
        if self.keeper is not None:
            try:
                asyncio.get_running_loop()
            except RuntimeError:  # no loop (a test, or the server stopping): at once
                self.keeper.let_go(room.id)
            else:
                self._spawn(asyncio.to_thread(self.keeper.let_go, room.id))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def keep(self) -> None:
        """With leases: stop the tables whose lease was lost, start those just taken,
        and write this process's tables to the shared lobby. Redis and the store are
        asked off the event loop."""
        keeper = self.keeper
        if keeper is None:
            return
        async with self.keeping:
            lost, taken = await asyncio.to_thread(keeper.tick)
        renewed = time.monotonic()
        self._lost(lost)
        for saved in taken:
            if time.monotonic() - renewed > keeper.every:  # restoring many tables takes
                async with self.keeping:  # long: keep the leases held meanwhile
                    self._lost(await asyncio.to_thread(keeper.renew))
                renewed = time.monotonic()
            await self._start_taken(saved)
        if self.remote is not None:
            self.remote.sweep()
        if self.cluster is not None:
            live = {r.id: self.summary(r) for r in self.rooms.values() if not r.closed}
            await self.cluster.advertise(live)
        self.kept_at = time.monotonic()
        if self.balancer is not None:
            await self.balancer.tick()

    async def _start_taken(self, saved: Any, giver: str | None = None) -> None:
        """Run a table whose lease this process just took: free (a takeover, logged and
        counted) or handed over by ``giver`` (cardlab.web.balance, which logs it)."""
        keeper = self.keeper
        assert keeper is not None
        room = await asyncio.to_thread(self._load, saved)
        lease = keeper.held.get(saved.table_id)
        if room is None or lease is None:
            async with self.keeping:
                await asyncio.to_thread(keeper.let_go, saved.table_id)
            return
        self.rooms[saved.table_id] = room
        if self.watch is not None and self.watch.down:
            room.gate.suspend()
        room.wake()
        if lease.handed:
            log.info(
                "process %s received table %r from process %s",
                self.process, saved.table_id, giver or "?",
            )  # fmt: skip
        else:
            log.warning("process %s took over table %r", self.process, saved.table_id)
            if self.metrics is not None:
                self.metrics.takeovers.inc()
        if self.cluster is not None:
            with contextlib.suppress(Exception):  # the next lease tick writes it anyway
                await self.cluster.advertise({room.id: self.summary(room)})
                if self.balancer is not None:
                    await self.balancer.publish()

    async def receive(self, table_id: str, giver: str) -> None:
        """Another process handed ``table_id`` over to this one: run it now."""
        keeper = self.keeper
        if keeper is None or table_id in self.rooms:
            return
        async with self.keeping:
            saved = await asyncio.to_thread(keeper.take, table_id)
        if saved is not None:
            await self._start_taken(saved, giver)

    def _lost(self, lost: list[str]) -> None:
        """The leases of ``lost`` were lost: another process runs those tables."""
        for table_id in lost:
            room = self.rooms.get(table_id)
            if room is not None:
                log.warning(
                    "process %s lost the lease of table %r: another process runs it",
                    self.process,
                    table_id,
                )
                self._drop(room)

    async def _keeper_loop(self) -> None:
        while True:
            try:
                await self.keep()
            except Exception:  # Redis or the store away for a moment: try again
                log.exception("renewing or taking table leases failed")
            await asyncio.sleep(self.keeper.every if self.keeper is not None else 1.0)

    def summary(self, room: Room) -> dict[str, Any]:
        """The lobby's entry of ``room``, with the process that runs it (``process``)."""
        return summary(room) | {"process": self.process}

    def wake_all(self) -> None:
        for room in self.rooms.values():
            room.wake()

    def close_all(self) -> None:
        for room in self.rooms.values():
            room.close()

    def sweep(self) -> list[str]:
        """Close the tables with no person seated that nothing happened at for
        ``idle_close`` seconds; the ids closed. (Seat requests past their time go too.)"""
        for room in list(self.rooms.values()):
            room.seating.expire_requests()
        idle = [
            room
            for room in list(self.rooms.values())
            if not any(s.kind == "human" for s in room.seats)
            and not room.pace.watched()
            and room.idle_for() >= self.idle_close
            and not room.live()
        ]
        for room in idle:
            room.ending.close()
        now = time.time()
        for table_id, (_, at) in list(self.closed.items()):
            if now - at >= self.keep_closed:
                del self.closed[table_id]
        return [room.id for room in idle]

    def prune(self) -> tuple[int, int]:
        """Apply the retention setting: hands and closed tables older than it go."""
        if self.retention_days is None:
            return 0, 0
        cutoff = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=self.retention_days)
        return self.store.prune(cutoff)

    async def _janitor_loop(self) -> None:
        while True:
            await asyncio.sleep(self.janitor_every)
            try:
                self.sweep()
                await asyncio.to_thread(self.prune)
            except Exception:  # the janitor must outlive a bad table
                log.exception("closing idle tables failed")

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Any) -> AsyncIterator[None]:
        """Start every table when the server starts; stop their tasks when it stops."""
        self.wake_all()
        with contextlib.suppress(CardlabError):
            self.prune()
        self._janitor = asyncio.get_running_loop().create_task(self._janitor_loop())
        if self.watch is not None:
            self.watch.start()
        if self.cluster is not None:
            await self.cluster.start()
        keeping = None
        if self.keeper is not None:
            keeping = asyncio.get_running_loop().create_task(self._keeper_loop())
        try:
            yield
        finally:
            self._janitor.cancel()
            if self.watch is not None:
                await self.watch.close()
            if keeping is not None:
                keeping.cancel()
            if self.balancer is not None:
                await self.balancer.stop()
            self.close_all()
            if self.keeper is not None:
                keeper = self.keeper

                def let_all_go() -> None:
                    for table_id in list(keeper.held):
                        with contextlib.suppress(Exception):
                            keeper.let_go(table_id)

                await asyncio.to_thread(let_all_go)
            if self.cluster is not None:
                await self.cluster.stop()


def summary(room: Room) -> dict[str, Any]:
    return {
        "id": room.id,
        "name": room.config.name,
        "game": room.config.game,
        "game_name": room.game.game.name,
        "stakes": room.game.stakes.describe(),
        "seats": room.config.seats,
        "open_seats": room.seating.open_seats,
        "bots": sum(1 for s in room.seats if s.kind == "bot"),
        "hands_played": room.session.hands_played,
        "status": room.status(),
        "public": room.config.public,
        "practice": room.config.practice,
        "url": f"/tables/{room.id}",
    }
