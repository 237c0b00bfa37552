"""``cardlab web --durability strict|fast``: the store the command opens commits as the
mode says, asked of a real PostgreSQL server (``SHOW synchronous_commit``) and of SQLite
(``PRAGMA synchronous``); strict is the default."""

from __future__ import annotations

from pathlib import Path

import pytest

from _postgres import postgres_server, postgres_url
from cardlab.cli.web import open_store, web
from cardlab.errors import CardlabError

__all__ = ["postgres_server", "postgres_url"]


def test_strict_is_the_default() -> None:
    (option,) = [p for p in web.params if p.name == "durability"]
    assert option.default == "strict"


@pytest.mark.parametrize(("mode", "expected"), [("strict", "on"), ("fast", "off")])
def test_postgresql_synchronous_commit(postgres_url: str, mode: str, expected: str) -> None:
    store = open_store(postgres_url, mode)
    try:
        (setting,) = store._connection.execute("SHOW synchronous_commit").fetchone()
    finally:
        store.close()
    assert setting == expected


@pytest.mark.parametrize(("mode", "expected"), [("strict", 2), ("fast", 1)])  # FULL, NORMAL
def test_sqlite_synchronous(tmp_path: Path, mode: str, expected: int) -> None:
    store = open_store(str(tmp_path / "t.sqlite3"), mode)
    try:
        (setting,) = store._connection.execute("PRAGMA synchronous").fetchone()
    finally:
        store.close()
    assert setting == expected


def test_an_unknown_mode_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(CardlabError, match="strict or fast: 'safe'"):
        open_store(str(tmp_path / "t.sqlite3"), "safe")
