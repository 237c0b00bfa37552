"""Store files of every broken shape, and opening for reading only.

A file with cardlab's application id can still lack what its schema version promises (a
table dropped by hand, a column gone): it is refused when opened, naming what is
missing, and left byte for byte as it was. Something that is not a regular file (a FIFO,
a device) is refused before it is opened, so nothing blocks. A store opened for reading
only never creates, migrates, or switches a file to WAL, and writes nothing beside it.
"""

import os
import sqlite3
from pathlib import Path

import pytest
from store_records import make_record

from _stores import snapshot as _snapshot
from _stores import sql as _sql
from _support import deadline
from cardlab.errors import StoreError
from cardlab.store import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION, Store, schema


def _store(path: Path, hands: int = 3) -> None:
    with Store.open(path) as store:
        store.add_hands([make_record(n) for n in range(hands)])


# -- the schema each version promises ---------------------------------------------------


def test_expected_columns_are_the_migrations_tables() -> None:
    """Read independently of the code under test: the CREATE TABLE names in the scripts."""
    import re

    for version in range(SCHEMA_VERSION + 1):
        created = {
            name
            for script in MIGRATIONS[:version]
            for name in re.findall(r"CREATE TABLE (\w+)", script)
        }
        assert set(schema.expected_columns(version)) == created
    hands = schema.expected_columns(SCHEMA_VERSION)["hands"]
    assert hands[:3] == ("id", "game", "variant") and hands[-2:] == ("table_id", "commitment")
    assert "table_id" not in schema.expected_columns(1)["hands"]


@pytest.mark.parametrize("table", sorted(schema.expected_columns(SCHEMA_VERSION)))
@pytest.mark.parametrize("read_only", [False, True], ids=["open", "read-only"])
def test_a_dropped_table_is_refused_and_untouched(
    tmp_path: Path, table: str, read_only: bool
) -> None:
    path = tmp_path / "dropped.sqlite3"
    _store(path)
    _sql(path, f"DROP TABLE {table}")
    before = _snapshot(path)
    with pytest.raises(StoreError) as caught:
        Store.open(path, read_only=read_only)
    message = str(caught.value)
    assert f"schema {SCHEMA_VERSION} has the table {table}, the file has not" in message
    assert str(path) in message and "left as it is" in message
    assert _snapshot(path) == before


def test_a_dropped_column_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "column.sqlite3"
    _store(path)
    _sql(path, "DROP INDEX hands_by_commitment", "ALTER TABLE hands DROP COLUMN commitment")
    before = _snapshot(path)
    with pytest.raises(StoreError, match="has the column commitment in hands, the file has not"):
        Store.open(path)
    assert _snapshot(path) == before


def test_an_older_file_missing_a_table_is_refused_before_migrating(tmp_path: Path) -> None:
    """A schema-1 file without seats: refused as schema 1, not migrated half-way."""
    path = tmp_path / "old.sqlite3"
    _sql(
        path,
        *[s for s in MIGRATIONS[0].split(";") if s.strip()],
        f"PRAGMA application_id = {APPLICATION_ID}",
        "PRAGMA user_version = 1",
        "DROP TABLE seats",
    )
    before = _snapshot(path)
    with pytest.raises(StoreError, match="schema 1 has the table seats"):
        Store.open(path)
    assert _snapshot(path) == before


def test_cardlab_id_without_a_version_but_with_tables_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "noversion.sqlite3"
    _store(path)
    _sql(path, "PRAGMA user_version = 0")
    before = _snapshot(path)
    with pytest.raises(StoreError, match=r"has tables \(.*hands.*\) but no schema version"):
        Store.open(path)
    assert _snapshot(path) == before


def test_extra_tables_of_the_user_are_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "extra.sqlite3"
    _store(path)
    _sql(path, "CREATE TABLE notes (text TEXT)")
    with Store.open(path) as store:
        assert store.count_hands() == 3


# -- not a regular file -------------------------------------------------------------------


@pytest.mark.parametrize("read_only", [False, True], ids=["open", "read-only"])
def test_fifo_and_devices_are_refused_without_blocking(tmp_path: Path, read_only: bool) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/null"), Path("/dev/zero")):
        with deadline(10), pytest.raises(StoreError, match="is not a regular file"):
            Store.open(path, read_only=read_only)


