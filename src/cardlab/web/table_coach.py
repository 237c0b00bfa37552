"""The coach of a web table: after each hand, the viewer's push/fold decisions next to
the push/fold equilibrium of the deck at that stack, and the EV they lost.

The coach is off until a viewer turns it on (``{"type": "coach", "on": true}``), for
that browser alone, and only at a practice table or a table where every other seat is a
bot (so it never helps anyone against another person). After each hand it reviews the
viewer's decisions with :func:`cardlab.solve.pushfold_review.pushfold_spots` and
:func:`~cardlab.solve.pushfold_review.review` against
:func:`~cardlab.solve.pushfold.solve_pushfold` on the deck's class matrix at the hand's
effective stack and ante, and sends that browser's connections alone a ``{"type":
"coach", ...}`` message: the last reviews and the session's summary (decisions, those
that lost EV, the EV lost in all and per decision, in big blinds). A session is from
turning the coach on to turning it off; it lives in memory.

**The river** (:mod:`cardlab.solve.river_review`): when the viewer made a decision on the
river of a heads-up No-Limit Hold'em hand, the same worker thread solves that river with
the postflop solver (the reference ranges of that module, said on the page as
"assuming ...") and the review adds the solver's strategy for the viewer's two cards and
the EV of each action (``"river"``); the summary counts those decisions apart
(``"river"``). Only the viewer's own cards are in it, and only its browser is sent it.

**Class matrices** (:class:`Matrices`): the standard52 one comes with cardlab; another
deck's is sampled once (standard error :data:`MATRIX_SE`) in a worker thread and kept in
the task cache on disk, so the first hands at a new deck are reviewed when it is ready
(the coach says so meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from cardlab.errors import CardlabError
from cardlab.poker.games import Game
from cardlab.solve.pushfold import PushFoldSolution, solve_pushfold
from cardlab.solve.pushfold_matrix import ClassMatrix, class_matrix, shipped_matrix
from cardlab.solve.pushfold_review import Decision, pushfold_spots, review
from cardlab.solve.river_review import review_river
from cardlab.table import HandState
from cardlab.web.payload import RequestError, shown
from cardlab.web.table_config import TableConfig
from cardlab.web.table_seats import SeatInfo

__all__ = ["MATRIX_SE", "Coach", "CoachError", "Matrices"]

log = logging.getLogger(__name__)

MATRIX_SE = 0.02  # standard error of a sampled class pair's equity
SHOWN = 10  # reviews in each message
MISTAKE = 0.01  # big blinds: an EV loss below this is not counted as a mistake
SEND_TIMEOUT = 10.0


class CoachError(RequestError):
    """The coach cannot be turned on here; the message says why."""


class Matrices:
    """The class matrix of each deck and rules, and the solutions asked of it (see the
    module documentation). ``cache``: the directory of the task cache (None: nothing
    kept on disk); ``se``: the sampled matrices' standard error."""

    def __init__(self, cache: Path | None = None, se: float = MATRIX_SE) -> None:
        self.cache = cache
        self.se = se
        self._known: dict[Game, ClassMatrix] = {}
        self._solutions: OrderedDict[tuple[Game, float, float], PushFoldSolution] = OrderedDict()
        self._lock = threading.Lock()
        self._building = threading.Lock()

    def get(self, game: Game) -> ClassMatrix | None:
        """The matrix of ``game`` if known (None: not yet, see :meth:`build`)."""
        known = self._known.get(game)
        if known is None:
            known = shipped_matrix(game)
            if known is not None:
                self._known[game] = known
        return known

    def build(self, game: Game) -> ClassMatrix:
        """Work out (or read from the cache) the matrix of ``game``: slow, call it from a
        worker thread."""
        with self._building:  # one build at a time: a second caller waits, then reads it
            known = self.get(game)
            if known is not None:
                return known
            matrix = class_matrix(game, se=self.se, cache=self.cache)
            self._known[game] = matrix
            return matrix

    def solution(self, game: Game, stack: float, ante: float) -> PushFoldSolution:
        """The equilibrium of ``game`` at ``stack`` and ``ante`` big blinds (its matrix
        must be known): the 64 last asked are kept."""
        key = (game, round(stack, 3), round(ante, 4))
        with self._lock:
            known = self._solutions.get(key)
            if known is not None:
                self._solutions.move_to_end(key)
                return known
        matrix = self.get(game)
        if matrix is None:
            raise CardlabError(f"the push/fold matrix of {game.key} is not ready")
        solution = solve_pushfold(matrix, key[1], key[2], target=1e-4)
        with self._lock:
            self._solutions[key] = solution
            while len(self._solutions) > 64:
                self._solutions.popitem(last=False)
        return solution


