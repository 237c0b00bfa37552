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
from typing import Any, NamedTuple

import numpy as np
from numba import njit, prange

from cardlab._sharing import borrowed, fetch_add
from cardlab.poker._kernels.bundle import (
    KernelArrays,
    KernelScalars,
    mix_arrays,
    score_arrays,
)
from cardlab.poker._kernels.five import nibble_sum, nonzero_nibbles
from cardlab.poker._kernels.hashed import add_suits, hash_masks, may_flush, rare
from cardlab.poker._kernels.special_boards import (
    VectorWork,
    plain_boards,
    score_board,
    set_slots,
    settle_counts,
    slots_first,
    slots_next,
)
from cardlab.poker._kernels.tally import (
    multiset_costs,
    multiset_prefixes,
    next_multiset,
    start_multiset,
    tally,
    top_shared,
)

Array = Any

_BINOM = np.array([[math.comb(n, k) for k in range(8)] for n in range(64)], np.int64)


class Dealt(NamedTuple):
    """What parts A and B share: the players' rows and the cards left, sorted."""

    rows: Array  # players x (hole + board + deal): the fixed cards, then the dealt ones
    fixed: Array  # players x 3: hash digits and suit boards of hole + board
    by_rank: Array  # the cards left, by rank (in the order of rest)
    rank_start: Array  # by_rank[rank_start[r]:rank_start[r + 1]]: rank r's
    by_suit: Array  # the cards left, by suit
    suit_start: Array
    rank_digit: Array  # per rank: its hash digit (suit counts left out)


@njit(cache=True, parallel=True)
def exact_by_rank(
    holes: Array,
    board: Array,
    rest: Array,
    deal: int,
    arr: KernelArrays,
    sc: KernelScalars,
    workers: int,
) -> Array:  # pragma: no cover - compiled
    """Tallies of every board completing ``board`` with ``deal`` cards of ``rest``, for
    the players' ``holes`` (players x hole cards): 4 x players (sole wins, shared wins,
    pot shares in SHARE_UNIT, shares squared), as :func:`.showdowns.exact_units`.
    ``arr``, ``sc``: hash look-ups of hole + board cards.

    Both parts run on ``workers`` threads (numba's thread count, read by the caller: a
    compiled function reading it could not be cached) taking units of work in turn,
    the largest first (:mod:`.sharing`): part A's units are the lowest one or two ranks
    of the multisets (:func:`~.tally.multiset_prefixes`), sized by their multisets,
    part B's the suit-count vectors (:func:`_special_vectors`), sized by their boards."""
    players = holes.shape[0]
    dealt = _dealt(holes, board, rest, deal, arr, sc)
    seven, board_keys, board_meta, mix_min = _board_lookups(players, deal, dealt, arr, sc)
    n_ranks = dealt.rank_digit.shape[0]
    prefixes = multiset_prefixes(n_ranks, deal)
    order = np.argsort(-multiset_costs(prefixes, n_ranks, deal), kind="mergesort")
    n_a = order.shape[0]
    n_w = max(1, min(workers, n_a))
    parts_a = np.zeros((n_w, 4, players), np.int64)
    taken = np.zeros(1, np.int64)  # units handed out so far
    # numba's parallel loop cannot take a named tuple made in this function: its arrays
    # go in one by one, and each worker builds the tuple again (a few pointers)
    rows, fixed, by_rank, rank_start, by_suit, suit_start, rank_digit = dealt
    for w in prange(n_w):
        # the shared arrays borrowed (no reference counts for the threads to share), and
        # a tally of the worker's own, copied out once
        unit = borrowed(Dealt(rows, fixed, by_rank, rank_start, by_suit, suit_start, rank_digit))
        a = borrowed(arr)
        keys_w = borrowed(board_keys)
        meta_w = borrowed(board_meta)
        counter = borrowed(taken)
        own = np.zeros((4, players), np.int64)
        k = fetch_add(counter, 1)
        while k < n_a:
            _part_a(unit, deal, prefixes[order[k]], keys_w, meta_w, mix_min, a, sc, own)
            k = fetch_add(counter, 1)
        parts_a[w] = own
    out = np.zeros((4, players), np.int64)
    for w in range(n_w):
        out += parts_a[w]
    if deal == 0:
        return out
    vectors = _special_vectors(dealt, deal, sc)
    order = np.argsort(-_vector_boards(vectors, suit_start), kind="mergesort")
    n_b = order.shape[0]
    n_w = max(1, min(workers, n_b))
    parts_b = np.zeros((n_w, 4, players), np.int64)
    settled = np.zeros((n_w, 4, 4), np.int64)
    taken[0] = 0
    for w in prange(n_w):
        unit = borrowed(Dealt(rows, fixed, by_rank, rank_start, by_suit, suit_start, rank_digit))
        a = borrowed(arr)  # (see part A)
        keys_w = borrowed(board_keys)
        meta_w = borrowed(board_meta)
        counter = borrowed(taken)
        own = np.zeros((4, players), np.int64)
        own_settled = np.zeros((4, 4), np.int64)
        k = fetch_add(counter, 1)
        while k < n_b:
            u = vectors[order[k]]
            _part_b(unit, deal, u, seven, keys_w, meta_w, mix_min, a, sc, own, own_settled)
            k = fetch_add(counter, 1)
        parts_b[w] = own
        settled[w] = own_settled
    all_settled = np.zeros((4, 4), np.int64)
    for w in range(n_w):
        out += parts_b[w]
        all_settled += settled[w]
    settle_counts(all_settled, sc.suits_count, out)
    return out


