"""Canonical rank patterns of a hand in slots, enumerated in chunks (private).

The same patterns, weights and order as :func:`cardlab.poker._kernels.tables7_patterns.
rank_patterns`, which is the plain reference, but without holding every pattern of the
deck at once. For Omaha on FESCA78 (13 ranks) the reference builds all C(16, 4) x
C(17, 5) = 11.3 million (hole, board) rank patterns as int64 rows with their 26 images
(about 8 GB); here:

- each slot's multisets of ranks (1,820 holes, 6,188 boards) are listed once, with the
  index of their image under every element of the rank group, and their place in the
  order of codes (highest rank first, as the reference's base-``b`` code);
- a pattern is a tuple of slot multisets; its code under a group element is the
  mixed-radix number of the images' places (last slot most significant, as in the
  reference), exact in int64 at any number of ranks (the reference's base-6 code of
  26 digits overflows int64 for FESCA78 Omaha);
- the patterns are visited in blocks of the first slot's multisets crossed with all the
  others, each block filtered (no rank holds more cards than the deck has) and kept
  where its code is the smallest of its images, with the orbit weight;
- the kept patterns are stored compactly: levels as int8, slot indexes as int32
  (433,383 patterns, about 15 MB for FESCA78 Omaha).

:func:`expand` gives the int64 :class:`Patterns` the counting kernel reads, for a
selection (one part of a cluster job) only.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from cardlab.poker._kernels import tables7_patterns as pat
from cardlab.poker.rules import RuleSet

BLOCK_ROWS = 1 << 20  # patterns per block: keeps a block's arrays at tens of MB


@dataclass(frozen=True, slots=True, eq=False)
class Slot:
    """The multisets of ``size`` ranks, with their codes' order and their images."""

    counts: np.ndarray[Any, Any]  # (m, ranks) int8: cards of each rank
    place: np.ndarray[Any, Any]  # (m,) int64: place in the order of codes
    image: np.ndarray[Any, Any]  # (group, m) int64: index of the image under each element


@dataclass(frozen=True, slots=True, eq=False)
class CompactPatterns:
    """Canonical rank patterns, compact: ``levels`` (n, cards, 3) int8 as
    :class:`Patterns`' (rank, multiplicity, slot), ``n_levels`` int8, ``weight`` int32
    (orbit size), ``work`` float64 (hands the pattern stands for: the cost estimate)."""

    levels: np.ndarray[Any, Any]
    n_levels: np.ndarray[Any, Any]
    weight: np.ndarray[Any, Any]
    work: np.ndarray[Any, Any]

    def __len__(self) -> int:
        return len(self.weight)


def slot(geo: pat.Geometry, size: int) -> Slot:
    n_ranks = len(geo.avail)
    rows = list(itertools.combinations_with_replacement(range(n_ranks), size))
    counts = np.zeros((len(rows), n_ranks), dtype=np.int8)
    for i, row in enumerate(rows):
        for r in row:
            counts[i, r] += 1
    # the reference's code sum(m[r] * b**r) orders by the highest rank first
    order = np.lexsort(counts.T)
    place = np.empty(len(rows), dtype=np.int64)
    place[order] = np.arange(len(rows))
    index = {counts[i].tobytes(): i for i in range(len(rows))}
    image = np.empty((len(geo.rank_group), len(rows)), dtype=np.int64)
    for g, perm in enumerate(geo.rank_group):
        moved = np.empty_like(counts)
        moved[:, list(perm)] = counts  # rank r goes to perm[r]
        image[g] = [index[m.tobytes()] for m in moved]
    return Slot(counts, place, image)


