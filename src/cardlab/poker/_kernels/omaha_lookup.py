"""The Omaha look-up: the best plain key of a hole pair with three of five board cards,
for every pair and board of ranks (see :mod:`.omaha`, which reads it).

Built once per rule set from the five-card hash look-ups (:mod:`.hashed`): every board of
five ranks the deck can deal, crossed with every pair of ranks, scored over its ten
triples by the same lookup the kernels make; the keys are stored as their places among
the distinct plain keys (uint16), so the look-up stays small enough for the cache.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from cardlab.poker._kernels.hashed import hash_masks

if TYPE_CHECKING:
    from cardlab.poker._kernels.hashed import HashLookups
    from cardlab.poker._kernels.rule_arrays import KernelLookups

Array = Any
MAX_LOOKUP = 1 << 22  # entries of the (board, pair) look-up; beyond it, 60 look-ups


@dataclass(frozen=True, eq=False)
class OmahaLookups:
    """The best plain key of a hole pair with three of five board cards, by ranks.

    - ``best[board, pair]``: the place in ``keys`` of the highest plain key (suits 0,
      no flush or Mixwell) of the pair's two ranks with three of the board's five;
      ``board`` is the board's place in the five-card hash (``hi_index[...] +
      lo_index[...]`` of its digit sum), ``pair`` the pair's place.
    - ``pair_of[c1, c2]``: the place of the ranks of cards c1, c2 among the pairs.
    - ``keys[place]``: (key, digit sum, hash place): the distinct plain keys of five
      cards, ascending (so the highest place is the highest key), each with the
      hash-digit sum of its ranks (a plain key names its five ranks, so a choice reaches
      it exactly when its digit sum is this one) and their place in the five-card hash
      (where their suit plan is).
    """

    best: Array
    pair_of: Array
    keys: Array


@lru_cache(maxsize=64)
def omaha_lookups(lookups: KernelLookups, h: HashLookups) -> OmahaLookups | None:
    """The look-ups for a rule set with the hash look-ups ``h`` of five cards, or None when
    they would not fit (more than ``MAX_LOOKUP`` entries or 65,536 distinct keys)."""
    ranks = lookups.cards[:, 0]
    n_ranks = len(lookups.rules.deck.ranks)
    held = np.bincount(ranks, minlength=n_ranks).astype(np.int64)
    pairs = [
        (a, b)
        for a, b in itertools.combinations_with_replacement(range(n_ranks), 2)
        if a != b or held[a] >= 2
    ]
    n_boards = len(h.rank_keys)
    keys, key_place = np.unique(h.rank_keys, return_inverse=True)
    if n_boards * len(pairs) > MAX_LOOKUP or len(keys) > 1 << 16:
        return None
    digits = np.zeros(n_ranks, np.int64)
    digits[ranks] = h.per_card[:, 0] & ((1 << h.suit_shift) - 1)
    best = np.zeros((n_boards, len(pairs)), np.uint16)
    board_sums = np.full(n_boards, -1, np.int64)
    _fill_best(
        held,
        digits,
        np.array(pairs, np.int64),
        h.lo_index,
        h.hi_index,
        h.n_lo_bits,
        h.suit_shift,
        key_place.astype(np.int64).ravel(),
        best,
        board_sums,
    )
    key_sums = np.full(len(keys), -1, np.int64)
    key_sums[key_place.ravel()] = board_sums
    if (board_sums < 0).any() or (key_sums[key_place.ravel()] != board_sums).any():
        return None  # a key of two rank multisets: the suits step could not find its choices
    place = np.zeros(n_ranks * n_ranks, np.uint16)
    for i, (a, b) in enumerate(pairs):
        place[a * n_ranks + b] = i
    low = np.minimum.outer(ranks, ranks)
    high = np.maximum.outer(ranks, ranks)
    pair_of = np.ascontiguousarray(place[low * n_ranks + high])
    key_places = np.zeros(len(keys), np.int64)
    key_places[key_place.ravel()] = np.arange(n_boards)
    columns = [keys.astype(np.int64), key_sums, key_places]
    return OmahaLookups(best=best, pair_of=pair_of, keys=np.ascontiguousarray(np.stack(columns, 1)))


@njit(cache=True)
def _fill_best(
    held: Array,
    digits: Array,
    pairs: Array,
    lo_index: Array,
    hi_index: Array,
    n_lo_bits: int,
    suit_shift: int,
    key_place: Array,
    out: Array,
    board_sums: Array,
) -> None:  # pragma: no cover - compiled
    """out[board, pair] = the highest ``key_place`` of the pair with three of the board,
    for every board of five ranks (within ``held`` cards per rank) and every pair that
    the deck can deal beside it (the others stay 0: no row reads them);
    ``board_sums[board]`` = the board's digit sum."""
    n_ranks = held.shape[0]
    lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
    count = np.zeros(n_ranks, np.int64)
    r = np.zeros(5, np.int64)
    for r0 in range(n_ranks):
        for r1 in range(r0, n_ranks):
            for r2 in range(r1, n_ranks):
                for r3 in range(r2, n_ranks):
                    for r4 in range(r3, n_ranks):
                        r[0], r[1], r[2], r[3], r[4] = r0, r1, r2, r3, r4
                        count[:] = 0
                        fits = True
                        for j in range(5):
                            count[r[j]] += 1
                            fits = fits and count[r[j]] <= held[r[j]]
                        if not fits:
                            continue
                        total = digits[r0] + digits[r1] + digits[r2] + digits[r3] + digits[r4]
                        board = hi_index[total >> n_lo_bits & hi_mask] + lo_index[total & lo_mask]
                        board_sums[board] = total
                        for p in range(pairs.shape[0]):
                            a = pairs[p, 0]
                            b = pairs[p, 1]
                            count[a] += 1
                            count[b] += 1
                            if count[a] <= held[a] and count[b] <= held[b]:
                                top = 0
                                for x in range(3):
                                    for y in range(x + 1, 4):
                                        for z in range(y + 1, 5):
                                            s = (
                                                digits[a]
                                                + digits[b]
                                                + digits[r[x]]
                                                + digits[r[y]]
                                                + digits[r[z]]
                                            )
                                            i = hi_index[s >> n_lo_bits & hi_mask]
                                            top = max(top, key_place[i + lo_index[s & lo_mask]])
                                out[board, p] = top
                            count[a] -= 1
                            count[b] -= 1
