"""Where the web tables keep their chips: the hand store, or a stand-in in memory.

The live tables need four things of a store: ``save_table(table_id, config, state)``
after every hand, ``tables()`` at start-up (records with ``table_id``, ``config``,
``state``), ``add_hand(record)`` for each finished hand, and ``hands(table_id=...)``
for a table's histories. :class:`cardlab.store.Store` (SQLite) has exactly these;
:class:`MemoryTableStore` is a stand-in with the same names for tests and for a server
started without a file (its tables end with the process).
"""

from __future__ import annotations

import copy
import datetime
import importlib
import json
import threading
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardlab.errors import GameError


class TableStore(Protocol):
    def save_table(self, table_id: str, config: dict[str, Any], state: dict[str, Any]) -> None: ...

    def tables(self) -> list[Any]: ...

    def add_hand(self, record: Any) -> int: ...

    def hands(self, *, table_id: str | None = None, limit: int | None = None) -> list[Any]: ...


@dataclass(frozen=True, slots=True)
class SavedTable:
    table_id: str
    config: dict[str, Any]
    state: dict[str, Any]


@dataclass(frozen=True, slots=True)
class StandInHand:
    """The fields of ``cardlab.store.HandRecord`` (used when the store is not installed)."""

    game: str
    variant: str
    phh: str
    players: tuple[str, ...]
    starting_stacks: tuple[int, ...]
    finishing_stacks: tuple[int, ...]
    board: str
    actions: int
    showdown: bool
    decided_by: str | None
    source: str
    table_id: str | None = None
    played_at: datetime.datetime = field(
        default_factory=lambda: datetime.datetime.now(datetime.UTC)
    )
    id: int | None = None


def _store_module() -> Any:
    try:
        return importlib.import_module("cardlab.store")
    except ModuleNotFoundError:
        return None


def hand_record(**fields: Any) -> Any:
    """A ``cardlab.store.HandRecord`` when the store exists, else a :class:`StandInHand`."""
    module = _store_module()
    kind = getattr(module, "HandRecord", None) if module is not None else None
    return (kind or StandInHand)(**fields)


def open_table_store(path: str | None) -> TableStore:
    """The SQLite hand store at ``path`` (None: in memory)."""
    module = _store_module()
    if module is None or not hasattr(module, "Store"):
        if path is not None:
            raise GameError(f"this cardlab has no SQLite hand store to open {path!r}")
        return MemoryTableStore()
    store: TableStore = module.Store.open(path) if path is not None else module.Store.in_memory()
    return store


class MemoryTableStore:
    """Tables and hands in memory, behind the store's method names. Values are copied
    through JSON on the way in, as the SQLite store does, so nothing is shared; only the
    last ``max_hands`` hands are kept, so a long-running server stays bounded."""

    def __init__(self, max_hands: int = 5000) -> None:
        self.max_hands = max_hands  # the oldest hands are forgotten past this
        self._tables: dict[str, SavedTable] = {}
        self._hands: list[Any] = []
        self._count = 0
        self._lock = threading.Lock()

    def save_table(self, table_id: str, config: dict[str, Any], state: dict[str, Any]) -> None:
        saved = SavedTable(table_id, json.loads(json.dumps(config)), json.loads(json.dumps(state)))
        with self._lock:
            self._tables[table_id] = saved

    def load_table(self, table_id: str) -> tuple[dict[str, Any], dict[str, Any]]:
        with self._lock:
            saved = self._tables.get(table_id)
        if saved is None:
            raise GameError(f"no table {table_id!r} in the store")
        return copy.deepcopy(saved.config), copy.deepcopy(saved.state)

    def tables(self) -> list[Any]:
        with self._lock:
            return [
                SavedTable(t.table_id, copy.deepcopy(t.config), copy.deepcopy(t.state))
                for _, t in sorted(self._tables.items())
            ]

    def add_hand(self, record: Any) -> int:
        with self._lock:
            self._hands.append(record)
            self._count += 1
            del self._hands[: -self.max_hands]
            return self._count

    def hands(self, *, table_id: str | None = None, limit: int | None = None) -> list[Any]:
        """Newest first, like the SQLite store."""
        with self._lock:
            found = [h for h in reversed(self._hands) if table_id in (None, h.table_id)]
        return found if limit is None else found[:limit]
