"""The walks and the tally every kernel loop shares (:mod:`cardlab.poker._kernels.tally`),
held to itertools and to plain counting."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from numba import njit

from cardlab.poker._kernels import tally as t


@njit
def _combinations(k: int, n: int) -> list[tuple[int, ...]]:  # the walk, collected
    idx = np.arange(k)
    out = []
    while True:
        out.append(idx.copy())
        if t.next_combination(idx, k, n) < 0:
            break
    return out


@njit
def _unit_multisets(k: int, n: int, prefix: np.ndarray) -> list[np.ndarray]:
    v = np.zeros(max(k, 1), np.int64)
    fixed = t.start_multiset(v, k, prefix)
    out = []
    while True:
        out.append(v[:k].copy())
        if k == 0 or t.next_multiset(v, k, n) < fixed:
            break
    return out


@pytest.mark.parametrize(("k", "n"), [(1, 4), (2, 5), (3, 7), (5, 9)])
def test_the_combination_walk_is_itertools(k: int, n: int) -> None:
    walked = [tuple(int(x) for x in c) for c in _combinations(k, n)]
    assert walked == list(itertools.combinations(range(n), k))


@pytest.mark.parametrize(("k", "n"), [(0, 5), (1, 5), (2, 4), (3, 6), (5, 13)])
def test_the_multiset_units_cover_each_multiset_once(k: int, n: int) -> None:
    prefixes = t.multiset_prefixes(n, k)
    walked = [
        tuple(int(x) for x in m) for row in prefixes for m in _unit_multisets(k, n, row.copy())
    ]
    assert sorted(walked) == list(itertools.combinations_with_replacement(range(n), k))


@pytest.mark.parametrize("n", [1, 2, 5, 16, 91, 100])
def test_spread_is_a_permutation_alternating_over_halves(n: int) -> None:
    units = np.arange(n, dtype=np.int64).reshape(n, 1) * 10
    out = t.spread(units)[:, 0].tolist()
    assert sorted(out) == units[:, 0].tolist()
    # two threads: the first half holds every other unit (the even ones), the second the rest
    assert sorted(out[: (n + 1) // 2]) == list(range(0, 10 * n, 20))


def test_the_tally_counts_wins_ties_and_shares() -> None:
    out = np.zeros((4, 3), np.int64)
    assert not t.tally(np.array([5, 9, 2], np.int64), 1, out)  # player 1 alone
    assert t.tally(np.array([7, 3, 7], np.int64), 2, out)  # 0 and 2 split, twice
    assert t.tally(np.array([7, 3, 7], np.int64), -1, out)  # one taken back
    unit = t.SHARE_UNIT
    assert out[:, 0].tolist() == [0, 1, unit // 2, (unit // 2) ** 2]
    assert out[:, 1].tolist() == [1, 0, unit, unit * unit]
    assert out[:, 2].tolist() == [0, 1, unit // 2, (unit // 2) ** 2]


def test_the_mask_tally_is_the_tally() -> None:
    keys = np.array([4, 8, 8, 1], np.int64)
    by_keys = np.zeros((4, 4), np.int64)
    by_mask = np.zeros((4, 4), np.int64)
    t.tally(keys, 3, by_keys)
    mask = t.top_mask(keys)
    assert mask == 0b0110 and t.top_shared(keys)
    t.tally_mask(mask, 3, by_mask)
    assert by_mask.tolist() == by_keys.tolist()
