"""Small poker games as data: loading, decks, hand order, and the public tree."""

from __future__ import annotations

import itertools
import random
import tomllib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.decks import get_deck
from cardlab.errors import GameError
from cardlab.poker.hands import best_hand
from cardlab.poker.rules import RuleSet
from cardlab.solve import PublicTree, get_game
from cardlab.solve.games import PokerGame, game_from_data, game_from_toml, tree_size
from cardlab.solve.hands import hand_key
from cardlab.table.stud import showing_key

LEDUC = """
name = "mini"
deck = "standard52"
ranks = ["J", "Q", "K"]
suits = ["s", "h"]
[[rounds]]
bet = 2
cap = 2
"""


def test_builtin_games_have_their_cards() -> None:
    assert [str(c) for c in get_game("kuhn").cards] == ["Js", "Qs", "Ks"]
    assert [str(c) for c in get_game("leduc").cards] == ["Jh", "Js", "Qh", "Qs", "Kh", "Ks"]
    fesca = get_game("leduc-fesca")
    assert [str(c) for c in fesca.cards] == ["木11", "水11", "木12", "水12", "木Z", "水Z"]
    assert fesca.rules.suit_tiebreak and not get_game("leduc").rules.suit_tiebreak


def test_another_deck_keeps_the_counts_and_takes_the_top() -> None:
    game = get_game("leduc", deck="FESCA78")
    assert [str(c) for c in game.cards] == ["水11", "陰陽11", "水12", "陰陽12", "水Z", "太極"]
    assert game.deck.name == "FESCA78"
    assert [str(c) for c in get_game("kuhn", deck="FESCA60").cards] == ["水10", "水11", "水12"]


def test_a_game_round_trips_through_its_definition() -> None:
    game = get_game("leduc-fesca")
    again = game_from_data(game.definition())
    assert again.cards == game.cards and again.rounds == game.rounds


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"colour": "red"}, "unknown field(s) colour"),
        ({"private": 0}, "private must be a whole number from 1 to 4, not 0"),
        ({"ranks": ["J", "X"]}, "'X' is not a rank of standard52"),
        ({"suits": ["s", "木"]}, "'木' is not a suit of standard52"),
        ({"suits": 9}, "standard52 has 4 suits, not 9"),
        ({"private": 4}, "deals 8 cards but only 6 are in play"),
        ({"unit": -1}, "unit must be a positive number"),
        ({"ante": 0, "rounds": [{"bet": 1, "cap": 0}]}, "nothing is ever bet"),
        ({"rounds": [{"bet": 1, "raises": 2}]}, "round 1: unknown field(s) raises"),
        ({"rounds": []}, "1 to 4 betting rounds, not 0"),
        ({"deck": "nodeck"}, "unknown deck 'nodeck'"),
        (
            {"private": 4, "rounds": [{"bet": 1, "public": 4}], "ranks": 13},
            "a hand has at most 7 cards (private + public), this game deals 8",
        ),
    ],
)
def test_bad_game_files_say_what_is_wrong(change: dict[str, object], needle: str) -> None:
    data = tomllib.loads(LEDUC) | change
    with pytest.raises(GameError) as info:
        game_from_data(data, source="mini.toml")
    assert needle in str(info.value) and "mini.toml" in str(info.value)


def test_toml_errors_name_the_file() -> None:
    with pytest.raises(GameError, match=r"mini\.toml is not valid TOML"):
        game_from_toml(LEDUC + "ante = [", source="mini.toml")


def test_too_large_a_game_is_refused_before_any_work() -> None:
    text = LEDUC.replace('ranks = ["J", "Q", "K"]', "ranks = 13").replace(
        'suits = ["s", "h"]', "suits = 4"
    )
    text = text.replace("[[rounds]]", "private = 2\n[[rounds]]", 1)
    text += "[[rounds]]\npublic = 3\nbet = 2\n"
    with pytest.raises(GameError, match="too large to solve"):
        game_from_toml(text)


def test_unknown_game_names_are_errors() -> None:
    with pytest.raises(GameError, match="unknown game 'holdem'"):
        get_game("holdem")


# --- the order of small hands ---------------------------------------------------


