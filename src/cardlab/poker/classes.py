"""Starting hands up to the deck's symmetries: the classes of a chart.

Two suits are *interchangeable* when swapping them everywhere changes no hand's
category: they have the same role, both count towards Mixwell or both do not, and hold
the same ranks. In the standard deck all four suits are; in FESCA decks the five element
suits are, and 陰陽 (not a Mixwell suit) stands alone, as does any suit a user deck gives
different ranks. A class is an orbit of hole cards under every permutation of
interchangeable suits (:func:`suit_permutations`).

Names: in the standard deck (and any deck written rank first, ``As``, whose ranks are
one character each) the familiar ``AA``, ``AKs``, ``AKo``. In every other deck (FESCA,
TESCA, any suit-first or multi-character-rank deck) the ranks, high first, are always
joined by ``-``, whatever the deck's size: ``Z-Z`` and ``2-1o`` on FESCA42 as on
FESCA78 (:func:`rank_separator`); ``s``/``o`` say whether two interchangeable suits
are the same or different, and a card of a suit that stands alone carries its symbol
(``Z陰陽-9``: the Z of 陰陽 with a 9 of an element suit; ``7-7陰陽``: a 7 of an element
with the 7 of 陰陽).

With the suit tie-breaks on (the FESCA default) the suits have different strengths, so
two hands of a class can differ slightly in equity; a class's equity is then the mean
over its hands (the chance that a hand dealt at random from the class wins), exact or
sampled like any other. See docs/analysis.md.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from cardlab.cards import Card, Notation, Suit, format_cards
from cardlab.decks import Deck
from cardlab.poker.rules import RuleSet


@dataclass(frozen=True, slots=True)
class HandClass:
    """Hole cards that are the same hand up to interchangeable suits."""

    name: str
    combos: tuple[tuple[Card, ...], ...]
    pair: bool
    suited: bool  # both cards of one suit
    high: int  # index of the higher rank in deck.ranks
    low: int
    lone: bool = False  # a card of a suit that stands alone (FESCA's 陰陽)

    @property
    def count(self) -> int:
        return len(self.combos)


def suit_groups(rules: RuleSet) -> tuple[tuple[Suit, ...], ...]:
    """The deck's suits split into groups of interchangeable suits."""
    deck = rules.deck
    groups: dict[tuple[object, ...], list[Suit]] = {}
    for s in deck.suits:
        ranks = frozenset(c.rank for c in deck.cards_of(suit=s))
        key = (s.role, s in rules.mixwell_suits, ranks)
        groups.setdefault(key, []).append(s)
    return tuple(tuple(g) for g in groups.values())


@lru_cache(maxsize=32)
def suit_permutations(rules: RuleSet) -> np.ndarray[tuple[int, int], np.dtype[np.int64]]:
    """Every permutation of interchangeable suits as a map of card codes: row ``g`` sends
    the card with code ``c`` to the card with code ``perms[g, c]`` (identity first)."""
    deck = rules.deck
    groups = suit_groups(rules)
    rows = []
    for choice in itertools.product(*(itertools.permutations(g) for g in groups)):
        image: dict[Suit, Suit] = {}
        for group, moved in zip(groups, choice, strict=True):
            image.update(zip(group, moved, strict=True))
        rows.append([deck.code(Card(image[c.suit], c.rank)) for c in deck.cards])
    return np.array(rows, dtype=np.int64)


def count_hand_classes(rules: RuleSet) -> int:
    """How many classes :func:`hand_classes` makes, without making them: the orbits of
    the deck's two-card hands under its suit permutations (for estimates before work)."""
    n = len(rules.deck)
    perms = suit_permutations(rules)
    first, second = np.triu_indices(n, 1)
    a, b = perms[:, first], perms[:, second]  # every hand's image under each permutation
    codes = np.minimum(a, b) * n + np.maximum(a, b)
    return len(np.unique(codes.min(axis=0)))


