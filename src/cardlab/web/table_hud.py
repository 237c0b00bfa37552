"""The heads-up display of a web table: each seated player's statistics at this table.

When the host turns it on (the ``hud`` setting), every seat shows its player's hands,
VPIP, PFR, 3-bet, aggression factor and went-to-showdown over the hands this table
stored, counted by :func:`cardlab.table.player_stats.summarize` and
:func:`~cardlab.table.player_stats.player_stats`, the very code of ``cardlab history
stats`` (the definitions: docs/player-stats.md), by the player's name. The figures come
from the stored hands (:meth:`Store.hands`), which the statistics read only for the
actions: what a player did, never the cards they hid (the hole cards in the store are
not looked at by any of these counts). Each viewer's page may hide the HUD.

:class:`Hud` owns the summaries of the hands it has read (by hand id, so each hand is
replayed once) and the figures; :meth:`Hud.refresh` reads the hands stored since and is
called after each hand, in a worker thread when the room has a running loop (a replay
costs milliseconds; the all-in adjustment, which the HUD's figures do not use, is not
worked out).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from cardlab.errors import CardlabError, GameError, HistoryError
from cardlab.table import phh
from cardlab.table.player_stats import (
    EquityCache,
    HandSummary,
    PlayerStats,
    player_stats,
    summarize,
)
from cardlab.web.table_config import TableConfig
from cardlab.web.table_outlets import Outlets

__all__ = ["Hud", "NoEquities", "hud_row"]

log = logging.getLogger(__name__)


class NoEquities(EquityCache):
    """The HUD's figures never use an all-in's equity: none is worked out (each all-in
    is left unadjusted, which changes only the expected net)."""

    def equities(self, *args: Any, **kwargs: Any) -> tuple[Fraction, ...]:
        raise GameError("the HUD does not adjust all-ins")


def _share(count: int, chances: int) -> float | None:
    return None if not chances else round(100 * count / chances, 1)


def hud_row(stats: PlayerStats) -> dict[str, Any]:
    """One player's HUD figures: each rate as a percent (one decimal) with its count and
    chances, the aggression factor (None without a call)."""
    factor = stats.aggression_factor
    out: dict[str, Any] = {"hands": stats.hands}
    for key, rate in (
        ("vpip", stats.vpip),
        ("pfr", stats.pfr),
        ("three_bet", stats.three_bet),
        ("went_to_showdown", stats.went_to_showdown),
    ):
        out[key] = {"percent": _share(rate.count, rate.chances), "count": rate.count,
                    "chances": rate.chances}  # fmt: skip
    out["aggression"] = None if factor is None else round(float(factor), 2)
    out["aggression_exact"] = None if factor is None else str(Fraction(factor))
    return out


class Hud:
    """The HUD of one table; see the module documentation. ``config``: the table's
    settings now; ``hands_played()``: the table's hand count (a change means a refresh
    is due)."""

    def __init__(
        self,
        outlets: Outlets,
        config: Callable[[], TableConfig],
        hands_played: Callable[[], int],
    ) -> None:
        self.out = outlets
        self.config = config
        self.hands_played = hands_played
        self.summaries: dict[int, HandSummary] = {}
        self.figures: dict[str, dict[str, Any]] = {}
        self.counted = -1  # the table's hand count when the figures were made
        self._cache = NoEquities()
        self._task: asyncio.Task[None] | None = None

    def refresh(self) -> None:
        """Read the hands stored since the last refresh and count again."""
        played = self.hands_played()
        try:
            # after the first read, only the newest hands can be new ones
            since = played - self.counted
            limit = None if not self.summaries or since < 0 else max(20, 2 * since)
            records = self.out.store.hands(table_id=self.out.table_id, limit=limit)
        except CardlabError:
            log.exception("table %s: the HUD could not read the hands", self.out.table_id)
            return
        for record in reversed(records):  # oldest first
            if record.id in self.summaries:
                continue
            try:
                self.summaries[record.id] = summarize(
                    phh.loads(record.phh), cache=self._cache, label=f"hand {record.id}"
                )
            except (HistoryError, CardlabError):
                log.warning(
                    "table %s: hand %s not counted by the HUD", self.out.table_id, record.id
                )
        self.figures = {s.name: hud_row(s) for s in player_stats(self.summaries.values())}
        self.counted = played

    def due(self) -> bool:
        return self.config().hud and self.counted != self.hands_played()

    def update(self) -> None:
        """After a hand: refresh in a worker thread (then push the state), or here when no
        loop runs."""
        if not self.due():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.refresh()
            return
        if self._task is not None and not self._task.done():
            return  # the next update catches up
        self._task = loop.create_task(self._refresh_off_loop())

    async def _refresh_off_loop(self) -> None:
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.refresh)
        self.out.notify()

    def shown(self, names: list[str]) -> dict[str, Any] | None:
        """Each seat's figures by seat order (None for an open seat or a player with no
        hand here yet), or None when the host has not turned the HUD on."""
        if not self.config().hud:
            return None
        self.update()
        return {"seats": [self.figures.get(n) if n else None for n in names]}