def default_matrices() -> Matrices:
    from cardlab.tasks import default_cache_dir

    return Matrices(default_cache_dir())


class _Sender(Protocol):
    async def send_text(self, data: str) -> None: ...


@dataclass
class _Session:
    reviews: deque[dict[str, Any]] = field(default_factory=lambda: deque(maxlen=SHOWN))
    decisions: int = 0
    mistakes: int = 0
    lost: float = 0.0
    hands: int = 0  # hands reviewed
    river_decisions: int = 0
    river_mistakes: int = 0
    river_lost: float = 0.0
    note: str = ""


class Coach:
    """The coach of one table; see the module documentation. ``config``: the table's
    settings now; ``seats()``: who sits where; ``matrices``: the class matrices."""

    def __init__(
        self,
        config: Callable[[], TableConfig],
        seats: Callable[[], Sequence[SeatInfo]],
        *,
        matrices: Matrices | None = None,
    ) -> None:
        self.config = config
        self.seats = seats
        self._matrices = matrices
        self.sessions: dict[str, _Session] = {}
        self._listeners: dict[int, tuple[str | None, _Sender]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._lock = threading.Lock()  # reviews finish in worker threads

    @property
    def matrices(self) -> Matrices:
        if self._matrices is None:
            self._matrices = default_matrices()
        return self._matrices

    # --- turning it on and off -----------------------------------------------------------

    def refusal(self, author: str | None) -> str | None:
        """Why ``author`` may not have the coach here (None: they may)."""
        if not author:
            return "open the table's page first (it gives your browser its key)"
        if self.config().practice:
            return None
        people = [s for s in self.seats() if s.kind == "human" and s.token_sha256 != author]
        if people:
            return "the coach is for practice tables and tables of bots: another person plays here"
        return None

    def switch(self, author: str | None, on: object) -> dict[str, Any]:
        """Turn the coach on or off for ``author``; the message its connections get."""
        if not isinstance(on, bool):
            raise CoachError(f"'on' must be true or false: {shown(on, 40)}")
        if on:
            why = self.refusal(author)
            if why is not None:
                raise CoachError(f"the coach cannot help here: {why}")
            assert author is not None
            self.sessions.setdefault(author, _Session())
        elif author is not None:
            self.sessions.pop(author, None)
        return self.status(author)

    # --- after a hand ---------------------------------------------------------------------

    def after_hand(
        self, number: int, hand: HandState, order: Sequence[int], sittings: Sequence[str]
    ) -> None:
        """Review hand ``number`` (``order``: the seats by position, ``sittings``: who sat
        there) for every browser with the coach on that played it."""
        for author, session in list(self.sessions.items()):
            position = self._position(author, order, sittings)
            if position is None:
                continue
            why = self.refusal(author)
            if why is not None:
                self.sessions.pop(author, None)
                self.tell(author, self.status(author) | {"note": f"the coach stopped: {why}"})
                continue
            self._review_soon(author, session, number, hand, position)

    def _position(self, author: str, order: Sequence[int], sittings: Sequence[str]) -> int | None:
        seats = self.seats()
        for position, (seat, sitting) in enumerate(zip(order, sittings, strict=False)):
            info = seats[seat]
            if info.token_sha256 == author and info.sitting == sitting:
                return position
        return None

    def _review_soon(
        self, author: str, session: _Session, number: int, hand: HandState, position: int
    ) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.review_hand(session, number, hand, position)
            return
        task = loop.create_task(self._review_off_loop(author, session, number, hand, position))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _review_off_loop(
        self, author: str, session: _Session, number: int, hand: HandState, position: int
    ) -> None:
        game = hand.game.game
        try:
            if self.matrices.get(game) is None and pushfold_spots(hand)[1] is None:
                session.note = f"working out the push/fold equilibrium of the {game.deck.name} deck"
                self.tell(author, self.status(author))
                await asyncio.to_thread(self.matrices.build, game)
                session.note = ""
            await asyncio.to_thread(self.review_hand, session, number, hand, position)
        except Exception:  # a review that fails must not stop the table
            log.exception("the coach could not review hand %d", number)
            session.note = f"the coach could not review hand {number}"
        self.tell(author, self.status(author))

    def review_hand(self, session: _Session, number: int, hand: HandState, position: int) -> None:
        """Judge the push/fold and river decisions of ``position`` in ``hand`` into
        ``session``. Slow (solves): called in a worker thread. The session changes once, when
        the review is complete, so a message never counts a hand whose review it lacks."""
        spots, why = pushfold_spots(hand)
        mine = [s for s in spots if s.player == position]
        entry: dict[str, Any] = {"hand": number, "decisions": [], "note": None}
        decisions: list[Decision] = []
        if not mine:
            entry["note"] = why or "no push/fold decision of yours"
        else:
            game = hand.game.game
            if self.matrices.get(game) is None:
                self.matrices.build(game)
            for spot in mine:
                solution = self.matrices.solution(game, spot.stack, spot.ante)
                matrix = self.matrices.get(game)
                assert matrix is not None
                decisions.append(review(game, matrix, solution, spot))
            entry["decisions"] = [d.as_dict() for d in decisions]
        try:
            river, _ = review_river(hand, position)
        except Exception:  # the push/fold part stands without it
            log.exception("the coach could not review the river of hand %d", number)
            river = None
            entry["river_note"] = "the coach could not review this river"
        if river is not None:
            entry["river"] = river.as_dict()
        with self._lock:
            session.hands += 1
            for d in decisions:
                session.decisions += 1
                session.lost += d.ev_lost
                session.mistakes += d.ev_lost >= MISTAKE
            if river is not None:
                for rd in river.decisions:
                    session.river_decisions += 1
                    session.river_lost += rd.ev_lost
                    session.river_mistakes += rd.ev_lost >= max(MISTAKE, river.precision)
            session.reviews.append(entry)

    # --- what the viewer is sent ----------------------------------------------------------

    def status(self, author: str | None) -> dict[str, Any]:
        """The ``coach`` message of ``author``: on or off, the last reviews, the summary."""
        session = None if author is None else self.sessions.get(author)
        if session is None:
            return {"type": "coach", "on": False, "available": self.refusal(author) is None}
        with self._lock:
            return self._status(session)

    def _status(self, session: _Session) -> dict[str, Any]:
        per = session.lost / session.decisions if session.decisions else None
        return {
            "type": "coach",
            "on": True,
            "available": True,
            "reviews": sorted(session.reviews, key=lambda r: int(r["hand"])),
            "summary": {
                "hands": session.hands,
                "decisions": session.decisions,
                "mistakes": session.mistakes,
                "ev_lost_bb": round(session.lost, 4),
                "ev_lost_per_decision_bb": None if per is None else round(per, 4),
                "river": {
                    "decisions": session.river_decisions,
                    "mistakes": session.river_mistakes,
                    "ev_lost_bb": round(session.river_lost, 4),
                },
            },
            "note": session.note or None,
        }

    def listen(self, conn_id: int, conn: _Sender, author: str | None) -> None:
        self._listeners[conn_id] = (author, conn)

    def unlisten(self, conn_id: int) -> None:
        self._listeners.pop(conn_id, None)

    def tell(self, author: str, message: dict[str, Any]) -> None:
        """Send ``author``'s connections ``message`` (on the running loop, if any)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        text = json.dumps(message, ensure_ascii=False)
        for who, conn in list(self._listeners.values()):
            if who == author:
                task = loop.create_task(_deliver(conn, text))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)


async def _deliver(conn: _Sender, text: str) -> None:
    with contextlib.suppress(Exception):  # gone: it reconnects and asks again
        async with asyncio.timeout(SEND_TIMEOUT):
            await conn.send_text(text)
