"""Example hands drawn from each deck: one of every category that has hands, the deck's
straights, and a pair of hands for each tie-break step, each checked independently."""

from itertools import combinations, pairwise

import pytest

from cardlab.cards import format_cards
from cardlab.decks import BUILTIN_DECKS
from cardlab.poker import RuleSet
from cardlab.poker.examples import (
    compound_examples,
    example_hands,
    straight_examples,
    tie_break_examples,
)
from cardlab.poker.frequencies import five_card_table
from cardlab.poker.hands import compare, evaluate

# straights per deck: a ring of ZAT + 1..12 has 13, FESCA60's line 1..12 has 8, the
# standard deck 10; the small decks' rings: ZAT + 1..8 (9) and ZAT + 1..6 (7)
STRAIGHTS = {
    "FESCA78": 13,
    "FESCA73": 13,
    "FESCA65": 13,
    "FESCA60": 8,
    "FESCA54": 9,
    "FESCA42": 7,
    "TESCA52": 13,
    "TESCA54": 13,
    "standard52": 10,
}


@pytest.mark.parametrize("deck", BUILTIN_DECKS)
def test_an_example_of_every_category_with_hands(deck: str) -> None:
    rules = RuleSet.for_deck(deck)
    examples = example_hands(rules)
    table = five_card_table(rules)
    # the categories with a nonzero count, strongest first, and no other
    assert list(examples) == [row.category for row in table.rows if row.count > 0]
    for category, value in examples.items():
        again = evaluate(format_cards(value.cards), rules)  # from the text, afresh
        assert again.category is category
        assert len(set(value.cards)) == 5
    # strongest first: each example beats the next one's category
    values = list(examples.values())
    for a, b in pairwise(values):
        assert compare([a, b]) == ([0], "category")


@pytest.mark.parametrize("deck", BUILTIN_DECKS)
def test_the_straights(deck: str) -> None:
    rules = RuleSet.for_deck(deck)
    straights = straight_examples(rules)
    assert len(straights) == STRAIGHTS[deck]
    assert all(v.category.is_straight for v in straights)
    rank_sets = {frozenset(c.rank for c in v.cards) for v in straights}
    assert len(rank_sets) == len(straights)
    # strongest first, each beating the next by its ranks (or by category: a flush)
    for a, b in pairwise(straights):
        assert a.key > b.key


def test_the_ring_straights_of_fesca78() -> None:
    straights = straight_examples(RuleSet.for_deck("FESCA78"))
    runs = [" ".join(str(c.rank) for c in v.cards) for v in straights]
    # spec section 5 step 3: (9,10,11,12,Z) highest ... (10,11,12,Z,1) lowest
    assert runs[0] == "Z 12 11 10 9"
    assert runs[-4:] == ["4 3 2 1 Z", "3 2 1 Z 12", "2 1 Z 12 11", "1 Z 12 11 10"]


@pytest.mark.parametrize("deck", BUILTIN_DECKS)
def test_tie_break_examples(deck: str) -> None:
    rules = RuleSet.for_deck(deck)
    found = tie_break_examples(rules)
    steps = [t.step for t in found]
    expected = ["category", "ranks"]
    if rules.mixwell_possible:
        expected.insert(1, "secondary")
    expected.append("suits" if rules.suit_tiebreak else "tie")
    assert steps == expected
    for t in found:
        winners, step = compare(list(t.hands))
        assert step == t.step
        assert t.winner == (winners[0] if len(winners) == 1 else None)
        if step == "suits" or step == "tie":  # the same ranks, other suits
            assert sorted(c.rank.key for c in t.hands[0].cards) == sorted(
                c.rank.key for c in t.hands[1].cards
            )


def test_fesca78_mixwell_beats_three_of_a_kind_in_the_example() -> None:
    # the publisher's statement, shown on the rules page as the category step
    first = tie_break_examples(RuleSet.for_deck("FESCA78"))[0]
    assert [v.category.english for v in first.hands] == ["Mixwell", "three of a kind"]
    assert first.winner == 0


@pytest.mark.parametrize("deck", ["FESCA78", "FESCA60", "TESCA54"])
def test_compound_examples(deck: str) -> None:
    rules = RuleSet.for_deck(deck)
    table = five_card_table(rules)
    compounds = compound_examples(rules)
    assert {(a.primary, a.secondary) for a in table.assignments} == set(compounds)
    for (primary, secondary), value in compounds.items():
        assert value.shape[1]  # a Mixwell
        assert (value.category, value.secondary) == (primary, secondary)


def test_examples_are_different_hands() -> None:
    values = list(example_hands(RuleSet.for_deck("FESCA78")).values())
    assert all(set(a.cards) != set(b.cards) for a, b in combinations(values, 2))
