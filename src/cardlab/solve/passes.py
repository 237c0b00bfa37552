"""The two passes over a public tree, each a few numpy operations per depth.

``strategy`` arrays are ``[decision, action, hand]``: the probability that the player
to act at a decision node, holding a hand, takes each action (0 for illegal actions).
Reach and value arrays are ``[node, hand]`` with one extra zero row at the end that
padded children point to.

* :func:`reach` goes down the tree: each player's probability of playing to each
  node with each hand (chance is not included: it lives in the leaf matrices).
* :func:`values` goes up: the counterfactual value of every node and hand for one
  player, given the opponent's reach; at the player's own nodes the values of the
  actions are mixed by the strategy, or maximised (``best=True``: a best response,
  exact, since a node and a hand are exactly an information set).
"""

from __future__ import annotations

import numpy as np

from cardlab.solve.tree import Floats, PublicTree


def reach(tree: PublicTree, strategy: Floats) -> Floats:
    """``[player, node, hand]``: each player's own probability of reaching each node."""
    out = np.empty((2, tree.n_nodes + 1, len(tree.hands)))
    for p in (0, 1):
        mine = out[p]
        mine[-1] = 0.0
        mine[tree.levels[0].child] = 1.0
        for level in tree.levels[1:]:
            mine[level.child] = mine[level.parent]
            child, decision, action = level.moves[p]
            if len(child):
                mine[child] *= strategy[decision, action]
    return out


def leaf_values(tree: PublicTree, player: int, opponent_reach: Floats, out: Floats) -> None:
    """Write the leaves' values for ``player`` into ``out`` (``[node, hand]``)."""
    for b in range(len(tree.boards)):
        ids, chips = tree.folds[b]
        if len(ids):
            signed = np.where(tree.fold_loser[b] == player, -chips, chips)
            out[ids] = signed[:, None] * (opponent_reach[ids] @ tree.compat[b])
        ids, chips = tree.showdowns[b]
        if len(ids):
            out[ids] = chips[:, None] * (opponent_reach[ids] @ tree.sign[b].T)


def values(
    tree: PublicTree,
    strategy: Floats,
    player: int,
    opponent_reach: Floats,
    *,
    best: bool = False,
) -> Floats:
    """``[node, hand]``: ``player``'s counterfactual values against ``opponent_reach``."""
    v = np.zeros((tree.n_nodes + 1, len(tree.hands)))
    leaf_values(tree, player, opponent_reach, v)
    children = tree.decision_children
    for level in reversed(tree.levels):
        mine, theirs = level.decisions[player], level.decisions[1 - player]
        if len(mine):
            child_values = v[children[mine]]  # [decision, action, hand]
            if best:
                legal = tree.legal[mine][:, :, None]
                v[tree.decision_nodes[mine]] = np.where(legal, child_values, -np.inf).max(axis=1)
            else:
                v[tree.decision_nodes[mine]] = (strategy[mine] * child_values).sum(axis=1)
        if len(theirs):
            v[tree.decision_nodes[theirs]] = v[children[theirs]].sum(axis=1)
        if len(level.chances):
            v[level.chances] = v[level.chance_children].sum(axis=1)
    return v


def root_value(tree: PublicTree, v: Floats) -> float:
    """The expected value at the root: the sum over the player's hands (each value
    already carries the chance of being dealt that hand)."""
    return float(v[tree.levels[0].child[0]].sum())
