"""Best-of-6/7 and Omaha tables: known counts, the combinatorial count against brute
force and against the reference evaluator, and bad input."""

import itertools
import math
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.cards import Card
from cardlab.decks import BUILTIN_DECKS, deck_from_toml, load_deck
from cardlab.errors import GameError, HandError
from cardlab.poker import Category, RuleSet
from cardlab.poker._counting import classify
from cardlab.poker._kernels import tables7_patterns as pat
from cardlab.poker.hands import best_hand, evaluate
from cardlab.poker.order import hand_order
from cardlab.poker.tables7 import (
    best_categories,
    best_of_table,
    brute_force_counts,
    omaha_brute_force_counts,
    omaha_table,
)

C = Category

# standard52, best five of seven: the known table (133,784,560 hands)
STANDARD_SEVEN = {
    C.STRAIGHT_FLUSH: 41_584,
    C.FOUR_OF_A_KIND: 224_848,
    C.FULL_HOUSE: 3_473_184,
    C.FLUSH: 4_047_644,
    C.STRAIGHT: 6_180_020,
    C.THREE_OF_A_KIND: 6_461_620,
    C.TWO_PAIR: 31_433_400,
    C.ONE_PAIR: 58_627_800,
    C.HIGH_CARD: 23_294_460,
}

STANDARD_SIX = {
    C.STRAIGHT_FLUSH: 1_844,
    C.FOUR_OF_A_KIND: 14_664,
    C.FULL_HOUSE: 165_984,
    C.FLUSH: 205_792,
    C.STRAIGHT: 361_620,
    C.THREE_OF_A_KIND: 732_160,
    C.TWO_PAIR: 2_532_816,
    C.ONE_PAIR: 9_730_740,
    C.HIGH_CARD: 6_612_900,
}

# Small decks that break the symmetries the count exploits: lone cards, a suit with
# a few ranks only, 陰陽 beside the elements, a line, an ace-low wheel.
DECK_FILES = Path(__file__).resolve().parents[1] / "data" / "decks"
SMALL_DECKS = ("ring30", "lone32", "line30", "short24")  # tests/data/decks/<name>.toml
# Small enough to check every hand with the plain Python reference.
TINY13 = """
    name = "tiny13"
    suits = ["M", "K", "D", "G", "S"]
    ranks = ["1", "2", "3", "4", "Z"]
    wrap = "ring"
    full_suits = ["M", "K"]
    extra_cards = ["土1", "金3", "水4"]
"""


def small(name: str) -> RuleSet:
    return RuleSet.for_deck(load_deck(DECK_FILES / f"{name}.toml"))


def test_standard52_seven_card_table_is_the_known_one() -> None:
    table = best_of_table(RuleSet.for_deck("standard52"), 7)
    assert table.hands == math.comb(52, 7) == 133_784_560
    assert table.counts() == STANDARD_SEVEN
    assert table.exact and table.method == "combinatorial"
    assert [r.category for r in table.rows] == list(STANDARD_SEVEN)  # five-card order
    assert table.row(C.FLUSH).five_card_count == 5108
    # the well-known inversion: high card is rarer than one pair and two pair
    assert table.inversions == ((C.TWO_PAIR, C.HIGH_CARD), (C.ONE_PAIR, C.HIGH_CARD))


def test_standard52_six_card_table_is_the_known_one() -> None:
    table = best_of_table(RuleSet.for_deck("standard52"), 6)
    assert table.counts() == STANDARD_SIX
    assert sum(STANDARD_SIX.values()) == math.comb(52, 6)
    assert table.inversions == ((C.ONE_PAIR, C.HIGH_CARD),)


@pytest.mark.parametrize("name", BUILTIN_DECKS)
def test_five_cards_give_the_five_card_counts(name: str) -> None:
    rules = RuleSet.for_deck(name)
    table = best_of_table(rules, 5)
    assert table.counts() == dict(hand_order(rules).counts)
    assert all(r.count == r.five_card_count for r in table.rows)


@pytest.mark.parametrize("name", sorted(SMALL_DECKS))
@pytest.mark.parametrize("k", [6, 7])
def test_combinatorial_count_agrees_with_brute_force(name: str, k: int) -> None:
    rules = small(name)
    table = best_of_table(rules, k)
    assert sum(table.counts().values()) == math.comb(len(rules.deck), k)
    expected = brute_force_counts(rules, k)
    assert {c: n for c, n in table.counts().items() if n} == expected


