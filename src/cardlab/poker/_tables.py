"""The arrays the compiled showdown loops read (private), built once per rule set.

Everything a five-card key needs, by card code: rank index, suit index, suit strength
and Mixwell suit bit; the straights (a height per rank mask, and each rank's place in
each straight, so that a straight is read from its top card down); and the order's
shape table as three small arrays indexed ``[BaseHand index, is_mixwell]``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from cardlab.poker.categories import BaseHand
from cardlab.poker.order import hand_order
from cardlab.poker.rules import RuleSet

_BASE_INDEX = {b: i for i, b in enumerate(BaseHand)}
_MAX_LUT_RANKS = 16  # rank masks up to 2**16 get a lookup table; beyond, a search


@lru_cache(maxsize=64)
def kernel_tables(rules: RuleSet) -> tuple[Any, ...]:
    """The tuple of arrays :func:`cardlab.poker._equity_kernels._eval5` reads."""
    deck = rules.deck
    n_ranks = len(deck.ranks)
    rank_of = np.array([deck.ranks.index(c.rank) for c in deck.cards], np.int64)
    suit_of = np.array([deck.suits.index(c.suit) for c in deck.cards], np.int64)
    sstr = np.array([rules.suit_strength(c.suit) for c in deck.cards], np.int64)
    mix_suits = rules.mixwell_suits if rules.mixwell_possible else ()
    mixbit = np.array(
        [1 << mix_suits.index(c.suit) if c.suit in mix_suits else 0 for c in deck.cards],
        np.int64,
    )
    straights = np.array(rules.straights, np.int64)
    heights = np.zeros(1 << n_ranks if n_ranks <= _MAX_LUT_RANKS else 0, np.int64)
    pos = np.zeros((max(len(straights), 1), n_ranks), np.int64)
    for i, mask in enumerate(rules.straights):
        if heights.shape[0]:
            heights[mask] = i + 1
        for place, r in enumerate(straight_sequence(mask, n_ranks)):
            pos[i, r] = place
    order = hand_order(rules)
    prim = np.zeros((len(BaseHand), 2), np.int64)
    sec = np.zeros((len(BaseHand), 2), np.int64)
    slay = np.zeros((len(BaseHand), 2), np.int64)
    for (base, mixwell), (category, primary, secondary) in order.shape_table.items():
        i, j = _BASE_INDEX[base], int(mixwell)
        prim[i, j], sec[i, j], slay[i, j] = primary, secondary, int(category.is_straight)
    return (rank_of, suit_of, sstr, mixbit, heights, pos, straights, prim, sec, slay)


def straight_sequence(mask: int, n_ranks: int) -> list[int]:
    """The rank indexes of a straight from its bottom card to its top card.

    The top card is the one whose successor (next rank, round the ring) is not in
    the straight: (12, Z, 1, 2, 3) runs up to 3, (10, J, Q, K, A) up to A.
    """
    ranks = [r for r in range(n_ranks) if mask >> r & 1]
    tops = [r for r in ranks if not mask >> ((r + 1) % n_ranks) & 1]
    top = tops[0] if len(tops) == 1 else max(ranks)
    seq = [top]
    while len(seq) < len(ranks):
        seq.append((seq[-1] - 1) % n_ranks)
    return seq[::-1]
