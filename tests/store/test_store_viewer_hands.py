"""A browser's own imported hands in the store: kept once per writer, private to it,
kept across reopening (both backends), a count limit, forgetting them, and the migration
that adds them to an older file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cardlab.errors import StoreError
from cardlab.store import SCHEMA_VERSION, Store
from cardlab.store import viewer_hands as module
from cardlab.store.schema import MIGRATIONS


def test_hands_are_kept_once_and_private(location: str) -> None:
    with Store.open(location) as store:
        assert store.add_viewer_hands("w1", ["a = 1\n", "b = 2\n"]) == (2, 0)
        assert store.add_viewer_hands("w1", ["b = 2\n", "c = 3\n", "c = 3\n"]) == (1, 1)
        assert store.add_viewer_hands("w2", ["a = 1\n"]) == (1, 0)
    with Store.open(location) as store:  # kept across a restart
        assert sorted(store.viewer_hands("w1")) == ["a = 1\n", "b = 2\n", "c = 3\n"]
        assert store.viewer_hands("w2") == ["a = 1\n"]
        assert store.viewer_hands("nobody") == []
        assert store.forget_viewer_hands("w1") == 3
        assert store.viewer_hands("w1") == []
        assert store.viewer_hands("w2") == ["a = 1\n"]  # another writer's stay


def test_the_count_limit_refuses_a_whole_upload(
    fresh_store, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(module, "MAX_VIEWER_HANDS", 3)
    store = fresh_store()
    store.add_viewer_hands("w", ["1", "2"])
    with pytest.raises(StoreError, match="at most 3 hands"):
        store.add_viewer_hands("w", ["3", "4"])
    assert sorted(store.viewer_hands("w")) == ["1", "2"]  # nothing of it added
    assert store.add_viewer_hands("w", ["2", "3"]) == (1, 1)
    with pytest.raises(StoreError, match="writer"):
        store.add_viewer_hands("", ["x"])
    with pytest.raises(StoreError, match="NUL"):
        store.add_viewer_hands("w", ["a\x00"])


def test_an_older_file_gains_the_viewer_hands_table(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    connection = sqlite3.connect(path)
    for script in MIGRATIONS[:7]:
        connection.executescript(script)
    connection.execute("PRAGMA application_id = 1129079138")
    connection.execute("PRAGMA user_version = 7")
    connection.commit()
    connection.close()
    with Store.open(path) as store:
        assert store.add_viewer_hands("w", ["x"]) == (1, 0)
        assert store.viewer_hands("w") == ["x"]
    version = sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0]
    assert version == SCHEMA_VERSION >= 8