def hand_classes(rules: RuleSet) -> tuple[HandClass, ...]:
    """Every class of two hole cards, strongest-looking first (pairs, then by ranks).
    Classes of three or four cards (Stud, Omaha) are
    :func:`cardlab.analysis.classes_multi.multi_hand_classes`, which builds on this
    module (never the other way round)."""
    deck = rules.deck
    perms = suit_permutations(rules)
    n = len(deck)
    seen: set[tuple[int, int]] = set()
    classes = []
    for a, b in itertools.combinations(range(n), 2):
        if (a, b) in seen:
            continue
        orbit = sorted({tuple(sorted((int(p[a]), int(p[b])))) for p in perms})
        seen.update((x, y) for x, y in orbit)
        combos = tuple((deck.cards[x], deck.cards[y]) for x, y in orbit)
        classes.append(_make_class(rules, combos))
    classes.sort(key=lambda c: (not c.pair, -c.high, -c.low, not c.suited, c.name))
    # suits of different ranks (a user deck, TESCA54) make several groups of
    # interchangeable suits: where names collide, a class is named by its first hand
    names = [c.name for c in classes]
    return tuple(
        c if names.count(c.name) == 1 else dataclasses.replace(c, name=format_cards(c.combos[0]))
        for c in classes
    )


def rank_separator(deck: Deck) -> str:
    """What joins the ranks of a class name: nothing in a deck written rank first with
    one-character ranks (``AKs``, the familiar names), ``-`` in every other deck, so one
    kind of deck (FESCA42 to FESCA78) names its classes one way (``Z-Z``, ``12-9s``)."""
    classic = all(s.notation is Notation.RANK_FIRST for s in deck.suits)
    return "" if classic and all(len(r.key) == 1 for r in deck.ranks) else "-"


def _make_class(rules: RuleSet, combos: tuple[tuple[Card, ...], ...]) -> HandClass:
    deck = rules.deck
    alone = {s for g in suit_groups(rules) if len(g) == 1 for s in g}
    x, y = combos[0]
    rx, ry = deck.ranks.index(x.rank), deck.ranks.index(y.rank)
    if (rx, x.suit not in alone) < (ry, y.suit not in alone):
        x, y, rx, ry = y, x, ry, rx
    suited = x.suit == y.suit
    sep = rank_separator(deck)
    classic = all(s.notation is Notation.RANK_FIRST for s in deck.suits)

    def part(card: Card) -> str:
        return card.rank.key + (card.suit.symbol if card.suit in alone else "")

    name = f"{part(x)}{sep}{part(y)}"
    if rx != ry and (classic or (x.suit not in alone and y.suit not in alone)):
        name += "s" if suited else "o"
    lone = x.suit in alone or y.suit in alone
    return HandClass(name, combos, rx == ry, suited, rx, ry, lone)


def class_grid(classes: tuple[HandClass, ...], deck: Deck) -> dict[str, tuple[int, int]]:
    """Where each class sits in the familiar square chart: row and column of its two
    ranks (highest rank first), suited above the diagonal, offsuit below, pairs on it.
    One class a cell: a class with a lone suit's card (FESCA's ``Z-Z陰陽`` beside
    ``Z-Z``, ``Z陰陽-12``) is left out, to be listed apart, and where other classes would
    share a cell (decks of several groups of suits) the first in ``classes`` takes it."""
    n = len(deck.ranks)
    out: dict[str, tuple[int, int]] = {}
    taken: set[tuple[int, int]] = set()
    for c in classes:
        hi, lo = n - 1 - c.high, n - 1 - c.low
        if c.lone:
            continue
        if c.pair:
            cell = (hi, hi)
        elif c.name.endswith("s"):
            cell = (hi, lo)
        elif c.name.endswith("o"):
            cell = (lo, hi)
        else:
            continue
        if cell not in taken:
            taken.add(cell)
            out[c.name] = cell
    return out


def orbit_weights(
    boards: np.ndarray[Any, Any], perms: np.ndarray[Any, Any], n: int
) -> np.ndarray[Any, Any]:
    """For each (sorted) board, a row of card indices: the size of its orbit under the
    suit permutations ``perms`` (rows of the image of each of the ``n`` cards) if it is
    the smallest board of the orbit, else 0 (another task or row deals that orbit)."""
    powers = n ** np.arange(4, -1, -1, dtype=np.int64)
    own = boards @ powers
    images = np.sort(perms[:, boards], axis=2) @ powers  # (group, boards)
    smallest = images.min(axis=0)
    stabilizer = (images == own[None, :]).sum(axis=0)
    weight: np.ndarray[Any, Any] = np.where(smallest == own, len(perms) // stabilizer, 0)
    return weight
