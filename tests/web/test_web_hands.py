"""Mixwell hands through the API: the same values, winners and tables as the library."""

from typing import Any

import pytest
from starlette.testclient import TestClient

from cardlab import render
from cardlab.decks import BUILTIN_DECKS, get_deck
from cardlab.poker.frequencies import five_card_table
from cardlab.poker.hands import compare, evaluate
from cardlab.poker.rules import RuleSet

HANDS = [
    ("FESCA78", "木7 火7 土7 金2 水9"),
    ("FESCA78", "M1 M3 M5 M9 M11"),
    ("FESCA78", "太極 陰陽1 陰陽2 木Z 火Z"),
    ("FESCA60", "木1 火2 土3 金4 水5"),
    ("TESCA52", "木3 木4 火3 火4 水12"),
    ("standard52", "As Ah Kd Kc 2s"),
    ("standard52", "Ts Js Qs Ks As"),
]


@pytest.mark.parametrize(("deck", "cards"), HANDS)
def test_evaluate_matches_the_library(client: TestClient, deck: str, cards: str) -> None:
    response = client.post("/api/hands/evaluate", json={"deck": deck, "cards": cards})
    assert response.status_code == 200, response.text
    data = response.json()
    value = evaluate(cards, RuleSet.for_deck(deck))
    assert data["key"] == value.key
    assert data["category"] == {
        "id": value.category.value,
        "en": value.category.english,
        "ja": value.category.japanese,
    }
    if value.secondary is None:
        assert data["secondary"] is None
    else:
        assert data["secondary"]["id"] == value.secondary.value
        assert data["secondary"]["ja"] == value.secondary.japanese
    assert data["description"] == value.describe()
    assert data["description_ja"] == value.describe("ja")
    assert [c["text"] for c in data["cards"]] == [str(c) for c in value.cards]


@pytest.mark.parametrize(
    ("deck", "hands"),
    [
        ("FESCA78", ["木7 火7 土7 金2 水9", "木8 火8 土8 金2 水9"]),
        ("FESCA78", ["木7 火7 土7 金2 水9", "木8 火8 土8 金2 水9", "M1 M3 M5 M9 M11"]),
        ("standard52", ["As Ah Kd Kc 2s", "Ad Ac Ks Kh 2d"]),
        ("standard52", ["As Ah Kd Kc 2s", "Ad Ac Ks Kh 3d"]),
        ("FESCA60", ["木1 火1 土2 金3 水4", "木1 火2 土3 金4 水5"]),
    ],
)
def test_compare_matches_the_library(client: TestClient, deck: str, hands: list[str]) -> None:
    response = client.post("/api/hands/compare", json={"deck": deck, "hands": hands})
    assert response.status_code == 200, response.text
    data = response.json()
    rules = RuleSet.for_deck(deck)
    winners, step = compare([evaluate(h, rules) for h in hands])
    assert data["winners"] == [w + 1 for w in winners]
    assert data["decided_by"] == step
    assert [h["key"] for h in data["hands"]] == [evaluate(h, rules).key for h in hands]


@pytest.mark.parametrize("deck", ["FESCA78", "FESCA60", "standard52"])
def test_hand_table_matches_the_library(client: TestClient, deck: str) -> None:
    data = client.get(f"/api/hands/table?deck={deck}").json()
    table = five_card_table(RuleSet.for_deck(deck))
    assert data["combinations"] == table.combinations
    assert [(r["order"], r["id"], r["count"], r["fraction"]) for r in data["rows"]] == [
        (r.order, r.category.value, r.count, render.fraction_str(r.probability)) for r in table.rows
    ]
    assert sum(r["count"] for r in data["rows"]) == table.combinations


def test_decks_list_every_card(client: TestClient) -> None:
    data = client.get("/api/decks").json()
    assert [d["name"] for d in data["decks"]] == list(BUILTIN_DECKS)
    for d in data["decks"]:
        cards = [c["text"] for row in d["rows"] for c in row["cards"] if c]
        assert sorted(cards) == sorted(str(c) for c in get_deck(d["name"]).cards)


@pytest.mark.parametrize(
    ("url", "body", "words"),
    [
        ("/api/hands/evaluate", {"deck": "FESCA99", "cards": "木1"}, "unknown deck 'FESCA99'"),
        ("/api/hands/evaluate", {"deck": "/etc/x.toml", "cards": "木1"}, "unknown deck"),
        ("/api/hands/evaluate", {"deck": "FESCA78", "cards": "木7 火7 土7 金2 Q9"}, "'Q9'"),
        ("/api/hands/evaluate", {"deck": "FESCA78", "cards": "木7 火7 土7 金2"}, "exactly five"),
        ("/api/hands/evaluate", {"deck": "FESCA78", "cards": "木7 木7 土7 金2 水1"}, "twice"),
        ("/api/hands/evaluate", {"deck": "standard52", "cards": "木7 火7 土7 金2 水9"}, "not in"),
        ("/api/hands/evaluate", {"deck": "FESCA78"}, "missing field 'cards'"),
        ("/api/hands/compare", {"deck": "FESCA78", "hands": ["木7 火7 土7 金2 水9"]}, "2 to 10"),
        ("/api/hands/compare", {"deck": "FESCA78", "hands": "木7"}, "must be a list"),
        ("/api/hands/compare", {"deck": "FESCA78", "hands": [1, 2]}, "list of strings"),
    ],
)
def test_bad_hands_are_400(client: TestClient, url: str, body: Any, words: str) -> None:
    response = client.post(url, json=body)
    assert response.status_code == 400
    assert words in response.json()["error"]


def test_unknown_deck_table_is_400(client: TestClient) -> None:
    response = client.get("/api/hands/table?deck=nope")
    assert response.status_code == 400
    assert "unknown deck 'nope'" in response.json()["error"]
