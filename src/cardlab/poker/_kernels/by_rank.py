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
   its boards is dealt and scored in full, and the tally part A counted for it (its rank
   multiset's outcome, unless part A' dealt that multiset) is taken back.

Part B deals only the boards where suits can change a key; part A scores a few thousand
multisets instead of millions of boards. Every board is counted exactly once in the
sum, which :func:`cardlab.poker.equity.reference_equity` checks in the tests.
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
from cardlab.poker._kernels.hashed import add_suits, mixwell_key
from cardlab.poker._kernels.showdowns import _SHARES, SHARE_UNIT, showdown_tables
from cardlab.poker.keys import SUITS_MASK

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
def _top_mask(keys: Array) -> int:  # pragma: no cover - compiled
    """The players holding the highest key, as bits."""
    top = keys[0]
    mask = 1
    for p in range(1, keys.shape[0]):
        if keys[p] > top:
            top = keys[p]
            mask = 1 << p
        elif keys[p] == top:
            mask |= 1 << p
    return mask


@njit(cache=True, inline="always")
def _tally_mask(winners: int, weight: int, out: Array) -> None:  # pragma: no cover - compiled
    """:func:`_tally` of a showdown won by the players of the bit mask ``winners``."""
    n = popcount(winners)
    share = _SHARES[n]
    for p in range(out.shape[1]):
        if winners >> p & 1:
            out[0 if n == 1 else 1, p] += weight
            out[2, p] += weight * share
            out[3, p] += weight * share * share


@njit(cache=True, inline="always")
def _top_shared(keys: Array) -> bool:  # pragma: no cover - compiled
    """Whether two players or more hold the highest key."""
    top = keys[0]
    winners = 1
    for p in range(1, keys.shape[0]):
        if keys[p] > top:
            top = keys[p]
            winners = 1
        elif keys[p] == top:
            winners += 1
    return winners > 1


