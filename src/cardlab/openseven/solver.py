"""One arrangement: its solutions, winning lines, and the lines themselves.

Two conventions, never mixed (docs/open-seven.md):

* a **solution** is a winning call string: the start, then "left"/"right" at each step;
  when the value turned is the middle one both calls name the middle card and are two
  different calls, so that step counts twice;
* a **winning line** is a winning order of the cards turned (positions).

Counts come from the graph (:func:`cardlab.openseven.graph.eulerian_circuits`); the
lines are listed by a depth-first search that only follows calls after which the
cards left can still all be turned.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from cardlab.openseven.game import Side, check_cards, parse_arrangement
from cardlab.openseven.graph import class_of, eulerian_circuits, solutions_per_line


@dataclass(frozen=True, slots=True)
class StartCount:
    """Solutions and winning lines from one start position."""

    position: int
    solutions: int
    lines: int


@dataclass(frozen=True, slots=True)
class Solved:
    """The counts of one arrangement, per start and in total."""

    arrangement: tuple[int, ...]
    per_start: tuple[StartCount, ...]

    @property
    def solutions(self) -> int:
        return sum(s.solutions for s in self.per_start)

    @property
    def lines(self) -> int:
        return sum(s.lines for s in self.per_start)

    @property
    def winnable(self) -> bool:
        return self.lines > 0


def solve(
    arrangement: str | Iterable[int], progress: Callable[[int, int], None] | None = None
) -> Solved:
    """Counts from every start of ``arrangement`` (values left to right, N <= 1000);
    ``progress(done, total)`` follows the count of a long row."""
    values = parse_arrangement(arrangement)
    n = check_cards(len(values), what="solve")
    t = eulerian_circuits(values, progress)
    per_start = tuple(StartCount(p, t * solutions_per_line(n, p), t) for p in range(1, n + 1))
    return Solved(values, per_start)


def _can_finish(values: tuple[int, ...], up: list[bool], current: int) -> bool:
    """Can every face-down card still be turned, standing on class ``current``?

    The unused arcs form a trail-completable graph exactly when each of them can be
    reached from ``current`` (degrees already balance along a trail).
    """
    n = len(values)
    arcs: dict[int, list[int]] = {}
    down = 0
    for p in range(1, n + 1):
        if not up[p]:
            down += 1
            arcs.setdefault(class_of(n, p), []).append(class_of(n, values[p - 1]))
    if not down:
        return True
    reach = {current}
    frontier = [current]
    while frontier:
        for nxt in arcs.get(frontier.pop(), ()):
            if nxt not in reach:
                reach.add(nxt)
                frontier.append(nxt)
    return all(c in reach for c in arcs)


def winning_lines(
    arrangement: str | Iterable[int], start: int | None = None
) -> Iterator[tuple[int, ...]]:
    """Every winning line (positions in the order turned), from ``start`` or from all."""
    values = parse_arrangement(arrangement)
    n = len(values)
    starts = range(1, n + 1) if start is None else [check_cards(start, high=n, what="a start")]
    for s in starts:
        up = [False] * (n + 1)
        up[s] = True
        if _can_finish(values, up, class_of(n, values[s - 1])):
            yield from _extend(values, up, [s])


def _extend(values: tuple[int, ...], up: list[bool], order: list[int]) -> Iterator[tuple[int, ...]]:
    """The lines that continue ``order``: a depth-first search with its own stack (a
    thousand cards are a thousand levels, past Python's recursion limit)."""
    n = len(values)
    if len(order) == n:
        yield tuple(order)
        return
    base = len(order)
    stack = [_targets(values, order[-1])]
    while stack:
        if len(order) > base + len(stack) - 1:  # leave the target tried last at this depth
            up[order.pop()] = False
        if not stack[-1]:
            stack.pop()
            continue
        target = stack[-1].pop(0)
        if up[target]:
            continue
        up[target] = True
        order.append(target)
        if not _can_finish(values, up, class_of(n, values[target - 1])):
            continue  # undone at the top of the loop
        if len(order) == n:
            yield tuple(order)
            continue
        stack.append(_targets(values, target))


def _targets(values: tuple[int, ...], position: int) -> list[int]:
    last = values[position - 1]
    return sorted({last, len(values) + 1 - last})


def calls(arrangement: str | Iterable[int], line: Iterable[int]) -> list[str]:
    """A line as the calls that play it: start position, then "left", "right" or
    "left/right" where both calls name the (middle) card, the step that counts twice."""
    values = parse_arrangement(arrangement)
    n = len(values)
    order = list(line)
    said = [str(order[0])]
    for before, target in itertools.pairwise(order):
        value = values[before - 1]
        if value == n + 1 - value:
            said.append(f"{Side.LEFT}/{Side.RIGHT}")
        else:
            said.append(str(Side.LEFT if target == value else Side.RIGHT))
    return said
