"""The hand store: played hands, web tables and arena runs in one SQLite file.

A :class:`Store` owns one connection, shared by every thread that uses it and serialised
by a lock, so the web server may call it from worker threads
(``await asyncio.to_thread(store.add_hand, record)``). Several processes (the web server
and a command line) may open the same file: WAL lets readers go on while one writes, and
writers wait for each other up to ``timeout`` seconds.

Every write is one transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``): a process killed at any
moment leaves each hand either whole or absent. :meth:`Store.transaction` groups several
writes into one, e.g. a hand and the table's new stacks.
"""

from __future__ import annotations

import datetime
import json
import os
import sqlite3
import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

import platformdirs

from cardlab.errors import StoreError
from cardlab.store._checks import _check_count, _check_text, _json
from cardlab.store.records import (
    ArenaRun,
    GameStats,
    HandRecord,
    PlayerStats,
    parse_utc,
    utc_now,
    utc_text,
)
from cardlab.store.schema import SCHEMA_VERSION, inspect, migrate
from cardlab.store.tables import TablesMixin

ENV_VAR = "CARDLAB_DB"
"""The environment variable naming the store used when no path is given."""

FILE_NAME = "cardlab.sqlite3"

_HAND_COLUMNS = (
    "id, game, variant, phh, board, actions, showdown, decided_by, source, table_id, played_at,"
    " commitment"
)
_CHUNK = 500  # hand ids per query when fetching seats (below SQLite's variable limit)


def default_path() -> Path:
    """Where the store lives when no path is given: ``$CARDLAB_DB`` if set, else
    ``cardlab.sqlite3`` in the user's data directory (``~/.local/share/cardlab`` on Linux)."""
    chosen = os.environ.get(ENV_VAR)
    if chosen:
        return Path(chosen)
    return Path(platformdirs.user_data_dir("cardlab", appauthor=False)) / FILE_NAME


