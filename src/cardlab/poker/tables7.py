"""Exact tables of the best five of six or seven cards, and of Omaha's 2 + 3 choice.

How often each category is the *best* five a player can make, over every hand of the
deck, beside the five-card order the rules derive (rarer is stronger), with every
inversion flagged: a category that is more frequent as the best five than a category
the five-card order puts below it.

The best five of ``k`` cards has the strongest category over the C(k, 5) subsets, so
counting needs only the category of each subset. The count is combinatorial, never a
walk over all C(n, k) hands:

- **rank patterns**: the multiplicity of each rank (C(19, 7) = 50,388 for FESCA78),
  reduced by the deck's rank symmetry (rotations and reflections of the rank ring
  that keep the straights and the cards: 26 for FESCA78, 2 for standard52), each
  canonical pattern weighted by its orbit;
- **suit patterns**: for each rank pattern, the suits are chosen up to the symmetry of
  interchangeable suits (FESCA78's five element suits; the standard deck's four),
  each choice weighted by the hands it stands for;
- each resulting hand is evaluated exactly by its five-card subsets in a compiled
  kernel, in parallel over the rank patterns.

:func:`brute_force_counts` is the plain check: every k-subset of the deck, best of its
subsets, no symmetry. The category of five cards comes from the rule set's derived
order (:func:`cardlab.poker.order.hand_order`), the one shape table every evaluator
uses.

>>> from cardlab.poker.rules import RuleSet
>>> table = best_of_table(RuleSet.for_deck("standard52"), 7)  # doctest: +SKIP
>>> table.row(Category.STRAIGHT_FLUSH).count  # doctest: +SKIP
41584
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from cardlab.cards import Card
from cardlab.errors import GameError, HandError
from cardlab.poker.categories import BaseHand, Category
from cardlab.poker.rules import RuleSet

Progress = Callable[[int, int], None]
"""Called as ``progress(done, total)`` while a table is counted (work units, not hands)."""

HAND_SIZES = (5, 6, 7)
OMAHA_HOLE, OMAHA_BOARD = 4, 5
N_SHAPES = 2 * len(BaseHand)
_BASES = tuple(BaseHand)
_CHUNKS = 40  # progress steps per table

# Omaha: exact when about this many five-card evaluations or fewer are needed.
OMAHA_EXACT_BUDGET = 2_500_000_000
OMAHA_SAMPLES = 2_000_000


@dataclass(frozen=True, slots=True)
class SevenRow:
    """One category of a table: its five-card place and how often it is the best five.

    ``count`` is the number of hands (exact tables) or of sampled hands (sampled ones)
    whose best five is this category, out of ``total``.
    """

    order: int  # place in the deck's five-card order, 1 = strongest
    category: Category
    five_card_count: int  # five-card combinations of this category
    count: int
    total: int
    exact: bool
    # weaker categories that are rarer here (sampled: by more than 3 standard errors)
    inverted_over: tuple[Category, ...] = ()

    @property
    def probability(self) -> Fraction:
        """Exact probability, or the sample frequency when ``exact`` is False."""
        return Fraction(self.count, self.total) if self.total else Fraction(0)

    @property
    def std_error(self) -> float:
        """Standard error of ``probability`` (0.0 for an exact figure)."""
        if self.exact or not self.total:
            return 0.0
        p = self.count / self.total
        return math.sqrt(p * (1.0 - p) / self.total)

    @property
    def inverted(self) -> bool:
        return bool(self.inverted_over)


@dataclass(frozen=True, slots=True)
class SevenTable:
    """How often each category is the best five, for one game over one deck.

    ``game`` is ``"best-of-6"``, ``"best-of-7"`` (``"best-of-5"`` is the plain deal) or
    ``"omaha"``; ``hands`` is the number of possible hands (C(n, k), or for Omaha
    C(n, 4) x C(n - 4, 5)). Rows are strongest first in the five-card order.
    ``method`` says how the figures were obtained: ``"combinatorial"``,
    ``"brute-force"`` or ``"sampled"`` (then ``samples`` and ``seed`` are set).
    """

    rules: RuleSet
    game: str
    hand_size: int
    hands: int
    rows: tuple[SevenRow, ...]
    method: str
    samples: int = 0
    seed: int | None = None

    @property
    def exact(self) -> bool:
        return all(r.exact for r in self.rows)

    @property
    def inversions(self) -> tuple[tuple[Category, Category], ...]:
        """(stronger, weaker) pairs where the stronger is the more frequent best five."""
        return tuple((r.category, w) for r in self.rows for w in r.inverted_over)

    def row(self, category: Category) -> SevenRow:
        for r in self.rows:
            if r.category is category:
                return r
        raise GameError(f"{category.english!r} is not a hand of {self.rules.name}")

    def counts(self) -> dict[Category, int]:
        return {r.category: r.count for r in self.rows}

    def as_dict(self) -> dict[str, Any]:
        """Plain data for JSON output (probabilities as Fractions)."""
        return {
            "deck": self.rules.deck.name,
            "cards": len(self.rules.deck),
            "game": self.game,
            "hand_size": self.hand_size,
            "combinations": self.hands,
            "method": self.method,
            "exact": self.exact,
            "samples": self.samples,
            "seed": self.seed,
            "hands": [
                {
                    "order": r.order,
                    "id": r.category.value,
                    "name": r.category.english,
                    "five_card_count": r.five_card_count,
                    "count": r.count,
                    "total": r.total,
                    "probability": r.probability,
                    "exact": r.exact,
                    "std_error": r.std_error,
                    "inverted_over": [c.value for c in r.inverted_over],
                }
                for r in self.rows
            ],
            "inversions": [[a.value, b.value] for a, b in self.inversions],
            "options": {info.name: value for info, value in self.rules.options()},
        }


# --- public entry points ---------------------------------------------------------


def best_of_table(
    rules: RuleSet, hand_size: int, *, progress: Progress | None = None
) -> SevenTable:
    """Exact counts of the best five of ``hand_size`` (6 or 7; 5 gives the plain deal)
    over all C(n, hand_size) hands, counted combinatorially."""
    k = _check_hand_size(rules, hand_size)
    geo = _geometry(rules)
    patterns = _rank_patterns(geo, (k,))
    shapes = _run_patterns(geo, patterns, (k,), _subsets(k), progress)
    return _table(rules, f"best-of-{k}", k, math.comb(len(rules.deck), k), shapes, "combinatorial")


def brute_force_counts(rules: RuleSet, hand_size: int) -> dict[Category, int]:
    """The check path: the best-five category of every k-subset of the deck, no symmetry.

    Compiled and parallel, but it visits all C(n, k) hands (FESCA42: 27 million for
    seven cards, a few seconds); use it on small decks.
    """
    from cardlab.poker._kernels import tables7_count as kern

    k = _check_hand_size(rules, hand_size)
    geo = _geometry(rules)
    shapes = kern.brute_force(
        len(rules.deck),
        k,
        geo.card_rank,
        geo.card_suit,
        _subsets(k),
        geo.strength,
        geo.mixmask,
        geo.lut,
        geo.straights,
    )
    return _by_category(geo, shapes)


def best_categories(hands: Sequence[Sequence[Card]], rules: RuleSet) -> list[Category]:
    """The category of the best five of each hand (5 to 7 cards, or 9 for Omaha as
    4 hole + 5 board cards when ``omaha`` tables are checked), by the compiled kernel.

    All hands must have the same size. This is the per-hand view of the counting
    kernel, for tests against the reference evaluator.
    """
    from cardlab.poker._kernels import tables7_count as kern

    if not hands:
        return []
    size = len(hands[0])
    if any(len(h) != size for h in hands):
        raise HandError("all hands must have the same number of cards")
    if size not in (*HAND_SIZES, OMAHA_HOLE + OMAHA_BOARD):
        raise HandError(f"hands must have 5 to 7 cards, or 9 for Omaha, not {size}")
    combos = _omaha_subsets() if size == OMAHA_HOLE + OMAHA_BOARD else _subsets(size)
    geo = _geometry(rules)
    codes = np.array([rules.deck.codes(rules.deck.parse_cards(h, count=size)) for h in hands])
    codes = codes.astype(np.int64).reshape(len(hands), size)
    shapes = kern.best_shapes(
        geo.card_rank[codes],
        geo.card_suit[codes],
        combos,
        geo.strength,
        geo.mixmask,
        geo.lut,
        geo.straights,
    )
    out = []
    for sid in shapes:
        cat = geo.category[int(sid)]
        if cat is None:  # pragma: no cover - the kernel and the order disagree
            raise RuntimeError(f"shape {int(sid)} has no category")
        out.append(cat)
    return out


def omaha_table(
    rules: RuleSet,
    *,
    samples: int = OMAHA_SAMPLES,
    seed: int = 0,
    exact: bool | None = None,
    progress: Progress | None = None,
) -> SevenTable:
    """Best five from exactly 2 of 4 hole cards and 3 of 5 board cards.

    Exact (combinatorial, as :func:`best_of_table`) where the work is within
    :data:`OMAHA_EXACT_BUDGET` five-card evaluations; otherwise ``samples`` random
    deals from a generator seeded with ``seed``, each row with its standard error.
    ``exact=True`` forces the exact count (may take very long), ``False`` sampling.
    """
    n = len(rules.deck)
    if n < OMAHA_HOLE + OMAHA_BOARD:
        raise HandError(f"{rules.deck.name} has {n} cards; Omaha needs 9")
    hands = math.comb(n, OMAHA_HOLE) * math.comb(n - OMAHA_HOLE, OMAHA_BOARD)
    geo = _geometry(rules)
    if exact is None:
        exact = omaha_exact_work(rules) <= OMAHA_EXACT_BUDGET
    if exact:
        patterns = _rank_patterns(geo, (OMAHA_HOLE, OMAHA_BOARD))
        shapes = _run_patterns(geo, patterns, (OMAHA_HOLE, OMAHA_BOARD), _omaha_subsets(), progress)
        return _table(rules, "omaha", 9, hands, shapes, "combinatorial")
    if samples < 1:
        raise GameError(f"samples must be at least 1, not {samples!r}")
    if seed < 0:
        raise GameError(f"seed must be a non-negative integer, not {seed!r}")
    shapes = _sample_omaha(geo, n, samples, seed, progress)
    return _table(rules, "omaha", 9, hands, shapes, "sampled", samples=samples, seed=seed)


def omaha_brute_force_counts(rules: RuleSet) -> dict[Category, int]:
    """The Omaha check path: every (4 hole, 5 board) deal of a small deck, one by one."""
    from cardlab.poker._kernels import tables7_count as kern

    n = len(rules.deck)
    geo = _geometry(rules)
    total = np.zeros(N_SHAPES, dtype=np.int64)
    boards = np.array(list(itertools.combinations(range(n), OMAHA_BOARD)), dtype=np.int64)
    for hole in itertools.combinations(range(n), OMAHA_HOLE):
        rest = boards[~np.isin(boards, hole).any(axis=1)]
        deals = np.concatenate([np.broadcast_to(np.array(hole), (len(rest), 4)), rest], axis=1)
        shapes = kern.best_shapes(
            geo.card_rank[deals],
            geo.card_suit[deals],
            _omaha_subsets(),
            geo.strength,
            geo.mixmask,
            geo.lut,
            geo.straights,
        )
        total += np.bincount(shapes, minlength=N_SHAPES)
    return _by_category(geo, total)


def omaha_exact_work(rules: RuleSet) -> int:
    """Estimated five-card evaluations for an exact Omaha table: the deals divided by
    the deck's symmetry, times the 60 ways to choose 2 + 3 cards."""
    n = len(rules.deck)
    geo = _geometry(rules)
    deals = math.comb(n, OMAHA_HOLE) * math.comb(n - OMAHA_HOLE, OMAHA_BOARD)
    return deals * 60 // (geo.suit_symmetry * len(geo.rank_group))


