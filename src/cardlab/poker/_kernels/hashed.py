"""The fast path: best five of k from a perfect hash of the rank multiset.

Without flushes and Mixwells, the best five of k cards is fixed by the multiset of their
ranks: which ranks, how many of each, in which order (:func:`~.direct.groups_key`),
plus, where suits break ties, the strongest suits of each chosen rank. So:

1. Each card adds its rank's weight to one of two sums: one over the lower half of the
   ranks, one over the upper half. The weights (:func:`rank_weights`) are the smallest
   that keep the sums of different count vectors apart, so the index look-ups are dense
   (uint16, in the cache). ``lo_index[lo] + hi_index[hi]`` is a perfect hash: the place
   of the multiset in a look-up of all of them (``hi_index`` already holds ``hi``'s
   offset, scaled by the number of lower halves that complete it to k cards).
2. ``rank_keys[place]`` is the best plain key without suits, built once per rule set
   and hand size from :func:`~.direct.groups_key`.
3. Where suits break ties, each position of the key takes the strongest unused suit of
   its rank (a straight reads its ranks from the straight's run).
4. A suit holding five or more cards adds its flush candidate (``flush_keys[rank
   mask]``); five Mixwell suits add the Mixwell choices. The suit counts ride in the
   same sum, so a hand is looked at again only when they allow a flush or a Mixwell.
   The highest key wins.

Exact under the same condition as the direct path (``rule_arrays._direct_ok``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from cardlab.poker._kernels.bundle import (
    KernelArrays,
    KernelScalars,
    MixArrays,
    RareArrays,
    mix_arrays,
    rare_arrays,
)
from cardlab.poker._kernels.direct import flush_key, groups_key, popcount
from cardlab.poker._kernels.five import key5, nibble_sum, nonzero_nibbles
from cardlab.poker._kernels.rule_arrays import Base
from cardlab.poker.keys import (
    FIELD_MASK,
    PRIMARY_SHIFT,
    RANK_BITS,
    SUIT_BITS,
    SUITS_MASK,
    TOP_RANK_SHIFT,
    TOP_SUIT_SHIFT,
)

if TYPE_CHECKING:
    from cardlab.poker._kernels.rule_arrays import KernelLookups

Array = Any
MAX_LOOKUP = 1 << 22  # entries of the lower-half look-up; beyond this use the direct path


@njit(cache=True, inline="always")
def hash_masks(n_lo_bits: int, suit_shift: int) -> tuple[int, int]:  # pragma: no cover
    """The masks of a hash sum's two digits: the lower half's sum (``n_lo_bits`` bits)
    and the upper half's (up to the suit counts at ``suit_shift``)."""
    return (1 << n_lo_bits) - 1, (1 << (suit_shift - n_lo_bits)) - 1


def split(n_ranks: int) -> int:
    """How many of the lowest ranks form the lower half."""
    return (n_ranks + 1) // 2


def halves(caps: list[int], weights: Array, k: int) -> tuple[Array, Array, list[int]]:
    """Every count vector over ranks with the given caps and at most k cards.

    Returns the vectors (rows), their weighted sums (their hash digits) and, per vector,
    its size.
    """
    vectors: list[tuple[int, ...]] = [()]
    for cap in caps:  # extend rank by rank, never past k cards
        vectors = [(*v, c) for v in vectors for c in range(min(cap, k - sum(v)) + 1)]
    rows = np.array(vectors, np.int64).reshape(len(vectors), len(caps))
    return rows, rows @ weights, rows.sum(axis=1).tolist()


def rank_weights(caps: list[int], k: int) -> Array:
    """Per rank, the number a card of that rank adds to its half's hash digits: the
    smallest weights, rank by rank, that keep every count vector of at most k cards
    (within the caps) a different sum. Denser than base-(cap + 1) digits, so the
    look-ups fit the cache (FESCA78's lower half: 81,374 entries instead of 823,543)."""
    sums = np.zeros(1, np.int64)
    sizes = np.zeros(1, np.int64)
    weights: list[int] = []
    for cap in caps:
        top = min(cap, k)
        w = 1 if not weights else _next_weight(sums, sizes, top, k, weights[-1] + 1)
        weights.append(w)
        grown = [(sums + c * w)[sizes + c <= k] for c in range(top + 1)]
        sizes = np.concatenate([(sizes + c)[sizes + c <= k] for c in range(top + 1)])
        sums = np.concatenate(grown)
    return np.array(weights, np.int64)


