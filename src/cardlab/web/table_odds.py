"""The exact odds at a web table: the all-in odds every viewer sees, each viewer's own
hints, and the rabbit hunt after a hand won early.

:class:`TableOdds` owns the odds worked out so far (by hand and board, so each count is
made once), the seats whose players turned hints on, and the counts under way. A count
runs in a worker thread (an exact count may take a second or more: the table's other
work goes on); when it is done the clients are told (``notify``). Nothing here reads a
card a viewer may not see: the all-in odds come once every hand left is face up, and a
hint reads its player's own cards and the board (:mod:`cardlab.table.odds`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from cardlab.errors import ActionError
from cardlab.table import HandState
from cardlab.table.odds import OddsSpot, all_in_spots, spot_odds, strength_hint

__all__ = ["TableOdds"]

log = logging.getLogger(__name__)

_KEEP = 64  # counts kept per table (a hand needs a dozen at most)


class TableOdds:
    """See the module documentation. ``notify``: push the state to every client."""

    def __init__(self, notify: Callable[[], None] = lambda: None) -> None:
        self.notify = notify
        self.hints_on: set[int] = set()  # seats whose players asked for hints
        self._done: dict[tuple[Any, ...], Any] = {}
        self._running: set[tuple[Any, ...]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def set_hints(self, seat: int | None, on: object) -> None:
        """The player in ``seat`` turns their hints on or off (off by default)."""
        if seat is None:
            raise ActionError("hints are for a player's own cards: take a seat first")
        if not isinstance(on, bool):
            raise ActionError(f"'on' must be true or false: {on!r:.40}")
        (self.hints_on.add if on else self.hints_on.discard)(seat)
        self.notify()

    def all_in(self, hand: HandState | None) -> list[dict[str, Any]] | None:
        """The all-in odds street by street, as far as they are counted (None: no
        all-in, or the first street still counting). Each street's board is counted
        once: as a runout comes street by street, only the new street is counted."""
        if hand is None or hand.all_in_board is None or len(hand.in_hand()) < 2:
            return None
        holes = tuple(tuple(hand.hole[p]) for p in hand.in_hand())
        out: list[dict[str, Any]] = []
        for spot in all_in_spots(hand):
            key = ("all-in", id(hand), holes, spot)

            def count(spot: OddsSpot = spot) -> dict[str, Any] | None:
                odds = spot_odds(hand, spot)
                return None if odds is None else odds.as_dict()

            found = self._get(key, count)
            if found is None and key in self._done:
                continue  # too many deals to count now (a big deck before the flop)
            if found is None:
                break  # this street is still counting: the streets before it
            out.append(found)
        return out or None

    def hint(
        self, hand: HandState | None, seat: int, position: int | None
    ) -> dict[str, Any] | None:
        """The hint of the player in ``seat`` (at ``position`` in the hand), if they
        asked for hints and are in the hand."""
        if hand is None or hand.is_over or position is None or seat not in self.hints_on:
            return None
        if not hand.alive[position]:
            return None
        key = ("hint", id(hand), position, len(hand.board))

        def count() -> dict[str, Any] | None:
            found = strength_hint(hand, position)
            return None if found is None else found.as_dict()

        result: dict[str, Any] | None = self._get(key, count)
        return result

    def _get(self, key: tuple[Any, ...], count: Callable[[], Any]) -> Any:
        if key in self._done:
            return self._done[key]
        if key in self._running:
            return None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test, a script): count now
            self._keep(key, count())
            return self._done[key]
        self._running.add(key)
        task = loop.create_task(self._count(key, count))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return None

    async def _count(self, key: tuple[Any, ...], count: Callable[[], Any]) -> None:
        try:
            value = await asyncio.to_thread(count)
        except Exception:  # a count that fails must not stop the table
            log.exception("the odds %s could not be counted", key[0])
            value = None
        self._running.discard(key)
        self._keep(key, value)
        self.notify()

    def _keep(self, key: tuple[Any, ...], value: Any) -> None:
        if len(self._done) >= _KEEP:
            self._done.clear()
        self._done[key] = value

    def cancel(self) -> None:
        """The table closes: counts under way are dropped."""
        for task in list(self._tasks):
            task.cancel()
