"""The hand store: played hands, web tables and arena runs in one SQLite file or one
PostgreSQL database.

A :class:`Store` owns one connection (:mod:`cardlab.store._connection`: SQLite's or
PostgreSQL's, the queries are the same), shared by every thread that uses it and
serialised by a lock, so the web server may call it from worker threads
(``await asyncio.to_thread(store.add_hand, record)``). Several processes (the web server
and a command line) may open the same store: readers go on while one writes, and writers
wait for each other up to ``timeout`` seconds.

Every write is one transaction, committed before the call returns: a process killed at any
moment leaves each hand either whole or absent. A PostgreSQL connection the server closed
(it stopped or restarted) is made again at the next call outside a transaction, the tries
spaced by a wait that doubles from :data:`RETRY_FIRST` to :data:`RETRY_MOST` seconds.
:meth:`Store.transaction` groups several writes into one, e.g. a hand and the table's new
stacks.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import json
import os
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

import platformdirs

from cardlab._paths import check_name
from cardlab.errors import StoreError
from cardlab.store import postgres, sqlite
from cardlab.store._checks import _check_count, _check_text, _json
from cardlab.store._connection import Connection, DriverError
from cardlab.store.chat import ChatMixin
from cardlab.store.mtt import MttMixin
from cardlab.store.notes import NotesMixin
from cardlab.store.postgres import is_url
from cardlab.store.records import (
    ArenaRun,
    GameStats,
    HandRecord,
    PlayerStats,
    parse_utc,
    utc_now,
    utc_text,
)
from cardlab.store.schema import SCHEMA_VERSION
from cardlab.store.viewer_hands import ViewerHandsMixin
from cardlab.store.web_tables import TablesMixin

ENV_VAR = "CARDLAB_DB"
"""The environment variable naming the store (a file or a PostgreSQL URL) used when no
path is given."""

FILE_NAME = "cardlab.sqlite3"

RETRY_FIRST = 0.25  # seconds before the second try to connect again to a lost server
RETRY_MOST = 4.0  # seconds between tries at most
RECONNECT_TIMEOUT = 5.0  # seconds a try to connect again may take

_HAND_COLUMNS = (
    "id, game, variant, phh, board, actions, showdown, decided_by, source, table_id, played_at,"
    " commitment"
)
_CHUNK = 500  # hand ids per query when fetching seats (below SQLite's variable limit)
_INSERT_HAND = (
    "INSERT INTO hands (game, variant, phh, board, actions, showdown, decided_by, source,"
    " table_id, played_at, commitment) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)


def default_path() -> Path:
    """The file the store lives in when no path is given: ``$CARDLAB_DB`` if set to a path
    (set to a URL it names a database, which :meth:`Store.open` takes), else
    ``cardlab.sqlite3`` in the user's data directory (``~/.local/share/cardlab`` on Linux)."""
    chosen = os.environ.get(ENV_VAR)
    if chosen and not is_url(chosen):
        return Path(chosen)
    return Path(platformdirs.user_data_dir("cardlab", appauthor=False)) / FILE_NAME


