"""Five-card shapes and their exact counts over a deck.

A *shape* is what five cards are before any order is chosen: the classic
:class:`BaseHand` plus whether the five are a Mixwell (five different Mixwell suits).
:func:`count_shapes` counts every shape over all C(n, 5) hands combinatorially: it
walks the rank multisets (at most C(17, 5) = 6,188 of them) and, for each, counts the
suit choices — all of them, the flushes (one suit common to five distinct ranks), and
the Mixwells (a DP over the ranks whose state is the union of the Mixwell suits used so
far). :func:`brute_force_shape_counts` is the plain reference: it classifies every
combination of five cards, and the tests hold the two equal.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from typing import TypeVar

from cardlab.cards import Card
from cardlab.poker.categories import BaseHand
from cardlab.poker.rules import RuleSet

Shape = tuple[BaseHand, bool]
"""(classic base hand, is a Mixwell)."""

T = TypeVar("T")
_CLEARERS: list[Callable[[], None]] = []


def clear_caches() -> None:
    """Forget every per-rule-set cache (for benchmarks timing cold work)."""
    for clear in _CLEARERS:
        clear()
    _mixwell_ways.cache_clear()


def per_rules(fn: Callable[[RuleSet], T]) -> Callable[[RuleSet], T]:
    """Cache ``fn(rules)``: by identity first (hashing a rule set hashes its whole deck,
    which would cost more than a hand evaluation), then by equality."""
    by_value = lru_cache(maxsize=128)(fn)
    by_id: dict[int, tuple[RuleSet, T]] = {}

    def cached(rules: RuleSet) -> T:
        hit = by_id.get(id(rules))
        if hit is not None and hit[0] is rules:
            return hit[1]
        value = by_value(rules)
        if len(by_id) >= 128:
            by_id.clear()
        by_id[id(rules)] = (rules, value)
        return value

    def clear() -> None:
        by_value.cache_clear()
        by_id.clear()

    _CLEARERS.append(clear)
    cached.__doc__ = fn.__doc__
    cached.__wrapped__ = fn  # type: ignore[attr-defined]
    return cached


# sorted multiplicities of the ranks -> base hand (five distinct ranks handled apart)
_BY_PATTERN: dict[tuple[int, ...], BaseHand] = {
    (5,): BaseHand.FIVE_OF_A_KIND,
    (4, 1): BaseHand.FOUR_OF_A_KIND,
    (3, 2): BaseHand.FULL_HOUSE,
    (3, 1, 1): BaseHand.THREE_OF_A_KIND,
    (2, 2, 1): BaseHand.TWO_PAIR,
    (2, 1, 1, 1): BaseHand.ONE_PAIR,
}


def shape_of(cards: Sequence[Card], rules: RuleSet) -> Shape:
    """The shape of five different cards of ``rules.deck`` (plain and obviously right)."""
    index = card_indexes(rules)
    ranks = [index[c][0] for c in cards]
    suits = [index[c][1] for c in cards]
    _, mix = suit_masks(rules)
    return classify(ranks, suits, straight_set(rules), mix)


def classify(
    ranks: Sequence[int], suits: Sequence[int], straights: frozenset[int], mix: int
) -> Shape:
    """The shape from five rank indexes and suit indexes; ``straights`` holds the
    straights' rank masks and ``mix`` the mask of Mixwell suit indexes (0: no Mixwell)."""
    distinct_suits = set(suits)
    mixwell = bool(mix) and len(distinct_suits) == 5 and all(mix >> s & 1 for s in suits)
    distinct_ranks = set(ranks)
    if len(distinct_ranks) < 5:
        pattern = tuple(sorted((ranks.count(r) for r in distinct_ranks), reverse=True))
        return _BY_PATTERN[pattern], mixwell
    straight = sum(1 << r for r in ranks) in straights
    flush = len(distinct_suits) == 1
    if straight and flush:
        return BaseHand.STRAIGHT_FLUSH, mixwell
    if flush:
        return BaseHand.FLUSH, mixwell
    if straight:
        return BaseHand.STRAIGHT, mixwell
    return BaseHand.HIGH_CARD, mixwell


def brute_force_shape_counts(rules: RuleSet) -> dict[Shape, int]:
    """Shape counts by classifying every five-card combination: the plain reference
    the combinatorial count is tested against (a few seconds per million hands)."""
    index = card_indexes(rules)
    cards = [index[c] for c in rules.deck.cards]
    straights = straight_set(rules)
    _, mix = suit_masks(rules)
    counts: Counter[Shape] = Counter()
    for hand in itertools.combinations(cards, 5):
        ranks = [r for r, _ in hand]
        suits = [s for _, s in hand]
        counts[classify(ranks, suits, straights, mix)] += 1
    return dict(counts)


