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
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from cardlab import budget
from cardlab.cards import Card
from cardlab.errors import GameError, HandError
from cardlab.poker import _omaha_patterns as _op
from cardlab.poker._kernels import tables7_patterns as pat
from cardlab.poker.categories import BaseHand, Category
from cardlab.poker.rules import RuleSet

Progress = pat.Progress
"""Called as ``progress(done, total)`` while a table is counted (work units, not hands)."""

HAND_SIZES = (5, 6, 7)
OMAHA_HOLE, OMAHA_BOARD = 4, 5
N_SHAPES = 2 * len(BaseHand)
pat.BASES = tuple(BaseHand)
_CHUNKS = 40  # progress steps per table

# Omaha: exact when about this many five-card evaluations or fewer are needed.
OMAHA_EXACT_BUDGET = 2_500_000_000
OMAHA_SAMPLES = 2_000_000
OMAHA_BRUTE_FORCE_CARDS = 24


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
    check_best_of_cost(rules, k)
    geo = pat.geometry(rules)
    patterns = pat.rank_patterns(geo, (k,))
    shapes = pat.run_patterns(geo, patterns, (k,), pat.subsets(k), progress)
    return _table(rules, f"best-of-{k}", k, math.comb(len(rules.deck), k), shapes, "combinatorial")


def brute_force_counts(rules: RuleSet, hand_size: int) -> dict[Category, int]:
    """The check path: the best-five category of every k-subset of the deck, no symmetry.

    Compiled and parallel, but it visits all C(n, k) hands (FESCA42: 27 million for
    seven cards, a few seconds); use it on small decks.
    """
    from cardlab.poker._kernels import tables7_count as kern

    k = _check_hand_size(rules, hand_size)
    geo = pat.geometry(rules)
    shapes = kern.brute_force(
        len(rules.deck),
        k,
        geo.card_rank,
        geo.card_suit,
        pat.subsets(k),
        geo.strength,
        geo.mixmask,
        geo.lut,
        geo.straights,
    )
    return pat.by_category(geo, shapes)


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
    combos = pat.omaha_subsets() if size == OMAHA_HOLE + OMAHA_BOARD else pat.subsets(size)
    geo = pat.geometry(rules)
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
    geo = pat.geometry(rules)
    if exact is None:
        exact = omaha_exact_work(rules) <= OMAHA_EXACT_BUDGET
    if exact:
        patterns = _op.expand(_op.omaha_patterns(rules))
        shapes = pat.run_patterns(
            geo, patterns, (OMAHA_HOLE, OMAHA_BOARD), pat.omaha_subsets(), progress
        )
        return _table(rules, "omaha", 9, hands, shapes, "combinatorial")
    if samples < 1:
        raise GameError(f"samples must be at least 1, not {samples!r}")
    if seed < 0:
        raise GameError(f"seed must be a non-negative integer, not {seed!r}")
    budget.check(
        f"sampling {samples:,} Omaha deals",
        omaha_sampled_seconds(samples),
        f"ask for fewer samples (the default is {OMAHA_SAMPLES:,})",
    )
    shapes = pat.sample_omaha(geo, n, samples, seed, progress)
    return _table(rules, "omaha", 9, hands, shapes, "sampled", samples=samples, seed=seed)


