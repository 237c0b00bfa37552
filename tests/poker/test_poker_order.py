"""The derived order: publisher's checks, the fixed point, and every order option."""

import itertools

import pytest

from cardlab.decks import BUILTIN_DECKS
from cardlab.errors import RuleError
from cardlab.poker import BaseHand, Category, RuleSet
from cardlab.poker._counting import count_shapes
from cardlab.poker.categories import COMPLETE_COMPOUNDS, PARTIAL_COMPOUNDS
from cardlab.poker.order import _category_counts, _resolve, _stronger, hand_order

C = Category


def test_publisher_checks() -> None:
    """FESCA78: Mixwell + three of a kind is a Mixwell; FESCA60: a three of a kind."""
    f78 = hand_order(RuleSet.for_deck("FESCA78"))
    assert f78.assigned(BaseHand.THREE_OF_A_KIND) is C.MIXWELL
    assert f78.strength(C.MIXWELL) > f78.strength(C.THREE_OF_A_KIND)
    f60 = hand_order(RuleSet.for_deck("FESCA60"))
    assert f60.assigned(BaseHand.THREE_OF_A_KIND) is C.THREE_OF_A_KIND


def test_fesca78_order() -> None:
    order = hand_order(RuleSet.for_deck("FESCA78"))
    assert order.categories == (
        C.MIXWELL_FIVE_OF_A_KIND,
        C.FIVE_OF_A_KIND,
        C.STRAIGHT_FLUSH,
        C.MIXWELL_FULL_HOUSE,  # 1,560 like Mixwell straight: classic precedence decides
        C.MIXWELL_STRAIGHT,
        C.FLUSH,
        C.FOUR_OF_A_KIND,
        C.FULL_HOUSE,
        C.STRAIGHT,
        C.MIXWELL,
        C.THREE_OF_A_KIND,
        C.TWO_PAIR,
        C.ONE_PAIR,
        C.HIGH_CARD,
    )
    assert order.counts[C.MIXWELL_FULL_HOUSE] == order.counts[C.MIXWELL_STRAIGHT] == 1560
    assert [order.strength(c) for c in order.categories] == list(range(14, 0, -1))


def test_fesca60_order() -> None:
    order = hand_order(RuleSet.for_deck("FESCA60"))
    assert C.FIVE_OF_A_KIND not in order.categories  # five suits: only Mixwell five of a kind
    assert order.categories[-1] is C.HIGH_CARD
    assert order.counts[C.HIGH_CARD] < order.counts[C.ONE_PAIR]  # rarer, yet lowest
    strict = hand_order(RuleSet.for_deck("FESCA60", no_hand_lowest="off"))
    assert strict.categories[-2:] == (C.HIGH_CARD, C.ONE_PAIR)


def test_classic_decks_have_no_mixwell() -> None:
    for name in ("standard52", "TESCA52"):
        order = hand_order(RuleSet.for_deck(name))
        assert C.MIXWELL not in order.categories
        assert not order.assignments
    std = hand_order(RuleSet.for_deck("standard52"))
    assert std.categories == tuple(c for c in Category if c in std.counts)


@pytest.mark.parametrize("name", BUILTIN_DECKS)
def test_fixed_point_is_unique_and_consistent(name: str) -> None:
    """Of all 2^k assignments, exactly the one found is self-consistent."""
    rules = RuleSet.for_deck(name)
    order = hand_order(rules)
    shapes = count_shapes(rules)
    partials = [p for p in PARTIAL_COMPOUNDS if (p, True) in shapes]
    fixed = []
    for choice in itertools.product([False, True], repeat=len(partials)):
        assign = dict(zip(partials, choice, strict=True))
        counts = _category_counts(shapes, assign)
        mixwell = counts.get(C.MIXWELL, 0)
        if all(
            assign[p] == _stronger(C.MIXWELL, mixwell, p.category, counts.get(p.category, 0))
            for p in partials
        ):
            fixed.append(assign)
    assert fixed == [{a.base: a.primary is C.MIXWELL for a in order.assignments}]
    assert order.iterations >= (1 if partials else 0)


@pytest.mark.parametrize("name", BUILTIN_DECKS)
def test_order_is_sorted_by_rarity(name: str) -> None:
    order = hand_order(RuleSet.for_deck(name))
    listing = list(Category)
    ranked = [c for c in order.categories if c is not C.HIGH_CARD]
    keys = [(order.counts[c], listing.index(c)) for c in ranked]
    assert keys == sorted(keys)
    assert all(n > 0 for n in order.counts.values())


