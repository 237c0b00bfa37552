"""The ``nash`` bot: equilibrium play where cardlab has solved the game, the ``equity``
bot elsewhere, and it says which (:meth:`NashBot.describe`).

**Push/fold.** Heads-up No-Limit Hold'em before the flop with an effective stack of
:attr:`NashBot.max_stack_bb` big blinds or fewer (25 by default, the top of the
push/fold charts), on any deck: the small blind pushes or folds, the big blind facing an
all-in calls or folds, each class of starting hands with the probabilities of the
push/fold equilibrium of that deck (:mod:`cardlab.solve.pushfold`), solved at the
stack rounded to half a big blind, the ante included. The deck's class matrix is the
shipped one on standard52 (:func:`~cardlab.solve.pushfold_matrix.standard52_matrix`),
else computed once at the standard error :attr:`NashBot.se` (exact on small decks) and
kept in the task cache, so a deck is slow only the first time.

**Everywhere else** (more players, deeper stacks, after the flop, a raise that is not
all in, a small blind that is not half the big, other games) it plays as the
:mod:`equity <cardlab.bots.equity>` bot. The small games of :mod:`cardlab.solve`
(Kuhn, Leduc and their decks) are not table games, so the bot cannot be seated in one:
their equilibria are ``cardlab solve cfr``'s.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from pathlib import Path

from cardlab.analysis.classes import hand_classes
from cardlab.analysis.runner import default_cache_dir
from cardlab.bots.equity import EquityBot
from cardlab.cards import Card
from cardlab.poker.games import Game
from cardlab.solve.pushfold import MAX_STACK, PushFoldSolution, solve_pushfold
from cardlab.solve.pushfold_matrix import (
    DEFAULT_SE,
    ClassMatrix,
    check_holdem,
    class_matrix,
    shipped_matrix,
)
from cardlab.table.actions import Action
from cardlab.table.state import Phase
from cardlab.table.structure import Betting
from cardlab.table.view import SeatView

BOT_SE = DEFAULT_SE  # the matrix `cardlab solve pushfold` computes by default: one cache


@functools.cache
def _class_index(game: Game) -> dict[frozenset[Card], int]:
    return {
        frozenset(combo): k for k, c in enumerate(hand_classes(game.rules)) for combo in c.combos
    }


@functools.lru_cache(maxsize=8)
def deck_matrix(game: Game, se: float, cache: Path | None) -> ClassMatrix:
    """The class matrix the bot plays ``game`` with (see the module text)."""
    shipped = shipped_matrix(game)
    return shipped if shipped is not None else class_matrix(game, se=se, cache=cache)


@functools.lru_cache(maxsize=256)
def _equilibrium(matrix: ClassMatrix, stack: float, ante: float) -> PushFoldSolution:
    return solve_pushfold(matrix, stack, ante, target=1e-4)


@dataclass
class NashBot:
    """See the module documentation."""

    max_stack_bb: float = MAX_STACK
    se: float = BOT_SE
    cache: Path | None = field(default_factory=default_cache_dir)
    fallback: EquityBot = field(default_factory=EquityBot)
    name: str = "nash"
    last_reason: str = ""

    def act(self, view: SeatView, rng: random.Random) -> Action:
        reason, spot = self._spot(view)
        if spot is None:
            self.last_reason = f"plays as the equity bot: {reason}"
            return self.fallback.act(view, rng)
        solution, role, cls = spot
        legal = view.legal
        if legal is None:  # _spot checked it; kept for the type checker
            return self.fallback.act(view, rng)
        name = solution.names[cls]
        if role == "push":
            p = float(solution.push[cls])
            self.last_reason = f"push/fold equilibrium: {reason}, pushes {name} with {p:.3f}"
            if rng.random() < p:
                if legal.raise_max is not None:
                    return Action.raise_to(legal.raise_max)
                return Action.call()  # the big blind covers what is left: calling is all in
            return Action.fold()
        c = float(solution.call[cls])
        self.last_reason = f"push/fold equilibrium: {reason}, calls {name} with {c:.3f}"
        return Action.call() if rng.random() < c else Action.fold()

    def describe(self, view: SeatView) -> str:
        """What the bot plays at this decision and why (without deciding)."""
        reason, spot = self._spot(view)
        return f"push/fold equilibrium: {reason}" if spot else f"plays as the equity bot: {reason}"

    def _spot(self, view: SeatView) -> tuple[str, tuple[PushFoldSolution, str, int] | None]:
        legal = view.legal
        table = view.game
        game = table.game
        if legal is None or legal.phase is not Phase.BET or view.position is None:
            return "not a betting decision", None
        if len(view.players) != 2:
            return f"{len(view.players)} players, push/fold is heads-up", None
        try:
            check_holdem(game)
        except ValueError:
            return f"{game.key} is not a Hold'em game", None
        stakes = table.stakes
        if stakes.betting is not Betting.NO_LIMIT:
            return "push/fold is solved for no-limit", None
        if view.street_index != 0:
            return "after the flop", None
        if len(stakes.blinds) != 2 or stakes.antes or 2 * stakes.blinds[0] != stakes.blinds[1]:
            return "blinds other than a small blind of half the big", None
        bb = stakes.blinds[1]
        me, them = view.players[view.position], view.players[1 - view.position]
        ante = stakes.ante / bb
        stack = (min(me.stack + me.bet, them.stack + them.bet) + stakes.ante) / bb
        if stack > self.max_stack_bb:
            return f"{stack:g} big blinds deep, above its bound of {self.max_stack_bb:g}", None
        rounded = min(max(round(stack * 2) / 2, 1.0 + ante), MAX_STACK)
        if me.bet < bb and them.bet == bb:
            role = "push"
        elif me.bet == bb and them.stack == 0 and legal.call:
            role = "call"
        else:
            return "not a push-or-fold decision (a limp or a raise that is not all in)", None
        matrix = deck_matrix(game, self.se, self.cache)
        solution = _equilibrium(matrix, rounded, ante)
        cls = _class_index(game)[frozenset(view.hole)]
        return f"{game.key}, {rounded:g} big blinds" + (f", ante {ante:g}" if ante else ""), (
            solution,
            role,
            cls,
        )