@per_rules
def card_indexes(rules: RuleSet) -> dict[Card, tuple[int, int]]:
    """Each card of the deck -> (rank index, suit index)."""
    deck = rules.deck
    return {c: (deck.ranks.index(c.rank), deck.suits.index(c.suit)) for c in deck.cards}


@per_rules
def straight_set(rules: RuleSet) -> frozenset[int]:
    return frozenset(rules.straights)


# --- the combinatorial count -------------------------------------------------


@per_rules
def suit_masks(rules: RuleSet) -> tuple[tuple[int, ...], int]:
    """Per rank index, the bit mask of suit indexes holding that rank; and the mask of
    the Mixwell suits (0 when Mixwell cannot occur)."""
    deck = rules.deck
    masks = [0] * len(deck.ranks)
    for card in deck.cards:
        masks[deck.ranks.index(card.rank)] |= 1 << deck.suits.index(card.suit)
    mix = 0
    if rules.mixwell_possible:
        for s in rules.mixwell_suits:
            mix |= 1 << deck.suits.index(s)
    return tuple(masks), mix


def rank_multisets(masks: Sequence[int], size: int = 5) -> Iterator[tuple[int, ...]]:
    """Every multiplicity vector (one entry per rank) summing to ``size`` whose entries
    fit the number of suits holding each rank."""
    n = len(masks)
    caps = [min(size, m.bit_count()) for m in masks]
    mult = [0] * n

    def walk(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if left == 0:
            yield tuple(mult)
            return
        if i == n:
            return
        for m in range(min(left, caps[i]), -1, -1):
            mult[i] = m
            yield from walk(i + 1, left - m)
        mult[i] = 0

    yield from walk(0, size)


@lru_cache(maxsize=4096)
def _mixwell_ways(groups: tuple[tuple[int, int], ...]) -> int:
    """Ways to take ``m`` suits from each ``mask`` in ``groups`` ((mask, m) pairs), all
    suits different: a DP over the groups keyed by the union of suits taken so far."""
    states = {0: 1}
    for mask, m in groups:
        subsets = [s for s in _submasks(mask) if s.bit_count() == m]
        nxt: dict[int, int] = {}
        for used, ways in states.items():
            for s in subsets:
                if not s & used:
                    nxt[used | s] = nxt.get(used | s, 0) + ways
        states = nxt
        if not states:
            return 0
    return sum(states.values())


def _submasks(mask: int) -> Iterator[int]:
    sub = mask
    while True:
        yield sub
        if sub == 0:
            return
        sub = (sub - 1) & mask


def count_shapes(rules: RuleSet) -> dict[Shape, int]:
    """Exact count of every shape over all C(n, 5) hands, combinatorially (milliseconds).

    Shapes that cannot occur are absent.
    """
    counts: Counter[Shape] = Counter()
    for _, shapes in multiset_shapes(rules):
        counts.update(shapes)
    return {shape: n for shape, n in counts.items() if n}


def multiset_shapes(rules: RuleSet) -> Iterator[tuple[tuple[int, ...], dict[Shape, int]]]:
    """For every rank multiset (multiplicity per rank index), the hands of each shape
    it makes: all suit choices, split into flushes, Mixwells and the rest."""
    masks, mix = suit_masks(rules)
    straights = straight_set(rules)
    for mult in rank_multisets(masks):
        used = [(r, m) for r, m in enumerate(mult) if m]
        total = math.prod(math.comb(masks[r].bit_count(), m) for r, m in used)
        mixwell = 0
        if mix:
            mixwell = _mixwell_ways(tuple(sorted((masks[r] & mix, m) for r, m in used)))
        if len(used) < 5:
            base = _BY_PATTERN[tuple(sorted((m for _, m in used), reverse=True))]
            yield mult, {(base, True): mixwell, (base, False): total - mixwell}
            continue
        common = masks[used[0][0]]
        for r, _ in used[1:]:
            common &= masks[r]
        flush = common.bit_count()  # one suit shared by the five ranks
        if sum(1 << r for r, _ in used) in straights:
            flush_shape, rest = BaseHand.STRAIGHT_FLUSH, BaseHand.STRAIGHT
        else:
            flush_shape, rest = BaseHand.FLUSH, BaseHand.HIGH_CARD
        yield (
            mult,
            {
                (flush_shape, False): flush,
                (rest, True): mixwell,
                (rest, False): total - flush - mixwell,
            },
        )
