"""Exact winning chances for the four player models of the spec.

The sighted models (sighted random, optimal) and the blind caller are Markov chains
over *counts of class types*. A class (see :mod:`cardlab.openseven.graph`) is described
by its size d (2, or 1 for the middle), how many of its positions are still face down
(o) and how many of its values are unseen (i). Everything a player knows that matters
is the multiset of these triples and the class the last value named: the face-down
cards hold the unseen values in uniformly random order whatever was chosen before, so
the two positions of a class are interchangeable and choosing left or right leads to
the same count state. The optimal player's expectimax therefore has one distinct
option per step, and equals the sighted random player.

Perfect information wins exactly the winnable arrangements (the connected graphs),
counted with the exponential formula; every start does equally well.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import factorial

from cardlab.openseven.game import Call, Move, OpenSevenError, Start, State, check_cards
from cardlab.openseven.graph import class_count, class_of, class_sizes, winnable_count

ODDS_MAX_CARDS = 60

Vertex = tuple[int, int, int, bool]  # (size d, face-down positions o, unseen values i, current)
Counts = tuple[tuple[Vertex, int], ...]  # sorted (vertex type, how many)


class Model(enum.Enum):
    """The player models of the spec."""

    SIGHTED_RANDOM = "sighted_random"
    OPTIMAL = "optimal"
    BLIND = "blind"
    PERFECT_INFORMATION = "perfect_information"

    def __str__(self) -> str:
        return self.value

    @classmethod
    def parse(cls, text: str | Model) -> Model:
        """``"sighted-random"``, ``"Sighted random"``, ``"blind"``... -> a :class:`Model`."""
        if isinstance(text, Model):
            return text
        key = "_".join(str(text).strip().lower().replace("-", " ").split())
        for model in cls:
            if model.value == key:
                return model
        known = ", ".join(m.value for m in cls)
        raise OpenSevenError(f"unknown model (expected one of {known}): {text!r}")


@dataclass(frozen=True, slots=True)
class Chances:
    """Exact winning chances from each start position 1..N, and overall."""

    per_start: tuple[Fraction, ...]

    @property
    def overall(self) -> Fraction:
        """The chance when the start is chosen uniformly at random."""
        return sum(self.per_start, start=Fraction(0)) / len(self.per_start)


def _pack(vertices: list[Vertex]) -> Counts:
    found: dict[Vertex, int] = {}
    for v in vertices:
        found[v] = found.get(v, 0) + 1
    return tuple(sorted(found.items()))


def _unpack(counts: Counts) -> list[Vertex]:
    return [v for v, k in counts for _ in range(k)]


@cache
def _arrived(model: Model, counts: Counts) -> Fraction:
    """Chance to win standing on the current class, before the next call."""
    vertices = _unpack(counts)
    if all(o == 0 for _, o, _, _ in vertices):
        return Fraction(1)
    index = next(n for n, v in enumerate(vertices) if v[3])
    d, o, i, _ = vertices[index]
    if o == 0:
        return Fraction(0)
    # Turning either face-down position of the class gives the same count state.
    options = {_pack([*vertices[:index], (d, o - 1, i, False), *vertices[index + 1 :]])}
    if model is Model.OPTIMAL:
        value = max(_turned(model, state) for state in options)
    else:
        value = sum((_turned(model, state) for state in options), start=Fraction(0))
        value /= len(options)
    if model is Model.BLIND and d == 2 and o == 1:
        value /= 2  # one of the two calls names a face-up card and loses
    return value


@cache
def _turned(model: Model, counts: Counts) -> Fraction:
    """Chance to win just after a face-down card was chosen, before its value shows."""
    unseen = sum(i * k for (_, _, i, _), k in counts)
    total = Fraction(0)
    for n, ((d, o, i, current), k) in enumerate(counts):
        if i == 0:
            continue
        rest = [*counts[:n], *([((d, o, i, current), k - 1)] if k > 1 else []), *counts[n + 1 :]]
        state = _pack([*_unpack(tuple(rest)), (d, o, i - 1, True)])
        total += Fraction(k * i, unseen) * _arrived(model, state)
    return total


def _start_state(cards: int, start: int) -> Counts:
    sizes = class_sizes(cards)
    s = class_of(cards, start)
    return _pack([(d, d - (c == s), d, False) for c, d in enumerate(sizes)])


def chances(cards: int, model: Model | str) -> Chances:
    """Exact per-start chances of ``model`` with N = ``cards`` (N <= 60)."""
    model = Model.parse(model)
    check_cards(cards, high=ODDS_MAX_CARDS, what="odds")
    if model is Model.PERFECT_INFORMATION:
        share = Fraction(winnable_count(cards), factorial(cards))
        return Chances((share,) * cards)
    by_class: dict[int, Fraction] = {}
    per_start = []
    for p in range(1, cards + 1):
        c = class_of(cards, p)
        if c not in by_class:  # the two positions of a class are mirror images
            by_class[c] = _turned(model, _start_state(cards, p))
        per_start.append(by_class[c])
    return Chances(tuple(per_start))


def odds(cards: int) -> dict[Model, Chances]:
    """Every model's chances for N = ``cards``."""
    return {model: chances(cards, model) for model in Model}


def closed_form(cards: int, model: Model | str) -> Chances | None:
    """The derived formula (docs/open-seven.md), or ``None`` for perfect information.

    Sighted and optimal: 2/N from a pair position, 1/N from the middle; the blind
    caller: the same divided by 2^floor(N/2).
    """
    model = Model.parse(model)
    check_cards(cards)
    if model is Model.PERFECT_INFORMATION:
        return None
    divisor = 2 ** (cards // 2) if model is Model.BLIND else 1
    return Chances(tuple(Fraction(d, cards * divisor) for d in _start_sizes(cards)))


def _start_sizes(cards: int) -> list[int]:
    sizes = class_sizes(cards)
    return [sizes[class_of(cards, p)] for p in range(1, cards + 1)]


def _view_counts(state: State) -> list[Vertex]:
    n = state.game.cards
    sizes = class_sizes(n)
    down = [0] * class_count(n)
    unseen = [0] * class_count(n)
    seen = {state.arrangement[p - 1] for p in state.turned}
    for x in range(1, n + 1):
        if x not in state.turned:
            down[class_of(n, x)] += 1
        if x not in seen:
            unseen[class_of(n, x)] += 1
    return [(d, down[c], unseen[c], False) for c, d in enumerate(sizes)]


def hints(state: State, model: Model | str = Model.OPTIMAL) -> dict[Move, Fraction]:
    """Each legal move and the exact chance to win after it (player's view only)."""
    model = Model.parse(model)
    if model is Model.PERFECT_INFORMATION:
        raise OpenSevenError(f"hints are for models that do not see the cards: {model.value!r}")
    vertices = _view_counts(state)
    found: dict[Move, Fraction] = {}
    for move in state.legal_moves():
        if isinstance(move, Start):
            c = class_of(state.game.cards, move.position)
        else:
            assert isinstance(move, Call) and state.last is not None
            c = class_of(state.game.cards, state.last)
        d, o, i, _ = vertices[c]
        after = [*vertices[:c], (d, o - 1, i, False), *vertices[c + 1 :]]
        found[move] = _turned(model, _pack(after))
    return found
