"""Exact best responses, game values and exploitability of a strategy profile.

Exploitability here is OpenSpiel's: the mean over the two players of what a best
response to the other player's strategy gains over the game value, that is
``(BR_1 + BR_2) / 2`` where ``BR_i`` is player i's best-response value (the game is
zero-sum, so the values of the profile cancel). It is 0 exactly at an equilibrium.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardlab.solve import passes
from cardlab.solve.tree import Floats, PublicTree


@dataclass(frozen=True, slots=True)
class Exploitability:
    """How much each player's best response wins against the other's strategy."""

    best_response: tuple[float, float]  # each player's value when best-responding

    @property
    def nash_conv(self) -> float:
        return self.best_response[0] + self.best_response[1]

    @property
    def value(self) -> float:
        """The exploitability: the mean gain of a best response, in chips per hand."""
        return self.nash_conv / 2


def normalised(tree: PublicTree, strategy: Floats) -> Floats:
    """A behaviour strategy from non-negative weights ``[decision, action, hand]``:
    each node and hand sums to 1 over its legal actions (uniform where all are 0)."""
    weights = np.where(tree.legal[:, :, None], strategy, 0.0)
    total = weights.sum(axis=1, keepdims=True)
    uniform = tree.legal[:, :, None] / tree.legal.sum(axis=1)[:, None, None]
    safe = np.where(total > 0, total, 1.0)
    return np.where(total > 0, weights / safe, uniform)


def expected_value(tree: PublicTree, strategy: Floats, player: int = 0) -> float:
    """``player``'s expected chips per hand when both play ``strategy``."""
    r = passes.reach(tree, strategy)
    return passes.root_value(tree, passes.values(tree, strategy, player, r[1 - player]))


def best_response_value(tree: PublicTree, strategy: Floats, player: int) -> float:
    """``player``'s value when it best-responds to the opponent's part of ``strategy``."""
    r = passes.reach(tree, strategy)
    v = passes.values(tree, strategy, player, r[1 - player], best=True)
    return passes.root_value(tree, v)


def best_response(tree: PublicTree, strategy: Floats, player: int) -> Floats:
    """A pure best response for ``player`` (its part of the returned profile; the
    opponent's part is ``strategy``'s), one action per node and hand."""
    r = passes.reach(tree, strategy)
    v = passes.values(tree, strategy, player, r[1 - player], best=True)
    out = strategy.copy()
    mine = np.flatnonzero(tree.decision_player == player)
    child_values = np.where(tree.legal[mine][:, :, None], v[tree.decision_children[mine]], -np.inf)
    choice = child_values.argmax(axis=1)  # [decision, hand]
    out[mine] = 0.0
    d_index, h_index = np.indices(choice.shape)
    out[mine[d_index], choice, h_index] = 1.0
    return out


def exploitability(tree: PublicTree, strategy: Floats) -> Exploitability:
    """The exploitability of the profile ``strategy`` (both players' parts)."""
    r = passes.reach(tree, strategy)
    br = tuple(
        passes.root_value(tree, passes.values(tree, strategy, p, r[1 - p], best=True))
        for p in (0, 1)
    )
    return Exploitability((br[0], br[1]))
