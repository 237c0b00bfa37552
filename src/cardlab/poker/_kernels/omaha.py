"""Omaha: the best of the 60 choices of two hole cards and three board cards.

The rank part first. Without flushes and Mixwells, a choice's key is fixed by the rank
multisets of its pair and its triple (see :mod:`.hashed`), so the best plain key of a
pair over the ten triples of a board depends only on the pair's two ranks and the
board's five: the look-up of :mod:`.omaha_lookup` holds it for every (board, pair) of
ranks, as the key's place among the distinct keys (uint16: standard52's 6,175 boards x
91 pairs take 1.1 MB). A row then costs one board hash and six reads; the highest
plain key is the highest of the six.

Then what the look-up leaves out, each only where it can change the answer:

- flushes, where the board holds three cards of a suit and the hole two (one test on
  the suit counts the hash digits carry): the suit's hole pairs with its board triples;
- Mixwells, where the suit counts allow a hole pair in two Mixwell suits and a board
  triple in three others: only those choices, each looked up under the Mixwell shapes
  (``mix_keys5``);
- suits, where they break ties: only the choices reaching the highest plain key can
  win (suits rank below every rank field), and only when no flush or Mixwell is above
  it. Their pairs are those the look-up gave the highest; a plain key names its five
  ranks, so their triples are those whose digit sum completes the pair's to the key's
  (found by the two board cards they leave out); each takes its cards' suits
  (:func:`~.hashed.plan_suits`).

The batch (:func:`best_omaha`) runs the look-up over a chunk of rows in a loop calling
nothing, then the other steps for the rows that need them: each call of a compiled
function counts a reference on every array it takes, on and off, which costs more than
reading the look-up. Where the look-up would be too big (user decks of many ranks), each
of the 60 choices is looked up through the five-card hash instead
(:func:`_by_choices`). Both are exact under the same condition as the hashed path.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from cardlab.poker._kernels.bundle import KernelArrays, KernelScalars, OmahaArrays, omaha_arrays
from cardlab.poker._kernels.five import nibble_sum, nonzero_nibbles
from cardlab.poker._kernels.hashed import hash_masks, plan_suits
from cardlab.poker.keys import SUITS_MASK

Array = Any
_CHUNK = 1024
PARTS_ROWS = 16 + 60  # omaha_key's scratch: the pairs and triples, then the keys
_HOLE_PAIRS = np.array([(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)], np.int64)
_LEFT_OUT = np.array([(x, y) for x in range(5) for y in range(x + 1, 5)], np.int64)  # of 5
_BOARD_TRIPLES = np.array(
    [(a, b, c) for a in range(4, 9) for b in range(a + 1, 9) for c in range(b + 1, 9)], np.int64
)


@njit(cache=True, inline="always")
def omaha_key(
    row: Array, parts: Array, arr: KernelArrays, sc: KernelScalars
) -> int:  # pragma: no cover - compiled
    """The key of the best Omaha hand of ``row`` (four hole cards, then five board
    cards); ``parts``: an int64 scratch array of (PARTS_ROWS, 5); ``arr``, ``sc``: the
    look-ups (:mod:`.bundle`) with the hash look-ups of five cards and, where they fit, the
    Omaha look-ups (see the module docstring). Loops call :func:`omaha_key_of` with the
    arrays taken out once (:func:`~.bundle.omaha_arrays`): each function taking ``arr``
    counts a reference on every array in it, on and off, which costs more than the
    whole look-up path."""
    return int(omaha_key_of(row, parts, sc, omaha_arrays(arr)))


def _omaha_key_of_kind(general: bool) -> Any:
    """:func:`omaha_key_of` (``general``), or its copy without the Mixwell step and the
    path without the Omaha look-ups (not ``general``: :data:`omaha_key_plain`), the right
    key wherever Mixwells are off and the look-ups fit (standard52). ``general`` is a
    constant of the closure, so numba drops the other branches before typing them: the
    sampler's Omaha loop of standard52 compiles in about half the time (a first run of
    ``cardlab report``); each copy has an entry of its own in numba's disk cache."""

    @njit(cache=True, inline="always")
    def key_of(
        row: Array, parts: Array, sc: KernelScalars, oa: OmahaArrays
    ) -> int:  # pragma: no cover - compiled
        """:func:`omaha_key` with the arrays taken out of ``arr`` beforehand
        (:func:`~.bundle.omaha_arrays`). The steps of :func:`_omaha_rows`, for one row."""
        per_card = oa.per_card
        lo_index = oa.lo_index
        hi_index = oa.hi_index
        flush_keys = oa.flush_keys
        suit_strength = oa.suit_strength
        hi_index5 = oa.hi_index5
        mix_keys5 = oa.mix_keys5
        omaha_best = oa.omaha_best
        pair_of = oa.omaha_pair_of
        lookup_keys = oa.omaha_keys
        suit_plan = oa.suit_plan
        suit_plan5 = oa.suit_plan5
        top_suits = oa.top_suits
        if general and omaha_best.shape[0] == 0:  # (general: a constant of the closure)
            return _by_choices(row, parts, sc, oa)
        n_lo_bits = sc.n_lo_bits
        suit_shift = sc.suit_shift
        flush_test = sc.flush_test
        suits_count = sc.suits_count
        mixwell = sc.mix_suits * sc.mixwell  # the Mixwell suits' nibbles, 0: none
        lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
        h0 = row[0]
        h1 = row[1]
        h2 = row[2]
        h3 = row[3]
        board = (
            per_card[row[4], 0]
            + per_card[row[5], 0]
            + per_card[row[6], 0]
            + per_card[row[7], 0]
            + per_card[row[8], 0]
        )
        place = hi_index[board >> n_lo_bits & hi_mask] + lo_index[board & lo_mask]
        v0 = omaha_best[place, pair_of[h0, h1]]
        v1 = omaha_best[place, pair_of[h0, h2]]
        v2 = omaha_best[place, pair_of[h0, h3]]
        v3 = omaha_best[place, pair_of[h1, h2]]
        v4 = omaha_best[place, pair_of[h1, h3]]
        v5 = omaha_best[place, pair_of[h2, h3]]
        top_place = max(max(max(v0, v1), max(v2, v3)), max(v4, v5))
        top = lookup_keys[top_place, 0]
        best = top
        ones = flush_test // 3
        hole = per_card[h0, 0] + per_card[h1, 0] + per_card[h2, 0] + per_card[h3, 0]
        flush = ((board >> suit_shift) + 5 * ones) & ((hole >> suit_shift) + 6 * ones) & (ones << 3)
        if flush:
            best = max(best, _best_flush(row, flush, parts, per_card, flush_keys, suit_strength))
        if general and _mixwell_possible(hole >> suit_shift, board >> suit_shift, mixwell):
            best = _raise_mixwell(
                row,
                best,
                parts,
                sc,
                per_card,
                lo_index,
                hi_index5,
                mix_keys5,
                suit_plan5,
                top_suits,
            )
        if suits_count and best <= top | SUITS_MASK:
            hits = (v0 == top_place) | (v1 == top_place) << 1 | (v2 == top_place) << 2
            hits |= (v3 == top_place) << 3 | (v4 == top_place) << 4 | (v5 == top_place) << 5
            best = _top_suits(
                row,
                parts,
                best,
                top,
                lookup_keys[top_place, 1],
                suit_plan[lookup_keys[top_place, 2]],
                hits,
                (1 << suit_shift) - 1,
                per_card,
                top_suits,
            )
        return int(best)

    return key_of


