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

**The small games** of :mod:`cardlab.solve` at the table (Kuhn poker, Leduc Hold'em,
Leduc on FESCA, a game file: :mod:`cardlab.solve.small_table`): it plays the CFR+ average
strategy of ``cardlab solve cfr`` (:func:`cardlab.solve.strategy.solved_strategy`:
solved to 1 mbb per hand the first time, then read from the cache), looked up by its
position (position 0 acts first in every round, the solver's player 1), its private
cards, the public cards and the betting of the hand written as the solver writes it.
That strategy assumes stacks that cover every bet of the hand; with less behind it
plays as the equity bot.

**Everywhere else** (more players, deeper stacks, after the flop, a raise that is not
all in, a small blind that is not half the big, other games) it plays as the
:mod:`equity <cardlab.bots.equity>` bot.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass, field
from pathlib import Path

from cardlab.bots.equity import EquityBot
from cardlab.cards import Card
from cardlab.poker.classes import hand_classes
from cardlab.poker.games import Game
from cardlab.solve.pushfold import MAX_STACK, PushFoldSolution, solve_pushfold
from cardlab.solve.pushfold_matrix import (
    DEFAULT_SE,
    ClassMatrix,
    check_holdem,
    class_matrix,
    shipped_matrix,
)
from cardlab.table import events as ev
from cardlab.table.actions import Action
from cardlab.table.state import Phase
from cardlab.table.structure import Betting
from cardlab.table.view import SeatView
from cardlab.tasks import default_cache_dir

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
        if view.game.own_order:
            return self._small_act(view, rng)
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
        if view.game.own_order:
            reason, probs = self._small_spot(view)
            return f"CFR+ equilibrium: {reason}" if probs else f"plays as the equity bot: {reason}"
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

    # --- the small games of cardlab.solve -------------------------------------------

    def _small_act(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if legal is None or legal.phase is not Phase.BET:
            return self.fallback.act(view, rng)
        reason, probs = self._small_spot(view)
        if probs is None:
            self.last_reason = f"plays as the equity bot: {reason}"
            return self.fallback.act(view, rng)
        shown = ", ".join(f"{a} {p:.3f}" for a, p in probs.items())
        self.last_reason = f"CFR+ equilibrium: {reason}: {shown}"
        pick = rng.random()
        chosen = next(iter(probs))
        for action, p in probs.items():
            chosen = action
            pick -= p
            if pick < 0:
                break
        if chosen == "fold":
            return Action.fold()
        if chosen in ("bet", "raise") and legal.raise_min is not None:
            return Action.raise_to(legal.raise_min)
        return Action.call()

    def _small_spot(self, view: SeatView) -> tuple[str, dict[str, float] | None]:
        """The equilibrium's action probabilities at this decision (None: not solved
        here, with the reason)."""
        from cardlab.solve.small_table import SmallTableGame, most_committed
        from cardlab.solve.strategy import solved_strategy

        table = view.game
        legal = view.legal
        if not isinstance(table, SmallTableGame) or view.position is None or legal is None:
            return "not a betting decision", None
        game = table.small
        history, starts = betting_history(view)
        need = most_committed(game)
        if min(starts) < need:
            return f"stacks of {min(starts)} chips do not cover every bet ({need})", None
        order = {c: k for k, c in enumerate(game.cards)}
        hand = " ".join(str(c) for c in sorted(view.hole, key=order.__getitem__))
        board = " ".join(str(c) for c in public_cards(view, order))
        strategy = solved_strategy(game, self.cache)
        probs = strategy.at(view.position, hand, board, history)
        if probs is None:
            return f"no information set {hand} / {board or '-'} / {history or '-'}", None
        where = f"{table.key}, player {view.position + 1}, {hand}"
        where += f", board {board}" if board else ""
        return f"{where}, betting {history or '-'}", probs


def public_cards(view: SeatView, order: dict[Card, int]) -> list[Card]:
    """The board as the solver lists it: round by round, each round's cards in the
    order of the game's cards."""
    out: list[Card] = []
    for e in view.history:
        if isinstance(e, ev.DealBoard):
            out.extend(sorted(e.cards, key=order.__getitem__))
    return out


def betting_history(view: SeatView) -> tuple[str, tuple[int, ...]]:
    """The hand's betting in the solver's letters (``k`` check, ``b`` bet, ``c`` call,
    ``r`` raise, ``f`` fold, ``/`` the next round) and each position's stack at the
    start of the hand (its stack now plus every chip it put in)."""
    put = [0] * len(view.players)
    this_round = [0] * len(view.players)  # each position's bet in the round
    letters: list[str] = []
    facing = False
    for e in view.history:
        if isinstance(e, ev.NewStreet):
            if e.index > 0:
                letters.append("/")
            facing = False
            this_round = [0] * len(view.players)
        elif isinstance(e, ev.PostAnte | ev.PostBlind):
            put[e.player] += e.amount
        elif isinstance(e, ev.CheckCall):
            letters.append("c" if facing else "k")
            put[e.player] += e.amount
            this_round[e.player] += e.amount
            facing = False
        elif isinstance(e, ev.CompleteBetRaiseTo):
            letters.append("r" if facing else "b")
            put[e.player] += e.chips - this_round[e.player]
            this_round[e.player] = e.chips
            facing = True
        elif isinstance(e, ev.Fold):
            letters.append("f")
        elif isinstance(e, ev.ReturnBet):
            put[e.player] -= e.amount
    starts = tuple(pl.stack + put[k] for k, pl in enumerate(view.players))
    return "".join(letters), starts
