"""Compiled counting for exact heads-up charts: one board, every pair of hole cards.

Given the keys of every two-card hand from the ``m`` cards left beside a board (hole
``j`` holds the cards at positions ``pa[j]`` and ``pb[j]`` of that rest), each hand's
wins and ties against every opponent hand that shares no card with it follow from one
sort: walking the hands from the lowest key up, a hand beats the hands already passed
less those holding one of its two cards (a counter per card; no other hand holds both),
and ties the hands of its own key likewise. ``O(H log H)`` per board instead of ``H^2``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit


@njit(cache=True)
def count_boards(
    keys: Any,  # (boards, H) int64
    rest: Any,  # (boards, m) int64: card codes left beside each board
    weight: Any,  # (boards,) int64: boards each stands for
    pa: Any,  # (H,) int64
    pb: Any,  # (H,) int64
    win: Any,  # (n, n) int64, added to
    tie: Any,  # (n, n) int64, added to
    deals: Any,  # (n, n) int64, added to
) -> None:
    n_boards, h = keys.shape
    m = rest.shape[1]
    opponents = (m - 2) * (m - 3) // 2
    below = np.zeros(m, np.int64)  # hands passed that hold each card
    level = np.zeros(m, np.int64)  # hands of the current key that hold each card
    for i in range(n_boards):
        k = keys[i]
        order = np.argsort(k)
        below[:] = 0
        w = weight[i]
        passed = 0
        s = 0
        while s < h:
            e = s
            while e < h and k[order[e]] == k[order[s]]:
                e += 1
            for t in range(s, e):
                j = order[t]
                level[pa[j]] += 1
                level[pb[j]] += 1
            g = e - s
            for t in range(s, e):
                j = order[t]
                a, b = pa[j], pb[j]
                wins = passed - below[a] - below[b]
                ties = g - level[a] - level[b] + 1  # the hand itself was taken off twice
                ca, cb = rest[i, a], rest[i, b]
                win[ca, cb] += w * wins
                tie[ca, cb] += w * ties
                deals[ca, cb] += w * opponents
            for t in range(s, e):
                j = order[t]
                below[pa[j]] += 1
                below[pb[j]] += 1
                level[pa[j]] = 0
                level[pb[j]] = 0
            passed += g
            s = e