omaha_key_of = _omaha_key_of_kind(True)
omaha_key_plain = _omaha_key_of_kind(False)  # no Mixwell possible, the look-ups there


@njit(cache=True, inline="always")
def _top_suits(
    row: Array,
    parts: Array,
    best: int,
    top: int,
    top_sum: int,
    plan: int,
    hits: int,
    digit_mask: int,
    per_card: Array,
    top_suits: Array,
) -> int:  # pragma: no cover - compiled
    """``best`` raised to the plain key ``top`` with the suits of each choice that
    reaches it (``plan``: its suit plan, see :func:`~.hashed.plan_suits`): the pairs
    marked in ``hits`` (their look-up entry is the highest) with each board triple that
    completes their ranks to ``top``'s (digit sum ``top_sum``),
    found by the two board cards it leaves out (``parts[j, 0:3]``: board card j's digits
    and rank-by-suit boards; a deck holds each card once, so a card's bits leave the
    boards by xor)."""
    board = 0
    w0 = 0
    w1 = 0
    for j in range(5):
        c = row[4 + j]
        parts[j, 0] = per_card[c, 0] & digit_mask
        parts[j, 1] = per_card[c, 1]
        parts[j, 2] = per_card[c, 2]
        board += parts[j, 0]
        w0 |= parts[j, 1]
        w1 |= parts[j, 2]
    for p in range(6):
        if not hits >> p & 1:
            continue
        ca = row[_HOLE_PAIRS[p, 0]]
        cb = row[_HOLE_PAIRS[p, 1]]
        left_out = board - top_sum + ((per_card[ca, 0] + per_card[cb, 0]) & digit_mask)
        p0 = w0 | per_card[ca, 1] | per_card[cb, 1]
        p1 = w1 | per_card[ca, 2] | per_card[cb, 2]
        found = 0  # a bit per pair of board cards left out: without a branch each
        for k in range(10):
            x = _LEFT_OUT[k, 0]
            y = _LEFT_OUT[k, 1]
            found |= (parts[x, 0] + parts[y, 0] == left_out) << k
        while found:
            k = _count_bits((found & -found) - 1)
            found &= found - 1
            x = _LEFT_OUT[k, 0]
            y = _LEFT_OUT[k, 1]
            v0 = p0 ^ parts[x, 1] ^ parts[y, 1]
            v1 = p1 ^ parts[x, 2] ^ parts[y, 2]
            best = max(best, top | plan_suits(plan, v0, v1, top_suits))
    return best


