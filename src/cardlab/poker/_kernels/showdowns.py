"""Compiled showdown loops behind :mod:`cardlab.poker.equity` and :mod:`~cardlab.poker.draw`
(private).

Each player's key comes from the batch evaluator's per-hand kernels
(:func:`key_of`): the hashed best five of k (:func:`~.hashed.hand_key`), the hashed
Omaha 2 + 3 (:func:`~.omaha.omaha_key`), or, where those are not exact for the rule
set, the plain best of every allowed five (:func:`~.five.key5`) - the same choice
:func:`cardlab.poker.batch.method_for` makes. :func:`showdown_tables` bundles what they
read (:class:`~.bundle.KeyTables`).

The enumerator walks every remaining board inside the compiled code (no board arrays: 16 M
boards of FESCA78 would need hundreds of megabytes), split over threads by the board's
first two cards, shuffled so that every thread gets a fair share. Monte Carlo is in
:mod:`.sampling`.

Counts are int64: split-pot shares are counted in units of ``1/SHARE_UNIT`` of a pot
(``SHARE_UNIT`` = lcm(1..10)), so an equity is an exact fraction of integers.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit, prange

from cardlab.poker._kernels.bundle import KeyTables, key_tables
from cardlab.poker._kernels.five import key5_inline, nibble_sum, nonzero_nibbles
from cardlab.poker._kernels.hashed import hand_key, plan_suits
from cardlab.poker._kernels.omaha import (
    PARTS_ROWS,
    omaha_arrays,
    omaha_ints,
    omaha_key,
    omaha_key_of,
)
from cardlab.poker._kernels.rule_arrays import left_out

if TYPE_CHECKING:
    from cardlab.poker.games import Game

Array = Any  # numpy arrays typed loosely: numba-compiled code

SHARE_UNIT = 2520  # lcm(1..10): a pot split m ways is SHARE_UNIT // m units each
_SHARES = np.array([0] + [SHARE_UNIT // m for m in range(1, 11)], np.int64)  # by winners
SUBSETS, HASHED, OMAHA = 0, 1, 2  # how a player's key is found
# keys per second on one core of each method in the exact loops, rounded down from
# benchmarks/equity.py (the largest decks): for estimates before the work, not promises
_KEYS_PER_SECOND = (1_000_000, 20_000_000, 2_000_000)


def keys_per_second(method: int) -> float:
    """A conservative rate of :func:`exact_units` for ``method``, in player keys a
    second on one core (to estimate the work before it starts)."""
    return float(_KEYS_PER_SECOND[method])


@lru_cache(maxsize=64)
def showdown_tables(game: Game) -> tuple[int, KeyTables]:
    """(method, tables) for the players' keys of a game: the batch evaluator's fastest
    exact kernel (:func:`~cardlab.poker.batch.method_for`) and the arrays it reads."""
    from cardlab.poker.batch import hash_tables, kernel_tables, method_for, omaha_tables

    rules, base = game.rules, game.base
    k = base.hole_cards + base.board_cards
    omaha = base.hole_used is not None  # exactly so many hole cards: the omaha kernel's 2 + 3
    kt = kernel_tables(rules)
    fast = method_for(rules, k, "omaha" if omaha else "best") == "hashed" and (
        not omaha or (base.hole_cards, base.board_cards, base.hole_used) == (4, 5, 2)
    )
    h = hash_tables(rules, 5 if omaha else k) if fast else None
    method = SUBSETS if h is None else OMAHA if omaha else HASHED
    choices = np.array(base.five_card_choices(base.hole_cards, base.board_cards), np.int64)
    extra = omaha_tables(rules) if method == OMAHA and h is not None else None
    tables = key_tables(kt, h, choices, left_out(5 if omaha else k), extra)
    return method, tables


@njit(cache=True, inline="always")
def key_of(
    row: Array, method: int, mix_of: Array, parts: Array, t: KeyTables
) -> int:  # pragma: no cover - compiled
    """The key of one player's cards ``row`` (hole cards, then the board).
    ``mix_of``: int64 scratch of 16; ``parts``: int64 scratch of (PARTS_ROWS, 5)."""
    k = row.shape[0]
    if method == HASHED:
        per_card = t.per_card
        total = 0
        w0 = 0
        w1 = 0
        for j in range(k):
            c = row[j]
            total += per_card[c, 0]
            if t.suits_count:
                w0 |= per_card[c, 1]
                w1 |= per_card[c, 2]
        return hand_key(row, k, total, w0, w1, mix_of, t)
    if method == OMAHA:
        return omaha_key(row, parts, t)
    best = -1
    choices = t.choices
    for j in range(choices.shape[0]):
        key, _ = key5_inline(
            row[choices[j, 0]],
            row[choices[j, 1]],
            row[choices[j, 2]],
            row[choices[j, 3]],
            row[choices[j, 4]],
            t.cards,
            t.shapes,
            t.straights,
            t.heights,
        )
        best = max(best, key)
    return best


@njit(cache=True, inline="always")
def _dealt_key(
    rows: Array,
    p: int,
    total: int,
    w0: int,
    w1: int,
    mix_of: Array,
    t: KeyTables,
    lookup: tuple[Array, Array, Array, Array, Array],
) -> int:  # pragma: no cover - compiled
    """The hashed key of player ``p``'s cards ``rows[p]`` from their sums (see
    :func:`~.hashed.hand_key`): the lookup and the suits here, and only when a flush or a
    Mixwell may be among them the full :func:`~.hashed.hand_key` (which reads the row;
    taking the row costs more than the lookup). ``lookup``: :func:`_lookup_arrays` of
    ``t``, taken out once per loop: reading an array out of ``t`` counts a reference on
    it, and threads counting on the same arrays slow each other down many times over."""
    rank_keys, hi_index, lo_index, suit_plan, top_suits = lookup
    suit_shift = t.suit_shift
    flush_test = t.flush_test
    suits = total >> suit_shift
    if (suits + flush_test) & ((flush_test // 3) << 3) or (
        t.mixwell and nibble_sum(nonzero_nibbles(suits) & t.mix_suits) >= 5
    ):
        return hand_key(rows[p], rows.shape[1], total, w0, w1, mix_of, t)
    n_lo_bits = t.n_lo_bits
    hi = hi_index[total >> n_lo_bits & ((1 << (suit_shift - n_lo_bits)) - 1)]
    place = hi + lo_index[total & ((1 << n_lo_bits) - 1)]
    key = rank_keys[place]
    if t.suits_count:
        key |= plan_suits(suit_plan[place], w0, w1, top_suits)
    return int(key)


@njit(cache=True, inline="always")
def _lookup_arrays(t: KeyTables) -> tuple[Array, Array, Array, Array, Array]:
    """The arrays :func:`_dealt_key` reads on every key."""
    return (t.rank_keys, t.hi_index, t.lo_index, t.suit_plan, t.top_suits)


@njit(cache=True, inline="always")
def _tally(keys: Array, out: Array) -> None:  # pragma: no cover - compiled
    """Add one showdown to ``out`` rows (wins, ties, shares, shares squared)."""
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
    if winners == 1:  # the common case: no split, no division
        out[0, first] += 1
        out[2, first] += SHARE_UNIT
        out[3, first] += SHARE_UNIT * SHARE_UNIT
        return
    share = _SHARES[winners]
    for p in range(first, n):
        if keys[p] == top:
            out[1, p] += 1
            out[2, p] += share
            out[3, p] += share * share


def board_tasks(n: int, deal: int) -> Array:
    """The enumeration's units of work: every choice of the first one or two dealt cards
    (indexes into the ``n`` cards left), shuffled with a fixed seed so that each thread's
    contiguous share holds big and small ones alike. Rows: (first, second or -1)."""
    if deal <= 1:
        rows = [(f, -1) for f in range(n - deal + 1)] if deal else [(-1, -1)]
    else:
        rows = [(f, s) for f in range(n) for s in range(f + 1, n) if n - s - 1 >= deal - 2]
    tasks = np.array(rows, np.int64).reshape(len(rows), 2)
    return tasks[np.random.default_rng(0).permutation(len(tasks))]


@njit(cache=True, inline="always")
def _walk_task(
    hole: Array,
    board: Array,
    rest: Array,
    deal: int,
    first: int,
    second: int,
    method: int,
    t: KeyTables,
    out: Array,
) -> None:  # pragma: no cover - compiled
    """Adds to ``out`` every board that deals ``rest[first]``, ``rest[second]`` (-1: not
    fixed) and the rest of its ``deal`` cards from the cards of ``rest`` after them.

    The boards come in combination order, so from one board to the next only the cards
    from some position on change: each player's row and, for the hashed path, the running
    sums of the dealt cards' hash digits and suit boards are updated from that position
    only, and a player's total is the sum of its fixed cards plus the board's."""
    players, h = hole.shape
    n = rest.shape[0]
    nb = board.shape[0]
    width = h + nb + deal
    per_card = t.per_card
    hashed = method == HASHED
    suits_count = t.suits_count
    lookup = _lookup_arrays(t)
    o_ints = omaha_ints(t)
    o_arrays = omaha_arrays(t)
    rows = np.empty((players, width), np.int64)
    keys = np.empty(players, np.int64)
    mix_of = np.zeros(16, np.int64)
    scratch = np.zeros((PARTS_ROWS, 5), np.int64)
    fixed_sum = np.zeros((players, 3), np.int64)  # hole, known board and fixed cards
    for p in range(players):
        rows[p, :h] = hole[p]
        rows[p, h : h + nb] = board
    fixed = 0  # dealt cards fixed by the task
    start = 0  # the other dealt cards come from rest[start:]
    for f in (first, second):
        if f >= 0:
            for p in range(players):
                rows[p, h + nb + fixed] = rest[f]
            fixed += 1
            start = f + 1
    if hashed:
        for p in range(players):
            for j in range(h + nb + fixed):
                c = rows[p, j]
                fixed_sum[p, 0] += per_card[c, 0]
                fixed_sum[p, 1] |= per_card[c, 1]
                fixed_sum[p, 2] |= per_card[c, 2]
    k = deal - fixed  # cards dealt in the loop below
    pos = h + nb + fixed
    idx = np.empty(max(k, 1), np.int64)
    run = np.zeros((max(k, 1) + 1, 3), np.int64)  # run[j + 1]: sums of dealt cards 0..j
    for j in range(k):
        idx[j] = start + j
    changed = 0  # dealt positions from here on are new
    while True:
        if k == 0 or idx[k - 1] < n:
            for j in range(changed, k):
                c = rest[idx[j]]
                for p in range(players):
                    rows[p, pos + j] = c
                run[j + 1, 0] = run[j, 0] + per_card[c, 0]
                if suits_count:
                    run[j + 1, 1] = run[j, 1] | per_card[c, 1]
                    run[j + 1, 2] = run[j, 2] | per_card[c, 2]
            if hashed:
                for p in range(players):
                    keys[p] = _dealt_key(
                        rows,
                        p,
                        fixed_sum[p, 0] + run[k, 0],
                        fixed_sum[p, 1] | run[k, 1],
                        fixed_sum[p, 2] | run[k, 2],
                        mix_of,
                        t,
                        lookup,
                    )
            elif method == OMAHA:  # the arrays taken out of t once (see _lookup_arrays)
                for p in range(players):
                    keys[p] = omaha_key_of(rows[p], scratch, o_ints, o_arrays)
            else:
                for p in range(players):
                    keys[p] = key_of(rows[p], method, mix_of, scratch, t)
            _tally(keys, out)
        if k == 0:
            break
        # next combination of k indexes in start .. n-1
        j = k - 1
        while j >= 0 and idx[j] == n - k + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for i in range(j + 1, k):
            idx[i] = idx[i - 1] + 1
        changed = j


@njit(cache=True, parallel=True)
def exact_units(
    holes: Array,
    board: Array,
    rests: Array,
    deal: int,
    tasks: Array,
    units: Array,
    method: int,
    t: KeyTables,
) -> Array:  # pragma: no cover - compiled
    """Tallies over every way to complete the board with ``deal`` cards, for the given
    units of work (split over threads).

    ``holes``: assignments x players x hole cards; ``rests``: assignments x cards left
    (as many for each); ``board``: the known board cards; ``tasks``: from
    :func:`board_tasks`; ``units[u]``: (assignment, task). The caller hands the units over
    in chunks, so that Ctrl-C and progress get a turn between them. Returns a 4 x players
    array: sole wins, shared wins, pot shares (in SHARE_UNIT), shares squared.
    """
    players = holes.shape[1]
    n_units = units.shape[0]
    parts_out = np.zeros((n_units, 4, players), np.int64)
    for u in prange(n_units):
        a = units[u, 0]
        task = units[u, 1]
        _walk_task(
            holes[a],
            board,
            rests[a],
            deal,
            tasks[task, 0],
            tasks[task, 1],
            method,
            t,
            parts_out[u],
        )
    total = np.zeros((4, players), np.int64)
    for u in range(n_units):
        total += parts_out[u]
    return total


@njit(cache=True, parallel=True)
def draw_outcomes(
    kept: Array,
    rest: Array,
    deal: int,
    threshold: int,
    cards: Array,
    shapes: Array,
    straights: Array,
    heights: Array,
) -> Array:  # pragma: no cover - compiled
    """For ``kept`` cards plus every ``deal``-card draw from ``rest``: how many draws
    give a key >= ``threshold``, and how many there are. ``cards`` ... ``heights``: the
    batch kernel tables (:class:`~cardlab.poker._kernels.rule_arrays.KernelTables`)."""
    n = rest.shape[0]
    nk = kept.shape[0]
    if deal == 0:
        k, _ = key5_inline(
            kept[0], kept[1], kept[2], kept[3], kept[4], cards, shapes, straights, heights
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
                key, _ = key5_inline(
                    hand[0], hand[1], hand[2], hand[3], hand[4], cards, shapes, straights, heights
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
