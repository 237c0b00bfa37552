"""Stud's choices of who acts first, on any deck.

Third street: the player with the lowest up-card brings in (option ``stud_bring_in``:
``low-card``, the default, or ``high-card``). Ranks compare by their value (the ace
high in standard52, ZAT the highest FESCA rank); equal ranks by the rule set's suit
order (``RuleSet.suit_order``, weakest first: clubs, diamonds, hearts, spades in
standard52, the same order as pokerkit's), and the weakest suit brings in.

Fourth to seventh street: the best showing partial hand of one to four up-cards opens
(option ``stud_opener``). A partial hand is four of a kind, three of a kind, two pair,
one pair or high card, ordered as the deck's derived hand order orders those
categories (no straight, flush or Mixwell can show in four cards), then by rank values
from the most to the least repeated. Ties go to position (``best-showing``, the card
rooms' rule and pokerkit's) or to the suit of each hand's highest card
(``best-showing-suits``).

Razz (stud for low) turns both round, as pokerkit and the card rooms do: the highest
up-card brings in, ranks compared in the ace-to-five order (the ace, or ZAT, lowest;
:func:`cardlab.poker.lowball.low_order`), equal ranks by the suit order, the strongest
suit bringing in; from fourth street the best *low* showing hand opens: no pair before
one pair before two pair before three and four of a kind, then the lowest ranks from
the most repeated and highest down; ties go to position.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from cardlab.cards import Card
from cardlab.decks import Deck
from cardlab.poker.categories import Category
from cardlab.poker.lowball import low_order
from cardlab.poker.order import hand_order
from cardlab.poker.rules import RuleSet
from cardlab.table.structure import BringIn, StudOpener

# the category of a partial hand (fewer than five cards) by its rank pattern
PARTIAL_CATEGORIES = {
    (1,): Category.HIGH_CARD,
    (2,): Category.ONE_PAIR,
    (2, 2): Category.TWO_PAIR,
    (3,): Category.THREE_OF_A_KIND,
    (4,): Category.FOUR_OF_A_KIND,
}


@lru_cache(maxsize=64)
def partial_strengths(rules: RuleSet) -> dict[Category, int]:
    order = hand_order(rules)
    return {c: order.strength(c) for c in PARTIAL_CATEGORIES.values()}


def _suit_rank(card: Card, rules: RuleSet) -> int:
    return rules.suit_order.index(card.suit)


def card_key(card: Card, rules: RuleSet) -> tuple[int, int]:
    """A single card's strength: rank value, then suit order."""
    return card.rank.value, _suit_rank(card, rules)


def showing_key(cards: Sequence[Card], rules: RuleSet) -> tuple[int, tuple[int, ...]]:
    """The strength of a partial hand of up to four up-cards (higher is better)."""
    counts = Counter(c.rank.value for c in cards)
    ranked = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    pattern = tuple(sorted((m for m in counts.values() if m > 1), reverse=True)) or (1,)
    category = PARTIAL_CATEGORIES.get(pattern, Category.HIGH_CARD)
    return partial_strengths(rules)[category], tuple(v for v, _ in ranked)


def bring_in_player(
    up_cards: Sequence[Sequence[Card]], alive: Sequence[bool], rules: RuleSet, option: BringIn
) -> int:
    """The position that brings in on third street."""
    keys = {i: card_key(cards[-1], rules) for i, cards in enumerate(up_cards) if alive[i] and cards}
    pick = min if option is BringIn.LOW_CARD else max
    best = pick(keys.values())
    return min(i for i, k in keys.items() if k == best)


def opener(
    up_cards: Sequence[Sequence[Card]], alive: Sequence[bool], rules: RuleSet, option: StudOpener
) -> int:
    """The position that opens a betting round from fourth street on."""
    keys: dict[int, tuple[object, ...]] = {}
    for i, cards in enumerate(up_cards):
        if not alive[i] or not cards:
            continue
        key: tuple[object, ...] = showing_key(cards, rules)
        if option is StudOpener.BEST_SHOWING_SUITS:
            top = max(cards, key=lambda c: card_key(c, rules))
            key = (*key, _suit_rank(top, rules))
        keys[i] = key
    best = max(keys.values())
    return min(i for i, k in keys.items() if k == best)


def _low_rank(card: Card, deck: Deck) -> int:
    return low_order(deck).index(card.rank.key)


def low_bring_in_player(
    up_cards: Sequence[Sequence[Card]], alive: Sequence[bool], rules: RuleSet
) -> int:
    """Razz: the position with the highest up-card in the ace-to-five order (equal
    ranks: the strongest suit) brings in."""
    keys = {
        i: (_low_rank(cards[-1], rules.deck), _suit_rank(cards[-1], rules))
        for i, cards in enumerate(up_cards)
        if alive[i] and cards
    }
    best = max(keys.values())
    return min(i for i, k in keys.items() if k == best)


def low_showing_key(cards: Sequence[Card], deck: Deck) -> tuple[int, tuple[int, ...]]:
    """The strength of a partial hand of up-cards for low (lower is better): how many
    cards pair up, then the ranks from the most repeated and highest down."""
    counts = Counter(_low_rank(c, deck) for c in cards)
    ranked = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    pattern = tuple(sorted(counts.values(), reverse=True))
    return _LOW_PATTERNS.get(pattern, len(_LOW_PATTERNS)), tuple(v for v, _ in ranked)


# partial hands for low, best first (the number of cards never differs between players)
_LOW_PATTERNS = {
    p: k
    for k, p in enumerate(
        [
            (1,),
            (1, 1),
            (1, 1, 1),
            (1, 1, 1, 1),
            (2,),
            (2, 1),
            (2, 1, 1),
            (2, 2),
            (3,),
            (3, 1),
            (4,),
        ]
    )
}


def low_opener(up_cards: Sequence[Sequence[Card]], alive: Sequence[bool], rules: RuleSet) -> int:
    """Razz: the position with the best low showing opens (ties: the first position)."""
    keys = {
        i: low_showing_key(cards, rules.deck)
        for i, cards in enumerate(up_cards)
        if alive[i] and cards
    }
    best = min(keys.values())
    return min(i for i, k in keys.items() if k == best)
