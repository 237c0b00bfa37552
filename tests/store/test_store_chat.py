"""The store's table chat (:mod:`cardlab.store.chat`) on SQLite and PostgreSQL: lines kept
in order, a table's last ``keep`` only, refused when not a line or not this process's
to write (fencing), deleted with their table and by the retention; and a schema-8 file
(before the chat was stored) migrated with its tables intact."""

from __future__ import annotations

import datetime
import sqlite3
from pathlib import Path

import pytest

from cardlab.errors import StoreError
from cardlab.store import MIGRATIONS, SCHEMA_VERSION, Store
from cardlab.store.chat import ChatLine

DAY = datetime.timedelta(days=1)
NOW = datetime.datetime.now(datetime.UTC)
AT = datetime.datetime(2026, 12, 6, 12, 0, 1, tzinfo=datetime.UTC)


def line(number: int, text: str = "", seat: int | None = 1, author: str = "a" * 64) -> ChatLine:
    return ChatLine(number, f"name {number}", seat, text or f"line {number}", False, author, AT)


def test_lines_come_back_in_order_and_as_written(store: Store) -> None:
    store.save_table("t", {}, {})
    written = [
        ChatLine(1, "ann", 1, "hi <b>all</b> 🃏", False, "a" * 64, AT),
        ChatLine(2, "spectator 1", None, "hello", False, "b" * 64, AT + DAY),
        ChatLine(3, "hana", 2, "welcome", True, "c" * 64, AT + 2 * DAY),
    ]
    for each in written:
        store.add_chat_line("t", each, keep=100)
    assert store.chat_lines("t") == written
    assert store.chat_lines("other") == []


def test_a_table_keeps_its_last_lines_only(store: Store) -> None:
    for number in range(1, 13):
        store.add_chat_line("t", line(number), keep=5)
        store.add_chat_line("u", line(number), keep=100)  # another table keeps its own
    assert [each.id for each in store.chat_lines("t")] == [8, 9, 10, 11, 12]
    assert [each.id for each in store.chat_lines("u")] == list(range(1, 13))


@pytest.mark.parametrize(
    ("bad", "error"),
    [
        (line(0), "start at 1"),
        (line(2, seat=-1), "a chat line's seat must be an integer"),
        (line(2, text="nul\x00"), "holds a NUL"),
        (line(2, author=""), "a chat author is non-empty text"),
        (ChatLine(2, "", 1, "x", False, "a", AT), "a chat name is non-empty text"),
    ],
)
def test_what_is_not_a_line_is_refused(store: Store, bad: ChatLine, error: str) -> None:
    store.add_chat_line("t", line(1), keep=10)
    with pytest.raises(StoreError, match=error):
        store.add_chat_line("t", bad, keep=10)
    with pytest.raises(StoreError, match="chat line 1 of table 't' is already stored"):
        store.add_chat_line("t", line(1, text="again"), keep=10)
    assert store.chat_lines("t") == [line(1)]


def test_a_process_that_lost_the_table_cannot_add_to_its_chat(location: str) -> None:
    with Store.open(location) as first, Store.open(location) as second:
        first.claim_table("t")
        first.add_chat_line("t", line(1), keep=10)
        second.claim_table("t")  # taken over
        with pytest.raises(StoreError, match="taken over by another process"):
            first.add_chat_line("t", line(2), keep=10)
        second.add_chat_line("t", line(2), keep=10)
        second.disclaim("t")  # handed over
        with pytest.raises(StoreError, match="no longer holds table 't'"):
            second.add_chat_line("t", line(3), keep=10)
        assert [each.id for each in first.chat_lines("t")] == [1, 2]


def test_the_chat_goes_with_its_table(store: Store) -> None:
    for table in ("open", "closed", "deleted"):
        store.save_table(table, {}, {})
        store.add_chat_line(table, line(1), keep=10)
    store.close_table("closed", {})
    assert store.chat_lines("closed") == [line(1)]  # a closed table keeps it for now
    assert store.delete_table("deleted")
    assert store.chat_lines("deleted") == []
    assert store.prune(NOW - 30 * DAY) == (0, 0)  # closed just now: kept
    assert store.chat_lines("closed") == [line(1)]
    assert store.prune(NOW + DAY) == (0, 1)  # past the retention: with its table
    assert store.chat_lines("closed") == []
    assert store.chat_lines("open") == [line(1)]  # an open table's never


def test_a_schema_8_file_gains_the_chat_and_keeps_its_tables(tmp_path: Path) -> None:
    path = tmp_path / "v8.sqlite3"
    connection = sqlite3.connect(path)
    for script in MIGRATIONS[:8]:
        connection.executescript(script)
    connection.execute("PRAGMA application_id = 1129079138")  # b"CLab"
    connection.execute("PRAGMA user_version = 8")
    connection.execute(
        "INSERT INTO tables VALUES ('t1', '{}', '{\"stacks\": [5]}',"
        " '2026-01-02T03:04:05.000006Z', '2026-01-02T03:04:05.000006Z', NULL)"
    )
    connection.commit()
    connection.close()
    with Store.open(path) as store:
        assert [t.state for t in store.tables()] == [{"stacks": [5]}]
        assert store.chat_lines("t1") == []
        store.add_chat_line("t1", line(1), keep=100)
        assert store.chat_lines("t1") == [line(1)]
    check = sqlite3.connect(path)
    try:
        assert check.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 9
        columns = [row[1] for row in check.execute("PRAGMA table_info(chat_lines)")]
    finally:
        check.close()
    assert columns == ["table_id", "id", "name", "seat", "text", "host", "author", "at"]