# --- deck geometry -----------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class _Geometry:
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


@lru_cache(maxsize=32)
def _geometry(rules: RuleSet) -> _Geometry:
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
    straights = np.array(sorted(rules.straights), dtype=np.int64)
    lut = np.zeros(1 << n_ranks if n_ranks <= 20 else 0, dtype=np.uint8)
    if lut.size:
        lut[straights] = 1
    binom = np.array([[math.comb(a, b) for b in range(16)] for a in range(16)], np.int64)
    popcount = np.array([bin(m).count("1") for m in range(1 << n_suits)], dtype=np.int64)
    suit_kind = np.where(popcount == 1, 1, 0).astype(np.int64)
    if mixmask:
        suit_kind[popcount[np.arange(1 << n_suits) & mixmask] == 5] = 2
    strength, category, order = _shape_strengths(rules)
    return _Geometry(
        card_rank=card_rank,
        card_suit=card_suit,
        avail=avail,
        init_class=init_class,
        mixmask=mixmask,
        straights=straights,
        lut=lut,
        binom=binom,
        popcount=popcount,
        suit_kind=suit_kind,
        rank_group=_rank_group([int(a) for a in avail], set(rules.straights)),
        suit_symmetry=suit_symmetry,
        strength=strength,
        category=category,
        order=order,
    )