def canonical_patterns(geo: pat.Geometry, slot_sizes: tuple[int, ...]) -> CompactPatterns:
    """The canonical rank patterns of a hand with these slots, in the reference's order
    (first slot's multiset, then the next, ...), with orbit weights and work."""
    caps = np.array([bin(int(a)).count("1") for a in geo.avail], dtype=np.int8)
    n_ranks, n_group = len(caps), len(geo.rank_group)
    slots = [slot(geo, s) for s in slot_sizes]
    first, others = slots[0], slots[1:]
    # every combination of the other slots: their indexes, cards by rank, and the part
    # of the code they give under each group element
    combos = list(itertools.product(*(range(len(s.place)) for s in others)))
    rest_index = np.array(combos, dtype=np.int64).reshape(len(combos), len(others))
    rest_counts = np.zeros((len(rest_index), n_ranks), dtype=np.int8)
    rest_code = np.zeros((n_group, len(rest_index)), dtype=np.int64)
    radix = len(first.place)
    for k, s in enumerate(others):
        rest_counts += s.counts[rest_index[:, k]]
        rest_code += s.place[s.image[:, rest_index[:, k]]] * radix
        radix *= len(s.place)
    identity = geo.rank_group.index(tuple(range(n_ranks)))
    block = max(1, BLOCK_ROWS // max(1, len(rest_index)))
    found_first, found_rest, found_weight = [], [], []
    for start in range(0, len(first.place), block):
        firsts = np.arange(start, min(start + block, len(first.place)))
        cards = first.counts[firsts][:, None, :] + rest_counts[None, :, :]
        keep = (cards <= caps).all(axis=2)
        del cards
        code = first.place[firsts][:, None] + rest_code[identity][None, :]
        stabilizer = np.zeros(code.shape, dtype=np.int16)
        for g in range(n_group):
            image = first.place[first.image[g, firsts]][:, None] + rest_code[g][None, :]
            keep &= image >= code
            stabilizer += image == code
        row, col = np.nonzero(keep)
        found_first.append(firsts[row].astype(np.int32))
        found_rest.append(col.astype(np.int32))
        found_weight.append((n_group // stabilizer[row, col]).astype(np.int32))
    f = np.concatenate(found_first)
    r = np.concatenate(found_rest)
    weight = np.concatenate(found_weight)
    levels, n_levels, work = _levels(caps, slot_sizes, slots, f, rest_index[r])
    return CompactPatterns(levels, n_levels, weight, work)


def _levels(
    caps: np.ndarray[Any, Any],
    slot_sizes: tuple[int, ...],
    slots: list[Slot],
    first: np.ndarray[Any, Any],
    rest: np.ndarray[Any, Any],
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Levels (rank, multiplicity, slot; ranks ascending, slots within a rank), their
    number, and the hands each pattern stands for, block by block."""
    n, n_ranks, n_slots = len(first), len(caps), len(slot_sizes)
    levels = np.zeros((n, sum(slot_sizes), 3), dtype=np.int8)
    n_levels = np.zeros(n, dtype=np.int8)
    work = np.zeros(n, dtype=np.float64)
    ways = np.array(
        [[math.comb(int(c), m) for m in range(sum(slot_sizes) + 1)] for c in caps],
        dtype=np.float64,
    )
    step = max(1, BLOCK_ROWS // (n_ranks * n_slots))
    for start in range(0, n, step):
        stop = min(start + step, n)
        mult = np.stack(
            [slots[0].counts[first[start:stop]]]
            + [s.counts[rest[start:stop, k]] for k, s in enumerate(slots[1:])],
            axis=1,
        )  # (block, slots, ranks)
        by_rank = mult.transpose(0, 2, 1).reshape(stop - start, -1)  # rank * slots + slot
        row, col = np.nonzero(by_rank)
        count = np.bincount(row, minlength=stop - start)
        begin = np.concatenate([[0], np.cumsum(count)[:-1]])
        place = np.arange(len(row)) - begin[row]
        levels[start + row, place, 0] = col // n_slots
        levels[start + row, place, 1] = by_rank[row, col]
        levels[start + row, place, 2] = col % n_slots
        n_levels[start:stop] = count
        total = mult.sum(axis=1, dtype=np.int64)
        work[start:stop] = ways[np.arange(n_ranks), total].prod(axis=1)
    return levels, n_levels, work


def expand(compact: CompactPatterns, which: np.ndarray[Any, Any] | None = None) -> pat.Patterns:
    """The selected patterns (all by default) as the int64 arrays the kernel reads."""
    pick = slice(None) if which is None else which
    return pat.Patterns(
        np.ascontiguousarray(compact.levels[pick], dtype=np.int64),
        np.ascontiguousarray(compact.n_levels[pick], dtype=np.int64),
        np.ascontiguousarray(compact.weight[pick], dtype=np.int64),
        np.ascontiguousarray(compact.work[pick], dtype=np.float64),
    )


@lru_cache(maxsize=4)
def omaha_patterns(rules: RuleSet) -> CompactPatterns:
    """The canonical (4 hole, 5 board) rank patterns of a deck, once per process."""
    return canonical_patterns(pat.geometry(rules), (pat.OMAHA_HOLE, pat.OMAHA_BOARD))


@lru_cache(maxsize=4)
def omaha_partition(rules: RuleSet, parts: int) -> tuple[np.ndarray[Any, Any], ...]:
    """The patterns of each of ``parts`` parts: dealt round robin, heaviest first."""
    heavy_first = np.argsort(-omaha_patterns(rules).work, kind="stable")
    return tuple(heavy_first[i::parts] for i in range(parts))