class Store(TablesMixin):
    """An open hand store. Make one with :meth:`Store.open` (or :meth:`Store.in_memory`)."""

    def __init__(
        self, connection: sqlite3.Connection, path: Path | None, *, read_only: bool = False
    ) -> None:
        self._connection: sqlite3.Connection | None = connection
        self._path = path
        self._read_only = read_only
        self._lock = threading.RLock()
        self._depth = 0  # nesting of transaction(); only the lock's holder touches it

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
        """Open (creating or migrating if needed) the store at ``path``; ``None`` means
        :func:`default_path`, whose directory is created. A file that is not a cardlab
        store, is corrupt, is damaged (a table missing) or comes from a newer cardlab
        raises :class:`StoreError` and is not written to. ``timeout`` is how long a write
        waits for another writer; ``synchronous="NORMAL"`` trades the last commits on a
        power loss (never on a killed process) for speed.

        ``read_only``: for commands that only read (see :meth:`_open_read_only`): the
        file is neither created, migrated nor switched to WAL, and writes raise
        :class:`StoreError`."""
        if synchronous not in ("FULL", "NORMAL"):
            raise StoreError(f"synchronous must be 'FULL' or 'NORMAL', got {synchronous!r}")
        if path is None:
            target = default_path()
            if not read_only and (ENV_VAR not in os.environ or not os.environ[ENV_VAR]):
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                except OSError as error:
                    raise StoreError(
                        f"cannot create the directory {str(target.parent)!r} for the hand "
                        f"store: {error.strerror}"
                    ) from None
        else:
            target = Path(path)
        if target.is_dir():
            raise StoreError(f"the hand store {str(target)!r} is a directory, expected a file")
        version = inspect(target).version
        if read_only:
            return cls._open_read_only(target, version, timeout, default=path is None)
        try:
            connection = sqlite3.connect(
                target, timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the hand store {str(target)!r}: {error}") from None
        try:
            connection.execute(f"PRAGMA busy_timeout = {max(0, int(timeout * 1000))}")
            connection.execute("PRAGMA journal_mode = WAL")
            connection.execute(f"PRAGMA synchronous = {synchronous}")
            connection.execute("PRAGMA foreign_keys = ON")
            migrate(connection, str(target))
        except sqlite3.Error as error:
            connection.close()
            raise StoreError(f"cannot open the hand store {str(target)!r}: {error}") from None
        except BaseException:
            connection.close()
            raise
        return cls(connection, target)

    @classmethod
    def _open_read_only(cls, target: Path, version: int, timeout: float, *, default: bool) -> Store:
        """The store at ``target`` (checked by :func:`inspect`, at schema ``version``) for
        reading only, leaving the file and its directory exactly as they are.

        No file yet (or an empty one): an empty store in memory (the directory of a path
        given must exist; the default one is made by the first write). A file at an older
        schema: a migrated copy in memory. Without a ``-wal`` file beside it (no writer has
        it open) the file is read as immutable, so that SQLite makes no ``-wal``/``-shm``
        files it could not remove again; a writer that starts meanwhile writes to its own
        WAL, and the main file changes only at a checkpoint."""
        label = repr(str(target))
        if version == 0:
            parent = target.parent
            if not default and not parent.is_dir():
                raise StoreError(
                    f"cannot open the hand store {label}: no directory {str(parent)!r}"
                )
            return cls(_empty_in_memory(), target, read_only=True)
        wal = target.with_name(target.name + "-wal")
        uri = f"{target.resolve().as_uri()}?mode=ro" + ("" if wal.exists() else "&immutable=1")
        try:
            connection = sqlite3.connect(
                uri, uri=True, timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the hand store {label}: {error}") from None
        try:
            connection.execute(f"PRAGMA busy_timeout = {max(0, int(timeout * 1000))}")
            if version < SCHEMA_VERSION:
                copy = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                connection.backup(copy)
                connection.close()
                connection = copy
                migrate(connection, str(target))
        except sqlite3.Error as error:
            connection.close()
            raise StoreError(f"cannot read the hand store {label}: {error}") from None
        return cls(connection, target, read_only=True)

    @classmethod
    def in_memory(cls) -> Store:
        """A new, empty store that lives in memory only (for tests and trials)."""
        return cls(_empty_in_memory(), None)

    @property
    def path(self) -> Path | None:
        """The file this store lives in (``None`` in memory)."""
        return self._path

    @property
    def read_only(self) -> bool:
        """Whether the store was opened for reading only (writes raise :class:`StoreError`)."""
        return self._read_only

    @property
    def version(self) -> int:
        """The schema version of the open file (always :data:`SCHEMA_VERSION`)."""
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
        where = "in memory" if self._path is None else repr(str(self._path))
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
            self._execute(connection, "BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield
                self._depth = 0
                self._execute(connection, "COMMIT")
            except BaseException:
                self._depth = 0
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                raise

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """One consistent snapshot for the reads in the block."""
        with self._lock:
            connection = self._open_connection()
            if self._depth or connection.in_transaction:
                yield connection
                return
            self._execute(connection, "BEGIN")
            try:
                yield connection
            finally:
                if connection.in_transaction:
                    connection.execute("COMMIT")

    def _open_connection(self) -> sqlite3.Connection:
        if self._connection is None:
            raise StoreError(f"the hand store {self._label()} is closed")
        return self._connection

    def _execute(self, connection: sqlite3.Connection, sql: str) -> None:
        try:
            connection.execute(sql)
        except sqlite3.OperationalError as error:
            raise StoreError(f"the hand store {self._label()} is not available: {error}") from None

    def _label(self) -> str:
        return ":memory:" if self._path is None else repr(str(self._path))

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
        with self.transaction():
            connection = self._open_connection()
            for record in batch:
                cursor = connection.execute(
                    "INSERT INTO hands (game, variant, phh, board, actions, showdown,"
                    " decided_by, source, table_id, played_at, commitment)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                )
                hand_id = cursor.lastrowid
                assert hand_id is not None  # an INSERT always sets it
                connection.executemany(
                    "INSERT INTO seats (hand_id, seat, player, starting_stack, finishing_stack)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [
                        (hand_id, seat, player, start, finish)
                        for seat, (player, start, finish) in enumerate(
                            zip(
                                record.players,
                                record.starting_stacks,
                                record.finishing_stacks,
                                strict=True,
                            )
                        )
                    ],
                )
                ids.append(hand_id)
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
                (*parameters, -1 if limit is None else limit, offset),
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

    def _records(self, connection: sqlite3.Connection, rows: list[Any]) -> list[HandRecord]:
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
                showdowns=int(showdowns),
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
            cursor = self._open_connection().execute(
                "INSERT INTO arena_runs (config, results, played_at) VALUES (?, ?, ?)",
                (config_text, results_text, when),
            )
        assert cursor.lastrowid is not None  # an INSERT always sets it
        return cursor.lastrowid

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
                (-1 if limit is None else limit, offset),
            ).fetchall()
        return [_arena_run(row) for row in rows]


def _empty_in_memory() -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA foreign_keys = ON")
    migrate(connection, ":memory:")
    return connection


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
    connection: sqlite3.Connection, where: str, parameters: Sequence[str]
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
    except sqlite3.OperationalError as error:
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
