"""Poker on any deck: Mixwell Poker on FESCA decks, classic poker on the standard deck.

The flow is one-way: a :class:`RuleSet` (deck + options) derives the hand order from
exact five-card counts; cards are evaluated into a :class:`HandValue` whose integer
``key`` orders hands (higher wins).
"""

from cardlab.poker.categories import BaseHand, Category
from cardlab.poker.rules import RuleSet

__all__ = ["BaseHand", "Category", "RuleSet"]