class Store(TablesMixin, ChatMixin, NotesMixin, MttMixin, ViewerHandsMixin):
    """An open hand store. Make one with :meth:`Store.open` (or :meth:`Store.in_memory`)."""

    def __init__(
        self,
        connection: Connection,
        path: Path | None,
        *,
        read_only: bool = False,
        location: str | None = None,
    ) -> None:
        self._connection: Connection | None = connection
        self._path = path
        self._location = location if location is not None else (None if path is None else str(path))
        self._read_only = read_only
        self._lock = threading.RLock()
        self._depth = 0  # nesting of transaction(); only the lock's holder touches it
        self._fences: dict[str, int] = {}  # table id -> the token it was claimed with
        # a lost PostgreSQL connection is made again (see _open_connection), the tries
        # spaced by a wait that doubles from RETRY_FIRST to RETRY_MOST seconds
        self._reconnect: Callable[[], Connection] | None = None
        self._retry_at = 0.0  # time.monotonic() before which no new try is made
        self._retry_wait = RETRY_FIRST
        self.reconnects = 0  # connections made again after one was lost

    # -- opening and closing -----------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        timeout: float = 30.0,
        synchronous: Literal["FULL", "NORMAL"] = "FULL",
        read_only: bool = False,
    ) -> Store:
        """Open (creating or migrating if needed) the store at ``path``: a file, or a
        PostgreSQL database named by a URL (``postgresql://user@host/db``); ``None``
        means ``$CARDLAB_DB`` (a path or a URL) or :func:`default_path`, whose directory
        is created. A file or database that is not a cardlab store, is corrupt, is
        damaged (a table missing) or comes from a newer cardlab raises
        :class:`StoreError` and is not written to. ``timeout`` is how long a write waits
        for another writer; ``synchronous="NORMAL"`` trades the last commits on a power
        loss or a database server crash (never on a killed process) for speed.

        ``read_only``: for commands that only read: the store is neither created nor
        migrated, and writes raise :class:`StoreError` (see
        :func:`cardlab.store.sqlite.open_read_only`)."""
        if synchronous not in ("FULL", "NORMAL"):
            raise StoreError(f"synchronous must be 'FULL' or 'NORMAL', got {synchronous!r}")
        chosen = os.environ.get(ENV_VAR) if path is None else path
        if is_url(chosen):
            assert isinstance(chosen, str)  # is_url says so
            return cls._open_postgres(chosen, timeout, synchronous, read_only)
        if path is None:
            target = default_path()
            named = f"${ENV_VAR}" if chosen else "the default hand store"
            check_name(target, named, StoreError)
            if not read_only and not chosen:
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                except OSError as error:
                    raise StoreError(
                        f"cannot create the directory {str(target.parent)!r} for the hand "
                        f"store: {error.strerror}"
                    ) from None
        else:
            target = Path(path)
            check_name(target, "the hand store", StoreError)
        if read_only:
            connection = sqlite.open_read_only(target, timeout, default=path is None)
        else:
            connection = sqlite.open_file(target, timeout=timeout, synchronous=synchronous)
        return cls(connection, target, read_only=read_only)

    @classmethod
    def _open_postgres(
        cls, url: str, timeout: float, synchronous: Literal["FULL", "NORMAL"], read_only: bool
    ) -> Store:
        connection, version = postgres.connect(
            url, timeout=timeout, synchronous=synchronous, read_only=read_only
        )
        if read_only and version < SCHEMA_VERSION:
            # nothing may be written to migrate it: an empty database reads as an empty
            # store (as a missing file does); an older schema must be migrated first
            connection.close()
            if version:
                raise StoreError(
                    f"the hand store {postgres.redacted(url)!r} has schema {version} < "
                    f"{SCHEMA_VERSION}: open it once for writing to migrate it"
                )
            return cls(sqlite.empty_in_memory(), None, read_only=True, location=url)
        store = cls(connection, None, read_only=read_only, location=url)
        store._reconnect = functools.partial(
            postgres.reconnect,
            url,
            timeout=min(timeout, RECONNECT_TIMEOUT),
            synchronous=synchronous,
            read_only=read_only,
        )
        return store

    @classmethod
    def in_memory(cls) -> Store:
        """A new, empty store that lives in memory only (for tests and trials)."""
        return cls(sqlite.empty_in_memory(), None)

    @property
    def path(self) -> Path | None:
        """The file this store lives in (``None`` in memory or in PostgreSQL)."""
        return self._path

    @property
    def location(self) -> str | None:
        """Where the store lives, to be shown: its file, or its PostgreSQL URL without the
        password (``None`` in memory)."""
        return None if self._location is None else postgres.redacted(self._location)

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._open_connection().dialect

    @property
    def read_only(self) -> bool:
        """Whether the store was opened for reading only (writes raise :class:`StoreError`)."""
        return self._read_only

    @property
    def version(self) -> int:
        """The schema version of the open store (always :data:`SCHEMA_VERSION`)."""
        return SCHEMA_VERSION

    def close(self) -> None:
        """Close the store; an unfinished transaction is rolled back. Closing twice is fine."""
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        where = "in memory" if self.location is None else repr(self.location)
        state = "closed" if self._connection is None else "open"
        return f"<Store {where} ({state})>"

    # -- transactions --------------------------------------------------------------------

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Make every store call in the block one transaction: all are kept, or (if the
        block raises) none. Other threads wait until the block ends; blocks nest."""
        with self._lock:
            connection = self._open_connection()
            if self._read_only:
                raise StoreError(f"the hand store {self._label()} is open for reading only")
            if self._depth:
                self._depth += 1
                try:
                    yield
                finally:
                    self._depth -= 1
                return
            self._begin(connection, write=True)
            self._depth = 1
            try:
                yield
                self._depth = 0
                connection.commit()
            except DriverError as error:  # a full disk, a file made read-only, a lost server
                self._depth = 0
                connection.rollback()
                raise StoreError(
                    f"cannot write to the hand store {self._label()}: {error}"
                ) from None
            except BaseException:
                self._depth = 0
                connection.rollback()
                raise

    @contextmanager
    def _guarded(self) -> Iterator[None]:
        """Run a statement that may fail (a duplicate key) so that its failure leaves the
        transaction around it usable: PostgreSQL needs a savepoint for that, SQLite not."""
        connection = self._open_connection()
        if not (connection.errors_spoil_transaction and self._depth > 1):
            yield
            return
        connection.execute("SAVEPOINT cardlab_guard")
        try:
            yield
        except BaseException:
            connection.execute("ROLLBACK TO SAVEPOINT cardlab_guard")
            raise
        connection.execute("RELEASE SAVEPOINT cardlab_guard")

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        """One consistent snapshot for the reads in the block."""
        with self._lock:
            connection = self._open_connection()
            if self._depth or connection.in_transaction:
                yield connection
                return
            self._begin(connection, write=False)
            try:
                yield connection
            except DriverError as error:
                raise StoreError(f"cannot read the hand store {self._label()}: {error}") from None
            finally:
                if connection.in_transaction:
                    try:
                        connection.commit()
                    except DriverError:
                        connection.rollback()

    def _open_connection(self) -> Connection:
        connection = self._connection
        if connection is None:
            raise StoreError(f"the hand store {self._label()} is closed")
        if connection.lost and self._reconnect is not None and not self._depth:
            return self._connect_again(connection)
        return connection

    def _connect_again(self, lost: Connection) -> Connection:
        """A new connection in place of ``lost`` (the server stopped or restarted); while
        the server cannot be reached, :class:`StoreError` at once, a new try being made
        only after a wait that doubles with each failure (a process does not hammer a
        server that is starting)."""
        assert self._reconnect is not None
        with self._lock:
            if self._connection is not lost:  # another thread connected meanwhile
                return self._open_connection()
            now = time.monotonic()
            label = self._label()
            if now < self._retry_at:
                raise StoreError(
                    f"the hand store {label} is unreachable: the next try to connect in "
                    f"{self._retry_at - now:.1f} s"
                )
            try:
                fresh = self._reconnect()
            except StoreError as error:
                self._retry_at = now + self._retry_wait
                self._retry_wait = min(RETRY_MOST, 2 * self._retry_wait)
                why = str(error).removeprefix(f"cannot connect to the hand store {label}: ")
                raise StoreError(f"the hand store {label} is unreachable: {why}") from None
            with contextlib.suppress(Exception):  # the driver's own errors too
                lost.close()
            self._connection = fresh
            self._retry_at, self._retry_wait = 0.0, RETRY_FIRST
            self.reconnects += 1
            return fresh

    def ping(self) -> None:
        """Ask the database a trivial question (a web process's readiness):
        :class:`StoreError` if it cannot answer."""
        with self._lock:
            connection = self._open_connection()
            try:
                connection.execute("SELECT 1").fetchone()
            except DriverError as error:
                label = self._label()
                raise StoreError(f"the hand store {label} is not available: {error}") from None

    def _begin(self, connection: Connection, *, write: bool) -> None:
        try:
            connection.begin(write=write)
        except DriverError as error:
            raise StoreError(f"the hand store {self._label()} is not available: {error}") from None

    def _label(self) -> str:
        return ":memory:" if self.location is None else repr(self.location)

    # -- hands ---------------------------------------------------------------------------

    def add_hand(self, record: HandRecord) -> int:
        """Store one hand (its ``id`` is ignored) and return its new id."""
        return self.add_hands([record])[0]

    def add_hands(self, records: Iterable[HandRecord]) -> list[int]:
        """Store many hands in one transaction; return their ids in the same order."""
        batch = list(records)
        for record in batch:
            if not isinstance(record, HandRecord):
                raise StoreError(f"expected a HandRecord, got {record!r}")
        ids: list[int] = []
        seats: list[tuple[int, int, str, int, int]] = []
        with self.transaction():
            connection = self._open_connection()
            for record in batch:
                row = connection.execute(
                    _INSERT_HAND,
                    (
                        record.game,
                        record.variant,
                        record.phh,
                        record.board,
                        record.actions,
                        int(record.showdown),
                        record.decided_by,
                        record.source,
                        record.table_id,
                        utc_text(record.played_at),
                        record.commitment,
                    ),
                ).fetchone()
                hand_id = int(row[0])
                seats.extend(
                    (hand_id, seat, player, start, finish)
                    for seat, (player, start, finish) in enumerate(
                        zip(
                            record.players,
                            record.starting_stacks,
                            record.finishing_stacks,
                            strict=True,
                        )
                    )
                )
                ids.append(hand_id)
            if seats:  # the seats of the whole batch in one statement, not one per hand
                connection.executemany(
                    "INSERT INTO seats (hand_id, seat, player, starting_stack, finishing_stack)"
                    " VALUES (?, ?, ?, ?, ?)",
                    seats,
                )
        return ids

    def hand(self, hand_id: int) -> HandRecord:
        """The hand stored under ``hand_id``; :class:`StoreError` if there is none."""
        _check_count(hand_id, "a hand id")
        with self._reading() as connection:
            rows = connection.execute(
                f"SELECT {_HAND_COLUMNS} FROM hands WHERE id = ?", (hand_id,)
            ).fetchall()
            found = self._records(connection, rows)
        if not found:
            raise StoreError(f"no hand {hand_id!r} in the hand store {self._label()}")
        return found[0]

    def hands(
        self,
        *,
        game: str | None = None,
        source: str | None = None,
        table_id: str | None = None,
        player: str | None = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[HandRecord]:
        """The stored hands that match every filter given, newest first (by ``played_at``,
        then by id); ``limit`` and ``offset`` page through them."""
        if limit is not None:
            _check_count(limit, "limit")
        _check_count(offset, "offset")
        where, parameters = _filters(game, source, table_id, player)
        with self._reading() as connection:
            rows = connection.execute(
                f"SELECT {_HAND_COLUMNS} FROM hands{where}"
                " ORDER BY played_at DESC, id DESC LIMIT ? OFFSET ?",
                (*parameters, connection.no_limit if limit is None else limit, offset),
            ).fetchall()
            return self._records(connection, rows)

    def iter_hands(
        self,
        *,
        game: str | None = None,
        source: str | None = None,
        table_id: str | None = None,
        player: str | None = None,
        chunk: int = 1000,
    ) -> Iterator[HandRecord]:
        """Every stored hand that matches, newest first like :meth:`hands`, read ``chunk``
        hands at a time (for exports of any size). Each chunk is read in one snapshot and
        continues after the last hand given, so hands stored meanwhile that are older than
        it are included and newer ones are not."""
        _check_count(chunk, "chunk")
        if chunk == 0:
            raise StoreError("chunk must be at least 1, got 0")
        where, parameters = _filters(game, source, table_id, player)
        after: tuple[str, int] | None = None
        while True:
            keyset = "" if after is None else "(played_at, id) < (?, ?)"
            clause = where + (" AND " if where and keyset else " WHERE " if keyset else "") + keyset
            with self._reading() as connection:
                rows = connection.execute(
                    f"SELECT {_HAND_COLUMNS} FROM hands{clause}"
                    " ORDER BY played_at DESC, id DESC LIMIT ?",
                    (*parameters, *(after or ()), chunk),
                ).fetchall()
                records = self._records(connection, rows)
            yield from records
            if len(rows) < chunk:
                return
            after = (rows[-1][10], rows[-1][0])

    def phh_texts(self, *, chunk: int = 5000) -> Iterator[str]:
        """The PHH text of every stored hand, oldest first, read ``chunk`` hands at a
        time (an import recognises the hands already stored by it)."""
        last = 0
        while True:
            with self._reading() as connection:
                rows = connection.execute(
                    "SELECT id, phh FROM hands WHERE id > ? ORDER BY id LIMIT ?", (last, chunk)
                ).fetchall()
            yield from (text for _, text in rows)
            if len(rows) < chunk:
                return
            last = rows[-1][0]

    def count_hands(
        self,
        *,
        game: str | None = None,
        source: str | None = None,
        table_id: str | None = None,
        player: str | None = None,
    ) -> int:
        """How many stored hands match every filter given."""
        where, parameters = _filters(game, source, table_id, player)
        with self._reading() as connection:
            row = connection.execute(f"SELECT COUNT(*) FROM hands{where}", parameters).fetchone()
        return int(row[0])

    def _records(self, connection: Connection, rows: list[Any]) -> list[HandRecord]:
        seats: dict[int, list[tuple[str, int, int]]] = defaultdict(list)
        ids = [row[0] for row in rows]
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            marks = ", ".join("?" * len(chunk))
            for hand_id, player, starting, finishing in connection.execute(
                "SELECT hand_id, player, starting_stack, finishing_stack FROM seats"
                f" WHERE hand_id IN ({marks}) ORDER BY hand_id, seat",
                chunk,
            ):
                seats[hand_id].append((player, starting, finishing))
        records = []
        for row in rows:
            hand_id, game, variant, phh, board, actions, showdown, decided_by = row[:8]
            source, table_id, played_at, commitment = row[8:]
            if not seats[hand_id]:
                raise StoreError(f"hand {hand_id} in the hand store {self._label()} has no seats")
            players, starting, finishing = zip(*seats[hand_id], strict=True)
            records.append(
                HandRecord(
                    game=game,
                    variant=variant,
                    phh=phh,
                    players=players,
                    starting_stacks=starting,
                    finishing_stacks=finishing,
                    board=board,
                    actions=actions,
                    showdown=bool(showdown),
                    decided_by=decided_by,
                    source=source,
                    table_id=table_id,
                    played_at=parse_utc(played_at),
                    id=hand_id,
                    commitment=commitment,
                )
            )
        return records

    def stats(self, game: str | None = None) -> dict[str, GameStats]:
        """Totals per game (only ``game`` if given): hands, showdowns, and per player name
        the hands played and the net chips, players ordered by net chips won."""
        if game is not None and not isinstance(game, str):
            raise StoreError(f"game must be a string, got {game!r}")
        if game is not None:
            _check_text(game, "game")
        where, parameters = ("", ()) if game is None else (" WHERE h.game = ?", (game,))
        with self._reading() as connection:
            games = connection.execute(
                f"SELECT h.game, COUNT(*), SUM(h.showdown) FROM hands AS h{where} GROUP BY h.game",
                parameters,
            ).fetchall()
            players: dict[str, list[PlayerStats]] = defaultdict(list)
            for name, player, hands, net in _player_totals(connection, where, parameters):
                players[name].append(PlayerStats(player, hands, net))
        return {
            name: GameStats(
                game=name,
                hands=int(hands),
                showdowns=int(showdowns or 0),
                players=tuple(sorted(players[name], key=lambda p: (-p.net, p.name))),
            )
            for name, hands, showdowns in sorted(games)
        }

    # -- arena runs ----------------------------------------------------------------------

    def add_arena_run(
        self,
        config: dict[str, Any],
        results: dict[str, Any],
        *,
        played_at: datetime.datetime | None = None,
    ) -> int:
        """Store one arena run (when it was played: now unless given); return its id."""
        config_text = _json(config, "arena config")
        results_text = _json(results, "arena results")
        when = utc_text(utc_now() if played_at is None else played_at)
        with self.transaction():
            row = (
                self._open_connection()
                .execute(
                    "INSERT INTO arena_runs (config, results, played_at) VALUES (?, ?, ?)"
                    " RETURNING id",
                    (config_text, results_text, when),
                )
                .fetchone()
            )
        return int(row[0])

    def arena_run(self, run_id: int) -> ArenaRun:
        """The arena run stored under ``run_id``; :class:`StoreError` if there is none."""
        _check_count(run_id, "an arena run id")
        with self._reading() as connection:
            row = connection.execute(
                "SELECT id, config, results, played_at FROM arena_runs WHERE id = ?", (run_id,)
            ).fetchone()
        if row is None:
            raise StoreError(f"no arena run {run_id!r} in the hand store {self._label()}")
        return _arena_run(row)

    def arena_runs(self, *, limit: int | None = None, offset: int = 0) -> list[ArenaRun]:
        """The stored arena runs, newest first."""
        if limit is not None:
            _check_count(limit, "limit")
        _check_count(offset, "offset")
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT id, config, results, played_at FROM arena_runs"
                " ORDER BY played_at DESC, id DESC LIMIT ? OFFSET ?",
                (connection.no_limit if limit is None else limit, offset),
            ).fetchall()
        return [_arena_run(row) for row in rows]


def _filters(
    game: str | None, source: str | None, table_id: str | None, player: str | None
) -> tuple[str, tuple[str, ...]]:
    clauses: list[str] = []
    parameters: list[str] = []
    for column, value in (("game", game), ("source", source), ("table_id", table_id)):
        if value is not None:
            if not isinstance(value, str):
                raise StoreError(f"{column} must be a string, got {value!r}")
            _check_text(value, column)
            clauses.append(f"{column} = ?")
            parameters.append(value)
    if player is not None:
        if not isinstance(player, str):
            raise StoreError(f"player must be a string, got {player!r}")
        _check_text(player, "player")
        clauses.append("id IN (SELECT hand_id FROM seats WHERE player = ?)")
        parameters.append(player)
    where = " WHERE " + " AND ".join(clauses) if clauses else ""
    return where, tuple(parameters)


def _player_totals(
    connection: Connection, where: str, parameters: Sequence[str]
) -> list[tuple[str, str, int, int]]:
    """(game, player, hands played, net chips) for every player of every game."""
    join = "FROM seats AS s JOIN hands AS h ON h.id = s.hand_id"
    try:
        rows = connection.execute(
            f"SELECT h.game, s.player, COUNT(DISTINCT s.hand_id),"
            f" SUM(s.finishing_stack - s.starting_stack) {join}{where}"
            " GROUP BY h.game, s.player",
            parameters,
        ).fetchall()
        return [(g, p, int(n), int(net)) for g, p, n, net in rows]
    except DriverError as error:  # PostgreSQL sums BIGINTs as NUMERIC: never here
        if "overflow" not in str(error):
            raise
    # A sum beyond SQLite's 64-bit integers: add up in Python, whose integers don't overflow.
    hands: dict[tuple[str, str], set[int]] = defaultdict(set)
    nets: dict[tuple[str, str], int] = defaultdict(int)
    for game, player, hand_id, starting, finishing in connection.execute(
        f"SELECT h.game, s.player, s.hand_id, s.starting_stack, s.finishing_stack {join}{where}",
        parameters,
    ):
        hands[game, player].add(hand_id)
        nets[game, player] += finishing - starting
    return [(g, p, len(ids), nets[g, p]) for (g, p), ids in hands.items()]


def _arena_run(row: Any) -> ArenaRun:
    run_id, config, results, played_at = row
    return ArenaRun(
        id=run_id,
        config=json.loads(config),
        results=json.loads(results),
        played_at=parse_utc(played_at),
    )
