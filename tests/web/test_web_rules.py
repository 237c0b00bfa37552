"""The rules page's data: every deck's hands with examples, the straights, the steps."""

import pytest
from starlette.testclient import TestClient

from cardlab.decks import BUILTIN_DECKS
from cardlab.poker import RuleSet
from cardlab.poker.hands import evaluate
from cardlab.poker.order import hand_order


def test_rules_page_renders(client: TestClient) -> None:
    response = client.get("/rules")
    assert response.status_code == 200
    for word in ["ZAT", "r-deck", "tie-break", 'lang="ja"', *BUILTIN_DECKS]:
        assert word in response.text


@pytest.mark.parametrize("deck", BUILTIN_DECKS)
def test_rules_data(client: TestClient, deck: str) -> None:
    response = client.get("/api/rules", params={"deck": deck})
    assert response.status_code == 200, response.text
    data = response.json()
    rules = RuleSet.for_deck(deck)
    assert [h["en"] for h in data["hands"]] == [c.english for c in hand_order(rules).categories]
    for h in data["hands"]:
        cards = " ".join(c["text"] for c in h["example"]["cards"])
        assert evaluate(cards, rules).category.value == h["id"]
    assert sum(h["count"] for h in data["hands"]) == data["combinations"]
    assert len(data["straights"]) == len(rules.straights)
    assert data["tie_breaks"][0]["step"] == "category"


def test_rules_suit_order_strongest_first(client: TestClient) -> None:
    data = client.get("/api/rules?deck=fesca78").json()
    assert data["deck"] == "FESCA78"
    assert data["suit_order"] == ["陰陽", "水", "金", "土", "火", "木"]
    assert client.get("/api/rules?deck=standard52").json()["suit_order"] == []


@pytest.mark.parametrize("deck", ["nope", "../FESCA78", "", "x" * 5000])
def test_unknown_deck_is_400(client: TestClient, deck: str) -> None:
    response = client.get("/api/rules", params={"deck": deck})
    assert response.status_code == 400
    assert "unknown deck" in response.json()["error"]
    assert len(response.content) < 500
