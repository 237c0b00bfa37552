"""The order of a small game's hands: who wins a showdown of one to seven cards.

A hand of five or more cards is ranked by cardlab's evaluator (the best five, under
the deck's rule set: :func:`cardlab.poker.hands.best_hand`). Fewer than five cards
cannot make a straight, a flush or a Mixwell, so they rank as the partial hands of
stud (:mod:`cardlab.table.stud`) and Leduc do:

1. the category of the rank pattern: four of a kind, three of a kind, two pair, one
   pair, high card, in the order the deck's derived hand order gives those categories
   (:func:`cardlab.poker.order.hand_order`) -- pairs over high cards on every deck;
2. then rank values, the most repeated first, higher first (ZAT counts 13, the ace 14);
3. then, on decks whose rule set breaks ties by suit (the FESCA decks: Mixwell rules,
   section 5 step 4), the suits card by card in the order of step 2, a pair's stronger
   suit first, by the rule set's linear suit order (陰陽 > 水 > 金 > 土 > 火 > 木).
   On the standard deck suits do not count and equal ranks split the pot.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardlab.cards import Card
from cardlab.poker.rules import RuleSet
from cardlab.table.stud import PARTIAL_CATEGORIES, partial_strengths


def hand_key(cards: Sequence[Card], rules: RuleSet) -> tuple[int, ...]:
    """The strength of a hand (higher wins, equal splits) under ``rules``."""
    if len(cards) >= 5:
        from cardlab.poker.hands import best_hand

        return (best_hand(cards, rules).key,)
    counts = Counter(c.rank.value for c in cards)
    pattern = tuple(sorted((m for m in counts.values() if m > 1), reverse=True)) or (1,)
    category = PARTIAL_CATEGORIES[pattern]
    ordered = sorted(
        cards,
        key=lambda c: (counts[c.rank.value], c.rank.value, rules.suit_strength(c.suit)),
        reverse=True,
    )
    ranks = tuple(c.rank.value for c in ordered)
    suits = tuple(rules.suit_strength(c.suit) for c in ordered)  # all 0 without tie-breaks
    return (partial_strengths(rules)[category], *ranks, *suits)
