"""CFR+: counterfactual regret minimisation with regret matching+.

The variant is Tammelin's CFR+ (2014), as OpenSpiel's ``CFRPlusSolver``:

* regret matching+: cumulative regrets are clipped at 0 after every update, and the
  current strategy plays each action in proportion to its (non-negative) regret;
* alternating updates: player 1's regrets are updated, then player 2's against
  player 1's new strategy;
* linear averaging: iteration t's strategy enters the average with weight t, each
  player's strategy weighted by that player's own reach.

The average strategy converges to an equilibrium. One iteration is two passes down
and two up the public tree (:mod:`cardlab.solve.passes`), vectorised over hands.

A solve is estimated from the game's counts before its tree is built
(:func:`solve_estimate`) and refused past :mod:`cardlab.budget`'s limits.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardlab import budget
from cardlab.errors import GameError
from cardlab.solve import passes
from cardlab.solve.bestresponse import expected_value, exploitability, normalised
from cardlab.solve.games import PokerGame, tree_counts
from cardlab.solve.tree import ACTION_NAMES, Floats, PublicTree

# progress(iterations done, iterations in all, exploitability when just measured)
Progress = Callable[[int, int, float | None], None]
MAX_ITERATIONS = 10_000_000

SECONDS_PER_NODE_HAND = 1.2e-6
"""One iteration's time per [public node, hand] cell, rounded up from a FESCA78 game of
67,677 nodes and 78 hands (6.1 s an iteration on two busy cores; small trees run some
eight times faster a cell): for estimates before the work."""
SECONDS_PER_SHOWDOWN_HAND = 2e-5
"""Building the tree: each hand's strength on each board, in Python."""
BYTES_PER_NODE_HAND = 5 * 8  # reach of both players, values, gains: float64 [node, hand]
BYTES_PER_INFOSET = 4 * 3 * 8  # regrets, strategy sums, current, uniform: [decision, 3, hand]
BYTES_PER_MATRIX_CELL = 2 * 8 + 1  # per board: the compatible and signed [hand, hand], a mask


@dataclass(frozen=True, slots=True)
class InfoSet:
    """One information set: a player, its private hand, the board and the betting."""

    player: int  # 0 or 1 (shown as 1 and 2)
    hand: str
    board: str
    history: str
    actions: tuple[str, ...]
    probabilities: tuple[float, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.player + 1,
            "hand": self.hand,
            "board": self.board,
            "history": self.history,
            "strategy": dict(zip(self.actions, self.probabilities, strict=True)),
        }


@dataclass(frozen=True)
class Solution:
    """A solved game: the average strategy, its value and its exploitability."""

    game: PokerGame
    tree: PublicTree = field(repr=False)
    strategy: Floats = field(repr=False)  # [decision, action, hand], normalised
    iterations: int
    value: float  # player 1's expected chips per hand
    exploitability: float  # chips per hand
    seconds: float

    @property
    def exploitability_mbb(self) -> float:
        """The exploitability in milli-big-blinds per hand."""
        return 1000.0 * self.exploitability / self.game.unit

    def infosets(self) -> list[InfoSet]:
        """Every information set a player can be in, in tree order."""
        tree = self.tree
        rows = []
        for d, node_id in enumerate(tree.decision_nodes):
            node = tree.nodes[int(node_id)]
            labels = tuple(ACTION_NAMES[a] for a in node.actions)
            for h in np.flatnonzero(tree.hand_valid[node.board]):
                probs = tuple(float(x) for x in self.strategy[d, : len(labels), h])
                rows.append(
                    InfoSet(
                        node.player,
                        tree.hand_text(int(h)),
                        tree.board_text(node.board),
                        node.history,
                        labels,
                        probs,
                    )
                )
        return rows

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game.definition(),
            "cards": [str(c) for c in self.game.cards],
            "solver": "CFR+",
            "iterations": self.iterations,
            "value": self.value,
            "exploitability": self.exploitability,
            "exploitability_mbb": self.exploitability_mbb,
            "seconds": self.seconds,
            "strategy": [i.as_dict() for i in self.infosets()],
        }


