"""Decks as data: the built-in decks match the spec, user decks load or fail clearly."""

from pathlib import Path

import pytest

from cardlab.cards import Card
from cardlab.decks import BUILTIN_DECKS, Deck, Wrap, deck_from_toml, get_deck, load_deck
from cardlab.errors import CardError, DeckError

SIZES = {
    "FESCA78": 78,
    "FESCA73": 73,
    "FESCA65": 65,
    "FESCA60": 60,
    "FESCA54": 54,
    "FESCA42": 42,
    "TESCA52": 52,
    "TESCA54": 54,
    "standard52": 52,
}


@pytest.mark.parametrize("name", BUILTIN_DECKS)
def test_builtin_sizes_and_codes(name: str) -> None:
    deck = get_deck(name)
    assert len(deck) == SIZES[name]
    assert [deck.code(c) for c in deck.cards] == list(range(len(deck)))
    assert deck.parse_cards(" ".join(map(str, deck.cards))) == deck.cards
    assert deck.parse_cards(" ".join(c.ascii for c in deck.cards)) == deck.cards


def test_contents_follow_the_spec() -> None:
    f78 = get_deck("FESCA78")
    assert Card.parse("太極") in f78 and Card.parse("金Z") in f78
    assert Card.parse("金Z") not in get_deck("FESCA73")
    assert Card.parse("太極") in get_deck("FESCA73")
    assert get_deck("FESCA60").wrap is Wrap.LINE
    assert [r.key for r in get_deck("FESCA54").ranks] == [*map(str, range(1, 9)), "Z"]
    tesca54 = get_deck("TESCA54")
    assert {str(c) for c in tesca54.cards if c.suit.key in "DG"} == {"土Z", "金Z"}
    assert len(get_deck("FESCA65").element_suits) == 5
    assert get_deck("standard52").element_suits == ()


def test_lookup_is_case_insensitive_and_cached() -> None:
    assert get_deck("fesca78") is get_deck("FESCA78")
    assert repr(get_deck("FESCA78")) == "get_deck('FESCA78')"


def test_parse_cards_refuses_bad_input() -> None:
    tesca = get_deck("TESCA52")
    with pytest.raises(CardError, match="'土3' is not in the TESCA52 deck"):
        tesca.parse_cards("木1 土3")
    with pytest.raises(CardError, match="given twice"):
        tesca.parse_cards("木1 M1")
    with pytest.raises(CardError, match="expected 5 cards, got 2"):
        tesca.parse_cards("木1 木2", count=5)
    with pytest.raises(CardError, match="malformed card 'xx'"):
        tesca.parse_cards("xx")
    with pytest.raises(DeckError, match="unknown deck 'FESCA99'"):
        get_deck("FESCA99")


MINI = """
name = "MINI"
description = "two element suits and a new suit"
suits = ["M", "K", {key = "L", symbol = "光", name = "Light", role = "element"}]
ranks = ["1", "2", "3", "4", "5", "Z"]
wrap = "ring"
remove = ["木Z"]
"""


def test_user_deck_from_toml(tmp_path: Path) -> None:
    path = tmp_path / "mini.toml"
    path.write_text(MINI, encoding="utf-8")
    deck = load_deck(path)
    assert isinstance(deck, Deck)
    assert len(deck) == 17
    assert deck.parse_cards("光3 火Z") == deck.parse_cards("L3 KZ")
    assert get_deck(str(path)) == deck


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = ", "not valid TOML"),
        ('name = "X"\nsuits = ["M"]', "missing field 'ranks'"),
        ('name = "X"\nsuits = ["M"]\nranks = ["1"]\ncolour = 1', "unknown field"),
        ('name = "X"\nsuits = ["Q"]\nranks = ["1"]', "unknown suit 'Q'"),
        ('name = "X"\nsuits = ["M"]\nranks = ["1"]\nwrap = "loop"', "wrap must be"),
        ('name = "X"\nsuits = ["M"]\nranks = ["2", "1"]', "lowest first"),
        ('name = "X"\nsuits = ["M"]\nranks = ["1"]\nremove = ["火1"]', "remove lists"),
        ('name = "X"\nsuits = ["M", "M"]\nranks = ["1"]', "twice"),
    ],
)
def test_invalid_deck_files_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(DeckError, match=message):
        deck_from_toml(text)


def test_missing_deck_file() -> None:
    with pytest.raises(DeckError, match="cannot read deck file"):
        load_deck("/nonexistent/deck.toml")
