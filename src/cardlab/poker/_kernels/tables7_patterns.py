"""Deck geometry, rank patterns and sampling behind :mod:`cardlab.poker.tables7` (private).

:class:`Geometry` is a rule set as the arrays the compiled kernels read, with its
symmetries: the suits that are interchangeable, and the rank permutations that keep
the straights and the cards. :func:`rank_patterns` lists the canonical rank patterns
of a hand with their orbit weights; :func:`run_patterns` feeds them to the kernel
(:mod:`.tables7_count`) in chunks, reporting progress between chunks.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from cardlab.poker.categories import BaseHand, Category
from cardlab.poker.rules import RuleSet

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` between chunks of work."""

N_SHAPES = 2 * len(BaseHand)
BASES = tuple(BaseHand)
CHUNKS = 40  # progress steps per table
OMAHA_HOLE, OMAHA_BOARD = 4, 5


# --- deck geometry -----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Geometry:
    """The deck as arrays for the kernels, and its symmetries."""

    card_rank: np.ndarray[Any, Any]  # by card code: rank index
    card_suit: np.ndarray[Any, Any]  # by card code: suit index
    avail: np.ndarray[Any, Any]  # by rank index: mask of suits holding it
    init_class: np.ndarray[Any, Any]  # by suit index: class of interchangeable suits
    mixmask: int  # suits that count towards Mixwell (0: no Mixwell)
    straights: np.ndarray[Any, Any]  # sorted straight masks
    lut: np.ndarray[Any, Any]  # straight lookup by rank mask (empty for many ranks)
    binom: np.ndarray[Any, Any]
    popcount: np.ndarray[Any, Any]  # by suit mask
    suit_kind: np.ndarray[Any, Any]  # by suit mask of five cards: 0 plain, 1 flush, 2 Mixwell
    rank_group: tuple[tuple[int, ...], ...]  # rank permutations keeping the deck
    suit_symmetry: int  # number of suit permutations keeping the deck
    strength: np.ndarray[Any, Any]  # by shape id: primary strength (-1: impossible)
    category: tuple[Category | None, ...]  # by shape id
    order: Any  # the rule set's HandOrder


@dataclass(frozen=True, slots=True)
class Symmetry:
    """What a deck's symmetries are, without its hand order (cheap: for estimates)."""

    card_rank: np.ndarray[Any, Any]  # by card code: rank index
    card_suit: np.ndarray[Any, Any]  # by card code: suit index
    avail: np.ndarray[Any, Any]  # by rank index: mask of suits holding it
    init_class: np.ndarray[Any, Any]  # by suit index: class of interchangeable suits
    mixmask: int  # suits that count towards Mixwell (0: no Mixwell)
    rank_group: tuple[tuple[int, ...], ...]  # rank permutations keeping the deck
    suit_symmetry: int  # number of suit permutations keeping the deck


@lru_cache(maxsize=32)
def symmetry(rules: RuleSet) -> Symmetry:
    """The deck's ranks by suit and the permutations of suits and ranks that keep it
    (the part of :func:`geometry` that needs no hand order)."""
    deck = rules.deck
    n_ranks, n_suits = len(deck.ranks), len(deck.suits)
    card_rank = np.array([deck.ranks.index(c.rank) for c in deck.cards], dtype=np.int64)
    card_suit = np.array([deck.suits.index(c.suit) for c in deck.cards], dtype=np.int64)
    avail = np.zeros(n_ranks, dtype=np.int64)
    for r, s in zip(card_rank, card_suit, strict=True):
        avail[r] |= 1 << int(s)
    mixmask = 0
    if rules.mixwell_possible:
        for suit in rules.mixwell_suits:
            mixmask |= 1 << deck.suits.index(suit)
    # suits are interchangeable when they hold the same ranks and the same role
    signature = [
        (tuple(int(avail[r]) >> s & 1 for r in range(n_ranks)), mixmask >> s & 1)
        for s in range(n_suits)
    ]
    labels: dict[tuple[tuple[int, ...], int], int] = {}
    init_class = np.array([labels.setdefault(sig, len(labels)) for sig in signature], np.int64)
    suit_symmetry = math.prod(math.factorial(signature.count(sig)) for sig in labels)
    group = rank_group([int(a) for a in avail], set(rules.straights))
    return Symmetry(card_rank, card_suit, avail, init_class, mixmask, group, suit_symmetry)


