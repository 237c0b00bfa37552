"""Card notation: every card of every deck round-trips through both notations."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardlab.cards import Card, Rank, Suit, format_cards, parse_cards
from cardlab.decks import BUILTIN_DECKS, get_deck
from cardlab.errors import CardError

ALL_CARDS = sorted({c for name in BUILTIN_DECKS for c in get_deck(name).cards}, key=str)


@pytest.mark.parametrize(
    ("text", "canonical", "ascii"),
    [
        ("木7", "木7", "M7"),
        ("金Z", "金Z", "GZ"),
        ("金空無", "金Z", "GZ"),
        ("太極", "太極", "YZ"),
        ("陰陽Z", "太極", "YZ"),
        ("陰陽3", "陰陽3", "Y3"),
        ("S12", "水12", "S12"),
        ("As", "As", "As"),
        ("10h", "Th", "Th"),
        ("A♠", "As", "As"),
        ("kd", "Kd", "Kd"),
    ],
)
def test_notations(text: str, canonical: str, ascii: str) -> None:
    card = Card.parse(text)
    assert str(card) == canonical
    assert card.ascii == ascii


@given(st.sampled_from(ALL_CARDS))
def test_every_card_round_trips(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(card.ascii) == card
    assert eval(repr(card), {"Card": Card}) == card


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=8), st.booleans())
def test_card_lists_round_trip(cards: list[Card], use_ascii: bool) -> None:
    assert parse_cards(format_cards(cards, ascii=use_ascii)) == tuple(cards)


def test_lists_with_commas_and_run_together() -> None:
    assert parse_cards("As,Kd; 7c") == parse_cards("As Kd 7c")
    assert parse_cards("AsKd") == parse_cards("As Kd")


@pytest.mark.parametrize("bad", ["X7", "木13", "木0", "Zs", "", "1x", "陰陽", "AsK"])
def test_malformed_cards_are_refused_with_the_input_quoted(bad: str) -> None:
    with pytest.raises(CardError, match="malformed card"):
        Card.parse(bad)


def test_suits_and_ranks_parse_and_repr() -> None:
    assert Suit.parse("水").key == "S"
    assert Suit.parse("Water") == Suit.parse("S")
    assert Rank.parse("空無").key == "Z"
    assert eval(repr(Suit.parse("Y")), {"Suit": Suit}) == Suit.parse("Y")
    with pytest.raises(CardError, match="unknown suit"):
        Suit.parse("Q")
