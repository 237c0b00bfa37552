"""What a starting-hand chart answers: each class's equity (:class:`ClassEquity`), the
chart (:class:`Chart`), and the sampled tallies both chart modules add up
(:class:`Tally`, :func:`more_deals`, :func:`sampled_result`).

Shared by :mod:`cardlab.analysis.chart` (Hold'em-style charts, which also re-exports
these names) and :mod:`cardlab.analysis.chart_multi` (Omaha and Stud), so that neither
imports the other at module level.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from cardlab.errors import GameError
from cardlab.poker.classes import HandClass
from cardlab.poker.games import Game
from cardlab.poker.games import game_text as game_text


@dataclass(frozen=True, slots=True)
class ClassEquity:
    """One class's equity: a Fraction (exact, ``se`` None) or a float with its standard
    error; ``deals`` showdowns counted (exact: over all the class's hands)."""

    hand: HandClass
    equity: Fraction | float
    se: float | None
    deals: int


@dataclass(frozen=True)
class Chart:
    """Every class of a game's starting hands, strongest first."""

    game: Game
    opponents: int
    exact: bool
    classes: tuple[ClassEquity, ...]
    seed: int | None = None
    target_se: float | None = None
    tasks: int = field(default=0, compare=False)

    def as_dict(self) -> dict[str, Any]:
        """The ``cardlab chart --format json`` shape (exact equities stay Fractions)."""
        return {
            "game": self.game.key,
            "name": self.game.name,
            "opponents": self.opponents,
            "exact": self.exact,
            "seed": self.seed,
            "target_se": self.target_se,
            "classes": [
                {
                    "hand": c.hand.name,
                    "combos": c.hand.count,
                    "equity": c.equity,
                    "se": c.se if c.se is not None else 0.0,
                    "deals": c.deals,
                }
                for c in self.classes
            ],
        }

    def equity_of(self, name: str) -> ClassEquity:
        for c in self.classes:
            if c.hand.name == name:
                return c
        raise GameError(f"no class {name!r} in the {self.game.name} chart")


@dataclass
class Tally:
    """One class's sampled deals: per hand, the deals, their equity sum and sum of
    squares."""

    hands: int
    n: list[float]
    total: list[float]
    squares: list[float]

    def add(self, rows: list[list[float]]) -> None:
        for j, (n, s, q) in enumerate(rows):
            self.n[j] += n
            self.total[j] += s
            self.squares[j] += q

    def estimate(self) -> tuple[float, float]:
        means, var = [], 0.0
        for n, s, q in zip(self.n, self.total, self.squares, strict=True):
            mean = s / n
            means.append(mean)
            var += max(q / n - mean * mean, 0.0) / n
        return sum(means) / self.hands, math.sqrt(var) / self.hands


def more_deals(tally: list[Tally], per_hand: list[int], target_se: float, least: int) -> list[int]:
    """The classes whose standard error is still above ``target_se``; for each, the
    deals per hand of its next round (enough to reach the target, at least ``least``)
    go into ``per_hand``."""
    todo = []
    for i, t in enumerate(tally):
        _, se = t.estimate()
        if se > target_se:
            need = math.ceil(t.n[0] * ((se / target_se) ** 2 * 1.05 - 1))
            per_hand[i] = max(least, need)
            todo.append(i)
    return todo


def sampled_result(
    game: Game,
    opponents: int,
    classes: Sequence[HandClass],
    tally: list[Tally],
    seed: int,
    target_se: float,
    n_tasks: int,
) -> Chart:
    """The sampled chart of the classes' tallies, strongest first."""
    rows = []
    for k, t in zip(classes, tally, strict=True):
        eq, se = t.estimate()
        rows.append(ClassEquity(k, eq, se, int(sum(t.n))))
    rows.sort(key=lambda r: (-r.equity, r.hand.name))
    return Chart(game, opponents, False, tuple(rows), seed, target_se, n_tasks)
