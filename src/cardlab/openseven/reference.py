"""Plain brute force, obviously right and slow: the yardstick for the fast methods.

Everything here walks the rules directly: every arrangement, every start, every call
string (a call naming a face-up card is not a move). Use it for N <= 8.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from math import factorial

REFERENCE_MAX_CARDS = 8


def _named(cards: int, value: int) -> tuple[int, int]:
    return value, cards + 1 - value


def walk_from(arrangement: tuple[int, ...], start: int) -> tuple[int, dict[tuple[int, ...], int]]:
    """Every winning call string from ``start``: (number of them, {line: free choices}).

    A line's free choices are the steps where two different face-down cards were named
    (what a sighted random player guesses between).
    """
    n = len(arrangement)
    up = [False] * (n + 2)
    lines: dict[tuple[int, ...], int] = {}
    solutions = 0
    order = [start]
    up[start] = True

    def walk(choices: int) -> None:
        nonlocal solutions
        if len(order) == n:
            solutions += 1
            lines[tuple(order)] = choices
            return
        left = arrangement[order[-1] - 1]
        right = n + 1 - left
        free = left != right and not up[left] and not up[right]
        for target in (left, right):  # the two calls; for the middle both name one card
            if not up[target]:
                up[target] = True
                order.append(target)
                walk(choices + free)
                order.pop()
                up[target] = False

    walk(0)
    return solutions, lines


def count_from(arrangement: tuple[int, ...], start: int) -> tuple[int, int]:
    """(solutions, winning lines) from ``start`` by walking every call string."""
    solutions, lines = walk_from(arrangement, start)
    return solutions, len(lines)


def counts(arrangement: tuple[int, ...]) -> list[tuple[int, int]]:
    """(solutions, lines) for each start position 1..N."""
    return [count_from(arrangement, p) for p in range(1, len(arrangement) + 1)]


@dataclass(frozen=True, slots=True)
class Census:
    """Everything the brute force finds for one N."""

    cards: int
    distribution: dict[int, int]  # solutions (all starts) -> arrangements
    chances: dict[str, list[Fraction]]  # model name -> per-start chance (not optimal)
    per_arrangement: dict[tuple[int, ...], list[tuple[int, int]]]  # (solutions, lines)


def census(cards: int) -> Census:
    """Walk every arrangement and start once; N <= 8 takes seconds."""
    n = cards
    found: Counter[int] = Counter()
    sighted = [0] * n  # numerators over 2^(N-1)
    blind = [0] * n
    winnable = [0] * n
    count = 0
    each: dict[tuple[int, ...], list[tuple[int, int]]] = {}
    for arrangement in itertools.permutations(range(1, n + 1)):
        count += 1
        total = 0
        each[arrangement] = []
        for p in range(1, n + 1):
            solutions, lines = walk_from(arrangement, p)
            each[arrangement].append((solutions, len(lines)))
            total += solutions
            blind[p - 1] += solutions  # each call string has chance 2^-(N-1)
            sighted[p - 1] += sum(2 ** (n - 1 - free) for free in lines.values())
            winnable[p - 1] += solutions > 0
        found[total] += 1
    scale = count * 2 ** (n - 1)
    return Census(
        n,
        dict(found),
        {
            "sighted_random": [Fraction(x, scale) for x in sighted],
            "blind": [Fraction(x, scale) for x in blind],
            "perfect_information": [Fraction(x, count) for x in winnable],
        },
        each,
    )


def optimal_chances(cards: int, starts: int | None = None) -> list[Fraction]:
    """Expectimax over what the player sees: per-start chance of the best strategy.

    A view is the row of face-up values (0 = face down) and the value turned last;
    each face-down card is equally likely to hold any unseen value. ``wins(view)``
    counts the fillings of the face-down cards won by the best strategy from there
    (integers: the chance is wins / (face-down cards)!). ``starts`` limits the work
    to start positions 1..starts.
    """
    n = cards
    memo: dict[tuple[tuple[int, ...], int], int] = {}

    def wins(faces: tuple[int, ...], last: int, down: int) -> int:
        if down == 0:
            return 1
        key = (faces, last)
        if key in memo:
            return memo[key]
        options = {t for t in _named(n, last) if faces[t - 1] == 0}
        best = max((turn(faces, t, down) for t in options), default=0)
        memo[key] = best
        return best

    def turn(faces: tuple[int, ...], position: int, down: int) -> int:
        unseen = set(range(1, n + 1)) - set(faces)
        total = 0
        for v in unseen:
            after = (*faces[: position - 1], v, *faces[position:])
            total += wins(after, v, down - 1)
        return total

    empty = (0,) * n
    last = n if starts is None else starts
    return [Fraction(turn(empty, p, n), factorial(n)) for p in range(1, last + 1)]
