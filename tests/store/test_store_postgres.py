"""The PostgreSQL store's own promises: its schema is SQLite's, its mark, and databases it
must refuse and leave untouched (the SQLite file's counterparts are in test_store_files
and test_store_shapes)."""

from __future__ import annotations

import hashlib
import threading
from typing import Any

import psycopg
import pytest
from store_records import make_record

from _postgres import PostgresServer
from cardlab.errors import StoreError
from cardlab.store import MIGRATIONS, SCHEMA_VERSION, Store, schema
from cardlab.store import postgres as pg

RELEASED = {
    1: "6422989b12552f2dd367dbfa83826b8b92eec3e43acfa81882967138df0a1a33",
    2: "563fbddfaa7d4e4b72302c24e1ba4ea5a520ab71e8bee38b2fbde906c48e6aac",
    3: "3bbfda520028862a21bf8c92e2e8dce497745261d7f50c88302bf23f9e06a694",
    4: "5505b4df948569dac952115b05c4ba68be304e9df7c3bef1724e49e0e4afd0eb",
    5: "7c387312375236c7c827b720afe68f5e728c1c8836ea798355adaf79c82d879f",
    6: "9df63b4d605b2bb112e025aeabf0a3847ed6915d4e550a6190fb60daef58f498",
    7: "9b1a95eae2a7402212f4f75e061003442534c42aa4beea3dbf17ff8da147c30c",
    8: "25758e95d230dd05e0d595aacb9013541872411761f8a12d7350b81f6a93e2f7",
}


