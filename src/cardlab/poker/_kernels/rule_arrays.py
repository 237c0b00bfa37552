"""The integer look-ups the kernels read, built from a rule set (never typed in).

Base hands are numbered in :class:`BaseHand` order (0 = five of a kind ... 9 = no hand);
each shape ``(base, mixwell)`` maps to its key prefix (``primary << 50 | secondary <<
45``), category id and whether it ranks as a straight, from
``hand_order(rules).shape_table``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np

from cardlab.decks import Wrap
from cardlab.poker.categories import BaseHand, Category
from cardlab.poker.keys import PRIMARY_SHIFT, SECONDARY_SHIFT
from cardlab.poker.rules import RuleSet

Array = Any  # numpy arrays, typed loosely (they are fed to compiled code)

BASES: tuple[BaseHand, ...] = tuple(BaseHand)
CATEGORIES: tuple[Category, ...] = tuple(Category)


class Base(IntEnum):
    """The base hands' rows in the kernels' look-ups (``shapes[base]``), in
    :class:`~cardlab.poker.categories.BaseHand` order; compiled code reads them as
    constants (``Base.FLUSH``)."""

    FIVE_OF_A_KIND = 0
    STRAIGHT_FLUSH = 1
    FOUR_OF_A_KIND = 2
    FULL_HOUSE = 3
    FLUSH = 4
    STRAIGHT = 5
    THREE_OF_A_KIND = 6
    TWO_PAIR = 7
    ONE_PAIR = 8
    HIGH_CARD = 9


# the same names in the same order, or every look-up is read wrong
assert [b.name for b in Base] == [b.name for b in BASES]


@dataclass(frozen=True, eq=False)
class KernelLookups:
    """Everything a kernel needs about one rule set, as int64 numpy arrays.

    - ``cards[code]``: rank index, suit index, suit strength (0 when suits do not break
      ties), the card's bit in a per-rank suit mask (strength order, or suit index when
      suits do not count), and its Mixwell nibble (``1 << 4 * suit``; 0 when not a
      Mixwell suit): five cards are a Mixwell when their nibbles are all non-zero and
      their sum has no nibble above 1.
    - ``heights[mask]``: 1 + the straight's place for a rank mask that is a straight,
      else 0 (a look-up when the deck has at most 16 ranks; else one entry, and the
      kernels search ``straights``).
    - ``bit_strength[bit]``: the suit strength written into keys for that suit bit.
    - ``suit_strength[suit]``: the same per suit index.
    - ``shapes[base, mixwell]``: (key prefix, category id, 1 if ranked as a straight).
    - ``straights[h]``: (mask, the five rank indexes from the top card down), weakest first.
    """

    rules: RuleSet
    cards: Array
    bit_strength: Array
    suit_strength: Array
    shapes: Array
    straights: Array
    heights: Array
    mixwell: bool
    direct_ok: bool  # the direct and hashed paths are exact for this order (_direct_ok)

    @property
    def n_cards(self) -> int:
        return int(self.cards.shape[0])


def shape_rows(rules: RuleSet) -> dict[tuple[BaseHand, bool], tuple[Category, int, int]]:
    """A's shape table: (base hand, is Mixwell) -> (category, primary, secondary)."""
    from cardlab.poker.order import hand_order

    return dict(hand_order(rules).shape_table)


