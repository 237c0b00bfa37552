"""Starting hands of three or four cards up to the deck's symmetries: the classes of
Omaha (four hole cards) and Stud (the three first cards) charts.

The symmetries are those of :mod:`cardlab.poker.classes`: every permutation of
interchangeable suits (:func:`~cardlab.poker.classes.suit_permutations`; on FESCA
decks the five element suits, 陰陽 alone). A class is an orbit of ``k`` cards under them,
found by brute force: each hand is mapped by every permutation and the smallest image
(sorted card codes read as a number in base ``len(deck)``) names its orbit. Standard52:
16,432 classes of four cards (of 270,725 hands), 1,755 of three (of 22,100).

Names spell each card as its rank and a *suit letter*: the suits of interchangeable
groups are lettered ``a``, ``b``, ``c``... in the order they first appear, reading the
cards from the highest rank down (a second group of interchangeable suits takes the
letters after the first group's: TESCA54's 木火水 ``a``-``c``, 土金 ``d``-``e``); a card
of a suit that stands alone (陰陽) carries the suit's own symbol. Among cards of equal
rank the order giving the smallest name is taken, so every hand of a class gets the
same name and different classes different names: ``AaAbKaKb`` is the "double-suited"
aces and kings (A♠K♠A♥K♥), ``AaAbAcKa`` three aces with a king suited to one of them,
``Za-12a-9b-9陰陽`` a FESCA78 hand (cards joined by ``-`` in every deck but those
written rank first with one-character ranks, as for two cards:
:func:`~cardlab.poker.classes.rank_separator`; FESCA42 ``Za-Zb-2a-1陰陽``). Should
two classes still share a name (a user deck whose suits would need more than 26
letters), each of them is named by its first hand instead.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from functools import lru_cache
from typing import Any

import numpy as np

from cardlab.cards import Card, format_cards
from cardlab.errors import GameError
from cardlab.poker.classes import (
    HandClass,
    hand_classes,
    rank_separator,
    suit_groups,
    suit_permutations,
)
from cardlab.poker.rules import RuleSet

MAX_HANDS = 3_000_000  # hands a class enumeration may walk (FESCA78, four cards: 1,426,425)
MAX_IMAGES = 400_000_000  # hands times suit permutations (FESCA78, four cards: 1.7e8)
_CHUNK = 200_000
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def starting_cards(hole_cards: int, board_cards: int) -> int:
    """The cards a chart's starting hand holds: every hole card in board games (Hold'em
    2, Omaha 4), the first three in Stud (no board)."""
    return hole_cards if board_cards > 0 else 3


def _canonical(rules: RuleSet, k: int) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Every ``k``-card hand (sorted codes, one row each) and the number of its orbit:
    the smallest image under the suit permutations."""
    n = len(rules.deck)
    perms = suit_permutations(rules)
    hands = np.array(list(itertools.combinations(range(n), k)), np.int64).reshape(-1, k)
    powers = n ** np.arange(k - 1, -1, -1, dtype=np.int64)
    smallest = np.empty(len(hands), np.int64)
    for lo in range(0, len(hands), _CHUNK):
        part = hands[lo : lo + _CHUNK]
        best = part @ powers
        for p in perms[1:]:
            best = np.minimum(best, np.sort(p[part], axis=1) @ powers)
        smallest[lo : lo + _CHUNK] = best
    return hands, smallest


