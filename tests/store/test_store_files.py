"""The store's file: where it lives, migrations, and files it must refuse and never touch."""

import hashlib
import os
import sqlite3
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from store_records import check_whole, make_record

from cardlab.errors import StoreError
from cardlab.store import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, Store, default_path, schema

# A released migration never changes (files in the wild were made by it): its text is
# pinned here. A new schema is a new script at the end of MIGRATIONS.
RELEASED = {
    1: "2abbdcdcfab6302922edc58689a02d06e444454849a767675ac397450ae75394",
    2: "824a7dfab68331ccccb477e432c44b1da347243a786a508c2a4c652cab10d043",
    3: "3cccfa587b075e0619205ebd46312093185cf3765dff5436c7e70e26d2d279a6",
    4: "a85ef6e82194ede377fc2e0a9bc6dbf88bb8e746c6b906822c5db0ad5f89395e",
    5: "a8d7094d3f286704b1586d7d2d59760b63f95f34ea122f0330a76ad6d5542b48",
    6: "8dfeee652a0aacd351eada86587d1b242e7f64b021926703048d6fbe16113dc3",
    7: "77d55904d9a8cfe2fdcea0b395779b0c53f07a452675d0d7bd65402e1970649e",
    8: "facd212fb761ccaa72fd6ed327704b2982181e07b27892198373499c69d4d6b8",
}


def test_released_migrations_are_unchanged() -> None:
    assert SCHEMA_VERSION == len(MIGRATIONS) >= len(RELEASED)
    for version, digest in RELEASED.items():
        assert hashlib.sha256(MIGRATIONS[version - 1].encode()).hexdigest() == digest


def _pragma(path: Path, name: str) -> object:
    connection = sqlite3.connect(path)
    try:
        return connection.execute(f"PRAGMA {name}").fetchone()[0]
    finally:
        connection.close()


def _snapshot(path: Path) -> tuple[bytes, int, list[str]]:
    """The file's bytes, its modification time and what sits beside it."""
    return path.read_bytes(), path.stat().st_mtime_ns, sorted(os.listdir(path.parent))


# -- where the file lives -------------------------------------------------------------------


def test_env_var_chooses_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDLAB_DB", str(tmp_path / "mine.sqlite3"))
    assert default_path() == tmp_path / "mine.sqlite3"
    with Store.open() as store:
        store.add_hand(make_record(0))
    assert _pragma(tmp_path / "mine.sqlite3", "application_id") == APPLICATION_ID


@pytest.mark.skipif(sys.platform != "linux", reason="XDG_DATA_HOME is the Linux convention")
def test_default_file_is_in_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CARDLAB_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_path() == tmp_path / "data" / "cardlab" / "cardlab.sqlite3"
    with Store.open() as store:  # the directory is made on first use
        assert store.path == tmp_path / "data" / "cardlab" / "cardlab.sqlite3"
    assert _pragma(store.path, "user_version") == SCHEMA_VERSION


def test_new_file_settings(tmp_path: Path) -> None:
    path = tmp_path / "hands.sqlite3"
    with Store.open(path) as store:
        assert store.version == SCHEMA_VERSION
        connection = store._connection
        assert connection is not None
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
        assert connection.execute("PRAGMA foreign_keys").fetchone()[0] == 1
        assert connection.execute("PRAGMA busy_timeout").fetchone()[0] == 30000
    assert _pragma(path, "user_version") == SCHEMA_VERSION
    assert _pragma(path, "application_id") == int.from_bytes(b"CLab", "big")


def test_missing_directory_and_directory_path(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="cannot open the hand store"):
        Store.open(tmp_path / "nowhere" / "hands.sqlite3")
    with pytest.raises(StoreError, match="is a directory"):
        Store.open(tmp_path)


