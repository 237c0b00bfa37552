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

Only for rule sets without suit tie-breaks and without Mixwell (:func:`applies`), with
two hole cards and five board cards. The tests hold it to the plain enumeration.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from cardlab.poker._kernels.bundle import KeyTables
from cardlab.poker._kernels.hashed import hash_masks
from cardlab.poker._kernels.showdowns import _SHARES, HASHED, SHARE_UNIT, showdown_tables

if TYPE_CHECKING:
    from cardlab.poker.games import Game

Array = Any

_BINOM = np.array([[math.comb(n, k) for k in range(8)] for n in range(64)], np.int64)


def applies(game: Game) -> bool:
    """Whether :func:`hand_vs_random` is exact for the game: Hold'em shape (two hole
    cards, five board cards, best five of seven) on the hash path, suits deciding
    nothing but flushes."""
    base = game.base
    if (base.hole_cards, base.board_cards, base.hole_used) != (2, 5, None):
        return False
    method, t = showdown_tables(game)
    return method == HASHED and not t.suits_count and not t.mixwell


@njit(cache=True)
def hand_vs_random(
    hero: Array, board: Array, rest: Array, t: KeyTables, flush_keys: Array
) -> Array:  # pragma: no cover - compiled
    """Tallies (4 x 2: sole wins, shared wins, pot shares in SHARE_UNIT, shares
    squared; column 0 the hero, 1 the random hand) over every completion of ``board``
    from ``rest`` and every opponent hand of two of the cards ``rest`` leaves.
    ``flush_keys``: :func:`~.by_rank.flush_table`."""
    per_card = t.per_card
    cards = t.cards
    rank_keys = t.rank_keys
    hi_index = t.hi_index
    lo_index = t.lo_index
    suit_strength = t.suit_strength
    n_lo_bits = t.n_lo_bits
    lo_mask, hi_mask = hash_masks(n_lo_bits, t.suit_shift)
    rank_mask = (1 << t.suit_shift) - 1
    nb = board.shape[0]
    deal = 5 - nb
    n = rest.shape[0]
    n_ranks = 0
    n_suits = 0
    for c in range(cards.shape[0]):
        n_ranks = max(n_ranks, cards[c, 0] + 1)
        n_suits = max(n_suits, cards[c, 1] + 1)
    digit = np.zeros(n_ranks, np.int64)
    for c in range(cards.shape[0]):
        digit[cards[c, 0]] = per_card[c, 0] & rank_mask
    avail = np.zeros(n_ranks, np.int64)  # cards left of each rank
    for i in range(n):
        avail[cards[rest[i], 0]] += 1
    board_total = 0
    for j in range(nb):
        board_total += per_card[board[j], 0] & rank_mask
    hero_total = board_total + (per_card[hero[0], 0] & rank_mask)
    hero_total += per_card[hero[1], 0] & rank_mask
    # showdowns the hero wins alone, the random hand wins alone, and split: scalars (a
    # call that takes an array costs a reference count on every call)
    hero_wins = 0
    villain_wins = 0
    splits = 0

    # --- part A: board rank multisets x the opponent's rank pairs ------------------------
    d = max(deal, 1)
    v = np.zeros(d, np.int64)
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
        if deal == 0:
            break
        j = deal - 1
        while j >= 0 and v[j] == n_ranks - 1:
            j -= 1
        if j < 0:
            break
        v[j] += 1
        for i in range(j + 1, deal):
            v[i] = v[j]

    # --- part B: boards with three cards or more of one suit ------------------------------
    of_suit = np.empty(n, np.int64)  # the suit's cards left
    other = np.zeros(n_ranks, np.int64)  # cards left of each rank in the other suits
    idx = np.zeros(6, np.int64)
    taken = np.zeros(n, np.int64)  # 1: of_suit[i] is on the board
    for s in range(n_suits):
        m = 0
        for r in range(n_ranks):
            other[r] = 0
        for i in range(n):
            c = rest[i]
            if cards[c, 1] == s:
                of_suit[m] = c
                m += 1
            else:
                other[cards[c, 0]] += 1
        known_mask = 0  # ranks of the suit on the known board
        known_s = 0
        for j in range(nb):
            if cards[board[j], 1] == s:
                known_mask |= 1 << cards[board[j], 0]
                known_s += 1
        hero_mask = 0
        hero_s = 0
        for j in range(2):
            if cards[hero[j], 1] == s:
                hero_mask |= 1 << cards[hero[j], 0]
                hero_s += 1
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
                # next k-combination of the suit's cards
                if k == 0:
                    break
                j = k - 1
                while j >= 0 and idx[j] == m - k + j:
                    j -= 1
                if j < 0:
                    break
                idx[j] += 1
                for i in range(j + 1, k):
                    idx[i] = idx[i - 1] + 1
    out = np.zeros((4, 2), np.int64)
    half = _SHARES[2]
    for p in range(2):
        alone = hero_wins if p == 0 else villain_wins
        out[0, p] = alone
        out[1, p] = splits
        out[2, p] = alone * SHARE_UNIT + splits * half
        out[3, p] = alone * SHARE_UNIT * SHARE_UNIT + splits * half * half
    return out


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