@njit(cache=True)
def _next_weight(
    sums: Array, sizes: Array, top: int, k: int, start: int
) -> int:  # pragma: no cover - compiled
    """The smallest w >= start with ``sums[v] + c * w`` all different over the vectors v
    and counts c <= min(top, k - sizes[v]).

    Two of them, c1 < c2, collide exactly when some vector of at most k - d cards
    (d = c2 - c1) plus d * w is the sum of a vector: the test reads a bitmap of the sums.
    """
    present = np.zeros(sums.max() + 1, np.bool_)
    for v in range(sums.shape[0]):
        present[sums[v]] = True
    w = start
    while True:
        ok = True
        for d in range(1, top + 1):
            for v in range(sums.shape[0]):
                if sizes[v] <= k - d:
                    s = sums[v] + d * w
                    if s < present.shape[0] and present[s]:
                        ok = False
                        break
            if not ok:
                break
        if ok:
            return w
        w += 1


@njit(cache=True)
def fill_rank_keys(
    counts: Array, shapes: Array, straights: Array, out: Array
) -> None:  # pragma: no cover - compiled
    """out[i] = the best plain key (suits 0) of the rank multiset ``counts[i]``."""
    n_ranks = counts.shape[1]
    dr = np.zeros(32, np.int64)
    dc = np.zeros(32, np.int64)
    dm = np.zeros(32, np.int64)
    bs = np.zeros(64, np.int64)
    for i in range(counts.shape[0]):
        # not literal zeros: groups_key typed first with Literal[int](0) compiled twice
        nd = int(0)  # noqa: UP018, RUF046
        rank_mask = int(0)  # noqa: UP018, RUF046
        for r in range(n_ranks - 1, -1, -1):
            c = counts[i, r]
            if c:
                dr[nd] = r
                dc[nd] = c
                dm[nd] = (1 << c) - 1
                rank_mask |= 1 << r
                nd += 1
        out[i] = groups_key(dr, dc, dm, nd, rank_mask, shapes, straights, bs)


@njit(cache=True)
def fill_flush_keys(shapes: Array, straights: Array, out: Array) -> None:  # pragma: no cover
    """out[mask] = the best straight flush or flush of the ranks ``mask`` (five or more)
    of one suit, with the suit fields 0 (the suit's strength is or-ed in per hand)."""
    for mask in range(out.shape[0]):
        if popcount(mask) >= 5:
            out[mask] = flush_key(mask, 0, shapes, straights)


@njit(cache=True, inline="always")
def add_suits(
    key: int, w0: int, w1: int, straight_primary: Array, straights: Array, nth_strength: Array
) -> int:  # pragma: no cover - compiled
    """The key with each position's suit: the next strongest suit of its rank, read from
    the rank-by-suit boards ``w0`` (ranks 0-7) and ``w1`` (ranks 8-15)."""
    if straight_primary[key >> PRIMARY_SHIFT]:
        h = (key >> TOP_RANK_SHIFT & FIELD_MASK) - 1
        for p in range(5):
            r = straights[h, 1 + p]
            word = w0 ^ ((w0 ^ w1) & -(r >> 3))  # w1 for ranks 8-15, without a branch
            b = word >> (8 * (r & 7)) & 255
            key |= int(nth_strength[b << 3]) << (TOP_SUIT_SHIFT - SUIT_BITS * p)
        return key
    previous = -1
    nth = 0
    for p in range(5):
        r = (key >> (TOP_RANK_SHIFT - RANK_BITS * p) & FIELD_MASK) - 1
        nth = (nth + 1) * (r == previous)
        previous = r
        word = w0 ^ ((w0 ^ w1) & -(r >> 3))
        b = word >> (8 * (r & 7)) & 255
        key |= int(nth_strength[b << 3 | nth]) << (TOP_SUIT_SHIFT - SUIT_BITS * p)
    return key


