"""The hands of Mixwell Poker and classic poker, as names and ids.

:class:`BaseHand` is the classic classification of five cards (one per hand, the
classic precedence order, strongest first). :class:`Category` is what a hand *is* in a
rule set: a base hand, Mixwell, or one of the complete compounds. Their order is not
fixed here: it is derived from the deck by :mod:`cardlab.poker.order`.
"""

from __future__ import annotations

import enum


class BaseHand(enum.Enum):
    """The classic five-card hands, listed in classic poker precedence (strongest first)."""

    FIVE_OF_A_KIND = "five_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    ONE_PAIR = "one_pair"
    HIGH_CARD = "high_card"

    @property
    def category(self) -> Category:
        return Category(self.value)


class Category(enum.Enum):
    """A hand category; ``value`` is the id used in JSON output.

    Listed in the fallback precedence used when two categories have equal counts
    (classic precedence of their base hands, a complete compound just above its base).
    """

    MIXWELL_FIVE_OF_A_KIND = "mixwell_five_of_a_kind"
    FIVE_OF_A_KIND = "five_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    MIXWELL_FULL_HOUSE = "mixwell_full_house"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    MIXWELL_STRAIGHT = "mixwell_straight"
    STRAIGHT = "straight"
    MIXWELL = "mixwell"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    ONE_PAIR = "one_pair"
    HIGH_CARD = "high_card"

    @property
    def english(self) -> str:
        return _ENGLISH[self]

    @property
    def japanese(self) -> str:
        return _JAPANESE[self]

    @property
    def is_straight(self) -> bool:
        """True where the hand's ranks are compared as a straight (by its top card)."""
        return self in (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.MIXWELL_STRAIGHT)


# A complete compound: Mixwell whose five cards also form this base hand.
COMPLETE_COMPOUNDS: dict[BaseHand, Category] = {
    BaseHand.FIVE_OF_A_KIND: Category.MIXWELL_FIVE_OF_A_KIND,
    BaseHand.FULL_HOUSE: Category.MIXWELL_FULL_HOUSE,
    BaseHand.STRAIGHT: Category.MIXWELL_STRAIGHT,
}
# A partial compound: Mixwell together with this base hand; the rarer one is primary.
PARTIAL_COMPOUNDS = (
    BaseHand.FOUR_OF_A_KIND,
    BaseHand.THREE_OF_A_KIND,
    BaseHand.TWO_PAIR,
    BaseHand.ONE_PAIR,
)

_ENGLISH = {
    Category.MIXWELL_FIVE_OF_A_KIND: "Mixwell five of a kind",
    Category.FIVE_OF_A_KIND: "five of a kind",
    Category.STRAIGHT_FLUSH: "straight flush",
    Category.MIXWELL_FULL_HOUSE: "Mixwell full house",
    Category.MIXWELL_STRAIGHT: "Mixwell straight",
    Category.FOUR_OF_A_KIND: "four of a kind",
    Category.FULL_HOUSE: "full house",
    Category.FLUSH: "flush",
    Category.STRAIGHT: "straight",
    Category.MIXWELL: "Mixwell",
    Category.THREE_OF_A_KIND: "three of a kind",
    Category.TWO_PAIR: "two pair",
    Category.ONE_PAIR: "one pair",
    Category.HIGH_CARD: "no hand",
}
_JAPANESE = {
    Category.MIXWELL_FIVE_OF_A_KIND: "ミクスウェル・ファイブカード",
    Category.FIVE_OF_A_KIND: "ファイブカード",
    Category.STRAIGHT_FLUSH: "ストレートフラッシュ",
    Category.MIXWELL_FULL_HOUSE: "ミクスウェル・フルハウス",
    Category.MIXWELL_STRAIGHT: "ミクスウェル・ストレート",
    Category.FOUR_OF_A_KIND: "フォーカード",
    Category.FULL_HOUSE: "フルハウス",
    Category.FLUSH: "フラッシュ",
    Category.STRAIGHT: "ストレート",
    Category.MIXWELL: "ミクスウェル",
    Category.THREE_OF_A_KIND: "スリーカード",
    Category.TWO_PAIR: "ツーペア",
    Category.ONE_PAIR: "ワンペア",
    Category.HIGH_CARD: "ノーハンド",
}
