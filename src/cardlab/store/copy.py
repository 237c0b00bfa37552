"""Copying one store into another (an SQLite file into PostgreSQL, or back): every row of
every table, with its ids and times, so that the copy is the same store.

:func:`copy_store` first checks that every row the target already holds is the source's
own row (same key, same values), and refuses, before writing anything, a target that
holds anything else; then it writes the source's rows the target lacks, a chunk per
transaction (a hand always with its seats). So a copy can be run again: after an
interrupted copy it writes the rest, after a finished one nothing. Copy a store that no
process is writing to (the web server stopped): rows that change meanwhile make the
second run refuse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from cardlab.errors import StoreError
from cardlab.store import postgres
from cardlab.store._connection import Connection
from cardlab.store.schema import SCHEMA_VERSION, expected_columns
from cardlab.store.store import Store

KEYS: dict[str, tuple[str, ...]] = {
    "hands": ("id",),
    "seats": ("hand_id", "seat"),
    "tables": ("id",),
    "arena_runs": ("id",),
    "deal_seeds": ("table_id", "commitment"),
    "live_hands": ("table_id",),
    "live_actions": ("table_id", "seq"),
    "ledger": ("id",),
    "tournament_results": ("table_id", "seat"),
    "table_fences": ("table_id",),
    "player_notes": ("writer", "subject"),
    "mtt_tournaments": ("id",),
    "viewer_hands": ("writer", "digest"),
    "chat_lines": ("table_id", "id"),
}
"""Every table of the store, in the order it is copied, and its primary key."""


@dataclass(frozen=True, slots=True)
class CopyReport:
    """Rows written to the target per table, and rows it already had."""

    copied: dict[str, int]
    present: dict[str, int]


def copy_store(
    source: Store,
    target: Store,
    *,
    chunk: int = 1000,
    progress: Callable[[int, int], None] | None = None,
) -> CopyReport:
    """Copy every row of ``source`` that ``target`` lacks (see the module docs);
    ``progress(rows done, rows in all)`` is told after each chunk. :class:`StoreError` if
    both are the same store or ``target`` holds rows that are not ``source``'s."""
    if chunk < 1:
        raise StoreError(f"chunk must be at least 1, got {chunk!r}")
    if source.location is not None and source.location == target.location:
        raise StoreError(f"cannot copy the hand store {source.location!r} into itself")
    if target.read_only:
        raise StoreError(f"the hand store {target.location!r} is open for reading only")
    columns = expected_columns(SCHEMA_VERSION)
    if set(columns) != set(KEYS):  # a new table must be added to KEYS
        raise AssertionError(f"copy knows {sorted(KEYS)}, the schema has {sorted(columns)}")
    for table in KEYS:
        _check_rows_are_sources(source, target, table, columns[table], chunk)
    total = sum(_count(source, table) for table in KEYS)
    copied = dict.fromkeys(KEYS, 0)
    present = dict.fromkeys(KEYS, 0)
    done = 0
    for table in KEYS:
        if table == "seats":
            continue  # copied with their hands
        for rows in _chunks(source, table, columns[table], chunk):
            written, seen, seats_written, seats_seen = _write_chunk(
                source, target, table, columns, rows
            )
            copied[table] += written
            present[table] += seen
            copied["seats"] += seats_written
            present["seats"] += seats_seen
            done += len(rows) + seats_written + seats_seen
            if progress is not None:
                progress(done, total)
    connection = target._open_connection()
    if connection.dialect == "postgresql":
        with target.transaction():
            postgres.sync_identities(connection)
    if progress is not None:
        progress(total, total)
    return CopyReport(copied, present)


