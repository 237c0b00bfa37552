"""Exact showdowns of fixed hands by rank classes (private): most boards counted, not dealt.

On the hash path (:mod:`.hashed`) a player's key is the key of the rank multiset of
their cards, with the suits of its cards added where suits break ties, unless their
suit counts allow a flush or a Mixwell (:func:`~.hashed.hand_key`). So the boards that
complete a deal fall into three parts, tallied separately and added up:

A. Every rank multiset ``R`` of the dealt cards, counted once with its weight
   ``N(R) = prod_r C(a_r, c_r)`` (``a_r`` cards of rank ``r`` left, ``c_r`` dealt) as if
   no board allowed a flush or a Mixwell: each player's key is the rank key, and the
   winners are decided by it. Where suits break ties and the best rank key is held by
   two players or more, the suits decide: then (part A') every board of ``R`` is dealt
   and scored with its suits, except the *special* ones of part B.
B. Every suit-count vector of the dealt cards under which some player's suit counts
   allow a flush or a Mixwell (the very test :func:`~.hashed.hand_key` makes): each of
   its boards is dealt and scored, and the tally part A counted for it (its rank
   multiset's outcome, unless part A' dealt that multiset) is taken back
   (:mod:`.special_boards`: with seven cards a player, plain keys from the Mixwell
   choices the vector's suits fix, in full only where the suits decide).

Part B deals only the boards where suits can change a key; part A scores a few thousand
multisets instead of millions of boards. Every board is counted exactly once in the
sum, which :func:`cardlab.poker.equity.reference_equity` checks in the tests.

FESCA78 heads-up preflop (16,108,764 boards, four Mixwell suits held): part A counts
6,188 multisets, A' deals 74,610 boards, B 5,287,422 (5,158,920 for a Mixwell, 128,502
for a flush); of B's boards 4.2 M are settled without a Mixwell look-up and 31,802 need
the suits.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from cardlab.poker._kernels.bundle import KeyTables
from cardlab.poker._kernels.direct import flush_key, popcount
from cardlab.poker._kernels.five import nibble_sum, nonzero_nibbles
from cardlab.poker._kernels.hashed import add_suits, hash_masks
from cardlab.poker._kernels.showdowns import _SHARES, SHARE_UNIT, showdown_tables
from cardlab.poker._kernels.special_boards import (
    plain_boards,
    score_board,
    set_slots,
    settle_counts,
    slots_first,
    slots_next,
    top_shared,
)

if TYPE_CHECKING:
    from cardlab.poker.games import Game

Array = Any

_BINOM = np.array([[math.comb(n, k) for k in range(8)] for n in range(64)], np.int64)


@njit(cache=True, inline="always")
def _tally(keys: Array, weight: int, out: Array) -> bool:  # pragma: no cover - compiled
    """Add ``weight`` showdowns with these keys to ``out`` (wins, ties, shares, shares
    squared; ``weight`` may be negative). True when two players or more share the top."""
    n = keys.shape[0]
    top = keys[0]
    first = 0
    winners = 1
    for p in range(1, n):
        key = keys[p]
        if key > top:
            top = key
            first = p
            winners = 1
        elif key == top:
            winners += 1
    if winners == 1:
        out[0, first] += weight
        out[2, first] += weight * SHARE_UNIT
        out[3, first] += weight * SHARE_UNIT * SHARE_UNIT
        return False
    share = _SHARES[winners]
    for p in range(first, n):
        if keys[p] == top:
            out[1, p] += weight
            out[2, p] += weight * share
            out[3, p] += weight * share * share
    return True


@njit(cache=True, inline="always")
def _special(
    suits: int, flush_test: int, mixwell: bool, mix_suits: int
) -> bool:  # pragma: no cover
    """Whether suit counts ``suits`` (a nibble per suit) allow a flush or a Mixwell: the
    test of :func:`~.hashed.hand_key` for leaving the rank key."""
    if (suits + flush_test) & ((flush_test // 3) << 3):
        return True
    return mixwell and nibble_sum(nonzero_nibbles(suits) & mix_suits) >= 5


@njit(cache=True)
def _fill_flush_keys(shapes: Array, straights: Array, out: Array) -> None:  # pragma: no cover
    for mask in range(out.shape[0]):
        if popcount(mask) >= 5:
            out[mask] = flush_key(mask, 0, shapes, straights)


@lru_cache(maxsize=64)
def flush_table(game: Game) -> Array:
    """The best flush or straight flush of each rank mask of five or more ranks, suits 0
    (a suit's strength ``* 0x11111`` completes it), for the game's showdown tables
    (:func:`~.showdowns.showdown_tables`): one lookup instead of
    :func:`~.direct.flush_key`'s search."""
    t = showdown_tables(game)[1]
    n_ranks = int(t.cards[:, 0].max()) + 1
    out = np.zeros(1 << n_ranks, np.int64)
    _fill_flush_keys(t.shapes, t.straights, out)
    return out


@njit(cache=True)
def exact_by_rank(
    holes: Array, board: Array, rest: Array, deal: int, t: KeyTables, flush_keys: Array
) -> Array:  # pragma: no cover - compiled
    """Tallies of every board completing ``board`` with ``deal`` cards of ``rest``, for
    the players' ``holes`` (players x hole cards): 4 x players (sole wins, shared wins,
    pot shares in SHARE_UNIT, shares squared), as :func:`.showdowns.exact_units`.
    ``t``: hash tables of hole + board cards; ``flush_keys``: :func:`flush_table`."""
    per_card = t.per_card
    cards = t.cards
    rank_keys = t.rank_keys
    hi_index = t.hi_index
    lo_index = t.lo_index
    n_lo_bits = t.n_lo_bits
    suit_shift = t.suit_shift
    flush_test = t.flush_test
    mixwell = t.mixwell
    mix_suits = t.mix_suits
    suits_count = t.suits_count
    lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
    rank_mask = (1 << suit_shift) - 1
    players, h = holes.shape
    nb = board.shape[0]
    width = h + nb + deal
    n = rest.shape[0]
    n_ranks = 0
    n_suits = 0
    for c in range(cards.shape[0]):
        n_ranks = max(n_ranks, cards[c, 0] + 1)
        n_suits = max(n_suits, cards[c, 1] + 1)
    out = np.zeros((4, players), np.int64)
    rows = np.empty((players, width), np.int64)
    fixed = np.zeros((players, 3), np.int64)  # hash digits, suit boards of hole + board
    for p in range(players):
        for j in range(h):
            rows[p, j] = holes[p, j]
        for j in range(nb):
            rows[p, h + j] = board[j]
        for j in range(h + nb):
            c = rows[p, j]
            fixed[p, 0] += per_card[c, 0]
            fixed[p, 1] |= per_card[c, 1]
            fixed[p, 2] |= per_card[c, 2]
    # the cards left, by rank and by suit (in the order of rest)
    by_rank = np.empty(n, np.int64)
    rank_start = np.zeros(n_ranks + 1, np.int64)
    by_suit = np.empty(n, np.int64)
    suit_start = np.zeros(n_suits + 1, np.int64)
    for i in range(n):
        rank_start[cards[rest[i], 0] + 1] += 1
        suit_start[cards[rest[i], 1] + 1] += 1
    for r in range(n_ranks):
        rank_start[r + 1] += rank_start[r]
    for s in range(n_suits):
        suit_start[s + 1] += suit_start[s]
    fill_r = rank_start[:n_ranks].copy()
    fill_s = suit_start[:n_suits].copy()
    for i in range(n):
        c = rest[i]
        by_rank[fill_r[cards[c, 0]]] = c
        fill_r[cards[c, 0]] += 1
        by_suit[fill_s[cards[c, 1]]] = c
        fill_s[cards[c, 1]] += 1
    rank_digit = np.zeros(n_ranks, np.int64)
    for c in range(cards.shape[0]):
        rank_digit[cards[c, 0]] = per_card[c, 0] & rank_mask
    keys = np.empty(players, np.int64)
    mix_of = np.zeros(16, np.int64)
    mix_fast = width == 7 and nibble_sum(mix_suits) == 5 and t.mix_hash
    # part B's fast loop (special_boards.plain_boards): seven cards, Mixwell choices by pairs
    seven = width == 7 and (mix_fast or not mixwell)
    hi_index5 = t.hi_index5
    mix_keys5 = t.mix_keys5
    flush_bits = (flush_test // 3) << 3
    straight_primary = t.straight_primary
    straights = t.straights
    nth_strength = t.nth_strength
    suit_strength = t.suit_strength
    mix_arrays = (
        per_card,
        t.hi_index5,
        t.mix_keys5,
        lo_index,
        straight_primary,
        straights,
        nth_strength,
        cards,
        t.shapes,
        t.heights,
        t.choices,
        t.drops,
    )
    d = max(deal, 1)
    idx = np.zeros(d, np.int64)
    group = np.zeros(d, np.int64)
    last = np.zeros(d, np.int64)
    run = np.zeros((d + 1, 3), np.int64)
    counts = np.zeros(max(n_ranks, n_suits), np.int64)
    sizes = np.zeros(max(n_ranks, n_suits), np.int64)
    starts = np.zeros(max(n_ranks, n_suits), np.int64)

    # --- part A: rank multisets (nondecreasing rank sequences v) --------------------
    v = np.zeros(d, np.int64)
    # five cards dealt to two players: each rank key kept by the dealt rank multiset's
    # place in the five-card hash, for part B to read instead of hashing seven cards
    by_board = seven and deal == 5 and players == 2
    board_keys = np.zeros((mix_keys5.shape[0] if by_board else 0, 2), np.int64)
    board_meta = np.zeros(board_keys.shape[0], np.uint8)
    mix_min = mix_keys5.min() if mix_fast else 0  # below every Mixwell key
    while True:
        # the multiset's weight, and the groups (distinct ranks) of part A'
        weight = 1
        n_groups = 0
        digits = 0
        j = 0
        while j < deal:
            r = v[j]
            c_r = 1
            while j + c_r < deal and v[j + c_r] == r:
                c_r += 1
            a_r = rank_start[r + 1] - rank_start[r]
            weight *= _BINOM[a_r, c_r] if c_r < 8 else 0
            counts[n_groups] = c_r
            sizes[n_groups] = a_r
            starts[n_groups] = rank_start[r]
            n_groups += 1
            digits += rank_digit[r] * c_r
            j += c_r
        if weight > 0:
            for p in range(players):
                tot = (fixed[p, 0] & rank_mask) + digits
                keys[p] = rank_keys[hi_index[tot >> n_lo_bits & hi_mask] + lo_index[tot & lo_mask]]
            if by_board:
                place = hi_index5[digits >> n_lo_bits & hi_mask] + lo_index[digits & lo_mask]
                board_keys[place, 0] = keys[0]
                board_keys[place, 1] = keys[1]
                board_meta[place] = (
                    int(keys[0] >= keys[1])
                    | int(keys[1] >= keys[0]) << 1
                    | int(keys[0] < mix_min) << 2
                    | int(keys[1] < mix_min) << 3
                )
            if not suits_count or not top_shared(keys):
                _tally(keys, weight, out)
            else:  # part A': the suits decide; deal the boards of this multiset
                slots = set_slots(counts, sizes, n_groups, group, last)
                slots_first(group, slots, idx)
                changed = 0
                while changed >= 0:
                    for j in range(changed, slots):
                        c = by_rank[starts[group[j]] + idx[j]]
                        run[j + 1, 0] = run[j, 0] + per_card[c, 0]
                        run[j + 1, 1] = run[j, 1] | per_card[c, 1]
                        run[j + 1, 2] = run[j, 2] | per_card[c, 2]
                    special = False
                    for p in range(players):
                        total = fixed[p, 0] + run[slots, 0]
                        if _special(total >> suit_shift, flush_test, mixwell, mix_suits):
                            special = True
                            break
                        tot = total & rank_mask
                        key = rank_keys[
                            hi_index[tot >> n_lo_bits & hi_mask] + lo_index[tot & lo_mask]
                        ]
                        keys[p] = add_suits(
                            key,
                            fixed[p, 1] | run[slots, 1],
                            fixed[p, 2] | run[slots, 2],
                            straight_primary,
                            straights,
                            nth_strength,
                        )
                    if not special:
                        _tally(keys, 1, out)
                    changed = slots_next(group, last, slots, idx)
        if deal == 0:
            break
        # next nondecreasing sequence
        j = deal - 1
        while j >= 0 and v[j] == n_ranks - 1:
            j -= 1
        if j < 0:
            break
        v[j] += 1
        for i in range(j + 1, deal):
            v[i] = v[j]

    # --- part B: suit-count vectors that allow a flush or a Mixwell -------------------
    if deal == 0:
        return out
    u = np.zeros(n_suits, np.int64)  # an odometer over the suit counts
    rank_keys_b = np.empty(players, np.int64)
    dealt_mask = np.zeros(n_suits, np.int64)  # rank mask of the dealt cards of each suit
    fixed_mask = np.zeros((players, n_suits), np.int64)  # and of the fixed cards
    for p in range(players):
        for j in range(h + nb):
            c = rows[p, j]
            fixed_mask[p, cards[c, 1]] |= 1 << cards[c, 0]
    hnb = h + nb
    score_ints = (suit_shift, mix_suits, n_lo_bits, suits_count, t.mix_hash, flush_test, mixwell)
    score_arrays = (
        per_card,
        cards,
        rank_keys,
        hi_index,
        lo_index,
        hi_index5,
        mix_keys5,
        straight_primary,
        straights,
        nth_strength,
        suit_strength,
        flush_keys,
    )
    # the plain pass of a vector without flushes (see plain_boards): each player's
    # Mixwell choices leave out two places of the row, fixed by the vector's suits
    mix_pairs = np.zeros((players, 21, 2), np.int64)
    n_pairs = np.zeros(players, np.int64)
    mix_place = np.zeros(width, np.int64)
    place_digit = np.zeros((players, width), np.int64)
    settled = np.zeros((4, 4), np.int64)
    flush_suit = np.zeros(players, np.int64)
    for p in range(players):
        for j in range(hnb):
            place_digit[p, j] = per_card[rows[p, j], 0]
    while True:
        size = 0
        suits_dealt = 0
        for s in range(n_suits):
            size += u[s]
            suits_dealt += u[s] << (4 * s)
        special = False
        if size == deal:
            for p in range(players):
                if _special(
                    (fixed[p, 0] >> suit_shift) + suits_dealt, flush_test, mixwell, mix_suits
                ):
                    special = True
                    break
        if special:
            for s in range(n_suits):
                counts[s] = u[s]
                sizes[s] = suit_start[s + 1] - suit_start[s]
                starts[s] = suit_start[s]
            slots = set_slots(counts, sizes, n_suits, group, last)
            slots_first(group, slots, idx)
            if not seven:  # every board scored in full
                may_flush = False  # some player's suit counts allow a flush
                for p in range(players):
                    suits = (fixed[p, 0] >> suit_shift) + suits_dealt
                    may_flush = may_flush or (suits + flush_test) & flush_bits != 0
                changed = 0
                while changed >= 0:
                    for j in range(changed, slots):
                        c = by_suit[starts[group[j]] + idx[j]]
                        for p in range(players):
                            rows[p, hnb + j] = c
                        run[j + 1, 0] = run[j, 0] + per_card[c, 0]
                        run[j + 1, 1] = run[j, 1] | per_card[c, 1]
                        run[j + 1, 2] = run[j, 2] | per_card[c, 2]
                    score_board(
                        rows,
                        hnb,
                        slots,
                        fixed,
                        run[slots],
                        may_flush,
                        False,
                        fixed_mask,
                        dealt_mask,
                        keys,
                        rank_keys_b,
                        mix_of,
                        out,
                        score_ints,
                        score_arrays,
                        mix_arrays,
                    )
                    changed = slots_next(group, last, slots, idx)
            else:  # seven cards: each player's flush suit (at most one) and Mixwell pairs
                for p in range(players):
                    n_pairs[p] = 0
                    flush_suit[p] = -1
                    suits = (fixed[p, 0] >> suit_shift) + suits_dealt
                    for s in range(n_suits):
                        if (suits >> (4 * s) & 15) >= 5:
                            flush_suit[p] = s
                    if not mixwell or nibble_sum(nonzero_nibbles(suits) & mix_suits) < 5:
                        continue
                    mix_total = 0
                    for j in range(width):
                        s = cards[rows[p, j], 1] if j < hnb else group[j - hnb]
                        mix_place[j] = (mix_suits >> (4 * s) & 1) << (4 * s)
                        mix_total += mix_place[j]
                    for a in range(width - 1):
                        for b in range(a + 1, width):
                            if mix_total - mix_place[a] - mix_place[b] == mix_suits:
                                mix_pairs[p, n_pairs[p], 0] = a
                                mix_pairs[p, n_pairs[p], 1] = b
                                n_pairs[p] += 1
                plain_boards(
                    rows,
                    hnb,
                    slots,
                    group,
                    last,
                    idx,
                    starts,
                    by_suit,
                    run,
                    fixed,
                    place_digit,
                    mix_pairs,
                    n_pairs,
                    flush_suit,
                    mix_min,
                    board_keys,
                    board_meta,
                    fixed_mask,
                    dealt_mask,
                    keys,
                    rank_keys_b,
                    mix_of,
                    out,
                    settled,
                    score_ints,
                    score_arrays,
                    mix_arrays,
                )
        # next vector: each count 0 .. min(deal, cards of the suit)
        s = 0
        while s < n_suits:
            top = min(deal, suit_start[s + 1] - suit_start[s])
            if u[s] < top:
                u[s] += 1
                break
            u[s] = 0
            s += 1
        if s == n_suits:
            break
    settle_counts(settled, suits_count, out)
    return out
