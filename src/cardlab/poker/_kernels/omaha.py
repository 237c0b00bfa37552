"""Omaha: the best of the 60 choices of two hole cards and three board cards, each
scored through the five-card hash tables of :mod:`.hashed` (no per-choice sorting).

Per row, the six hole pairs and the ten board triples are summed once (hash digits and
suit counts, rank-by-suit boards, Mixwell nibbles, rank masks); each choice then adds a
pair and a triple and looks its key up: the plain key with suits, a flush candidate
when the five share a suit, the Mixwell key when they hold five Mixwell suits.
Exact under the same condition as the hashed path.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from cardlab.poker._kernels.bundle import KeyTables
from cardlab.poker._kernels.five import nibble_sum
from cardlab.poker._kernels.hashed import add_suits
from cardlab.poker.keys import SUITS_MASK

Array = Any
_CHUNK = 1024
PARTS_ROWS = 16 + 60  # omaha_key's scratch: the pairs and triples, then the keys
_HOLE_PAIRS = np.array([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)], np.int64)
_BOARD_TRIPLES = np.array(
    [(a, b, c) for a in range(4, 9) for b in range(a + 1, 9) for c in range(b + 1, 9)], np.int64
)


@njit(cache=True, inline="always")
def omaha_key(row: Array, parts: Array, t: KeyTables) -> int:  # pragma: no cover - compiled
    """The key of the best Omaha hand of ``row`` (four hole cards, then five board
    cards); ``parts``: a (16, 5) int64 scratch array, then room for 60 keys (at least
    76 rows); ``t``: the tables (:class:`~.bundle.KeyTables`) with the hash tables of
    five cards.

    Three passes over the 60 choices: every choice's plain key without suits (a tight
    loop of lookups), then the suits only for the choices that reach the highest plain
    key (suits rank below every rank field, so no other choice can win), then flushes
    and Mixwells where the suit counts allow them."""
    a = omaha_arrays(t)
    return omaha_key_of(
        row, parts, t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]
    )


@njit(cache=True, inline="always")
def omaha_arrays(t: KeyTables) -> Any:  # pragma: no cover - compiled
    """The arrays :func:`omaha_key_of` reads, out of ``t``: read them once per loop (each
    read out of ``t`` counts a reference on and off, which cost more than a lookup)."""
    return (
        t.per_card,
        t.lo_index,
        t.hi_index,
        t.rank_keys,
        t.flush_keys,
        t.suit_strength,
        t.hi_index5,
        t.mix_keys5,
        t.straight_primary,
        t.straights,
        t.nth_strength,
    )


@njit(cache=True, inline="always")
def omaha_key_of(
    row: Array,
    parts: Array,
    t: KeyTables,
    per_card: Array,
    lo_index: Array,
    hi_index: Array,
    rank_keys: Array,
    flush_keys: Array,
    suit_strength: Array,
    hi_index5: Array,
    mix_keys5: Array,
    straight_primary: Array,
    straights: Array,
    nth_strength: Array,
) -> int:  # pragma: no cover - compiled
    """:func:`omaha_key` with the arrays of ``t`` given (:func:`omaha_arrays`); only
    ``t``'s numbers and flags are read."""
    n_lo_bits = t.n_lo_bits
    suit_shift = t.suit_shift
    flush_test = t.flush_test
    suits_count = t.suits_count
    mixwell = t.mixwell
    lo_mask = (1 << n_lo_bits) - 1
    hi_mask = (1 << (suit_shift - n_lo_bits)) - 1
    flush_bits = (flush_test // 3) << 3
    for q in range(16):  # the sums the plain keys need
        total = 0
        mix = 0
        size = 2 if q < 6 else 3
        for j in range(size):
            c = row[_HOLE_PAIRS[q, j] if q < 6 else _BOARD_TRIPLES[q - 6, j]]
            total += per_card[c, 0]
            mix += per_card[c, 3]
        parts[q, 0] = total
        parts[q, 3] = mix
    # 1. plain keys, and whether any choice may be a flush or a Mixwell
    top = -1
    any_rare = 0
    for p in range(6):
        for q in range(6, 16):
            total = parts[p, 0] + parts[q, 0]
            key = rank_keys[hi_index[total >> n_lo_bits & hi_mask] + lo_index[total & lo_mask]]
            parts[16 + 10 * p + q - 6, 0] = key
            top = max(top, key)
            any_rare |= ((total >> suit_shift) + flush_test) & flush_bits
    if mixwell and not any_rare:
        for p in range(6):
            for q in range(6, 16):
                mix = parts[p, 3] + parts[q, 3]
                any_rare |= (mix & 0x6666666666666666 == 0) & (nibble_sum(mix) == 5)
    if not suits_count and not any_rare:
        return int(top)
    for q in range(16):  # the rest: rank-by-suit boards, rank masks
        w0 = 0
        w1 = 0
        ranks = 0
        size = 2 if q < 6 else 3
        for j in range(size):
            c = row[_HOLE_PAIRS[q, j] if q < 6 else _BOARD_TRIPLES[q - 6, j]]
            w0 |= per_card[c, 1]
            w1 |= per_card[c, 2]
            ranks |= per_card[c, 5]
        parts[q, 1] = w0
        parts[q, 2] = w1
        parts[q, 4] = ranks
    best = top
    # 2. suits, for the choices with the highest plain key
    if suits_count:
        best = -1
        for j in range(60):
            if parts[16 + j, 0] == top:
                p = j // 10
                q = 6 + j % 10
                best = max(
                    best,
                    add_suits(
                        top,
                        parts[p, 1] | parts[q, 1],
                        parts[p, 2] | parts[q, 2],
                        straight_primary,
                        straights,
                        nth_strength,
                    ),
                )
    if not any_rare:
        return int(best)
    # 3. flushes and Mixwells, where the suit counts allow them
    for j in range(60):
        p = j // 10
        q = 6 + j % 10
        total = parts[p, 0] + parts[q, 0]
        flag = 1 if ((total >> suit_shift) + flush_test) & flush_bits else 0
        if mixwell:
            mix = parts[p, 3] + parts[q, 3]
            if mix & 0x6666666666666666 == 0 and nibble_sum(mix) == 5:
                flag |= 2
        if flag & 1:
            suits = total >> suit_shift
            s = 0
            while (suits >> (4 * s) & 15) < 5:
                s += 1
            ranks = parts[p, 4] | parts[q, 4]
            best = max(best, flush_keys[ranks] | suit_strength[s] * 0x11111)
        if flag & 2:
            hi5 = hi_index5[total >> n_lo_bits & hi_mask]
            mk = mix_keys5[hi5 + lo_index[total & lo_mask]]
            if suits_count and mk | SUITS_MASK >= best:  # else it loses
                mk = add_suits(
                    mk,
                    parts[p, 1] | parts[q, 1],
                    parts[p, 2] | parts[q, 2],
                    straight_primary,
                    straights,
                    nth_strength,
                )
            best = max(best, mk)
    return int(best)


@njit(cache=True, parallel=True)
def best_omaha(codes: Array, t: KeyTables, out: Array) -> None:  # pragma: no cover - compiled
    """out[i] = the key of row i's best Omaha hand (columns 0-3 hole, 4-8 board); ``t``
    holds the hash tables of five cards."""
    n = codes.shape[0]
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    for chunk in prange(n_chunks):
        _omaha_rows(codes, chunk * _CHUNK, min(n, (chunk + 1) * _CHUNK), t, out)


@njit(cache=True)
def _omaha_rows(
    codes: Array, start: int, stop: int, t: KeyTables, out: Array
) -> None:  # pragma: no cover - compiled
    """out[i] for rows start .. stop - 1 (one thread's share, see :func:`best_omaha`)."""
    parts = np.zeros((PARTS_ROWS, 5), np.int64)  # 6 hole pairs, 10 board triples, 60 keys
    (
        per_card,
        lo_index,
        hi_index,
        rank_keys,
        flush_keys,
        suit_strength,
        hi_index5,
        mix_keys5,
        straight_primary,
        straights,
        nth_strength,
    ) = omaha_arrays(t)
    for i in range(start, stop):
        out[i] = omaha_key_of(
            codes[i],
            parts,
            t,
            per_card,
            lo_index,
            hi_index,
            rank_keys,
            flush_keys,
            suit_strength,
            hi_index5,
            mix_keys5,
            straight_primary,
            straights,
            nth_strength,
        )
