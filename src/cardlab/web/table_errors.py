"""The web table's own error: the modules of a room raise it and the routes turn it
into one clear message (kept apart so that any of them may import it)."""

from __future__ import annotations

from cardlab.errors import GameError


class TableFull(GameError):
    """Every seat for a person is taken (or the table takes nobody now)."""