@njit(cache=True, inline="always")
def _count_bits(x: int) -> int:  # pragma: no cover - compiled
    """The number of bits set in ``x`` (below 2**10: a suit mask, a card's place, one of
    the ten pairs left out)."""
    x = x - (x >> 1 & 0x155)
    x = (x & 0x333) + (x >> 2 & 0x33)
    return (x & 0xF) + (x >> 4 & 0xF) + (x >> 8)


@njit(cache=True, inline="always")
def _mixwell_possible(hole: int, board: int, mix_suits: int) -> bool:  # pragma: no cover
    """Whether some hole pair and board triple hold five different Mixwell suits, from
    the suit counts of the hole and of the board (a nibble per suit) and the Mixwell
    suits (``mix_suits``: 1 in each one's nibble): two different suits in the hole,
    and three others on the board once the pair takes as few of the board's suits as
    it can."""
    in_hole = nonzero_nibbles(hole) & mix_suits
    on_board = nonzero_nibbles(board) & mix_suits
    taken = max(0, 2 - nibble_sum(in_hole & ~on_board))
    return nibble_sum(in_hole) >= 2 and nibble_sum(on_board) - taken >= 3


@njit(cache=True, inline="always")
def _best_flush(
    row: Array, flush: int, parts: Array, per_card: Array, flush_keys: Array, suit_strength: Array
) -> int:  # pragma: no cover - compiled
    """The best flush of ``row``: for each suit marked in ``flush`` (bit 3 of its
    nibble), every pair of its hole cards with every triple of its board cards."""
    best = -1
    for s in range(suit_strength.shape[0]):
        if not flush >> (4 * s + 3) & 1:
            continue
        n_hole = 0
        for j in range(4):
            if per_card[row[j], 4] == s:
                parts[n_hole, 0] = per_card[row[j], 5]
                n_hole += 1
        n_board = 0
        for j in range(4, 9):
            if per_card[row[j], 4] == s:
                parts[n_board, 1] = per_card[row[j], 5]
                n_board += 1
        strength = suit_strength[s] * 0x11111
        for a in range(n_hole - 1):
            for b in range(a + 1, n_hole):
                pair = parts[a, 0] | parts[b, 0]
                for x in range(n_board - 2):
                    for y in range(x + 1, n_board - 1):
                        for z in range(y + 1, n_board):
                            ranks = pair | parts[x, 1] | parts[y, 1] | parts[z, 1]
                            best = max(best, flush_keys[ranks] | strength)
    return best


