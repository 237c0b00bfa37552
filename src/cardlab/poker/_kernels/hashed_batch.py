"""The batch kernel of the hash path: the best five of every row of a code array.

Per chunk of rows, two loops:

1. every row's plain key: the rank lookup of :mod:`.hashed` and, where suits break ties,
   the suit fields by the key's suit plan (:func:`~.hashed.plan_suits`). The same loop
   tests the suit counts, which ride in the hash digits, and notes the rows that may
   hold a flush or a Mixwell: a short list, no branch taken on most rows;
2. only the rows noted: their sums again, the flushes their suit counts allow and the
   Mixwells (seven cards, five Mixwell suits: :func:`~.hashed.mixwell_pairs`; other
   hands: every five-card choice).

The loops take the arrays out of the bundle once per chunk: reading one out of ``t``
counts a reference on it, and threads counting on the same arrays slow each other down.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from cardlab.poker._kernels.bundle import KeyTables
from cardlab.poker._kernels.five import nibble_sum, nonzero_nibbles
from cardlab.poker._kernels.hashed import _mixwell_choices, mixwell_pairs, plan_suits

Array = Any
_CHUNK = 4096


@njit(cache=True, parallel=True)
def best_hashed(codes: Array, t: KeyTables, out: Array) -> None:  # pragma: no cover - compiled
    """out[i] = the key of the best five cards of row i; ``t`` holds the hash tables of
    ``codes.shape[1]`` cards (:class:`~.bundle.KeyTables`)."""
    n = codes.shape[0]
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    for chunk in prange(n_chunks):
        start = chunk * _CHUNK
        stop = min(n, start + _CHUNK)
        noted = np.empty(_CHUNK, np.int64)
        n_noted = _plain_keys(codes, start, stop, t, noted, out)
        if n_noted:
            _raise_noted(codes, noted, n_noted, t, out)


@njit(cache=True)
def _plain_keys(
    codes: Array, start: int, stop: int, t: KeyTables, noted: Array, out: Array
) -> int:  # pragma: no cover - compiled
    """out[i] = the plain key of row i (ranks and suits, no flush or Mixwell); the rows
    whose suit counts allow a flush or a Mixwell go to ``noted``; returns their number."""
    k = codes.shape[1]
    digits = np.ascontiguousarray(t.per_card[:, 0])
    boards = np.ascontiguousarray(t.per_card[:, 1:3])
    lo_index = t.lo_index
    hi_index = t.hi_index
    rank_keys = t.rank_keys
    suit_plan = t.suit_plan
    top_suits = t.top_suits
    n_lo_bits = t.n_lo_bits
    suit_shift = t.suit_shift
    lo_mask = (1 << n_lo_bits) - 1
    hi_mask = (1 << (suit_shift - n_lo_bits)) - 1
    flush_test = t.flush_test
    flush_bits = (flush_test // 3) << 3  # the top bit of each suit's nibble
    mixwell = t.mixwell
    mix_suits = t.mix_suits
    mix_fast = nibble_sum(mix_suits) == 5 and k <= 8
    n = 0
    if t.suits_count:
        for i in range(start, stop):
            total = 0
            w0 = 0
            w1 = 0
            if k == 7:  # the common case: a loop of known length, unrolled
                for j in range(7):
                    c = codes[i, j]
                    total += digits[c]
                    w0 |= boards[c, 0]
                    w1 |= boards[c, 1]
            else:
                for j in range(k):
                    c = codes[i, j]
                    total += digits[c]
                    w0 |= boards[c, 0]
                    w1 |= boards[c, 1]
            place = hi_index[total >> n_lo_bits & hi_mask] + lo_index[total & lo_mask]
            out[i] = rank_keys[place] | plan_suits(suit_plan[place], w0, w1, top_suits)
            suits = total >> suit_shift
            noted[n] = i
            n += _noted(suits, flush_test, flush_bits, mixwell, mix_suits, mix_fast)
        return n
    for i in range(start, stop):
        if k == 7:  # the common case, unrolled
            total = (
                digits[codes[i, 0]]
                + digits[codes[i, 1]]
                + digits[codes[i, 2]]
                + digits[codes[i, 3]]
                + digits[codes[i, 4]]
                + digits[codes[i, 5]]
                + digits[codes[i, 6]]
            )
        else:
            total = 0
            for j in range(k):
                total += digits[codes[i, j]]
        out[i] = rank_keys[hi_index[total >> n_lo_bits & hi_mask] + lo_index[total & lo_mask]]
        suits = total >> suit_shift
        noted[n] = i
        n += _noted(suits, flush_test, flush_bits, mixwell, mix_suits, mix_fast)
    return n


@njit(cache=True, inline="always")
def _noted(
    suits: int, flush_test: int, flush_bits: int, mixwell: bool, mix_suits: int, mix_fast: bool
) -> bool:  # pragma: no cover - compiled
    """Whether the suit counts ``suits`` allow a flush (a nibble of five or more) or a
    Mixwell (every Mixwell suit present). ``mix_fast``: exactly five Mixwell suits and
    at most eight cards, so adding 7 to each Mixwell nibble sets its top bit exactly when
    the suit is present, without a carry."""
    flush = ((suits + flush_test) & flush_bits) != 0
    if not mixwell:
        return flush
    if mix_fast:
        return flush | (((suits + 7 * mix_suits) & (mix_suits << 3)) == mix_suits << 3)
    return flush | (nibble_sum(nonzero_nibbles(suits) & mix_suits) >= 5)


@njit(cache=True)
def _raise_noted(
    codes: Array, noted: Array, n_noted: int, t: KeyTables, out: Array
) -> None:  # pragma: no cover - compiled
    """Raise out[i] to row i's best flush or Mixwell, for the rows ``noted``."""
    k = codes.shape[1]
    scratch = np.zeros(16, np.int64)
    per_card = t.per_card
    flush_keys = t.flush_keys
    suit_strength = t.suit_strength
    n_suits = suit_strength.shape[0]
    suit_shift = t.suit_shift
    flush_test = t.flush_test
    flush_bits = (flush_test // 3) << 3
    mixwell = t.mixwell
    mix_suits = t.mix_suits
    suits_count = t.suits_count
    # seven cards, five Mixwell suits: the pairs left out, looked up
    pairs_path = k == 7 and nibble_sum(mix_suits) == 5 and t.mix_hash
    arrays = (per_card, t.lo_index, t.hi_index5, t.mix_keys5, t.suit_plan5, t.top_suits)
    ints = (t.n_lo_bits, suit_shift, mix_suits, suits_count)
    for q in range(n_noted):
        i = noted[q]
        total = 0
        w0 = 0
        w1 = 0
        for j in range(k):
            c = codes[i, j]
            total += per_card[c, 0]
            if suits_count:  # the boards only serve the Mixwell choices' suits
                w0 |= per_card[c, 1]
                w1 |= per_card[c, 2]
        suits = total >> suit_shift
        key = out[i]
        flushes = (suits + flush_test) & flush_bits  # bit 3 of each suit's nibble
        if flushes:
            for s in range(n_suits):
                if flushes >> (4 * s + 3) & 1:
                    ranks = 0
                    for j in range(k):  # the suit's ranks, without a branch a card
                        c = codes[i, j]
                        ranks |= per_card[c, 5] & -np.int64(per_card[c, 4] == s)
                    key = max(key, flush_keys[ranks] | suit_strength[s] * 0x11111)
        if mixwell and nibble_sum(nonzero_nibbles(suits) & mix_suits) >= 5:
            row = codes[i]  # a view costs a reference count: only here
            if pairs_path:
                key = mixwell_pairs(row, total, w0, w1, key, scratch, arrays, ints)
            else:
                key = _mixwell_choices(row, k, total, w0, w1, scratch, t, key)
        out[i] = key
