"""Fuzz every JSON and WebSocket entry point of the tables: no 500, no crash; a bad
request is a 400 with an error, a bad message an error message."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from cardlab.store import Store
from cardlab.web import create_app

JSON_TYPE = {"content-type": "application/json"}
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda kids: (
        st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=10), kids, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    [
        "game",
        "seats",
        "stack",
        "betting",
        "blinds",
        "ante",
        "bring_in",
        "small_bet",
        "big_bet",
        "bots",
        "clock",
        "bot_delay",
        "pause",
        "name",
        "seed",
        "name",
        "seat",
    ]
)
VALUES = (
    JSON
    | st.sampled_from(["fesca78-draw", "standard52-stud", "fesca42-omaha", "random", "nl", "pl"])
    | st.integers(min_value=-3, max_value=12)
    | st.lists(st.integers(min_value=-2, max_value=300), max_size=4)
    | st.dictionaries(
        st.sampled_from(["1", "2", "3", "11", "x"]),
        st.sampled_from(["random", "station", "nope", ""]),
        max_size=3,
    )
)
BODIES = st.dictionaries(FIELDS, VALUES, max_size=6) | JSON
ACTIONS = st.sampled_from(
    ["f", "c", "r 4", "r 99999999999999999999", "b", "d", "s", "m", "x"]
) | st.text(max_size=20)
MESSAGES = (
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(
                [
                    "action",
                    "start",
                    "ping",
                    "nope",
                    "client_seed",
                    "reveal",
                    "leave",
                    "sit_out",
                    "sit_in",
                    "chat",
                    "hints",
                ]
            )
        },
        optional={
            "action": ACTIONS | JSON,
            "turn": JSON | st.integers(0, 20),
            "deal": JSON | st.integers(0, 5),
            "seed": JSON | st.from_regex(r"[0-9a-f]{0,70}", fullmatch=True),
            "text": JSON | st.text(max_size=210) | st.just("<b>x</b>\u202e"),
            "name": JSON | st.sampled_from(["fuzz", "carl", "spectator 1"]),
            "on": JSON | st.booleans(),
            # a hint's range: malformed, another deck's, weighted, or one that reads
            "against": JSON
            | st.sampled_from(["random", "Z-Z", "QQ+,AKs", "Z-Z:0.5", "11-11+", "any", ""])
            | st.text(alphabet="AKQJTsoZ-+,: 陰陽木火1x?", max_size=20),
        },
    )
    | JSON
)

FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    # no rate limits: the fuzz sends thousands of requests from one client (the limits
    # have their own tests); the table limit stays out of the way the same way
    app = create_app(table_store=Store.in_memory(), limiter=None, tables={"max_tables": 100_000})
    with TestClient(app) as c:
        yield c


def _created(client: TestClient) -> tuple[str, str]:
    r = client.post(
        "/api/tables",
        json={"seats": 3, "bots": {"3": "random"}, "clock": 0, "bot_delay": 0, "pause": 0},
    )
    tid = r.json()["id"]
    client.cookies.clear()
    r = client.post(f"/api/tables/{tid}/join", json={"name": "fuzz"})
    client.cookies.clear()
    return tid, r.headers["set-cookie"].split(";")[0]


@FUZZ
@given(body=BODIES)
def test_create_answers_201_or_400(client: TestClient, body: Any) -> None:
    r = client.post("/api/tables", content=json.dumps(body), headers=JSON_TYPE)
    assert r.status_code in (201, 400), r.text
    if r.status_code == 400:
        assert isinstance(r.json()["error"], str)


@FUZZ
@given(raw=st.binary(max_size=60))
def test_create_refuses_bad_bytes(client: TestClient, raw: bytes) -> None:
    r = client.post("/api/tables", content=raw, headers=JSON_TYPE)
    assert r.status_code in (201, 400)


@FUZZ
@given(body=BODIES, table=st.sampled_from(["ok", "nope", "a/b", "%00"]))
def test_join_answers_200_or_400(client: TestClient, body: Any, table: str) -> None:
    if table == "ok":
        table = client.post("/api/tables", json={"seats": 2}).json()["id"]
    client.cookies.clear()
    r = client.post(f"/api/tables/{table}/join", content=json.dumps(body), headers=JSON_TYPE)
    client.cookies.clear()
    assert r.status_code in (200, 400, 404), r.text


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    messages=st.lists(MESSAGES | st.binary(max_size=10), min_size=1, max_size=8),
    seated=st.booleans(),
)
def test_websocket_messages_never_crash(
    client: TestClient, messages: list[Any], seated: bool
) -> None:
    tid, cookie = _created(client)
    headers = {"cookie": cookie} if seated else {}
    with client.websocket_connect(f"/api/tables/{tid}/ws", headers=headers) as ws:
        for message in messages:
            if isinstance(message, bytes):
                ws.send_bytes(message)
            else:
                ws.send_text(json.dumps(message))
        ws.send_text(json.dumps({"type": "ping"}))
        for _ in range(500):
            reply = ws.receive_json()
            assert reply["type"] in ("state", "error", "pong", "chat_status")
            if reply["type"] == "pong":
                break
    # the table still answers and its chips are all there
    state = client.get(f"/api/tables/{tid}").json()
    live = sum(s["stack"] + s["bet"] for s in state["seats"])
    pots = 0 if state["hand"] is None else sum(p["amount"] for p in state["hand"]["pots"])
    ledger = client.get(f"/api/tables/{tid}/ledger").json()
    assert live + pots == ledger["chips_brought"] - ledger["chips_taken"]
    assert ledger["balanced"]


HOST_BODIES = (
    st.fixed_dictionaries(
        {
            "op": st.sampled_from(
                ["pause", "resume", "settings", "remove", "add_bot", "transfer", "x"]
            )
        },
        optional={
            "seat": JSON | st.integers(-1, 5),
            "bot": JSON | st.sampled_from(["random", "station", "nope"]),
            "settings": st.dictionaries(FIELDS, VALUES, max_size=3) | JSON,
        },
    )
    | JSON
)


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    calls=st.lists(
        st.tuples(
            st.sampled_from(["leave", "close", "chips", "host", "ledger", "join"]),
            HOST_BODIES | st.fixed_dictionaries({"amount": JSON | st.integers(-5, 500)}) | JSON,
            st.sampled_from(["host", "seat", "none"]),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_seat_and_host_endpoints_never_crash(
    client: TestClient, calls: list[tuple[str, Any, str]]
) -> None:
    client.cookies.clear()
    r = client.post(
        "/api/tables",
        json={"seats": 3, "bots": {"3": "random"}, "clock": 0, "bot_delay": 0, "pause": 0},
    )
    tid = r.json()["id"]
    host = r.headers["set-cookie"].split(";")[0]
    client.cookies.clear()
    r = client.post(f"/api/tables/{tid}/join", json={"name": "fuzz"})
    seat = r.headers["set-cookie"].split(";")[0]
    client.cookies.clear()
    cookies = {"host": host, "seat": seat, "none": ""}
    for what, body, who in calls:
        headers = JSON_TYPE | ({"cookie": cookies[who]} if cookies[who] else {})
        if what == "ledger":
            r = client.get(f"/api/tables/{tid}/ledger", headers=headers)
        else:
            r = client.post(f"/api/tables/{tid}/{what}", content=json.dumps(body), headers=headers)
        client.cookies.clear()
        assert r.status_code in (200, 400, 403, 404), r.text
        assert isinstance(r.json(), dict)
    ledger = client.get(f"/api/tables/{tid}/ledger")
    if ledger.status_code == 200:  # the table may have been closed
        assert ledger.json()["balanced"]
