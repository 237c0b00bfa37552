"""The batch kernel of the hash path: the best five of every row of a code array.

Per chunk of rows, two loops:

1. every row's plain key: the rank lookup of :mod:`.hashed` and, where suits break ties,
   the suit fields by the key's suit plan, as :func:`~.hashed.plan_suits` but with the
   row's boards stored once, so that each group of equal ranks reads its rank's byte of
   suit bits straight from memory (byte r of the two words). The same loop
   tests the suit counts, which ride in the hash digits, and notes the rows that may
   hold a flush or a Mixwell, with their sums: a short list, no branch taken on most
   rows;
2. only the rows noted: the flushes their suit counts allow and the Mixwells. Seven
   cards with exactly five Mixwell suits keep every card that is alone in its Mixwell
   suit and one card of each suit held twice or three times: at most four choices,
   listed without a branch and looked up through the same hash under the Mixwell
   shapes; only the best rank keys among them take their suits. Other hands try every
   five-card choice.

The loops take the arrays out of the bundle once per chunk, and the per-row code calls
no function that takes an array (but the rare general Mixwell choice): numba counts a
reference on each array passed to a call, inlined or not, on every call, which cost
more than the Mixwell itself (FESCA78: 36 against 58 M hands a second).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from cardlab.poker._kernels.bundle import KernelArrays, KernelScalars, mix_arrays
from cardlab.poker._kernels.five import nibble_sum, nonzero_nibbles
from cardlab.poker._kernels.hashed import PLAN_SLOT_BITS, hash_masks, mixwell_key
from cardlab.poker.keys import SUITS_MASK

Array = Any
_CHUNK = 4096


@njit(cache=True, parallel=True)
def best_hashed(
    codes: Array, arr: KernelArrays, sc: KernelScalars, out: Array
) -> None:  # pragma: no cover - compiled
    """out[i] = the key of the best five cards of row i; ``arr``, ``sc`` hold the hash
    look-ups of ``codes.shape[1]`` cards (:mod:`.bundle`)."""
    n = codes.shape[0]
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    for chunk in prange(n_chunks):
        start = chunk * _CHUNK
        stop = min(n, start + _CHUNK)
        noted = np.empty((_CHUNK, 2), np.int64)  # row, hash sum
        n_noted = _plain_keys(codes, start, stop, arr, sc, noted, out)
        if n_noted:
            _raise_noted(codes, noted, n_noted, arr, sc, out)


@njit(cache=True)
def _plain_keys(
    codes: Array,
    start: int,
    stop: int,
    arr: KernelArrays,
    sc: KernelScalars,
    noted: Array,
    out: Array,
) -> int:  # pragma: no cover - compiled
    """out[i] = the plain key of row i (ranks and suits, no flush or Mixwell); the rows
    whose suit counts allow a flush or a Mixwell go to ``noted`` with their hash sum;
    returns their number."""
    k = codes.shape[1]
    digits = np.ascontiguousarray(arr.per_card[:, 0])
    boards = np.ascontiguousarray(arr.per_card[:, 1:3])
    lo_index = arr.lo_index
    hi_index = arr.hi_index
    rank_keys = arr.rank_keys
    suit_plan = arr.suit_plan
    top_suits = arr.top_suits
    n_lo_bits = sc.n_lo_bits
    suit_shift = sc.suit_shift
    lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
    flush_test = sc.flush_test
    flush_bits = (flush_test // 3) << 3  # the top bit of each suit's nibble
    mixwell = sc.mixwell
    mix_suits = sc.mix_suits
    mix_fast = nibble_sum(mix_suits) == 5 and k <= 8
    boards_of_row = np.zeros(2, np.int64)
    rank_bytes = boards_of_row.view(np.uint8)  # byte r: the suit bits of rank r
    n = 0
    if sc.suits_count:
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
            boards_of_row[0] = w0  # read back a byte a rank
            boards_of_row[1] = w1
            plan = suit_plan[place]
            s = 0  # hashed.plan_suits, each group's byte read straight from memory
            for g in range(5):
                slot = plan >> (PLAN_SLOT_BITS * g)
                s |= top_suits[slot & 0xF00 | rank_bytes[slot & 15]]
            out[i] = rank_keys[place] | s
            noted[n, 0] = i
            noted[n, 1] = total
            n += _noted(total >> suit_shift, flush_test, flush_bits, mixwell, mix_suits, mix_fast)
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
        noted[n, 0] = i
        noted[n, 1] = total
        n += _noted(total >> suit_shift, flush_test, flush_bits, mixwell, mix_suits, mix_fast)
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
    codes: Array, noted: Array, n_noted: int, arr: KernelArrays, sc: KernelScalars, out: Array
) -> None:  # pragma: no cover - compiled
    """Raise out[i] to row i's best flush or Mixwell, for the rows ``noted`` (row, hash
    sum)."""
    k = codes.shape[1]
    per_card = arr.per_card
    digits = np.ascontiguousarray(per_card[:, 0])
    boards = np.ascontiguousarray(per_card[:, 1:3])
    mix_of = np.ascontiguousarray(per_card[:, 3])
    lo_index = arr.lo_index
    hi_index5 = arr.hi_index5
    mix_keys5 = arr.mix_keys5
    suit_plan5 = arr.suit_plan5
    top_suits = arr.top_suits
    flush_keys = arr.flush_keys
    suit_strength = arr.suit_strength
    n_suits = suit_strength.shape[0]
    n_lo_bits = sc.n_lo_bits
    suit_shift = sc.suit_shift
    lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
    flush_test = sc.flush_test
    flush_bits = (flush_test // 3) << 3
    mixwell = sc.mixwell
    mix_suits = sc.mix_suits
    suits_count = sc.suits_count
    # seven cards, exactly five Mixwell suits: the choices by the suits held twice or more
    by_suits = k == 7 and nibble_sum(mix_suits) == 5 and sc.mix_hash
    mix = mix_arrays(arr)
    picks = np.zeros(16, np.int64)  # cards of the first suit held twice or more, then the second
    places = np.zeros(4, np.int64)
    scratch = np.zeros(16, np.int64)
    boards_of_row = np.zeros(2, np.int64)
    rank_bytes = boards_of_row.view(np.uint8)
    for q in range(n_noted):
        i = noted[q, 0]
        total = noted[q, 1]
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
        if not (mixwell and nibble_sum(nonzero_nibbles(suits) & mix_suits) >= 5):
            out[i] = key
            continue
        if not by_suits:
            w0 = 0
            w1 = 0
            for j in range(k):
                w0 |= boards[codes[i, j], 0]
                w1 |= boards[codes[i, j], 1]
            key = mixwell_key(codes[i], k, total, w0, w1, key, scratch, True, sc, mix)
            out[i] = key
            continue
        # Mixwell suits held twice or more: at most two (7 cards, 5 suits); x the first
        several = nonzero_nibbles(suits >> 1) & mix_suits
        x = several & -several
        y = several ^ x
        kept = total  # the hash sum of the cards alone in their Mixwell suit
        k0 = 0  # and their boards
        k1 = 0
        n_x = 0
        n_y = 0
        for j in range(7):
            c = codes[i, j]
            m = mix_of[c]
            alone = (m != 0) & ((m & several) == 0)
            kept -= digits[c] & -np.int64(not alone)
            k0 |= boards[c, 0] & -np.int64(alone)
            k1 |= boards[c, 1] & -np.int64(alone)
            picks[n_x] = c
            n_x += (m == x) & (x != 0)
            picks[8 + n_y] = c
            n_y += (m == y) & (y != 0)
        # choice r keeps picks[r >> by_y] of x (the last one past the end) and
        # picks[8 + (r & by_y)] of y: 3 choices of x alone, or 2 x 2; none: 1
        by_y = n_y >> 1
        x_mask = -np.int64(n_x > 0)
        y_mask = -np.int64(n_y > 0)
        best = -1
        for r in range(4):
            cx = picks[max(min(r >> by_y, n_x - 1), 0)]
            cy = picks[8 + (r & by_y)]
            t5 = kept + (digits[cx] & x_mask) + (digits[cy] & y_mask)
            place = hi_index5[t5 >> n_lo_bits & hi_mask] + lo_index[t5 & lo_mask]
            places[r] = place
            best = max(best, mix_keys5[place])
        if not suits_count or best | SUITS_MASK < key:
            out[i] = max(key, best)
            continue
        for r in range(max(n_x, 1) * max(n_y, 1)):  # the distinct choices
            if mix_keys5[places[r]] == best:
                cx = picks[max(min(r >> by_y, n_x - 1), 0)]
                cy = picks[8 + (r & by_y)]
                v0 = k0 | (boards[cx, 0] & x_mask) | (boards[cy, 0] & y_mask)
                v1 = k1 | (boards[cx, 1] & x_mask) | (boards[cy, 1] & y_mask)
                boards_of_row[0] = v0
                boards_of_row[1] = v1
                plan = suit_plan5[places[r]]
                s = 0  # hashed.plan_suits, as in _plain_keys
                for g in range(5):
                    slot = plan >> (PLAN_SLOT_BITS * g)
                    s |= top_suits[slot & 0xF00 | rank_bytes[slot & 15]]
                key = max(key, best | s)
        out[i] = key