@lru_cache(maxsize=8)
def multi_hand_classes(rules: RuleSet, cards: int) -> tuple[HandClass, ...]:
    """Every class of ``cards`` (3 or 4) starting cards: highest ranks first.

    ``HandClass`` fields read for ``k`` cards: ``pair`` some rank held twice or more,
    ``suited`` two cards or more of one suit, ``high``/``low`` the indexes of the highest
    and lowest rank in ``deck.ranks``.
    """
    deck = rules.deck
    if cards == 2:
        return hand_classes(rules)
    if cards not in (3, 4):
        raise GameError(f"chart classes hold 2, 3 or 4 cards, not {cards}")
    if math.comb(len(deck), cards) > MAX_HANDS:
        raise GameError(
            f"the {deck.name} deck has {math.comb(len(deck), cards):,} hands of {cards} cards, "
            f"more than the {MAX_HANDS:,} a chart enumerates"
        )
    group = math.prod(math.factorial(len(g)) for g in suit_groups(rules))
    if math.comb(len(deck), cards) * group > MAX_IMAGES:
        raise GameError(
            f"the {deck.name} deck's {math.comb(len(deck), cards):,} hands of {cards} cards "
            f"under its {group:,} suit permutations are more than a chart enumerates"
        )
    hands, smallest = _canonical(rules, cards)
    order = np.argsort(smallest, kind="stable")
    _, starts = np.unique(smallest[order], return_index=True)
    bounds = [*starts.tolist(), len(order)]
    rank_of = np.array([deck.ranks.index(c.rank) for c in deck.cards], np.int64)
    namer = _Namer(rules)
    keyed = []
    for lo, hi in itertools.pairwise(bounds):
        rows = hands[order[lo:hi]]
        combos = tuple(tuple(deck.cards[int(c)] for c in row) for row in rows)
        ranks = sorted(rank_of[rows[0]].tolist(), reverse=True)
        suits = [c.suit for c in combos[0]]
        name = namer.name(combos[0])
        pair, suited = len(set(ranks)) < cards, len(set(suits)) < cards
        keyed.append(
            (
                (*(-r for r in ranks), name),
                HandClass(name, combos, pair, suited, *ranks[:: cards - 1]),
            )
        )
    keyed.sort(key=lambda kc: kc[0])
    classes = [c for _, c in keyed]
    seen: dict[str, int] = {}
    for c in classes:
        seen[c.name] = seen.get(c.name, 0) + 1
    return tuple(
        c if seen[c.name] == 1 else dataclasses.replace(c, name=format_cards(c.combos[0]))
        for c in classes
    )


class _Namer:
    """Class names: ranks high first, each with its suit letter (see the module text)."""

    def __init__(self, rules: RuleSet) -> None:
        deck = rules.deck
        groups = suit_groups(rules)
        self.alone = {s for g in groups if len(g) == 1 for s in g}
        # each group of interchangeable suits letters its suits from its own stretch of
        # the alphabet (standard52, FESCA: one group, a b c ...), so names never collide
        self.first: dict[object, int] = {}
        start = 0
        for g in groups:
            if len(g) > 1:
                self.first.update((s, start) for s in g)
                start += len(g)
        self.sep = rank_separator(deck)
        self.rank = {r: i for i, r in enumerate(deck.ranks)}

    def spell(self, cards: tuple[Card, ...]) -> str:
        letters: dict[object, str] = {}
        parts = []
        for c in cards:
            if c.suit in self.alone:
                parts.append(c.rank.key + c.suit.symbol)
                continue
            if c.suit not in letters:
                start = self.first[c.suit]
                used = sum(self.first[s] == start for s in letters)
                i = start + used
                letters[c.suit] = _LETTERS[i] if i < len(_LETTERS) else f"({i})"
            parts.append(c.rank.key + letters[c.suit])
        return self.sep.join(parts)

    def name(self, hand: tuple[Card, ...]) -> str:
        ordered = sorted(hand, key=lambda c: -self.rank[c.rank])
        blocks = [list(g) for _, g in itertools.groupby(ordered, key=lambda c: c.rank)]
        return min(
            self.spell(tuple(c for block in choice for c in block))
            for choice in itertools.product(*(itertools.permutations(b) for b in blocks))
        )


def class_by_name(classes: tuple[HandClass, ...], names: list[str]) -> tuple[HandClass, ...]:
    """The classes called ``names`` (in that order); an unknown name is an error that
    shows a few real ones."""
    index = {c.name: c for c in classes}
    out = []
    for name in names:
        if name not in index:
            some = ", ".join(c.name for c in classes[:3])
            raise GameError(f"no starting-hand class {name!r} in this chart (e.g. {some})")
        out.append(index[name])
    return tuple(out)