# A suit plan slot (one group of equal ranks): bits 0-3 the group's rank, which is also
# the byte of its suit bits in the boards (w0 then w1, little-endian), bits 8-11 the
# group's row in TOP_SUITS_GROUPS (0: no group), so that ``slot & 0xF00 | byte`` is
# its place in the look-up of :func:`top_suits_lookup`.
PLAN_SLOT_BITS = 12
TOP_SUITS_GROUPS = [(0, 0)] + [(p, m) for p in range(5) for m in range(1, 6 - p)]


@njit(cache=True)
def fill_suit_plan(
    rank_keys: Array, straight_primary: Array, straights: Array, out: Array
) -> None:  # pragma: no cover - compiled
    """out[i] = the suit plan of ``rank_keys[i]``: per group of equal ranks in key order
    (at most five), a 12-bit slot (``PLAN_SLOT_BITS``): its rank and which (first
    position, size) it fills, as the row of :func:`top_suits_lookup`.
    :func:`plan_suits` reads it; a straight's five groups are its run."""
    ranks = np.empty(5, np.int64)
    firsts = np.empty(5, np.int64)
    sizes = np.empty(5, np.int64)
    for i in range(rank_keys.shape[0]):
        key = rank_keys[i]
        ranks[:] = -1
        firsts[:] = 0
        sizes[:] = 0
        if straight_primary[key >> PRIMARY_SHIFT]:
            h = (key >> TOP_RANK_SHIFT & FIELD_MASK) - 1
            for p in range(5):
                ranks[p] = straights[h, 1 + p]
                firsts[p] = p
                sizes[p] = 1
        else:
            g = -1
            previous = -1
            for p in range(5):
                r = (key >> (TOP_RANK_SHIFT - RANK_BITS * p) & FIELD_MASK) - 1
                if r < 0:
                    continue
                if r != previous:
                    g += 1
                    ranks[g] = r
                    firsts[g] = p
                sizes[g] += 1
                previous = r
        plan = 0
        for g in range(5):
            if sizes[g]:
                # the row of (first, size) in TOP_SUITS_GROUPS: the groups of first
                # positions 0..first-1 come before, 5 - q of them for position q
                row = 1 + firsts[g] * 5 - firsts[g] * (firsts[g] - 1) // 2 + sizes[g] - 1
                slot = ranks[g] | row << 8
                plan |= slot << (PLAN_SLOT_BITS * g)
        out[i] = plan


def top_suits_lookup(nth_strength: Array) -> Array:
    """``out[row << 8 | byte]``: the suit fields of a group of equal ranks whose suit bits
    in the hand are ``byte``, for the group ``TOP_SUITS_GROUPS[row]`` = (first position,
    size m): the strengths of the m strongest suits in ``byte``, strongest first, in the
    key's suit fields from that position on. Row 0 (no group) is zero. int32: 16 KB, in
    the first-level cache."""
    out = np.zeros((len(TOP_SUITS_GROUPS), 256), np.int32)
    for row, (first, m) in enumerate(TOP_SUITS_GROUPS):
        for byte in range(1, 256) if m else ():
            v = 0
            for j in range(min(m, bin(byte).count("1"))):
                strength = int(nth_strength[byte << 3 | j])
                v |= strength << (TOP_SUIT_SHIFT - SUIT_BITS * (first + j))
            out[row, byte] = v
    return out.reshape(-1)


@njit(cache=True, inline="always")
def plan_suits(plan: int, w0: int, w1: int, top_suits: Array) -> int:  # pragma: no cover
    """The suit fields of a key whose suit plan is ``plan`` (:func:`fill_suit_plan`):
    each group of m equal ranks takes the m strongest suits of its rank, read from the
    rank-by-suit boards ``w0`` (ranks 0-7) and ``w1`` (ranks 8-15), one look-up a group
    (:func:`top_suits_lookup`); an empty slot reads the zero row."""
    s = 0
    for g in range(5):
        slot = plan >> (PLAN_SLOT_BITS * g)
        word = w0 ^ ((w0 ^ w1) & -(slot >> 3 & 1))  # w1 for ranks 8-15, without a branch
        s |= top_suits[slot & 0xF00 | (word >> ((slot & 7) << 3) & 255)]
    return s