@njit(cache=True, inline="always")
def _raise_mixwell(
    row: Array,
    best: int,
    parts: Array,
    sc: KernelScalars,
    per_card: Array,
    lo_index: Array,
    hi_index5: Array,
    mix_keys5: Array,
    suit_plan5: Array,
    top_suits: Array,
) -> int:  # pragma: no cover - compiled
    """``best`` raised to the best Mixwell choice of ``row``: each hole pair in two
    different Mixwell suits with each board triple of one card in each of three other
    Mixwell suits (``parts[s, 4]``: the board cards of suit s, a bit per place)."""
    n_lo_bits = sc.n_lo_bits
    suits_count = sc.suits_count
    lo_mask, hi_mask = hash_masks(n_lo_bits, sc.suit_shift)
    on_board = 0
    for s in range(8):
        parts[s, 4] = 0
    for j in range(4, 9):
        c = row[j]
        if per_card[c, 3]:
            s = per_card[c, 4]
            parts[s, 4] |= 1 << j
            on_board |= 1 << s
    for p in range(6):
        ca = row[_HOLE_PAIRS[p, 0]]
        cb = row[_HOLE_PAIRS[p, 1]]
        if not per_card[ca, 3] or not per_card[cb, 3] or per_card[ca, 4] == per_card[cb, 4]:
            continue
        rest = on_board & ~(1 << per_card[ca, 4] | 1 << per_card[cb, 4])
        if _count_bits(rest) < 3:
            continue
        pair = per_card[ca, 0] + per_card[cb, 0]
        pw0 = per_card[ca, 1] | per_card[cb, 1]
        pw1 = per_card[ca, 2] | per_card[cb, 2]
        # three suits of the rest (lowest bits first), one board card of each
        r1 = rest
        while r1:
            b1 = r1 & -r1
            r1 ^= b1
            r2 = r1
            while r2:
                b2 = r2 & -r2
                r2 ^= b2
                r3 = r2
                while r3:
                    b3 = r3 & -r3
                    r3 ^= b3
                    x1 = parts[_count_bits(b1 - 1), 4]
                    while x1:
                        y1 = x1 & -x1
                        x1 ^= y1
                        cc = row[_count_bits(y1 - 1)]
                        x2 = parts[_count_bits(b2 - 1), 4]
                        while x2:
                            y2 = x2 & -x2
                            x2 ^= y2
                            cd = row[_count_bits(y2 - 1)]
                            x3 = parts[_count_bits(b3 - 1), 4]
                            while x3:
                                y3 = x3 & -x3
                                x3 ^= y3
                                ce = row[_count_bits(y3 - 1)]
                                total = pair + per_card[cc, 0] + per_card[cd, 0] + per_card[ce, 0]
                                place = (
                                    hi_index5[total >> n_lo_bits & hi_mask]
                                    + lo_index[total & lo_mask]
                                )
                                mk = mix_keys5[place]
                                if suits_count and mk | SUITS_MASK >= best:  # else it loses
                                    w0 = pw0 | per_card[cc, 1] | per_card[cd, 1] | per_card[ce, 1]
                                    w1 = pw1 | per_card[cc, 2] | per_card[cd, 2] | per_card[ce, 2]
                                    mk |= plan_suits(suit_plan5[place], w0, w1, top_suits)
                                best = max(best, mk)
    return best


