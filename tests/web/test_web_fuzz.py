"""Every JSON endpoint fuzzed with hypothesis: any body, field or parameter gives an answer
below 500 (the test client raises on a server error), an error is a short JSON message,
and no answer is large."""

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from cardlab.web.app import MAX_MESSAGE

FIELDS = ["cards", "seed", "move", "deck", "hands", "game", "opponents"]
GOOD = ["7", "left", "right", "FESCA78", "standard52", "fesca78-holdem", "木7 火7 土7 金2 水9"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.integers(min_value=1, max_value=14),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(GOOD),
    st.sampled_from(["--7", "²", "٣", "9" * 5000, "1e3", " 7 ", "-0"]),
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(st.sampled_from(FIELDS) | st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=12,
)
bodies = st.dictionaries(st.sampled_from(FIELDS), values, max_size=4) | values
raw_bodies = st.one_of(
    bodies.map(lambda v: json.dumps(v).encode()),
    st.binary(max_size=200),
    st.integers(1, 3000).map(lambda n: b"[" * n + b"]" * n),
    st.integers(1, 3000).map(lambda n: b'{"cards": ' + b"9" * n + b"}"),
)
texts = st.text(max_size=40) | st.sampled_from(GOOD) | st.sampled_from(["", "%00", "..", "../x"])

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def _check(response: Any) -> None:
    assert response.status_code < 500
    assert len(response.content) < 2_000_000
    if response.status_code >= 400:
        error = response.json()["error"]
        assert isinstance(error, str) and 0 < len(error) <= MAX_MESSAGE


@pytest.fixture(scope="module")
def ids(client: TestClient) -> dict[str, str]:
    game = client.post("/api/openseven/games", json={"cards": 7, "seed": 1}).json()
    deal = client.post(
        "/api/showdown/deals", json={"game": "standard52-holdem", "opponents": 1, "seed": 1}
    ).json()
    return {"game": game["id"], "deal": deal["id"]}


POSTS = [
    "/api/openseven/games",
    "/api/openseven/games/{game}/moves",
    "/api/hands/evaluate",
    "/api/hands/compare",
    "/api/showdown/deals",
    "/api/showdown/deals/{deal}/next",
    "/api/showdown/deals/{deal}/samples",
]


@pytest.mark.parametrize("path", POSTS)
@SETTINGS
@given(raw=raw_bodies)
def test_post_any_body(client: TestClient, ids: dict[str, str], path: str, raw: bytes) -> None:
    response = client.post(
        path.format(**ids), content=raw, headers={"content-type": "application/json"}
    )
    _check(response)


GETS = [
    ("/api/openseven/odds", "cards"),
    ("/api/hands/table", "deck"),
    ("/api/rules", "deck"),
    ("/api/decks", "x"),
    ("/api/games", "x"),
]


@pytest.mark.parametrize(("path", "name"), GETS)
@SETTINGS
@given(value=texts | st.integers(-5, 20).map(str))
def test_get_any_parameter(client: TestClient, path: str, name: str, value: str) -> None:
    _check(client.get(path, params={name: value}))


@SETTINGS
@given(key=texts, kind=st.sampled_from(["games", "deals"]), action=st.sampled_from(["", "/next"]))
def test_any_id(client: TestClient, key: str, kind: str, action: str) -> None:
    base = "/api/openseven/games/" if kind == "games" else "/api/showdown/deals/"
    from urllib.parse import quote

    path = base + quote(key, safe="") + action
    _check(client.get(path) if not action else client.post(path))
