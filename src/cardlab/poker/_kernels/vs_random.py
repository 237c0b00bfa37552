"""Exact equity of one hand against a random hand (private): Hold'em on the hash path
where suits matter only for flushes.

Every board and every opponent hand from the cards left is one showdown (about 2.1
billion preflop on standard52); they are counted by classes, as in :mod:`.by_rank`:

A. Ranks only: every rank multiset ``R`` of the dealt board cards (weight
   ``prod_r C(a_r, c_r)``) and every rank pair of the opponent's hand from what is left
   (``a'_r a'_s`` or ``C(a'_r, 2)``) is one class; the keys are the rank keys.
B. Flushes: a flush needs three board cards of its suit ``s`` (a player holds at most
   two), and then no other suit can have one. For each suit, the boards with three or
   more cards of it are grouped by which cards of ``s`` they hold (dealt one by one) and
   the rank multiset of their other cards (at most two, counted with their weight). In a
   group the hero's key is known; the opponent hands are grouped by their cards of
   ``s`` (both, one and the rank of the other, or none and the two ranks). Each class
   whose keys differ from its rank keys adds its showdown with the true keys and takes
   back the one part A counted.

Only for rule sets without suit tie-breaks and without Mixwell, with two hole cards and
five board cards (:attr:`cardlab.poker.plan.KernelPlan.vs_random`). The tests hold it to
the plain enumeration.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numba import njit, prange

from cardlab import _serial_first
from cardlab._sharing import borrowed, fetch_add
from cardlab.poker._kernels.bundle import KernelArrays, KernelScalars
from cardlab.poker._kernels.hashed import hash_masks
from cardlab.poker._kernels.tally import (
    SHARE_UNIT,
    SHARES,
    largest_first,
    multiset_costs,
    multiset_prefixes,
    next_combination,
    next_multiset,
    start_multiset,
)

Array = Any

_BINOM = np.array([[math.comb(n, k) for k in range(8)] for n in range(64)], np.int64)


@njit(cache=True, parallel=True)
def hand_vs_random(
    hero: Array, board: Array, rest: Array, arr: KernelArrays, sc: KernelScalars, workers: int
) -> Array:  # pragma: no cover - compiled
    """Tallies (4 x 2: sole wins, shared wins, pot shares in SHARE_UNIT, shares
    squared; column 0 the hero, 1 the random hand) over every completion of ``board``
    from ``rest`` and every opponent hand of two of the cards ``rest`` leaves: part A
    (:func:`_part_a`) by the lowest ranks of the dealt multisets and part B
    (:func:`_part_b`) suit by suit, as units of work taken in turn by ``workers``
    threads (:mod:`.sharing`; numba's thread count, read by the caller): the suits first,
    then the prefixes by their number of multisets, the largest first."""
    per_card = arr.per_card
    cards = arr.cards
    rank_mask = (1 << sc.suit_shift) - 1
    nb = board.shape[0]
    n = rest.shape[0]
    # not literal zeros: a callee typed first with Literal[int](0) would be compiled twice
    n_ranks = int(0)  # noqa: UP018, RUF046
    n_suits = int(0)  # noqa: UP018, RUF046
    for c in range(cards.shape[0]):
        n_ranks = max(n_ranks, cards[c, 0] + 1)
        n_suits = max(n_suits, cards[c, 1] + 1)
    digit = np.zeros(n_ranks, np.int64)
    for c in range(cards.shape[0]):
        digit[cards[c, 0]] = per_card[c, 0] & rank_mask
    avail = np.zeros(n_ranks, np.int64)  # cards left of each rank
    for i in range(n):
        avail[cards[rest[i], 0]] += 1
    board_total = int(0)  # noqa: UP018, RUF046
    for j in range(nb):
        board_total += per_card[board[j], 0] & rank_mask
    hero_total = board_total + (per_card[hero[0], 0] & rank_mask)
    hero_total += per_card[hero[1], 0] & rank_mask
    deal = 5 - nb
    prefixes = multiset_prefixes(n_ranks, deal)
    units = np.full((n_suits + prefixes.shape[0], 3), -1, np.int64)  # (suit or -1, prefix)
    for s in range(n_suits):
        units[s, 0] = s
    by_size = largest_first(multiset_costs(prefixes, n_ranks, deal))
    for i in range(prefixes.shape[0]):  # element by element: a slice assignment compiles
        units[n_suits + i, 1] = prefixes[by_size[i], 0]  # numba's shape message (2 s)
        units[n_suits + i, 2] = prefixes[by_size[i], 1]
    n_units = units.shape[0]
    n_w = max(1, min(workers, n_units))
    # per worker: showdowns the hero wins alone, the random hand wins alone, and split
    counts = np.zeros((n_w, 3), np.int64)
    taken = np.zeros(1, np.int64)
    for w in prange(n_w):
        a = borrowed(arr)  # (see by_rank)
        counter = borrowed(taken)
        own = np.zeros(3, np.int64)
        t = fetch_add(counter, 1)
        while t < n_units:
            if units[t, 0] >= 0:
                _part_b(units[t, 0], hero, board, rest, digit, board_total, hero_total, a, sc, own)
            else:
                _part_a(deal, units[t, 1:], digit, avail, board_total, hero_total, a, sc, own)
            t = fetch_add(counter, 1)
        for j in range(3):
            counts[w, j] = own[j]
    hero_wins = 0
    villain_wins = 0
    splits = 0
    for w in range(n_w):
        hero_wins += counts[w, 0]
        villain_wins += counts[w, 1]
        splits += counts[w, 2]
    out = np.zeros((4, 2), np.int64)
    half = SHARES[2]
    for p in range(2):
        alone = hero_wins if p == 0 else villain_wins
        out[0, p] = alone
        out[1, p] = splits
        out[2, p] = alone * SHARE_UNIT + splits * half
        out[3, p] = alone * SHARE_UNIT * SHARE_UNIT + splits * half * half
    return out


hand_vs_random_serial = _serial_first.twin(hand_vs_random)  # (cardlab._serial_first)


def count(
    hero: Array, board: Array, rest: Array, arr: KernelArrays, sc: KernelScalars, workers: int
) -> Array:
    """:func:`hand_vs_random`, or on a command's first run its serial twin while it
    compiles in the background (:mod:`cardlab._serial_first`): the same tallies."""
    args = (hero, board, rest, arr, sc, workers)
    return _serial_first.call(hand_vs_random, hand_vs_random_serial, args)


@njit(cache=True)
def _part_a(
    deal: int,
    prefix: Array,
    digit: Array,
    avail: Array,
    board_total: int,
    hero_total: int,
    arr: KernelArrays,
    sc: KernelScalars,
    counts: Array,
) -> None:  # pragma: no cover - compiled
    """Part A: the board rank multisets starting with ``prefix`` (a row of
    :func:`~.tally.multiset_prefixes`) x the opponent's rank pairs, added to ``counts``
    (hero wins, random hand wins, splits) by the rank keys; scalars in the loop (a call
    that takes an array costs a reference count on every call)."""
    rank_keys = arr.rank_keys
    hi_index = arr.hi_index
    lo_index = arr.lo_index
    n_lo_bits = sc.n_lo_bits
    lo_mask, hi_mask = hash_masks(n_lo_bits, sc.suit_shift)
    n_ranks = digit.shape[0]
    hero_wins = 0
    villain_wins = 0
    splits = 0
    v = np.zeros(max(deal, 1), np.int64)
    fixed_len = start_multiset(v, deal, prefix)  # the walk keeps v[:fixed_len]
    left = np.empty(n_ranks, np.int64)
    while True:
        weight = 1
        tot = 0
        for r in range(n_ranks):
            left[r] = avail[r]
        for j in range(deal):
            left[v[j]] -= 1
            tot += digit[v[j]]
        for r in range(n_ranks):
            c_r = avail[r] - left[r]
            if c_r:
                weight *= _BINOM[avail[r], c_r] if left[r] >= 0 else 0
        if weight > 0:
            ht = hero_total + tot
            hero_key = rank_keys[hi_index[ht >> n_lo_bits & hi_mask] + lo_index[ht & lo_mask]]
            bt = board_total + tot
            for r1 in range(n_ranks):
                if left[r1] == 0:
                    continue
                for r2 in range(r1, n_ranks):
                    pairs = _BINOM[left[r1], 2] if r2 == r1 else left[r1] * left[r2]
                    if pairs == 0:
                        continue
                    vt = bt + digit[r1] + digit[r2]
                    place = hi_index[vt >> n_lo_bits & hi_mask] + lo_index[vt & lo_mask]
                    villain_key = rank_keys[place]
                    w = weight * pairs
                    hero_wins += w * (hero_key > villain_key)
                    villain_wins += w * (villain_key > hero_key)
                    splits += w * (hero_key == villain_key)
        if deal == 0 or next_multiset(v, deal, n_ranks) < fixed_len:
            break
    counts[0] += hero_wins
    counts[1] += villain_wins
    counts[2] += splits


@njit(cache=True)
def _part_b(
    s: int,
    hero: Array,
    board: Array,
    rest: Array,
    digit: Array,
    board_total: int,
    hero_total: int,
    arr: KernelArrays,
    sc: KernelScalars,
    counts: Array,
) -> None:  # pragma: no cover - compiled
    """Part B for suit ``s``: the boards with three cards or more of it, grouped by
    which of its cards they hold and the rank multiset of their others; each class whose
    true keys differ from its rank keys corrects ``counts`` (:func:`_correct`)."""
    cards = arr.cards
    rank_keys = arr.rank_keys
    hi_index = arr.hi_index
    lo_index = arr.lo_index
    flush_keys = arr.flush_keys
    suit_strength = arr.suit_strength
    n_lo_bits = sc.n_lo_bits
    lo_mask, hi_mask = hash_masks(n_lo_bits, sc.suit_shift)
    n_ranks = digit.shape[0]
    nb = board.shape[0]
    deal = 5 - nb
    n = rest.shape[0]
    hero_wins = 0
    villain_wins = 0
    splits = 0
    of_suit, m, other, known_mask, known_s, hero_mask, hero_s = _suit_cards(
        s, hero, board, rest, cards, n_ranks
    )
    idx = np.zeros(6, np.int64)
    taken = np.zeros(n, np.int64)  # 1: of_suit[i] is on the board
    strength = suit_strength[s] * 0x11111
    for k in range(max(0, 3 - known_s), min(deal, m) + 1):
        e = deal - k  # dealt cards of other suits
        # every k of the suit's m cards: idx[0..k-1]
        for j in range(k):
            idx[j] = j
        while True:
            s_mask = known_mask
            s_total = 0
            for i in range(m):
                taken[i] = 0
            for j in range(k):
                c = of_suit[idx[j]]
                s_mask |= 1 << cards[c, 0]
                s_total += digit[cards[c, 0]]
                taken[idx[j]] = 1
            on_board = known_s + k
            # the other e dealt cards: rank multisets (e <= 2)
            for q1 in range(n_ranks if e >= 1 else 1):
                for q2 in range(q1 if e >= 2 else 0, n_ranks if e >= 2 else 1):
                    weight = 1
                    extra = 0
                    if e >= 1:
                        if e == 2 and q1 == q2:
                            weight = _BINOM[other[q1], 2]
                        elif e == 2:
                            weight = other[q1] * other[q2]
                        else:
                            weight = other[q1]
                        extra = digit[q1] + (digit[q2] if e == 2 else 0)
                    if weight == 0:
                        continue
                    bt = board_total + s_total + extra
                    ht = hero_total + s_total + extra
                    hero_rank = rank_keys[
                        hi_index[ht >> n_lo_bits & hi_mask] + lo_index[ht & lo_mask]
                    ]
                    hero_full = hero_rank
                    if on_board + hero_s >= 5:
                        hero_full = max(hero_rank, flush_keys[s_mask | hero_mask] | strength)
                    hero_flush = hero_full != hero_rank
                    # the opponent's cards of other suits left, by rank
                    if e >= 1:
                        other[q1] -= 1
                    if e == 2:
                        other[q2] -= 1
                    # both cards of the suit
                    for a in range(m):
                        if taken[a]:
                            continue
                        ra = cards[of_suit[a], 0]
                        for b in range(a + 1, m):
                            if taken[b]:
                                continue
                            rb = cards[of_suit[b], 0]
                            vt = bt + digit[ra] + digit[rb]
                            vr = rank_keys[
                                hi_index[vt >> n_lo_bits & hi_mask] + lo_index[vt & lo_mask]
                            ]
                            vf = vr
                            if on_board + 2 >= 5:
                                mask = s_mask | 1 << ra | 1 << rb
                                vf = max(vr, flush_keys[mask] | strength)
                            a, b, c = _correct(hero_rank, hero_full, vr, vf, weight)
                            hero_wins += a
                            villain_wins += b
                            splits += c
                    # one card of the suit, one of another suit
                    if hero_flush or on_board + 1 >= 5:
                        for a in range(m):
                            if taken[a]:
                                continue
                            ra = cards[of_suit[a], 0]
                            for r in range(n_ranks):
                                if other[r] == 0:
                                    continue
                                vt = bt + digit[ra] + digit[r]
                                vr = rank_keys[
                                    hi_index[vt >> n_lo_bits & hi_mask] + lo_index[vt & lo_mask]
                                ]
                                vf = vr
                                if on_board + 1 >= 5:
                                    vf = max(vr, flush_keys[s_mask | 1 << ra] | strength)
                                w = weight * other[r]
                                a, b, c = _correct(hero_rank, hero_full, vr, vf, w)
                                hero_wins += a
                                villain_wins += b
                                splits += c
                    # no card of the suit
                    if hero_flush or on_board >= 5:
                        for r1 in range(n_ranks):
                            if other[r1] == 0:
                                continue
                            for r2 in range(r1, n_ranks):
                                same = r2 == r1
                                pairs = _BINOM[other[r1], 2] if same else other[r1] * other[r2]
                                if pairs == 0:
                                    continue
                                vt = bt + digit[r1] + digit[r2]
                                vr = rank_keys[
                                    hi_index[vt >> n_lo_bits & hi_mask] + lo_index[vt & lo_mask]
                                ]
                                vf = vr
                                if on_board >= 5:
                                    vf = max(vr, flush_keys[s_mask] | strength)
                                w = weight * pairs
                                a, b, c = _correct(hero_rank, hero_full, vr, vf, w)
                                hero_wins += a
                                villain_wins += b
                                splits += c
                    if e >= 1:
                        other[q1] += 1
                    if e == 2:
                        other[q2] += 1
            if k == 0 or next_combination(idx, k, m) < 0:
                break
    counts[0] += hero_wins
    counts[1] += villain_wins
    counts[2] += splits


@njit(cache=True)
def _suit_cards(
    s: int, hero: Array, board: Array, rest: Array, cards: Array, n_ranks: int
) -> tuple[Array, int, Array, int, int, int, int]:  # pragma: no cover - compiled
    """Suit ``s`` in a deal: its cards left (``of_suit[:m]``), the cards left of each
    rank in the other suits, and the rank mask and count of its cards on the known board
    and in the hero's hand."""
    n = rest.shape[0]
    of_suit = np.empty(n, np.int64)
    other = np.zeros(n_ranks, np.int64)
    m = 0
    for i in range(n):
        c = rest[i]
        if cards[c, 1] == s:
            of_suit[m] = c
            m += 1
        else:
            other[cards[c, 0]] += 1
    known_mask = 0
    known_s = 0
    for j in range(board.shape[0]):
        if cards[board[j], 1] == s:
            known_mask |= 1 << cards[board[j], 0]
            known_s += 1
    hero_mask = 0
    hero_s = 0
    for j in range(2):
        if cards[hero[j], 1] == s:
            hero_mask |= 1 << cards[hero[j], 0]
            hero_s += 1
    return of_suit, m, other, known_mask, known_s, hero_mask, hero_s


@njit(cache=True, inline="always")
def _correct(
    hero_rank: int, hero_full: int, villain_rank: int, villain_full: int, weight: int
) -> tuple[int, int, int]:  # pragma: no cover - compiled
    """The change to (hero wins, random hand wins, splits) when ``weight`` showdowns part
    A counted with the rank keys take their true keys."""
    return (
        weight * (int(hero_full > villain_full) - int(hero_rank > villain_rank)),
        weight * (int(villain_full > hero_full) - int(villain_rank > hero_rank)),
        weight * (int(hero_full == villain_full) - int(hero_rank == villain_rank)),
    )