def _sql(url: str, sql: str, parameters: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with psycopg.connect(url, autocommit=True) as connection:
        cursor = connection.execute(sql, parameters)  # type: ignore[call-overload]
        return list(cursor.fetchall()) if cursor.description else []


def _dump(url: str) -> list[tuple[Any, ...]]:
    """Every table of the store's schema with its columns and rows: what "untouched"
    means."""
    tables = [
        name
        for (name,) in _sql(
            url,
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = current_schema() ORDER BY table_name",
        )
    ]
    dump: list[tuple[Any, ...]] = []
    for table in tables:
        columns = _sql(
            url,
            "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = %s ORDER BY ordinal_position",
            (table,),
        )
        rows = sorted(_sql(url, f'SELECT * FROM "{table}"'), key=repr)
        dump.append((table, tuple(columns), tuple(rows)))
    return dump


def _pg_columns(url: str) -> dict[str, tuple[str, ...]]:
    found: dict[str, list[str]] = {}
    for table, column in _sql(
        url,
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position",
    ):
        found.setdefault(table, []).append(column)
    return {name: tuple(columns) for name, columns in found.items()}


def test_postgres_migrations_make_sqlites_tables(postgres_server: PostgresServer) -> None:
    """Version by version, the PostgreSQL scripts make the tables and columns (in order)
    that the SQLite scripts make."""
    assert len(pg.POSTGRES_MIGRATIONS) == len(MIGRATIONS) == SCHEMA_VERSION
    url = postgres_server.new_schema()
    for version in range(1, SCHEMA_VERSION + 1):
        for statement in pg.statements(pg.POSTGRES_MIGRATIONS[version - 1]):
            _sql(url, statement)
        assert _pg_columns(url) == schema.expected_columns(version)


def test_released_postgres_migrations_are_unchanged() -> None:
    digests = {
        version: hashlib.sha256(script.encode()).hexdigest()
        for version, script in enumerate(pg.POSTGRES_MIGRATIONS, start=1)
    }
    assert {v: digests[v] for v in RELEASED} == RELEASED


def test_a_new_database_is_marked_and_migrated(postgres_url: str) -> None:
    with Store.open(postgres_url) as store:
        assert store.dialect == "postgresql"
        assert store.path is None and store.location == postgres_url
        assert repr(store) == f"<Store {postgres_url!r} (open)>"
    meta = dict(_sql(postgres_url, "SELECT key, value FROM cardlab_meta"))
    assert meta == {"application": "cardlab", "schema_version": str(SCHEMA_VERSION)}
    columns = _pg_columns(postgres_url)
    assert columns.pop("cardlab_meta") == ("key", "value")
    assert columns == schema.expected_columns(SCHEMA_VERSION)


def test_chips_and_ids_are_64_bit(postgres_url: str) -> None:
    """PostgreSQL's INTEGER has 32 bits; the store's chips need SQLite's 64."""
    big = 2**63 - 1
    record = make_record(1)
    record = record.__class__(
        **{
            **{k: getattr(record, k) for k in record.__dataclass_fields__},
            "starting_stacks": (big, 0, 1),
            "finishing_stacks": (0, big, 1),
            "actions": big,
        }
    )
    with Store.open(postgres_url) as store:
        hand_id = store.add_hand(record)
        assert store.hand(hand_id).finishing_stacks == (0, big, 1)
        assert {p.name: p.net for p in store.stats()[record.game].players} == {
            "test-p0": -big,
            "test-p1": big,
            "test-p2": 0,
        }


def test_text_order_is_byte_order_whatever_the_locale(postgres_server: PostgresServer) -> None:
    """Tables are listed by id and hands by time as SQLite orders text (by code point),
    in a database whose locale would order them otherwise."""
    name = f"locale_{id(postgres_server)}"
    postgres_server.admin(
        f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8'"
        " LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'"
    )
    url = postgres_server.url(name)
    ids = ["b", "B", "a", "A", "_x", "é", "Z"]
    with Store.open(url) as store:
        for table_id in ids:
            store.save_table(table_id, {}, {})
        assert [t.table_id for t in store.tables()] == sorted(ids)
    # the database's own order differs, so the test can fail
    assert [r[0] for r in _sql(url, 'SELECT id COLLATE "default" FROM tables ORDER BY 1')] != (
        sorted(ids)
    )


# -- databases refused and left as they were --------------------------------------------------


def test_another_applications_database_is_refused_and_untouched(postgres_url: str) -> None:
    _sql(postgres_url, "CREATE TABLE contacts (name TEXT, phone TEXT)")
    _sql(postgres_url, "INSERT INTO contacts VALUES ('ann', '555')")
    before = _dump(postgres_url)
    for read_only in (False, True):
        with pytest.raises(StoreError, match=r"another application \(tables: contacts"):
            Store.open(postgres_url, read_only=read_only)
    assert _dump(postgres_url) == before


def test_a_meta_table_of_another_application_is_refused(postgres_url: str) -> None:
    _sql(postgres_url, "CREATE TABLE cardlab_meta (key TEXT PRIMARY KEY, value TEXT)")
    _sql(postgres_url, "INSERT INTO cardlab_meta VALUES ('application', 'other')")
    before = _dump(postgres_url)
    with pytest.raises(StoreError, match="says application 'other'"):
        Store.open(postgres_url)
    assert _dump(postgres_url) == before


def test_a_newer_schema_is_refused_and_untouched(postgres_url: str) -> None:
    with Store.open(postgres_url) as store:
        store.add_hand(make_record(1))
    _sql(postgres_url, "UPDATE cardlab_meta SET value = %s WHERE key = 'schema_version'",
         (str(SCHEMA_VERSION + 1),))  # fmt: skip
    before = _dump(postgres_url)
    for read_only in (False, True):
        with pytest.raises(StoreError, match=f"newer cardlab, schema {SCHEMA_VERSION + 1} >"):
            Store.open(postgres_url, read_only=read_only)
    assert _dump(postgres_url) == before


def test_a_dropped_table_is_refused_and_untouched(postgres_url: str) -> None:
    Store.open(postgres_url).close()
    _sql(postgres_url, "DROP TABLE ledger")
    before = _dump(postgres_url)
    with pytest.raises(StoreError, match=f"damaged: schema {SCHEMA_VERSION} has the table ledger"):
        Store.open(postgres_url)
    assert _dump(postgres_url) == before


def test_a_database_that_is_not_utf8_is_refused(postgres_server: PostgresServer) -> None:
    name = f"latin_{id(postgres_server)}"
    postgres_server.admin(f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'LATIN1' LOCALE 'C'")
    with pytest.raises(StoreError, match="must be a UTF8 database, this one is LATIN1"):
        Store.open(postgres_server.url(name))
    assert _dump(postgres_server.url(name)) == []


def test_no_server_is_one_clear_error_without_the_password(
    postgres_server: PostgresServer,
) -> None:
    url = f"postgresql://ann:secret@127.0.0.1:{postgres_server.port}/no_such_database"
    with pytest.raises(StoreError, match="cannot connect to the hand store") as caught:
        Store.open(url)
    assert "secret" not in str(caught.value)
    assert "'postgresql://ann:***@127.0.0.1:" in str(caught.value)


# -- migrating -------------------------------------------------------------------------------


def _at_version(url: str, version: int) -> None:
    """A database as cardlab left it at schema ``version``."""
    _sql(url, "CREATE TABLE cardlab_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    _sql(url, "INSERT INTO cardlab_meta VALUES ('application', 'cardlab'),"
         " ('schema_version', %s)", (str(version),))  # fmt: skip
    for script in pg.POSTGRES_MIGRATIONS[:version]:
        for statement in pg.statements(script):
            _sql(url, statement)


def test_an_older_schema_is_migrated_keeping_its_hands(postgres_url: str) -> None:
    _at_version(postgres_url, 2)
    _sql(
        postgres_url,
        "INSERT INTO hands (game, variant, phh, board, actions, showdown, decided_by, source,"
        " played_at) VALUES ('g', 'NT', 'x', '', 0, 1, NULL, 'play',"
        " '2026-01-01T00:00:00.000000Z')",
    )
    _sql(postgres_url, "INSERT INTO seats VALUES (1, 0, 'ann', 5, 7)")
    with pytest.raises(StoreError, match=f"schema 2 < {SCHEMA_VERSION}: open it once for writing"):
        Store.open(postgres_url, read_only=True)
    with Store.open(postgres_url) as store:
        assert store.hand(1).players == ("ann",)
        assert store.add_hand(make_record(2)) == 2
        store.add_seed("t", "a" * 64, "b" * 64)  # a version 3 table
    assert _sql(postgres_url, "SELECT value FROM cardlab_meta WHERE key = 'schema_version'") == [
        (str(SCHEMA_VERSION),)
    ]


def test_a_failed_migration_changes_nothing(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _at_version(postgres_url, 2)
    before = _dump(postgres_url)
    broken = (*pg.POSTGRES_MIGRATIONS[:3], "CREATE TABLE results (x BIGINT);\nNOT SQL")
    monkeypatch.setattr(pg, "POSTGRES_MIGRATIONS", broken)
    with pytest.raises(StoreError, match="cannot open the hand store"):
        Store.open(postgres_url)
    assert _dump(postgres_url) == before


def test_processes_opening_a_new_database_at_once_migrate_it_once(postgres_url: str) -> None:
    errors: list[BaseException] = []
    barrier = threading.Barrier(4)

    def open_it() -> None:
        try:
            barrier.wait()
            with Store.open(postgres_url) as store:
                store.add_hand(make_record(1))
        except BaseException as error:  # reported by the main thread
            errors.append(error)

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with Store.open(postgres_url) as store:
        assert store.count_hands() == 4


# -- reading only ----------------------------------------------------------------------------


def test_read_only_on_an_empty_database_writes_nothing(postgres_url: str) -> None:
    with Store.open(postgres_url, read_only=True) as store:
        assert store.count_hands() == 0 and store.tables() == []
        with pytest.raises(StoreError, match="reading only"):
            store.add_hand(make_record(1))
    assert _dump(postgres_url) == []


def test_read_only_reads_and_refuses_writes(postgres_url: str) -> None:
    with Store.open(postgres_url) as store:
        hand_id = store.add_hand(make_record(1))
    with Store.open(postgres_url, read_only=True) as store:
        assert store.hand(hand_id).id == hand_id
        with pytest.raises(StoreError, match="reading only"):
            store.save_table("t", {}, {})


def test_env_var_may_name_a_database(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    monkeypatch.setenv("CARDLAB_DB", postgres_url)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    with Store.open() as store:
        assert store.location == postgres_url
        store.add_hand(make_record(3))
    assert _sql(postgres_url, "SELECT COUNT(*) FROM hands") == [(1,)]
    assert list(tmp_path.iterdir()) == []  # no file was made for it


def test_without_postgres_the_fixture_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import _postgres

    monkeypatch.setattr(_postgres.glob, "glob", lambda pattern: [])
    monkeypatch.setattr(_postgres.shutil, "which", lambda name: None)
    with pytest.raises(FileNotFoundError, match="apt-get install -y postgresql"):
        _postgres.find_bin_dir()