@njit(cache=True)
def _vector_boards(vectors: Array, suit_start: Array) -> Array:  # pragma: no cover
    """Per suit-count vector of part B: how many boards it deals (the product over the
    suits of the ways to pick its count among the suit's cards left), the size of its
    unit."""
    boards = np.ones(vectors.shape[0], np.int64)
    for t in range(vectors.shape[0]):
        for s in range(vectors.shape[1]):
            n = suit_start[s + 1] - suit_start[s]
            ways = 1
            for i in range(vectors[t, s]):
                ways = ways * (n - i) // (i + 1)
            boards[t] *= ways
    return boards


@njit(cache=True)
def _board_lookups(
    players: int, deal: int, dealt: Dealt, arr: KernelArrays, sc: KernelScalars
) -> tuple[bool, Array, Array, int]:  # pragma: no cover - compiled
    """(seven, board_keys, board_meta, mix_min): whether part B takes the fast loop of
    seven cards (:func:`~.special_boards.plain_boards`, Mixwell choices by pairs), the
    rank keys part A keeps for it and a key below every Mixwell. Outside the parallel
    function: numba's parallel analysis took ``board_keys``'s length for the Mixwell
    look-up's and reduced over nothing."""
    width = dealt.rows.shape[1]
    mix_fast = width == 7 and nibble_sum(sc.mix_suits) == 5 and sc.mix_hash
    seven = width == 7 and (mix_fast or not sc.mixwell)
    # five cards dealt to two players: each rank key kept by the dealt rank multiset's
    # place in the five-card hash, for part B to read instead of hashing seven cards
    # (each multiset writes its own place: the threads of part A never share one)
    by_board = seven and deal == 5 and players == 2
    mix_keys5 = arr.mix_keys5
    board_keys = np.zeros((mix_keys5.shape[0] if by_board else 0, 2), np.int64)
    board_meta = np.zeros(board_keys.shape[0], np.uint8)
    mix_min = 0  # below every Mixwell key
    if mix_fast:
        mix_min = mix_keys5[0]
        for i in range(mix_keys5.shape[0]):
            mix_min = min(mix_min, mix_keys5[i])
    return seven, board_keys, board_meta, mix_min


@njit(cache=True)
def _dealt(
    holes: Array, board: Array, rest: Array, deal: int, arr: KernelArrays, sc: KernelScalars
) -> Dealt:  # pragma: no cover - compiled
    """The rows, their fixed sums, and the cards left sorted by rank and by suit."""
    per_card = arr.per_card
    cards = arr.cards
    rank_mask = (1 << sc.suit_shift) - 1
    players, h = holes.shape
    nb = board.shape[0]
    n = rest.shape[0]
    n_ranks = 0
    n_suits = 0
    for c in range(cards.shape[0]):
        n_ranks = max(n_ranks, cards[c, 0] + 1)
        n_suits = max(n_suits, cards[c, 1] + 1)
    rows = np.empty((players, h + nb + deal), np.int64)
    fixed = np.zeros((players, 3), np.int64)
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
    by_rank = np.empty(n, np.int64)
    rank_start = np.zeros(n_ranks + 1, np.int64)
    by_suit = np.empty(n, np.int64)
    suit_start = np.zeros(n_suits + 1, np.int64)
    for i in range(n):
        rank_start[cards[rest[i], 0] + 1] += 1
        suit_start[cards[rest[i], 1] + 1] += 1
    for r in range(n_ranks):
        rank_start[r + 1] += rank_start[r]
    for u in range(n_suits):
        suit_start[u + 1] += suit_start[u]
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
    return Dealt(rows, fixed, by_rank, rank_start, by_suit, suit_start, rank_digit)


