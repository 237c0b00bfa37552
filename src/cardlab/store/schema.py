"""The store's schema: versioned migrations, and the checks made before a file is touched.

``PRAGMA user_version`` holds the schema version (the number of migrations applied) and
``PRAGMA application_id`` marks a cardlab file. A released migration never changes: a new
schema is a new script appended to :data:`MIGRATIONS`, run in the same transaction that
bumps ``user_version``, so a file is always at one version or the next, never between.

Before a file is opened, :func:`inspect` reads it without writing: something that is not
a regular file (a FIFO would block, a device never ends), a file that is not SQLite,
another application's database, a file from a newer cardlab, one that fails
``PRAGMA quick_check``, or one that lacks a table or column its schema version has (a
table dropped by hand) is refused with a :class:`StoreError` naming the path.
"""

from __future__ import annotations

import sqlite3
import stat
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from cardlab.errors import StoreError

APPLICATION_ID = int.from_bytes(b"CLab", "big")
"""``PRAGMA application_id`` of a cardlab store (0x434c6162, the bytes ``CLab``)."""

SQLITE_MAGIC = b"SQLite format 3\x00"

MIGRATIONS: tuple[str, ...] = (
    # 1: played hands; one row per seat so players can be searched and totalled.
    """
    CREATE TABLE hands (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        phh TEXT NOT NULL,
        board TEXT NOT NULL,
        actions INTEGER NOT NULL CHECK (actions >= 0),
        showdown INTEGER NOT NULL CHECK (showdown IN (0, 1)),
        decided_by TEXT,
        source TEXT NOT NULL,
        played_at TEXT NOT NULL
    );
    CREATE INDEX hands_by_time ON hands (played_at, id);
    CREATE INDEX hands_by_game ON hands (game, played_at);
    CREATE TABLE seats (
        hand_id INTEGER NOT NULL REFERENCES hands (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL CHECK (seat >= 0),
        player TEXT NOT NULL,
        starting_stack INTEGER NOT NULL CHECK (starting_stack >= 0),
        finishing_stack INTEGER NOT NULL CHECK (finishing_stack >= 0),
        PRIMARY KEY (hand_id, seat)
    ) WITHOUT ROWID;
    CREATE INDEX seats_by_player ON seats (player);
    """,
    # 2: web tables (resumed after a restart), arena runs, and the table a hand was played at.
    """
    ALTER TABLE hands ADD COLUMN table_id TEXT;
    CREATE INDEX hands_by_table ON hands (table_id, played_at);
    CREATE INDEX hands_by_source ON hands (source, played_at);
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        config TEXT NOT NULL,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE TABLE arena_runs (
        id INTEGER PRIMARY KEY,
        config TEXT NOT NULL,
        results TEXT NOT NULL,
        played_at TEXT NOT NULL
    );
    """,
    # 3: tables that survive a restart mid-hand and deal fairly: the hand in play and its
    # actions (written before they are announced), the server seeds behind the deals
    # (secret until revealed), the ledger of chips brought to and taken from tables.
    """
    ALTER TABLE hands ADD COLUMN commitment TEXT;
    CREATE INDEX hands_by_commitment ON hands (table_id, commitment);
    ALTER TABLE tables ADD COLUMN closed_at TEXT;
    CREATE TABLE deal_seeds (
        table_id TEXT NOT NULL,
        commitment TEXT NOT NULL,
        server_seed TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revealed_at TEXT,
        PRIMARY KEY (table_id, commitment)
    );
    CREATE TABLE live_hands (
        table_id TEXT PRIMARY KEY,
        deal_number INTEGER NOT NULL CHECK (deal_number >= 0),
        start TEXT NOT NULL,
        clock_remaining REAL,
        clock_seq INTEGER,
        started_at TEXT NOT NULL
    );
    CREATE TABLE live_actions (
        table_id TEXT NOT NULL,
        seq INTEGER NOT NULL CHECK (seq >= 0),
        action TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (table_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE ledger (
        id INTEGER PRIMARY KEY,
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL CHECK (seat >= 0),
        player TEXT NOT NULL,
        kind TEXT NOT NULL,
        amount INTEGER NOT NULL,
        at TEXT NOT NULL
    );
    CREATE INDEX ledger_by_table ON ledger (table_id, id);
    """,
    # 4: the final standings of tournament tables
    """
    CREATE TABLE tournament_results (
        table_id TEXT NOT NULL,
        seat INTEGER NOT NULL CHECK (seat >= 0),
        place INTEGER NOT NULL CHECK (place >= 1),
        player TEXT NOT NULL,
        prize INTEGER NOT NULL CHECK (prize >= 0),
        out_hand INTEGER CHECK (out_hand >= 1),
        at TEXT NOT NULL,
        PRIMARY KEY (table_id, seat)
    ) WITHOUT ROWID;
    """,
    # 5: fencing tokens of web tables run by many processes (cardlab web --redis): the
    # highest token a lease holder claimed the table with; a lower one may not write
    """
    CREATE TABLE table_fences (
        table_id TEXT PRIMARY KEY,
        token INTEGER NOT NULL CHECK (token >= 1),
        claimed_at TEXT NOT NULL
    );
    """,
    # 6: notes and colour tags a browser keeps on other players, private to the writer
    # (``writer``: the SHA-256 of its cardlab_id cookie; ``subject``: the player's name key)
    """
    CREATE TABLE player_notes (
        writer TEXT NOT NULL,
        subject TEXT NOT NULL,
        name TEXT NOT NULL,
        note TEXT NOT NULL,
        colour TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (writer, subject)
    ) WITHOUT ROWID;
    """,
    # 7: multi-table tournaments (cardlab.web.mtt): the registrations, the draw, who sits
    # at which table and the places, as JSON; the tables themselves are rows of ``tables``
    """
    CREATE TABLE mtt_tournaments (
        id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        closed_at TEXT
    );
    """,
    # 8: the hands a browser imported from its own histories for its HUD, private to the
    # writer (``digest``: the SHA-256 of the PHH text, so a hand is kept once)
    """
    CREATE TABLE viewer_hands (
        writer TEXT NOT NULL,
        digest TEXT NOT NULL,
        phh TEXT NOT NULL,
        added_at TEXT NOT NULL,
        PRIMARY KEY (writer, digest)
    ) WITHOUT ROWID;
    """,
    # 9: the recent chat of each web table (cardlab.web.table_chat), written as it is sent
    # so that it survives a restart and a table changing process; ``author`` is the
    # SHA-256 of the writer's cardlab_id cookie, ``seat`` from 1 (NULL: a spectator's)
    """
    CREATE TABLE chat_lines (
        table_id TEXT NOT NULL,
        id INTEGER NOT NULL CHECK (id >= 1),
        name TEXT NOT NULL,
        seat INTEGER CHECK (seat >= 1),
        text TEXT NOT NULL,
        host INTEGER NOT NULL CHECK (host IN (0, 1)),
        author TEXT NOT NULL,
        at TEXT NOT NULL,
        PRIMARY KEY (table_id, id)
    ) WITHOUT ROWID;
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)
"""The schema version this cardlab writes (``PRAGMA user_version``)."""


@dataclass(frozen=True, slots=True)
class FileState:
    """What :func:`inspect` found: the file's schema version (0 for a new or empty file)."""

    version: int


def inspect(path: Path) -> FileState:
    """Check the file at ``path`` without writing to it; raise :class:`StoreError` if it
    must not be opened. A missing or empty file is a new store (version 0)."""
    try:
        # the type first: opening a FIFO blocks, a device is no place for a store
        regular = stat.S_ISREG(path.stat().st_mode)
        if regular:
            with path.open("rb") as file:
                header = file.read(100)
    except FileNotFoundError:
        return FileState(0)
    except OSError as error:
        raise StoreError(f"cannot read the hand store {str(path)!r}: {error.strerror}") from None
    except ValueError:  # a NUL in the name
        raise StoreError(f"cannot read the hand store {str(path)!r}: not a file name") from None
    if not regular:
        raise StoreError(f"the hand store {str(path)!r} is not a regular file")
    if not header:
        return FileState(0)
    if not header.startswith(SQLITE_MAGIC):
        raise StoreError(
            f"{str(path)!r} is not a cardlab hand store: not an SQLite database "
            f"(it starts with {header[:16]!r})"
        )
    if len(header) < 100:
        raise StoreError(
            f"{str(path)!r} is not a usable hand store: the SQLite header is cut short "
            f"({len(header)} of 100 bytes)"
        )
    # Header fields first (offsets from the SQLite file format), so that a newer or a
    # foreign file is refused before SQLite itself opens it.
    _check_marks(path, int.from_bytes(header[68:72], "big"), int.from_bytes(header[60:64], "big"))
    # Read-only. Without a WAL file beside it the file holds every commit, so it is read
    # as immutable: no -wal/-shm files are made next to a file that may be refused. If that
    # finds a problem and a WAL has appeared meanwhile (a writer started), read again
    # through the WAL before calling the file corrupt.
    wal = path.with_name(path.name + "-wal")
    if wal.exists():
        return FileState(_read_checks(path, immutable=False))
    try:
        return FileState(_read_checks(path, immutable=True))
    except StoreError:
        if not wal.exists():
            raise
    return FileState(_read_checks(path, immutable=False))


def _read_checks(path: Path, *, immutable: bool) -> int:
    """Check the file through SQLite without writing; return its schema version."""
    uri = f"{path.resolve().as_uri()}?mode=ro" + ("&immutable=1" if immutable else "")
    try:
        connection = sqlite3.connect(uri, uri=True)
    except sqlite3.Error as error:
        raise StoreError(f"cannot open the hand store {str(path)!r}: {error}") from None
    try:
        # Nothing here writes, and closing a read-only connection does not checkpoint.
        application_id = connection.execute("PRAGMA application_id").fetchone()[0]
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        _check_marks(path, application_id, version)
        tables = [
            name
            for (name,) in connection.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"
            )
        ]
        if application_id == 0 and tables:
            shown = ", ".join(tables[:5]) + (", ..." if len(tables) > 5 else "")
            raise StoreError(
                f"{str(path)!r} is not a cardlab hand store: an SQLite database of another "
                f"application (tables: {shown})"
            )
        problems = [row[0] for row in connection.execute("PRAGMA quick_check(5)")]
        if problems != ["ok"]:
            raise StoreError(
                f"the hand store {str(path)!r} is corrupt (quick_check: {'; '.join(problems)}); "
                "it was left as it is"
            )
        found = _columns(connection)
        if version == 0 and application_id == APPLICATION_ID and found:
            raise StoreError(
                f"the hand store {str(path)!r} is damaged: it has tables "
                f"({', '.join(sorted(found))}) but no schema version; it was left as it is"
            )
        missing = _missing(found, version)
        if missing:
            raise StoreError(
                f"the hand store {str(path)!r} is damaged: schema {version} has {missing}, "
                "the file has not; it was left as it is"
            )
    except sqlite3.DatabaseError as error:
        raise StoreError(
            f"the hand store {str(path)!r} is corrupt or unreadable ({error}); it was left as it is"
        ) from None
    finally:
        connection.close()
    return int(version)


