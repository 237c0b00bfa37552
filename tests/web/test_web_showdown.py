"""A showdown through the API: streets in order, hidden cards stay hidden, the library's result."""

from typing import Any

import pytest
from starlette.testclient import TestClient

from cardlab.poker.games import get_game
from cardlab.poker.showdown import settle


def _cards_in(value: Any) -> set[str]:
    """Every card (by its text) anywhere in a response."""
    found: set[str] = set()
    if isinstance(value, dict):
        if {"text", "ascii", "suit"} <= value.keys():
            found.add(value["text"])
        for v in value.values():
            found |= _cards_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= _cards_in(v)
    return found


def _play(client: TestClient, game: str, opponents: int, seed: int) -> list[dict[str, Any]]:
    body = {"game": game, "opponents": opponents, "seed": seed}
    response = client.post("/api/showdown/deals", json=body)
    assert response.status_code == 200, response.text
    states = [response.json()]
    while states[-1]["street"] != "showdown":
        response = client.post(f"/api/showdown/deals/{states[-1]['id']}/next")
        assert response.status_code == 200, response.text
        states.append(response.json())
    return states


@pytest.mark.parametrize(
    ("game", "opponents"), [("fesca78-holdem", 2), ("standard52-holdem", 1), ("fesca60-omaha", 1)]
)
def test_a_deal_flows_to_the_showdown(client: TestClient, game: str, opponents: int) -> None:
    states = _play(client, game, opponents, seed=7)
    assert [s["street"] for s in states] == ["preflop", "flop", "turn", "river", "showdown"]
    assert [len(s["board"]) for s in states] == [0, 3, 4, 5, 5]
    # the seed gives every hidden card: only the finished deal shows it
    assert all("seed" not in s for s in states[:-1]) and states[-1]["seed"] == 7
    final = states[-1]
    sd = final["showdown"]
    holes = [" ".join(c["text"] for c in p["hole"]) for p in sd["players"]]
    board = " ".join(c["text"] for c in final["board"])
    result = settle(get_game(game), holes, board)
    assert sd["winners"] == [w + 1 for w in result.winners]
    assert sd["decided_by"] == result.decided_by
    for got, p in zip(sd["players"], result.players, strict=True):
        assert [c["text"] for c in got["best_five"]] == [str(c) for c in p.best_five]
        assert got["value"]["key"] == p.value.key
    assert sd["players"][0]["you"] and [c["text"] for c in sd["players"][0]["hole"]] == [
        c["text"] for c in states[0]["hole"]
    ]
    # the board only grows, and the earlier streets are its first cards
    for s in states:
        assert s["board"] == final["board"][: len(s["board"])]


def test_hidden_cards_stay_hidden_until_the_showdown(client: TestClient) -> None:
    states = _play(client, "fesca78-holdem", 3, seed=21)
    final = states[-1]
    hidden_holes = {c["text"] for p in final["showdown"]["players"][1:] for c in p["hole"]}
    board = [c["text"] for c in final["board"]]
    for s in states[:-1]:
        seen = _cards_in(s)
        assert not seen & hidden_holes
        assert not seen & set(board[len(s["board"]) :])
        assert "showdown" not in s
        text = str(s)
        for card in hidden_holes:
            assert card not in text


def test_equity_is_a_sampled_estimate(client: TestClient) -> None:
    state = _play(client, "standard52-holdem", 1, seed=3)[0]
    e = state["equity"]
    assert 0 <= e["equity"] <= 1 and e["equity_se"] >= 0 and e["samples"] >= 20
    assert e["win"] + e["tie"] <= 1


def test_the_same_seed_deals_the_same_cards(client: TestClient) -> None:
    a = _play(client, "fesca78-holdem", 2, seed=99)
    b = _play(client, "fesca78-holdem", 2, seed=99)
    assert a[-1]["showdown"] == b[-1]["showdown"]
    assert a[0]["equity"] == b[0]["equity"]


def test_games_list_board_games_only(client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    keys = {g["key"] for g in games}
    assert {"fesca78-holdem", "standard52-holdem", "fesca78-omaha"} <= keys
    assert not any(k.endswith(("-stud", "-draw")) for k in keys)


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "fesca99-holdem"}, "unknown game 'fesca99-holdem'"),
        ({"game": "fesca78-stud"}, "five-card board"),
        ({"game": "/etc/passwd.toml-holdem"}, "unknown game"),
        ({"game": 78}, "field 'game' must be text"),
        ({"game": "fesca78-holdem", "opponents": 0}, "1 to"),
        ({"game": "fesca78-holdem", "opponents": 99}, "1 to"),
        ({"game": "fesca78-holdem", "seed": -1}, "seed"),
        ({"game": "fesca78-holdem", "seed": "x"}, "field 'seed' must be a whole number"),
        ({}, "missing field 'game'"),
    ],
)
def test_bad_deals_are_400(client: TestClient, body: Any, words: str) -> None:
    response = client.post("/api/showdown/deals", json=body)
    assert response.status_code == 400
    assert words in response.json()["error"]


def test_after_the_showdown_and_unknown_ids_are_400(client: TestClient) -> None:
    final = _play(client, "standard52-holdem", 1, seed=1)[-1]
    response = client.post(f"/api/showdown/deals/{final['id']}/next")
    assert response.status_code == 400
    assert "the deal is over" in response.json()["error"]
    assert client.get(f"/api/showdown/deals/{final['id']}").json() == final
    response = client.post("/api/showdown/deals/nope/next")
    assert response.status_code == 400
    assert "unknown deal id" in response.json()["error"]


def test_more_samples_are_pooled(client: TestClient) -> None:
    first = client.post(
        "/api/showdown/deals", json={"game": "standard52-holdem", "opponents": 1, "seed": 4}
    ).json()
    url = f"/api/showdown/deals/{first['id']}/samples"
    more = client.post(url).json()
    assert more["equity"]["samples"] == 2 * first["equity"]["samples"]
    assert more["street"] == "preflop" and more["hole"] == first["hole"]
    assert more["more_samples"]
    assert 0 <= more["equity"]["equity"] <= 1
    again = client.post(url).json()
    assert again["equity"]["samples"] == 3 * first["equity"]["samples"]
