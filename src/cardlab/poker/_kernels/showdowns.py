"""Compiled showdown loops behind :mod:`cardlab.poker.equity` and :mod:`~cardlab.poker.draw`
(private).

Each player's key comes from the batch evaluator's per-hand kernels
(:func:`key_of`): the hashed best five of k (:func:`~.hashed.hand_key`), the hashed
Omaha 2 + 3 (:func:`~.omaha.omaha_key`), or, where those are not exact for the rule
set, the plain best of every allowed five (:func:`~.five.key5`) - the same choice
:func:`cardlab.poker.batch.method_for` makes (``KernelScalars.method``). The poker
layer builds what they read (:mod:`.bundle`) through :class:`cardlab.poker.plan.KernelPlan`.

The enumerator walks every remaining board inside the compiled code (no board arrays: 16 M
boards of FESCA78 would need hundreds of megabytes), split over threads by the board's
first two cards, shuffled so that every thread gets a fair share. Monte Carlo is in
:mod:`.sampling`.

Counts are int64 tallies (:mod:`.tally`): split-pot shares are counted in units of
``1/SHARE_UNIT`` of a pot (``SHARE_UNIT`` = lcm(1..10)), so an equity is an exact
fraction of integers.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from cardlab.poker._kernels.bundle import (
    HASHED,
    OMAHA,
    SUBSETS,
    KernelArrays,
    KernelScalars,
    LookupArrays,
    lookup_arrays,
    omaha_arrays,
)
from cardlab.poker._kernels.five import key5_inline
from cardlab.poker._kernels.hashed import hand_key, plan_suits, rare
from cardlab.poker._kernels.omaha import PARTS_ROWS, omaha_key, omaha_key_of
from cardlab.poker._kernels.tally import SHARE_UNIT, next_combination, tally

Array = Any  # numpy arrays typed loosely: numba-compiled code

__all__ = [
    "HASHED",
    "OMAHA",
    "SHARE_UNIT",
    "SUBSETS",
    "draw_outcomes",
    "exact_units",
    "key_of",
    "subsets_key",
]


@njit(cache=True, inline="always")
def key_of(
    row: Array, mix_of: Array, parts: Array, arr: KernelArrays, sc: KernelScalars
) -> int:  # pragma: no cover - compiled
    """The key of one player's cards ``row`` (hole cards, then the board) by the
    method ``sc.method``. ``mix_of``: int64 scratch of 16; ``parts``: int64 scratch of
    (PARTS_ROWS, 5)."""
    k = row.shape[0]
    method = sc.method
    if method == HASHED:
        per_card = arr.per_card
        total = 0
        w0 = 0
        w1 = 0
        for j in range(k):
            c = row[j]
            total += per_card[c, 0]
            if sc.suits_count:
                w0 |= per_card[c, 1]
                w1 |= per_card[c, 2]
        return hand_key(row, k, total, w0, w1, mix_of, arr, sc)
    if method == OMAHA:
        return omaha_key(row, parts, arr, sc)
    return subsets_key(row, arr)


@njit(cache=True, inline="always")
def subsets_key(row: Array, arr: KernelArrays) -> int:  # pragma: no cover - compiled
    """The key of ``row`` by the subsets path: the best of every allowed five
    (``arr.choices``, by :func:`~.five.key5`)."""
    best = -1
    choices = arr.choices
    for j in range(choices.shape[0]):
        key, _ = key5_inline(
            row[choices[j, 0]],
            row[choices[j, 1]],
            row[choices[j, 2]],
            row[choices[j, 3]],
            row[choices[j, 4]],
            arr.cards,
            arr.shapes,
            arr.straights,
            arr.heights,
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
    arr: KernelArrays,
    sc: KernelScalars,
    lookup: LookupArrays,
) -> int:  # pragma: no cover - compiled
    """The hashed key of player ``p``'s cards ``rows[p]`` from their sums (see
    :func:`~.hashed.hand_key`): the lookup and the suits here, and only when a flush or a
    Mixwell may be among them the full :func:`~.hashed.hand_key` (which reads the row;
    taking the row costs more than the lookup). ``lookup``:
    :func:`~.bundle.lookup_arrays` of ``arr``, taken out once per loop: reading an array
    out of ``arr`` counts a reference on it, and threads counting on the same arrays slow
    each other down many times over."""
    suit_shift = sc.suit_shift
    if rare(total >> suit_shift, sc):
        return hand_key(rows[p], rows.shape[1], total, w0, w1, mix_of, arr, sc)
    n_lo_bits = sc.n_lo_bits
    hi = lookup.hi_index[total >> n_lo_bits & ((1 << (suit_shift - n_lo_bits)) - 1)]
    place = hi + lookup.lo_index[total & ((1 << n_lo_bits) - 1)]
    key = lookup.rank_keys[place]
    if sc.suits_count:
        key |= plan_suits(lookup.suit_plan[place], w0, w1, lookup.top_suits)
    return int(key)


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
    arr: KernelArrays,
    sc: KernelScalars,
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
    per_card = arr.per_card
    method = sc.method
    hashed = method == HASHED
    suits_count = sc.suits_count
    lookup = lookup_arrays(arr)
    oa = omaha_arrays(arr)
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
                        arr,
                        sc,
                        lookup,
                    )
            elif method == OMAHA:  # the arrays taken out of arr once (see lookup_arrays)
                for p in range(players):
                    keys[p] = omaha_key_of(rows[p], scratch, sc, oa)
            else:
                for p in range(players):
                    keys[p] = key_of(rows[p], mix_of, scratch, arr, sc)
            tally(keys, 1, out)
        if k == 0:
            break
        changed = next_combination(idx, k, n)  # k indexes in start .. n-1
        if changed < 0:
            break


@njit(cache=True, parallel=True)
def exact_units(
    holes: Array,
    board: Array,
    rests: Array,
    deal: int,
    tasks: Array,
    units: Array,
    arr: KernelArrays,
    sc: KernelScalars,
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
            arr,
            sc,
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
    batch kernel look-ups (:class:`~cardlab.poker._kernels.rule_arrays.KernelLookups`)."""
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
            if k == 0 or next_combination(idx, k, n) < 0:
                break
    res = np.zeros(2, np.int64)
    for f in range(firsts):
        res += parts[f]
    return res
