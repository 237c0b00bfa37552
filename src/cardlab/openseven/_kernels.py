"""Compiled loops behind :mod:`cardlab.openseven.graph` (private).

Counts are small here (t(G) <= 2^(K-1), weights <= 13!), so int64 is exact; the
public functions turn the results into Python ints.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

Array = Any  # numpy arrays typed loosely: numba-compiled code


@njit(cache=True)
def _minor_determinant(a: Array, k: int) -> int:  # pragma: no cover - compiled
    """det of the out-degree Laplacian of table ``a`` without row/column 0 (Bareiss)."""
    size = k - 1
    if size == 0:
        return 1
    m = np.empty((size, size), np.int64)
    for i in range(1, k):
        out = 0
        for j in range(k):
            out += a[i, j]
        for j in range(1, k):
            m[i - 1, j - 1] = (out if i == j else 0) - a[i, j]
    sign = 1
    previous = 1
    for p in range(size - 1):
        if m[p, p] == 0:
            swap = -1
            for r in range(p + 1, size):
                if m[r, p] != 0:
                    swap = r
                    break
            if swap < 0:
                return 0
            for j in range(size):
                tmp = m[p, j]
                m[p, j] = m[swap, j]
                m[swap, j] = tmp
            sign = -sign
        for i in range(p + 1, size):
            for j in range(p + 1, size):
                m[i, j] = (m[i, j] * m[p, p] - m[i, p] * m[p, j]) // previous
        previous = m[p, p]
    return int(sign * m[size - 1, size - 1])


@njit(cache=True)
def circuit_histogram(sizes: Array) -> Array:  # pragma: no cover - compiled
    """hist[t] = number of arrangements whose class graph has t arborescences.

    Enumerates the class tables row by row (each row: a 2 in one column, or 1s in two
    columns, or a single 1 for the middle) and weights each by the arrangements
    sharing it: prod(d!)^2 / prod(a_ij!).
    """
    return circuit_histogram_part(sizes, -1)


def first_row_choices(sizes: Array) -> int:
    """How many choices the first row of a class table has: the parts of
    :func:`circuit_histogram_part`, which sum to :func:`circuit_histogram`."""
    k = int(sizes.shape[0])
    return k + k * (k - 1) // 2 if int(sizes[0]) == 2 else k


@njit(cache=True)
def circuit_histogram_part(sizes: Array, only: int) -> Array:  # pragma: no cover - compiled
    """The part of :func:`circuit_histogram` whose first row takes choice ``only``
    (all of it for -1): the caller runs the parts in turn, so that it can show
    progress and stop on Ctrl-C between them."""
    k = sizes.shape[0]
    most = k + k * (k - 1) // 2
    first = np.full((k, most), -1, np.int64)
    second = np.full((k, most), -1, np.int64)
    count = np.zeros(k, np.int64)
    base = 1
    for r in range(k):
        base *= 4 if sizes[r] == 2 else 1
        c = 0
        if sizes[r] == 2:
            for j in range(k):
                first[r, c] = j
                second[r, c] = j
                c += 1
                for m in range(j + 1, k):
                    first[r, c] = j
                    second[r, c] = m
                    c += 1
        else:
            for j in range(k):
                first[r, c] = j
                c += 1
        count[r] = c
    cap = sizes.copy()
    a = np.zeros((k, k), np.int64)
    choice = np.full(k, -1, np.int64)
    hist = np.zeros(2 ** (k - 1) + 1, np.int64)
    row = 0
    while row >= 0:
        c = choice[row]
        if c >= 0:  # undo the previous choice of this row
            a[row, first[row, c]] -= 1
            cap[first[row, c]] += 1
            if second[row, c] >= 0:
                a[row, second[row, c]] -= 1
                cap[second[row, c]] += 1
        c += 1
        while c < count[row]:
            if row == 0 and only >= 0 and c != only:
                c += 1
                continue
            f = first[row, c]
            s = second[row, c]
            if s < 0:
                if cap[f] >= 1:
                    break
            elif f == s:
                if cap[f] >= 2:
                    break
            elif cap[f] >= 1 and cap[s] >= 1:
                break
            c += 1
        if c == count[row]:
            choice[row] = -1
            row -= 1
            continue
        choice[row] = c
        a[row, first[row, c]] += 1
        cap[first[row, c]] -= 1
        if second[row, c] >= 0:
            a[row, second[row, c]] += 1
            cap[second[row, c]] -= 1
        if row == k - 1:
            twos = 0
            for i in range(k):
                for j in range(k):
                    if a[i, j] == 2:
                        twos += 1
            hist[_minor_determinant(a, k)] += base >> twos
        else:
            row += 1
    return hist


@njit(cache=True)
def arrangement_circuits(cards: int, start_rank: int, rows: int) -> tuple[Array, Array]:
    """Arrangements ``start_rank .. start_rank+rows-1`` in lexicographic order and t(G).

    Returns (values: rows x N int8, t: int64 per row).
    """  # pragma: no cover - compiled
    n = cards
    k = (n + 1) // 2
    perm = np.empty(n, np.int64)
    pool = np.arange(1, n + 1)
    rank = start_rank
    fact = np.ones(n + 1, np.int64)
    for i in range(1, n + 1):
        fact[i] = fact[i - 1] * i
    size = n
    for i in range(n):
        digit = rank // fact[n - 1 - i]
        rank = rank % fact[n - 1 - i]
        perm[i] = pool[digit]
        for j in range(digit, size - 1):
            pool[j] = pool[j + 1]
        size -= 1
    values = np.empty((rows, n), np.int8)
    circuits = np.empty(rows, np.int64)
    a = np.zeros((k, k), np.int64)
    for r in range(rows):
        a[:, :] = 0
        for p in range(n):
            v = perm[p]
            values[r, p] = v
            a[min(p + 1, n - p) - 1, min(v, n + 1 - v) - 1] += 1
        circuits[r] = _minor_determinant(a, k)
        # next permutation (lexicographic)
        i = n - 2
        while i >= 0 and perm[i] >= perm[i + 1]:
            i -= 1
        if i < 0:
            break
        j = n - 1
        while perm[j] <= perm[i]:
            j -= 1
        tmp = perm[i]
        perm[i] = perm[j]
        perm[j] = tmp
        lo, hi = i + 1, n - 1
        while lo < hi:
            tmp = perm[lo]
            perm[lo] = perm[hi]
            perm[hi] = tmp
            lo += 1
            hi -= 1
    return values, circuits


@njit(cache=True)
def _put_int(buffer: Array, at: int, value: int) -> int:  # pragma: no cover - compiled
    """Write ``value`` in decimal at ``buffer[at:]``; return the next free index."""
    if value == 0:
        buffer[at] = 48
        return at + 1
    digits = 0
    v = value
    while v > 0:
        digits += 1
        v //= 10
    v = value
    for d in range(digits - 1, -1, -1):
        buffer[at + d] = 48 + v % 10
        v //= 10
    return at + digits


@njit(cache=True)
def export_csv_chunk(
    cards: int, start_rank: int, rows: int, factors: Array
) -> Array:  # pragma: no cover - compiled
    """CSV lines (bytes) for arrangements ``start_rank ..``: arrangement, solutions,
    lines, then start1_solutions, start1_lines, ... (``factors``: solutions per line)."""
    n = cards
    values, circuits = arrangement_circuits(n, start_rank, rows)
    total_factor = 0
    for p in range(n):
        total_factor += factors[p]
    width = 3 * n + 2 * (n + 2) * 21 + 8
    buffer = np.empty(rows * width, np.uint8)
    at = 0
    for r in range(rows):
        for p in range(n):
            if p:
                buffer[at] = 32  # space
                at += 1
            at = _put_int(buffer, at, values[r, p])
        t = circuits[r]
        buffer[at] = 44  # comma
        at = _put_int(buffer, at + 1, t * total_factor)
        buffer[at] = 44
        at = _put_int(buffer, at + 1, t * n)
        for p in range(n):
            buffer[at] = 44
            at = _put_int(buffer, at + 1, t * factors[p])
            buffer[at] = 44
            at = _put_int(buffer, at + 1, t)
        buffer[at] = 10  # newline
        at += 1
    return buffer[:at]
