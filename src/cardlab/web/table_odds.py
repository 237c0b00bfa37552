"""The exact odds at a web table: the all-in odds every viewer sees, each viewer's own
hints, and the rabbit hunt after a hand won early.

:class:`TableOdds` owns the odds worked out so far (by hand and board, so each count is
made once), the seats whose players turned hints on, and the counts under way. A count
runs in a worker thread (an exact count may take a second or more: the table's other
work goes on); when it is done the clients are told (``notify``). Nothing here reads a
card a viewer may not see: the all-in odds come once every hand left is face up, and a
hint reads its player's own cards and the board (:mod:`cardlab.table.odds`).

A player's hints count against a random hand, or against a range they chose
(:func:`hint_range`: the deck's own notation, read once when the hints message comes).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from cardlab.cards import Card
from cardlab.errors import ActionError, CardlabError
from cardlab.poker.equity import RANDOM, is_random
from cardlab.poker.games import HOLDEM, Game
from cardlab.poker.ranges import Range
from cardlab.solve.postflop import parse_weighted_range
from cardlab.table import HandState
from cardlab.table.odds import OddsSpot, all_in_spots, spot_odds, strength_hint
from cardlab.web.payload import RequestError

__all__ = ["TableOdds", "hint_range", "seen_by"]

log = logging.getLogger(__name__)

_KEEP = 64  # counts kept per table (a hand needs a dozen at most)
MAX_RANGE = 300  # characters of a hint's range


def seen_by(hand: HandState | None, position: int | None) -> tuple[Card, ...]:
    """The cards the player at ``position`` knows in ``hand``: their own and the boards."""
    if hand is None or position is None:
        return ()
    own = tuple(c for c in hand.hole[position] if c is not None)
    return own + tuple(c for board in hand.boards for c in board)


def hint_range(game: Game, text: object, known: tuple[Card, ...] = ()) -> Range | None:
    """The range a player's hints count against (None: a random hand; ``""`` too), read
    in the deck's own notation (:func:`cardlab.solve.postflop.parse_weighted_range`:
    ``QQ+,AKs`` on standard52, ``Z-Z, 12-9s`` on FESCA decks). ``known``: the player's
    own cards and the board now, which must leave the range a hand. Bad text is one
    :class:`RequestError` naming it."""
    if not isinstance(text, str):
        raise RequestError(f"'against' must be a range's text or \"random\": {text!r:.40}")
    if len(text) > MAX_RANGE:
        raise RequestError(f"a hint's range is at most {MAX_RANGE} characters")
    if not text.strip() or is_random(text):
        return None
    if game.base != HOLDEM:
        raise RequestError(
            f"ranges are two-card Hold'em hands; {game.name} hints count against a random hand"
        )
    try:
        held = parse_weighted_range(text, game)
    except CardlabError as exc:
        raise RequestError(f"hint range: {exc}") from None
    if any(w != 1 for w in held.weights):
        raise RequestError(f"a hint's range counts each hand once, without weights: {text!r:.80}")
    out = set(known)
    if not any(out.isdisjoint(c) for c in held.combos):
        raise RequestError(
            f"the range {held.text!r:.80} holds no hand your cards and the board leave"
        )
    return Range(held.text, held.combos)


class TableOdds:
    """See the module documentation. ``notify``: push the state to every client."""

    def __init__(self, notify: Callable[[], None] = lambda: None) -> None:
        self.notify = notify
        self.hints_on: set[int] = set()  # seats whose players asked for hints
        self.against: dict[int, Range] = {}  # a seat's chosen range (none: a random hand)
        self._done: dict[tuple[Any, ...], Any] = {}
        self._running: set[tuple[Any, ...]] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def set_hints(
        self,
        seat: int | None,
        on: object,
        against: object = None,
        *,
        game: Game | None = None,
        known: tuple[Card, ...] = (),
    ) -> None:
        """The player in ``seat`` turns their hints on or off (off by default), and
        chooses what they count against (``against``: None keeps the choice; a range's
        text, or "random"; read on ``game`` with ``known`` the player's cards and the
        board, :func:`hint_range`). Nothing changes when anything is wrong."""
        if seat is None:
            raise ActionError("hints are for a player's own cards: take a seat first")
        if not isinstance(on, bool):
            raise ActionError(f"'on' must be true or false: {on!r:.40}")
        if against is not None:
            if game is None:
                raise RequestError("this table takes no range for its hints")
            chosen = hint_range(game, against, known)
            if chosen is None:
                self.against.pop(seat, None)
            else:
                self.against[seat] = chosen
        (self.hints_on.add if on else self.hints_on.discard)(seat)
        self.notify()

    def against_text(self, seat: int | None) -> str:
        """What the hints of ``seat`` count against: a range's text, or "random"."""
        chosen = None if seat is None else self.against.get(seat)
        return RANDOM if chosen is None else chosen.text

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
        against = self.against.get(seat)
        key = ("hint", id(hand), position, len(hand.board), self.against_text(seat))

        def count() -> dict[str, Any] | None:
            found = strength_hint(hand, position, against=RANDOM if against is None else against)
            if found is None:
                return None
            out = found.as_dict()
            if against is not None:  # no hand of the range left (the board took them)
                known = set(seen_by(hand, position))
                out["range_empty"] = not any(known.isdisjoint(c) for c in against.combos)
            return out

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
