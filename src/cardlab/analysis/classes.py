"""The hand classes of a deck, now in :mod:`cardlab.poker.classes` (below ``solve``,
which uses them too). Kept while ``analysis/deck_postflop.py`` imports from here."""

from cardlab.poker.classes import (
    HandClass,
    class_grid,
    hand_classes,
    rank_separator,
    suit_groups,
    suit_permutations,
)

__all__ = [
    "HandClass",
    "class_grid",
    "hand_classes",
    "rank_separator",
    "suit_groups",
    "suit_permutations",
]
