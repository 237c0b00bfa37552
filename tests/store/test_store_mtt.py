"""The store keeps multi-table tournaments (migration 7) on both backends."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cardlab.errors import StoreError
from cardlab.store import SCHEMA_VERSION, Store
from cardlab.store.schema import MIGRATIONS


def test_a_tournament_is_saved_replaced_and_closed(store: Store) -> None:
    assert store.mtts() == []
    store.save_mtt("t1", {"registered": ["ann"], "tables": {}})
    store.save_mtt("t2", {"registered": []})
    store.save_mtt("t1", {"registered": ["ann", "bob"], "tables": {"0": {"3": "ann"}}})
    got = {r.mtt_id: r.state for r in store.mtts()}
    assert got == {
        "t1": {"registered": ["ann", "bob"], "tables": {"0": {"3": "ann"}}},
        "t2": {"registered": []},
    }
    store.save_mtt("t2", {"over": True}, closed=True)
    assert [r.mtt_id for r in store.mtts()] == ["t1"]
    closed = [r for r in store.mtts(closed=True) if r.mtt_id == "t2"]
    assert closed[0].closed_at is not None and closed[0].state == {"over": True}
    with pytest.raises(StoreError, match="table id"):
        store.save_mtt("", {})
    with pytest.raises(StoreError, match="must be a dict"):
        store.save_mtt("t3", [])  # type: ignore[arg-type]


def test_a_schema_6_file_gains_the_tournaments(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    connection = sqlite3.connect(path)
    for script in MIGRATIONS[:6]:
        connection.executescript(script)
    connection.execute("PRAGMA application_id = 1129079138")
    connection.execute("PRAGMA user_version = 6")
    connection.commit()
    connection.close()
    with Store.open(path) as store:
        store.save_mtt("t", {"a": 1})
        assert [r.state for r in store.mtts()] == [{"a": 1}]
    version = sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0]
    assert version == SCHEMA_VERSION >= 7