def test_empty_files_become_stores(tmp_path: Path) -> None:
    (tmp_path / "zero.sqlite3").touch()
    sqlite3.connect(tmp_path / "blank.sqlite3").execute(
        "PRAGMA user_version = 0"
    ).connection.close()
    for name in ("zero.sqlite3", "blank.sqlite3"):
        with Store.open(tmp_path / name) as store:
            store.add_hand(make_record(1))
        assert _pragma(tmp_path / name, "user_version") == SCHEMA_VERSION


# -- migrations -----------------------------------------------------------------------------


def _version_1_file(path: Path) -> None:
    """A store as cardlab with schema 1 made it, holding one hand written by that schema."""
    record = make_record(7)
    connection = sqlite3.connect(path)
    connection.executescript(MIGRATIONS[0])
    connection.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    connection.execute("PRAGMA user_version = 1")
    connection.execute(
        "INSERT INTO hands (id, game, variant, phh, board, actions, showdown, decided_by,"
        " source, played_at) VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, '2026-01-02T03:04:05.000006Z')",
        (
            record.game,
            record.variant,
            record.phh,
            record.board,
            record.actions,
            1,
            "showdown",
            "play",
        ),
    )
    for seat, (player, start, finish) in enumerate(
        zip(record.players, record.starting_stacks, record.finishing_stacks, strict=True)
    ):
        connection.execute(
            "INSERT INTO seats VALUES (1, ?, ?, ?, ?)", (seat, player, start, finish)
        )
    connection.commit()
    connection.close()


def test_migration_from_version_1(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _version_1_file(path)
    assert _pragma(path, "user_version") == 1
    with Store.open(path) as store:
        old = store.hand(1)
        check_whole(old)
        assert (old.table_id, old.source, old.showdown) == (None, "play", True)
        assert old.played_at.isoformat() == "2026-01-02T03:04:05.000006+00:00"
        # what schema 2 added works on the migrated file
        new_id = store.add_hand(make_record(8, table_id="blue"))
        store.save_table("blue", {"seats": 3}, {"stacks": [1, 2, 3]})
        store.add_arena_run({}, {"hands": 1})
        assert [r.id for r in store.hands(table_id="blue")] == [new_id]
    assert _pragma(path, "user_version") == SCHEMA_VERSION
    assert _pragma(path, "integrity_check") == "ok"


def test_failed_migration_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "old.sqlite3"
    _version_1_file(path)
    broken = (*MIGRATIONS, "CREATE TABLE later (a);\nTHIS IS NOT SQL;\n")
    monkeypatch.setattr(schema, "MIGRATIONS", broken)
    monkeypatch.setattr(schema, "SCHEMA_VERSION", len(broken))
    with pytest.raises(StoreError, match="cannot open the hand store"):
        Store.open(path)
    # neither schema 2 nor the first statement of 3 stayed: all in one transaction
    assert _pragma(path, "user_version") == 1
    connection = sqlite3.connect(path)
    names = {row[0] for row in connection.execute("SELECT name FROM sqlite_schema")}
    connection.close()
    assert "later" not in names and "tables" not in names
    monkeypatch.undo()
    with Store.open(path) as store:
        assert store.count_hands() == 1


# -- files refused and left alone ------------------------------------------------------------


def _a_store(path: Path, hands: int = 1) -> None:
    with Store.open(path) as store:
        store.add_hands([make_record(n, actions=60) for n in range(hands)])


def test_newer_schema_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    _a_store(path)
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 7}")
    connection.close()
    before = _snapshot(path)
    with pytest.raises(StoreError) as caught:
        Store.open(path)
    message = str(caught.value)
    assert str(path) in message
    assert f"written by a newer cardlab, schema {SCHEMA_VERSION + 7} > {SCHEMA_VERSION}" in message
    assert _snapshot(path) == before


