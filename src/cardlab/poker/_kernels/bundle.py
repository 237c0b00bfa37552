"""The two values every key kernel takes: one named set of arrays, one of numbers.

:class:`KernelArrays` holds the look-up arrays of one rule set and hand size,
:class:`KernelScalars` its numbers and flags (which key method applies, the hash's bit
layout, whether suits break ties, the Mixwell suits). Both are named tuples: numba
passes each to compiled code as one value and reads a field by name (``a.per_card``,
``s.suit_shift``), so no kernel reads a tuple by position and no two callers pack the
same numbers in different orders. Plain numbers cost numba nothing to pass; every array
read out of a tuple counts a reference on it (an atomic operation the threads contend
for), so the hot loops take the few arrays they read out of :class:`KernelArrays` once,
as one of the smaller named views below (:class:`LookupArrays`, :class:`RareArrays`,
:class:`MixArrays`, :class:`OmahaArrays`, :class:`ScoreArrays`), built by the function
of the same name in lower case.

Built by :func:`key_lookups` from the rule set's arrays
(:class:`~.rule_arrays.KernelLookups`) and, where the hash path applies, its hash
look-ups (:class:`~.hashed.HashLookups`). The poker layer gets both from
:class:`cardlab.poker.plan.KernelPlan`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
from numba import njit

if TYPE_CHECKING:
    from cardlab.poker._kernels.hashed import HashLookups
    from cardlab.poker._kernels.omaha_lookup import OmahaLookups
    from cardlab.poker._kernels.rule_arrays import KernelLookups

Array = Any

SUBSETS, HASHED, OMAHA = 0, 1, 2  # how a player's key is found (KernelScalars.method)


class KernelScalars(NamedTuple):
    """The numbers and flags a key kernel reads (see :class:`~.hashed.HashLookups`)."""

    method: int  # SUBSETS, HASHED or OMAHA
    n_lo_bits: int  # bits of the lower half's hash digits
    suit_shift: int  # where the suit counts start in a hash sum
    flush_test: int  # 3 in the nibble of each suit: a nibble reaching 8 holds five
    mix_suits: int  # 1 in the nibble of each Mixwell suit
    suits_count: bool  # suits break ties
    mixwell: bool  # Mixwell hands are possible
    mix_hash: bool  # the five-card hash holds the Mixwell keys (hashed.build_hash)


class KernelArrays(NamedTuple):
    """Every array a key kernel reads (see :class:`~.hashed.HashLookups` and
    :class:`~.rule_arrays.KernelLookups` for their meaning); zero-size stand-ins where a
    path does not apply."""

    # the hash path
    per_card: Array
    lo_index: Array
    hi_index: Array
    rank_keys: Array
    hi_index5: Array
    mix_keys5: Array
    nth_strength: Array
    straight_primary: Array
    flush_keys: Array  # per rank mask: its best flush, suits 0
    suit_plan: Array  # per rank key: its groups of equal ranks (hashed.plan_suits)
    suit_plan5: Array  # the same for the Mixwell keys of five
    top_suits: Array  # per group size and rank's suit bits: the suit fields
    # the rule set
    cards: Array
    shapes: Array
    straights: Array
    heights: Array
    suit_strength: Array
    # the five-card choices of a row, and the columns each leaves out
    choices: Array
    drops: Array
    # Omaha's best plain key per board and hole pair (see :class:`~.omaha_lookup.OmahaLookups`;
    # zero-size when absent: then each of the 60 choices is looked up)
    omaha_best: Array
    omaha_pair_of: Array
    omaha_keys: Array


class LookupArrays(NamedTuple):
    """The plain key of a hash sum: rank key and suits (:func:`~.hashed.hand_key`)."""

    rank_keys: Array
    hi_index: Array
    lo_index: Array
    suit_plan: Array
    top_suits: Array


class RareArrays(NamedTuple):
    """What raises a plain key to a flush or a Mixwell (:func:`~.hashed.raise_rare_from`)."""

    per_card: Array
    flush_keys: Array
    suit_strength: Array
    lo_index: Array
    hi_index5: Array
    mix_keys5: Array
    suit_plan5: Array
    top_suits: Array


class MixArrays(NamedTuple):
    """The Mixwell choices of five of k cards (:func:`~.hashed.mixwell_key`)."""

    per_card: Array
    hi_index5: Array
    mix_keys5: Array
    lo_index: Array
    straight_primary: Array
    straights: Array
    nth_strength: Array
    cards: Array
    shapes: Array
    heights: Array
    choices: Array
    drops: Array


class OmahaArrays(NamedTuple):
    """Omaha's 2 + 3 (:func:`~.omaha.omaha_key_of`)."""

    per_card: Array
    lo_index: Array
    hi_index: Array
    rank_keys: Array
    flush_keys: Array
    suit_strength: Array
    hi_index5: Array
    mix_keys5: Array
    omaha_best: Array
    omaha_pair_of: Array
    omaha_keys: Array
    suit_plan: Array
    suit_plan5: Array
    top_suits: Array


