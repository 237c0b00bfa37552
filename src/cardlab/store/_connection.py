"""One connection to a store's database, SQLite or PostgreSQL, behind one small interface.

The store's queries are written once, in SQL both databases speak, with ``?`` for
parameters. What differs is here, each difference named once:

- parameters: SQLite takes ``?``, psycopg ``%s`` (:meth:`PostgresConnection.execute`
  rewrites them; a query with a literal ``%`` is refused rather than misread);
- no limit: ``LIMIT -1`` in SQLite, ``LIMIT NULL`` in PostgreSQL (:attr:`no_limit`);
- transactions: ``BEGIN IMMEDIATE`` takes SQLite's write lock at once; PostgreSQL locks
  rows as it writes, and reads run in a ``REPEATABLE READ`` snapshot;
- errors: each driver's errors become :class:`Duplicate` (a key already stored) or
  :class:`DriverError` (anything else), which :class:`~cardlab.store.Store` turns into
  :class:`~cardlab.errors.StoreError` messages naming the store;
- a failed statement spoils a PostgreSQL transaction, not an SQLite one
  (:attr:`errors_spoil_transaction`): the store guards such statements with a savepoint;
- round trips: :meth:`Connection.write_script` runs a short transaction whose statements
  need no answer before the next; PostgreSQL gets it as one query string (BEGIN, the
  statements, COMMIT: one round trip instead of one per statement), SQLite has no round
  trips to save.

Autoincrement ids, upserts and JSON need no difference: ``INSERT ... RETURNING id``,
``ON CONFLICT ... DO UPDATE`` and JSON kept as text work the same in both.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import psycopg


class DriverError(Exception):
    """A database error, in the driver's words (turned into a StoreError by the store)."""


class Duplicate(DriverError):
    """A row with the same key is already stored (a UNIQUE or PRIMARY KEY constraint)."""


