"""Part B of the by-rank counter (:mod:`.by_rank`): the boards whose suit counts allow
a flush or a Mixwell, dealt suit-count vector by suit-count vector and settled against
the rank outcome part A counted for them (private).

With seven cards a player (Hold'em) and five Mixwell suits, :func:`plain_boards` walks a
vector's boards with the last card in a tight loop and the plain keys (no suits'
tie-break) only: a player's Mixwell choices leave out two of their seven cards, and which
two depends only on the suits, so the pairs are found once per vector and each board
reads five-card hash places; a flush suit's ranks are or-ed per board. Two players: a
board where only one player may make a Mixwell and the other's key is below every
Mixwell is won by the first without a Mixwell look-up (a byte per dealt rank multiset
when five cards are dealt). Boards where suits decide (the plain top shared) and other
hand sizes are scored in full by :func:`score_board`, as :func:`~.hashed.hand_key` would.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from cardlab.poker._kernels.bundle import KernelScalars, MixArrays, ScoreArrays
from cardlab.poker._kernels.five import nibble_sum
from cardlab.poker._kernels.hashed import add_suits, hash_masks, may_flush, may_mixwell, mixwell_key
from cardlab.poker._kernels.tally import tally_mask, top_mask, top_shared
from cardlab.poker.keys import SUITS_MASK

Array = Any


class VectorWork(NamedTuple):
    """The working arrays of part B (built once per call of
    :func:`~.by_rank.exact_by_rank`, reused vector after vector)."""

    rows: Array  # players x width: each player's cards, the dealt ones last
    group: Array  # per dealt slot: its suit (set_slots)
    last: Array  # per slot: the last place it may take in its suit's cards
    idx: Array  # per slot: its place among its suit's cards (the choice walked)
    starts: Array  # per suit: where its cards start in by_suit
    by_suit: Array  # the cards left, by suit
    run: Array  # run[j + 1]: hash digits and suit boards of the dealt cards 0..j
    fixed: Array  # players x 3: the same of each player's fixed cards
    place_digit: Array  # players x width: each place's hash digit
    mix_pairs: Array  # players x 21 x 2: the places each Mixwell choice leaves out
    n_pairs: Array  # per player: how many
    flush_suit: Array  # per player: the suit that may make a flush, -1: none
    board_keys: Array  # the two rank keys per dealt rank multiset (see plain_boards)
    board_meta: Array
    fixed_mask: Array  # players x suits: rank mask of the fixed cards of each suit
    dealt_mask: Array  # per suit: rank mask of the dealt cards
    keys: Array  # per player: the board's key
    rank_keys_b: Array  # per player: its rank key (part A's)
    mix_of: Array  # int64 scratch of 16
    out: Array  # the tally
    settled: Array  # boards per (full top, rank top) masks, two players


@njit(cache=True, inline="always")
def slots_first(group: Array, n: int, idx: Array) -> None:  # pragma: no cover - compiled
    """The first choice: in each group, its first cards."""
    for j in range(n):
        idx[j] = idx[j - 1] + 1 if j > 0 and group[j] == group[j - 1] else 0


@njit(cache=True, inline="always")
def slots_next(group: Array, last: Array, n: int, idx: Array) -> int:  # pragma: no cover
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
def set_slots(
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


@njit(cache=True, inline="always")
def settle(
    keys: Array, rank_keys: Array, suits_count: bool, out: Array
) -> None:  # pragma: no cover
    """Add the true showdown of one board of part B (``keys``) and take back the one
    part A counted by the ranks (``rank_keys``; none where part A' dealt the multiset,
    that is where suits count and the rank top is shared); the same winners: no change."""
    full_top = top_mask(keys)
    rank_top = top_mask(rank_keys)
    if suits_count and rank_top & (rank_top - 1):
        tally_mask(full_top, 1, out)
    elif full_top != rank_top:
        tally_mask(full_top, 1, out)
        tally_mask(rank_top, -1, out)


@njit(cache=True)
def settle_counts(settled: Array, suits_count: bool, out: Array) -> None:  # pragma: no cover
    """:func:`settle` of ``settled[full top, rank top]`` boards of each pair of masks."""
    for full_top in range(1, settled.shape[0]):
        for rank_top in range(1, settled.shape[1]):
            weight = settled[full_top, rank_top]
            if weight == 0:
                continue
            if suits_count and rank_top & (rank_top - 1):
                tally_mask(full_top, weight, out)
            elif full_top != rank_top:
                tally_mask(full_top, weight, out)
                tally_mask(rank_top, -weight, out)


@njit(cache=True, inline="always")
def score_board(
    rows: Array,
    hnb: int,
    slots: int,
    fixed: Array,
    run_b: Array,
    any_flush: bool,
    suits_only: bool,
    fixed_mask: Array,
    dealt_mask: Array,
    keys: Array,
    rank_keys_b: Array,
    mix_of: Array,
    out: Array,
    sc: KernelScalars,
    sa: ScoreArrays,
    ma: MixArrays,
) -> None:  # pragma: no cover - compiled
    """Score one board of part B in full and settle it (:func:`settle`). ``rows``: each
    player's cards, the board's ``slots`` dealt cards after the first ``hnb``; ``run_b``:
    the dealt cards' hash digits and rank-by-suit boards; ``any_flush``: some player's
    suit counts allow a flush; ``suits_only``: the caller found the plain top shared (and
    suits count), so only the keys with the suits are made."""
    suit_shift = sc.suit_shift
    mix_suits = sc.mix_suits
    n_lo_bits = sc.n_lo_bits
    suits_count = sc.suits_count
    per_card = sa.per_card
    cards = sa.cards
    rank_keys = sa.rank_keys
    hi_index = sa.hi_index
    lo_index = sa.lo_index
    hi_index5 = sa.hi_index5
    mix_keys5 = sa.mix_keys5
    straight_primary = sa.straight_primary
    straights = sa.straights
    nth_strength = sa.nth_strength
    suit_strength = sa.suit_strength
    flush_keys = sa.flush_keys
    players = rows.shape[0]
    width = hnb + slots
    n_suits = dealt_mask.shape[0]
    lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
    rank_mask = (1 << suit_shift) - 1
    mix_fast = width == 7 and nibble_sum(mix_suits) == 5 and sc.mix_hash
    if any_flush:  # the rank mask of the dealt cards of each suit
        for s in range(n_suits):
            dealt_mask[s] = 0
        for j in range(hnb, width):
            c = rows[0, j]
            dealt_mask[cards[c, 1]] |= 1 << cards[c, 0]
    # first without the suits' tie-break (keys of rank fields only): that decides
    # unless the top is shared; then again with the suits
    for adding in (False, suits_count):
        if suits_only and not adding:
            continue
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
            if may_flush(suits, sc):
                for s in range(n_suits):
                    if (suits >> (4 * s) & 15) >= 5:
                        ranks = fixed_mask[p, s] | dealt_mask[s]
                        strength = suit_strength[s] * 0x11111 if adding else 0
                        key = max(key, flush_keys[ranks] | strength)
            if may_mixwell(suits, sc):
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
                    key = mixwell_key(rows[p], width, total, w0, w1, key, mix_of, adding, sc, ma)
                    if not adding:  # key5 writes the suits whatever they count
                        key &= ~SUITS_MASK
            keys[p] = key
        if not adding and (not suits_count or not top_shared(keys)):
            break
    settle(keys, rank_keys_b, suits_count, out)


@njit(cache=True)
def plain_boards(
    hnb: int,
    slots: int,
    mix_min: int,
    w: VectorWork,
    sc: KernelScalars,
    sa: ScoreArrays,
    ma: MixArrays,
) -> None:  # pragma: no cover - compiled
    """Every board of one suit-count vector of part B, seven cards a player and five
    Mixwell suits: the plain keys first (no suits' tie-break), the rank key raised to
    the flush of ``flush_suit[p]`` (-1: none) and to the player's Mixwell choices,
    which leave out the two places ``mix_pairs[p, : n_pairs[p]]`` of the row (fixed
    by the suits); only where the top is shared and suits count is the board scored in
    full (:func:`score_board`). Two players: the boards are counted in
    ``settled[full top, rank top]`` (bit masks of the players), settled once at the end
    (:func:`settle_counts`); where one of them may make a Mixwell and the other's key
    is below every Mixwell (``mix_min``), the first wins without looking their Mixwell up;
    ``board_keys`` (when not empty): the two rank keys by the dealt cards' place in the
    five-card hash, and ``board_meta`` a byte of them: the rank top's mask, 4 where the
    first's rank key is below every Mixwell, 8 where the second's is.

    The odometer walks the first ``slots - 1`` cards; the last slot is a tight loop."""
    suit_shift = sc.suit_shift
    n_lo_bits = sc.n_lo_bits
    suits_count = sc.suits_count
    per_card = sa.per_card
    cards = sa.cards
    rank_keys = sa.rank_keys
    hi_index = sa.hi_index
    lo_index = sa.lo_index
    hi_index5 = sa.hi_index5
    mix_keys5 = sa.mix_keys5
    flush_keys = sa.flush_keys
    rows = w.rows
    group = w.group
    last = w.last
    idx = w.idx
    starts = w.starts
    by_suit = w.by_suit
    run = w.run
    fixed = w.fixed
    place_digit = w.place_digit
    mix_pairs = w.mix_pairs
    n_pairs = w.n_pairs
    flush_suit = w.flush_suit
    board_keys = w.board_keys
    board_meta = w.board_meta
    fixed_mask = w.fixed_mask
    keys = w.keys
    rank_keys_b = w.rank_keys_b
    out = w.out
    settled = w.settled
    players = rows.shape[0]
    width = hnb + slots
    lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
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
    any_flush = False
    # the one player who may make a Mixwell (1 or 2), or 0
    solo = 0
    if players == 2 and (n_pairs[0] > 0) != (n_pairs[1] > 0):
        solo = 1 if n_pairs[0] > 0 else 2
    for p in range(players):
        for i in range(n_pairs[p]):
            pair_keep[p, i] = mix_pairs[p, i, 1] != width - 1
        if flush_suit[p] >= 0:
            any_flush = True
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
                    if not any_flush:  # settled by a byte where one may make a Mixwell
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
                if any_flush:
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
                if not suits_count or not top_shared(keys):
                    settle(keys, rank_keys_b, suits_count, out)
                    continue
            _score_in_full(hnb, slots, c, any_flush, w, sc, sa, ma)  # the suits decide
        changed = slots_next(group, last, n_last, idx)


@njit(cache=True)
def _score_in_full(
    hnb: int,
    slots: int,
    c: int,
    any_flush: bool,
    w: VectorWork,
    sc: KernelScalars,
    sa: ScoreArrays,
    ma: MixArrays,
) -> None:  # pragma: no cover - compiled
    """A board of :func:`plain_boards` where the suits decide: its cards (the walked
    ones, then ``c`` in the last slot) into the rows, and :func:`score_board` with the
    suits (a rare board: a call of its own keeps the tight loop small)."""
    rows = w.rows
    run = w.run
    per_card = sa.per_card
    players = rows.shape[0]
    n_last = slots - 1
    for j in range(n_last):
        c_j = w.by_suit[w.starts[w.group[j]] + w.idx[j]]
        for p in range(players):
            rows[p, hnb + j] = c_j
    for p in range(players):
        rows[p, hnb + n_last] = c
    run[slots, 0] = run[n_last, 0] + per_card[c, 0]
    run[slots, 1] = run[n_last, 1] | per_card[c, 1]
    run[slots, 2] = run[n_last, 2] | per_card[c, 2]
    score_board(
        rows,
        hnb,
        slots,
        w.fixed,
        run[slots],
        any_flush,
        True,
        w.fixed_mask,
        w.dealt_mask,
        w.keys,
        w.rank_keys_b,
        w.mix_of,
        w.out,
        sc,
        sa,
        ma,
    )
