"""Compiled counting behind :mod:`cardlab.poker.tables7` (private).

A hand is described level by level: each level is one rank in one slot (Hold'em and
Stud have one slot; Omaha two: hole and board) holding ``mult`` cards. The suits of a
level are enumerated only up to the symmetry of interchangeable suits: suits start in
classes (same role, same ranks available), and choosing ``k`` suits of a class picks
its first ``k`` members and splits the class; the choice stands for
``C(class size, k)`` hands. Every leaf is then a real hand, evaluated exactly by its
five-card subsets (``combos``), and counted with its weight.

Five cards are classified without sorting: the number of equal-rank pairs among the
ten pairs of cards tells the rank pattern (10 five of a kind, 6 four, 4 full house,
3 three, 2 two pair, 1 pair, 0 none); a shape is ``base * 2 + mixwell`` with ``base``
the index in :class:`~cardlab.poker.categories.BaseHand`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import get_num_threads, njit, prange

from cardlab.poker._kernels.rule_arrays import Base

Array = Any  # numpy arrays, typed loosely: numba-compiled code

N_SHAPES = 20


def thread_count() -> int:
    """Threads to use: numba's setting (``NUMBA_NUM_THREADS``, the cores by default)."""
    return int(get_num_threads())


@njit(cache=True)
def _popcount(x: int) -> int:  # pragma: no cover - compiled
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def _is_straight(mask: int, lut: Array, straights: Array) -> bool:  # pragma: no cover
    if lut.shape[0] > 0:
        return bool(lut[mask] != 0)
    i = np.searchsorted(straights, mask)
    return bool(i < straights.shape[0] and straights[i] == mask)


@njit(cache=True)
def shape_of(
    r0: int,
    r1: int,
    r2: int,
    r3: int,
    r4: int,
    smask: int,
    mixmask: int,
    lut: Array,
    straights: Array,
) -> int:  # pragma: no cover - compiled
    """The shape id of five cards given their rank indexes and the OR of their suit bits."""
    eq = (
        (r0 == r1)
        + (r0 == r2)
        + (r0 == r3)
        + (r0 == r4)
        + (r1 == r2)
        + (r1 == r3)
        + (r1 == r4)
        + (r2 == r3)
        + (r2 == r4)
        + (r3 == r4)
    )
    mix = 1 if _popcount(smask & mixmask) == 5 else 0
    if eq == 0:
        rmask = (1 << r0) | (1 << r1) | (1 << r2) | (1 << r3) | (1 << r4)
        straight = _is_straight(rmask, lut, straights)
        flush = (smask & (smask - 1)) == 0
        base = (
            (Base.STRAIGHT_FLUSH if straight else Base.FLUSH)
            if flush
            else (Base.STRAIGHT if straight else Base.HIGH_CARD)
        )
    elif eq == 1:
        base = Base.ONE_PAIR
    elif eq == 2:
        base = Base.TWO_PAIR
    elif eq == 3:
        base = Base.THREE_OF_A_KIND
    elif eq == 4:
        base = Base.FULL_HOUSE
    elif eq == 6:
        base = Base.FOUR_OF_A_KIND
    else:
        base = Base.FIVE_OF_A_KIND
    return base * 2 + mix


@njit(cache=True)
def best_shape(
    ranks: Array,
    suits: Array,
    combos: Array,
    strength: Array,
    mixmask: int,
    lut: Array,
    straights: Array,
) -> int:  # pragma: no cover - compiled
    """The shape of the strongest five-card subset (``combos``: rows of 5 indexes)."""
    best = -1
    best_strength = -1
    for c in range(combos.shape[0]):
        a, b, d, e, f = combos[c, 0], combos[c, 1], combos[c, 2], combos[c, 3], combos[c, 4]
        smask = (1 << suits[a]) | (1 << suits[b]) | (1 << suits[d]) | (1 << suits[e])
        smask |= 1 << suits[f]
        sh = shape_of(
            ranks[a], ranks[b], ranks[d], ranks[e], ranks[f], smask, mixmask, lut, straights
        )
        if strength[sh] > best_strength:
            best_strength = strength[sh]
            best = sh
    return best


