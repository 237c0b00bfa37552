"""Five-card shape counts: the combinatorial count against brute force and known tables."""

import itertools
import math
import random
from collections import Counter
from pathlib import Path

import pytest

from cardlab.decks import BUILTIN_DECKS, load_deck
from cardlab.poker import BaseHand, Category, RuleSet
from cardlab.poker._counting import (
    brute_force_shape_counts,
    classify,
    count_shapes,
    multiset_shapes,
    straight_set,
    suit_masks,
)
from cardlab.poker.frequencies import distinct_values, five_card_table
from cardlab.poker.hands import evaluate
from cardlab.poker.order import hand_order

# Small decks that exercise every feature: a ring with 陰陽, a line, lone voids, a
# short plain deck with an ace-low wheel.
DECK_FILES = Path(__file__).resolve().parents[1] / "data" / "decks"
SMALL_DECKS = ("ring30", "ring25", "line30", "lone30", "short24")  # tests/data/decks/<name>.toml


def small_rules(name: str) -> RuleSet:
    return RuleSet.for_deck(load_deck(DECK_FILES / f"{name}.toml"))


CLASSIC = {
    BaseHand.STRAIGHT_FLUSH: 40,
    BaseHand.FOUR_OF_A_KIND: 624,
    BaseHand.FULL_HOUSE: 3744,
    BaseHand.FLUSH: 5108,
    BaseHand.STRAIGHT: 10200,
    BaseHand.THREE_OF_A_KIND: 54912,
    BaseHand.TWO_PAIR: 123552,
    BaseHand.ONE_PAIR: 1098240,
    BaseHand.HIGH_CARD: 1302540,
}


def test_standard52_classic_table() -> None:
    rules = RuleSet.for_deck("standard52")
    assert count_shapes(rules) == {(b, False): n for b, n in CLASSIC.items()}
    table = five_card_table(rules)
    assert table.combinations == 2_598_960
    assert [(r.category.value, r.count) for r in table.rows] == [
        (b.value, n) for b, n in CLASSIC.items()
    ]
    assert distinct_values(rules) == 7462


@pytest.mark.parametrize("name", BUILTIN_DECKS)
def test_counts_sum_to_all_hands(name: str) -> None:
    rules = RuleSet.for_deck(name)
    total = math.comb(len(rules.deck), 5)
    assert sum(count_shapes(rules).values()) == total
    assert sum(hand_order(rules).counts.values()) == total
    assert all(isinstance(n, int) and n > 0 for n in count_shapes(rules).values())


@pytest.mark.parametrize("name", sorted(SMALL_DECKS))
def test_brute_force_agrees_on_small_decks(name: str) -> None:
    rules = small_rules(name)
    assert brute_force_shape_counts(rules) == count_shapes(rules)


@pytest.mark.parametrize(
    "options", [{}, {"mixwell_suits": "M K D G S Y"}, {"mixwell": "off"}, {"wrap": "line"}]
)
def test_brute_force_agrees_with_options(options: dict[str, str]) -> None:
    rules = small_rules("ring30").with_options(**options)
    assert brute_force_shape_counts(rules) == count_shapes(rules)


@pytest.mark.slow
def test_brute_force_agrees_on_fesca42() -> None:
    rules = RuleSet.for_deck("FESCA42")  # 850,668 hands, a few seconds
    assert brute_force_shape_counts(rules) == count_shapes(rules)


@pytest.mark.parametrize("name", BUILTIN_DECKS)
def test_sampled_rank_multisets_agree_with_brute_force(name: str) -> None:
    """For random rank multisets of every deck, enumerate every choice of suits."""
    rules = RuleSet.for_deck(name)
    masks, mix = suit_masks(rules)
    straights = straight_set(rules)
    multisets = list(multiset_shapes(rules))
    rng = random.Random(name)
    for mult, expected in rng.sample(multisets, min(60, len(multisets))):
        ranks = [r for r, m in enumerate(mult) for _ in range(m)]
        choices = [
            itertools.combinations([s for s in range(16) if masks[r] >> s & 1], m)
            for r, m in enumerate(mult)
            if m
        ]
        found: Counter[tuple[BaseHand, bool]] = Counter()
        for pick in itertools.product(*choices):
            suits = [s for group in pick for s in group]
            found[classify(ranks, suits, straights, mix)] += 1
        assert found == {k: n for k, n in expected.items() if n}


@pytest.mark.parametrize("name", ["ring25", "short24"])
def test_evaluate_agrees_with_the_table(name: str) -> None:
    """Every hand of a small deck, evaluated: categories and distinct values match
    (suits off, so that distinct values are a real check)."""
    rules = small_rules(name).with_options(suit_tiebreak="off")
    order = hand_order(rules)
    cats: Counter[Category] = Counter()
    keys = set()
    for hand in itertools.combinations(rules.deck.cards, 5):
        value = evaluate(hand, rules)
        cats[value.category] += 1
        keys.add(value.key)
    assert dict(cats) == dict(order.counts)
    assert len(keys) == distinct_values(rules)


def test_fesca78_numbers() -> None:
    """The FESCA78 counts as cardlab derives them (regression figures)."""
    order = hand_order(RuleSet.for_deck("FESCA78"))
    assert order.combinations == 21_111_090
    assert order.counts[Category.MIXWELL] == 367_380
    assert order.counts[Category.MIXWELL_FIVE_OF_A_KIND] == 13
    assert order.counts[Category.MIXWELL_STRAIGHT] == 1560
    assert order.counts[Category.FOUR_OF_A_KIND] == 14_040