def test_newer_schema_still_in_the_wal_is_refused(tmp_path: Path) -> None:
    """A newer cardlab still running: its version is in the WAL, not yet in the header."""
    path = tmp_path / "new.sqlite3"
    _a_store(path)
    newer = sqlite3.connect(path, isolation_level=None)
    newer.execute("PRAGMA wal_autocheckpoint = 0")
    newer.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    main_file = path.read_bytes()
    assert int.from_bytes(main_file[60:64], "big") == SCHEMA_VERSION  # header not updated
    with pytest.raises(StoreError, match="written by a newer cardlab"):
        Store.open(path)
    assert path.read_bytes() == main_file
    newer.close()


def test_not_sqlite_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("variant = 'NT'\n" * 20)
    before = _snapshot(path)
    with pytest.raises(StoreError, match=r"not a cardlab hand store: not an SQLite database"):
        Store.open(path)
    assert _snapshot(path) == before


def test_another_applications_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE contacts (name TEXT)")
    connection.commit()
    connection.close()
    before = _snapshot(path)
    with pytest.raises(StoreError, match=r"another application \(tables: contacts\)"):
        Store.open(path)
    assert _snapshot(path) == before

    marked = tmp_path / "marked.sqlite3"
    connection = sqlite3.connect(marked)
    connection.execute("PRAGMA application_id = 305419896")  # 0x12345678
    connection.close()
    before = _snapshot(marked)
    with pytest.raises(StoreError, match="application_id 0x12345678, cardlab's is 0x434c6162"):
        Store.open(marked)
    assert _snapshot(marked) == before


def test_truncated_store_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "cut.sqlite3"
    _a_store(path, hands=200)
    whole = path.read_bytes()
    assert len(whole) > 20 * 4096
    for keep in (50, len(whole) // 2, len(whole) - 4096):
        path.write_bytes(whole[:keep])
        before = _snapshot(path)
        with pytest.raises(StoreError, match=r"cut short|corrupt"):
            Store.open(path)
        assert _snapshot(path) == before


def test_damaged_page_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "damaged.sqlite3"
    _a_store(path, hands=200)
    data = bytearray(path.read_bytes())
    page = 4096
    middle = (len(data) // page // 2) * page
    data[middle : middle + 64] = b"\xa5" * 64  # a b-tree page header overwritten
    path.write_bytes(bytes(data))
    before = _snapshot(path)
    with pytest.raises(StoreError, match="is corrupt") as caught:
        Store.open(path)
    assert str(path) in str(caught.value)
    assert _snapshot(path) == before


@settings(max_examples=60, deadline=None)
@given(st.binary(min_size=1, max_size=600), st.booleans())
def test_fuzzed_files_are_refused_not_crashed(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, magic: bool
) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3"
    path.write_bytes((schema.SQLITE_MAGIC if magic else b"") + data)
    before = _snapshot(path)
    with pytest.raises(StoreError):
        Store.open(path)
    assert _snapshot(path) == before


def test_migration_from_version_2_keeps_tables_and_hands(tmp_path: Path) -> None:
    """A schema-2 file with a web table and a hand opens at the current schema with both
    intact, the table open, no hand in play and no tournament results."""
    path = tmp_path / "v2.sqlite3"
    _version_1_file(path)
    connection = sqlite3.connect(path)
    for statement in MIGRATIONS[1].split(";"):
        if statement.strip():
            connection.execute(statement)
    connection.execute("PRAGMA user_version = 2")
    connection.execute(
        "INSERT INTO tables VALUES ('t1', '{\"game\": \"fesca78-holdem\"}', '{\"stacks\": [5]}',"
        " '2026-01-02T03:04:05.000006Z', '2026-01-02T03:04:05.000006Z')"
    )
    connection.commit()
    connection.close()
    with Store.open(path) as store:
        assert store.hand(1).commitment is None
        (table,) = store.tables()
        assert (table.table_id, table.state, table.closed_at) == ("t1", {"stacks": [5]}, None)
        assert store.live_hand("t1") is None
        assert store.ledger("t1") == []
        assert store.results("t1") == []
    assert _pragma(path, "user_version") == SCHEMA_VERSION
