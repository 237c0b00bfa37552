"""Heads-up push/fold on any deck: the small blind moves all in or folds, the big blind
calls the all-in or folds, both ``S`` big blinds deep, each seat posting an ante ``A``.

**The game.** Per deal (both hands from the :class:`~.pushfold_matrix.ClassMatrix` of the
deck: class ``i`` for the small blind, ``j`` for the big blind, dealt with weight
``deals[i, j]``) the small blind's result in big blinds is

- it folds: ``-(1/2 + A)``;
- it pushes, the big blind folds: ``+(1 + A)``;
- it pushes, the big blind calls: ``2 S e[i, j] - S`` (the pot of both stacks, ante
  included, shared by equity).

A strategy is a push probability per class for the small blind and a call probability
per class for the big blind: two moves for each class, a zero-sum game whose payoff is
bilinear in the two.

**Solving.** CFR+ on the classes, vectorised with numpy (the regrets of the two moves of
every class updated at once, the players alternately, the average weighted by the
iteration: :class:`cardlab.solve.CFRPlus`'s scheme), until the exact exploitability is
below ``target``. **Exploitability** is that of :mod:`cardlab.solve.bestresponse`: the
mean over the two seats of what a best response to the other gains over the game value
(``(BR_sb + BR_bb) / 2``), here exact: a best response pushes (calls) with every class
whose push (call) is worth more than folding against the other's strategy. In big blinds
per hand and in milli-big-blinds (mbb) per hand.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from cardlab.errors import GameError
from cardlab.solve.pushfold_matrix import ClassMatrix

Array = np.ndarray[Any, Any]

MIN_STACK = 1.0
MAX_STACK = 25.0
TARGET = 1e-5  # big blinds per hand: the exploitability a solve stops at
MAX_ITERATIONS = 200_000


@dataclass(frozen=True, slots=True)
class PushFoldRules:
    """Both stacks (``stack`` big blinds before posting) and each seat's ``ante``."""

    stack: float
    ante: float = 0.0

    def __post_init__(self) -> None:
        if not (isinstance(self.stack, int | float) and math.isfinite(self.stack)):
            raise GameError(f"the stack is a number of big blinds, got {self.stack!r}")
        if not MIN_STACK <= self.stack <= MAX_STACK:
            raise GameError(
                f"push/fold stacks are {MIN_STACK:g} to {MAX_STACK:g} big blinds, "
                f"got {self.stack:g}"
            )
        if not (math.isfinite(self.ante) and self.ante >= 0):
            raise GameError(f"the ante is a non-negative number of big blinds, got {self.ante!r}")
        if self.stack < 1 + self.ante:
            raise GameError(
                f"a stack of {self.stack:g} big blinds cannot post the big blind and an ante "
                f"of {self.ante:g}"
            )


@dataclass(frozen=True, eq=False)
class PushFoldSolution:
    """An equilibrium of push/fold: per class (``names``) the push and call probability;
    the small blind's value and the exploitability, in big blinds per hand."""

    game: str
    rules: PushFoldRules
    names: tuple[str, ...]
    hands: tuple[int, ...]
    push: Array = field(repr=False)
    call: Array = field(repr=False)
    value: float
    exploitability: float
    iterations: int
    seconds: float
    exact_matrix: bool
    matrix_se: float

    @property
    def exploitability_mbb(self) -> float:
        return 1000 * self.exploitability

    def _share(self, p: Array) -> float:
        w = np.array(self.hands, np.float64)
        return float((w * p).sum() / w.sum())

    @property
    def push_share(self) -> float:
        """The share of all hands the small blind pushes."""
        return self._share(self.push)

    @property
    def call_share(self) -> float:
        """The share of all hands the big blind calls an all-in with."""
        return self._share(self.call)

    def push_of(self, name: str) -> float:
        return float(self.push[self._index(name)])

    def call_of(self, name: str) -> float:
        return float(self.call[self._index(name)])

    def _index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise GameError(f"no starting-hand class {name!r} on {self.game}") from None

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "stack": self.rules.stack,
            "ante": self.rules.ante,
            "value": round(self.value, 6),
            "exploitability": self.exploitability,
            "exploitability_mbb": self.exploitability_mbb,
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
            "matrix": {"exact": self.exact_matrix, "se": self.matrix_se},
            "push_share": round(self.push_share, 6),
            "call_share": round(self.call_share, 6),
            "classes": [
                {"class": n, "hands": h, "push": round(float(p), 4), "call": round(float(c), 4)}
                for n, h, p, c in zip(self.names, self.hands, self.push, self.call, strict=True)
            ],
        }


