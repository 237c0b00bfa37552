"""Kuhn poker and Leduc Hold'em through the postflop engine (its tree, arrays and DCFR
walks), against the published values and OpenSpiel's exploitability of the exported
strategies."""

from __future__ import annotations

import functools

import pytest

from cardlab.errors import GameError
from cardlab.solve import get_game, solve
from cardlab.solve.games import game_from_toml
from cardlab.solve.postflop.small import SmallGame, SmallSolution, solve_small

pyspiel = pytest.importorskip("pyspiel")
os_exploitability = pytest.importorskip("open_spiel.python.algorithms.exploitability")
os_score = pytest.importorskip("open_spiel.python.algorithms.expected_game_score")

from cardlab.solve import openspiel as bridge  # noqa: E402


@functools.cache
def solved(name: str, iterations: int, target: float | None = None) -> SmallSolution:
    return solve_small(get_game(name), iterations, target=target, threads=2)


def _openspiel(solution: SmallSolution) -> tuple[float, float]:
    """OpenSpiel's exploitability and player 1's value of the exported strategy."""
    os_game = bridge.load(solution.game.small)
    policy = bridge.postflop_policy(solution, os_game)
    value = os_score.policy_value(os_game.new_initial_state(), [policy, policy])[0]
    return float(os_exploitability.exploitability(os_game, policy)), float(value)


def test_kuhn_is_worth_minus_one_eighteenth() -> None:
    solution = solved("kuhn", 5000, 1e-4)
    assert solution.exploitability <= 1e-4
    # a profile's value is within its NashConv (twice the exploitability) of the game's
    assert solution.value == pytest.approx(-1 / 18, abs=2 * solution.exploitability)


def test_leduc_is_worth_its_published_value() -> None:
    solution = solved("leduc", 3000, 2e-4)
    assert solution.exploitability <= 2e-4
    assert solution.value == pytest.approx(-0.0856, abs=1e-3)  # published: about -0.0856


@pytest.mark.parametrize("name", ["kuhn", "leduc"])
@pytest.mark.parametrize("iterations", [1, 7, 100])
def test_openspiel_measures_the_exported_strategy_the_same(name: str, iterations: int) -> None:
    """From the uniform first iteration to near equilibrium: OpenSpiel's exploitability
    and value of the exported policy are the engine's own (its exact best responses)."""
    solution = solved(name, iterations)
    theirs, value = _openspiel(solution)
    assert solution.exploitability == pytest.approx(theirs, rel=1e-9, abs=1e-12)
    assert solution.value == pytest.approx(value, rel=1e-9, abs=1e-12)


def test_the_engine_and_cfr_plus_agree_on_leduc_with_suit_tie_breaks() -> None:
    """No OpenSpiel twin (its suits never break ties): the two engines of cardlab, each
    with its own tree, values and best response, find the same game value."""
    game = get_game("leduc-fesca")
    ours = solve_small(game, 2000, target=5e-4, threads=2)
    theirs = solve(game, 2000, target=5e-4)
    bound = 2 * (ours.exploitability + theirs.exploitability)
    assert ours.value == pytest.approx(theirs.value, abs=bound)


def test_the_tree_is_leducs() -> None:
    """Two rounds of at most a bet and a raise of 2, then of 4, a card between."""
    spot = SmallGame(get_game("leduc"))
    first = {spot.tree.describe(i): n.actions for i, n in enumerate(spot.tree.nodes)}
    assert first[""] == ["k", "b2"]
    assert first["b2"] == ["f", "c", "r4"]
    assert first["b2 r4"] == ["f", "c"]
    assert first["k b2 c /"] == ["k", "b4"]
    assert first["k b2 c / b4"] == ["f", "c", "r8"]
    assert first["k b2 c / b4 r8"] == ["f", "c"]
    # six decisions a round (k, b, kb, br, kbr and the root), five ways the first goes on
    assert spot.tree.counts()["decisions"] == 6 + 5 * 6


def test_games_it_cannot_play_are_refused() -> None:
    two = game_from_toml(
        'name = "two"\ndeck = "standard52"\nranks = 4\nsuits = 2\nprivate = 2\n'
        "[[rounds]]\nbet = 1\ncap = 1\n",
        source="test",
    )
    with pytest.raises(GameError, match="one private card"):
        SmallGame(two)
    with pytest.raises(GameError, match="target"):
        solve_small(get_game("kuhn"), 10, target=0)
