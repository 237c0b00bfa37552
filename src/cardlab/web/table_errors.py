"""The web table's own errors: the modules of a room raise it and the routes turn it
into one clear message (kept apart so that any of them may import it)."""

from __future__ import annotations

from cardlab.errors import GameError


class TableFull(GameError):
    """Every seat for a person is taken (or the table takes nobody now)."""


AWAY = "the table's store is unreachable; play resumes when it returns"


class StoreAway(GameError):
    """The table's store cannot be reached: nothing that must be stored is done now
    (HTTP 503; see :mod:`cardlab.web.store_watch`)."""