@njit(cache=True)
def _rank_lookups(
    pos_rank: Array, combos: Array, strength: Array, lut: Array, straights: Array
) -> tuple[Array, Array, Array]:  # pragma: no cover - compiled
    """Per five-card subset of a rank pattern: strength and shape by suit kind (0 plain,
    1 flush, 2 Mixwell), and the subsets ordered by their best possible strength."""
    n = combos.shape[0]
    sub_strength = np.empty((n, 3), np.int64)
    sub_strength[:, :] = -1
    sub_shape = np.zeros((n, 3), np.int64)
    bound = np.empty(n, np.int64)
    for c in range(n):
        r0, r1, r2 = pos_rank[combos[c, 0]], pos_rank[combos[c, 1]], pos_rank[combos[c, 2]]
        r3, r4 = pos_rank[combos[c, 3]], pos_rank[combos[c, 4]]
        plain = shape_of(r0, r1, r2, r3, r4, 3, 0, lut, straights)  # two suits: no flush
        base = plain // 2
        sub_shape[c, 0] = plain
        sub_shape[c, 2] = plain + 1
        if base == Base.STRAIGHT or base == Base.HIGH_CARD:
            sub_shape[c, 1] = (Base.STRAIGHT_FLUSH if base == Base.STRAIGHT else Base.FLUSH) * 2
        else:
            sub_shape[c, 1] = -1
        best = -1
        for kind in range(3):
            sh = sub_shape[c, kind]
            if sh >= 0 and strength[sh] >= 0:
                sub_strength[c, kind] = strength[sh]
                best = max(best, strength[sh])
        bound[c] = best
    # strongest bound first (an insertion sort: a few dozen subsets, and quick to compile)
    order = np.arange(n)
    for i in range(1, n):
        j = i
        while j > 0 and bound[order[j - 1]] < bound[order[j]]:
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    return sub_strength, sub_shape, order


@njit(cache=True, inline="always")
def _suit_choices(
    free: int,
    mult: int,
    cls: Array,
    popcount: Array,
    binom: Array,
    cand: Array,
    cand_factor: Array,
) -> int:  # pragma: no cover - compiled
    """The canonical choices of ``mult`` suits among the ``free`` ones (a bit per suit)
    for one level of :func:`_count_one`: suits of the same class (``cls``: each suit's
    history so far) are interchangeable, so only the lowest ones of each class are taken,
    each choice standing for ``cand_factor`` hands. Writes ``cand``/``cand_factor``;
    returns how many."""
    n_suits = cls.shape[0]
    class_mask = np.empty(n_suits, np.int64)
    class_label = np.empty(n_suits, np.int64)
    n_cls = 0
    for s in range(n_suits):
        if (free >> s) & 1:
            found = -1
            for j in range(n_cls):
                if class_label[j] == cls[s]:
                    found = j
                    break
            if found < 0:
                class_label[n_cls] = cls[s]
                class_mask[n_cls] = 0
                found = n_cls
                n_cls += 1
            class_mask[found] |= 1 << s
    nc = 0
    sub = free
    while True:
        if popcount[sub] == mult:
            ok = True
            factor = 1
            for j in range(n_cls):
                x = sub & class_mask[j]
                k = popcount[x]
                y = class_mask[j]
                prefix = 0
                for _ in range(k):
                    low = y & -y
                    prefix |= low
                    y ^= low
                if x != prefix:
                    ok = False
                    break
                factor *= binom[popcount[class_mask[j]], k]
            if ok:
                cand[nc] = sub
                cand_factor[nc] = factor
                nc += 1
        if sub == 0:
            break
        sub = (sub - 1) & free
    return nc


@njit(cache=True, inline="always")
def _best_shape(
    card_bit: Array,
    order: Array,
    bound: Array,
    combos: Array,
    suit_kind: Array,
    sub_strength: Array,
    sub_shape: Array,
) -> int:  # pragma: no cover - compiled
    """The shape of the best five of a whole hand (its cards' suit bits ``card_bit``):
    the subsets in ``order`` of their best possible strength, until none can beat the
    best found."""
    best = -1
    best_shape_id = 0
    for i in range(order.shape[0]):
        if bound[i] <= best:
            break
        c = order[i]
        smask = (
            card_bit[combos[c, 0]]
            | card_bit[combos[c, 1]]
            | card_bit[combos[c, 2]]
            | card_bit[combos[c, 3]]
            | card_bit[combos[c, 4]]
        )
        kind = suit_kind[smask]
        st = sub_strength[c, kind]
        if st > best:
            best = st
            best_shape_id = sub_shape[c, kind]
    return best_shape_id