@njit(cache=True, inline="always")
def _by_choices(
    row: Array, parts: Array, sc: KernelScalars, oa: OmahaArrays
) -> int:  # pragma: no cover - compiled
    """The key without the Omaha look-ups: three passes over the 60 choices, every
    choice's plain key without suits (a tight loop of lookups), then the suits only for
    the choices that reach the highest plain key (suits rank below every rank field, so
    no other choice can win), then flushes and Mixwells where the suit counts allow
    them."""
    per_card = oa.per_card
    lo_index = oa.lo_index
    hi_index = oa.hi_index
    rank_keys = oa.rank_keys
    flush_keys = oa.flush_keys
    suit_strength = oa.suit_strength
    hi_index5 = oa.hi_index5
    mix_keys5 = oa.mix_keys5
    suit_plan = oa.suit_plan
    suit_plan5 = oa.suit_plan5
    top_suits = oa.top_suits
    n_lo_bits = sc.n_lo_bits
    suit_shift = sc.suit_shift
    flush_test = sc.flush_test
    suits_count = sc.suits_count
    mixwell = sc.mix_suits * sc.mixwell
    lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
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
    if mixwell != 0 and not any_rare:
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
                total = parts[p, 0] + parts[q, 0]
                place = hi_index[total >> n_lo_bits & hi_mask] + lo_index[total & lo_mask]
                w0 = parts[p, 1] | parts[q, 1]
                w1 = parts[p, 2] | parts[q, 2]
                best = max(best, top | plan_suits(suit_plan[place], w0, w1, top_suits))
    if not any_rare:
        return int(best)
    # 3. flushes and Mixwells, where the suit counts allow them
    for j in range(60):
        p = j // 10
        q = 6 + j % 10
        total = parts[p, 0] + parts[q, 0]
        flag = 1 if ((total >> suit_shift) + flush_test) & flush_bits else 0
        if mixwell != 0:
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
            place = hi_index5[total >> n_lo_bits & hi_mask] + lo_index[total & lo_mask]
            mk = mix_keys5[place]
            if suits_count and mk | SUITS_MASK >= best:  # else it loses
                w0 = parts[p, 1] | parts[q, 1]
                w1 = parts[p, 2] | parts[q, 2]
                mk |= plan_suits(suit_plan5[place], w0, w1, top_suits)
            best = max(best, mk)
    return int(best)


@njit(cache=True, parallel=True)
def best_omaha(
    codes: Array, arr: KernelArrays, sc: KernelScalars, out: Array
) -> None:  # pragma: no cover - compiled
    """out[i] = the key of row i's best Omaha hand (columns 0-3 hole, 4-8 board); ``arr``
    holds the hash look-ups of five cards."""
    n = codes.shape[0]
    n_chunks = (n + _CHUNK - 1) // _CHUNK
    for chunk in prange(n_chunks):
        _omaha_rows(codes, chunk * _CHUNK, min(n, (chunk + 1) * _CHUNK), arr, sc, out)