@pytest.mark.parametrize(
    "options",
    [
        {"compound": "mixwell"},
        {"mixwell": "off"},
        {"mixwell_suits": "M K D G S Y"},
        {"no_hand_lowest": "off"},
        {"order": "classic"},
        {"wrap": "line"},
    ],
)
def test_agreement_holds_under_every_option(options: dict[str, str]) -> None:
    rules = small("lone32").with_options(**options)
    table = best_of_table(rules, 7)
    assert {c: n for c, n in table.counts().items() if n} == brute_force_counts(rules, 7)


def test_agreement_holds_with_partial_compounds_to_the_base_hand() -> None:
    rules = small("line30").with_options(compound="base")
    table = best_of_table(rules, 7)
    assert {c: n for c, n in table.counts().items() if n} == brute_force_counts(rules, 7)


def _reference_best(hand: tuple[int, ...], rules: RuleSet) -> Category:
    """The plain way: the strongest category over every five of the hand."""
    table = hand_order(rules).shape_table
    deck = rules.deck
    straights = frozenset(rules.straights)
    mix = (
        sum(1 << deck.suits.index(s) for s in rules.mixwell_suits) if rules.mixwell_possible else 0
    )
    cards = [
        (deck.ranks.index(deck.cards[i].rank), deck.suits.index(deck.cards[i].suit)) for i in hand
    ]
    best = max(
        (
            table[classify([r for r, _ in five], [s for _, s in five], straights, mix)]
            for five in itertools.combinations(cards, 5)
        ),
        key=lambda v: v[1],
    )
    return best[0]


@pytest.mark.parametrize("k", [6, 7])
def test_every_hand_of_a_tiny_deck_against_the_plain_reference(k: int) -> None:
    rules = RuleSet.for_deck(deck_from_toml(TINY13))
    counts: dict[Category, int] = {}
    for hand in itertools.combinations(range(len(rules.deck)), k):
        cat = _reference_best(hand, rules)
        counts[cat] = counts.get(cat, 0) + 1
    assert {c: n for c, n in best_of_table(rules, k).counts().items() if n} == counts


@pytest.mark.parametrize("name", [*BUILTIN_DECKS, *sorted(SMALL_DECKS)])
def test_per_hand_category_agrees_with_best_hand(name: str) -> None:
    """The kernel's best-five category of random hands against the reference evaluator."""
    rules = small(name) if name in SMALL_DECKS else RuleSet.for_deck(name)
    rng = random.Random(f"tables7 {name}")
    for k in (6, 7):
        hands = [tuple(rng.sample(rules.deck.cards, k)) for _ in range(50)]
        expected = [best_hand(h, rules).category for h in hands]
        assert best_categories(hands, rules) == expected


def _omaha_reference(hole: tuple[Card, ...], board: tuple[Card, ...], rules: RuleSet) -> Category:
    values = [
        evaluate([*h, *b], rules)
        for h in itertools.combinations(hole, 2)
        for b in itertools.combinations(board, 3)
    ]
    return max(values).category


@pytest.mark.parametrize("name", ["FESCA78", "FESCA60", "TESCA54", "standard52"])
def test_omaha_per_deal_category_agrees_with_reference(name: str) -> None:
    rules = RuleSet.for_deck(name)
    rng = random.Random(f"omaha {name}")
    deals = [tuple(rng.sample(rules.deck.cards, 9)) for _ in range(30)]
    expected = [_omaha_reference(d[:4], d[4:], rules) for d in deals]
    assert best_categories(deals, rules) == expected


def test_omaha_exact_count_agrees_with_every_deal() -> None:
    rules = RuleSet.for_deck(deck_from_toml(TINY13))
    table = omaha_table(rules)
    assert table.method == "combinatorial" and table.exact
    assert table.hands == math.comb(13, 4) * math.comb(9, 5)
    assert {c: n for c, n in table.counts().items() if n} == omaha_brute_force_counts(rules)


def test_omaha_exact_count_with_six_cards_of_a_rank() -> None:
    rules = RuleSet.for_deck(
        deck_from_toml(
            'name = "pairs12"\nsuits = ["M", "K", "D", "G", "S", "Y"]\nranks = ["1", "2"]'
        )
    )
    table = omaha_table(rules, exact=True)
    assert {c: n for c, n in table.counts().items() if n} == omaha_brute_force_counts(rules)