def _shape_strengths(
    rules: RuleSet,
) -> tuple[np.ndarray[Any, Any], tuple[Category | None, ...], Any]:
    """Shape id (base index * 2 + Mixwell) -> primary strength and category, from the
    rule set's derived order (the shape table every evaluator uses)."""
    from cardlab.poker.order import hand_order

    order = hand_order(rules)
    strength = np.full(N_SHAPES, -1, dtype=np.int64)
    category: list[Category | None] = [None] * N_SHAPES
    for (base, mix), (cat, primary, _secondary) in order.shape_table.items():
        sid = _BASES.index(base) * 2 + int(mix)
        strength[sid] = primary
        category[sid] = cat
    return strength, tuple(category), order


def _rank_group(avail: list[int], straights: set[int]) -> tuple[tuple[int, ...], ...]:
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
class _Patterns:
    levels: np.ndarray[Any, Any]  # (n, max levels, 3): rank, multiplicity, slot
    n_levels: np.ndarray[Any, Any]
    weight: np.ndarray[Any, Any]  # rank patterns each stands for (orbit size)
    work: np.ndarray[Any, Any]  # hands each stands for, before symmetry (a cost estimate)


def _rank_patterns(geo: _Geometry, slot_sizes: tuple[int, ...]) -> _Patterns:
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
    return _Patterns(levels, n_levels, weight.astype(np.int64), ways)


