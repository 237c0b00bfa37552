"""Subset sums over every five-card hand of a deck, for the exact draw table
(:mod:`cardlab.poker.draw_strength`).

Sets of deck positions are numbered by their colex rank: ``c0 < c1 < ... < c(m-1)`` has
rank ``C(c0, 1) + C(c1, 2) + ... + C(c(m-1), m)``, so the m-sets of the first n positions
are numbered 0 .. C(n, m) - 1 in the order :func:`colex_hands` lists them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

Array = Any


def binomials(n: int) -> Array:
    """``C(i, j)`` for i <= n, j <= 5, as int64."""
    out = np.zeros((n + 1, 6), np.int64)
    for i in range(n + 1):
        out[i, 0] = 1
        for j in range(1, min(i, 5) + 1):
            out[i, j] = out[i - 1, j - 1] + (out[i - 1, j] if j <= i - 1 else 0)
    return out


@njit(cache=True)
def colex_hands(n: int, codes: Array, binom: Array) -> Array:  # pragma: no cover - compiled
    """Every five-card set of the n positions in colex order, as rows of ``codes``."""
    total = binom[n, 5]
    out = np.empty((total, 5), codes.dtype)
    c = np.arange(5)
    for r in range(total):
        for j in range(5):
            out[r, j] = codes[c[j]]
        i = 0
        while i < 4 and c[i] + 1 == c[i + 1]:
            i += 1
        c[i] += 1
        for j in range(i):
            c[j] = j
    return out


@njit(cache=True)
def spread(values: Array, n: int, m: int, binom: Array) -> Array:  # pragma: no cover - compiled
    """For every (m-1)-set S of the n positions: the sum of ``values`` (indexed by the
    colex rank of m-sets) over the m-sets that contain S."""
    out = np.zeros(binom[n, m - 1], np.int64)
    c = np.arange(m)
    for r in range(binom[n, m]):
        v = values[r]
        for drop in range(m):
            rank = 0
            for j in range(m):
                if j < drop:
                    rank += binom[c[j], j + 1]
                elif j > drop:
                    rank += binom[c[j], j]
            out[rank] += v
        i = 0
        while i < m - 1 and c[i] + 1 == c[i + 1]:
            i += 1
        c[i] += 1
        for j in range(i):
            c[j] = j
    return out
