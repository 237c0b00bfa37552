"""The reference evaluator: values, keys, descriptions, comparison, and their laws."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.cards import Card, parse_cards
from cardlab.decks import BUILTIN_DECKS, get_deck
from cardlab.errors import CardError, CardlabError, HandError
from cardlab.poker import BaseHand, Category, RuleSet
from cardlab.poker.hands import HandValue, best_hand, compare, evaluate
from cardlab.poker.keys import unpack_key
from cardlab.poker.order import hand_order

C = Category
F78 = RuleSet.for_deck("FESCA78")


def ev(text: str, rules: RuleSet = F78) -> HandValue:
    return evaluate(text, rules)


@pytest.mark.parametrize(
    ("text", "category", "secondary"),
    [
        ("木7 火7 土7 金2 水9", C.MIXWELL, C.THREE_OF_A_KIND),
        ("木7 火7 土8 金2 水9", C.MIXWELL, C.ONE_PAIR),
        ("木1 火3 土5 金7 水9", C.MIXWELL, None),
        ("木7 火7 土7 金7 水9", C.FOUR_OF_A_KIND, C.MIXWELL),
        ("木1 火2 土3 金4 水5", C.MIXWELL_STRAIGHT, None),
        ("木1 火1 土1 金2 水2", C.MIXWELL_FULL_HOUSE, None),
        ("木Z 火Z 土Z 金Z 水Z", C.MIXWELL_FIVE_OF_A_KIND, None),
        ("木Z 火Z 土Z 金Z 太極", C.FIVE_OF_A_KIND, None),
        ("木10 木11 木12 木Z 木1", C.STRAIGHT_FLUSH, None),
        ("陰陽9 木10 火11 土12 太極", C.STRAIGHT, None),
        ("陰陽1 陰陽3 陰陽5 陰陽7 陰陽9", C.FLUSH, None),
        ("陰陽1 木3 火5 土7 金9", C.HIGH_CARD, None),
    ],
)
def test_categories_fesca78(text: str, category: Category, secondary: Category | None) -> None:
    value = ev(text)
    assert (value.category, value.secondary) == (category, secondary)


def test_fesca60_trips_with_mixwell_is_trips() -> None:
    value = ev("木7 火7 土7 金2 水9", RuleSet.for_deck("FESCA60"))
    assert (value.category, value.secondary) == (C.THREE_OF_A_KIND, C.MIXWELL)
    assert value.describe() == "three of a kind + Mixwell, 7s — 土7 火7 木7 水9 金2"


def test_descriptions() -> None:
    assert ev("木7 火7 土7 金2 水9").describe() == (
        "Mixwell + three of a kind, 7s — 土7 火7 木7 水9 金2"
    )
    assert ev("木7 火7 土7 金2 水9").describe("ja") == (
        "ミクスウェル＋スリーカード（7）— 土7 火7 木7 水9 金2"
    )
    assert ev("木10 木11 木12 木Z 木1").describe() == (
        "straight flush, 10-11-12-Z-1 — 木1 木Z 木12 木11 木10"
    )
    assert (
        ev("陰陽1 陰陽Z 火1 木1 土Z").describe()
        == "full house, 1s over ZATs — 陰陽1 火1 木1 太極 土Z"
    )
    assert ev("陰陽1 木3 火5 土7 金9").describe() == "no hand, 9 high — 金9 土7 火5 木3 陰陽1"
    std = RuleSet.for_deck("standard52")
    assert ev("As 2d 3c 4h 5s", std).describe() == "straight, A-2-3-4-5 — 5s 4h 3c 2d As"
    assert ev("Ts Td 9h 9c 2d", std).describe("ja") == "ツーペア（T・9）— Ts Td 9h 9c 2d"
    with pytest.raises(HandError):
        ev("Ts Td 9h 9c 2d", std).describe("fr")


def test_straights_rank_by_their_last_card() -> None:
    """Spec 5.3: (9..Z) highest, ..., (1..5), (Z,1,2,3,4), (12,Z,1,2,3), ... lowest."""
    runs = [
        "木9 火10 土11 金12 陰陽Z",
        "木1 火2 土3 金4 陰陽5",
        "木Z 火1 土2 金3 陰陽4",
        "木12 火Z 土1 金2 陰陽3",
        "木11 火12 土Z 金1 陰陽2",
        "木10 火11 土12 金Z 陰陽1",
    ]
    values = [ev(r) for r in runs]
    assert all(v.category is C.STRAIGHT for v in values)
    assert [v.key for v in values] == sorted((v.key for v in values), reverse=True)
    assert unpack_key(values[-1].key)[2] == (1, 0, 0, 0, 0)
    assert unpack_key(values[0].key)[2] == (13, 0, 0, 0, 0)


def test_tie_break_steps() -> None:
    mixwell_trips = ev("木7 火7 土7 金2 水9")
    mixwell_pair = ev("木8 火8 土7 金2 水9")
    plain = ev("木1 火3 土5 金7 水Z")
    assert compare([plain, mixwell_pair, mixwell_trips]) == ([2], "secondary")
    assert compare([mixwell_pair, plain]) == ([0], "secondary")
    assert compare([ev("木8 火8 土8 金2 水9"), mixwell_trips]) == ([0], "ranks")
    # ZAT is the highest rank outside straights
    assert compare([ev("陰陽Z 木Z 火3 土4 金5"), ev("陰陽12 木12 火3 土4 金5")]) == (
        [0],
        "ranks",
    )
    # same ranks: suits card by card (陰陽 > 水 > 金 > 土 > 火 > 木)
    assert compare([ev("陰陽9 木9 火3 土4 陰陽5"), ev("水9 木9 火3 土4 陰陽5")]) == ([0], "suits")
    assert compare([ev("火2 火9 火3 火4 火6"), ev("木2 木9 木3 木4 木6")]) == ([0], "suits")
    assert compare([ev("木7 火7 土7 金2 水9"), ev("水9 金2 土7 火7 木7")]) == ([0, 1], "tie")
    assert compare([ev("陰陽1 陰陽3 陰陽5 陰陽7 陰陽9"), plain]) == ([0], "category")


def test_standard_deck_without_suits() -> None:
    std = RuleSet.for_deck("standard52")
    assert compare([ev("As Ks Qs Js Ts", std), ev("Ah Kh Qh Jh Th", std)]) == ([0, 1], "tie")
    assert compare([ev("As 2d 3c 4h 5s", std), ev("6s 2d 3c 4h 5s", std)]) == ([1], "ranks")
    assert ev("As Ad Ac Kh Ks", std) > ev("Ks Kd Kc Ah As", std)


def test_best_hand() -> None:
    value = best_hand("木7 火7 土7 金2 水9 太極 陰陽7", F78)
    assert value.category is C.FOUR_OF_A_KIND
    assert len(value.cards) == 5
    std = RuleSet.for_deck("standard52")
    assert best_hand("As Ks Qs Js Ts 2d 3c", std).category is C.STRAIGHT_FLUSH
    assert best_hand(["As", "Kd", "Qs", "Jh", "Tc"], std).category is C.STRAIGHT
    with pytest.raises(HandError):
        best_hand("As Kd", std)
    with pytest.raises(HandError, match=r"at most 20 cards is searched.*got 78"):
        best_hand(F78.deck.cards, F78)  # C(78, 5) = 21,111,090 fives: minutes, refused


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("木1 火2 土3 金4", HandError),
        ("木1 火2 土3 金4 水5 木6", HandError),
        ("木1 木1 土3 金4 水5", CardError),
        ("木1 火2 土3 金4 X9", CardError),
        ("木1 火2 土3 金4 水13", CardError),
    ],
)
def test_bad_hands(text: str, error: type[CardlabError]) -> None:
    with pytest.raises(error):
        ev(text)


def test_card_not_in_deck() -> None:
    with pytest.raises(CardError, match="土3"):
        evaluate("木1 火2 土3 陰陽4 水5", RuleSet.for_deck("TESCA52"))
    with pytest.raises(CardError, match="not in the TESCA52"):
        evaluate(list(parse_cards("木1 火2 土3 陰陽4 水5")), RuleSet.for_deck("TESCA52"))
    cards = list(parse_cards("木1 火2 木1 陰陽4 水5"))
    with pytest.raises(CardError, match="twice"):
        evaluate(cards, F78)


# --- laws, on random hands of every built-in deck --------------------------------


@st.composite
def hands(draw: st.DrawFn, deck_name: str, n: int = 5) -> tuple[Card, ...]:
    deck = get_deck(deck_name)
    codes = draw(st.lists(st.integers(0, len(deck) - 1), min_size=n, max_size=n, unique=True))
    return tuple(deck.cards[c] for c in codes)


@pytest.mark.parametrize("name", BUILTIN_DECKS)
def test_laws(name: str) -> None:
    rules = RuleSet.for_deck(name)
    order = hand_order(rules)

    @settings(max_examples=60, deadline=None)
    @given(hands(name), hands(name), hands(name), st.permutations(range(5)))
    def check(
        a: tuple[Card, ...], b: tuple[Card, ...], c: tuple[Card, ...], perm: list[int]
    ) -> None:
        va, vb, vc = (evaluate(h, rules) for h in (a, b, c))
        # independent of the order the cards are given in
        assert evaluate([a[i] for i in perm], rules) == va
        # compare agrees with the keys, both ways (total, antisymmetric)
        winners, step = compare([va, vb])
        if va.key == vb.key:
            assert (winners, step) == ([0, 1], "tie")
        else:
            assert winners == [0 if va.key > vb.key else 1]
            assert compare([vb, va])[1] == step
        # transitive
        if va >= vb and vb >= vc:
            assert va >= vc
        # only the same five cards tie (suits break ties in FESCA decks)
        if rules.suit_tiebreak:
            assert (va.key == vb.key) == (set(a) == set(b))
        # the key decodes to the value's fields
        primary, secondary, ranks, suits = unpack_key(va.key)
        assert primary == order.strength(va.category)
        assert secondary == (order.strength(va.secondary) if va.secondary else 0)
        assert suits == tuple(rules.suit_strength(card.suit) for card in va.cards)
        if va.category.is_straight:
            assert ranks[1:] == (0, 0, 0, 0)
        else:
            index = [rules.deck.ranks.index(card.rank) + 1 for card in va.cards]
            assert ranks == tuple(index)
            groups = [index.count(r) for r in index]
            assert list(zip(groups, index, strict=True)) == sorted(
                zip(groups, index, strict=True), reverse=True
            )
        assert sorted(map(str, va.cards)) == sorted(map(str, a))

    check()


def test_all_same_card_ties_only_with_itself_small() -> None:
    """Exhaustively on a slice of FESCA42: distinct hands never share a key."""
    rules = RuleSet.for_deck("FESCA42")
    cards = rules.deck.cards[:16]
    keys = [evaluate(h, rules).key for h in itertools.combinations(cards, 5)]
    assert len(set(keys)) == len(keys)


def test_value_fields() -> None:
    value = ev("木7 火7 土7 金2 水9")
    assert value.shape == (BaseHand.THREE_OF_A_KIND, True)
    data = value.as_dict()
    assert data["id"] == "mixwell" and data["secondary"] == "three_of_a_kind"
    assert data["cards"] == ["土7", "火7", "木7", "水9", "金2"]
    assert data["ascii"] == ["D7", "K7", "M7", "S9", "G2"]
    assert data["key"] == value.key
