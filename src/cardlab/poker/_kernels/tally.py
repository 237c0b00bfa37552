"""What every exact and sampled loop shares: the showdown tally and the walks over
combinations (private).

A tally is a 4 x players int64 array: sole wins, shared wins, pot shares in units of
``1/SHARE_UNIT`` of a pot (``SHARE_UNIT`` = lcm(1..10), so a pot split m ways is a whole
number of units each and an equity an exact fraction) and shares squared (for the
standard error).

The walks step an index array to the next choice in place and return the first
position that changed (-1 after the last), so that a loop updates what it derived from
the positions from there on only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

Array = Any

SHARE_UNIT = 2520  # lcm(1..10): a pot split m ways is SHARE_UNIT // m units each
SHARES = np.array([0] + [SHARE_UNIT // m for m in range(1, 11)], np.int64)  # by winners


@njit(cache=True)
def store(out: Array, part: Array) -> None:  # pragma: no cover - compiled
    """``part[:4] = out`` (a 4 x players tally), element by element: a slice assignment
    compiles numba's message for mismatched shapes with it (2 s of CPU on a first run)."""
    for i in range(out.shape[0]):
        for p in range(out.shape[1]):
            part[i, p] = out[i, p]


@njit(cache=True, inline="always")
def tally(keys: Array, weight: int, out: Array) -> bool:  # pragma: no cover - compiled
    """Add ``weight`` showdowns with these keys to ``out`` (``weight`` may be negative:
    a count taken back). True when two players or more share the top."""
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
        out[0, first] += weight
        out[2, first] += weight * SHARE_UNIT
        out[3, first] += weight * SHARE_UNIT * SHARE_UNIT
        return False
    share = SHARES[winners]
    for p in range(first, n):
        if keys[p] == top:
            out[1, p] += weight
            out[2, p] += weight * share
            out[3, p] += weight * share * share
    return True


@njit(cache=True, inline="always")
def tally_top(
    keys: Array, top: int, first: int, n_top: int, out: Array
) -> None:  # pragma: no cover - compiled
    """:func:`tally` of one showdown whose top key ``top``, first player holding it
    ``first`` and number of players holding it ``n_top`` are known already (found while
    the keys were made). The Monte Carlo loops pass borrowed views
    (:func:`~.sharing.borrowed`): with arrays that have an owner, numba's reference
    counting around the call took 40% of the loop's time."""
    if n_top == 1:  # the common case: no split, no division
        out[0, first] += 1
        out[2, first] += SHARE_UNIT
        out[3, first] += SHARE_UNIT * SHARE_UNIT
        return
    share = SHARES[n_top]
    for p in range(first, keys.shape[0]):
        if keys[p] == top:
            out[1, p] += 1
            out[2, p] += share
            out[3, p] += share * share


@njit(cache=True, inline="always")
def top_mask(keys: Array) -> int:  # pragma: no cover - compiled
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
def top_shared(keys: Array) -> bool:  # pragma: no cover - compiled
    """Whether two players or more hold the highest key."""
    mask = top_mask(keys)
    return mask & (mask - 1) != 0


@njit(cache=True, inline="always")
def tally_mask(winners: int, weight: int, out: Array) -> None:  # pragma: no cover - compiled
    """:func:`tally` of ``weight`` showdowns won by the players of the bit mask
    ``winners``."""
    n = 0
    for p in range(out.shape[1]):
        n += winners >> p & 1
    share = SHARES[n]
    for p in range(out.shape[1]):
        if winners >> p & 1:
            out[0 if n == 1 else 1, p] += weight
            out[2, p] += weight * share
            out[3, p] += weight * share * share


@njit(cache=True, inline="always")
def next_combination(idx: Array, k: int, n: int) -> int:  # pragma: no cover - compiled
    """Step ``idx[:k]`` (increasing indexes below ``n``) to the next k-combination in
    lexicographic order; returns the first position changed, -1 after the last."""
    j = k - 1
    while j >= 0 and idx[j] == n - k + j:
        j -= 1
    if j < 0:
        return -1
    idx[j] += 1
    for i in range(j + 1, k):
        idx[i] = idx[i - 1] + 1
    return j


@njit(cache=True, inline="always")
def next_multiset(v: Array, k: int, n: int) -> int:  # pragma: no cover - compiled
    """Step ``v[:k]`` (a nondecreasing sequence of values below ``n``: a multiset of k of
    them) to the next one; returns the first position changed, -1 after the last."""
    j = k - 1
    while j >= 0 and v[j] == n - 1:
        j -= 1
    if j < 0:
        return -1
    v[j] += 1
    for i in range(j + 1, k):
        v[i] = v[j]
    return j


@njit(cache=True)
def multiset_prefixes(n_ranks: int, deal: int) -> Array:  # pragma: no cover - compiled
    """Units of a walk over the multisets of ``deal`` ranks below ``n_ranks`` (see
    :func:`next_multiset`): their lowest one or two ranks, -1 after them; one unit
    (-1, -1) when nothing is dealt. A unit's walk keeps its prefix."""
    if deal == 0:
        return np.full((1, 2), -1, np.int64)
    if deal == 1:
        out = np.full((n_ranks, 2), -1, np.int64)
        for r in range(n_ranks):
            out[r, 0] = r
        return out
    out = np.empty((n_ranks * (n_ranks + 1) // 2, 2), np.int64)
    i = 0
    for r0 in range(n_ranks):
        for r1 in range(r0, n_ranks):
            out[i, 0] = r0
            out[i, 1] = r1
            i += 1
    return out


@njit(cache=True, inline="always")
def start_multiset(v: Array, k: int, prefix: Array) -> int:  # pragma: no cover - compiled
    """Set ``v[:k]`` to the first multiset starting with ``prefix`` (a row of
    :func:`multiset_prefixes`); returns the prefix's length: the walk of the unit ends
    when :func:`next_multiset` changes a position below it."""
    fixed = 0
    for j in range(min(k, 2)):
        if prefix[j] >= 0:
            fixed = j + 1
    for j in range(k):
        v[j] = prefix[min(j, fixed - 1)] if fixed else 0
    return fixed


@njit(cache=True)
def largest_first(costs: Array) -> Array:  # pragma: no cover - compiled
    """The indices of ``costs``, the largest first, ties in their order: what
    ``np.argsort(-costs, kind="mergesort")`` gives, by an insertion sort of a few hundred
    units (numba's merge sort costs a second of compile on a first run)."""
    n = costs.shape[0]
    order = np.empty(n, np.int64)
    for i in range(n):
        j = i
        while j > 0 and costs[order[j - 1]] < costs[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    return order


@njit(cache=True)
def multiset_costs(prefixes: Array, n_ranks: int, deal: int) -> Array:  # pragma: no cover
    """Per unit of :func:`multiset_prefixes`: how many multisets its walk visits (the
    work of a unit, for :func:`balance`)."""
    costs = np.zeros(prefixes.shape[0], np.int64)
    v = np.zeros(max(deal, 1), np.int64)
    for t in range(prefixes.shape[0]):
        fixed_len = start_multiset(v, deal, prefixes[t])
        while True:
            costs[t] += 1
            if deal == 0 or next_multiset(v, deal, n_ranks) < fixed_len:
                break
    return costs
