"""The one bundle of arrays and flags the per-hand key kernels read.

:class:`KeyTables` is a named tuple, so numba passes it to compiled code as one value
(``t.per_card`` inside the kernels) and every kernel takes it as one argument: the
hashed best five of k (:func:`~.hashed.hand_key`), Omaha's 2 + 3
(:func:`~.omaha.omaha_key`) and the plain best of the allowed fives
(:func:`~.five.key5`), through :func:`~.showdowns.key_of`. Built by :func:`key_tables`
from the rule set's arrays (:class:`~.rule_arrays.KernelTables`) and, where the hash path
applies, its hash tables (:class:`~.hashed.HashTables`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

if TYPE_CHECKING:
    from cardlab.poker._kernels.hashed import HashTables
    from cardlab.poker._kernels.omaha_table import OmahaTables
    from cardlab.poker._kernels.rule_arrays import KernelTables

Array = Any


class KeyTables(NamedTuple):
    """Everything a key kernel reads (see :class:`~.hashed.HashTables` and
    :class:`~.rule_arrays.KernelTables` for the meaning of each array)."""

    # the hash path (zero-size stand-ins when it does not apply)
    per_card: Array
    lo_index: Array
    hi_index: Array
    rank_keys: Array
    hi_index5: Array
    mix_keys5: Array
    mix_hash: bool
    n_lo_bits: int
    suit_shift: int
    flush_test: int
    nth_strength: Array
    straight_primary: Array
    flush_keys: Array
    suit_plan: Array  # per rank key: its groups of equal ranks (hashed.plan_suits)
    suit_plan5: Array  # the same for the Mixwell keys of five
    top_suits: Array  # per group size and rank's suit bits: the suit fields
    # the rule set
    cards: Array
    shapes: Array
    straights: Array
    heights: Array
    suit_strength: Array
    suits_count: bool  # suits break ties
    mixwell: bool  # Mixwell hands are possible
    mix_suits: int  # 1 in the nibble of each Mixwell suit
    # the five-card choices of a row, and the columns each leaves out
    choices: Array
    drops: Array
    # Omaha's best plain key per board and hole pair (see :class:`~.omaha_table.OmahaTables`;
    # zero-size when absent: then each of the 60 choices is looked up)
    omaha_best: Array
    omaha_pair_of: Array
    omaha_keys: Array


def key_tables(
    tables: KernelTables,
    h: HashTables | None,
    choices: Array,
    drops: Array,
    omaha: OmahaTables | None = None,
) -> KeyTables:
    """The bundle for one rule set and hand size: hash tables ``h`` (None for callers
    taking the subset path), the five-card ``choices``/``drops`` of a row and, for
    Omaha, the best-per-pair tables (None: look up each choice)."""
    empty = np.zeros(1, np.int64)
    return KeyTables(
        per_card=h.per_card if h else np.zeros((1, 6), np.int64),
        lo_index=h.lo_index if h else np.zeros(1, np.uint16),
        hi_index=h.hi_index if h else np.zeros(1, np.uint16),
        rank_keys=h.rank_keys if h else empty,
        hi_index5=h.hi_index5 if h else np.zeros(1, np.uint16),
        mix_keys5=h.mix_keys5 if h else empty,
        mix_hash=h.mix_hash if h else False,
        n_lo_bits=h.n_lo_bits if h else 0,
        suit_shift=h.suit_shift if h else 0,
        flush_test=h.flush_test if h else 0,
        nth_strength=h.nth_strength if h else np.zeros(1, np.uint8),
        straight_primary=h.straight_primary if h else empty,
        flush_keys=h.flush_keys if h else empty,
        suit_plan=h.suit_plan if h else empty,
        suit_plan5=h.suit_plan5 if h else empty,
        top_suits=h.top_suits if h else np.zeros(1, np.int32),
        cards=tables.cards,
        shapes=tables.shapes,
        straights=tables.straights,
        heights=tables.heights,
        suit_strength=tables.suit_strength,
        suits_count=bool(tables.rules.suit_tiebreak),
        mixwell=tables.mixwell,
        mix_suits=int(np.bitwise_or.reduce(tables.cards[:, 4])),
        choices=np.ascontiguousarray(choices, np.int64),
        drops=np.ascontiguousarray(drops, np.int64),
        omaha_best=omaha.best if omaha else np.zeros((0, 1), np.uint16),
        omaha_pair_of=omaha.pair_of if omaha else np.zeros((1, 1), np.uint16),
        omaha_keys=omaha.keys if omaha else np.zeros((1, 3), np.int64),
    )
