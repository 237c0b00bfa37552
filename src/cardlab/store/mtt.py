"""The store's multi-table tournaments (:mod:`cardlab.web.mtt`): each one's state as
JSON (:meth:`cardlab.table.mtt.Mtt.as_dict` with the ids of its web tables and its host),
saved after every change, so a restarted server finds every tournament with its tables.
The tables are ordinary web tables (``tables``), which resume by themselves.
"""

from __future__ import annotations

import datetime
import json
import threading
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any

from cardlab.store._checks import _check_id, _json
from cardlab.store._connection import Connection
from cardlab.store.records import parse_utc, utc_now, utc_text


@dataclass(frozen=True, slots=True)
class MttRecord:
    """A tournament as last saved; ``closed_at``: None while it is open."""

    mtt_id: str
    state: dict[str, Any]
    created_at: datetime.datetime
    updated_at: datetime.datetime
    closed_at: datetime.datetime | None


class MttMixin:
    """The tournament methods of :class:`cardlab.store.Store` (see the module docs)."""

    # provided by Store
    _lock: threading.RLock

    def _open_connection(self) -> Connection:
        raise NotImplementedError

    def transaction(self) -> AbstractContextManager[None]:
        raise NotImplementedError

    def _reading(self) -> AbstractContextManager[Connection]:
        raise NotImplementedError

    def save_mtt(self, mtt_id: str, state: dict[str, Any], *, closed: bool = False) -> None:
        """Create or replace the tournament ``mtt_id`` (``closed``: it is over)."""
        _check_id(mtt_id)
        text = _json(state, "tournament state")
        now = utc_text(utc_now())
        with self.transaction():
            self._open_connection().execute(
                "INSERT INTO mtt_tournaments (id, state, created_at, updated_at, closed_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET"
                " state = excluded.state, updated_at = excluded.updated_at,"
                " closed_at = excluded.closed_at",
                (mtt_id, text, now, now, now if closed else None),
            )

    def mtts(self, *, closed: bool = False) -> list[MttRecord]:
        """Every saved tournament still open (``closed``: the finished ones too), by id."""
        where = "" if closed else " WHERE closed_at IS NULL"
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT id, state, created_at, updated_at, closed_at FROM mtt_tournaments"
                f"{where} ORDER BY id"
            ).fetchall()
        return [
            MttRecord(
                str(i),
                json.loads(state),
                parse_utc(created),
                parse_utc(updated),
                None if closed_at is None else parse_utc(closed_at),
            )
            for i, state, created, updated, closed_at in rows
        ]
