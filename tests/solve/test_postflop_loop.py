"""The postflop walk as a loop (:mod:`cardlab.solve.postflop._loop`, what the solver
runs) against the recursive walk (:func:`cardlab.solve.postflop._kernels.walk`, the
plain reference): the same values and the same regrets and strategy sums, to the bit, on
small random spots of every street, in every mode, with rake and without."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.solve.postflop import Solver, Spot, _loop
from cardlab.solve.postflop import _kernels as k

BOARDS = ["Qs Jh 2h", "Td 9d 6h Qc", "Ks Td 7c 4h 2s"]
RANGES = ["AA,KQs,JTs,98s", "KK,QJs,T9s,22", "AKo,QQ,J9s"]


def _solver(board: str, oop: str, ip: str, rake: float, seed: int) -> Solver:
    spot = Spot(
        "standard52-holdem",
        board,
        oop,
        ip,
        100,
        150,
        bets="50%, a",
        raises="",
        rake_rate=rake,
        rake_cap=10 if rake else 0,
    )
    solver = Solver(spot.game_arrays(), threads=1)
    rng = np.random.default_rng(seed)
    solver.g.regrets[:] = rng.standard_normal(solver.g.regrets.shape).astype(np.float32)
    solver.g.strategy[:] = rng.random(solver.g.strategy.shape).astype(np.float32)
    return solver


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    board=st.sampled_from(BOARDS),
    oop=st.sampled_from(RANGES),
    ip=st.sampled_from(RANGES),
    mode=st.sampled_from([k.CFR, k.BEST, k.AVERAGE]),
    p=st.sampled_from([0, 1]),
    rake=st.sampled_from([0.0, 0.05]),
    dtype=st.sampled_from([np.float32, np.float64]),
    seed=st.integers(0, 2**16),
)
def test_the_loop_walks_as_the_recursion(
    board: str, oop: str, ip: str, mode: int, p: int, rake: float, dtype: type, seed: int
) -> None:
    solver = _solver(board, oop, ip, rake, seed)
    g = solver.g
    hands = solver.game.hands
    w_p, w_o = hands[p].weights.astype(dtype), hands[1 - p].weights.astype(dtype)
    disc = np.array([0.7, 0.4, 0.9])
    cache = np.zeros((1, 1), dtype)
    results = []
    for walk in (k.walk, _loop.walk_loop):
        regrets, strategy = g.regrets.copy(), g.strategy.copy()
        mine = g._replace(regrets=regrets, strategy=strategy)
        out = np.zeros(len(w_p), dtype)
        walk(mine, 0, 0, mode, p, w_p, w_o, out, cache, False, disc)
        results.append((out, regrets, strategy))
    (a, ra, sa), (b, rb, sb) = results
    assert np.any(a != 0)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ra, rb)
    np.testing.assert_array_equal(sa, sb)
    if mode == k.CFR:
        assert not np.array_equal(ra, g.regrets)  # the walk did update


@pytest.mark.parametrize("board", BOARDS)
def test_the_solver_on_tasks_matches_the_recursive_walk(board: str) -> None:
    """A whole root walk, split into threaded tasks (flop and turn) and gathered, or one
    loop (river), gives the recursive walk's values."""
    solver = _solver(board, RANGES[0], RANGES[1], 0.0, 7)
    solver.threads = 1
    g = solver.g
    for mode in (k.BEST, k.AVERAGE):
        for p in (0, 1):
            mine = solver.root_values(mode, p)
            hands = solver.game.hands
            out = np.zeros(len(hands[p]))
            w = hands[p].weights, hands[1 - p].weights
            k.walk(g, 0, 0, mode, p, *w, out, np.zeros((1, 1)), False, np.zeros(3))
            np.testing.assert_allclose(mine, out, rtol=1e-12, atol=1e-9)
