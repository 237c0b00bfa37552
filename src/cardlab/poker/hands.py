"""The reference evaluator: five cards -> :class:`HandValue` (plain and obviously right).

A hand value holds the category, the secondary hand if any, the cards in significance
order and the integer ``key`` of :mod:`cardlab.poker.keys` (higher wins). Every fast
evaluator is tested against this one.

>>> from cardlab.poker import RuleSet
>>> rules = RuleSet.for_deck("FESCA78")
>>> value = evaluate("木7 火7 土7 金2 水9", rules)
>>> value.describe()
'Mixwell + three of a kind, 7s — 土7 火7 木7 水9 金2'
>>> compare([value, evaluate("木8 火8 土8 金2 水9", rules)])
([1], 'ranks')
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal, cast

from cardlab.cards import Card, format_cards
from cardlab.errors import CardError, HandError
from cardlab.poker._counting import (
    Shape,
    card_indexes,
    classify,
    per_rules,
    straight_set,
    suit_masks,
)
from cardlab.poker.categories import PARTIAL_COMPOUNDS, BaseHand, Category
from cardlab.poker.keys import PRIMARY_SHIFT, SECONDARY_SHIFT, pack_key
from cardlab.poker.order import HandOrder, hand_order
from cardlab.poker.rules import RuleSet

CardsLike = str | Card | Iterable[str | Card]
DecidedBy = Literal["category", "secondary", "ranks", "suits", "tie"]
STEPS: tuple[DecidedBy, ...] = ("category", "secondary", "ranks", "suits", "tie")


@dataclass(frozen=True, slots=True)
class HandValue:
    """What five cards are worth under a rule set. Compare values by ``key``
    (higher wins); ``<`` and friends do that."""

    category: Category
    secondary: Category | None
    cards: tuple[Card, ...]  # significance order (tie-break steps 2-4)
    key: int
    shape: Shape  # (classic base hand, is a Mixwell)

    def __lt__(self, other: HandValue) -> bool:
        return self.key < other.key

    def __le__(self, other: HandValue) -> bool:
        return self.key <= other.key

    def __gt__(self, other: HandValue) -> bool:
        return self.key > other.key

    def __ge__(self, other: HandValue) -> bool:
        return self.key >= other.key

    def __str__(self) -> str:
        return self.describe()

    @property
    def name(self) -> str:
        """The hand's English name, ``"Mixwell + three of a kind"``."""
        return self.names("en")

    def names(self, lang: str = "en") -> str:
        main = self.category.japanese if lang == "ja" else self.category.english
        if self.secondary is None:
            return main
        second = self.secondary.japanese if lang == "ja" else self.secondary.english
        return f"{main}＋{second}" if lang == "ja" else f"{main} + {second}"

    def describe(self, lang: str = "en") -> str:
        """A readable description, e.g. ``"Mixwell + three of a kind, 7s — 木7 火7 ..."``
        (``lang="ja"`` gives the Japanese names)."""
        if lang not in ("en", "ja"):
            raise HandError(f"unknown language {lang!r} (expected en or ja)")
        detail = _detail(self, lang)
        cards = format_cards(self.cards)
        if lang == "ja":
            return f"{self.names('ja')}（{detail}）— {cards}"
        return f"{self.name}, {detail} — {cards}"

    def as_dict(self) -> dict[str, Any]:
        """The value as JSON-ready data (the ``rank`` command's JSON)."""
        return {
            "cards": [str(c) for c in self.cards],
            "ascii": [c.ascii for c in self.cards],
            "id": self.category.value,
            "secondary": self.secondary.value if self.secondary else None,
            "name": self.name,
            "name_ja": self.names("ja"),
            "description": self.describe(),
            "key": self.key,
        }


def evaluate(cards: CardsLike, rules: RuleSet) -> HandValue:
    """The value of exactly five cards of ``rules.deck``."""
    hand = _cards(cards, rules)
    if len(hand) != 5:
        raise HandError(f"a hand is exactly five cards, got {len(hand)}: {format_cards(hand)!r}")
    return _evaluate(hand, rules)


def best_hand(cards: CardsLike, rules: RuleSet) -> HandValue:
    """The best five of five to :data:`MAX_BEST_CARDS` cards (the strongest of every
    choice of five: this is the reference, and it takes about a second at the limit)."""
    hand = _cards(cards, rules)
    if len(hand) < 5:
        raise HandError(f"need at least five cards, got {len(hand)}: {format_cards(hand)!r}")
    if len(hand) > MAX_BEST_CARDS:
        raise HandError(
            f"the best five of at most {MAX_BEST_CARDS} cards is searched (every choice of "
            f"five is scored), got {len(hand)}: {_short(format_cards(hand))!r}"
        )
    return max(_evaluate(five, rules) for five in itertools.combinations(hand, 5))


MAX_BEST_CARDS = 20
"""The most cards :func:`best_hand` takes: C(20, 5) = 15,504 fives, about a second."""


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def compare(values: Sequence[HandValue]) -> tuple[list[int], DecidedBy]:
    """The winners (indexes into ``values``) and the step of spec section 5 that
    decided it: the first key field where the winner beats the best other hand, or
    ``"tie"`` when two or more hands share the best value and split."""
    if len(values) < 2:
        raise HandError(f"comparing needs at least two hands, got {len(values)}")
    best = max(v.key for v in values)
    winners = [i for i, v in enumerate(values) if v.key == best]
    if len(winners) > 1:
        return winners, "tie"
    runner_up = max(v.key for v in values if v.key != best)
    return winners, deciding_step(best, runner_up)