@njit(cache=True)
def _omaha_rows(
    codes: Array, start: int, stop: int, arr: KernelArrays, sc: KernelScalars, out: Array
) -> None:  # pragma: no cover - compiled
    """out[i] for rows start .. stop - 1 (one thread's share, see :func:`best_omaha`).

    With the Omaha look-ups, two passes: every row's highest plain key and what else it
    needs (a tight loop calling nothing: each call counts a reference on each array it
    takes, on and off), then the flushes, Mixwells and suits of the rows that need
    them, as in :func:`omaha_key_of`."""
    parts = np.zeros((PARTS_ROWS, 5), np.int64)  # 6 hole pairs, 10 board triples, 60 keys
    oa = omaha_arrays(arr)
    per_card = oa.per_card
    lo_index = oa.lo_index
    hi_index = oa.hi_index
    flush_keys = oa.flush_keys
    suit_strength = oa.suit_strength
    hi_index5 = oa.hi_index5
    mix_keys5 = oa.mix_keys5
    omaha_best = oa.omaha_best
    pair_of = oa.omaha_pair_of
    lookup_keys = oa.omaha_keys
    suit_plan = oa.suit_plan
    suit_plan5 = oa.suit_plan5
    top_suits = oa.top_suits
    if omaha_best.shape[0] == 0:
        for i in range(start, stop):
            out[i] = _by_choices(codes[i], parts, sc, oa)
        return
    n_lo_bits = sc.n_lo_bits
    suit_shift = sc.suit_shift
    flush_test = sc.flush_test
    suits_count = sc.suits_count
    mixwell = sc.mix_suits * sc.mixwell
    lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
    ones = flush_test // 3
    digit_mask = (1 << suit_shift) - 1
    # per row: the top's place, the pairs reaching it, the flush suits, Mixwell possible
    need = np.zeros((stop - start, 4), np.int64)
    for i in range(start, stop):
        h0 = codes[i, 0]
        h1 = codes[i, 1]
        h2 = codes[i, 2]
        h3 = codes[i, 3]
        board = (
            per_card[codes[i, 4], 0]
            + per_card[codes[i, 5], 0]
            + per_card[codes[i, 6], 0]
            + per_card[codes[i, 7], 0]
            + per_card[codes[i, 8], 0]
        )
        place = hi_index[board >> n_lo_bits & hi_mask] + lo_index[board & lo_mask]
        v0 = omaha_best[place, pair_of[h0, h1]]
        v1 = omaha_best[place, pair_of[h0, h2]]
        v2 = omaha_best[place, pair_of[h0, h3]]
        v3 = omaha_best[place, pair_of[h1, h2]]
        v4 = omaha_best[place, pair_of[h1, h3]]
        v5 = omaha_best[place, pair_of[h2, h3]]
        top_place = max(max(max(v0, v1), max(v2, v3)), max(v4, v5))
        out[i] = lookup_keys[top_place, 0]
        hole = per_card[h0, 0] + per_card[h1, 0] + per_card[h2, 0] + per_card[h3, 0]
        j = i - start
        need[j, 0] = top_place
        need[j, 1] = (v0 == top_place) | (v1 == top_place) << 1 | (v2 == top_place) << 2
        need[j, 1] |= (v3 == top_place) << 3 | (v4 == top_place) << 4 | (v5 == top_place) << 5
        need[j, 2] = (
            ((board >> suit_shift) + 5 * ones) & ((hole >> suit_shift) + 6 * ones) & (ones << 3)
        )
        need[j, 3] = _mixwell_possible(hole >> suit_shift, board >> suit_shift, mixwell)
    for i in range(start, stop):
        j = i - start
        if not (need[j, 2] or need[j, 3] or suits_count):
            continue
        row = codes[i]
        top = out[i]
        best = top
        if need[j, 2]:
            best = max(
                best, _best_flush(row, need[j, 2], parts, per_card, flush_keys, suit_strength)
            )
        if need[j, 3]:
            best = _raise_mixwell(
                row,
                best,
                parts,
                sc,
                per_card,
                lo_index,
                hi_index5,
                mix_keys5,
                suit_plan5,
                top_suits,
            )
        if suits_count and best <= top | SUITS_MASK:
            best = _top_suits(
                row,
                parts,
                best,
                top,
                lookup_keys[need[j, 0], 1],
                suit_plan[lookup_keys[need[j, 0], 2]],
                need[j, 1],
                digit_mask,
                per_card,
                top_suits,
            )
        out[i] = best
