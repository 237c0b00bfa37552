"""The store's table chat: the recent messages of each web table, written as they are
sent, so that a table restored from the store (a restart, a handover to another process,
a takeover after a crash) shows the chat its pages showed.

A line is one message as :mod:`cardlab.web.table_chat` keeps it: its number at the table
(``id``, from 1, never reused), the name it was written under, the seat (from 1; None:
a spectator), the text, whether the host wrote it, its author (the SHA-256 of the
browser's ``cardlab_id`` cookie, never the cookie) and when. A table keeps its last
``keep`` lines: each write deletes the older ones in the same transaction, so the store
holds what the table shows and no more. The web checks a message (its text, its rate,
its author's mute); the store only that it is a line it can keep. Writes are fenced like
every write of a table (:meth:`~cardlab.store.web_tables.TablesMixin.claim_table`): a
process that lost the table's lease cannot add to its chat. The lines go with their
table: :meth:`~cardlab.store.web_tables.TablesMixin.delete_table` and the retention
(:meth:`~cardlab.store.web_tables.TablesMixin.prune`) delete them.
"""

from __future__ import annotations

import datetime
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from cardlab.errors import StoreError
from cardlab.store._checks import _check_count, _check_id, _check_text
from cardlab.store._connection import Connection
from cardlab.store.records import parse_utc, utc_text


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One stored chat message of a table (see the module documentation)."""

    id: int
    name: str
    seat: int | None
    text: str
    host: bool
    author: str
    at: datetime.datetime


class ChatMixin:
    """The chat methods of :class:`cardlab.store.Store` (see the module docs)."""

    # provided by Store and TablesMixin
    def _reading(self) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def _write_fenced(
        self, table_id: str, statements: list[tuple[str, tuple[Any, ...]]]
    ) -> list[int]:
        raise NotImplementedError

    def add_chat_line(self, table_id: str, line: ChatLine, *, keep: int) -> None:
        """Store ``line`` of ``table_id``'s chat and forget the table's lines older than
        its last ``keep``, in one transaction (one round trip to PostgreSQL);
        :class:`StoreError` when the line is not one the store keeps, its id is already
        stored, or this process may no longer write to the table."""
        _check_id(table_id)
        _check_count(line.id, "a chat line's number")
        _check_count(keep, "the chat lines a table keeps")
        if line.id < 1 or keep < 1:
            raise StoreError(f"a chat line's number and the lines kept start at 1: {line.id!r}")
        if line.seat is not None:
            _check_count(line.seat, "a chat line's seat")
        for value, what in ((line.name, "a chat name"), (line.author, "a chat author")):
            if not isinstance(value, str) or not value:
                raise StoreError(f"{what} is non-empty text, got {value!r:.60}")
            _check_text(value, what)
        if not isinstance(line.text, str) or not line.text:
            raise StoreError(f"a chat line is non-empty text, got {line.text!r:.60}")
        _check_text(line.text, "a chat line")
        written = self._write_fenced(
            table_id,
            [
                (
                    "INSERT INTO chat_lines (table_id, id, name, seat, text, host, author, at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (table_id, id) DO NOTHING",
                    (
                        table_id,
                        line.id,
                        line.name,
                        line.seat,
                        line.text,
                        int(line.host),
                        line.author,
                        utc_text(line.at),
                    ),
                ),
                (
                    "DELETE FROM chat_lines WHERE table_id = ? AND id <= ?",
                    (table_id, line.id - keep),
                ),
            ],
        )
        if written[0] == 0:
            raise StoreError(f"chat line {line.id} of table {table_id!r} is already stored")

    def chat_lines(self, table_id: str) -> list[ChatLine]:
        """The chat lines stored for ``table_id``, oldest first."""
        _check_id(table_id)
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT id, name, seat, text, host, author, at FROM chat_lines"
                " WHERE table_id = ? ORDER BY id",
                (table_id,),
            ).fetchall()
        return [
            ChatLine(int(i), name, None if s is None else int(s), text, bool(h), by, parse_utc(at))
            for i, name, s, text, h, by, at in rows
        ]