def deciding_step(a: int, b: int) -> DecidedBy:
    """The first step of the tie-break rules where key ``a`` differs from key ``b``."""
    if a >> PRIMARY_SHIFT != b >> PRIMARY_SHIFT:
        return "category"
    if a >> SECONDARY_SHIFT != b >> SECONDARY_SHIFT:
        return "secondary"
    if a >> 20 != b >> 20:
        return "ranks"
    return "suits" if a != b else "tie"


# --- the evaluation ------------------------------------------------------------


def _cards(cards: CardsLike, rules: RuleSet) -> tuple[Card, ...]:
    if isinstance(cards, str | Card):
        return rules.deck.parse_cards(cards)
    items = tuple(cards)
    if not all(isinstance(c, Card) for c in items):
        return rules.deck.parse_cards(items)
    # Card values: checked against the deck by their keys (hashing a Card is slow).
    index = _context(rules).index
    hand = cast(tuple[Card, ...], items)
    keys = [(c.suit.key, c.rank.key) for c in hand]
    for card, k in zip(hand, keys, strict=True):
        if k not in index:
            raise CardError(f"card {card} is not in the {rules.deck.name} deck")
    if len(set(keys)) != len(keys):
        twice = next(c for c, k in zip(hand, keys, strict=True) if keys.count(k) > 1)
        raise CardError(f"card {twice} is given twice")
    return hand


@dataclass(frozen=True, slots=True)
class _Context:
    """What evaluating under one rule set needs, looked up once."""

    order: HandOrder
    # (suit key, rank key) -> (rank index, suit index, suit strength, place in suit order)
    index: dict[tuple[str, str], tuple[int, int, int, int]]
    straights: frozenset[int]
    mix: int
    n_ranks: int


@per_rules
def _context(rules: RuleSet) -> _Context:
    _, mix = suit_masks(rules)
    index = {
        (c.suit.key, c.rank.key): (
            r,
            s,
            rules.suit_strength(c.suit),
            rules.suit_order.index(c.suit),
        )
        for c, (r, s) in card_indexes(rules).items()
    }
    return _Context(
        order=hand_order(rules),
        index=index,
        straights=straight_set(rules),
        mix=mix,
        n_ranks=len(rules.deck.ranks),
    )


def _evaluate(hand: Sequence[Card], rules: RuleSet) -> HandValue:
    ctx = _context(rules)
    info = [(ctx.index[c.suit.key, c.rank.key], c) for c in hand]
    ranks_of = [i[0] for i, _ in info]
    shape = classify(ranks_of, [i[1] for i, _ in info], ctx.straights, ctx.mix)
    category, primary, secondary_strength = ctx.order.shape_table[shape]
    if category.is_straight:
        mask = sum(1 << r for r in ranks_of)
        run = _straight_run(mask, ctx.n_ranks)
        info.sort(key=lambda ic: run.index(ic[0][0]))
        ranks = [rules.straights.index(mask) + 1]  # the straight's height
    else:
        groups = Counter(ranks_of)
        info.sort(key=lambda ic: (-groups[ic[0][0]], -ic[0][0], -ic[0][3]))
        ranks = [i[0] + 1 for i, _ in info]
    key = pack_key(primary, secondary_strength, ranks, [i[2] for i, _ in info])
    cards = tuple(c for _, c in info)
    return HandValue(category, _secondary(shape, category), cards, key, shape)


def _secondary(shape: Shape, category: Category) -> Category | None:
    base, mixwell = shape
    if not mixwell or base not in PARTIAL_COMPOUNDS:
        return None
    return base.category if category is Category.MIXWELL else Category.MIXWELL


@lru_cache(maxsize=1024)
def _straight_run(mask: int, n_ranks: int) -> tuple[int, ...]:
    """The rank indexes of a straight from its top card down (ZAT joins 12 and 1)."""
    ranks = [r for r in range(n_ranks) if mask >> r & 1]
    tops = [r for r in ranks if not mask >> ((r + 1) % n_ranks) & 1]
    top = tops[0] if tops else max(ranks)
    return tuple((top - i) % n_ranks for i in range(5))


# --- descriptions ----------------------------------------------------------------


def _detail(value: HandValue, lang: str) -> str:
    """The ranks that name the hand: "7s", "9s and 7s", "10-11-12-Z-1", "Z high"."""
    base = value.shape[0]
    c = value.cards
    ja = lang == "ja"

    def many(card: Card) -> str:
        return card.rank.key if ja else _plural(card.rank.name)

    if value.category.is_straight:
        return "-".join(card.rank.key for card in reversed(c))
    if base in (
        BaseHand.FIVE_OF_A_KIND,
        BaseHand.FOUR_OF_A_KIND,
        BaseHand.THREE_OF_A_KIND,
        BaseHand.ONE_PAIR,
    ):
        return many(c[0])
    if base is BaseHand.FULL_HOUSE:
        return f"{many(c[0])}・{many(c[3])}" if ja else f"{many(c[0])} over {many(c[3])}"
    if base is BaseHand.TWO_PAIR:
        return f"{many(c[0])}・{many(c[2])}" if ja else f"{many(c[0])} and {many(c[2])}"
    return f"{c[0].rank.key}ハイ" if ja else f"{c[0].rank.name} high"


def _plural(name: str) -> str:
    return name + ("es" if name.endswith("x") else "s")