@njit(cache=True)
def _part_a(
    dealt: Dealt,
    deal: int,
    prefix: Array,
    board_keys: Array,
    board_meta: Array,
    mix_min: int,
    arr: KernelArrays,
    sc: KernelScalars,
    out: Array,
) -> None:  # pragma: no cover - compiled
    """Part A (and A'): every rank multiset of the dealt cards (nondecreasing rank
    sequences ``v``) that starts with ``prefix`` (one or two ranks, -1 after them)
    counted with its weight, the suits dealt out where they decide. Fills
    ``board_keys``/``board_meta`` (when not empty) for part B."""
    per_card = arr.per_card
    rank_keys = arr.rank_keys
    hi_index = arr.hi_index
    lo_index = arr.lo_index
    hi_index5 = arr.hi_index5
    straight_primary = arr.straight_primary
    straights = arr.straights
    nth_strength = arr.nth_strength
    n_lo_bits = sc.n_lo_bits
    suit_shift = sc.suit_shift
    suits_count = sc.suits_count
    lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
    rank_mask = (1 << suit_shift) - 1
    fixed = dealt.fixed
    by_rank = dealt.by_rank
    rank_start = dealt.rank_start
    rank_digit = dealt.rank_digit
    n_ranks = rank_digit.shape[0]
    players = fixed.shape[0]
    by_board = board_keys.shape[0] > 0
    keys = np.empty(players, np.int64)
    d = max(deal, 1)
    idx = np.zeros(d, np.int64)
    group = np.zeros(d, np.int64)
    last = np.zeros(d, np.int64)
    run = np.zeros((d + 1, 3), np.int64)
    counts = np.zeros(d, np.int64)
    sizes = np.zeros(d, np.int64)
    starts = np.zeros(d, np.int64)
    v = np.zeros(d, np.int64)
    fixed_len = start_multiset(v, deal, prefix)  # the walk keeps v[:fixed_len]
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
                tally(keys, weight, out)
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
                        if rare(total >> suit_shift, sc):
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
                        tally(keys, 1, out)
                    changed = slots_next(group, last, slots, idx)
        if deal == 0 or next_multiset(v, deal, n_ranks) < fixed_len:
            break


@njit(cache=True)
def _special_vectors(dealt: Dealt, deal: int, sc: KernelScalars) -> Array:  # pragma: no cover
    """Part B's units: every suit-count vector of the ``deal`` dealt cards (an odometer
    over the counts) under which some player's suit counts allow a flush or a Mixwell."""
    fixed = dealt.fixed
    suit_start = dealt.suit_start
    n_suits = suit_start.shape[0] - 1
    players = fixed.shape[0]
    u = np.zeros(n_suits, np.int64)
    n_all = 1
    for s in range(n_suits):
        n_all *= min(deal, suit_start[s + 1] - suit_start[s]) + 1
    found = np.empty((n_all, n_suits), np.int64)
    n = 0
    while True:
        size = 0
        suits_dealt = 0
        for s in range(n_suits):
            size += u[s]
            suits_dealt += u[s] << (4 * s)
        if size == deal:
            for p in range(players):
                if rare((fixed[p, 0] >> sc.suit_shift) + suits_dealt, sc):
                    found[n] = u
                    n += 1
                    break
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
    return found[:n].copy()