def omaha_brute_force_counts(rules: RuleSet) -> dict[Category, int]:
    """The Omaha check path: every (4 hole, 5 board) deal of a small deck (up to about
    20 cards: it holds all the deals in memory), each by its 60 choices of 2 + 3."""
    from cardlab.poker._kernels import tables7_count as kern

    n = len(rules.deck)
    if n > OMAHA_BRUTE_FORCE_CARDS:
        raise GameError(
            f"{rules.deck.name} has {n} cards: too many deals to visit one by one "
            f"(at most {OMAHA_BRUTE_FORCE_CARDS} cards); use omaha_table"
        )
    geo = pat.geometry(rules)
    holes = np.array(list(itertools.combinations(range(n), OMAHA_HOLE)), dtype=np.int64)
    boards = np.array(list(itertools.combinations(range(n), OMAHA_BOARD)), dtype=np.int64)
    # every (hole, board) pair, then the deals whose nine cards are all different
    hole_mask = (1 << holes).sum(axis=1)
    board_mask = (1 << boards).sum(axis=1)
    h, b = np.nonzero((hole_mask[:, None] & board_mask[None, :]) == 0)
    deals = np.concatenate([holes[h], boards[b]], axis=1)
    shapes = kern.best_shapes(
        geo.card_rank[deals],
        geo.card_suit[deals],
        pat.omaha_subsets(),
        geo.strength,
        geo.mixmask,
        geo.lut,
        geo.straights,
    )
    total = np.bincount(shapes, minlength=N_SHAPES)
    return pat.by_category(geo, total)


OMAHA_EVALUATIONS_PER_CORE = 100_000_000
"""Five-card evaluations a second of the exact Omaha count on one core, rounded down from
a measured FESCA78 run (4.4e11 evaluations in 2,271 CPU s): for estimates before the work."""


def omaha_exact_seconds(rules: RuleSet, cores: int | None = None) -> float:
    """About how long the exact Omaha table of ``rules`` takes on ``cores`` cores
    (default: this machine's)."""
    import os

    per_second = OMAHA_EVALUATIONS_PER_CORE * (cores or os.cpu_count() or 1)
    return omaha_exact_work(rules) / per_second


def omaha_sampled_seconds(samples: int, cores: int | None = None) -> float:
    """About how long ``samples`` random Omaha deals take to score on ``cores`` cores
    (default: this machine's): the 60 fives of each, at the exact count's rate."""
    import os

    per_second = OMAHA_EVALUATIONS_PER_CORE * (cores or os.cpu_count() or 1)
    return budget.seconds_for(samples * 60, per_second)


OMAHA_PATTERN_BYTES = 80
"""Bytes the exact Omaha count holds per canonical (hole, board) rank pattern of its
listing (:mod:`cardlab.poker._omaha_patterns`: the compact rows and the listing's
temporaries), rounded up from a measured standard52 listing (5.5 million patterns, 411
MB over the process's start)."""

OMAHA_LISTING_BYTES = 64 * 10**6
"""The listing's block arrays (about :data:`cardlab.poker._omaha_patterns.BLOCK_ROWS`
rows of codes and cards at once), whatever the deck."""

OMAHA_EXPANDED_BYTES = (OMAHA_HOLE + OMAHA_BOARD) * 3 * 8 + 3 * 8
"""Bytes of one pattern as the counting kernel reads it (int64 levels, count, weight,
work): a part's patterns are expanded so."""

OMAHA_PATTERNS_PER_SECOND = 50_000
"""Canonical patterns the listing keeps a second, rounded down from measured runs
(standard52: 5.5 million in 59 s on a busy machine)."""

OMAHA_VISITS_PER_SECOND = 10_000_000
"""(hole, board) rank multisets the listing visits a second under each element of the
deck's rank group, rounded down (FESCA78: 2.9e8 visits in 16 s)."""


def omaha_patterns_fitting(rules: RuleSet) -> int:
    """How many (4 hole ranks, 5 board ranks) multiset pairs fit the deck (no rank holds
    more cards than it has suits): the product over ranks of the ways a rank takes
    ``h`` hole and ``b`` board cards (``h + b`` at most its cards), coefficient of
    4 hole and 5 board cards."""
    caps = [bin(int(a)).count("1") for a in pat.symmetry(rules).avail]
    ways = np.zeros((OMAHA_HOLE + 1, OMAHA_BOARD + 1), dtype=object)
    ways[0, 0] = 1
    for cap in caps:
        grown = np.zeros_like(ways)
        for h in range(OMAHA_HOLE + 1):
            for b in range(OMAHA_BOARD + 1):
                if ways[h, b]:
                    for i in range(min(cap, OMAHA_HOLE - h) + 1):
                        for j in range(min(cap - i, OMAHA_BOARD - b) + 1):
                            grown[h + i, b + j] += ways[h, b]
        ways = grown
    return int(ways[OMAHA_HOLE, OMAHA_BOARD])