class ScoreArrays(NamedTuple):
    """One board of the by-rank counter's part B, scored in full
    (:func:`~.special_boards.score_board`)."""

    per_card: Array
    cards: Array
    rank_keys: Array
    hi_index: Array
    lo_index: Array
    hi_index5: Array
    mix_keys5: Array
    straight_primary: Array
    straights: Array
    nth_strength: Array
    suit_strength: Array
    flush_keys: Array


@njit(cache=True, inline="always")
def lookup_arrays(a: KernelArrays) -> LookupArrays:  # pragma: no cover - compiled
    return LookupArrays(a.rank_keys, a.hi_index, a.lo_index, a.suit_plan, a.top_suits)


@njit(cache=True, inline="always")
def rare_arrays(a: KernelArrays) -> RareArrays:  # pragma: no cover - compiled
    return RareArrays(
        a.per_card,
        a.flush_keys,
        a.suit_strength,
        a.lo_index,
        a.hi_index5,
        a.mix_keys5,
        a.suit_plan5,
        a.top_suits,
    )


@njit(cache=True, inline="always")
def mix_arrays(a: KernelArrays) -> MixArrays:  # pragma: no cover - compiled
    return MixArrays(
        a.per_card,
        a.hi_index5,
        a.mix_keys5,
        a.lo_index,
        a.straight_primary,
        a.straights,
        a.nth_strength,
        a.cards,
        a.shapes,
        a.heights,
        a.choices,
        a.drops,
    )


@njit(cache=True, inline="always")
def omaha_arrays(a: KernelArrays) -> OmahaArrays:  # pragma: no cover - compiled
    return OmahaArrays(
        a.per_card,
        a.lo_index,
        a.hi_index,
        a.rank_keys,
        a.flush_keys,
        a.suit_strength,
        a.hi_index5,
        a.mix_keys5,
        a.omaha_best,
        a.omaha_pair_of,
        a.omaha_keys,
        a.suit_plan,
        a.suit_plan5,
        a.top_suits,
    )


@njit(cache=True, inline="always")
def score_arrays(a: KernelArrays) -> ScoreArrays:  # pragma: no cover - compiled
    return ScoreArrays(
        a.per_card,
        a.cards,
        a.rank_keys,
        a.hi_index,
        a.lo_index,
        a.hi_index5,
        a.mix_keys5,
        a.straight_primary,
        a.straights,
        a.nth_strength,
        a.suit_strength,
        a.flush_keys,
    )


def key_lookups(
    method: int,
    lookups: KernelLookups,
    h: HashLookups | None,
    choices: Array,
    drops: Array,
    omaha: OmahaLookups | None = None,
) -> tuple[KernelArrays, KernelScalars]:
    """The two values for one rule set and hand size: the key ``method``, hash look-ups
    ``h`` (None for callers taking the subset path), the five-card ``choices``/``drops``
    of a row and, for Omaha, the best-per-pair look-ups (None: look up each choice)."""
    empty = np.zeros(1, np.int64)
    arrays = KernelArrays(
        per_card=h.per_card if h else np.zeros((1, 6), np.int64),
        lo_index=h.lo_index if h else np.zeros(1, np.uint16),
        hi_index=h.hi_index if h else np.zeros(1, np.uint16),
        rank_keys=h.rank_keys if h else empty,
        hi_index5=h.hi_index5 if h else np.zeros(1, np.uint16),
        mix_keys5=h.mix_keys5 if h else empty,
        nth_strength=h.nth_strength if h else np.zeros(1, np.uint8),
        straight_primary=h.straight_primary if h else empty,
        flush_keys=h.flush_keys if h else empty,
        suit_plan=h.suit_plan if h else empty,
        suit_plan5=h.suit_plan5 if h else empty,
        top_suits=h.top_suits if h else np.zeros(1, np.int32),
        cards=lookups.cards,
        shapes=lookups.shapes,
        straights=lookups.straights,
        heights=lookups.heights,
        suit_strength=lookups.suit_strength,
        choices=np.ascontiguousarray(choices, np.int64),
        drops=np.ascontiguousarray(drops, np.int64),
        omaha_best=omaha.best if omaha else np.zeros((0, 1), np.uint16),
        omaha_pair_of=omaha.pair_of if omaha else np.zeros((1, 1), np.uint16),
        omaha_keys=omaha.keys if omaha else np.zeros((1, 3), np.int64),
    )
    scalars = KernelScalars(
        method=int(method),
        n_lo_bits=h.n_lo_bits if h else 0,
        suit_shift=h.suit_shift if h else 0,
        flush_test=h.flush_test if h else 0,
        mix_suits=int(np.bitwise_or.reduce(lookups.cards[:, 4])),
        suits_count=bool(lookups.rules.suit_tiebreak),
        mixwell=bool(lookups.mixwell),
        mix_hash=h.mix_hash if h else False,
    )
    return arrays, scalars