def _columns(connection: sqlite3.Connection) -> dict[str, tuple[str, ...]]:
    """The tables of a database (cardlab's own, not SQLite's) and their columns."""
    tables = [
        name
        for (name,) in connection.execute(
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
        )
    ]
    return {
        name: tuple(
            row[1] for row in connection.execute("SELECT * FROM pragma_table_info(?)", (name,))
        )
        for name in tables
    }


@cache
def expected_columns(version: int) -> dict[str, tuple[str, ...]]:
    """The tables and columns the first ``version`` migrations make."""
    connection = sqlite3.connect(":memory:")
    try:
        for script in MIGRATIONS[:version]:
            connection.executescript(script)
        return _columns(connection)
    finally:
        connection.close()


def _missing(found: dict[str, tuple[str, ...]], version: int) -> str:
    """What the file lacks of its schema version, in words ("" if nothing); extra tables
    and columns are left alone."""
    want = expected_columns(version)
    tables = [name for name in want if name not in found]
    if tables:
        return f"the table{'s' if len(tables) > 1 else ''} {', '.join(tables)}"
    for name, columns in want.items():
        lacking = [c for c in columns if c not in found[name]]
        if lacking:
            return f"the column{'s' if len(lacking) > 1 else ''} {', '.join(lacking)} in {name}"
    return ""


