"""Strategies to and from OpenSpiel's ``kuhn_poker`` and ``leduc_poker`` (for checks).

OpenSpiel (``pip install open-spiel``) is a test and benchmark dependency, not a
runtime one: it is imported only when these functions run.

Card ``c`` of OpenSpiel's games is card ``c`` of ours: both list the cards lowest
rank first, and OpenSpiel's Leduc card ``c`` has rank ``c // 2`` and suit ``c % 2``.
Kuhn's actions are pass (0: check or fold) and bet (1: bet or call); Leduc's are fold
(0), call (1: check or call) and raise (2: bet or raise).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

import numpy as np

from cardlab.errors import GameError
from cardlab.solve.games import PokerGame, Round
from cardlab.solve.tree import BET, CALL, CHANCE, CHECK, FOLD, RAISE, Floats, PublicTree

if TYPE_CHECKING:
    from cardlab.solve.postflop.small import SmallSolution

_KUHN = {FOLD: 0, CHECK: 0, BET: 1, CALL: 1}
_LEDUC = {FOLD: 0, CHECK: 1, CALL: 1, BET: 2, RAISE: 2}


def openspiel_name(game: PokerGame) -> str:
    """``kuhn_poker`` or ``leduc_poker`` when ``game`` has the same rules, else an error."""
    ranks = len({c.rank for c in game.cards})
    suits = len({c.suit for c in game.cards})
    same = (
        game.private == 1
        and game.ante == 1
        and ranks * suits == len(game.cards)
        and not game.rules.suit_tiebreak  # OpenSpiel splits equal ranks
    )
    if same and (ranks, suits) == (3, 1) and game.rounds == (Round(0, 1, 1),):
        return "kuhn_poker"
    if same and (ranks, suits) == (3, 2) and game.rounds == (Round(0, 2, 2), Round(1, 4, 2)):
        return "leduc_poker"
    raise GameError(f"{game.name} is neither Kuhn poker nor Leduc Hold'em in OpenSpiel")


def load(game: PokerGame) -> Any:
    """The OpenSpiel game with ``game``'s rules."""
    pyspiel = importlib.import_module("pyspiel")
    return pyspiel.load_game(openspiel_name(game))


def _actions(tree: PublicTree) -> dict[str, int]:
    return _KUHN if openspiel_name(tree.game) == "kuhn_poker" else _LEDUC


def locate(tree: PublicTree, state: Any) -> tuple[int, int]:
    """(decision index, hand index) of an OpenSpiel state where a player acts."""
    history = state.history()
    player = state.current_player()
    ours = _actions(tree)
    node = tree.nodes[0]
    node_id = 0
    for action in history[2:]:
        if node.kind == CHANCE:
            step = next(
                i
                for i, c in enumerate(node.children)
                if tree.boards[tree.nodes[c].board][-1] == action
            )
        else:
            step = next(i for i, a in enumerate(node.actions) if ours[a] == action)
        node_id = node.children[step]
        node = tree.nodes[node_id]
    decision = int(np.flatnonzero(tree.decision_nodes == node_id)[0])
    return decision, int(history[player])


def to_policy(tree: PublicTree, strategy: Floats, os_game: Any) -> Any:
    """OpenSpiel's ``TabularPolicy`` playing ``strategy``."""
    policy = importlib.import_module("open_spiel.python.policy")
    ours = _actions(tree)

    def act(state: Any) -> dict[int, float]:
        d, h = locate(tree, state)
        labels = tree.nodes[int(tree.decision_nodes[d])].actions
        return {ours[a]: float(strategy[d, i, h]) for i, a in enumerate(labels)}

    return policy.tabular_policy_from_callable(os_game, act)


def from_policy(tree: PublicTree, os_policy: Any) -> Floats:
    """Our ``[decision, action, hand]`` strategy from an OpenSpiel ``TabularPolicy``."""
    ours = _actions(tree)
    out = np.zeros((len(tree.decision_nodes), tree.legal.shape[1], len(tree.hands)))
    for row, state in enumerate(os_policy.states):
        d, h = locate(tree, state)
        labels = tree.nodes[int(tree.decision_nodes[d])].actions
        for i, a in enumerate(labels):
            out[d, i, h] = os_policy.action_probability_array[row, ours[a]]
    return out


# --- the postflop engine's solutions of the same games (cardlab.solve.postflop.small) ---


def _postflop_action(label: str, kuhn: bool) -> int:
    """OpenSpiel's action for a postflop tree's label (``k``, ``c``, ``f``, ``b2``, ...)."""
    if label == "f":
        return 0
    if label == "k":
        return 0 if kuhn else 1
    if label == "c":
        return 1
    return 1 if kuhn else 2  # a bet or raise


def postflop_policy(solution: SmallSolution, os_game: Any) -> Any:
    """OpenSpiel's ``TabularPolicy`` playing the average strategy of a small game
    solved on the postflop engine (:func:`cardlab.solve.postflop.small.solve_small`)."""
    policy = importlib.import_module("open_spiel.python.policy")
    game = solution.game.small
    kuhn = openspiel_name(game) == "kuhn_poker"
    nodes = solution.game.tree.nodes

    def act(state: Any) -> dict[int, float]:
        history = state.history()
        player = state.current_player()
        line: list[Any] = []
        a = 0
        for item in history[2:]:
            node = nodes[a]
            if node.kind == CHANCE:
                line.append(game.cards[item])
                a = node.children[0]
                continue
            labels = [_postflop_action(x, kuhn) for x in node.actions]
            label = node.actions[labels.index(item)]
            line.append(label)
            a = node.children[node.actions.index(label)]
        a, deal = solution.walk(line)
        sigma = solution.strategy(a, deal)[:, history[player]]  # the hand is its card
        return {_postflop_action(x, kuhn): float(sigma[i]) for i, x in enumerate(nodes[a].actions)}

    return policy.tabular_policy_from_callable(os_game, act)