# -- reading only ---------------------------------------------------------------------------


def test_read_only_leaves_a_rollback_journal_file_as_it_is(tmp_path: Path) -> None:
    """A store file in rollback-journal mode (as another tool may leave it) is read without
    being switched to WAL, and nothing is written beside it."""
    path = tmp_path / "journal.sqlite3"
    _store(path, hands=5)
    _sql(path, "PRAGMA journal_mode = DELETE")
    before = _snapshot(path)
    with Store.open(path, read_only=True) as store:
        assert store.read_only
        assert store.count_hands() == 5 and len(store.hands(limit=2)) == 2
        assert store.hand(1).players == make_record(0).players
        assert store.stats()["standard52-holdem"].hands == 5
        assert len(list(store.iter_hands(chunk=2))) == 5
    assert _snapshot(path) == before
    connection = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    connection.close()


def test_read_only_wal_file_gains_no_side_files(tmp_path: Path) -> None:
    path = tmp_path / "wal.sqlite3"
    _store(path)
    before = _snapshot(path)
    assert before[2] == ["wal.sqlite3"]  # a closed store leaves no -wal/-shm
    with Store.open(path, read_only=True) as store:
        assert store.count_hands() == 3
    assert _snapshot(path) == before


def test_read_only_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "ro.sqlite3"
    _store(path)
    before = _snapshot(path)
    with Store.open(path, read_only=True) as store:
        for write in (
            lambda: store.add_hand(make_record(9)),
            lambda: store.add_arena_run({}, {"hands": 1}),
        ):
            with pytest.raises(StoreError, match="open for reading only"):
                write()
        assert store.count_hands() == 3
    assert _snapshot(path) == before


def test_read_only_missing_file_is_an_empty_store_and_no_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.sqlite3"
    with Store.open(path, read_only=True) as store:
        assert store.count_hands() == 0 and store.hands() == [] and store.stats() == {}
        assert store.path == path
    assert os.listdir(tmp_path) == []
    with pytest.raises(StoreError, match="no directory"):
        Store.open(tmp_path / "nowhere" / "x.sqlite3", read_only=True)


def test_read_only_older_schema_is_read_through_a_migrated_copy(tmp_path: Path) -> None:
    """A schema-1 file: its hands are read (with schema 4's columns empty), the file stays
    at schema 1, byte for byte."""
    path = tmp_path / "v1.sqlite3"
    record = make_record(7)
    _sql(
        path,
        *[s for s in MIGRATIONS[0].split(";") if s.strip()],
        f"PRAGMA application_id = {APPLICATION_ID}",
        "PRAGMA user_version = 1",
    )
    connection = sqlite3.connect(path)
    connection.execute(
        "INSERT INTO hands (id, game, variant, phh, board, actions, showdown, decided_by,"
        " source, played_at) VALUES (1, ?, 'NT', ?, '', 3, 0, NULL, 'play',"
        " '2026-01-02T03:04:05.000006Z')",
        (record.game, record.phh),
    )
    connection.executemany(
        "INSERT INTO seats VALUES (1, ?, ?, ?, ?)",
        [
            (seat, *row)
            for seat, row in enumerate(
                zip(record.players, record.starting_stacks, record.finishing_stacks, strict=True)
            )
        ],
    )
    connection.commit()
    connection.close()
    before = _snapshot(path)
    with Store.open(path, read_only=True) as store:
        old = store.hand(1)
        assert (old.players, old.table_id, old.commitment) == (record.players, None, None)
    assert _snapshot(path) == before
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 1


def test_read_only_sees_a_writer_that_has_the_file_open(tmp_path: Path) -> None:
    """With a writer's WAL beside the file, the reader reads through it: hands committed
    but not yet checkpointed are seen."""
    path = tmp_path / "shared.sqlite3"
    with Store.open(path) as writer:
        writer.add_hands([make_record(n) for n in range(2)])
        writer.add_hand(make_record(5))
        assert (tmp_path / "shared.sqlite3-wal").exists()
        with Store.open(path, read_only=True) as reader:
            assert reader.count_hands() == 3
