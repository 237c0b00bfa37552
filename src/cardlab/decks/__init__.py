"""Decks as data: the built-in FESCA family, TESCA, the standard deck, and user decks.

>>> from cardlab.decks import get_deck
>>> deck = get_deck("FESCA78")
>>> len(deck), deck.parse_cards("木1 太極")
(78, (Card.parse('木1'), Card.parse('太極')))
"""

from cardlab.decks.deck import Deck, Wrap
from cardlab.decks.loading import (
    BUILTIN_DECKS,
    builtin_name,
    deck_from_data,
    deck_from_toml,
    get_deck,
    load_deck,
)

__all__ = [
    "BUILTIN_DECKS",
    "Deck",
    "Wrap",
    "builtin_name",
    "deck_from_data",
    "deck_from_toml",
    "get_deck",
    "load_deck",
]
