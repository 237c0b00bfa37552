"""Where the web tables keep their chips: the hand store.

A live table needs of its store: its set-up and state (``save_table``, ``tables``), the
hand in play written ahead of every announcement (``begin_hand``, ``add_action``,
``save_clock``, ``live_hand``, ``end_hand``, ``cancel_hand``; ``amend_hand`` for a show
after the hand), the server seeds of the fair deal (``add_seed``, ``seed``,
``reveal_seed``, ``hand_ids_dealt_under``, ``hand``), the ledger (``add_ledger``), a
tournament's standings (``save_results``, ``results``), closing (``close_table``), the
hands to download and count for the HUD (``hands``), and the players' notes
(``save_note``, ``delete_note``, ``notes``: :mod:`cardlab.web.notes`).
:class:`cardlab.store.Store` has exactly these: :func:`open_table_store` opens the
SQLite file or the PostgreSQL database, or a store in memory whose tables end with the
process.
"""

from __future__ import annotations

import datetime
from contextlib import AbstractContextManager
from typing import Any, Protocol

from cardlab.store import Store


class TableStore(Protocol):
    def transaction(self) -> AbstractContextManager[None]: ...

    def save_table(self, table_id: str, config: dict[str, Any], state: dict[str, Any]) -> None: ...

    def tables(self, *, closed: bool = False) -> list[Any]: ...

    def close_table(self, table_id: str, state: dict[str, Any]) -> None: ...

    def begin_hand(
        self, table_id: str, deal_number: int, start: dict[str, Any], state: dict[str, Any]
    ) -> None: ...

    def add_action(
        self, table_id: str, seq: int, action: str, *, deal_number: int | None = None
    ) -> None: ...

    def save_clock(self, table_id: str, seq: int, remaining: float) -> None: ...

    def live_hand(self, table_id: str) -> Any: ...

    def end_hand(self, table_id: str, record: Any, state: dict[str, Any]) -> int: ...

    def amend_hand(self, table_id: str, hand_id: int, phh: str, actions: int) -> None: ...

    def cancel_hand(self, table_id: str, state: dict[str, Any]) -> None: ...

    def add_seed(self, table_id: str, commitment: str, server_seed: str) -> None: ...

    def seed(self, table_id: str, commitment: str) -> Any: ...

    def reveal_seed(self, table_id: str, commitment: str, phh_of: dict[int, str]) -> None: ...

    def hand_ids_dealt_under(self, table_id: str, commitment: str) -> list[int]: ...

    def hand(self, hand_id: int) -> Any: ...

    def hands(self, *, table_id: str | None = None, limit: int | None = None) -> list[Any]: ...

    def add_ledger(self, table_id: str, seat: int, player: str, kind: str, amount: int) -> int: ...

    def ledger(self, table_id: str) -> list[Any]: ...

    def save_results(self, table_id: str, standings: list[dict[str, Any]]) -> None: ...

    def results(self, table_id: str) -> list[Any]: ...

    def prune(self, before: datetime.datetime) -> tuple[int, int]: ...

    def save_note(self, writer: str, subject: str, name: str, note: str, colour: str) -> None: ...

    def delete_note(self, writer: str, subject: str) -> bool: ...

    def notes(self, writer: str) -> list[Any]: ...


def open_table_store(path: str | None) -> Store:
    """The hand store at ``path``: a SQLite file or a ``postgresql://`` URL (None: in
    memory)."""
    return Store.open(path, synchronous="NORMAL") if path is not None else Store.in_memory()
