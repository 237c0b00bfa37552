"""Plain, obviously-correct references for the vectorised solver (used by the tests).

:func:`expected_value` walks the game once per deal of private cards, dealing public
cards at chance nodes with their exact probability and comparing hands with
:func:`cardlab.solve.hands.hand_key` at every showdown -- no matrices, no reach
vectors. :func:`brute_force_best_response` tries every pure strategy of a player,
which is feasible for Kuhn poker (64 per player).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from cardlab.solve.hands import hand_key
from cardlab.solve.tree import CHANCE, DECISION, FOLDED, Floats, PublicTree


def expected_value(tree: PublicTree, strategy: Floats, player: int = 0) -> float:
    """``player``'s expected chips per hand when both play ``strategy``."""
    deals = [
        (a, b)
        for a, b in itertools.permutations(range(len(tree.hands)), 2)
        if not set(tree.hands[a]) & set(tree.hands[b])
    ]
    total = sum(_walk(tree, strategy, 0, (a, b), player) for a, b in deals)
    return total / len(deals)


def _walk(
    tree: PublicTree, strategy: Floats, node_id: int, deal: tuple[int, int], player: int
) -> float:
    node = tree.nodes[node_id]
    game = tree.game
    if node.kind == FOLDED:
        lost = node.committed[node.player]
        return -lost if node.player == player else lost
    if node.kind == CHANCE:
        held = set(tree.hands[deal[0]]) | set(tree.hands[deal[1]])
        open_ = [c for c in node.children if not set(tree.boards[tree.nodes[c].board]) & held]
        return sum(_walk(tree, strategy, c, deal, player) for c in open_) / len(open_)
    if node.kind == DECISION:
        d = int(np.flatnonzero(tree.decision_nodes == node_id)[0])
        hand = deal[node.player]
        return sum(
            float(strategy[d, i, hand]) * _walk(tree, strategy, c, deal, player)
            for i, c in enumerate(node.children)
            if strategy[d, i, hand] > 0
        )
    board = [game.cards[c] for c in tree.boards[node.board]]
    keys = [hand_key([game.cards[c] for c in tree.hands[h]] + board, game.rules) for h in deal]
    mine, theirs = keys[player], keys[1 - player]
    return node.committed[player] * ((mine > theirs) - (mine < theirs))


def brute_force_best_response(tree: PublicTree, strategy: Floats, player: int) -> float:
    """``player``'s best value against the opponent's part of ``strategy``, by trying
    every pure strategy of ``player`` (only for tiny games)."""
    slots = [
        (d, h)
        for d in np.flatnonzero(tree.decision_player == player)
        for h in np.flatnonzero(tree.hand_valid[tree.nodes[int(tree.decision_nodes[d])].board])
    ]
    widths = [int(tree.legal[d].sum()) for d, _ in slots]
    if np.prod(widths, dtype=float) > 5000:
        raise ValueError("too many pure strategies for a brute force")
    best = -float("inf")
    for choice in itertools.product(*(range(w) for w in widths)):
        pure = strategy.copy()
        for (d, h), a in zip(slots, choice, strict=True):
            pure[d, :, h] = 0.0
            pure[d, a, h] = 1.0
        best = max(best, expected_value(tree, pure, player))
    return best


KUHN_VALUE = Fraction(-1, 18)  # player 1's equilibrium value in Kuhn poker (Kuhn, 1950)