def omaha_listing_estimate(rules: RuleSet) -> tuple[int, float]:
    """About how many canonical patterns the exact Omaha listing keeps (the fitting ones
    over the rank group: each orbit kept once), and how long the listing takes (one
    process; every process of a cluster lists them once)."""
    group = len(pat.symmetry(rules).rank_group)
    ranks = len(rules.deck.ranks)
    patterns = -(-omaha_patterns_fitting(rules) // group)
    visits = math.comb(ranks + OMAHA_HOLE - 1, OMAHA_HOLE)
    visits *= math.comb(ranks + OMAHA_BOARD - 1, OMAHA_BOARD) * group
    seconds = budget.seconds_for(visits, OMAHA_VISITS_PER_SECOND)
    return patterns, seconds + budget.seconds_for(patterns, OMAHA_PATTERNS_PER_SECOND)


def omaha_exact_bytes(rules: RuleSet, parts: int = 1) -> int:
    """About the memory one process of the exact Omaha count holds: the listing of every
    canonical pattern, and one of ``parts`` parts expanded for the kernel (1: the whole
    table in one process)."""
    patterns, _ = omaha_listing_estimate(rules)
    expanded = -(-patterns // parts) * OMAHA_EXPANDED_BYTES
    return patterns * OMAHA_PATTERN_BYTES + OMAHA_LISTING_BYTES + expanded


def omaha_exact_work(rules: RuleSet) -> int:
    """Estimated five-card evaluations for an exact Omaha table: the deals divided by
    the deck's symmetry, times the 60 ways to choose 2 + 3 cards."""
    n = len(rules.deck)
    geo = pat.symmetry(rules)
    deals = math.comb(n, OMAHA_HOLE) * math.comb(n - OMAHA_HOLE, OMAHA_BOARD)
    return deals * 60 // (geo.suit_symmetry * len(geo.rank_group))


PATTERN_BYTES = 5 * 8
"""Bytes a listed rank pattern holds per rank: :func:`pat.rank_patterns` keeps about five
int64 arrays of patterns x ranks at once (the listing, the patterns that fit, an image
under the rank group, the patterns by rank, the counts added up)."""


def best_of_patterns(rules: RuleSet, hand_size: int) -> int:
    """The rank patterns a best-of-``hand_size`` table lists before keeping the
    canonical ones: every multiset of ``hand_size`` ranks, C(ranks + k - 1, k)."""
    ranks = len(rules.deck.ranks)
    return math.comb(ranks + hand_size - 1, hand_size)


def best_of_bytes(rules: RuleSet, hand_size: int) -> int:
    """About the memory the listing of :func:`best_of_patterns` holds at its peak."""
    return best_of_patterns(rules, hand_size) * len(rules.deck.ranks) * PATTERN_BYTES


def best_of_seconds(rules: RuleSet, hand_size: int, cores: int | None = None) -> float:
    """About how long the count of a best-of-``hand_size`` table takes on ``cores`` cores
    (default: this machine's): the hands up to the deck's symmetry, each by its C(k, 5)
    fives, at the exact Omaha count's rate."""
    import os

    geo = pat.symmetry(rules)
    symmetry = geo.suit_symmetry * len(geo.rank_group)
    evaluations = math.comb(len(rules.deck), hand_size) * math.comb(hand_size, 5) // symmetry
    per_second = OMAHA_EVALUATIONS_PER_CORE * (cores or os.cpu_count() or 1)
    return budget.seconds_for(evaluations, per_second)


def check_best_of_cost(
    rules: RuleSet,
    hand_size: int,
    instead: str = "count hands of fewer cards, or use a deck with fewer ranks",
) -> None:
    """Refuse, before any work, a best-of table past the budget's memory or time
    (:mod:`cardlab.budget`), with the estimate and what to ask for ``instead``."""
    what = (
        f"the best-of-{hand_size} table of the {rules.deck.name} deck lists "
        f"{best_of_patterns(rules, hand_size):,} rank patterns and"
    )
    budget.check_memory(what, best_of_bytes(rules, hand_size), instead)
    budget.check(what.removesuffix(" and"), best_of_seconds(rules, hand_size), instead)


# --- results -------------------------------------------------------------------------


def _check_hand_size(rules: RuleSet, hand_size: int) -> int:
    if isinstance(hand_size, bool) or not isinstance(hand_size, int) or hand_size not in HAND_SIZES:
        raise HandError(f"hand size must be 5, 6 or 7, not {hand_size!r}")
    if len(rules.deck) < hand_size:
        raise HandError(f"{rules.deck.name} has {len(rules.deck)} cards, fewer than {hand_size}")
    return hand_size


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
    geo = pat.geometry(rules)
    counts = pat.by_category(geo, shapes)
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


# --- exact Omaha in independent parts (for a cluster: cardlab.analysis.omaha) ----------


@dataclass(frozen=True, slots=True)
class OmahaPart:
    """One share of the canonical rank patterns of an exact Omaha count: part ``index``
    of ``parts``, the patterns dealt round robin, heaviest first, so parts weigh alike.
    Counting every part and adding the counts (:func:`omaha_table_from_parts`) gives
    exactly :func:`omaha_table`'s exact table.

    The value names the part only; its patterns are listed where it is counted (a
    few seconds for FESCA78, once per process), so a task is small to send and a
    cached part needs no patterns at all."""

    rules: RuleSet
    index: int
    parts: int

    def __post_init__(self) -> None:
        if isinstance(self.parts, bool) or not isinstance(self.parts, int) or self.parts < 1:
            raise GameError(f"parts must be at least 1, not {self.parts!r}")
        if not 0 <= self.index < self.parts:
            raise GameError(f"part index must be 0 to {self.parts - 1}, not {self.index!r}")

    @property
    def patterns(self) -> pat.Patterns:
        """The part's canonical rank patterns, as the counting kernel reads them."""
        which = _op.omaha_partition(self.rules, self.parts)[self.index]
        return _op.expand(_op.omaha_patterns(self.rules), which)

    @property
    def work(self) -> float:
        """Hands the part stands for before symmetry: its share of the work."""
        which = _op.omaha_partition(self.rules, self.parts)[self.index]
        return float(_op.omaha_patterns(self.rules).work[which].sum())


def omaha_parts(rules: RuleSet, parts: int) -> tuple[OmahaPart, ...]:
    """The exact Omaha count split into ``parts`` independent parts."""
    if isinstance(parts, bool) or not isinstance(parts, int) or parts < 1:
        raise GameError(f"parts must be at least 1, not {parts!r}")
    if len(rules.deck) < OMAHA_HOLE + OMAHA_BOARD:
        raise HandError(f"{rules.deck.name} has {len(rules.deck)} cards; Omaha needs 9")
    return tuple(OmahaPart(rules, i, parts) for i in range(parts))


def count_omaha_part(part: OmahaPart, *, progress: Progress | None = None) -> list[int]:
    """The counts of one part (opaque: add them up and give them to
    :func:`omaha_table_from_parts`)."""
    geo = pat.geometry(part.rules)
    shapes = pat.run_patterns(
        geo, part.patterns, (OMAHA_HOLE, OMAHA_BOARD), pat.omaha_subsets(), progress
    )
    return [int(x) for x in shapes]


def omaha_table_from_parts(rules: RuleSet, counts: Sequence[Sequence[int]]) -> SevenTable:
    """The exact Omaha table from the counts of every part."""
    n = len(rules.deck)
    total = np.zeros(N_SHAPES, dtype=np.int64)
    for c in counts:
        total += np.asarray(c, dtype=np.int64)
    hands = math.comb(n, OMAHA_HOLE) * math.comb(n - OMAHA_HOLE, OMAHA_BOARD)
    return _table(rules, "omaha", 9, hands, total, "combinatorial")