@dataclass(frozen=True, eq=False)
class _Payoffs:
    """The game in arrays, every figure already weighted by the deals: ``w`` (K x K)
    normalised to sum 1, ``called`` the small blind's result when called."""

    w: Array
    called: Array
    steal: float  # the small blind's gain when the big blind folds
    fold: float  # the small blind's result when it folds

    @classmethod
    def of(cls, matrix: ClassMatrix, rules: PushFoldRules) -> _Payoffs:
        w = matrix.deals.astype(np.float64)
        w /= w.sum()
        s = rules.stack
        return cls(w, 2 * s * matrix.equity - s, 1 + rules.ante, -(0.5 + rules.ante))

    def sb_moves(self, call: Array) -> tuple[Array, Array]:
        """Per small-blind class, weighted by its deals: pushing's and folding's worth."""
        push = (self.w * (call[None, :] * self.called + (1 - call[None, :]) * self.steal)).sum(1)
        return push, self.fold * self.w.sum(1)

    def bb_moves(self, push: Array) -> tuple[Array, Array]:
        """Per big-blind class facing an all-in (the folded deals add the same to both):
        calling's and folding's worth to the big blind."""
        reach = self.w * push[:, None]
        return -(reach * self.called).sum(0), -self.steal * reach.sum(0)

    def value(self, push: Array, call: Array) -> float:
        """The small blind's expected result per hand."""
        p, f = self.sb_moves(call)
        return float((push * p + (1 - push) * f).sum())

    def exploitability(self, push: Array, call: Array) -> tuple[float, float]:
        """(small blind's value, exploitability): the exact best responses."""
        p, f = self.sb_moves(call)
        sb_best = float(np.maximum(p, f).sum())
        c, f2 = self.bb_moves(push)
        folded = float(((1 - push)[:, None] * self.w).sum()) * -self.fold  # bb's gain
        bb_best = float(np.maximum(c, f2).sum()) + folded
        v = float((push * p + (1 - push) * f).sum())
        return v, max((sb_best - v) + (bb_best + v), 0.0) / 2


def solve_pushfold(
    matrix: ClassMatrix,
    stack: float,
    ante: float = 0.0,
    *,
    target: float = TARGET,
    max_iterations: int = MAX_ITERATIONS,
) -> PushFoldSolution:
    """The push/fold equilibrium on ``matrix``'s deck, ``stack`` big blinds deep, to an
    exploitability of at most ``target`` big blinds per hand (or ``max_iterations``)."""
    rules = PushFoldRules(float(stack), float(ante))
    if not target > 0:
        raise GameError(f"the target exploitability must be positive, got {target!r}")
    start = time.perf_counter()
    game = _Payoffs.of(matrix, rules)
    k = len(matrix.names)
    regret = np.zeros((2, 2, k))  # [seat, move (0 aggressive, 1 fold), class]
    total = np.zeros((2, k))  # weighted sums of the aggressive move's probability
    weight_sum = 0.0
    current = np.full((2, k), 0.5)
    avg = current.copy()
    expl = math.inf
    t = 0
    while t < max_iterations:
        t += 1
        for seat in (0, 1):
            a, f = game.sb_moves(current[1]) if seat == 0 else game.bb_moves(current[0])
            here = current[seat] * a + (1 - current[seat]) * f
            regret[seat, 0] = np.maximum(regret[seat, 0] + a - here, 0.0)
            regret[seat, 1] = np.maximum(regret[seat, 1] + f - here, 0.0)
            s = regret[seat, 0] + regret[seat, 1]
            current[seat] = np.where(s > 0, regret[seat, 0] / np.where(s > 0, s, 1.0), 0.5)
        total += t * current
        weight_sum += t
        if t % 50 == 0 or t == max_iterations:
            avg = total / weight_sum
            _, expl = game.exploitability(avg[0], avg[1])
            if expl <= target:
                break
    avg = total / weight_sum
    value, expl = game.exploitability(avg[0], avg[1])
    return PushFoldSolution(
        matrix.game,
        rules,
        matrix.names,
        matrix.hands,
        avg[0],
        avg[1],
        value,
        expl,
        t,
        time.perf_counter() - start,
        matrix.exact,
        matrix.se,
    )


