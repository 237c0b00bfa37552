"""Monte Carlo's two loops (:mod:`cardlab.poker._kernels.sampling`): the dealt loop (one
combo a player, a shuffle of the cards left, keys settled from their bounds) and the
general loop (combo picks, a per-card check) both land within a few standard errors of
the exact equity, win and tie rates, on decks with and without suit tie-breaks and
Mixwells, with dead cards, partial boards, random hands, ranges and three players."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numba
import numpy as np
import pytest

from cardlab.poker._kernels import sampling
from cardlab.poker._kernels.showdowns import SHARE_UNIT
from cardlab.poker.equity import _parse_deal, _sample_arrays, exact_equity, sample_equity
from cardlab.poker.games import Game, get_game
from cardlab.poker.plan import KernelPlan

DECKS = Path(__file__).parent.parent / "data" / "decks"
SAMPLES = 160_000
CASES = [
    # (game, hands, board, dead)
    ("standard52-holdem", ["As Ah", "Ks Kh"], "", ""),
    ("standard52-holdem", ["As Kd", "Ac Kh", "Ad Kc"], "2c 7d", ""),  # ties, three ways
    ("standard52-holdem", ["As Ac", "random"], "2c 7d 9h", "Kd"),
    ("standard52-holdem", ["QQ+", "AKs"], "2c 7d 9h Ts", ""),  # ranges: the general loop
    ("fesca78-holdem", ["木1 火1", "水12 金12"], "木5 火6 土7", ""),
    ("fesca78-holdem", ["木1 火1", "水12 金12", "土3 金4"], "木5 火6", "金7 土9"),
    ("fesca54-holdem", ["木1 火2", "random"], "土3 金4 水5", ""),
    (f"{DECKS / 'ring30.toml'}-holdem", ["木1 火1", "水Z 金Z"], "", ""),
    (f"{DECKS / 'duo14.toml'}-stud", ["8h Th Qh Ah 9s Js Ks", "random"], "", ""),
]


def _sampled(game_name: str | Game, hands: list[str], board: str, dead: str, general: bool) -> Any:
    game = get_game(game_name) if isinstance(game_name, str) else game_name
    deal = _parse_deal(game, hands, board, dead)
    combos, n_combos, board_arr, base_used = _sample_arrays(game, deal)
    plan = KernelPlan.for_game(game)
    seeds = np.random.default_rng(7).integers(1, 2**62, size=8, dtype=np.int64)
    return sampling.monte_carlo(
        combos,
        n_combos,
        board_arr,
        base_used,
        len(game.deck),
        plan.arrays,
        plan.scalars,
        seeds,
        SAMPLES // 8,
        general,
    )


@pytest.mark.parametrize(("game", "hands", "board", "dead"), CASES)
@pytest.mark.parametrize("general", [False, True], ids=["dealt", "general"])
def test_both_loops_within_a_few_standard_errors_of_exact(
    game: str, hands: list[str], board: str, dead: str, general: bool
) -> None:
    exact = exact_equity(get_game(game), hands, board=board, dead=dead)
    _near_exact(_sampled(game, hands, board, dead, general), exact)


@pytest.mark.parametrize(
    ("game", "hands", "board", "loop"),
    [
        (get_game("standard52-omaha"), ["As Ac Kd Kh", "7d 8d 9c Tc"], "2c 3d 4h", "omaha_loop"),
        (  # FESCA78 with Mixwell + quads below quads: only the subsets path is exact
            get_game("fesca78-holdem").with_options(compound="mixwell"),
            ["木1 火1", "水12 金12"],
            "木5 火6 土7",
            "subsets_loop",
        ),
    ],
    ids=["omaha", "subsets"],
)
def test_each_key_methods_loop_within_a_few_standard_errors_of_exact(
    game: Game, hands: list[str], board: str, loop: str
) -> None:
    """The general loop has a copy per key method, each compiled with its method's code
    only (``_ranges_block_of``): Omaha's and the subsets path's against the exact count."""
    plan = KernelPlan.for_game(game)
    one_each = np.ones(len(hands), np.int64)
    assert sampling.loop_for(one_each, len(game.deck), plan.scalars, False).__name__ == loop
    exact = exact_equity(game, hands, board=board)
    _near_exact(_sampled(game, hands, board, "", general=False), exact)


def _near_exact(total: Any, exact: Any) -> None:
    n = SAMPLES
    assert int(total[2].sum()) == n * SHARE_UNIT  # every deal hands out one pot
    for p, e in enumerate(exact.players):
        for observed, expected in ((total[0, p], e.win), (total[1, p], e.tie)):
            q = float(expected)
            se = math.sqrt(max(q * (1 - q), 1 / n) / n)
            assert abs(observed / n - q) <= 4.5 * se, (p, observed / n, q)
        mean = total[2, p] / (n * SHARE_UNIT)
        var = total[3, p] / (n * SHARE_UNIT**2) - mean**2
        se = math.sqrt(max(var, 1 / n) / n)
        assert abs(mean - float(e.equity)) <= 4.5 * se, (p, mean, float(e.equity))


def test_the_loops_agree_where_nothing_is_exact() -> None:
    """Stud hands still to come: no exact answer, so the two loops against each other."""
    args = ("fesca54-stud", ["木1 火1 土1", "水8 金8 木8", "random"], "", "木2")
    a, b = _sampled(*args, general=False), _sampled(*args, general=True)
    n = SAMPLES
    for p in range(3):
        ea, eb = a[2, p] / (n * SHARE_UNIT), b[2, p] / (n * SHARE_UNIT)
        va = a[3, p] / (n * SHARE_UNIT**2) - ea**2
        vb = b[3, p] / (n * SHARE_UNIT**2) - eb**2
        assert abs(ea - eb) <= 4.5 * math.sqrt((va + vb) / n), (p, ea, eb)


@pytest.mark.parametrize("hands", [["As Ah", "Ks Kh"], ["QQ+", "random"]])
def test_seeded_results_do_not_depend_on_threads(hands: list[str]) -> None:
    game = get_game("standard52-holdem")
    results = []
    before = numba.get_num_threads()
    try:
        for threads in (1, numba.config.NUMBA_NUM_THREADS):
            numba.set_num_threads(threads)
            results.append(sample_equity(game, hands, samples=100_000, rng=4))
    finally:
        numba.set_num_threads(before)
    assert results[0] == results[1]
