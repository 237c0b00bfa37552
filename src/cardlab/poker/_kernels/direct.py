"""Best five of six or seven straight from rank and suit masks (no subset loop).

For each row it builds, per rank, the mask of suits present (bits in suit-strength
order) and, per suit, the mask of ranks present; then it scores one candidate per
kind of hand, each the best of its kind:

- groups (five, four, full house, three, two pair, pair): the highest ranks with
  enough cards, strongest suits first, kickers the highest other ranks;
- straight: the highest straight present, each card of its strongest suit;
- flush and straight flush: per suit holding five or more cards;
- no hand: the five highest ranks;
- Mixwell: every choice of one card from each of five different Mixwell suits,
  scored in full by :func:`~.five.key5` (at most a handful per row).

The candidates are scored under their plain (non-Mixwell) shape; that is exact when
the order satisfies ``rule_arrays._direct_ok`` (a hand's true shape never ranks below the
shape it was scored as), which the caller checks, falling back to the subset kernel.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from cardlab.poker._kernels.five import key5, nibble_sum, nonzero_nibbles
from cardlab.poker._kernels.rule_arrays import Base
from cardlab.poker.keys import RANK_BITS, SUIT_BITS, TOP_RANK_SHIFT, TOP_SUIT_SHIFT

Array = Any
_CHUNK = 4096


@njit(cache=True, inline="always")
def popcount(x: int) -> int:  # pragma: no cover - compiled
    """Number of set bits (masks here hold a few bits: clear them one by one)."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def high_bit(x: int) -> int:  # pragma: no cover - compiled
    """Index of the highest set bit of a non-zero mask."""
    b = 0
    while x >> (b + 1):
        b += 1
    return b


@njit(cache=True, inline="always")
def add_group(
    key: int, pos: int, rank: int, suits: int, m: int, bit_strength: Array
) -> int:  # pragma: no cover - compiled
    """Put ``m`` cards of ``rank`` (strongest suits of the mask first) at ``pos``."""
    for j in range(m):
        b = high_bit(suits)
        suits ^= 1 << b
        p = pos + j
        key |= (rank + 1) << (TOP_RANK_SHIFT - RANK_BITS * p) | bit_strength[b] << (
            TOP_SUIT_SHIFT - SUIT_BITS * p
        )
    return key


@njit(cache=True, inline="always")
def add_kickers(
    key: int, pos: int, m: int, skip1: int, skip2: int, dr: Array, dm: Array, nd: int, bs: Array
) -> int:  # pragma: no cover - compiled
    """Put the ``m`` highest ranks other than indexes skip1/skip2 at ``pos``, one card each."""
    j = 0
    while m:
        if j != skip1 and j != skip2:
            key = add_group(key, pos, dr[j], dm[j], 1, bs)
            pos += 1
            m -= 1
        j += 1
    return key


@njit(cache=True)
def groups_key(
    dr: Array,
    dc: Array,
    dm: Array,
    nd: int,
    rank_mask: int,
    shapes: Array,
    straights: Array,
    bs: Array,
) -> int:  # pragma: no cover - compiled
    """The best plain key from rank groups, straights and the five highest ranks.

    ``dr, dc, dm``: the distinct ranks present, highest first, their card counts and
    suit masks; ``nd`` how many.
    """
    i5 = i4 = i3 = p1 = p2 = -1
    for j in range(nd):
        c = dc[j]
        if c >= 5 and i5 < 0:
            i5 = j
        if c >= 4 and i4 < 0:
            i4 = j
        if c >= 3 and i3 < 0:
            i3 = j
        if c >= 2:
            if p1 < 0:
                p1 = j
            elif p2 < 0:
                p2 = j
    best = -1
    if i5 >= 0:
        best = max(best, add_group(shapes[Base.FIVE_OF_A_KIND, 0, 0], 0, dr[i5], dm[i5], 5, bs))
    if i4 >= 0 and nd >= 2:
        key = add_group(shapes[Base.FOUR_OF_A_KIND, 0, 0], 0, dr[i4], dm[i4], 4, bs)
        best = max(best, add_kickers(key, 4, 1, i4, -1, dr, dm, nd, bs))
    if i3 >= 0:
        q = p2 if p1 == i3 else p1
        if q >= 0:
            key = add_group(shapes[Base.FULL_HOUSE, 0, 0], 0, dr[i3], dm[i3], 3, bs)
            best = max(best, add_group(key, 3, dr[q], dm[q], 2, bs))
        if nd >= 3:
            key = add_group(shapes[Base.THREE_OF_A_KIND, 0, 0], 0, dr[i3], dm[i3], 3, bs)
            best = max(best, add_kickers(key, 3, 2, i3, -1, dr, dm, nd, bs))
    if p2 >= 0 and nd >= 3:
        key = add_group(shapes[Base.TWO_PAIR, 0, 0], 0, dr[p1], dm[p1], 2, bs)
        key = add_group(key, 2, dr[p2], dm[p2], 2, bs)
        best = max(best, add_kickers(key, 4, 1, p1, p2, dr, dm, nd, bs))
    if p1 >= 0 and nd >= 4:
        key = add_group(shapes[Base.ONE_PAIR, 0, 0], 0, dr[p1], dm[p1], 2, bs)
        best = max(best, add_kickers(key, 2, 3, p1, -1, dr, dm, nd, bs))
    if nd >= 5:
        best = max(best, add_kickers(shapes[Base.HIGH_CARD, 0, 0], 0, 5, -1, -1, dr, dm, nd, bs))
        for h in range(straights.shape[0] - 1, -1, -1):
            mask = straights[h, 0]
            if rank_mask & mask == mask:
                key = shapes[Base.STRAIGHT, 0, 0] | (h + 1) << TOP_RANK_SHIFT
                for j in range(5):
                    t = straights[h, 1 + j]
                    for jj in range(nd):
                        if dr[jj] == t:
                            key |= bs[high_bit(dm[jj])] << (TOP_SUIT_SHIFT - SUIT_BITS * j)
                best = max(best, key)
                break
    return best