def _write_chunk(
    source: Store,
    target: Store,
    table: str,
    columns: dict[str, tuple[str, ...]],
    rows: list[tuple[Any, ...]],
) -> tuple[int, int, int, int]:
    """Write the rows (and for hands their seats) the target lacks, in one transaction;
    (rows written, rows present, seats written, seats present)."""
    key = KEYS[table]
    names = columns[table]
    positions = [names.index(k) for k in key]
    first = tuple(rows[0][p] for p in positions)
    last = tuple(rows[-1][p] for p in positions)
    seat_rows: list[tuple[Any, ...]] = []
    if table == "hands":
        with source._reading() as connection:
            seat_rows = _range(connection, "seats", columns["seats"], ("hand_id",), first, last)
    with target.transaction():
        connection = target._open_connection()
        have = set(_range_keys(connection, table, key, first, last))
        missing = [row for row in rows if tuple(row[p] for p in positions) not in have]
        _insert(connection, table, names, missing)
        seats_missing: list[tuple[Any, ...]] = []
        if seat_rows:
            seat_have = set(
                _range_keys(connection, "seats", KEYS["seats"], first, last, by=("hand_id",))
            )
            at = [columns["seats"].index(k) for k in KEYS["seats"]]
            seats_missing = [row for row in seat_rows if tuple(row[p] for p in at) not in seat_have]
            _insert(connection, "seats", columns["seats"], seats_missing)
    return (
        len(missing),
        len(rows) - len(missing),
        len(seats_missing),
        len(seat_rows) - len(seats_missing),
    )


def _check_rows_are_sources(
    source: Store, target: Store, table: str, names: tuple[str, ...], chunk: int
) -> None:
    """Refuse a target holding a row of ``table`` that the source has not, or has with
    other values."""
    key = KEYS[table]
    positions = [names.index(k) for k in key]
    for rows in _chunks(target, table, names, chunk):
        first = tuple(rows[0][p] for p in positions)
        last = tuple(rows[-1][p] for p in positions)
        with source._reading() as connection:
            theirs = {
                tuple(row[p] for p in positions): tuple(row)
                for row in _range(connection, table, names, key, first, last)
            }
        for row in rows:
            row_key = tuple(row[p] for p in positions)
            if theirs.get(row_key) != tuple(row):
                what = "differs from" if row_key in theirs else "is not in"
                shown = row_key[0] if len(row_key) == 1 else row_key
                raise StoreError(
                    f"the hand store {target.location!r} holds other content than "
                    f"{source.location!r}: its {table} row {shown!r} {what} the source; "
                    "copy into an empty store (or one holding only the source's rows); "
                    "nothing was written"
                )


def _chunks(
    store: Store, table: str, names: tuple[str, ...], size: int
) -> Iterator[list[tuple[Any, ...]]]:
    """Every row of ``table`` in key order, ``size`` rows at a time."""
    key = KEYS[table]
    positions = [names.index(k) for k in key]
    keys = ", ".join(key)
    after: tuple[Any, ...] | None = None
    while True:
        where = "" if after is None else f" WHERE ({keys}) > ({_marks(key)})"
        with store._reading() as connection:
            rows = [
                tuple(row)
                for row in connection.execute(
                    f"SELECT {', '.join(names)} FROM {table}{where} ORDER BY {keys} LIMIT ?",
                    (*(after or ()), size),
                ).fetchall()
            ]
        if rows:
            yield rows
        if len(rows) < size:
            return
        after = tuple(rows[-1][p] for p in positions)


def _range(
    connection: Connection,
    table: str,
    names: tuple[str, ...],
    by: tuple[str, ...],
    first: tuple[Any, ...],
    last: tuple[Any, ...],
) -> list[tuple[Any, ...]]:
    """The rows of ``table`` whose ``by`` columns lie from ``first`` to ``last``."""
    keys = ", ".join(by)
    return [
        tuple(row)
        for row in connection.execute(
            f"SELECT {', '.join(names)} FROM {table}"
            f" WHERE ({keys}) >= ({_marks(by)}) AND ({keys}) <= ({_marks(by)})"
            f" ORDER BY {', '.join(KEYS[table])}",
            (*first, *last),
        ).fetchall()
    ]


def _range_keys(
    connection: Connection,
    table: str,
    key: tuple[str, ...],
    first: tuple[Any, ...],
    last: tuple[Any, ...],
    *,
    by: tuple[str, ...] | None = None,
) -> list[tuple[Any, ...]]:
    return _range(connection, table, key, by or key, first, last)


def _insert(
    connection: Connection, table: str, names: tuple[str, ...], rows: Sequence[tuple[Any, ...]]
) -> None:
    if rows:
        connection.executemany(
            f"INSERT INTO {table} ({', '.join(names)}) VALUES ({_marks(names)})", rows
        )


def _count(store: Store, table: str) -> int:
    with store._reading() as connection:
        return int(connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])


def _marks(names: Sequence[str]) -> str:
    return ", ".join("?" * len(names))