@njit(cache=True)
def _part_b(
    dealt: Dealt,
    deal: int,
    u: Array,
    seven: bool,
    board_keys: Array,
    board_meta: Array,
    mix_min: int,
    arr: KernelArrays,
    sc: KernelScalars,
    out: Array,
    settled: Array,
) -> None:  # pragma: no cover - compiled
    """Part B for one suit-count vector ``u`` of the dealt cards (one allowing someone
    a flush or a Mixwell): its boards dealt and settled against part A
    (:mod:`.special_boards`), into ``out`` and, by top masks, ``settled``."""
    per_card = arr.per_card
    cards = arr.cards
    suit_shift = sc.suit_shift
    fixed = dealt.fixed
    by_suit = dealt.by_suit
    suit_start = dealt.suit_start
    n_suits = suit_start.shape[0] - 1
    rows = dealt.rows.copy()  # the dealt columns are this unit's own
    players, width = rows.shape
    hnb = width - deal
    sa = score_arrays(arr)
    ma = mix_arrays(arr)
    counts = np.zeros(n_suits, np.int64)
    sizes = np.zeros(n_suits, np.int64)
    w = VectorWork(
        rows=rows,
        group=np.zeros(deal, np.int64),
        last=np.zeros(deal, np.int64),
        idx=np.zeros(deal, np.int64),
        starts=np.zeros(n_suits, np.int64),
        by_suit=by_suit,
        run=np.zeros((deal + 1, 3), np.int64),
        fixed=fixed,
        # the plain pass of a vector without flushes (see plain_boards): each player's
        # Mixwell choices leave out two places of the row, fixed by the vector's suits
        place_digit=np.zeros((players, width), np.int64),
        mix_pairs=np.zeros((players, 21, 2), np.int64),
        n_pairs=np.zeros(players, np.int64),
        flush_suit=np.zeros(players, np.int64),
        board_keys=board_keys,
        board_meta=board_meta,
        fixed_mask=np.zeros((players, n_suits), np.int64),  # rank mask of a suit's fixed cards
        dealt_mask=np.zeros(n_suits, np.int64),  # and of its dealt cards
        keys=np.empty(players, np.int64),
        rank_keys_b=np.empty(players, np.int64),
        mix_of=np.zeros(16, np.int64),
        out=out,
        settled=settled,
    )
    group = w.group
    last = w.last
    idx = w.idx
    starts = w.starts
    run = w.run
    for p in range(players):
        for j in range(hnb):
            c = rows[p, j]
            w.fixed_mask[p, cards[c, 1]] |= 1 << cards[c, 0]
            w.place_digit[p, j] = per_card[c, 0]
    suits_dealt = 0
    for s in range(n_suits):
        suits_dealt += u[s] << (4 * s)
        counts[s] = u[s]
        sizes[s] = suit_start[s + 1] - suit_start[s]
        starts[s] = suit_start[s]
    slots = set_slots(counts, sizes, n_suits, group, last)
    slots_first(group, slots, idx)
    if seven:  # each player's flush suit and Mixwell pairs, then the boards
        _vector_choices(suits_dealt, hnb, cards, w, sc)
        plain_boards(hnb, slots, mix_min, w, sc, sa, ma)
        return
    flush = False  # some player's suit counts allow a flush
    for p in range(players):
        flush = flush or may_flush((fixed[p, 0] >> suit_shift) + suits_dealt, sc)
    changed = 0
    while changed >= 0:  # every board scored in full
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
            flush,
            False,
            w.fixed_mask,
            w.dealt_mask,
            w.keys,
            w.rank_keys_b,
            w.mix_of,
            out,
            sc,
            sa,
            ma,
        )
        changed = slots_next(group, last, slots, idx)


@njit(cache=True)
def _vector_choices(
    suits_dealt: int, hnb: int, cards: Array, w: VectorWork, sc: KernelScalars
) -> None:  # pragma: no cover - compiled
    """For one suit-count vector of seven cards a player (the dealt cards' suits in
    ``w.group``, their counts a nibble per suit in ``suits_dealt``): each player's flush
    suit (at most one, -1: none) and the pairs of places their Mixwell choices leave out
    (fixed by the suits), into ``w.flush_suit``, ``w.mix_pairs`` and ``w.n_pairs``."""
    rows = w.rows
    group = w.group
    fixed = w.fixed
    n_pairs = w.n_pairs
    mix_pairs = w.mix_pairs
    flush_suit = w.flush_suit
    mix_suits = sc.mix_suits
    players, width = rows.shape
    n_suits = w.dealt_mask.shape[0]
    mix_place = np.zeros(width, np.int64)
    for p in range(players):
        n_pairs[p] = 0
        flush_suit[p] = -1
        suits = (fixed[p, 0] >> sc.suit_shift) + suits_dealt
        for s in range(n_suits):
            if (suits >> (4 * s) & 15) >= 5:
                flush_suit[p] = s
        if not sc.mixwell or nibble_sum(nonzero_nibbles(suits) & mix_suits) < 5:
            continue
        mix_total = 0
        for j in range(width):
            s = cards[rows[p, j], 1] if j < hnb else group[j - hnb]
            mix_place[j] = (mix_suits >> (4 * s) & 1) << (4 * s)
            mix_total += mix_place[j]
        for x in range(width - 1):
            for y in range(x + 1, width):
                if mix_total - mix_place[x] - mix_place[y] == mix_suits:
                    mix_pairs[p, n_pairs[p], 0] = x
                    mix_pairs[p, n_pairs[p], 1] = y
                    n_pairs[p] += 1