class Cursor(Protocol):
    """What the store reads from a query: rows, and how many rows a write changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection:
    """The operations the store needs; :class:`SQLiteConnection` and
    :class:`PostgresConnection` implement them."""

    dialect: str
    no_limit: int | None
    errors_spoil_transaction: bool

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Cursor:
        raise NotImplementedError

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        raise NotImplementedError

    def begin(self, *, write: bool) -> None:
        """Start a transaction: a write (holding the write lock where there is one) or a
        read in one snapshot."""
        raise NotImplementedError

    @property
    def in_transaction(self) -> bool:
        raise NotImplementedError

    @property
    def lost(self) -> bool:
        """The database server closed the connection (it stopped or restarted): every
        statement fails until the store connects again."""
        return False

    def close(self) -> None:
        raise NotImplementedError

    def commit(self) -> None:
        self.execute("COMMIT")

    def write_script(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """Run ``statements`` (SQL, parameters) as one write transaction, committed, and
        return the rows each changed; on an error nothing is kept (rolled back) and the
        error is raised. A statement that must refuse the transaction raises in the
        database (a constraint), since no answer is looked at before COMMIT."""
        self.begin(write=True)
        try:
            counts = [self.execute(sql, parameters).rowcount for sql, parameters in statements]
            self.commit()
        except BaseException:
            self.rollback()
            raise
        return counts

    def rollback(self) -> None:
        """Roll back the transaction in progress, if any; a broken connection is left to
        fail at its next use."""
        try:
            if self.in_transaction:
                self.execute("ROLLBACK")
        except DriverError:
            pass


class SQLiteConnection(Connection):
    """An ``sqlite3`` connection opened with ``isolation_level=None`` (the store says
    when transactions begin)."""

    dialect = "sqlite"
    no_limit = -1
    errors_spoil_transaction = False

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Cursor:
        with _sqlite_errors():
            return _SQLiteCursor(self.raw.execute(sql, parameters))

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        with _sqlite_errors():
            self.raw.executemany(sql, rows)

    def begin(self, *, write: bool) -> None:
        self.execute("BEGIN IMMEDIATE" if write else "BEGIN")

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    def close(self) -> None:
        self.raw.close()


class _SQLiteCursor:
    """An ``sqlite3`` cursor whose errors are the store's (SQLite reports some, such as an
    integer overflow in a SUM, only as the rows are read)."""

    def __init__(self, raw: sqlite3.Cursor) -> None:
        self._raw = raw

    @property
    def rowcount(self) -> int:
        return self._raw.rowcount

    def fetchone(self) -> Any:
        with _sqlite_errors():
            return self._raw.fetchone()

    def fetchall(self) -> list[Any]:
        with _sqlite_errors():
            return self._raw.fetchall()

    def __iter__(self) -> Iterator[Any]:
        with _sqlite_errors():
            yield from self._raw


@contextmanager
def _sqlite_errors() -> Iterator[None]:
    try:
        yield
    except sqlite3.IntegrityError as error:
        raise Duplicate(str(error)) from None
    except (sqlite3.Error, OverflowError) as error:
        raise DriverError(str(error)) from None


_MARK = re.compile(r"\?")


class PostgresConnection(Connection):
    """A psycopg 3 connection in autocommit mode (the store says when transactions
    begin), its ``?`` parameters rewritten to ``%s``."""

    dialect = "postgresql"
    no_limit = None
    errors_spoil_transaction = True

    def __init__(self, raw: psycopg.Connection[Any]) -> None:
        import psycopg

        self.raw = raw
        self._psycopg = psycopg
        self._queries: dict[str, str] = {}

    def _query(self, sql: str) -> str:
        query = self._queries.get(sql)
        if query is None:
            if "%" in sql:
                raise ValueError(f"a store query with a literal '%' would be misread: {sql!r}")
            query = self._queries[sql] = _MARK.sub("%s", sql)
        return query

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Cursor:
        psycopg = self._psycopg
        try:
            cursor: Cursor = self.raw.execute(self._query(sql), parameters)
            return cursor
        except psycopg.errors.UniqueViolation as error:
            raise Duplicate(_message(error)) from None
        except psycopg.Error as error:
            raise DriverError(_message(error)) from None

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        psycopg = self._psycopg
        try:
            with self.raw.cursor() as cursor:
                cursor.executemany(self._query(sql), list(rows))
        except psycopg.errors.UniqueViolation as error:
            raise Duplicate(_message(error)) from None
        except psycopg.Error as error:
            raise DriverError(_message(error)) from None

    def begin(self, *, write: bool) -> None:
        self.execute("BEGIN" if write else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def write_script(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        # one query string, its parameters bound by psycopg on the client (ClientCursor
        # quotes them as literals): the server runs it in one round trip, and skips what
        # follows a failed statement, COMMIT included
        psycopg = self._psycopg
        query = "; ".join(["BEGIN", *(self._query(sql) for sql, _ in statements), "COMMIT"])
        values = [value for _, parameters in statements for value in parameters]
        try:
            with psycopg.ClientCursor(self.raw) as cursor:
                cursor.execute(query, values)
                counts = []
                while cursor.nextset():  # the first result is BEGIN's, the last COMMIT's
                    counts.append(cursor.rowcount)
        except psycopg.errors.UniqueViolation as error:
            self.rollback()
            raise Duplicate(_message(error)) from None
        except psycopg.Error as error:
            self.rollback()
            raise DriverError(_message(error)) from None
        except BaseException:
            self.rollback()
            raise
        return counts[: len(statements)]

    @property
    def in_transaction(self) -> bool:
        idle = self._psycopg.pq.TransactionStatus.IDLE
        return bool(self.raw.info.transaction_status != idle)

    @property
    def lost(self) -> bool:
        return bool(self.raw.closed)

    def close(self) -> None:
        self.raw.close()


def _message(error: Exception) -> str:
    """A driver's message on one line (psycopg adds the server's detail lines)."""
    return " ".join(str(error).split())