def test_omaha_sampled_is_seeded_and_reports_its_error() -> None:
    rules = RuleSet.for_deck("FESCA78")
    a = omaha_table(rules, samples=20_000, seed=7)
    b = omaha_table(rules, samples=20_000, seed=7)
    assert a.method == "sampled" and not a.exact and a.seed == 7
    assert a.counts() == b.counts()
    assert sum(a.counts().values()) == 20_000
    assert all(r.total == 20_000 and not r.exact for r in a.rows)
    assert all(0 < r.std_error < 0.01 for r in a.rows if 0 < r.count < r.total)
    assert a.counts() != omaha_table(rules, samples=20_000, seed=8).counts()


def test_omaha_sample_matches_the_exact_table_within_its_error() -> None:
    rules = RuleSet.for_deck(deck_from_toml(TINY13))
    exact = omaha_table(rules, exact=True)
    sampled = omaha_table(rules, exact=False, samples=20_000, seed=3)
    for e, s in zip(exact.rows, sampled.rows, strict=True):
        assert e.category is s.category
        assert abs(float(s.probability - e.probability)) <= 5 * s.std_error + 1e-9


def test_table_as_dict_and_progress() -> None:
    rules = small("ring30")
    calls: list[tuple[int, int]] = []
    table = best_of_table(rules, 6, progress=lambda done, total: calls.append((done, total)))
    assert calls[0][0] == 0 and calls[-1][0] == calls[-1][1] > 0
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)
    data = table.as_dict()
    assert data["combinations"] == math.comb(30, 6) and data["game"] == "best-of-6"
    assert sum(row["count"] for row in data["hands"]) == data["combinations"]
    assert data["hands"][0]["order"] == 1


def test_inversions_are_exactly_the_frequency_inversions() -> None:
    table = best_of_table(small("lone32"), 7)
    rows = table.rows
    expected = {
        (a.category, b.category)
        for i, a in enumerate(rows)
        for b in rows[i + 1 :]
        if a.count > b.count
    }
    assert set(table.inversions) == expected


@pytest.mark.parametrize("size", [4, 8, 9, True, "7"])
def test_bad_hand_size(size: object) -> None:
    with pytest.raises(HandError, match="hand size"):
        best_of_table(RuleSet.for_deck("FESCA42"), size)  # type: ignore[arg-type]


def test_bad_input() -> None:
    tiny = RuleSet.for_deck(
        deck_from_toml('name = "six"\nsuits = ["c", "d"]\nranks = ["2", "3", "4"]')
    )
    with pytest.raises(HandError, match="fewer than 7"):
        best_of_table(tiny, 7)
    with pytest.raises(HandError, match="Omaha needs 9"):
        omaha_table(tiny)
    with pytest.raises(GameError, match="samples"):
        omaha_table(RuleSet.for_deck("FESCA78"), samples=0)
    with pytest.raises(GameError, match="too many deals"):
        omaha_brute_force_counts(RuleSet.for_deck("FESCA42"))
    with pytest.raises(GameError, match="seed"):
        omaha_table(RuleSet.for_deck("FESCA78"), seed=-1)
    standard = RuleSet.for_deck("standard52")
    cards = standard.deck.cards
    with pytest.raises(HandError, match="same number"):
        best_categories([cards[:7], cards[:6]], standard)
    with pytest.raises(HandError, match="5 to 7 cards, or 9"):
        best_categories([cards[:8]], standard)


@pytest.mark.parametrize(
    ("name", "rank_group", "suit_symmetry"),
    [("FESCA78", 26, 120), ("FESCA73", 2, 120), ("FESCA60", 2, 120), ("standard52", 2, 24)],
)
def test_deck_symmetries(name: str, rank_group: int, suit_symmetry: int) -> None:
    geo = pat.geometry(RuleSet.for_deck(name))
    assert len(geo.rank_group) == rank_group
    assert geo.suit_symmetry == suit_symmetry


@pytest.mark.parametrize("name", ["FESCA78", "standard52", "TESCA54"])
def test_orbit_weights_cover_every_rank_multiset(name: str) -> None:
    geo = pat.geometry(RuleSet.for_deck(name))
    caps = [bin(int(a)).count("1") for a in geo.avail]
    every = [
        c
        for c in itertools.combinations_with_replacement(range(len(caps)), 7)
        if all(c.count(r) <= caps[r] for r in set(c))
    ]
    assert int(pat.rank_patterns(geo, (7,)).weight.sum()) == len(every)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_best_category_does_not_depend_on_card_order(rng: random.Random) -> None:
    rules = RuleSet.for_deck("FESCA78")
    hand = rng.sample(rules.deck.cards, 7)
    shuffled = rng.sample(hand, 7)
    assert best_categories([hand, shuffled], rules)[0] == best_categories([shuffled], rules)[0]