@lru_cache(maxsize=32)
def geometry(rules: RuleSet) -> Geometry:
    deck = rules.deck
    n_ranks, n_suits = len(deck.ranks), len(deck.suits)
    sym = symmetry(rules)
    avail, mixmask = sym.avail, sym.mixmask
    straights = np.array(sorted(rules.straights), dtype=np.int64)
    lut = np.zeros(1 << n_ranks if n_ranks <= 20 else 0, dtype=np.uint8)
    if lut.size:
        lut[straights] = 1
    binom = np.array([[math.comb(a, b) for b in range(16)] for a in range(16)], np.int64)
    popcount = np.array([bin(m).count("1") for m in range(1 << n_suits)], dtype=np.int64)
    suit_kind = np.where(popcount == 1, 1, 0).astype(np.int64)
    if mixmask:
        suit_kind[popcount[np.arange(1 << n_suits) & mixmask] == 5] = 2
    strength, category, order = shape_strengths(rules)
    return Geometry(
        card_rank=sym.card_rank,
        card_suit=sym.card_suit,
        avail=avail,
        init_class=sym.init_class,
        mixmask=mixmask,
        straights=straights,
        lut=lut,
        binom=binom,
        popcount=popcount,
        suit_kind=suit_kind,
        rank_group=sym.rank_group,
        suit_symmetry=sym.suit_symmetry,
        strength=strength,
        category=category,
        order=order,
    )


def shape_strengths(
    rules: RuleSet,
) -> tuple[np.ndarray[Any, Any], tuple[Category | None, ...], Any]:
    """Shape id (base index * 2 + Mixwell) -> primary strength and category, from the
    rule set's derived order (the shape table every evaluator uses)."""
    from cardlab.poker.order import hand_order

    order = hand_order(rules)
    strength = np.full(N_SHAPES, -1, dtype=np.int64)
    category: list[Category | None] = [None] * N_SHAPES
    for (base, mix), (cat, primary, _secondary) in order.shape_table.items():
        sid = BASES.index(base) * 2 + int(mix)
        strength[sid] = primary
        category[sid] = cat
    return strength, tuple(category), order


def rank_group(avail: list[int], straights: set[int]) -> tuple[tuple[int, ...], ...]:
    """Rotations and reflections of the rank indexes that map the straights onto the
    straights and each rank onto one held by the same suits (the identity included)."""
    n = len(avail)
    group = []
    for t in range(n):
        for perm in (tuple((r + t) % n for r in range(n)), tuple((t - r) % n for r in range(n))):
            if perm in group:
                continue
            if any(avail[perm[r]] != avail[r] for r in range(n)):
                continue
            mapped = {sum(1 << perm[r] for r in range(n) if m >> r & 1) for m in straights}
            if mapped == straights:
                group.append(perm)
    return tuple(group)


# --- rank patterns -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Patterns:
    levels: np.ndarray[Any, Any]  # (n, max levels, 3): rank, multiplicity, slot
    n_levels: np.ndarray[Any, Any]
    weight: np.ndarray[Any, Any]  # rank patterns each stands for (orbit size)
    work: np.ndarray[Any, Any]  # hands each stands for, before symmetry (a cost estimate)


def rank_patterns(geo: Geometry, slot_sizes: tuple[int, ...]) -> Patterns:
    """The canonical rank patterns of a hand with these slots, with orbit weights.

    A pattern gives each (rank, slot) a multiplicity; the ranks of a slot form a
    multiset of the slot's size, and no rank holds more cards than the deck has.
    """
    caps = np.array([bin(int(a)).count("1") for a in geo.avail], dtype=np.int64)
    n_ranks = len(caps)
    per_slot = []
    for size in slot_sizes:
        flat = np.fromiter(
            itertools.chain.from_iterable(
                itertools.combinations_with_replacement(range(n_ranks), size)
            ),
            dtype=np.int64,
        ).reshape(-1, size)
        rows = np.zeros((len(flat), n_ranks), dtype=np.int64)
        np.add.at(rows, (np.repeat(np.arange(len(flat)), size), flat.ravel()), 1)
        per_slot.append(rows)
    mult = per_slot[0][:, None, :]  # (patterns, slots so far, ranks)
    for extra in per_slot[1:]:
        left = np.repeat(mult, len(extra), axis=0)
        right = np.tile(extra, (mult.shape[0], 1))[:, None, :]
        mult = np.concatenate([left, right], axis=1)
    fits = (mult.sum(axis=1) <= caps).all(axis=1)
    mult = mult[fits]
    # canonical under the rank group: the smallest code among the images
    base = max(slot_sizes) + 1
    powers = base ** np.arange(n_ranks * len(slot_sizes), dtype=np.int64)
    flat = mult.reshape(mult.shape[0], -1)
    code = flat @ powers
    best = code.copy()
    stabilizer = np.zeros(len(code), dtype=np.int64)
    for perm in geo.rank_group:
        image = np.empty_like(mult)
        image[:, :, list(perm)] = mult
        c = image.reshape(image.shape[0], -1) @ powers
        best = np.minimum(best, c)
        stabilizer += c == code
    keep = best == code
    mult = mult[keep]
    weight = len(geo.rank_group) // stabilizer[keep]
    # levels: (rank, multiplicity, slot), ranks ascending, slots within a rank
    by_rank = mult.transpose(0, 2, 1).reshape(len(mult), -1)  # index rank * slots + slot
    row, col = np.nonzero(by_rank)
    n_levels = np.bincount(row, minlength=len(mult)).astype(np.int64)
    first = np.concatenate([[0], np.cumsum(n_levels)[:-1]])
    place = np.arange(len(row)) - first[row]
    levels = np.zeros((len(mult), sum(slot_sizes), 3), dtype=np.int64)
    n_slots = len(slot_sizes)
    levels[row, place, 0] = col // n_slots
    levels[row, place, 1] = by_rank[row, col]
    levels[row, place, 2] = col % n_slots
    # the hands a pattern stands for, a measure of the work it takes
    avail_ways = np.array(
        [[math.comb(int(c), m) for m in range(sum(slot_sizes) + 1)] for c in caps]
    )
    ways = avail_ways[np.arange(n_ranks), mult.sum(axis=1)].astype(np.float64).prod(axis=1)
    return Patterns(levels, n_levels, weight.astype(np.int64), ways)