@njit(cache=True)
def _count_one(
    level_rank: Array,
    level_mult: Array,
    level_slot: Array,
    n_levels: int,
    slot_start: Array,
    avail: Array,
    init_class: Array,
    combos: Array,
    strength: Array,
    suit_kind: Array,
    popcount: Array,
    lut: Array,
    straights: Array,
    binom: Array,
    mixmask: int,
    out: Array,
) -> None:  # pragma: no cover - compiled
    """Add to ``out[shape]`` the hands with these levels, by the shape of their best five."""
    n_suits = init_class.shape[0]
    n_cards = slot_start[-1]
    # where each level's cards sit: slots in order, ranks ascending within a slot
    pos_start = np.empty(n_levels, np.int64)
    pos_rank = np.empty(n_cards, np.int64)
    fill = slot_start[:-1].copy()
    for j in range(n_levels):
        pos_start[j] = fill[level_slot[j]]
        for t in range(level_mult[j]):
            pos_rank[fill[level_slot[j]] + t] = level_rank[j]
        fill[level_slot[j]] += level_mult[j]
    sub_strength, sub_shape, order = _rank_lookups(pos_rank, combos, strength, lut, straights)
    bound = np.empty(order.shape[0], np.int64)
    for i in range(order.shape[0]):
        c = order[i]
        bound[i] = max(sub_strength[c, 0], max(sub_strength[c, 1], sub_strength[c, 2]))

    # Where no completion of a partial hand can hold a flush or a Mixwell, every five
    # is plain: the best is the best plain five, and the completions are counted at once.
    plain_best = 0
    plain_strength = -1
    for c in range(combos.shape[0]):
        if sub_strength[c, 0] > plain_strength:
            plain_strength = sub_strength[c, 0]
            plain_best = sub_shape[c, 0]
    completions = np.ones(n_levels + 1, np.int64)  # hands completing levels lvl..
    rest_ranks = np.zeros(n_levels + 1, np.int64)  # distinct ranks among them
    rest_cards = np.zeros(n_levels + 1, np.int64)
    for j in range(n_levels - 1, -1, -1):
        before = 0
        for i in range(j):
            if level_rank[i] == level_rank[j]:
                before += level_mult[i]
        cap = popcount[avail[level_rank[j]]]
        completions[j] = completions[j + 1] * binom[cap - before, level_mult[j]]
        rest_cards[j] = rest_cards[j + 1] + level_mult[j]
        new_rank = j == n_levels - 1 or level_rank[j + 1] != level_rank[j]
        rest_ranks[j] = rest_ranks[j + 1] + (1 if new_rank else 0)
    suit_count = np.zeros((n_levels + 1, n_suits), np.int64)
    seen_suits = np.zeros(n_levels + 1, np.int64)

    max_cand = 1 << n_suits
    cand = np.empty((n_levels, max_cand), np.int64)
    cand_factor = np.empty((n_levels, max_cand), np.int64)
    n_cand = np.zeros(n_levels, np.int64)
    cursor = np.zeros(n_levels, np.int64)
    cls = np.empty((n_levels, n_suits), np.int64)
    weight = np.empty(n_levels, np.int64)
    used = np.zeros(n_levels, np.int64)
    card_bit = np.zeros(n_cards, np.int64)
    for s in range(n_suits):
        cls[0, s] = init_class[s]
    weight[0] = 1
    lvl = 0
    entering = True
    while lvl >= 0:
        if entering:
            entering = False
            most = 0
            for s in range(n_suits):
                most = max(most, suit_count[lvl, s])
            no_flush = most + rest_ranks[lvl] < 5
            no_mixwell = popcount[seen_suits[lvl] & mixmask] + rest_cards[lvl] < 5
            if no_flush and no_mixwell:
                out[plain_best] += weight[lvl] * completions[lvl]
                lvl -= 1
                continue
            # the canonical suit choices of this level and the hands each stands for
            free = avail[level_rank[lvl]] & ~used[lvl]
            n_cand[lvl] = _suit_choices(
                free, level_mult[lvl], cls[lvl], popcount, binom, cand[lvl], cand_factor[lvl]
            )
            cursor[lvl] = 0
        if cursor[lvl] >= n_cand[lvl]:
            lvl -= 1
            continue
        sub = cand[lvl, cursor[lvl]]
        w = weight[lvl] * cand_factor[lvl, cursor[lvl]]
        cursor[lvl] += 1
        p = pos_start[lvl]
        for s in range(n_suits):
            if (sub >> s) & 1:
                card_bit[p] = 1 << s
                p += 1
        if lvl == n_levels - 1:
            out[
                _best_shape(card_bit, order, bound, combos, suit_kind, sub_strength, sub_shape)
            ] += w
        else:
            nxt = lvl + 1
            for s in range(n_suits):
                cls[nxt, s] = cls[lvl, s] * 2 + ((sub >> s) & 1)
            weight[nxt] = w
            seen_suits[nxt] = seen_suits[lvl] | sub
            for s in range(n_suits):
                suit_count[nxt, s] = suit_count[lvl, s] + ((sub >> s) & 1)
            same_rank = level_rank[nxt] == level_rank[lvl]
            used[nxt] = (used[lvl] | sub) if same_rank else 0
            lvl = nxt
            entering = True


