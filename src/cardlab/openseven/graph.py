"""The game as a walk in a small directed graph, and the counting it allows.

Pair each position p with its mirror N+1-p, and each value v with N+1-v: a class is
one such pair (plus the middle on its own when N is odd), K = ceil(N/2) classes in all.
Turning the card at position p with value v lets the next call name exactly the two
positions of v's class, so the card is an *arc* from the class of p to the class of v.
Every class has as many arcs out (its positions) as in (its values): the graph is
balanced, a game is a trail, and a won game is an Eulerian trail, i.e. an Eulerian
circuit cut open at its first arc. Hence (BEST theorem, all out-degrees <= 2):

* winning lines from any start = number of spanning arborescences t(G) of the graph,
  the same for every start, and 0 exactly when the graph is disconnected;
* solutions (call-string convention) from a start = 2 t(G) when N is odd and the start
  is not the middle position (the middle value's step counts twice), else t(G).

An arrangement only matters through its *table* a[i][j] (how many positions of class i
hold a value of class j); ``prod(d_i!) * prod(d_j!) / prod(a_ij!)`` arrangements share
each table. The exhaustive counts enumerate tables for even N (a compiled kernel) and
smooth the middle class away for odd N; the winnable counts use the exponential
formula for connected structures.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextvars import ContextVar
from functools import cache
from math import comb, factorial, prod

from cardlab.openseven.game import check_cards

Progress = Callable[[int, int], None]

TABLE_MAX_CARDS = 14
PLAIN_MAX_CARDS = 10  # up to here the tables are enumerated in Python (no numba start-up)


def class_count(cards: int) -> int:
    """K = ceil(N/2): the pairs {p, N+1-p}, and the middle on its own when N is odd."""
    return (cards + 1) // 2


def class_of(cards: int, position: int) -> int:
    """0-based class of a position (or value): pairs first, the middle last."""
    return min(position, cards + 1 - position) - 1


def class_sizes(cards: int) -> tuple[int, ...]:
    return tuple(2 if 2 * (i + 1) <= cards else 1 for i in range(class_count(cards)))


def table(arrangement: Sequence[int]) -> list[list[int]]:
    """a[i][j]: how many positions of class i hold a value of class j."""
    n = len(arrangement)
    k = class_count(n)
    a = [[0] * k for _ in range(k)]
    for position, value in enumerate(arrangement, start=1):
        a[class_of(n, position)][class_of(n, value)] += 1
    return a


def _determinant(matrix: list[list[int]], progress: Progress | None = None) -> int:
    """Exact integer determinant (Bareiss fraction-free elimination, a row at a time);
    ``progress(done, total)`` after each pivot of a large matrix."""
    m = [row[:] for row in matrix]
    size = len(m)
    if size == 0:
        return 1
    sign, previous = 1, 1
    for k in range(size - 1):
        if m[k][k] == 0:
            swap = next((r for r in range(k + 1, size) if m[r][k] != 0), None)
            if swap is None:
                return 0
            m[k], m[swap] = m[swap], m[k]
            sign = -sign
        pivot = m[k][k]
        tail = m[k][k + 1 :]
        for i in range(k + 1, size):
            row = m[i]
            factor = row[k]
            if factor:
                row[k + 1 :] = [
                    (x * pivot - factor * y) // previous
                    for x, y in zip(row[k + 1 :], tail, strict=True)
                ]
            elif pivot != previous:
                row[k + 1 :] = [x * pivot // previous for x in row[k + 1 :]]
        previous = pivot
        if progress is not None and size > 100:
            progress(k + 1, size - 1)
    result: int = sign * m[-1][-1]
    return result


def arborescences(a: Sequence[Sequence[int]], progress: Progress | None = None) -> int:
    """Spanning arborescences into class 0 of the multigraph with table ``a``.

    Matrix-tree theorem on the out-degree Laplacian; in a balanced graph the count is
    the same for every root, and it is 0 exactly when the graph is disconnected.
    """
    k = len(a)
    laplacian = [[(sum(a[i]) if i == j else 0) - a[i][j] for j in range(k)] for i in range(k)]
    return _determinant([row[1:] for row in laplacian[1:]], progress)


def eulerian_circuits(arrangement: Sequence[int], progress: Progress | None = None) -> int:
    """t(G): the winning lines from any one start (BEST theorem, out-degrees <= 2)."""
    return arborescences(table(arrangement), progress)


def solutions_per_line(cards: int, start: int) -> int:
    """2 when N is odd and ``start`` is not the middle: the middle value's call doubles."""
    return 2 if cards % 2 and 2 * start != cards + 1 and cards > 1 else 1


