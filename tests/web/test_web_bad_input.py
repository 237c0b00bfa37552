"""Input a browser test found crashing the API (500s): now each is a 400 with a message,
bodies are capped, and no error echoes a large input back."""

from typing import Any

import pytest
from starlette.testclient import TestClient

from cardlab.web.app import MAX_BODY, MAX_MESSAGE

BAD_NUMBERS = ["--7", "²", "٧", "7.0", "1e3", "9" * 5000, " ", ""]


@pytest.mark.parametrize("value", BAD_NUMBERS)
@pytest.mark.parametrize(
    ("url", "body", "name"),
    [
        ("/api/openseven/games", {}, "cards"),
        ("/api/openseven/games", {"cards": 7}, "seed"),
        ("/api/showdown/deals", {"game": "fesca78-holdem"}, "opponents"),
        ("/api/showdown/deals", {"game": "fesca78-holdem"}, "seed"),
    ],
)
def test_bad_numeric_fields_are_400(
    client: TestClient, url: str, body: dict[str, Any], name: str, value: str
) -> None:
    response = client.post(url, json=body | {name: value})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert f"field {name!r}" in error
    assert len(error) <= MAX_MESSAGE


@pytest.mark.parametrize("value", ["--7", "²", "9" * 5000])
def test_bad_query_numbers_are_400(client: TestClient, value: str) -> None:
    response = client.get("/api/openseven/odds", params={"cards": value})
    assert response.status_code == 400
    assert "parameter 'cards'" in response.json()["error"]


@pytest.mark.parametrize(
    "raw",
    [
        b"[" * 100_000 + b"]" * 100_000,  # nested too deeply for the parser (over the cap too)
        b'{"cards": ' + b"[" * 5000 + b"]" * 5000 + b"}",  # deep, under the cap
        b'{"cards": ' + b"9" * 5000 + b"}",  # a number over Python's int-from-text limit
        b'{"cards": 1e999}',
        b'{"cards": NaN}',
        b"\xff\xfe",
        b"null",
    ],
)
def test_unreadable_bodies_are_4xx(client: TestClient, raw: bytes) -> None:
    response = client.post(
        "/api/openseven/games", content=raw, headers={"content-type": "application/json"}
    )
    assert response.status_code in (400, 413), response.text
    assert len(response.content) <= MAX_MESSAGE + 50


def test_huge_integer_is_refused_without_echo(client: TestClient) -> None:
    response = client.post("/api/openseven/games", json={"cards": 10**4000})
    assert response.status_code == 400
    assert "digits" in response.json()["error"]
    assert len(response.content) < 400


def test_body_over_the_cap_is_413(client: TestClient) -> None:
    text = "木7 " * (MAX_BODY // 4)
    response = client.post("/api/hands/evaluate", json={"deck": "FESCA78", "cards": text})
    assert response.status_code == 413
    assert len(response.content) < 400


def test_body_over_the_cap_without_length_is_413(client: TestClient) -> None:
    def chunks():  # type: ignore[no-untyped-def]
        for _ in range(MAX_BODY // 1000 + 2):
            yield b" " * 1000

    response = client.post(
        "/api/hands/evaluate", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


def test_long_bad_cards_are_not_echoed(client: TestClient) -> None:
    text = "x" * (MAX_BODY // 2)
    response = client.post("/api/hands/evaluate", json={"deck": "FESCA78", "cards": text})
    assert response.status_code == 400
    assert len(response.content) <= MAX_MESSAGE + 50


@pytest.mark.parametrize("move", ["²", "٣", "--1", "9" * 5000, "1" * 12, "", " ", "\x00"])
def test_bad_open_seven_moves_are_400(client: TestClient, move: str) -> None:
    game = client.post("/api/openseven/games", json={"cards": 7, "seed": 1}).json()
    response = client.post(f"/api/openseven/games/{game['id']}/moves", json={"move": move})
    assert response.status_code == 400, response.text
    assert "move" in response.json()["error"]
