"""The walks and the tally every kernel loop shares (:mod:`cardlab.poker._kernels.tally`),
held to itertools and to plain counting, and how parallel workers share them
(:mod:`cardlab._sharing`)."""

from __future__ import annotations

import itertools
import os

import numba
import numpy as np
import pytest
from numba import njit, prange

from cardlab._sharing import borrowed, fetch_add
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


@pytest.mark.parametrize(("k", "n"), [(0, 5), (1, 5), (3, 6), (5, 13)])
def test_the_multiset_costs_count_each_units_multisets(k: int, n: int) -> None:
    prefixes = t.multiset_prefixes(n, k)
    costs = t.multiset_costs(prefixes, n, k).tolist()
    every = list(itertools.combinations_with_replacement(range(n), k))
    for row, cost in zip(prefixes.tolist(), costs, strict=True):
        fixed = [r for r in row if r >= 0]
        # the multisets whose lowest len(fixed) ranks are the prefix, counted apart
        assert cost == sum(1 for m in every if list(m[: len(fixed)]) == fixed)


@njit(parallel=True)
def _claim_all(n_units: int, workers: int) -> np.ndarray:
    """Every worker takes units from one counter until none is left; per unit, how
    many times it was taken."""
    taken = np.zeros(1, np.int64)
    seen = np.zeros((workers, n_units), np.int64)
    for w in prange(workers):
        counter = borrowed(taken)
        k = fetch_add(counter, 1)
        while k < n_units:
            seen[w, k] += 1
            for _ in range(1000 * (k % 7)):  # units of unequal sizes
                seen[w, k] += 0
            k = fetch_add(counter, 1)
    return seen


def test_workers_take_every_unit_exactly_once() -> None:
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        seen = _claim_all(500, 4)
    finally:
        numba.set_num_threads(before)
    assert seen.sum(axis=0).tolist() == [1] * 500


@njit
def _through_a_borrowed_view(a: np.ndarray) -> tuple[int, int]:
    b = borrowed(a)
    b[3] = 77  # the same memory
    return b.shape[0], b[1:].sum()


def test_a_borrowed_view_is_the_same_memory() -> None:
    a = np.arange(10, dtype=np.int64)
    n, total = _through_a_borrowed_view(a)
    assert (n, total) == (10, sum(range(1, 10)) - 3 + 77)
    assert a[3] == 77


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


def test_the_top_tally_is_the_tally() -> None:
    # the Monte Carlo loops settle a pot from the top key found while making the keys
    for keys in ([5, 9, 2], [7, 3, 7], [4, 4, 4], [1, 8, 8]):
        arr = np.array(keys, np.int64)
        top = max(keys)
        by_tally = np.zeros((4, 3), np.int64)
        by_top = np.zeros((4, 3), np.int64)
        t.tally(arr, 1, by_tally)
        _tally_top(arr, top, keys.index(top), keys.count(top), by_top)
        assert by_top.tolist() == by_tally.tolist()


@njit
def _tally_top(keys: np.ndarray, top: int, first: int, n_top: int, out: np.ndarray) -> None:
    t.tally_top(borrowed(keys), top, first, n_top, borrowed(out))


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({}, "20000"),  # a short spin, then sleep
        ({"OMP_WAIT_POLICY": "PASSIVE"}, None),  # the user's choice: left alone
        ({"GOMP_SPINCOUNT": "5"}, "5"),
    ],
)
def test_the_kernels_set_a_short_spin_unless_the_user_chose(
    given: dict[str, str], expected: str | None
) -> None:
    import json
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    code = (
        "import os, json, cardlab.poker._kernels;"
        " print(json.dumps(os.environ.get('GOMP_SPINCOUNT')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env | given, capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == expected
