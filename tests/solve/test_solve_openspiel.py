"""cardlab's CFR+ and exploitability against OpenSpiel on Kuhn poker and Leduc Hold'em."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardlab.solve import PublicTree, exploitability, get_game, solve
from cardlab.solve import openspiel as bridge
from cardlab.solve.bestresponse import expected_value, normalised

pyspiel = pytest.importorskip("pyspiel")
os_exploitability = pytest.importorskip("open_spiel.python.algorithms.exploitability")
os_score = pytest.importorskip("open_spiel.python.algorithms.expected_game_score")
os_policy = pytest.importorskip("open_spiel.python.policy")


def _os_value(os_game: Any, policy: Any) -> float:
    return float(os_score.policy_value(os_game.new_initial_state(), [policy, policy])[0])


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
@pytest.mark.parametrize("how", ["random", "cfr"])
def test_exploitability_and_value_equal_openspiels(name: str, how: str) -> None:
    game = get_game(name)
    tree = PublicTree(game)
    if how == "cfr":
        strategy = solve(game, 40).strategy
    else:
        rng = np.random.default_rng(11)
        strategy = normalised(tree, rng.random((len(tree.decision_nodes), 3, len(tree.hands))))
    os_game = bridge.load(game)
    policy = bridge.to_policy(tree, strategy, os_game)
    ours = exploitability(tree, strategy).value
    assert ours == pytest.approx(os_exploitability.exploitability(os_game, policy), abs=1e-12)
    assert expected_value(tree, strategy) == pytest.approx(_os_value(os_game, policy), abs=1e-12)


def _os_cfr_plus(name: str, iterations: int) -> tuple[Any, Any, float]:
    """OpenSpiel's C++ CFR+ after ``iterations``: the game, its average policy (as a
    python policy) and OpenSpiel's exploitability of it."""
    os_game = bridge.load(get_game(name))
    solver = pyspiel.CFRPlusSolver(os_game)
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    average = solver.tabular_average_policy()
    policy = os_policy.pyspiel_policy_to_python_policy(os_game, average)
    return os_game, policy, float(pyspiel.exploitability(os_game, average))


@pytest.fixture(scope="module")
def leduc_30() -> tuple[Any, Any, float]:
    return _os_cfr_plus("leduc", 30)


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
def test_openspiels_cfr_plus_policy_measures_the_same_here(
    name: str, leduc_30: tuple[Any, Any, float]
) -> None:
    os_game, policy, theirs = leduc_30 if name == "leduc" else _os_cfr_plus("kuhn", 50)
    tree = PublicTree(get_game(name))
    strategy = normalised(tree, bridge.from_policy(tree, policy))
    assert exploitability(tree, strategy).value == pytest.approx(theirs, abs=1e-12)
    assert expected_value(tree, strategy) == pytest.approx(_os_value(os_game, policy), abs=1e-12)


def test_the_same_iterations_give_openspiels_cfr_plus_strategy() -> None:
    """Both run Tammelin's CFR+ (alternating updates, linear averaging): after the
    same number of iterations the average strategies agree."""
    game = get_game("kuhn")
    _, policy, _ = _os_cfr_plus("kuhn", 30)
    tree = PublicTree(game)
    theirs = normalised(tree, bridge.from_policy(tree, policy))
    assert np.allclose(solve(game, 30).strategy, theirs, atol=1e-9)


def test_leduc_value_agrees_with_openspiels_cfr_plus(
    leduc_30: tuple[Any, Any, float],
) -> None:
    os_game, policy, exploitable = leduc_30
    theirs = _os_value(os_game, policy)
    ours = solve(get_game("leduc"), 2000, target=1e-3)
    # a profile's value is within its NashConv (twice the exploitability) of the
    # game's value; their 30 iterations leave about 0.08, ours at most 0.001
    assert exploitable < 0.1
    assert ours.value == pytest.approx(theirs, abs=2 * (exploitable + ours.exploitability))
    assert ours.value == pytest.approx(-0.0856, abs=2e-3)


def test_only_kuhn_and_leduc_have_an_openspiel_twin() -> None:
    from cardlab.errors import GameError

    assert bridge.openspiel_name(get_game("kuhn")) == "kuhn_poker"
    with pytest.raises(GameError, match="neither Kuhn poker nor Leduc"):
        bridge.openspiel_name(get_game("leduc-fesca"))  # suits break ties: not OpenSpiel's