@njit(cache=True, inline="always")
def mixwell_pairs(
    row: Array,
    total: int,
    w0: int,
    w1: int,
    key: int,
    scratch: Array,
    ra: RareArrays,
    sc: KernelScalars,
) -> int:  # pragma: no cover - compiled
    """``key`` raised to the best Mixwell of seven cards with exactly five Mixwell suits
    (where the hash applies to Mixwell shapes, ``sc.mix_hash``): leave out two cards so
    that one card of each Mixwell suit is left, look the five up like the seven, and add
    suits only to the best rank keys among them (seven cards in five suits leave at most
    four choices). ``scratch``: int64 of 16."""
    per_card = ra.per_card
    lo_index = ra.lo_index
    hi_index5 = ra.hi_index5
    mix_keys5 = ra.mix_keys5
    n_lo_bits = sc.n_lo_bits
    lo_mask, hi_mask = hash_masks(n_lo_bits, sc.suit_shift)
    need = -sc.mix_suits
    for j in range(7):
        m = per_card[row[j], 3]
        scratch[j] = m
        need += m
    # the pairs to leave out, listed without a branch (at most four of the 21 fit)
    n_pairs = 0
    for a in range(6):
        want = need - scratch[a]
        for b in range(a + 1, 7):
            scratch[7 + (n_pairs & 7)] = a << 3 | b
            n_pairs += scratch[b] == want
    best = -1
    n_best = 0
    for q in range(min(n_pairs, 8)):
        v = scratch[7 + q]
        t5 = total - per_card[row[v >> 3], 0] - per_card[row[v & 7], 0]
        place = hi_index5[t5 >> n_lo_bits & hi_mask] + lo_index[t5 & lo_mask]
        mk = mix_keys5[place]
        if mk > best:
            best = mk
            n_best = 0
        if mk == best:  # kept in the front of the list, read again below
            scratch[7 + n_best] = place << 6 | v
            n_best += 1
    if not sc.suits_count or best | SUITS_MASK < key:
        return max(key, best)
    suit_plan5 = ra.suit_plan5
    top_suits = ra.top_suits
    for q in range(n_best):
        v = scratch[7 + q]
        ca = row[v >> 3 & 7]
        cb = row[v & 7]
        v0 = w0 ^ per_card[ca, 1] ^ per_card[cb, 1]
        v1 = w1 ^ per_card[ca, 2] ^ per_card[cb, 2]
        key = max(key, best | plan_suits(suit_plan5[v >> 6], v0, v1, top_suits))
    return key


@njit(cache=True, inline="always")
def hand_key(
    row: Array,
    k: int,
    total: int,
    w0: int,
    w1: int,
    mix_of: Array,
    arr: KernelArrays,
    sc: KernelScalars,
) -> int:  # pragma: no cover - compiled
    """The key of the best five of the k cards of ``row``, given their hash-digit sum
    ``total`` (``arr.per_card[c, 0]`` summed) and, when suits count, their rank-by-suit
    boards ``w0``/``w1`` (``arr.per_card[c, 1]``/``[c, 2]`` or-ed). ``mix_of``: int64
    scratch of 16. ``arr``, ``sc``: the look-ups (:mod:`.bundle`), with the hash look-ups of
    k cards."""
    n_lo_bits = sc.n_lo_bits
    lo_mask, hi_mask = hash_masks(n_lo_bits, sc.suit_shift)
    place = arr.hi_index[total >> n_lo_bits & hi_mask] + arr.lo_index[total & lo_mask]
    key = arr.rank_keys[place]
    if sc.suits_count:
        key |= plan_suits(arr.suit_plan[place], w0, w1, arr.top_suits)
    return raise_rare_from(row, k, total, w0, w1, mix_of, int(key), arr, sc, rare_arrays(arr))


