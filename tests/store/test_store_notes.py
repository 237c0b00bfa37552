"""Player notes in the store: one per writer and subject, private to the writer, kept
across reopening (both backends), and the migration that adds them to an older file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from cardlab.errors import StoreError
from cardlab.store import SCHEMA_VERSION, Store
from cardlab.store import notes as notes_module
from cardlab.store.schema import MIGRATIONS


def test_a_note_is_saved_replaced_and_private(location: str) -> None:
    with Store.open(location) as store:
        store.save_note("w1", "ann", "Ann", "calls too much", "red")
        store.save_note("w1", "bob", "Bob", "", "green")
        store.save_note("w2", "ann", "Ann", "tight", "")
        store.save_note("w1", "ann", "ANN", "calls every river", "blue")  # replaces
    with Store.open(location) as store:  # kept across a restart
        mine = store.notes("w1")
        theirs = store.notes("w2")
        assert [(n.subject, n.name, n.note, n.colour) for n in mine] == [
            ("ann", "ANN", "calls every river", "blue"),
            ("bob", "Bob", "", "green"),
        ]
        assert [(n.subject, n.note) for n in theirs] == [("ann", "tight")]
        assert store.notes("nobody") == []
        assert store.delete_note("w1", "ann") is True
        assert store.delete_note("w1", "ann") is False
        assert [n.subject for n in store.notes("w1")] == ["bob"]
        assert [n.note for n in store.notes("w2")] == ["tight"]  # another writer's stays


def test_bad_notes_are_refused(fresh_store) -> None:  # type: ignore[no-untyped-def]
    store = fresh_store()
    with pytest.raises(StoreError, match="writer"):
        store.save_note("", "ann", "Ann", "x", "")
    with pytest.raises(StoreError, match="NUL"):
        store.save_note("w", "ann", "Ann", "a\x00b", "")
    with pytest.raises(StoreError, match="is text"):
        store.save_note("w", "ann", "Ann", 3, "")


def test_a_writer_keeps_a_bounded_number_of_notes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notes_module, "MAX_NOTES", 3)
    store = Store.in_memory()
    for k in range(3):
        store.save_note("w", f"p{k}", f"P{k}", "", "")
    with pytest.raises(StoreError, match="at most 3"):
        store.save_note("w", "p9", "P9", "", "")
    store.save_note("w", "p1", "P1", "changed", "")  # replacing one is fine
    store.save_note("v", "p9", "P9", "", "")  # another writer has its own budget


def test_an_older_file_gains_the_notes_table(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    connection = sqlite3.connect(path)
    for script in MIGRATIONS[:5]:
        connection.executescript(script)
    connection.execute("PRAGMA application_id = 1129079138")
    connection.execute("PRAGMA user_version = 5")
    connection.commit()
    connection.close()
    with Store.open(path) as store:
        store.save_note("w", "ann", "Ann", "ok", "")
        assert [n.note for n in store.notes("w")] == ["ok"]
    version = sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0]
    assert version == SCHEMA_VERSION >= 6