def _check_marks(path: Path, application_id: int, version: int) -> None:
    if application_id not in (0, APPLICATION_ID):
        raise StoreError(
            f"{str(path)!r} is not a cardlab hand store: an SQLite database of another "
            f"application (application_id {application_id:#010x}, cardlab's is "
            f"{APPLICATION_ID:#010x})"
        )
    if version > SCHEMA_VERSION:
        raise StoreError(
            f"the hand store {str(path)!r} was written by a newer cardlab, schema "
            f"{version} > {SCHEMA_VERSION}; upgrade cardlab to open it (the file was left "
            "as it is)"
        )
    if application_id == 0 and version != 0:
        raise StoreError(
            f"{str(path)!r} is not a cardlab hand store: an SQLite database of another "
            f"application (user_version {version}, no cardlab application_id)"
        )


def migrate(connection: sqlite3.Connection, path: str) -> int:
    """Bring the database to :data:`SCHEMA_VERSION` in one write transaction; return the
    version it had. The version is read again under the write lock, so two processes
    opening a new file at once migrate it once."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:  # migrated by a newer cardlab since inspect()
            raise StoreError(
                f"the hand store {path!r} was written by a newer cardlab, schema "
                f"{version} > {SCHEMA_VERSION}; upgrade cardlab to open it"
            )
        for script in MIGRATIONS[version:]:
            # executescript() would commit first; run the statements one by one instead.
            for statement in _statements(script):
                connection.execute(statement)
        if version < SCHEMA_VERSION:
            connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    return int(version)


def _statements(script: str) -> list[str]:
    """The statements of a migration script, one per complete SQL statement."""
    statements: list[str] = []
    current = ""
    for line in script.splitlines(keepends=True):
        current += line
        if sqlite3.complete_statement(current):
            statements.append(current.strip())
            current = ""
    if current.strip():
        raise ValueError(f"incomplete statement in a migration: {current.strip()!r}")
    return statements