@njit(cache=True, inline="always")
def rare(suits: int, sc: KernelScalars) -> bool:  # pragma: no cover
    """Whether the suit counts ``suits`` (a nibble per suit) allow a flush or a Mixwell
    (then :func:`raise_rare_from` is needed; otherwise the rank lookup and the suits are
    the key)."""
    flush_test = sc.flush_test
    if (suits + flush_test) & ((flush_test // 3) << 3):  # the top bit of a suit's nibble
        return True
    return sc.mixwell and nibble_sum(nonzero_nibbles(suits) & sc.mix_suits) >= 5


@njit(cache=True, inline="always")
def may_flush(suits: int, sc: KernelScalars) -> bool:  # pragma: no cover
    """Whether the suit counts ``suits`` allow a flush (five of a suit)."""
    return (suits + sc.flush_test) & ((sc.flush_test // 3) << 3) != 0


@njit(cache=True, inline="always")
def may_mixwell(suits: int, sc: KernelScalars) -> bool:  # pragma: no cover
    """Whether the suit counts ``suits`` hold five Mixwell suits."""
    return sc.mixwell and nibble_sum(nonzero_nibbles(suits) & sc.mix_suits) >= 5


@njit(cache=True, inline="always")
def mixwell_key(
    row: Array,
    k: int,
    total: int,
    w0: int,
    w1: int,
    key: int,
    mix_of: Array,
    with_suits: bool,
    sc: KernelScalars,
    ma: MixArrays,
) -> int:  # pragma: no cover - compiled
    """``key`` raised to the best Mixwell choice of five of the k cards of ``row``, with
    the suits' tie-break where ``with_suits`` (and suits count), the arrays taken out of
    the bundle beforehand (:func:`~.bundle.mix_arrays`: reading a bundle's array costs a
    reference count)."""
    suit_shift = sc.suit_shift
    mix_suits = sc.mix_suits
    n_lo_bits = sc.n_lo_bits
    suits_count = sc.suits_count and with_suits
    per_card = ma.per_card
    hi_index5 = ma.hi_index5
    mix_keys5 = ma.mix_keys5
    lo_index = ma.lo_index
    lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
    mix_total = 0
    for j in range(k):
        m = per_card[row[j], 3]
        mix_of[j] = m
        mix_total += m
    # with exactly five Mixwell suits the five kept cards sum to mix_suits exactly
    if k == 7 and nibble_sum(mix_suits) == 5 and sc.mix_hash:
        # leave out two cards so that one card of each Mixwell suit is left;
        # the five are looked up like the seven, under the Mixwell shapes
        need = mix_total - mix_suits
        for x in range(6):
            want = need - mix_of[x]
            for y in range(x + 1, 7):
                if mix_of[y] == want:
                    ca = row[x]
                    cb = row[y]
                    t5 = total - per_card[ca, 0] - per_card[cb, 0]
                    mk = mix_keys5[hi_index5[t5 >> n_lo_bits & hi_mask] + lo_index[t5 & lo_mask]]
                    if suits_count and mk | SUITS_MASK >= key:
                        v0 = w0 ^ per_card[ca, 1] ^ per_card[cb, 1]
                        v1 = w1 ^ per_card[ca, 2] ^ per_card[cb, 2]
                        mk = add_suits(
                            mk, v0, v1, ma.straight_primary, ma.straights, ma.nth_strength
                        )
                    key = max(key, mk)
        return key
    choices = ma.choices
    drops = ma.drops
    n_drop = drops.shape[1]
    for j in range(choices.shape[0]):
        rest = mix_total
        for d in range(n_drop):
            rest -= mix_of[drops[j, d]]
        # the five kept cards: one card in each of five Mixwell suits
        if rest & 0x6666666666666666 == 0 and nibble_sum(rest) == 5:
            mk, _ = key5(
                row[choices[j, 0]],
                row[choices[j, 1]],
                row[choices[j, 2]],
                row[choices[j, 3]],
                row[choices[j, 4]],
                ma.cards,
                ma.shapes,
                ma.straights,
                ma.heights,
            )
            key = max(key, mk)
    return key


@njit(cache=True, inline="always")
def raise_rare_from(
    row: Array,
    k: int,
    total: int,
    w0: int,
    w1: int,
    mix_of: Array,
    key: int,
    arr: KernelArrays,
    sc: KernelScalars,
    ra: RareArrays,
) -> int:  # pragma: no cover - compiled
    """``key`` (the plain key of ``row``, see :func:`hand_key`) raised to the best flush
    and Mixwell the suit counts allow, the arrays taken out of ``arr`` beforehand (``ra``:
    :func:`~.bundle.rare_arrays`, once per loop): a rare hand costs no reference
    counting on shared arrays (except the general Mixwell choice of hands other than
    seven cards, which reads ``arr`` for :func:`mixwell_key`)."""
    per_card = ra.per_card
    suits = total >> sc.suit_shift
    if may_flush(suits, sc):
        suit_strength = ra.suit_strength
        flush_keys = ra.flush_keys
        for u in range(suit_strength.shape[0]):
            if (suits >> (4 * u) & 15) >= 5:
                ranks = 0
                for j in range(k):
                    c = row[j]
                    if per_card[c, 4] == u:
                        ranks |= per_card[c, 5]
                key = max(key, flush_keys[ranks] | suit_strength[u] * 0x11111)
    if not may_mixwell(suits, sc):
        return key
    if not (k == 7 and nibble_sum(sc.mix_suits) == 5 and sc.mix_hash):
        return mixwell_key(row, k, total, w0, w1, key, mix_of, True, sc, mix_arrays(arr))
    return mixwell_pairs(row, total, w0, w1, key, mix_of, ra, sc)


@dataclass(frozen=True, eq=False)
class HashLookups:
    """The hash path's look-ups for one rule set and hand size (see the module docstring)."""

    k: int
    per_card: Array
    nth_strength: Array
    lo_index: Array
    hi_index: Array
    rank_keys: Array
    hi_index5: Array
    mix_keys5: Array
    mix_hash: bool
    n_lo_bits: int
    suit_shift: int
    flush_test: int
    straight_primary: Array
    flush_keys: Array
    suit_plan: Array
    suit_plan5: Array
    top_suits: Array


def build_hash(lookups: KernelLookups, k: int) -> HashLookups | None:
    """The look-ups for hands of k cards, or None when the lower half would be too big."""
    deck = lookups.rules.deck
    n_ranks = len(deck.ranks)
    held = np.bincount(lookups.cards[:, 0], minlength=n_ranks)
    caps = [int(min(k, h)) for h in held]
    n_lo = split(n_ranks)
    if len(deck.suits) > 8 or n_ranks > 16:
        return None  # the boards hold 8 suits per rank, 16 ranks; larger decks go direct
    lo_weights = rank_weights(caps[:n_lo], k)
    hi_weights = rank_weights(caps[n_lo:], k)
    lo_rows, lo_values, lo_sizes = halves(caps[:n_lo], lo_weights, k)
    hi_rows, hi_values, hi_sizes = halves(caps[n_lo:], hi_weights, k)
    if int(lo_values.max()) >= MAX_LOOKUP:
        return None
    lo_place, lo_per_size = _places(lo_sizes, k)
    hi_place, hi_per_size = _places(hi_sizes, k)
    halves_ = (lo_rows, lo_sizes, lo_per_size, hi_rows, hi_values, hi_sizes, hi_place, hi_per_size)
    n_hi_values = int(hi_values.max()) + 1
    hi_index, counts = _size_lookups(halves_, k, n_hi_values)
    # the smallest index type that holds every place: the look-ups stay in the cache
    index_type = np.uint16 if len(counts) <= 1 << 16 else np.int32
    lo_index = np.zeros(int(lo_values.max()) + 1, index_type)
    lo_index[lo_values] = lo_place
    hi_index = hi_index.astype(index_type)
    rank_keys = np.empty(len(counts), np.int64)
    fill_rank_keys(counts, lookups.shapes, lookups.straights, rank_keys)
    # Mixwell choices of five (seven-card hands): the same hash, keys under Mixwell shapes
    mix_shapes = lookups.shapes.copy()
    mix_shapes[:, 0] = lookups.shapes[:, 1]
    hi_index5, counts5 = _size_lookups(halves_, 5, n_hi_values)
    hi_index5 = hi_index5.astype(index_type)
    mix_keys5 = np.empty(len(counts5), np.int64)
    fill_rank_keys(counts5, mix_shapes, lookups.straights, mix_keys5)
    st, hc = lookups.shapes[Base.STRAIGHT, 1, 0], lookups.shapes[Base.HIGH_CARD, 1, 0]
    mix_hash = bool(st == 0 or hc == 0 or st > hc)  # five distinct ranks: straight wins

    n_lo_bits = int(lo_values.max()).bit_length()
    ranks = lookups.cards[:, 0]
    lo_digit = np.where(ranks < n_lo, lo_weights[np.minimum(ranks, n_lo - 1)], 0)
    hi_digit = np.where(ranks >= n_lo, hi_weights[np.maximum(ranks - n_lo, 0)], 0)
    straight_primary = np.zeros(32, np.int64)
    for base_hand in Base:
        for mix in range(2):
            prefix, _, is_straight = lookups.shapes[base_hand, mix]
            if is_straight:
                straight_primary[int(prefix) >> PRIMARY_SHIFT] = 1
    suit_bit = lookups.cards[:, 3]
    board = np.left_shift(1, 8 * (ranks % 8) + suit_bit)
    mix_count = lookups.cards[:, 4]
    suit_shift = n_lo_bits + int(hi_values.max()).bit_length()
    if suit_shift + 4 * len(deck.suits) > 63:
        return None
    per_card = np.stack(
        [
            lo_digit | hi_digit << n_lo_bits | 1 << (4 * lookups.cards[:, 1] + suit_shift),
            np.where(ranks < 8, board, 0),
            np.where(ranks >= 8, board, 0),
            mix_count,
            lookups.cards[:, 1],
            np.left_shift(1, ranks),
        ],
        axis=1,
    ).astype(np.int64)
    flush_keys = np.zeros(1 << n_ranks, np.int64)
    fill_flush_keys(lookups.shapes, lookups.straights, flush_keys)
    nth_strength = np.zeros(256 * 8, np.uint8)  # small: it stays in the first-level cache
    for byte in range(1, 256):
        bits = [b for b in range(7, -1, -1) if byte >> b & 1]
        for j, b in enumerate(bits):
            nth_strength[byte << 3 | j] = lookups.bit_strength[b]
    suit_plan = np.zeros(len(rank_keys), np.int64)
    fill_suit_plan(rank_keys, straight_primary, lookups.straights, suit_plan)
    suit_plan5 = np.zeros(len(mix_keys5), np.int64)
    fill_suit_plan(mix_keys5, straight_primary, lookups.straights, suit_plan5)
    return HashLookups(
        k=k,
        per_card=np.ascontiguousarray(per_card),
        nth_strength=nth_strength,
        lo_index=lo_index,
        hi_index=hi_index,
        rank_keys=rank_keys,
        hi_index5=hi_index5,
        mix_keys5=mix_keys5,
        mix_hash=mix_hash,
        n_lo_bits=n_lo_bits,
        suit_shift=suit_shift,
        flush_test=sum(3 << (4 * s) for s in range(len(deck.suits))),
        straight_primary=straight_primary,
        flush_keys=flush_keys,
        suit_plan=suit_plan,
        suit_plan5=suit_plan5,
        top_suits=top_suits_lookup(nth_strength),
    )


def _size_lookups(halves_: tuple[Any, ...], size: int, n_hi_values: int) -> tuple[Array, Array]:
    """The upper-half index and the count vectors, in look-up order, for ``size`` cards."""
    lo_rows, lo_sizes, lo_per_size, hi_rows, hi_values, hi_sizes, hi_place, hi_per_size = halves_
    offsets = [0] * (size + 2)
    for m in range(size + 1):
        offsets[m + 1] = offsets[m] + hi_per_size[m] * lo_per_size[size - m]
    hi_index = np.zeros(n_hi_values, np.int64)
    for value, m, place in zip(hi_values.tolist(), hi_sizes, hi_place, strict=True):
        if m <= size:
            hi_index[value] = offsets[m] + place * lo_per_size[size - m]
    blocks = []
    lo_sizes_array = np.array(lo_sizes)
    hi_sizes_array = np.array(hi_sizes)
    for m in range(size + 1):
        lo_block = lo_rows[lo_sizes_array == size - m]
        hi_block = hi_rows[hi_sizes_array == m]
        if len(lo_block) and len(hi_block):
            blocks.append(
                np.concatenate(
                    [np.tile(lo_block, (len(hi_block), 1)), np.repeat(hi_block, len(lo_block), 0)],
                    axis=1,
                )
            )
    return hi_index, np.ascontiguousarray(np.concatenate(blocks))


def _places(sizes: list[int], k: int) -> tuple[list[int], list[int]]:
    """Each vector's place among the vectors of its size, and the count per size."""
    per_size = [0] * (k + 1)
    places = []
    for size in sizes:
        places.append(per_size[size])
        per_size[size] += 1
    return places, per_size