def run_patterns(
    geo: Geometry,
    patterns: Patterns,
    slot_sizes: tuple[int, ...],
    combos: np.ndarray[Any, Any],
    progress: Progress | None,
) -> np.ndarray[Any, Any]:
    from cardlab.poker._kernels import tables7_count as kern

    slot_start = np.concatenate([[0], np.cumsum(slot_sizes)]).astype(np.int64)
    n = len(patterns.weight)
    # Tasks of even weight (the patterns dealt round robin, heaviest first), run by a
    # pool of threads: the kernel releases the GIL, so the cores work side by side.
    tasks = max(1, min(CHUNKS, n))
    heavy_first = np.argsort(-patterns.work, kind="stable")
    parts = [heavy_first[t::tasks] for t in range(tasks)]

    def count(part: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        result: np.ndarray[Any, Any] = kern.count_patterns(
            patterns.levels[part],
            patterns.n_levels[part],
            patterns.weight[part],
            slot_start,
            geo.avail,
            geo.init_class,
            combos,
            geo.strength,
            geo.suit_kind,
            geo.popcount,
            geo.lut,
            geo.straights,
            geo.binom,
            geo.mixmask,
        )
        return result

    total = np.zeros(N_SHAPES, dtype=np.int64)
    if progress is not None:
        progress(0, n)
    done = 0
    with ThreadPoolExecutor(max_workers=max(1, kern.thread_count())) as pool:
        futures = {pool.submit(count, part): len(part) for part in parts}
        for future in as_completed(futures):
            total += future.result()
            done += futures[future]
            if progress is not None:
                progress(done, n)
    return total


def sample_omaha(
    geo: Geometry, n_cards: int, samples: int, seed: int, progress: Progress | None
) -> np.ndarray[Any, Any]:
    from cardlab.poker._kernels import tables7_count as kern

    combos = omaha_subsets()
    total = np.zeros(N_SHAPES, dtype=np.int64)
    batch = 200_000
    done = 0
    if progress is not None:
        progress(0, samples)
    # one seed per batch, derived from the user's seed: reproducible and independent
    seeds = np.random.SeedSequence(seed).generate_state((samples + batch - 1) // batch, np.uint32)
    for seed_b in seeds:
        m = min(batch, samples - done)
        deal = kern.random_deals(n_cards, m, OMAHA_HOLE + OMAHA_BOARD, int(seed_b))
        shapes = kern.best_shapes(
            geo.card_rank[deal],
            geo.card_suit[deal],
            combos,
            geo.strength,
            geo.mixmask,
            geo.lut,
            geo.straights,
        )
        total += np.bincount(shapes, minlength=N_SHAPES)
        done += m
        if progress is not None:
            progress(done, samples)
    return total


# --- five-card subsets ---------------------------------------------------------------


@lru_cache(maxsize=8)
def subsets(k: int) -> np.ndarray[Any, Any]:
    return np.array(list(itertools.combinations(range(k), 5)), dtype=np.int64)


@lru_cache(maxsize=1)
def omaha_subsets() -> np.ndarray[Any, Any]:
    """Two of the hole cards (0..3) with three of the board cards (4..8)."""
    hole = itertools.combinations(range(OMAHA_HOLE), 2)
    rows = [
        (*h, *b)
        for h, b in itertools.product(
            hole, itertools.combinations(range(OMAHA_HOLE, OMAHA_HOLE + OMAHA_BOARD), 3)
        )
    ]
    return np.array(rows, dtype=np.int64)


def by_category(geo: Geometry, shapes: np.ndarray[Any, Any]) -> dict[Category, int]:
    counts: dict[Category, int] = {}
    for sid, n in enumerate(shapes):
        if not n:
            continue
        cat = geo.category[sid]
        if cat is None:  # a shape the order does not know: the kernels and order disagree
            raise RuntimeError(f"shape {BASES[sid // 2].value}/{sid % 2} has no category")
        counts[cat] = counts.get(cat, 0) + int(n)
    return counts
