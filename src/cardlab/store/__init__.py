"""The hand store: played hands, web tables and arena runs kept in one SQLite file or one
PostgreSQL database.

>>> from cardlab.store import HandRecord, Store
>>> with Store.open("hands.sqlite3") as store:          # doctest: +SKIP
...     hand_id = store.add_hand(record)
...     store.hands(game="fesca78-holdem", limit=10)
>>> Store.open("postgresql://cardlab@localhost/cardlab")  # doctest: +SKIP

The file or database, its schema, migrations and durability are described in
``docs/store.md``.
"""

from cardlab.store.records import ArenaRun, GameStats, HandRecord, PlayerStats, TableRecord
from cardlab.store.schema import APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION
from cardlab.store.store import ENV_VAR, Store, default_path

__all__ = [
    "APPLICATION_ID",
    "ENV_VAR",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "ArenaRun",
    "GameStats",
    "HandRecord",
    "PlayerStats",
    "Store",
    "TableRecord",
    "default_path",
]