def build_lookups(rules: RuleSet) -> KernelLookups:
    deck = rules.deck
    tiebreak = rules.suit_tiebreak
    mix_suits = set(rules.mixwell_suits) if rules.mixwell_possible else set()
    cards = np.zeros((len(deck.cards), 5), np.int64)
    for code, card in enumerate(deck.cards):
        suit = deck.suits.index(card.suit)
        strength = rules.suit_strength(card.suit)
        cards[code] = (
            deck.ranks.index(card.rank),
            suit,
            strength,
            strength - 1 if tiebreak else suit,
            1 << 4 * suit if card.suit in mix_suits else 0,
        )
    bit_strength = np.zeros(16, np.int64)
    suit_strength = np.zeros(16, np.int64)
    for suit_index, each in enumerate(deck.suits):
        strength = rules.suit_strength(each)
        suit_strength[suit_index] = strength
        if tiebreak:
            bit_strength[strength - 1] = strength

    rows = shape_rows(rules)
    shapes = np.zeros((10, 2, 3), np.int64)
    for (base, mix), (category, primary, secondary) in rows.items():
        shapes[BASES.index(base), int(mix)] = (
            primary << PRIMARY_SHIFT | secondary << SECONDARY_SHIFT,
            CATEGORIES.index(category),
            int(category.is_straight),
        )

    n = len(deck.ranks)
    seq = list(range(n))
    if rules.wrap is Wrap.RING:
        seq = seq[-4:] + seq
    elif rules.wrap is Wrap.ACE_LOW:
        seq = seq[-1:] + seq
    straights = np.zeros((max(len(rules.straights), 1), 6), np.int64)
    straights[0, 0] = -1  # no straights: a mask no hand matches
    windows = [seq[i : i + 5] for i in range(len(seq) - 4)]
    for h, mask in enumerate(rules.straights):  # rules.straights is the source of truth
        # the highest reading of the ranks (a ring of five ranks reads them five ways)
        run = [w for w in windows if sum(1 << r for r in w) == mask][-1]
        straights[h] = (mask, *run[::-1])

    heights = np.zeros(1 << n if n <= 16 else 1, np.int64)
    if n <= 16:
        for h, mask in enumerate(rules.straights):
            heights[mask] = h + 1
    return KernelLookups(
        rules=rules,
        cards=cards,
        bit_strength=bit_strength,
        suit_strength=suit_strength,
        shapes=shapes,
        straights=straights,
        heights=heights,
        mixwell=bool(mix_suits),
        direct_ok=_direct_ok(shapes, rows),
    )


def _direct_ok(shapes: Array, rows: dict[tuple[BaseHand, bool], Any]) -> bool:
    """Whether the direct path's shortcuts hold for this order.

    The direct path scores some five-card choices under a shape they may not have (a
    Mixwell pair scored as a plain pair, top five ranks scored as no hand though they
    might be a straight); that is harmless when the true shape never ranks lower:
    Mixwell versions at least their plain ones, straight flush above flush and
    straight, no hand below all three.
    """

    def prefix(base: int, mix: bool) -> int | None:
        if (BASES[base], mix) not in rows:
            return None
        return int(shapes[base, int(mix), 0])

    def at_least(a: int | None, b: int | None) -> bool:
        return a is None or b is None or a >= b

    for base in Base:
        if not at_least(prefix(base, True), prefix(base, False)):
            return False
    sf, fl, st, hc = (
        prefix(b, False) for b in (Base.STRAIGHT_FLUSH, Base.FLUSH, Base.STRAIGHT, Base.HIGH_CARD)
    )
    return at_least(sf, fl) and at_least(sf, st) and all(at_least(x, hc) for x in (sf, fl, st))


def subsets(k: int, omaha: bool = False) -> Array:
    """Column indexes of the five-card choices: C(k, 5), or Omaha's 2 of 4 + 3 of 5."""
    if omaha:
        rows = [
            (*hole, *board)
            for hole in itertools.combinations(range(4), 2)
            for board in itertools.combinations(range(4, 9), 3)
        ]
    else:
        rows = list(itertools.combinations(range(k), 5))
    return np.array(rows, np.int64).reshape(-1, 5)


def left_out(k: int) -> Array:
    """The columns each of :func:`subsets` (k) leaves out, in the same order."""
    rows = [sorted(set(range(k)) - set(kept)) for kept in itertools.combinations(range(k), 5)]
    return np.array(rows, np.int64).reshape(len(rows), k - 5)
