"""A deck written out as data (:meth:`Deck.definition`) gives the same deck back: this is
how a hand history carries a user's deck."""

import tomllib
from pathlib import Path

import pytest

from cardlab.decks import BUILTIN_DECKS, Deck, builtin_name, deck_from_data, get_deck, load_deck
from cardlab.errors import DeckError

USER_DECKS = sorted((Path(__file__).resolve().parents[1] / "data" / "decks").glob("*.toml"))
ALL_DECKS = [get_deck(name) for name in BUILTIN_DECKS] + [load_deck(p) for p in USER_DECKS]


@pytest.mark.parametrize("deck", ALL_DECKS, ids=[d.name for d in ALL_DECKS])
def test_definition_round_trips(deck: Deck) -> None:
    data = deck.definition()
    again = deck_from_data(data)
    assert again == deck
    assert [c.ascii for c in again.cards] == [c.ascii for c in deck.cards]  # the codes too
    # plain data, as a TOML table holds it: strings, ints and lists and tables of them
    assert tomllib.loads(_toml(data)) == data


def test_builtin_name_needs_the_very_deck() -> None:
    assert [builtin_name(get_deck(n)) for n in BUILTIN_DECKS] == list(BUILTIN_DECKS)
    assert builtin_name(load_deck(USER_DECKS[0])) is None
    # a user's deck named like a built-in one, with fewer cards, is not that deck
    named = get_deck("standard52").definition() | {"extra_cards": [], "full_suits": ["s"]}
    assert builtin_name(deck_from_data(named)) is None


def test_bad_definitions_are_deck_errors() -> None:
    with pytest.raises(DeckError, match="the hand's deck is not a deck definition"):
        deck_from_data(["FESCA78"], source="the hand's deck")
    with pytest.raises(DeckError, match="the hand's deck: missing field 'ranks'"):
        deck_from_data({"name": "x", "suits": ["M"]}, source="the hand's deck")


def _toml(data: dict[str, object]) -> str:
    def value(v: object) -> str:
        if isinstance(v, str):
            return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
        if isinstance(v, bool | int):
            return str(v).lower()
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f'"{k}" = {value(x)}' for k, x in v.items()) + "}"
        raise TypeError(v)

    return "".join(f'"{k}" = {value(v)}\n' for k, v in data.items())
