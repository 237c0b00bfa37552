"""Hand-store files of every shape a user may hand to ``--db``, and a snapshot of a file
to show that a command left it as it was (shared by tests/store and the CLI tests).

:data:`SHAPES` makes each shape from nothing but SQLite and the schema's published marks
(:data:`APPLICATION_ID`, :data:`SCHEMA_VERSION`), so a test does not depend on the code
that should refuse it.
"""

from __future__ import annotations

import ctypes
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from cardlab.store import APPLICATION_ID, SCHEMA_VERSION, Store

Snapshot = tuple[bytes | list[str] | None, int, list[str], int]


def snapshot(path: Path) -> Snapshot:
    """What a command must leave as it was: the file's bytes (a directory's entries; of a
    FIFO nothing, as reading would block), its modification time, what sits beside it,
    and its type."""
    info = path.lstat()
    content: bytes | list[str] | None = None
    if stat.S_ISREG(info.st_mode):
        content = path.read_bytes()
    elif stat.S_ISDIR(info.st_mode):
        content = sorted(os.listdir(path))
    return content, info.st_mtime_ns, sorted(os.listdir(path.parent)), stat.S_IFMT(info.st_mode)


def sql(path: Path, *statements: str) -> None:
    """Run ``statements`` on the SQLite file at ``path`` (made if absent), each on its own."""
    connection = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in statements:
            connection.execute(statement)
    finally:
        connection.close()


def new_store(path: Path) -> Path:
    """An empty store of the current schema, closed (no -wal/-shm beside it)."""
    Store.open(path).close()
    return path


def _empty(path: Path) -> Path:
    path.touch()
    return path


def _not_sqlite(path: Path) -> Path:
    path.write_bytes(b"id,game\n1,standard52-holdem\n" * 20)
    return path


def _foreign(path: Path) -> Path:
    """Another program's database: no application id, tables of its own."""
    sql(
        path,
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)",
        "INSERT INTO notes VALUES (1, 'x')",
    )
    return path


def _foreign_id(path: Path) -> Path:
    """Another application's id (Fossil's), even with a ``hands`` table."""
    sql(path, "PRAGMA application_id = 252006673", "CREATE TABLE hands (id INTEGER)")
    return path


def _no_tables(path: Path) -> Path:
    """cardlab's id and version, every table missing."""
    sql(
        path,
        f"PRAGMA application_id = {APPLICATION_ID}",
        f"PRAGMA user_version = {SCHEMA_VERSION}",
        "CREATE TABLE other (x)",
        "DROP TABLE other",
    )
    return path


def _no_seats(path: Path) -> Path:
    sql(new_store(path), "DROP TABLE seats")
    return path


def _newer(path: Path) -> Path:
    sql(new_store(path), f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    return path


def _truncated(path: Path) -> Path:
    path.write_bytes(new_store(path).read_bytes()[:60])
    return path


def _directory(path: Path) -> Path:
    path.mkdir()
    return path


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


REFUSED: dict[str, tuple[Callable[[Path], Path], str]] = {
    # name: (how to make it at a path, a word the refusal must say)
    "not-sqlite": (_not_sqlite, "not an SQLite database"),
    "foreign": (_foreign, "another application"),
    "foreign-id": (_foreign_id, "another application"),
    "no-tables": (_no_tables, "has the tables"),
    "no-seats": (_no_seats, "has the table seats"),
    "newer": (_newer, "newer cardlab"),
    "truncated": (_truncated, "cut short"),
    "directory": (_directory, "is a directory"),
    "fifo": (_fifo, "not a regular file"),
}
"""Files every command refuses as a hand store, before reading or writing anything."""

SHAPES: dict[str, Callable[[Path], Path]] = {
    "empty": _empty,  # a new store: readers see no hands, writers make the store in it
    **{name: make for name, (make, _) in REFUSED.items()},
}


# -- file modes that hold for root too ----------------------------------------------------

_CAP_VERSION_3 = 0x20080522
_DAC = (1 << 1) | (1 << 2)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    ]


@contextmanager
def file_modes_hold() -> Iterator[None]:
    """Inside, a read-only file is read-only to this thread even when the tests run as
    root (as in a container): the thread's effective capabilities lose the override of
    file modes, and get it back after. Other threads and processes are not touched."""
    if os.geteuid() != 0:
        yield
        return
    libc = ctypes.CDLL(None, use_errno=True)
    header, data = _CapHeader(_CAP_VERSION_3, 0), (_CapData * 2)()

    def capset() -> None:
        if libc.capset(ctypes.byref(header), data) != 0:
            raise OSError(ctypes.get_errno(), "capset failed")

    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget failed")
    saved = data[0].effective
    data[0].effective = saved & ~_DAC
    capset()
    try:
        yield
    finally:
        data[0].effective = saved
        capset()
