"""Compiled counting for exact heads-up charts: one board, every pair of hole cards.

Given the keys of every two-card hand from the ``m`` cards left beside a board (hole
``j`` holds the cards at positions ``pa[j]`` and ``pb[j]`` of that rest), each hand's
wins and ties against every opponent hand that shares no card with it follow from
ranks: the hands with a lower key, less those that hold one of its two cards (no hand
holds both but itself). Sorting the keys once per board and the ``m - 1`` keys of each
card's hands answers that for all hands at once, ``O(H log H)`` instead of ``H^2``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit


@njit(cache=True)
def _below(sorted_keys: Any, key: Any) -> tuple[int, int]:
    """(count of keys < key, count == key) in an ascending array."""
    lo = np.searchsorted(sorted_keys, key, side="left")
    hi = np.searchsorted(sorted_keys, key, side="right")
    return lo, hi - lo


@njit(cache=True)
def count_boards(
    keys: Any,  # (boards, H) int64
    rest: Any,  # (boards, m) int64: card codes left beside each board
    weight: Any,  # (boards,) int64: boards each stands for
    pa: Any,  # (H,) int64
    pb: Any,  # (H,) int64
    by_card: Any,  # (m, m - 1) int64: the holes holding each position
    n_cards: int,
    win: Any,  # (n, n) int64, added to
    tie: Any,  # (n, n) int64, added to
    deals: Any,  # (n, n) int64, added to
) -> None:
    n_boards, h = keys.shape
    m = rest.shape[1]
    opponents = (m - 2) * (m - 3) // 2
    per_card = np.empty((m, m - 1), np.int64)
    for i in range(n_boards):
        k = keys[i]
        all_sorted = np.sort(k)
        for c in range(m):
            for t in range(m - 1):
                per_card[c, t] = k[by_card[c, t]]
            per_card[c] = np.sort(per_card[c])
        w = weight[i]
        for j in range(h):
            less, equal = _below(all_sorted, k[j])
            less_a, equal_a = _below(per_card[pa[j]], k[j])
            less_b, equal_b = _below(per_card[pb[j]], k[j])
            wins = less - less_a - less_b
            ties = equal - equal_a - equal_b + 1  # the hand itself was taken off twice
            a = rest[i, pa[j]]
            b = rest[i, pb[j]]
            win[a, b] += w * wins
            tie[a, b] += w * ties
            deals[a, b] += w * opponents