def test_pairs_beat_high_cards_and_suits_break_ties_on_fesca() -> None:
    rules = RuleSet.for_deck("FESCA78")
    deck = get_deck("FESCA78")
    pair = hand_key(deck.parse_cards("木3 火3"), rules)
    high = hand_key(deck.parse_cards("木Z 水12"), rules)
    assert pair > high
    # same ranks: Water beats Wood (陰陽 > 水 > 金 > 土 > 火 > 木), card by card
    assert hand_key(deck.parse_cards("水3 木5"), rules) > hand_key(
        deck.parse_cards("木3 木5"), rules
    )
    assert hand_key(deck.parse_cards("水5 木3"), rules) > hand_key(
        deck.parse_cards("木5 水3"), rules
    )
    std = RuleSet.for_deck("standard52")
    cards = get_deck("standard52").parse_cards
    assert hand_key(cards("Js Kh"), std) == hand_key(cards("Jh Ks"), std)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["FESCA78", "standard52", "FESCA60"]), st.integers(1, 4), st.randoms())
def test_small_hands_order_as_stud_partial_hands(
    deck_name: str, size: int, rnd: random.Random
) -> None:
    """Category and ranks as stud's showing hands; equal there, suits decide on FESCA."""
    deck = get_deck(deck_name)
    rules = RuleSet.for_deck(deck)
    a, b = rnd.sample(list(itertools.combinations(rnd.sample(deck.cards, 8), size)), 2)
    stud = (showing_key(a, rules) > showing_key(b, rules)) - (
        showing_key(a, rules) < showing_key(b, rules)
    )
    ours = (hand_key(a, rules) > hand_key(b, rules)) - (hand_key(a, rules) < hand_key(b, rules))
    if stud:
        assert ours == stud
    elif rules.suit_tiebreak:
        assert ours != 0 or set(a) == set(b)
    else:
        assert ours == 0


def test_five_cards_rank_as_the_evaluator_does() -> None:
    rules = RuleSet.for_deck("FESCA78")
    deck = get_deck("FESCA78")
    rng = random.Random(5)
    for _ in range(30):
        a, b = rng.sample(deck.cards, 5), rng.sample(deck.cards, 5)
        assert (hand_key(a, rules) > hand_key(b, rules)) == (
            best_hand(a, rules) > best_hand(b, rules)
        )


# --- the public tree --------------------------------------------------------------


def _infosets(tree: PublicTree) -> int:
    return sum(int(tree.hand_valid[tree.nodes[int(v)].board].sum()) for v in tree.decision_nodes)


def test_information_sets_count_as_in_openspiel() -> None:
    # OpenSpiel's kuhn_poker has 12 information states and leduc_poker 936
    assert _infosets(PublicTree(get_game("kuhn"))) == 12
    assert _infosets(PublicTree(get_game("leduc"))) == 936


@pytest.mark.parametrize("name", ["kuhn", "leduc", "leduc-fesca"])
def test_leaf_weights_add_up_to_one_deal(name: str) -> None:
    """Over the final boards, the weighted compatible (hand, hand, board) deals sum to 1."""
    tree = PublicTree(get_game(name))
    final = max(len(b) for b in tree.boards)
    total = sum(tree.compat[b].sum() for b, cards in enumerate(tree.boards) if len(cards) == final)
    assert total == pytest.approx(1.0)


def test_fesca_suits_leave_no_tie_and_standard_suits_do() -> None:
    fesca, std = PublicTree(get_game("leduc-fesca")), PublicTree(get_game("leduc"))
    for tree, ties in ((fesca, 0), (std, 4)):  # standard: the two ranks off the board, each way
        for b, cards in enumerate(tree.boards):
            if len(cards) == 1:
                possible = tree.compat[b] > 0
                assert int((possible & (tree.sign[b] == 0)).sum()) == ties
                assert np.allclose(tree.sign[b], -tree.sign[b].T)


def _three_rounds() -> PokerGame:
    data = tomllib.loads(LEDUC) | {
        "deck": "FESCA78",
        "ranks": 3,
        "suits": 2,
        "private": 1,
        "rounds": [
            {"bet": 2, "cap": 2},
            {"public": 2, "bet": 2, "cap": 1},
            {"public": 1, "bet": 4, "cap": 3},
        ],
    }
    return game_from_data(data)


@pytest.mark.parametrize("name", ["kuhn", "leduc", "three rounds"])
def test_tree_size_counts_the_tree_without_building_it(name: str) -> None:
    game = _three_rounds() if name == "three rounds" else get_game(name)
    tree = PublicTree(game)
    assert tree_size(game) == (len(tree.hands), len(tree.boards), tree.n_nodes)