def _run_patterns(
    geo: _Geometry,
    patterns: _Patterns,
    slot_sizes: tuple[int, ...],
    combos: np.ndarray[Any, Any],
    progress: Progress | None,
) -> np.ndarray[Any, Any]:
    from cardlab.poker._kernels import tables7_count as kern

    slot_start = np.concatenate([[0], np.cumsum(slot_sizes)]).astype(np.int64)
    n = len(patterns.weight)
    total = np.zeros(N_SHAPES, dtype=np.int64)
    # Each call gets an even share of the work, and the parallel loop splits a call
    # into contiguous blocks, one per thread: deal the patterns out round robin,
    # heaviest first, so that every block is as heavy as the others.
    chunks = 1 if progress is None else min(_CHUNKS, n)
    threads = max(1, kern.thread_count())
    heavy_first = np.argsort(-patterns.work, kind="stable")
    if progress is not None:
        progress(0, n)
    done = 0
    for c in range(chunks):
        part = heavy_first[c::chunks]
        part = np.concatenate([part[t::threads] for t in range(threads)])
        total += kern.count_patterns(
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
        )
        done += len(part)
        if progress is not None:
            progress(done, n)
    return total


def _sample_omaha(
    geo: _Geometry, n_cards: int, samples: int, seed: int, progress: Progress | None
) -> np.ndarray[Any, Any]:
    from cardlab.poker._kernels import tables7_count as kern

    combos = _omaha_subsets()
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
def _subsets(k: int) -> np.ndarray[Any, Any]:
    return np.array(list(itertools.combinations(range(k), 5)), dtype=np.int64)