def solutions_factor(cards: int) -> int:
    """Total solutions over all starts = this factor x t(G): 2N-1 for odd N, N for even."""
    return sum(solutions_per_line(cards, p) for p in range(1, cards + 1))


@cache
def _structures(pairs: int, middles: int) -> int:
    return factorial(2 * pairs + middles)


@cache
def connected_structures(pairs: int, middles: int) -> int:
    """Arrangements on ``pairs`` pair classes and ``middles`` (0/1) middles that connect.

    Exponential formula, rooted at one class: every structure is the connected block of
    that class times any structure on the remaining classes.
    """
    if pairs == 0:
        return 1 if middles == 1 else 0
    total = _structures(pairs, middles)
    for i in range(1, pairs + 1):
        for j in range(0, middles + 1):
            if i == pairs and j == middles:
                continue
            total -= (
                comb(pairs - 1, i - 1)
                * comb(middles, j)
                * connected_structures(i, j)
                * _structures(pairs - i, middles - j)
            )
    return total


def winnable_count(cards: int) -> int:
    """How many of the N! arrangements can be won (from any start, all alike)."""
    check_cards(cards)
    return connected_structures(cards // 2, cards % 2)


def total_lines(cards: int) -> int:
    """Sum over all arrangements of t(G) = (N-1)! 2^floor(N/2) (see the docs)."""
    check_cards(cards)
    return factorial(cards - 1) << (cards // 2)


_PROGRESS: ContextVar[Progress | None] = ContextVar("circuit_progress", default=None)


def circuit_distribution(cards: int, progress: Progress | None = None) -> dict[int, int]:
    """t(G) -> number of arrangements, over all N! arrangements (N <= 14).

    ``progress(done, total)`` is called as the compiled count goes (N >= 12), between
    parts short enough that Ctrl-C stops it at once.
    """
    check_cards(cards, high=TABLE_MAX_CARDS, what="an exhaustive table")
    token = _PROGRESS.set(progress)
    try:
        return dict(_circuit_distribution(cards))
    finally:
        _PROGRESS.reset(token)


@cache
def _circuit_distribution(cards: int) -> tuple[tuple[int, int], ...]:
    return tuple(sorted(_count_circuits(cards).items()))


def _count_circuits(cards: int) -> dict[int, int]:
    if cards % 2 and cards > 1:
        # The middle class has one arc in and one out: t(G) is that of the graph with
        # the middle smoothed away, an arrangement of N-1 cards. Each of those arises
        # from N-1 arrangements (which position holds the middle value); the (N-1)!
        # arrangements with the middle card in the middle are a loop: t = 0.
        smaller = dict(_circuit_distribution(cards - 1))
        found = {t: (cards - 1) * a for t, a in smaller.items()}
        found[0] = found.get(0, 0) + factorial(cards - 1)
        return found
    if cards <= PLAIN_MAX_CARDS:
        return plain_circuit_distribution(cards)
    import numpy as np

    from cardlab.openseven import _kernels

    sizes = np.array(class_sizes(cards), dtype=np.int64)
    parts = _kernels.first_row_choices(sizes)
    progress = _PROGRESS.get()
    histogram = _kernels.circuit_histogram_part(sizes, 0)
    for part in range(1, parts):
        if progress is not None:
            progress(part, parts)
        histogram = histogram + _kernels.circuit_histogram_part(sizes, part)
    return {int(t): int(c) for t, c in enumerate(histogram) if c}


def plain_circuit_distribution(cards: int) -> dict[int, int]:
    """t(G) -> number of arrangements, enumerating class tables in plain Python."""
    sizes = class_sizes(cards)
    k = len(sizes)
    base = prod(factorial(d) for d in sizes) ** 2  # then halved for every a_ij = 2
    patterns = {
        2: [(j, m) for j in range(k) for m in range(j, k)],  # a 2 in column j, or 1s in j, m
        1: [(j, -1) for j in range(k)],
    }
    found: dict[int, int] = {}
    a = [[0] * k for _ in range(k)]
    caps = list(sizes)

    def fill(row: int, twos: int) -> None:
        if row == k:
            t = arborescences(a)
            found[t] = found.get(t, 0) + (base >> twos)
            return
        line = a[row]
        for j, m in patterns[sizes[row]]:
            if m < 0 or m == j:
                need = 1 if m < 0 else 2
                if caps[j] < need:
                    continue
                caps[j] -= need
                line[j] += need
                fill(row + 1, twos + (need == 2))
                caps[j] += need
                line[j] -= need
            elif caps[j] and caps[m]:
                caps[j] -= 1
                caps[m] -= 1
                line[j] += 1
                line[m] += 1
                fill(row + 1, twos)
                caps[j] += 1
                caps[m] += 1
                line[j] -= 1
                line[m] -= 1

    fill(0, 0)
    return found