@njit(cache=True, inline="always")
def _special(
    suits: int, flush_test: int, mixwell: bool, mix_suits: int
) -> bool:  # pragma: no cover
    """Whether suit counts ``suits`` (a nibble per suit) allow a flush or a Mixwell: the
    test of :func:`~.hashed.hand_key` for leaving the rank key."""
    if (suits + flush_test) & ((flush_test // 3) << 3):
        return True
    return mixwell and nibble_sum(nonzero_nibbles(suits) & mix_suits) >= 5


@njit(cache=True, inline="always")
def _slots_first(group: Array, n: int, idx: Array) -> None:  # pragma: no cover - compiled
    """The first choice: in each group, its first cards."""
    for j in range(n):
        idx[j] = idx[j - 1] + 1 if j > 0 and group[j] == group[j - 1] else 0


@njit(cache=True, inline="always")
def _slots_next(group: Array, last: Array, n: int, idx: Array) -> int:  # pragma: no cover
    """The next choice of cards: slot ``j`` takes place ``idx[j]`` of its group's cards,
    increasing within a group, at most ``last[j]``. Returns the first slot changed, or
    -1 after the last choice."""
    j = n - 1
    while j >= 0:
        if idx[j] < last[j]:
            idx[j] += 1
            for i in range(j + 1, n):
                idx[i] = idx[i - 1] + 1 if group[i] == group[i - 1] else 0
            return j
        j -= 1
    return -1


@njit(cache=True, inline="always")
def _set_slots(
    counts: Array, sizes: Array, n_groups: int, group: Array, last: Array
) -> int:  # pragma: no cover - compiled
    """Slots for choosing ``counts[g]`` of the ``sizes[g]`` cards of each group ``g``;
    returns the number of slots."""
    n = 0
    for g in range(n_groups):
        for i in range(counts[g]):
            group[n] = g
            last[n] = sizes[g] - counts[g] + i
            n += 1
    return n


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


ScoreInts = tuple[int, int, int, bool, bool, int, bool]
ScoreArrays = tuple[
    Array, Array, Array, Array, Array, Array, Array, Array, Array, Array, Array, Array
]
MixArrays = tuple[
    Array, Array, Array, Array, Array, Array, Array, Array, Array, Array, Array, Array
]


@njit(cache=True, inline="always")
def _settle(
    keys: Array, rank_keys: Array, suits_count: bool, out: Array
) -> None:  # pragma: no cover
    """Add the true showdown of one board of part B (``keys``) and take back the one
    part A counted by the ranks (``rank_keys``; none where part A' dealt the multiset,
    that is where suits count and the rank top is shared); the same winners: no change."""
    full_top = _top_mask(keys)
    rank_top = _top_mask(rank_keys)
    if suits_count and rank_top & (rank_top - 1):
        _tally_mask(full_top, 1, out)
    elif full_top != rank_top:
        _tally_mask(full_top, 1, out)
        _tally_mask(rank_top, -1, out)


@njit(cache=True)
def _settle_counts(settled: Array, suits_count: bool, out: Array) -> None:  # pragma: no cover
    """:func:`_settle` of ``settled[full top, rank top]`` boards of each pair of masks."""
    for full_top in range(1, settled.shape[0]):
        for rank_top in range(1, settled.shape[1]):
            weight = settled[full_top, rank_top]
            if weight == 0:
                continue
            if suits_count and rank_top & (rank_top - 1):
                _tally_mask(full_top, weight, out)
            elif full_top != rank_top:
                _tally_mask(full_top, weight, out)
                _tally_mask(rank_top, -weight, out)


@njit(cache=True, inline="always")
def _score_board(
    rows: Array,
    hnb: int,
    slots: int,
    fixed: Array,
    run_b: Array,
    may_flush: bool,
    fixed_mask: Array,
    dealt_mask: Array,
    keys: Array,
    rank_keys_b: Array,
    mix_of: Array,
    out: Array,
    ints: ScoreInts,
    arrays: ScoreArrays,
    mix_arrays: MixArrays,
) -> None:  # pragma: no cover - compiled
    """Score one board of part B in full and settle it (:func:`_settle`). ``rows``: each
    player's cards, the board's ``slots`` dealt cards after the first ``hnb``; ``run_b``:
    the dealt cards' hash digits and rank-by-suit boards; ``may_flush``: some player's
    suit counts allow a flush."""
    suit_shift, mix_suits, n_lo_bits, suits_count, mix_hash, flush_test, mixwell = ints
    (
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
    ) = arrays
    players = rows.shape[0]
    width = hnb + slots
    n_suits = dealt_mask.shape[0]
    lo_mask = (1 << n_lo_bits) - 1
    hi_mask = (1 << (suit_shift - n_lo_bits)) - 1
    rank_mask = (1 << suit_shift) - 1
    flush_bits = (flush_test // 3) << 3
    how_full = (suit_shift, mix_suits, n_lo_bits, suits_count, mix_hash)
    how_plain = (suit_shift, mix_suits, n_lo_bits, False, mix_hash)  # no suits added
    mix_fast = width == 7 and nibble_sum(mix_suits) == 5 and mix_hash
    if may_flush:  # the rank mask of the dealt cards of each suit
        for s in range(n_suits):
            dealt_mask[s] = 0
        for j in range(hnb, width):
            c = rows[0, j]
            dealt_mask[cards[c, 1]] |= 1 << cards[c, 0]
    # first without the suits' tie-break (keys of rank fields only): that decides
    # unless the top is shared; then again with the suits
    for adding in (False, suits_count):
        for p in range(players):
            total = fixed[p, 0] + run_b[0]
            tot = total & rank_mask
            key = rank_keys[hi_index[tot >> n_lo_bits & hi_mask] + lo_index[tot & lo_mask]]
            rank_keys_b[p] = key
            w0 = fixed[p, 1] | run_b[1]
            w1 = fixed[p, 2] | run_b[2]
            if adding:
                key = add_suits(key, w0, w1, straight_primary, straights, nth_strength)
            suits = total >> suit_shift
            if (suits + flush_test) & flush_bits:
                for s in range(n_suits):
                    if (suits >> (4 * s) & 15) >= 5:
                        ranks = fixed_mask[p, s] | dealt_mask[s]
                        strength = suit_strength[s] * 0x11111 if adding else 0
                        key = max(key, flush_keys[ranks] | strength)
            if mixwell and nibble_sum(nonzero_nibbles(suits) & mix_suits) >= 5:
                if mix_fast:  # as mixwell_key's first branch, here to save a call
                    mix_total = 0
                    for j in range(7):
                        m = per_card[rows[p, j], 3]
                        mix_of[j] = m
                        mix_total += m
                    need = mix_total - mix_suits
                    for a in range(6):
                        want = need - mix_of[a]
                        for b in range(a + 1, 7):
                            if mix_of[b] == want:
                                ca = rows[p, a]
                                cb = rows[p, b]
                                t5 = total - per_card[ca, 0] - per_card[cb, 0]
                                mk = mix_keys5[
                                    hi_index5[t5 >> n_lo_bits & hi_mask] + lo_index[t5 & lo_mask]
                                ]
                                if adding and mk | SUITS_MASK >= key:
                                    v0 = w0 ^ per_card[ca, 1] ^ per_card[cb, 1]
                                    v1 = w1 ^ per_card[ca, 2] ^ per_card[cb, 2]
                                    mk = add_suits(
                                        mk, v0, v1, straight_primary, straights, nth_strength
                                    )
                                key = max(key, mk)
                else:
                    how = how_full if adding else how_plain
                    key = mixwell_key(rows[p], width, total, w0, w1, key, mix_of, how, mix_arrays)
                    if not adding:  # key5 writes the suits whatever they count
                        key &= ~SUITS_MASK
            keys[p] = key
        if not adding and (not suits_count or not _top_shared(keys)):
            break
    _settle(keys, rank_keys_b, suits_count, out)


@njit(cache=True)
def _plain_boards(
    rows: Array,
    hnb: int,
    slots: int,
    group: Array,
    last: Array,
    idx: Array,
    starts: Array,
    by_suit: Array,
    run: Array,
    fixed: Array,
    place_digit: Array,
    mix_pairs: Array,
    n_pairs: Array,
    flush_suit: Array,
    mix_min: int,
    board_keys: Array,
    board_meta: Array,
    fixed_mask: Array,
    dealt_mask: Array,
    keys: Array,
    rank_keys_b: Array,
    mix_of: Array,
    out: Array,
    settled: Array,
    ints: ScoreInts,
    arrays: ScoreArrays,
    mix_arrays: MixArrays,
) -> None:  # pragma: no cover - compiled
    """Every board of one suit-count vector of part B, seven cards a player and five
    Mixwell suits: the plain keys first (no suits' tie-break), the rank key raised to
    the flush of ``flush_suit[p]`` (-1: none) and to the player's Mixwell choices,
    which leave out the two places ``mix_pairs[p, : n_pairs[p]]`` of the row (fixed
    by the suits); only where the top is shared and suits count is the board scored in
    full (:func:`_score_board`). Two players: the boards are counted in
    ``settled[full top, rank top]`` (bit masks of the players), settled once at the end
    (:func:`_settle_counts`); where one of them may make a Mixwell and the other's key
    is below every Mixwell (``mix_min``), the first wins without looking their Mixwell up;
    ``board_keys`` (when not empty): the two rank keys by the dealt cards' place in the
    five-card hash, and ``board_meta`` a byte of them: the rank top's mask, 4 where the
    first's rank key is below every Mixwell, 8 where the second's is.

    The odometer walks the first ``slots - 1`` cards; the last slot is a tight loop."""
    suit_shift = ints[0]
    n_lo_bits = ints[2]
    suits_count = ints[3]
    per_card = arrays[0]
    cards = arrays[1]
    rank_keys = arrays[2]
    hi_index = arrays[3]
    lo_index = arrays[4]
    hi_index5 = arrays[5]
    mix_keys5 = arrays[6]
    flush_keys = arrays[11]
    players = rows.shape[0]
    width = hnb + slots
    lo_mask = (1 << n_lo_bits) - 1
    hi_mask = (1 << (suit_shift - n_lo_bits)) - 1
    rank_mask = (1 << suit_shift) - 1
    n_last = slots - 1
    g_last = group[n_last]
    by_board = board_keys.shape[0] > 0
    digit_by_suit = np.empty(by_suit.shape[0], np.int64)  # one load less a board
    for i in range(by_suit.shape[0]):
        digit_by_suit[i] = per_card[by_suit[i], 0]
    pair_base = np.empty((players, 21), np.int64)  # the row less the pair, but the last card
    pair_keep = np.empty((players, 21), np.int64)  # 1: the pair keeps the last card
    base = np.empty(players, np.int64)
    flush_base = np.zeros(players, np.int64)  # ranks of the flush suit, but the last card
    flush_last = np.zeros(players, np.int64)  # 1: the last card is of the flush suit
    may_flush = False
    # the one player who may make a Mixwell (1 or 2), or 0
    solo = 0
    if players == 2 and (n_pairs[0] > 0) != (n_pairs[1] > 0):
        solo = 1 if n_pairs[0] > 0 else 2
    for p in range(players):
        for i in range(n_pairs[p]):
            pair_keep[p, i] = mix_pairs[p, i, 1] != width - 1
        if flush_suit[p] >= 0:
            may_flush = True
            flush_last[p] = flush_suit[p] == g_last
    changed = 0
    while changed >= 0:
        for j in range(changed, n_last):
            c = by_suit[starts[group[j]] + idx[j]]
            for p in range(players):
                place_digit[p, hnb + j] = per_card[c, 0]
            run[j + 1, 0] = run[j, 0] + per_card[c, 0]
            run[j + 1, 1] = run[j, 1] | per_card[c, 1]
            run[j + 1, 2] = run[j, 2] | per_card[c, 2]
        for p in range(players):
            base[p] = fixed[p, 0] + run[n_last, 0]
            for i in range(n_pairs[p]):
                a = mix_pairs[p, i, 0]
                b = mix_pairs[p, i, 1]
                pair_base[p, i] = base[p] - place_digit[p, a] - place_digit[p, b] * pair_keep[p, i]
            s = flush_suit[p]
            if s >= 0:
                ranks = fixed_mask[p, s]
                for j in range(n_last):
                    if group[j] == s:
                        ranks |= 1 << cards[by_suit[starts[s] + idx[j]], 0]
                flush_base[p] = ranks
        first = idx[n_last - 1] + 1 if n_last > 0 and group[n_last - 1] == g_last else 0
        for i_last in range(first, last[n_last] + 1):
            c = by_suit[starts[g_last] + i_last]
            dc = digit_by_suit[starts[g_last] + i_last]
            if players == 2:  # the same, in scalars
                if by_board:
                    tot = run[n_last, 0] + dc
                    place = hi_index5[tot >> n_lo_bits & hi_mask] + lo_index[tot & lo_mask]
                    if not may_flush:  # settled by a byte where one may make a Mixwell
                        m = board_meta[place]
                        if solo == 1 and m & 8:
                            settled[1, m & 3] += 1
                            continue
                        if solo == 2 and m & 4:
                            settled[2, m & 3] += 1
                            continue
                    r0 = board_keys[place, 0]
                    r1 = board_keys[place, 1]
                else:
                    tot = (base[0] + dc) & rank_mask
                    r0 = rank_keys[hi_index[tot >> n_lo_bits & hi_mask] + lo_index[tot & lo_mask]]
                    tot = (base[1] + dc) & rank_mask
                    r1 = rank_keys[hi_index[tot >> n_lo_bits & hi_mask] + lo_index[tot & lo_mask]]
                k0 = r0
                k1 = r1
                if may_flush:
                    bit = 1 << cards[c, 0]
                    if flush_suit[0] >= 0:
                        k0 = max(k0, flush_keys[flush_base[0] | bit * flush_last[0]])
                    if flush_suit[1] >= 0:
                        k1 = max(k1, flush_keys[flush_base[1] | bit * flush_last[1]])
                rank_top = int(r0 >= r1) | int(r1 >= r0) << 1  # 1, 2 or 3 where equal
                if solo == 1 and k1 < mix_min:
                    settled[1, rank_top] += 1
                    continue
                if solo == 2 and k0 < mix_min:
                    settled[2, rank_top] += 1
                    continue
                for i in range(n_pairs[0]):
                    t5 = pair_base[0, i] + dc * pair_keep[0, i]
                    mk = mix_keys5[hi_index5[t5 >> n_lo_bits & hi_mask] + lo_index[t5 & lo_mask]]
                    k0 = max(k0, mk)
                for i in range(n_pairs[1]):
                    t5 = pair_base[1, i] + dc * pair_keep[1, i]
                    mk = mix_keys5[hi_index5[t5 >> n_lo_bits & hi_mask] + lo_index[t5 & lo_mask]]
                    k1 = max(k1, mk)
                if k0 != k1 or not suits_count:
                    settled[int(k0 >= k1) | int(k1 >= k0) << 1, rank_top] += 1
                    continue
            else:
                for p in range(players):
                    tot = (base[p] + dc) & rank_mask
                    key = rank_keys[hi_index[tot >> n_lo_bits & hi_mask] + lo_index[tot & lo_mask]]
                    rank_keys_b[p] = key
                    if flush_suit[p] >= 0:
                        ranks = flush_base[p] | per_card[c, 5] * flush_last[p]
                        key = max(key, flush_keys[ranks])
                    for i in range(n_pairs[p]):
                        t5 = pair_base[p, i] + dc * pair_keep[p, i]
                        mk = mix_keys5[
                            hi_index5[t5 >> n_lo_bits & hi_mask] + lo_index[t5 & lo_mask]
                        ]
                        key = max(key, mk)
                    keys[p] = key
                if not suits_count or not _top_shared(keys):
                    _settle(keys, rank_keys_b, suits_count, out)
                    continue
            # the suits decide: score it in full
            for j in range(n_last):
                c_j = by_suit[starts[group[j]] + idx[j]]
                for p in range(players):
                    rows[p, hnb + j] = c_j
            for p in range(players):
                rows[p, hnb + n_last] = c
            run[slots, 0] = run[n_last, 0] + dc
            run[slots, 1] = run[n_last, 1] | per_card[c, 1]
            run[slots, 2] = run[n_last, 2] | per_card[c, 2]
            _score_board(
                rows,
                hnb,
                slots,
                fixed,
                run[slots],
                may_flush,
                fixed_mask,
                dealt_mask,
                keys,
                rank_keys_b,
                mix_of,
                out,
                ints,
                arrays,
                mix_arrays,
            )
        changed = _slots_next(group, last, n_last, idx)


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
    lo_mask = (1 << n_lo_bits) - 1
    hi_mask = (1 << (suit_shift - n_lo_bits)) - 1
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
    by_board = mix_fast and deal == 5 and players == 2
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
            if not suits_count or not _top_shared(keys):
                _tally(keys, weight, out)
            else:  # part A': the suits decide; deal the boards of this multiset
                slots = _set_slots(counts, sizes, n_groups, group, last)
                _slots_first(group, slots, idx)
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
                    changed = _slots_next(group, last, slots, idx)
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
    # the plain pass of a vector without flushes (see _plain_boards): each player's
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
            slots = _set_slots(counts, sizes, n_suits, group, last)
            _slots_first(group, slots, idx)
            if not mix_fast:  # every board scored in full
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
                    _score_board(
                        rows,
                        hnb,
                        slots,
                        fixed,
                        run[slots],
                        may_flush,
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
                    changed = _slots_next(group, last, slots, idx)
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
                _plain_boards(
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
    _settle_counts(settled, suits_count, out)
    return out