class CFRPlus:
    """The solver's state: cumulative regrets and the weighted strategy sum."""

    def __init__(self, game: PokerGame | PublicTree) -> None:
        self.tree = game if isinstance(game, PublicTree) else PublicTree(game)
        tree = self.tree
        shape = (len(tree.decision_nodes), tree.legal.shape[1], len(tree.hands))
        self.regret = np.zeros(shape)
        self.strategy_sum = np.zeros(shape)
        self._uniform = normalised(tree, np.zeros(shape))
        self.current = self._uniform.copy()
        self.iterations = 0
        self._legal = tree.legal[:, :, None]

    def iterate(self, count: int = 1) -> None:
        """Run ``count`` iterations (each updates both players once)."""
        tree = self.tree
        for _ in range(count):
            self.iterations += 1
            t = self.iterations
            for p in (0, 1):
                mine = tree.decisions_of[p]  # a slice: every array below is a view
                nodes = tree.decision_nodes[mine]
                r = passes.reach(tree, self.current)
                v = passes.values(tree, self.current, p, r[1 - p])
                gain = v[tree.decision_children[mine]]
                gain -= v[nodes][:, None, :]
                gain *= self._legal[mine]
                regret = self.regret[mine]
                regret += gain
                np.maximum(regret, 0.0, out=regret)
                self.strategy_sum[mine] += (t * r[p][nodes])[:, None, :] * self.current[mine]
                total = regret.sum(axis=1, keepdims=True)
                current = self.current[mine]
                np.copyto(current, self._uniform[mine])
                np.divide(regret, total, out=current, where=total > 0)

    def average(self) -> Floats:
        """The average strategy so far (the one that converges)."""
        return normalised(self.tree, self.strategy_sum)

    def exploitability(self) -> float:
        return exploitability(self.tree, self.average()).value


@dataclass(frozen=True, slots=True)
class SolveEstimate:
    """What a solve of a game will hold and take, counted from its definition."""

    hands: int
    boards: int
    nodes: int
    infosets: int
    iterations: int
    seconds: float
    nbytes: int

    def __str__(self) -> str:
        return (
            f"{self.nodes:,} public nodes, {self.infosets:,} information sets, "
            f"{self.iterations:,} iterations"
        )


def solve_estimate(game: PokerGame, iterations: int, *, target: bool = False) -> SolveEstimate:
    """About how long ``iterations`` of CFR+ on ``game`` take on this machine and the
    memory they hold, before the tree is built; ``target``: the exploitability is
    measured every 10 iterations too (about one more iteration each time)."""
    counts = tree_counts(game)
    hands, boards, nodes, decisions = counts.hands, counts.boards, counts.nodes, counts.decisions
    cells = nodes * hands
    passes_ = iterations * (1.1 if target else 1.0) + 3  # the value, exploitability at the end
    seconds = passes_ * cells * SECONDS_PER_NODE_HAND + boards * hands * SECONDS_PER_SHOWDOWN_HAND
    nbytes = (
        cells * BYTES_PER_NODE_HAND
        + decisions * hands * BYTES_PER_INFOSET
        + boards * hands * hands * BYTES_PER_MATRIX_CELL
    )
    return SolveEstimate(hands, boards, nodes, counts.infosets, iterations, seconds, nbytes)


def check_solve(game: PokerGame, iterations: int, *, target: bool = False) -> SolveEstimate:
    """The estimate of a solve, refused past the budget's time or memory (one line that
    gives the estimate and what to ask for instead)."""
    estimate = solve_estimate(game, iterations, target=target)
    what = f"solving {game.name} with CFR+ ({estimate})"
    instead = "ask for fewer iterations, or a game with fewer cards, rounds or raises"
    budget.check_memory(what, estimate.nbytes, instead)
    budget.check(what, estimate.seconds, instead)
    return estimate


def solve(
    game: PokerGame,
    iterations: int,
    *,
    target: float | None = None,
    check_every: int = 10,
    progress: Progress | None = None,
) -> Solution:
    """Run CFR+ for ``iterations``, or until the average strategy's exploitability
    (chips per hand, measured every ``check_every`` iterations) is at most ``target``."""
    if not 1 <= iterations <= MAX_ITERATIONS:
        raise GameError(f"iterations must be from 1 to {MAX_ITERATIONS:,}, not {iterations}")
    if target is not None and not target > 0:
        raise GameError(f"the target exploitability must be above 0, not {target}")
    check_solve(game, iterations, target=target is not None)
    started = time.perf_counter()
    solver = CFRPlus(game)
    reached: float | None = None
    while solver.iterations < iterations:
        solver.iterate(min(check_every, iterations - solver.iterations))
        reached = solver.exploitability() if target is not None else None
        if progress is not None:
            progress(solver.iterations, iterations, reached)
        if reached is not None and target is not None and reached <= target:
            break
    strategy = solver.average()
    value = expected_value(solver.tree, strategy, 0)
    exploit = exploitability(solver.tree, strategy).value
    return Solution(
        game,
        solver.tree,
        strategy,
        solver.iterations,
        value,
        exploit,
        time.perf_counter() - started,
    )