def exploitability(
    matrix: ClassMatrix, stack: float, push: Array, call: Array, ante: float = 0.0
) -> float:
    """The exploitability (big blinds per hand) of any push and call probabilities."""
    game = _Payoffs.of(matrix, PushFoldRules(float(stack), float(ante)))
    return game.exploitability(np.asarray(push, np.float64), np.asarray(call, np.float64))[1]


CHART_STACKS = tuple(x / 2 for x in range(2, 51))
"""The stacks a chart solves: 1 to 25 big blinds by halves."""


@dataclass(frozen=True, eq=False)
class PushFoldChart:
    """For each class, the highest stack of :data:`CHART_STACKS` at which it pushes
    (calls) with probability at least 1/2 (0: at none); ``MAX_STACK`` means at every
    stack of the chart up to 25 big blinds and probably beyond (written ``25+``).
    ``push_gap`` (``call_gap``): the class folds at some smaller stack of the chart
    (charts mark it ``*``: 63s pushes at 7 big blinds, not at 4)."""

    game: str
    ante: float
    names: tuple[str, ...]
    push: tuple[float, ...]
    call: tuple[float, ...]
    push_gap: tuple[bool, ...]
    call_gap: tuple[bool, ...]
    worst_exploitability: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "ante": self.ante,
            "stacks": list(CHART_STACKS),
            "worst_exploitability": self.worst_exploitability,
            "classes": [
                {"class": n, "push": p, "call": c, "push_gap": pg, "call_gap": cg}
                for n, p, c, pg, cg in zip(
                    self.names, self.push, self.call, self.push_gap, self.call_gap, strict=True
                )
            ],
        }


def pushfold_chart(
    matrix: ClassMatrix,
    ante: float = 0.0,
    *,
    target: float = 1e-4,
    progress: Any = None,
) -> PushFoldChart:
    """Solve every stack of :data:`CHART_STACKS` (those that can post the ante)."""
    stacks = [s for s in CHART_STACKS if s >= 1 + ante]
    if not stacks:
        raise GameError(
            f"no chart stack up to {MAX_STACK:g} big blinds can post an ante of {ante:g}"
        )
    k = len(matrix.names)
    push_bound, call_bound = np.zeros(k), np.zeros(k)
    push_gap, call_gap = np.zeros(k, bool), np.zeros(k, bool)
    worst = 0.0
    for n, s in enumerate(stacks):
        sol = solve_pushfold(matrix, s, ante, target=target)
        worst = max(worst, sol.exploitability)
        pushes, calls = sol.push >= 0.5, sol.call >= 0.5
        # a class that plays here after folding at a smaller stack has a gap
        push_gap = np.where(pushes, push_gap | (push_bound < s - 0.5 - 1e-9) & (n > 0), push_gap)
        call_gap = np.where(calls, call_gap | (call_bound < s - 0.5 - 1e-9) & (n > 0), call_gap)
        push_bound = np.where(pushes, s, push_bound)
        call_bound = np.where(calls, s, call_bound)
        if progress is not None:
            progress(n + 1, len(stacks))
    return PushFoldChart(
        matrix.game,
        ante,
        matrix.names,
        tuple(push_bound.tolist()),
        tuple(call_bound.tolist()),
        tuple(push_gap.tolist()),
        tuple(call_gap.tolist()),
        worst,
    )
