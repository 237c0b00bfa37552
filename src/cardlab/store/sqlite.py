"""The store in an SQLite file: opening it for writing or for reading only, or in memory.

The checks made before a file is touched and the migrations are in
:mod:`cardlab.store.schema`; the queries are the store's, shared with PostgreSQL.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Literal

from cardlab.errors import StoreError
from cardlab.store._connection import SQLiteConnection
from cardlab.store.schema import SCHEMA_VERSION, inspect, migrate


def open_file(
    target: Path, *, timeout: float, synchronous: Literal["FULL", "NORMAL"]
) -> SQLiteConnection:
    """The store file at ``target`` for writing: checked by :func:`inspect`, created or
    migrated, in WAL mode."""
    if target.is_dir():
        raise StoreError(f"the hand store {str(target)!r} is a directory, expected a file")
    inspect(target)
    if target.exists():
        _check_writable(target)
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
    return SQLiteConnection(connection)


def open_read_only(target: Path, timeout: float, *, default: bool) -> SQLiteConnection:
    """The store file at ``target`` for reading only, leaving the file and its directory
    exactly as they are.

    No file yet (or an empty one): an empty store in memory (the directory of a path
    given must exist; the default one is made by the first write). A file at an older
    schema: a migrated copy in memory. Without a ``-wal`` file beside it (no writer has
    it open) the file is read as immutable, so that SQLite makes no ``-wal``/``-shm``
    files it could not remove again; a writer that starts meanwhile writes to its own
    WAL, and the main file changes only at a checkpoint."""
    if target.is_dir():
        raise StoreError(f"the hand store {str(target)!r} is a directory, expected a file")
    version = inspect(target).version
    label = repr(str(target))
    if version == 0:
        parent = target.parent
        if not default and not parent.is_dir():
            raise StoreError(f"cannot open the hand store {label}: no directory {str(parent)!r}")
        return empty_in_memory()
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
    return SQLiteConnection(connection)


def empty_in_memory() -> SQLiteConnection:
    """A new, empty store in memory."""
    connection = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA foreign_keys = ON")
    migrate(connection, ":memory:")
    return SQLiteConnection(connection)


def _check_writable(target: Path) -> None:
    """Refuse a store file this process may not write (its mode, a read-only disk): SQLite
    would open it read-only and fail only at the first write, after the work is done.
    Opening it for writing, as SQLite does, and closing it changes nothing."""
    try:
        os.close(os.open(target, os.O_RDWR))
    except OSError as error:
        raise StoreError(
            f"cannot write to the hand store {str(target)!r}: {error.strerror} "
            "(it was left as it is)"
        ) from None