@njit(cache=True, nogil=True)
def count_patterns(
    levels: Array,
    n_levels: Array,
    pattern_weight: Array,
    slot_start: Array,
    avail: Array,
    init_class: Array,
    combos: Array,
    strength: Array,
    suit_kind: Array,
    popcount: Array,
    lut: Array,
    straights: Array,
    binom: Array,
    mixmask: int,
) -> Array:  # pragma: no cover - compiled
    """Shape counts of the best five, summed over rank patterns.

    ``levels[i, j] = (rank, mult, slot)`` for pattern ``i``'s level ``j`` (levels of one
    rank adjacent); ``pattern_weight[i]`` is the number of rank patterns it stands for.
    Releases the GIL: the caller runs one call per thread on its share of the patterns
    (a plain loop compiles in a fraction of the time a parallel one takes).
    """
    total = np.zeros(N_SHAPES, np.int64)
    per = np.zeros(N_SHAPES, np.int64)
    for i in range(levels.shape[0]):
        nl = n_levels[i]
        per[:] = 0
        _count_one(
            levels[i, :nl, 0],
            levels[i, :nl, 1],
            levels[i, :nl, 2],
            nl,
            slot_start,
            avail,
            init_class,
            combos,
            strength,
            suit_kind,
            popcount,
            lut,
            straights,
            binom,
            mixmask,
            per,
        )
        for sh in range(N_SHAPES):
            total[sh] += per[sh] * pattern_weight[i]
    return total


@njit(cache=True, parallel=True)
def best_shapes(
    ranks: Array,
    suits: Array,
    combos: Array,
    strength: Array,
    mixmask: int,
    lut: Array,
    straights: Array,
) -> Array:  # pragma: no cover - compiled
    """The best-five shape of each row of (ranks, suits)."""
    n = ranks.shape[0]
    out = np.empty(n, np.int64)
    for i in prange(n):
        out[i] = best_shape(ranks[i], suits[i], combos, strength, mixmask, lut, straights)
    return out


@njit(cache=True, parallel=True)
def brute_force(
    n_cards: int,
    k: int,
    card_rank: Array,
    card_suit: Array,
    combos: Array,
    strength: Array,
    mixmask: int,
    lut: Array,
    straights: Array,
) -> Array:  # pragma: no cover - compiled
    """Shape counts of the best five over every k-subset of the deck (the check path).

    Parallel over the first card; the rest by a plain odometer of increasing indexes.
    """
    per = np.zeros((n_cards, N_SHAPES), np.int64)
    for first in prange(n_cards):
        idx = np.empty(k, np.int64)
        ranks = np.empty(k, np.int64)
        suits = np.empty(k, np.int64)
        idx[0] = first
        for j in range(1, k):
            idx[j] = first + j
        if idx[k - 1] >= n_cards:
            continue
        while True:
            for j in range(k):
                ranks[j] = card_rank[idx[j]]
                suits[j] = card_suit[idx[j]]
            sh = best_shape(ranks, suits, combos, strength, mixmask, lut, straights)
            per[first, sh] += 1
            # next combination with idx[0] fixed
            j = k - 1
            while j >= 1 and idx[j] == n_cards - k + j:
                j -= 1
            if j == 0:
                break
            idx[j] += 1
            for t in range(j + 1, k):
                idx[t] = idx[t - 1] + 1
    total = np.zeros(N_SHAPES, np.int64)
    for i in range(n_cards):
        for sh in range(N_SHAPES):
            total[sh] += per[i, sh]
    return total


@njit(cache=True)
def random_deals(n_cards: int, count: int, size: int, seed: int) -> Array:  # pragma: no cover
    """``count`` deals of ``size`` different cards, uniformly (a partial Fisher-Yates
    shuffle), from numba's generator seeded with ``seed``: the same seed, the same deals."""
    np.random.seed(seed)
    out = np.empty((count, size), np.int64)
    deck = np.arange(n_cards)
    for i in range(count):
        for j in range(size):
            t = j + np.random.randint(0, n_cards - j)
            card = deck[t]
            deck[t] = deck[j]
            deck[j] = card
            out[i, j] = card
    return out
