"""Open Seven through the API: whole games, hidden values, hints and odds as the library says."""

from typing import Any

import pytest
from starlette.testclient import TestClient

from cardlab import render
from cardlab.openseven import Game, Model, hints, odds, solve


def _new(client: TestClient, cards: int, seed: int) -> dict[str, Any]:
    response = client.post("/api/openseven/games", json={"cards": cards, "seed": seed})
    assert response.status_code == 200, response.text
    return response.json()


def _move(client: TestClient, game_id: str, move: str) -> dict[str, Any]:
    response = client.post(f"/api/openseven/games/{game_id}/moves", json={"move": move})
    assert response.status_code == 200, response.text
    return response.json()


def _assert_hidden(state: dict[str, Any]) -> None:
    """Only turned positions carry a value, and nothing else reveals the row."""
    assert state["status"] == "playing"
    assert "reveal" not in state
    assert "arrangement" not in str(state)
    for p, face in enumerate(state["faces"], start=1):
        assert (face is not None) == (p in state["turned"])


def _play(client: TestClient, cards: int, seed: int, pick: str = "first") -> list[dict[str, Any]]:
    """A whole game: start at position 1, then the left call when legal (or the right)."""
    state = _new(client, cards, seed)
    seen = [state]
    moves = 0
    while state["status"] == "playing":
        _assert_hidden(state)
        if not state["turned"]:
            move = "1"
        else:
            sides = sorted(state["targets"])
            move = sides[0] if pick == "first" else sides[-1]
        state = _move(client, state["id"], move)
        seen.append(state)
        moves += 1
        assert moves <= cards
    return seen


def test_a_whole_game_to_the_end(client: TestClient) -> None:
    seen = _play(client, 7, seed=11)
    last = seen[-1]
    assert last["status"] in ("won", "lost")
    assert last["hints"] == []
    arrangement = last["reveal"]["arrangement"]
    assert arrangement == list(Game(7).deal(11).arrangement)
    # every face shown during play agrees with the revealed row
    for state in seen:
        for p, face in enumerate(state["faces"], start=1):
            assert face is None or face == arrangement[p - 1]
    solved = solve(arrangement)
    assert last["reveal"]["solutions"] == solved.solutions
    assert last["reveal"]["lines"] == solved.lines
    assert [s["solutions"] for s in last["reveal"]["per_start"]] == [
        s.solutions for s in solved.per_start
    ]


def test_games_are_won_and_lost() -> None:
    # its own app: many games, so the store's cap is exercised too
    from cardlab.web import create_app

    outcomes = set()
    with TestClient(create_app(max_games=3)) as client:
        for seed in range(40):
            outcomes.add(_play(client, 3, seed)[-1]["status"])
    assert outcomes == {"won", "lost"}


def test_one_card_is_won_at_once(client: TestClient) -> None:
    state = _new(client, 1, seed=0)
    state = _move(client, state["id"], "1")
    assert state["status"] == "won"
    assert state["reveal"]["solutions"] == solve([1]).solutions


def test_get_returns_the_same_view(client: TestClient) -> None:
    state = _new(client, 9, seed=5)
    state = _move(client, state["id"], "2")
    again = client.get(f"/api/openseven/games/{state['id']}").json()
    assert again == state


def test_hints_are_the_library_optimal_chances(client: TestClient) -> None:
    state = _new(client, 7, seed=3)
    library = Game(7).deal(3)
    for move in ("5", None):
        if move is not None:
            state = _move(client, state["id"], move)
            library = library.apply(move)
            if state["status"] != "playing":
                break
        expected = {str(m): p for m, p in hints(library, Model.OPTIMAL).items()}
        got = {h["move"]: h["fraction"] for h in state["hints"]}
        assert got == {m: render.fraction_str(p) for m, p in expected.items()}


@pytest.mark.parametrize("cards", [1, 7, 13])
def test_odds_table_matches_the_library(client: TestClient, cards: int) -> None:
    data = client.get(f"/api/openseven/odds?cards={cards}").json()
    table = odds(cards)
    for model, chances in table.items():
        assert data["overall"][model.value]["fraction"] == render.fraction_str(chances.overall)
        for row in data["starts"]:
            got = row["chances"][model.value]["fraction"]
            assert got == render.fraction_str(chances.per_start[row["position"] - 1])
    assert data["overall"]["optimal"]["fraction"] == render.fraction_str(
        odds(cards)[Model.OPTIMAL].overall
    )


def test_illegal_moves_are_400(client: TestClient) -> None:
    state = _new(client, 7, seed=2)
    url = f"/api/openseven/games/{state['id']}/moves"
    cases = [
        ({"move": "left"}, "choose a start position"),
        ({"move": "9"}, "start position must be 1..7"),
        ({"move": "up"}, "a move is a position number"),
        ({}, "missing field 'move'"),
        ({"move": 3}, "field 'move' must be text"),
    ]
    for body, words in cases:
        response = client.post(url, json=body)
        assert response.status_code == 400
        assert words in response.json()["error"]
    state = _move(client, state["id"], "1")
    while state["status"] == "playing":
        state = _move(client, state["id"], sorted(state["targets"])[0])
    response = client.post(url, json={"move": "left"})
    assert response.status_code == 400
    assert "the game is over" in response.json()["error"]


@pytest.mark.parametrize(
    ("method", "url", "body", "words"),
    [
        ("POST", "/api/openseven/games", {"cards": 14}, "must be 1..13"),
        ("POST", "/api/openseven/games", {"cards": 0}, "must be 1..13"),
        (
            "POST",
            "/api/openseven/games",
            {"cards": "seven"},
            "field 'cards' must be a whole number",
        ),
        ("POST", "/api/openseven/games", {"cards": True}, "field 'cards' must be a whole number"),
        ("GET", "/api/openseven/odds?cards=x", None, "must be a whole number"),
        ("GET", "/api/openseven/odds?cards=99", None, "must be 1..13"),
        ("GET", "/api/openseven/games/nope", None, "unknown game id"),
        ("POST", "/api/openseven/games/nope/moves", {"move": "1"}, "unknown game id"),
    ],
)
def test_bad_requests_are_400(
    client: TestClient, method: str, url: str, body: Any, words: str
) -> None:
    response = client.request(method, url, json=body)
    assert response.status_code == 400
    assert words in response.json()["error"]


def test_malformed_json_is_400(client: TestClient) -> None:
    response = client.post(
        "/api/openseven/games", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert "JSON object" in response.json()["error"]
    response = client.post("/api/openseven/games", json=[7])
    assert response.status_code == 400
