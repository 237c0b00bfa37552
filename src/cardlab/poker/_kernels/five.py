"""Five-card keys and the plain best-of-subsets batch (the checked path).

:func:`key5` follows the reference evaluator step by step: the base hand from the
number of equal-rank pairs among the five cards, Mixwell from the suits, the shape's
prefix from the table, then the cards in significance order (a straight from its top
card down). :func:`best_of_subsets` takes the highest key over given five-card choices
of each row: every C(k, 5) subset, or Omaha's 60 choices.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from cardlab.poker.keys import RANK_SHIFTS, SUIT_BITS, SUIT_SHIFTS, TOP_RANK_SHIFT, TOP_SUIT_SHIFT

Array = Any

# base hand by the number of equal-rank pairs among five cards (see rule_arrays.BASES)
_PAIRS_TO_BASE = np.array([9, 8, 7, 6, 3, -1, 2, -1, -1, -1, 0], np.int64)
_CHUNK = 2048


@njit(cache=True, inline="always")
def _sort2(a: int, b: int) -> tuple[int, int]:  # pragma: no cover - compiled
    return (a, b) if a >= b else (b, a)


def _key5(
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    c4: int,
    cards: Array,
    shapes: Array,
    straights: Array,
    heights: Array,
) -> tuple[int, int]:  # pragma: no cover - compiled
    """(key, category id) of five cards given by code."""
    r0, r1, r2, r3, r4 = cards[c0, 0], cards[c1, 0], cards[c2, 0], cards[c3, 0], cards[c4, 0]
    e01, e02, e03, e04 = r0 == r1, r0 == r2, r0 == r3, r0 == r4
    e12, e13, e14, e23, e24, e34 = r1 == r2, r1 == r3, r1 == r4, r2 == r3, r2 == r4, r3 == r4
    pairs = e01 + e02 + e03 + e04 + e12 + e13 + e14 + e23 + e24 + e34
    base = _PAIRS_TO_BASE[pairs]
    m0, m1, m2, m3, m4 = cards[c0, 4], cards[c1, 4], cards[c2, 4], cards[c3, 4], cards[c4, 4]
    mix = 0
    if m0 != 0 and m1 != 0 and m2 != 0 and m3 != 0 and m4 != 0:
        mix = 1 if (m0 + m1 + m2 + m3 + m4) & 0x6666666666666666 == 0 else 0
    st0, st1, st2, st3, st4 = cards[c0, 2], cards[c1, 2], cards[c2, 2], cards[c3, 2], cards[c4, 2]
    height = -1
    if pairs == 0:
        s = cards[c0, 1]
        flush = cards[c1, 1] == s and cards[c2, 1] == s and cards[c3, 1] == s and cards[c4, 1] == s
        mask = (1 << r0) | (1 << r1) | (1 << r2) | (1 << r3) | (1 << r4)
        if heights.shape[0] > 1:
            height = heights[mask] - 1
        else:
            for h in range(straights.shape[0]):
                if straights[h, 0] == mask:
                    height = h
                    break
        base = (1 if flush else 5) if height >= 0 else (4 if flush else 9)
    key = shapes[base, mix, 0]
    category = shapes[base, mix, 1]
    if shapes[base, mix, 2] != 0:  # ranked as a straight: height, then suits top down
        key |= (height + 1) << TOP_RANK_SHIFT
        for j in range(5):
            t = straights[height, 1 + j]
            if r0 == t:
                st = st0
            elif r1 == t:
                st = st1
            elif r2 == t:
                st = st2
            elif r3 == t:
                st = st3
            else:
                st = st4
            key |= st << (TOP_SUIT_SHIFT - SUIT_BITS * j)
        return key, category
    # significance order: bigger groups, higher rank, stronger suit first
    n0 = 1 + e01 + e02 + e03 + e04
    n1 = 1 + e01 + e12 + e13 + e14
    n2 = 1 + e02 + e12 + e23 + e24
    n3 = 1 + e03 + e13 + e23 + e34
    n4 = 1 + e04 + e14 + e24 + e34
    v0 = n0 << 9 | r0 << 4 | st0
    v1 = n1 << 9 | r1 << 4 | st1
    v2 = n2 << 9 | r2 << 4 | st2
    v3 = n3 << 9 | r3 << 4 | st3
    v4 = n4 << 9 | r4 << 4 | st4
    # sorting network for five, descending
    v0, v1 = _sort2(v0, v1)
    v3, v4 = _sort2(v3, v4)
    v2, v4 = _sort2(v2, v4)
    v2, v3 = _sort2(v2, v3)
    v0, v3 = _sort2(v0, v3)
    v0, v2 = _sort2(v0, v2)
    v1, v4 = _sort2(v1, v4)
    v1, v3 = _sort2(v1, v3)
    v1, v2 = _sort2(v1, v2)
    key |= (((v0 >> 4) & 31) + 1) << RANK_SHIFTS[0] | (v0 & 15) << SUIT_SHIFTS[0]
    key |= (((v1 >> 4) & 31) + 1) << RANK_SHIFTS[1] | (v1 & 15) << SUIT_SHIFTS[1]
    key |= (((v2 >> 4) & 31) + 1) << RANK_SHIFTS[2] | (v2 & 15) << SUIT_SHIFTS[2]
    key |= (((v3 >> 4) & 31) + 1) << RANK_SHIFTS[3] | (v3 & 15) << SUIT_SHIFTS[3]
    key |= (((v4 >> 4) & 31) + 1) << RANK_SHIFTS[4] | (v4 & 15) << SUIT_SHIFTS[4]
    return key, category


@njit(cache=True, inline="always")
def nibble_sum(x: int) -> int:  # pragma: no cover - compiled
    """The sum of the nibbles of ``x`` (when it is at most 15)."""
    return (x * 0x111111111111111) >> 56 & 15


@njit(cache=True, inline="always")
def nonzero_nibbles(x: int) -> int:  # pragma: no cover - compiled
    """Bit 0 of each nibble of ``x`` that is not zero (nibbles hold at most 7)."""
    return (x | x >> 1 | x >> 2) & 0x1111111111111111


key5 = njit(cache=True)(_key5)
key5_inline = njit(cache=True, inline="always")(_key5)  # for hot loops


@njit(cache=True, parallel=True)
def best_of_subsets(
    codes: Array,
    choices: Array,
    cards: Array,
    shapes: Array,
    straights: Array,
    heights: Array,
    out: Array,
) -> None:  # pragma: no cover - compiled
    """out[i] = the highest key over the five-card ``choices`` (column indexes) of row i."""
    n = codes.shape[0]
    n_choices = choices.shape[0]
    for i in prange(n):
        best = -1
        for j in range(n_choices):
            key, _ = key5_inline(
                codes[i, choices[j, 0]],
                codes[i, choices[j, 1]],
                codes[i, choices[j, 2]],
                codes[i, choices[j, 3]],
                codes[i, choices[j, 4]],
                cards,
                shapes,
                straights,
                heights,
            )
            best = max(best, key)
        out[i] = best


@njit(cache=True, parallel=True)
def first_bad(codes: Array, n_cards: int) -> Array:  # pragma: no cover - compiled
    """(row, column, problem) of the first bad entry, or row -1; problem 1 = code
    outside 0..n_cards-1, 2 = the same card twice in the row."""
    n, k = codes.shape
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    found = np.full((n_chunks, 3), -1, np.int64)
    for chunk in prange(n_chunks):
        stop = min(n, (chunk + 1) * _CHUNK)
        for i in range(chunk * _CHUNK, stop):
            seen0 = 0
            seen1 = 0
            bad = 0
            col = 0
            for j in range(k):
                c = codes[i, j]
                if c < 0 or c >= n_cards:
                    bad = 1
                    col = j
                    break
                if c < 64:
                    bit = 1 << c
                    if seen0 & bit:
                        bad = 2
                    seen0 |= bit
                elif c < 128:
                    bit = 1 << (c - 64)
                    if seen1 & bit:
                        bad = 2
                    seen1 |= bit
                else:
                    for jj in range(j):
                        if codes[i, jj] == codes[i, j]:
                            bad = 2
                if bad:
                    col = j
                    break
            if bad:
                found[chunk, 0] = i
                found[chunk, 1] = col
                found[chunk, 2] = bad
                break
    for chunk in range(n_chunks):
        if found[chunk, 0] >= 0:
            return found[chunk]
    return found[0] if n_chunks else np.full(3, -1, np.int64)