@lru_cache(maxsize=1)
def _omaha_subsets() -> np.ndarray[Any, Any]:
    """Two of the hole cards (0..3) with three of the board cards (4..8)."""
    hole = itertools.combinations(range(OMAHA_HOLE), 2)
    rows = [
        (*h, *b)
        for h, b in itertools.product(
            hole, itertools.combinations(range(OMAHA_HOLE, OMAHA_HOLE + OMAHA_BOARD), 3)
        )
    ]
    return np.array(rows, dtype=np.int64)


# --- results -------------------------------------------------------------------------


def _check_hand_size(rules: RuleSet, hand_size: int) -> int:
    if isinstance(hand_size, bool) or not isinstance(hand_size, int) or hand_size not in HAND_SIZES:
        raise HandError(f"hand size must be 5, 6 or 7, not {hand_size!r}")
    if len(rules.deck) < hand_size:
        raise HandError(f"{rules.deck.name} has {len(rules.deck)} cards, fewer than {hand_size}")
    return hand_size


def _by_category(geo: _Geometry, shapes: np.ndarray[Any, Any]) -> dict[Category, int]:
    counts: dict[Category, int] = {}
    for sid, n in enumerate(shapes):
        if not n:
            continue
        cat = geo.category[sid]
        if cat is None:  # a shape the order does not know: the kernels and order disagree
            raise RuntimeError(f"shape {_BASES[sid // 2].value}/{sid % 2} has no category")
        counts[cat] = counts.get(cat, 0) + int(n)
    return counts


def _more_frequent(a: int, b: int, sampled: bool) -> bool:
    """``a`` hands (or samples) outnumber ``b``; for samples, by more than three
    standard errors of the difference (about sqrt(a + b)), so noise is not flagged."""
    if not sampled:
        return a > b
    return a - b > 3 * math.sqrt(a + b)


def _table(
    rules: RuleSet,
    game: str,
    hand_size: int,
    hands: int,
    shapes: np.ndarray[Any, Any],
    method: str,
    *,
    samples: int = 0,
    seed: int | None = None,
) -> SevenTable:
    geo = _geometry(rules)
    counts = _by_category(geo, shapes)
    total = samples if method == "sampled" else hands
    if method != "sampled" and sum(counts.values()) != hands:
        raise RuntimeError(f"counted {sum(counts.values())} hands, expected {hands}")
    order = geo.order
    cats: list[Category] = list(order.categories)
    for c in counts:
        if c not in cats:
            cats.append(c)
    cats.sort(key=lambda c: -order.strength(c))
    rows = []
    for place, cat in enumerate(cats, 1):
        n = counts.get(cat, 0)
        weaker = tuple(
            w
            for w in cats
            if order.strength(w) < order.strength(cat)
            and _more_frequent(n, counts.get(w, 0), method == "sampled")
        )
        rows.append(
            SevenRow(
                order=place,
                category=cat,
                five_card_count=int(order.counts.get(cat, 0)),
                count=n,
                total=total,
                exact=method != "sampled",
                inverted_over=weaker,
            )
        )
    return SevenTable(
        rules=rules,
        game=game,
        hand_size=hand_size,
        hands=hands,
        rows=tuple(rows),
        method=method,
        samples=samples,
        seed=seed,
    )
