"""Compiled showdown loops behind :mod:`cardlab.poker.equity` and :mod:`~cardlab.poker.draw`
(private).

``_eval5`` builds the hand key of :mod:`cardlab.poker.keys` from five card codes and
the tables of :func:`cardlab.poker.equity.kernel_tables` (per-code rank, suit and suit
strength, the straights, and the order's shape table). The enumerators walk every
remaining board inside the compiled code (no board arrays: 16 M boards of FESCA78 would
need hundreds of megabytes), split over threads by the board's first card. Monte Carlo
uses a per-block xorshift generator seeded from the caller's numpy ``Generator``, so the
same seed gives the same result whatever the number of threads.

Counts are int64: split-pot shares are counted in units of ``1/SHARE_UNIT`` of a pot
(``SHARE_UNIT`` = lcm(1..10)), so an equity is an exact fraction of integers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

Array = Any  # numpy arrays typed loosely: numba-compiled code
Tables = Any

SHARE_UNIT = 2520  # lcm(1..10): a pot split m ways is SHARE_UNIT // m units each

# BaseHand indexes in the shape table (classic precedence, as BaseHand lists them)
FIVE, STRAIGHT_FLUSH, FOUR, FULL_HOUSE, FLUSH, STRAIGHT, THREE, TWO_PAIR, PAIR, HIGH = range(10)


@njit(cache=True, inline="always")
def _sort5(a: int, b: int, c: int, d: int, e: int) -> tuple[int, int, int, int, int]:
    """The five values, highest first (a 9-comparator sorting network, branch-free:
    min/max compile to conditional moves, random hands would mispredict branches)."""
    a, b = max(a, b), min(a, b)
    d, e = max(d, e), min(d, e)
    c, e = max(c, e), min(c, e)
    c, d = max(c, d), min(c, d)
    a, d = max(a, d), min(a, d)
    a, c = max(a, c), min(a, c)
    b, e = max(b, e), min(b, e)
    b, d = max(b, d), min(b, d)
    b, c = max(b, c), min(b, c)
    return a, b, c, d, e


@njit(cache=True, inline="always")
def _base(
    r0: int,
    r1: int,
    r2: int,
    r3: int,
    r4: int,
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    c4: int,
    suit_of: Array,
    mixbit: Array,
    heights: Array,
    straights: Array,
    by_eq: Array,
) -> Any:  # pragma: no cover - compiled
    """(base hand index, is_mixwell, straight height) of five cards, branch-free
    where it matters: random hands would mispredict a chain of ifs."""
    eq = (
        (r0 == r1) + (r0 == r2) + (r0 == r3) + (r0 == r4) + (r1 == r2)
        + (r1 == r3) + (r1 == r4) + (r2 == r3) + (r2 == r4) + (r3 == r4)
    )  # fmt: skip
    mix = mixbit[c0] | mixbit[c1] | mixbit[c2] | mixbit[c3] | mixbit[c4]
    is_mix = 1 if _popcount(mix) == 5 else 0  # mixbit is 0 off the Mixwell suits
    mask = (1 << r0) | (1 << r1) | (1 << r2) | (1 << r3) | (1 << r4)
    if heights.shape[0] > 0:
        height = heights[mask]
    else:
        height = 0
        for i in range(straights.shape[0]):
            if straights[i] == mask:
                height = i + 1
    s0 = suit_of[c0]
    flush = (s0 == suit_of[c1]) & (s0 == suit_of[c2]) & (s0 == suit_of[c3]) & (s0 == suit_of[c4])
    # by_eq[eq] for eq > 0; rows 11..14 for five distinct ranks: straight? flush?
    row = eq + (eq == 0) * (11 + (height > 0) * 2 + flush)
    return by_eq[row], is_mix, height


@njit(cache=True, inline="always")
def _eval5(
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    c4: int,
    rank_of: Array,
    suit_of: Array,
    sstr: Array,
    mixbit: Array,
    heights: Array,
    pos: Array,
    straights: Array,
    prefix: Array,
    slay: Array,
    by_eq: Array,
) -> Any:  # pragma: no cover
    """The key of five cards (see :mod:`cardlab.poker.keys`)."""
    r0, r1, r2, r3, r4 = rank_of[c0], rank_of[c1], rank_of[c2], rank_of[c3], rank_of[c4]
    base, is_mix, height = _base(
        r0, r1, r2, r3, r4, c0, c1, c2, c3, c4, suit_of, mixbit, heights, straights, by_eq
    )
    m0 = (r0 == r1) + (r0 == r2) + (r0 == r3) + (r0 == r4) + 1
    m1 = (r1 == r0) + (r1 == r2) + (r1 == r3) + (r1 == r4) + 1
    m2 = (r2 == r0) + (r2 == r1) + (r2 == r3) + (r2 == r4) + 1
    m3 = (r3 == r0) + (r3 == r1) + (r3 == r2) + (r3 == r4) + 1
    m4 = (r4 == r0) + (r4 == r1) + (r4 == r2) + (r4 == r3) + 1
    key = prefix[base, is_mix]
    if slay[base, is_mix] and height > 0:
        # a straight runs from its top card down: order by place in the straight
        h = height - 1
        v = _sort5(
            pos[h, r0] << 5 | sstr[c0],
            pos[h, r1] << 5 | sstr[c1],
            pos[h, r2] << 5 | sstr[c2],
            pos[h, r3] << 5 | sstr[c3],
            pos[h, r4] << 5 | sstr[c4],
        )
        key |= height << 40
        key |= (v[0] & 31) << 16 | (v[1] & 31) << 12 | (v[2] & 31) << 8
        key |= (v[3] & 31) << 4 | (v[4] & 31)
        return key
    v = _sort5(
        m0 << 10 | r0 << 5 | sstr[c0],
        m1 << 10 | r1 << 5 | sstr[c1],
        m2 << 10 | r2 << 5 | sstr[c2],
        m3 << 10 | r3 << 5 | sstr[c3],
        m4 << 10 | r4 << 5 | sstr[c4],
    )
    key |= ((v[0] >> 5 & 31) + 1) << 40 | ((v[1] >> 5 & 31) + 1) << 35
    key |= ((v[2] >> 5 & 31) + 1) << 30 | ((v[3] >> 5 & 31) + 1) << 25
    key |= ((v[4] >> 5 & 31) + 1) << 20
    key |= (v[0] & 31) << 16 | (v[1] & 31) << 12 | (v[2] & 31) << 8
    key |= (v[3] & 31) << 4 | (v[4] & 31)
    return key


@njit(cache=True, inline="always")
def _popcount(x: int) -> Any:  # pragma: no cover - compiled
    """Bits set in a value below 2**32, without a data-dependent loop."""
    x = x - ((x >> 1) & 0x55555555)
    x = (x & 0x33333333) + ((x >> 2) & 0x33333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F
    return ((x * 0x01010101) & 0xFFFFFFFF) >> 24


@njit(cache=True)
def eval5_many(codes: Array, t: Tables) -> Array:  # pragma: no cover - compiled
    """Keys of many five-card hands (rows of ``codes``)."""
    rank_of, suit_of, sstr, mixbit, heights, pos, straights, prefix, slay, by_eq = t
    out = np.empty(codes.shape[0], np.int64)
    for i in range(codes.shape[0]):
        out[i] = _eval5(
            codes[i, 0],
            codes[i, 1],
            codes[i, 2],
            codes[i, 3],
            codes[i, 4],
            rank_of,
            suit_of,
            sstr,
            mixbit,
            heights,
            pos,
            straights,
            prefix,
            slay,
            by_eq,
        )
    return out


@njit(cache=True, inline="always")
def _prefix5(
    c0: int,
    c1: int,
    c2: int,
    c3: int,
    c4: int,
    rank_of: Array,
    suit_of: Array,
    sstr: Array,
    mixbit: Array,
    heights: Array,
    pos: Array,
    straights: Array,
    prefix: Array,
    slay: Array,
    by_eq: Array,
) -> Any:  # pragma: no cover
    """The category and secondary fields of the key alone (no sorting): enough to
    skip a five that cannot beat the best so far."""
    r0, r1, r2, r3, r4 = rank_of[c0], rank_of[c1], rank_of[c2], rank_of[c3], rank_of[c4]
    base, is_mix, _ = _base(
        r0, r1, r2, r3, r4, c0, c1, c2, c3, c4, suit_of, mixbit, heights, straights, by_eq
    )
    return prefix[base, is_mix]


@njit(cache=True)
def _best(
    cards: Array,
    subsets: Array,
    rank_of: Array,
    suit_of: Array,
    sstr: Array,
    mixbit: Array,
    heights: Array,
    pos: Array,
    straights: Array,
    prefix: Array,
    slay: Array,
    by_eq: Array,
) -> Any:  # pragma: no cover - compiled
    """The best key among the allowed fives (rows of ``subsets`` index ``cards``).

    Each five's category is found first; only fives whose category and secondary can
    match the best so far are fully keyed (the sort of the tie-break fields)."""
    best = 0
    floor = 0
    for i in range(subsets.shape[0]):
        s = subsets[i]
        a, b, c, d, e = cards[s[0]], cards[s[1]], cards[s[2]], cards[s[3]], cards[s[4]]
        if (
            _prefix5(
                a,
                b,
                c,
                d,
                e,
                rank_of,
                suit_of,
                sstr,
                mixbit,
                heights,
                pos,
                straights,
                prefix,
                slay,
                by_eq,
            )
            < floor
        ):
            continue
        k = _eval5(
            a,
            b,
            c,
            d,
            e,
            rank_of,
            suit_of,
            sstr,
            mixbit,
            heights,
            pos,
            straights,
            prefix,
            slay,
            by_eq,
        )
        if k > best:
            best = k
            floor = k >> 45 << 45
    return best


@njit(cache=True)
def best_many(cards: Array, subsets: Array, t: Tables) -> Array:  # pragma: no cover
    """Best keys of many card rows (each row: a player's hole cards then the board)."""
    rank_of, suit_of, sstr, mixbit, heights, pos, straights, prefix, slay, by_eq = t
    out = np.empty(cards.shape[0], np.int64)
    for i in range(cards.shape[0]):
        out[i] = _best(
            cards[i],
            subsets,
            rank_of,
            suit_of,
            sstr,
            mixbit,
            heights,
            pos,
            straights,
            prefix,
            slay,
            by_eq,
        )
    return out


@njit(cache=True)
def _tally(keys: Array, out: Array) -> None:  # pragma: no cover - compiled
    """Add one showdown to ``out`` rows (wins, ties, shares, shares squared)."""
    n = keys.shape[0]
    top = keys[0]
    for p in range(1, n):
        if keys[p] > top:
            top = keys[p]
    winners = 0
    for p in range(n):
        if keys[p] == top:
            winners += 1
    share = SHARE_UNIT // winners
    for p in range(n):
        if keys[p] == top:
            if winners == 1:
                out[0, p] += 1
            else:
                out[1, p] += 1
            out[2, p] += share
            out[3, p] += share * share


@njit(cache=True, parallel=True)
def exact_board(
    hole: Array, board: Array, rest: Array, deal: int, subsets: Array, t: Tables
) -> Array:  # pragma: no cover - compiled
    """Tallies over every way to complete the board with ``deal`` cards of ``rest``.

    ``hole``: players x hole cards; ``board``: the known board cards. Returns a 4 x
    players array: sole wins, shared wins, pot shares (in SHARE_UNIT), shares squared.
    """
    rank_of, suit_of, sstr, mixbit, heights, pos, straights, prefix, slay, by_eq = t
    players, h = hole.shape
    n = rest.shape[0]
    nb = board.shape[0]
    width = h + nb + deal
    if deal == 0:
        out = np.zeros((4, players), np.int64)
        cards = np.empty((players, width), np.int64)
        keys = np.empty(players, np.int64)
        for p in range(players):
            cards[p, :h] = hole[p]
            cards[p, h:] = board
            keys[p] = _best(
                cards[p],
                subsets,
                rank_of,
                suit_of,
                sstr,
                mixbit,
                heights,
                pos,
                straights,
                prefix,
                slay,
                by_eq,
            )
        _tally(keys, out)
        return out
    firsts = n - deal + 1
    parts = np.zeros((max(firsts, 1), 4, players), np.int64)
    for f in prange(firsts):
        out = parts[f]
        cards = np.empty((players, width), np.int64)
        for p in range(players):
            cards[p, :h] = hole[p]
            cards[p, h : h + nb] = board
            cards[p, h + nb] = rest[f]
        keys = np.empty(players, np.int64)
        idx = np.empty(deal, np.int64)
        k = deal - 1  # cards after the first
        for j in range(k):
            idx[j] = f + 1 + j
        while True:
            if k == 0 or idx[k - 1] < n:
                for p in range(players):
                    for j in range(k):
                        cards[p, h + nb + 1 + j] = rest[idx[j]]
                    keys[p] = _best(
                        cards[p],
                        subsets,
                        rank_of,
                        suit_of,
                        sstr,
                        mixbit,
                        heights,
                        pos,
                        straights,
                        prefix,
                        slay,
                        by_eq,
                    )
                _tally(keys, out)
            if k == 0:
                break
            # next combination of k indexes in f+1 .. n-1
            j = k - 1
            while j >= 0 and idx[j] == n - k + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for i in range(j + 1, k):
                idx[i] = idx[i - 1] + 1
    total = np.zeros((4, players), np.int64)
    for f in range(firsts):
        total += parts[f]
    return total


@njit(cache=True, inline="always")
def _next(state: Array) -> Any:
    """xorshift64*: the next 64-bit value of the block's generator (state[0])."""
    x = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * np.uint64(2685821657736338717)


@njit(cache=True, inline="always")
def _below(state: Array, n: int) -> int:
    """A uniform integer in 0 .. n-1 (53 high bits, multiply-shift)."""
    u = _next(state) >> np.uint64(11)
    return int((np.float64(u) * (1.0 / 9007199254740992.0)) * n)


@njit(cache=True, parallel=True)
def monte_carlo(
    combos: Array,
    n_combos: Array,
    board: Array,
    base_used: Array,
    deck_size: int,
    subsets: Array,
    t: Tables,
    seeds: Array,
    trials: int,
) -> Array:  # pragma: no cover - compiled
    """Tallies of ``trials`` random deals in each of ``len(seeds)`` blocks.

    ``combos``: players x combos x hole cards, -1 for a hole card dealt at random;
    each trial picks one combo per player uniformly (again if cards collide). ``board``:
    the board, -1 for a card dealt at random. ``base_used``: 1 for cards out of play
    (dead cards, known board cards). Returns 4 x players (see :func:`exact_board`) and
    a trailing count of rejected combo picks in ``[4, 0]``.
    """
    rank_of, suit_of, sstr, mixbit, heights, pos, straights, prefix, slay, by_eq = t
    players, _, h = combos.shape
    nb = board.shape[0]
    blocks = seeds.shape[0]
    parts = np.zeros((blocks, 5, players), np.int64)
    for b in prange(blocks):
        state = np.empty(1, np.uint64)
        state[0] = np.uint64(seeds[b]) | np.uint64(1)
        used = np.zeros(deck_size, np.int64)  # == stamp: in play this trial
        cards = np.empty((players, h + nb), np.int64)
        keys = np.empty(players, np.int64)
        out = parts[b, :4]
        stamp = 0
        done = 0
        while done < trials:
            stamp += 1
            ok = True
            for p in range(players):
                pick = _below(state, n_combos[p])
                for j in range(h):
                    c = combos[p, pick, j]
                    if c >= 0:
                        if used[c] == stamp or base_used[c]:
                            ok = False
                        used[c] = stamp
                    cards[p, j] = c
            if not ok:
                parts[b, 4, 0] += 1
                continue
            for j in range(nb):
                c = board[j]
                if c < 0:
                    c = _below(state, deck_size)
                    while used[c] == stamp or base_used[c]:
                        c = _below(state, deck_size)
                    used[c] = stamp
                for p in range(players):
                    cards[p, h + j] = c
            for p in range(players):
                for j in range(h):
                    if cards[p, j] < 0:
                        c = _below(state, deck_size)
                        while used[c] == stamp or base_used[c]:
                            c = _below(state, deck_size)
                        used[c] = stamp
                        cards[p, j] = c
                keys[p] = _best(
                    cards[p],
                    subsets,
                    rank_of,
                    suit_of,
                    sstr,
                    mixbit,
                    heights,
                    pos,
                    straights,
                    prefix,
                    slay,
                    by_eq,
                )
            _tally(keys, out)
            done += 1
    total = np.zeros((5, players), np.int64)
    for b in range(blocks):
        total += parts[b]
    return total


@njit(cache=True, parallel=True)
def draw_outcomes(
    kept: Array, rest: Array, deal: int, threshold: int, t: Tables
) -> Array:  # pragma: no cover - compiled
    """For ``kept`` cards plus every ``deal``-card draw from ``rest``: how many draws
    give a key >= ``threshold``, and how many there are, per first drawn card."""
    rank_of, suit_of, sstr, mixbit, heights, pos, straights, prefix, slay, by_eq = t
    n = rest.shape[0]
    nk = kept.shape[0]
    if deal == 0:
        k = _eval5(
            kept[0],
            kept[1],
            kept[2],
            kept[3],
            kept[4],
            rank_of,
            suit_of,
            sstr,
            mixbit,
            heights,
            pos,
            straights,
            prefix,
            slay,
            by_eq,
        )
        res = np.zeros(2, np.int64)
        res[0] = 1 if k >= threshold else 0
        res[1] = 1
        return res
    firsts = n - deal + 1
    parts = np.zeros((firsts, 2), np.int64)
    for f in prange(firsts):
        hand = np.empty(5, np.int64)
        for j in range(nk):
            hand[j] = kept[j]
        hand[nk] = rest[f]
        k = deal - 1
        idx = np.empty(max(k, 1), np.int64)
        for j in range(k):
            idx[j] = f + 1 + j
        while True:
            if k == 0 or idx[k - 1] < n:
                for j in range(k):
                    hand[nk + 1 + j] = rest[idx[j]]
                key = _eval5(
                    hand[0],
                    hand[1],
                    hand[2],
                    hand[3],
                    hand[4],
                    rank_of,
                    suit_of,
                    sstr,
                    mixbit,
                    heights,
                    pos,
                    straights,
                    prefix,
                    slay,
                    by_eq,
                )
                if key >= threshold:
                    parts[f, 0] += 1
                parts[f, 1] += 1
            if k == 0:
                break
            j = k - 1
            while j >= 0 and idx[j] == n - k + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for i in range(j + 1, k):
                idx[i] = idx[i - 1] + 1
    res = np.zeros(2, np.int64)
    for f in range(firsts):
        res += parts[f]
    return res
