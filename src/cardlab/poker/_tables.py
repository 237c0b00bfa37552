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
_MAX_LUT_RANKS = 16
_BY_PAIRS = (
    BaseHand.ONE_PAIR,
    BaseHand.TWO_PAIR,
    BaseHand.THREE_OF_A_KIND,
    BaseHand.FULL_HOUSE,
    BaseHand.FOUR_OF_A_KIND,
    BaseHand.FIVE_OF_A_KIND,
)
_DISTINCT = (
    BaseHand.HIGH_CARD,
    BaseHand.FLUSH,
    BaseHand.STRAIGHT,
    BaseHand.STRAIGHT_FLUSH,
)  # rank masks up to 2**16 get a lookup table; beyond, a search


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
    prefix = prim << 50 | sec << 45
    # base hand by the number of equal-rank pairs among the ten pairs of cards; rows
    # 11..14: five distinct ranks, + 2 if a straight, + 1 if a flush
    by_eq = np.zeros(15, np.int64)
    by_eq[[1, 2, 3, 4, 6, 10]] = [_BASE_INDEX[b] for b in _BY_PAIRS]
    by_eq[11:15] = [_BASE_INDEX[b] for b in _DISTINCT]
    return (rank_of, suit_of, sstr, mixbit, heights, pos, straights, prefix, slay, by_eq)


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
