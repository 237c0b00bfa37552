"""Monte Carlo's draws (:mod:`cardlab.poker._kernels.draws`) are exactly uniform: the
chained multiply-shifts of :func:`draw5` checked exhaustively on a small word, where
every accepted word is counted, and the compiled draws sampled against the uniform
distribution."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from numba import njit

from cardlab.poker._kernels.draws import below, draw5, draw5_floors, draw16


def _chain(r: int, ranges: list[int], bits: int) -> tuple[list[int], int]:
    """draw5's arithmetic on a ``bits``-bit word: the draws and the last lower half."""
    mask = (1 << bits) - 1
    out = []
    for n in ranges:
        x = r * n
        out.append(x >> bits)
        r = x & mask
    return out, r


@pytest.mark.parametrize(("n", "bits"), [(6, 12), (7, 14), (9, 16)])
def test_the_chain_with_its_floor_hits_every_outcome_equally_often(n: int, bits: int) -> None:
    # every word of the small size: the accepted ones (last lower half at least 2**bits
    # mod the product) give each ordered draw the same number of times
    ranges = [n, n - 1, n - 2]
    product = math.prod(ranges)
    floor = (1 << bits) % product
    counts: dict[tuple[int, ...], int] = {}
    for r in range(1 << bits):
        draws, left = _chain(r, ranges, bits)
        if left >= floor:
            counts[tuple(draws)] = counts.get(tuple(draws), 0) + 1
    outcomes = set(itertools.product(*(range(k) for k in ranges)))
    assert set(counts) == outcomes
    assert len(set(counts.values())) == 1
    # and the floor is needed: without it some outcome comes up more often
    plain = [tuple(_chain(r, ranges, bits)[0]) for r in range(1 << bits)]
    assert len({plain.count(o) for o in outcomes}) > 1


def test_the_floors_are_two_to_the_32_modulo_the_ranges() -> None:
    assert draw5_floors(48) == (2**32 % (48 * 47 * 46), 2**32 % (45 * 44))
    assert draw5_floors(73) == (2**32 % (73 * 72 * 71), 2**32 % (70 * 69))


@njit
def _sample5(n: int, count: int, seed: int) -> np.ndarray:
    floor3, floor2 = draw5_floors(n)
    state = np.uint64(seed)
    out = np.zeros((count, 5), np.int64)
    for i in range(count):
        d0, d1, d2, d3, d4, state = draw5(state, n, floor3, floor2)
        out[i] = (d0, d1, d2, d3, d4)
    return out


@njit
def _sample16(n: int, count: int, seed: int) -> np.ndarray:
    state = np.uint64(seed)
    buf = np.uint64(0)
    left = 0
    out = np.zeros(count, np.int64)
    for i in range(count):
        out[i], state, buf, left = draw16(state, buf, left, n)
    return out


@njit
def _sample32(n: int, count: int, seed: int) -> np.ndarray:
    state = np.uint64(seed)
    out = np.zeros(count, np.int64)
    for i in range(count):
        out[i], state = below(state, n)
    return out


def _chi2_ok(observed: np.ndarray, expected: float) -> bool:
    """Pearson's chi-squared within 5 standard deviations of its mean (df = cells - 1)."""
    df = observed.size - 1
    chi2 = float((((observed - expected) ** 2) / expected).sum())
    return abs(chi2 - df) < 5 * math.sqrt(2 * df)


def test_the_compiled_draws_are_uniform() -> None:
    n, count = 7, 420_000
    five = _sample5(n, count, 12345)
    for j in range(5):  # each position in its range
        assert five[:, j].min() == 0 and five[:, j].max() == n - 1 - j
        assert _chi2_ok(np.bincount(five[:, j], minlength=n - j), count / (n - j))
    # the five jointly: every one of the 2,520 ordered outcomes, equally often
    index = (((five[:, 0] * 6 + five[:, 1]) * 5 + five[:, 2]) * 4 + five[:, 3]) * 3 + five[:, 4]
    assert _chi2_ok(np.bincount(index, minlength=2520), count / 2520)
    assert _chi2_ok(np.bincount(_sample16(11, count, 7), minlength=11), count / 11)
    assert _chi2_ok(np.bincount(_sample32(13, count, 9), minlength=13), count / 13)
