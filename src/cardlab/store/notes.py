"""The store's player notes: what one browser wrote about other players, and the colour
it tagged them with, private to that browser.

A note belongs to its *writer* (the SHA-256 of the browser's ``cardlab_id`` cookie,
never the cookie) and is about a *subject*: a player's name key
(:func:`cardlab.web.table_config.name_key`, so "Ann" and "ａｎｎ" are one player), with
the name as the writer last saw it. One note per writer and subject: saving again
replaces it. Nothing here reads another writer's notes; the web checks the text and
the colour (:mod:`cardlab.web.notes`), the store only that they are text it can keep.
"""

from __future__ import annotations

import datetime
import threading
from contextlib import AbstractContextManager
from dataclasses import dataclass

from cardlab.errors import StoreError
from cardlab.store._checks import _check_text
from cardlab.store._connection import Connection
from cardlab.store.records import parse_utc, utc_now, utc_text

MAX_NOTES = 2000
"""Notes one writer may keep (a new subject past it is refused)."""


@dataclass(frozen=True, slots=True)
class PlayerNote:
    """One writer's note on one player: ``colour`` is a tag name ("" for none)."""

    subject: str
    name: str
    note: str
    colour: str
    updated_at: datetime.datetime


class NotesMixin:
    """The player-note methods of :class:`cardlab.store.Store` (see the module docs)."""

    # provided by Store
    _lock: threading.RLock

    def _open_connection(self) -> Connection:
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _reading(self) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def save_note(self, writer: str, subject: str, name: str, note: str, colour: str) -> None:
        """Create or replace ``writer``'s note on ``subject``."""
        for value, what in ((writer, "a note's writer"), (subject, "a note's subject")):
            if not isinstance(value, str) or not value:
                raise StoreError(f"{what} is non-empty text, got {value!r:.60}")
        for value, what in ((name, "a player's name"), (note, "a note"), (colour, "a colour")):
            if not isinstance(value, str):
                raise StoreError(f"{what} is text, got {value!r:.60}")
            _check_text(value, what)
        _check_text(writer, "a note's writer")
        _check_text(subject, "a note's subject")
        with self.transaction():
            connection = self._open_connection()
            known = connection.execute(
                "SELECT COUNT(*) FROM player_notes WHERE writer = ?", (writer,)
            ).fetchone()[0]
            exists = connection.execute(
                "SELECT 1 FROM player_notes WHERE writer = ? AND subject = ?", (writer, subject)
            ).fetchone()
            if exists is None and int(known) >= MAX_NOTES:
                raise StoreError(f"a browser keeps at most {MAX_NOTES} player notes")
            connection.execute(
                "INSERT INTO player_notes (writer, subject, name, note, colour, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (writer, subject) DO UPDATE SET"
                " name = excluded.name, note = excluded.note, colour = excluded.colour,"
                " updated_at = excluded.updated_at",
                (writer, subject, name, note, colour, utc_text(utc_now())),
            )

    def delete_note(self, writer: str, subject: str) -> bool:
        """Forget ``writer``'s note on ``subject``; whether there was one."""
        with self.transaction():
            cursor = self._open_connection().execute(
                "DELETE FROM player_notes WHERE writer = ? AND subject = ?", (writer, subject)
            )
        return bool(cursor.rowcount)

    def notes(self, writer: str) -> list[PlayerNote]:
        """Every note ``writer`` keeps, by subject."""
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT subject, name, note, colour, updated_at FROM player_notes"
                " WHERE writer = ? ORDER BY subject",
                (writer,),
            ).fetchall()
        return [PlayerNote(s, n, t, c, parse_utc(at)) for s, n, t, c, at in rows]