@njit(cache=True)
def flush_key(
    ranks: int, strength: int, shapes: Array, straights: Array
) -> int:  # pragma: no cover - compiled
    """The best straight flush or flush among ``ranks`` (a rank mask of one suit, five
    or more cards) of a suit of the given strength."""
    suits = strength * 0x11111
    for h in range(straights.shape[0] - 1, -1, -1):
        mask = straights[h, 0]
        if ranks & mask == mask:
            return int(shapes[Base.STRAIGHT_FLUSH, 0, 0] | (h + 1) << TOP_RANK_SHIFT | suits)
    key: int = shapes[Base.FLUSH, 0, 0] | suits
    for j in range(5):
        b = high_bit(ranks)
        ranks ^= 1 << b
        key |= (b + 1) << (TOP_RANK_SHIFT - RANK_BITS * j)
    return key


@njit(cache=True, parallel=True)
def best_direct(
    codes: Array,
    n_ranks: int,
    cards: Array,
    shapes: Array,
    straights: Array,
    heights: Array,
    bit_strength: Array,
    suit_strength: Array,
    choices: Array,
    mixwell: bool,
    out: Array,
) -> None:  # pragma: no cover - compiled
    """out[i] = the key of the best five cards of row i."""
    n, k = codes.shape
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    for chunk in prange(n_chunks):
        by_rank = np.zeros(32, np.int64)  # suit mask per rank
        by_suit = np.zeros(16, np.int64)  # rank mask per suit
        dr = np.zeros(32, np.int64)
        dc = np.zeros(32, np.int64)
        dm = np.zeros(32, np.int64)
        for i in range(chunk * _CHUNK, min(n, (chunk + 1) * _CHUNK)):
            rank_mask = int(0)  # noqa: UP018, RUF046 - not a literal 0: groups_key compiled once
            mix_union = 0
            for j in range(k):
                c = codes[i, j]
                r = cards[c, 0]
                by_rank[r] |= 1 << cards[c, 3]
                by_suit[cards[c, 1]] |= 1 << r
                rank_mask |= 1 << r
                mix_union += cards[c, 4]
            nd = int(0)  # noqa: UP018, RUF046
            for r in range(n_ranks - 1, -1, -1):
                if rank_mask >> r & 1:
                    dr[nd] = r
                    dm[nd] = by_rank[r]
                    dc[nd] = popcount(by_rank[r])
                    nd += 1
            best = groups_key(dr, dc, dm, nd, rank_mask, shapes, straights, bit_strength)
            done = 0
            for j in range(k):
                s = cards[codes[i, j], 1]
                if not done >> s & 1:
                    done |= 1 << s
                    if popcount(by_suit[s]) >= 5:
                        fk = flush_key(by_suit[s], suit_strength[s], shapes, straights)
                        best = max(best, fk)
            if mixwell and nibble_sum(nonzero_nibbles(mix_union)) >= 5:
                for j in range(choices.shape[0]):
                    a0 = codes[i, choices[j, 0]]
                    a1 = codes[i, choices[j, 1]]
                    a2 = codes[i, choices[j, 2]]
                    a3 = codes[i, choices[j, 3]]
                    a4 = codes[i, choices[j, 4]]
                    m0, m1, m2, m3, m4 = (
                        cards[a0, 4],
                        cards[a1, 4],
                        cards[a2, 4],
                        cards[a3, 4],
                        cards[a4, 4],
                    )
                    total = m0 + m1 + m2 + m3 + m4
                    if m0 and m1 and m2 and m3 and m4 and total & 0x6666666666666666 == 0:
                        key, _ = key5(a0, a1, a2, a3, a4, cards, shapes, straights, heights)
                        best = max(best, key)
            out[i] = best
            for j in range(k):
                c = codes[i, j]
                by_rank[cards[c, 0]] = 0
                by_suit[cards[c, 1]] = 0
