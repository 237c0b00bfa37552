"""The hands a browser imported from its own hand histories, for its HUD: private to
that browser.

A hand belongs to its *writer* (the SHA-256 of the browser's ``cardlab_id`` cookie,
never the cookie) and is kept as its PHH text, once per writer (by the SHA-256 of the
text). Nothing here reads another writer's hands; the web reads and replays the upload
(:mod:`cardlab.web.viewer_hud`), the store only keeps the text and the limit.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from contextlib import AbstractContextManager

from cardlab.errors import StoreError
from cardlab.store._checks import _check_text
from cardlab.store._connection import Connection
from cardlab.store.records import utc_now, utc_text

MAX_VIEWER_HANDS = 5000
"""Hands one writer may keep (an upload that would pass it is refused whole)."""


class ViewerHandsMixin:
    """The viewer-hand methods of :class:`cardlab.store.Store` (see the module docs)."""

    # provided by Store
    _lock: threading.RLock

    def _open_connection(self) -> Connection:
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _reading(self) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def add_viewer_hands(self, writer: str, texts: Sequence[str]) -> tuple[int, int]:
        """Keep the PHH ``texts`` for ``writer``: (hands added, hands it already had).
        :class:`StoreError` when the writer would keep more than
        :data:`MAX_VIEWER_HANDS` (nothing is added then)."""
        if not isinstance(writer, str) or not writer:
            raise StoreError(f"a viewer's hands need a writer, got {writer!r:.60}")
        _check_text(writer, "a viewer's hands' writer")
        for text in texts:
            if not isinstance(text, str):
                raise StoreError(f"a hand is PHH text, got {text!r:.60}")
            _check_text(text, "a hand's PHH text")
        digests = {hashlib.sha256(t.encode("utf-8")).hexdigest(): t for t in texts}
        now = utc_text(utc_now())
        with self.transaction():
            connection = self._open_connection()
            kept = {
                row[0]
                for row in connection.execute(
                    "SELECT digest FROM viewer_hands WHERE writer = ?", (writer,)
                ).fetchall()
            }
            new = [(d, t) for d, t in digests.items() if d not in kept]
            if len(kept) + len(new) > MAX_VIEWER_HANDS:
                raise StoreError(
                    f"a browser keeps at most {MAX_VIEWER_HANDS} hands of its own for the HUD"
                    f" (it keeps {len(kept)}, the file adds {len(new)}): forget them first"
                )
            for digest, text in new:
                connection.execute(
                    "INSERT INTO viewer_hands (writer, digest, phh, added_at) VALUES (?, ?, ?, ?)",
                    (writer, digest, text, now),
                )
        return len(new), len(digests) - len(new)

    def viewer_hands(self, writer: str) -> list[str]:
        """The PHH text of every hand ``writer`` keeps, in the order they were added."""
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT phh FROM viewer_hands WHERE writer = ? ORDER BY added_at, digest",
                (writer,),
            ).fetchall()
        return [str(r[0]) for r in rows]

    def viewer_hands_mark(self, writer: str) -> tuple[int, str]:
        """(hands ``writer`` keeps, when the newest was added): a change of it says the
        hands changed (a process caching figures asks it first)."""
        with self._reading() as connection:
            count, latest = connection.execute(
                "SELECT COUNT(*), MAX(added_at) FROM viewer_hands WHERE writer = ?", (writer,)
            ).fetchone()
        return int(count), str(latest or "")

    def forget_viewer_hands(self, writer: str) -> int:
        """Forget every hand ``writer`` keeps; how many there were."""
        with self.transaction():
            cursor = self._open_connection().execute(
                "DELETE FROM viewer_hands WHERE writer = ?", (writer,)
            )
        return int(cursor.rowcount)