@pytest.mark.parametrize("name", BUILTIN_DECKS)
def test_shape_table(name: str) -> None:
    rules = RuleSet.for_deck(name)
    order = hand_order(rules)
    assert set(order.shape_table) == set(count_shapes(rules))
    for (base, mixwell), (cat, primary, secondary) in order.shape_table.items():
        assert primary == order.strength(cat)
        if not mixwell:
            assert (cat, secondary) == (base.category, 0)
        elif base in COMPLETE_COMPOUNDS:
            assert (cat, secondary) == (COMPLETE_COMPOUNDS[base], 0)
        elif base is BaseHand.HIGH_CARD:
            assert (cat, secondary) == (C.MIXWELL, 0)
        else:
            other = base.category if cat is C.MIXWELL else C.MIXWELL
            assert cat in (C.MIXWELL, base.category)
            assert secondary == order.strength(other)


def test_compound_option_forces_the_assignment() -> None:
    base = hand_order(RuleSet.for_deck("FESCA78", compound="base"))
    assert all(a.primary is a.base.category for a in base.assignments)
    assert base.iterations == 0
    mixwell = hand_order(RuleSet.for_deck("FESCA60", compound="mixwell"))
    assert all(a.primary is C.MIXWELL for a in mixwell.assignments)
    default = hand_order(RuleSet.for_deck("FESCA78"))
    assert base.counts[C.MIXWELL] < default.counts[C.MIXWELL]


def test_secondary_step_option() -> None:
    off = hand_order(RuleSet.for_deck("FESCA78", secondary_step="off"))
    assert all(secondary == 0 for _, _, secondary in off.shape_table.values())


def test_classic_order_option() -> None:
    order = hand_order(RuleSet.for_deck("FESCA78", order="classic"))
    listing = list(Category)
    assert list(order.categories) == sorted(order.categories, key=listing.index)


def test_a_cycle_fails_loudly() -> None:
    """Mixwell + pair flips the order of Mixwell and one pair each time it moves."""
    shapes = {
        (BaseHand.HIGH_CARD, True): 10,
        (BaseHand.ONE_PAIR, False): 15,
        (BaseHand.ONE_PAIR, True): 10,
    }
    with pytest.raises(RuleError, match="no fixed point"):
        _resolve(shapes, [BaseHand.ONE_PAIR], RuleSet.for_deck("FESCA78").compound)


def test_strength_of_a_missing_category() -> None:
    order = hand_order(RuleSet.for_deck("standard52"))
    with pytest.raises(RuleError, match="Mixwell"):
        order.strength(C.MIXWELL)


def test_cached_per_rule_set() -> None:
    rules = RuleSet.for_deck("FESCA65")
    assert hand_order(rules) is hand_order(rules)
    assert hand_order(rules) is hand_order(RuleSet.for_deck("FESCA65"))


def test_fesca60_needs_a_second_recount() -> None:
    """FESCA60 starts with Mixwell + trips in Mixwell (plain Mixwell 94,080 < plain trips
    151,800); the recount makes Mixwell 245,880, so trips move to three of a kind, and
    the second recount confirms it."""
    rules = RuleSet.for_deck("FESCA60")
    shapes = count_shapes(rules)
    assert shapes[BaseHand.HIGH_CARD, True] == 94_080
    assert shapes[BaseHand.THREE_OF_A_KIND, False] == 151_800
    assert hand_order(rules).iterations == 2
    assert hand_order(RuleSet.for_deck("FESCA78")).iterations == 1
    assert hand_order(RuleSet.for_deck("standard52")).iterations == 0


def test_mixwell_only_as_a_secondary_hand_still_orders() -> None:
    """compound=base on a deck where plain Mixwell cannot occur (TESCA54: the five
    element suits exist only through the two lone voids)."""
    from cardlab.poker.hands import evaluate

    rules = RuleSet.for_deck("TESCA54", compound="base")
    order = hand_order(rules)
    assert Category.MIXWELL not in order.categories
    assert order.assigned(BaseHand.ONE_PAIR) is Category.ONE_PAIR
    pair = evaluate("土Z 金Z 木1 火2 水3", rules)
    assert (pair.category, pair.secondary) == (Category.ONE_PAIR, Category.MIXWELL)
    plain = evaluate("土Z 金Z 木1 火2 陰陽3", rules)
    assert pair.key > plain.key
