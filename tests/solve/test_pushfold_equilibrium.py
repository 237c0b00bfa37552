"""Push/fold equilibria: published standard52 charts, exact best responses, any deck."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cardlab.errors import GameError
from cardlab.poker.games import get_game
from cardlab.solve.pushfold import (
    CHART_STACKS,
    exploitability,
    pushfold_chart,
    solve_pushfold,
)
from cardlab.solve.pushfold_matrix import ClassMatrix, class_matrix, standard52_matrix

DECKS = Path(__file__).parent.parent / "data" / "decks"


@pytest.fixture(scope="module")
def std() -> ClassMatrix:
    return standard52_matrix()


@pytest.fixture(scope="module")
def duo() -> ClassMatrix:
    return class_matrix(get_game(f"{DECKS / 'duo14.toml'}-holdem"), exact=True)


def test_ten_big_blinds_pushes_and_calls_the_published_shares(std: ClassMatrix) -> None:
    # Nash push/fold at 10 big blinds (HoldemResources' heads-up charts): the small
    # blind pushes about 58% of hands, the big blind calls about 37%
    s = solve_pushfold(std, 10)
    assert s.push_share == pytest.approx(0.58, abs=0.01)
    assert s.call_share == pytest.approx(0.37, abs=0.01)
    assert s.push_of("AA") > 0.999 and s.call_of("AA") > 0.999 and s.push_of("72o") < 0.01
    assert s.exploitability < 1e-5 and s.exploitability_mbb < 0.01


@pytest.mark.parametrize(
    ("hand", "role", "pushes_at", "folds_at"),
    [
        # holdemresources.net "Using the Nash charts": T3s is pushed up to 7.7 bb, Q2o
        # called up to 5.6 bb; 63s pushed from 5.1 to 7.1 bb and below 2.3 bb
        ("T3s", "push", [7.0, 5.0], [8.0, 10.0]),
        ("Q2o", "call", [5.5, 4.0], [6.0, 8.0]),
        ("63s", "push", [7.0, 2.0], [4.0, 8.0]),
    ],
)
def test_published_chart_bounds(
    std: ClassMatrix, hand: str, role: str, pushes_at: list[float], folds_at: list[float]
) -> None:
    for stack in pushes_at:
        s = solve_pushfold(std, stack)
        assert (s.push_of(hand) if role == "push" else s.call_of(hand)) > 0.95, stack
    for stack in folds_at:
        s = solve_pushfold(std, stack)
        assert (s.push_of(hand) if role == "push" else s.call_of(hand)) < 0.05, stack


def _brute_exploitability(
    m: ClassMatrix, stack: float, ante: float, p: np.ndarray, c: np.ndarray
) -> float:
    """The best responses by their definition, deal by deal (class pairs) in Python."""
    k = len(m.names)
    total = float(m.deals.sum())
    steal, fold = 1 + ante, -(0.5 + ante)

    def sb(i: int, j: int, push: float, call: float) -> float:
        called = 2 * stack * m.equity[i, j] - stack
        return (1 - push) * fold + push * (call * called + (1 - call) * steal)

    value = sum(m.deals[i, j] * sb(i, j, p[i], c[j]) for i in range(k) for j in range(k)) / total
    sb_best = sum(
        max(sum(m.deals[i, j] * sb(i, j, a, c[j]) for j in range(k)) for a in (0.0, 1.0))
        for i in range(k)
    )
    bb_best = sum(
        max(sum(-m.deals[i, j] * sb(i, j, p[i], a) for i in range(k)) for a in (0.0, 1.0))
        for j in range(k)
    )
    return ((sb_best / total - value) + (bb_best / total + value)) / 2


def test_exploitability_is_the_exact_best_response(duo: ClassMatrix) -> None:
    s = solve_pushfold(duo, 8, 0.25, target=1e-7)
    brute = _brute_exploitability(duo, 8, 0.25, s.push, s.call)
    assert s.exploitability == pytest.approx(brute, abs=1e-12) and brute < 1e-7
    rng = np.random.default_rng(1)
    p, c = rng.random(len(duo.names)), rng.random(len(duo.names))
    far = exploitability(duo, 8, p, c, ante=0.25)
    assert far == pytest.approx(_brute_exploitability(duo, 8, 0.25, p, c), abs=1e-12)
    assert far > 0.05  # a random strategy is far from equilibrium


def test_value_and_shares_are_consistent(duo: ClassMatrix) -> None:
    s = solve_pushfold(duo, 12)
    hands = np.array(duo.hands)
    assert s.push_share == pytest.approx((hands * s.push).sum() / hands.sum())
    assert -0.5 < s.value < 1.0
    # one big blind and no ante: the big blind has nothing left to lose by calling
    one = solve_pushfold(duo, 1)
    assert one.call_share == pytest.approx(1.0)


def test_an_ante_widens_both_ranges(std: ClassMatrix) -> None:
    plain, ante = solve_pushfold(std, 10), solve_pushfold(std, 10, 0.125)
    assert ante.push_share > plain.push_share + 0.02 and ante.call_share > plain.call_share + 0.02


def test_chart_bounds_are_the_highest_stack(duo: ClassMatrix) -> None:
    chart = pushfold_chart(duo)
    assert chart.push[duo.names.index("AA")] == 25 and chart.worst_exploitability < 1e-4
    # a gap: the class pushes at its bound but folds at some smaller stack of the chart
    pushes = {s: solve_pushfold(duo, s, target=1e-4).push >= 0.5 for s in CHART_STACKS}
    for k, (bound, gap) in enumerate(zip(chart.push, chart.push_gap, strict=True)):
        assert bound == max([s for s in CHART_STACKS if pushes[s][k]], default=0)
        folds = any(not pushes[s][k] for s in CHART_STACKS if s < bound)
        assert gap == folds, duo.names[k]
    assert any(chart.push_gap)


def test_bad_input(duo: ClassMatrix) -> None:
    with pytest.raises(GameError, match="1 to 25 big blinds, got 30"):
        solve_pushfold(duo, 30)
    with pytest.raises(GameError, match="cannot post"):
        solve_pushfold(duo, 1.2, 0.5)
    with pytest.raises(GameError, match="ante"):
        solve_pushfold(duo, 10, -1)
    with pytest.raises(GameError, match="no starting-hand class"):
        solve_pushfold(duo, 10).push_of("ZZ")
