"""Where the web tables keep their chips: the hand store.

The live tables need four things of a store: ``save_table(table_id, config, state)``
after every hand, ``tables()`` at start-up (records with ``table_id``, ``config``,
``state``), ``add_hand(record)`` for each finished hand, and ``hands(table_id=...)``.
:class:`cardlab.store.Store` has exactly these: :func:`open_table_store` opens the
SQLite file, or a store in memory whose tables end with the process.
"""

from __future__ import annotations

from typing import Any, Protocol

from cardlab.store import Store


class TableStore(Protocol):
    def save_table(self, table_id: str, config: dict[str, Any], state: dict[str, Any]) -> None: ...

    def tables(self) -> list[Any]: ...

    def add_hand(self, record: Any) -> int: ...


def open_table_store(path: str | None) -> Store:
    """The SQLite hand store at ``path`` (None: in memory)."""
    return Store.open(path) if path is not None else Store.in_memory()
