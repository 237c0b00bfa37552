"""The store tests run on both backends where they test what both promise: ``location``
is a new SQLite file or a new PostgreSQL database (on the session's server, see
tests/_postgres.py), ``store`` that store opened, ``fresh_store`` a maker of empty
stores for property tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from _postgres import PostgresServer, postgres_server, postgres_url
from cardlab.store import Store

__all__ = ["postgres_server", "postgres_url"]

BACKENDS = ["sqlite", "postgresql"]

# every table a store makes, emptied between the examples of a property test
_TABLES = (
    "hands, seats, tables, arena_runs, deal_seeds, live_hands, live_actions, ledger,"
    " tournament_results, table_fences, player_notes, mtt_tournaments, viewer_hands,"
    " chat_lines"
)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def location(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """Where a new, empty store is: a file path, or a PostgreSQL URL."""
    if backend == "sqlite":
        return str(tmp_path / "hands.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.new_schema()


@pytest.fixture
def store(location: str) -> Iterator[Store]:
    with Store.open(location) as opened:
        yield opened


@pytest.fixture
def fresh_store(backend: str, request: pytest.FixtureRequest) -> Iterator[Callable[[], Store]]:
    """Makes an empty store each call: SQLite in memory, or one PostgreSQL store
    emptied (ids from 1 again)."""
    if backend == "sqlite":
        yield Store.in_memory
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = server.new_schema()
    Store.open(url).close()  # migrated once

    def make() -> Store:
        store = Store.open(url)
        with store.transaction():
            store._open_connection().execute(f"TRUNCATE {_TABLES} RESTART IDENTITY")
        return store

    yield make
