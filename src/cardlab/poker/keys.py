"""The integer key of a five-card hand: one number that orders hands (higher wins).

Layout (55 bits, fits an int64)::

    primary << 50 | secondary << 45 | r0 << 40 | r1 << 35 | r2 << 30 | r3 << 25 | r4 << 20
                  | s0 << 16 | s1 << 12 | s2 << 8 | s3 << 4 | s4

- ``primary``: the strength of the hand's category in the derived order (1 = weakest).
- ``secondary``: the strength of its secondary hand, 0 if none (tie-break step 1).
- ``r0..r4``: rank index + 1 (1 = lowest rank of the deck) of the cards in
  significance order (tie-break step 2); for a straight-type hand ``r0`` is the
  straight's height (its 1-based place in ``RuleSet.straights``) and ``r1..r4`` are 0.
- ``s0..s4``: suit strength (``RuleSet.suit_strength``) of the cards in significance
  order, 0 when suits do not break ties (tie-break step 4).

Significance order: cards grouped by rank, bigger groups first, then higher rank;
within a group, stronger suit first. A straight runs from its top card down.
Both the reference evaluator and the compiled kernels build keys with this layout.
"""

from __future__ import annotations

from collections.abc import Sequence

PRIMARY_SHIFT = 50
SECONDARY_SHIFT = 45
RANK_SHIFTS = (40, 35, 30, 25, 20)
SUIT_SHIFTS = (16, 12, 8, 4, 0)
RANK_BITS = 5  # each rank field: rank index + 1, or the straight's height
SUIT_BITS = 4  # each suit field: a suit strength
FIELD_MASK = (1 << RANK_BITS) - 1  # primary, secondary and rank fields
TOP_RANK_SHIFT = RANK_SHIFTS[0]  # r0: the most significant card (a straight's height)
TOP_SUIT_SHIFT = SUIT_SHIFTS[0]  # s0
SUITS_MASK = (1 << RANK_SHIFTS[-1]) - 1  # all five suit fields


def pack_key(primary: int, secondary: int, ranks: Sequence[int], suits: Sequence[int]) -> int:
    """Pack the fields into a key; ``ranks`` and ``suits`` are up to five values each."""
    key = primary << PRIMARY_SHIFT | secondary << SECONDARY_SHIFT
    for shift, r in zip(RANK_SHIFTS, ranks, strict=False):
        key |= r << shift
    for shift, s in zip(SUIT_SHIFTS, suits, strict=False):
        key |= s << shift
    return key


def unpack_key(key: int) -> tuple[int, int, tuple[int, ...], tuple[int, ...]]:
    """The fields of a key: (primary, secondary, ranks, suits)."""
    return (
        key >> PRIMARY_SHIFT & 31,
        key >> SECONDARY_SHIFT & 31,
        tuple(key >> s & 31 for s in RANK_SHIFTS),
        tuple(key >> s & 15 for s in SUIT_SHIFTS),
    )
