"""CFR+ and best responses, checked against published values and brute force."""

from __future__ import annotations

import numpy as np
import pytest

from cardlab.errors import GameError
from cardlab.solve import CFRPlus, PublicTree, Solution, exploitability, get_game, solve
from cardlab.solve import reference as ref
from cardlab.solve.bestresponse import (
    best_response,
    best_response_value,
    expected_value,
    normalised,
)


def _random_strategy(tree: PublicTree, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return normalised(tree, rng.random((len(tree.decision_nodes), 3, len(tree.hands))))


@pytest.fixture(scope="module")
def kuhn() -> PublicTree:
    return PublicTree(get_game("kuhn"))


@pytest.fixture(scope="module")
def kuhn_solution() -> Solution:
    return solve(get_game("kuhn"), 2000)


def test_kuhn_reaches_its_published_value(kuhn_solution: Solution) -> None:
    solution = kuhn_solution
    assert solution.value == pytest.approx(float(ref.KUHN_VALUE), abs=2e-4)
    assert solution.exploitability < 1e-4
    assert solution.exploitability_mbb == pytest.approx(1000 * solution.exploitability)


def test_kuhn_strategy_is_in_kuhns_family(kuhn_solution: Solution) -> None:
    """Player 1 bets the king three times as often as the jack, never the queen
    (Kuhn, 1950); player 2 calls a bet with the queen a third of the time."""
    by_set = {
        (i.player, i.history, i.hand): dict(zip(i.actions, i.probabilities, strict=True))
        for i in kuhn_solution.infosets()
    }
    jack, queen, king = (by_set[0, "", h]["bet"] for h in ("Js", "Qs", "Ks"))
    assert king == pytest.approx(3 * jack, abs=0.02)
    assert queen < 0.01
    assert by_set[1, "b", "Qs"]["call"] == pytest.approx(1 / 3, abs=0.02)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_best_response_matches_a_brute_force_on_kuhn(kuhn: PublicTree, seed: int) -> None:
    strategy = _random_strategy(kuhn, seed)
    for player in (0, 1):
        fast = best_response_value(kuhn, strategy, player)
        assert fast == pytest.approx(
            ref.brute_force_best_response(kuhn, strategy, player), abs=1e-12
        )
        pure = best_response(kuhn, strategy, player)
        assert ref.expected_value(kuhn, pure, player) == pytest.approx(fast, abs=1e-12)


@pytest.mark.parametrize("name", ["kuhn", "leduc", "leduc-fesca"])
def test_expected_value_matches_a_walk_over_every_deal(name: str) -> None:
    tree = PublicTree(get_game(name))
    strategy = _random_strategy(tree, 7)
    for player in (0, 1):
        assert expected_value(tree, strategy, player) == pytest.approx(
            ref.expected_value(tree, strategy, player), abs=1e-12
        )


def test_exploitability_falls_and_is_never_negative() -> None:
    solver = CFRPlus(get_game("leduc"))
    seen = []
    for _ in range(4):
        solver.iterate(25)
        seen.append(solver.exploitability())
    assert all(e >= 0 for e in seen)
    assert seen[-1] < seen[0] / 2


def test_leduc_reaches_one_milli_blind_and_its_value() -> None:
    solution = solve(get_game("leduc"), 2000, target=1e-3)
    assert solution.exploitability <= 1e-3 and solution.iterations < 2000
    assert solution.value == pytest.approx(-0.0856, abs=2e-3)  # published: about -0.0856


def test_fesca_suit_tie_breaks_change_the_game() -> None:
    leduc = solve(get_game("leduc"), 200)
    fesca = solve(get_game("leduc-fesca"), 200)
    assert abs(fesca.value - leduc.value) > 0.01
    # with Water over Wood, the Water jack-equivalent acts differently from the Wood one
    first = {
        (i.hand): i.probabilities for i in fesca.infosets() if i.history == "" and i.player == 0
    }
    assert first["木11"] != pytest.approx(first["水11"], abs=0.01)


def test_the_uniform_strategy_is_exploitable(kuhn: PublicTree) -> None:
    uniform = normalised(kuhn, np.zeros((len(kuhn.decision_nodes), 3, len(kuhn.hands))))
    assert exploitability(kuhn, uniform).value > 0.1


def test_bad_requests_are_errors() -> None:
    with pytest.raises(GameError, match="iterations must be from 1"):
        solve(get_game("kuhn"), 0)
    with pytest.raises(GameError, match="target exploitability must be above 0"):
        solve(get_game("kuhn"), 10, target=0.0)
