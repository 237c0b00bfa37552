"""A table's set-up as a careless or hostile client sends it: stakes out of order or out
of bounds, and names that hide characters or pass for the house, at creation and in the
host's settings; each refused with one 400 line naming the field. A table saved before
these checks still restores, and the lobby never lists a bad name it kept."""

from __future__ import annotations

import json
import secrets
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from cardlab.store import Store
from cardlab.web import create_app
from cardlab.web.payload import RequestError
from cardlab.web.table_config import check_name, check_table_name, parse_config

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

BASE: dict[str, Any] = {"game": "fesca78-holdem", "seats": 3, "stack": 100, "clock": 0}


def _browser() -> dict[str, str]:
    return {"cookie": f"cardlab_id={secrets.token_urlsafe(32)}"}


def _post(client: TestClient, url: str, body: Any, who: dict[str, str]) -> Any:
    client.cookies.clear()
    return client.post(url, json=body, headers=who)


def _one_line_naming(answer: Any, field: str) -> str:
    assert answer.status_code == 400, answer.text
    error = str(answer.json()["error"])
    assert "\n" not in error and field in error, error
    return error


BAD_STAKES = [
    ({"blinds": [5, 2]}, "blinds", "small blind (5) must be at most the big blind (2)"),
    ({"blinds": [1, 0]}, "blinds", "at most the big blind (0)"),
    ({"blinds": [0, 0]}, "blinds", "needs a forced bet"),  # the engine's own refusal
    ({"blinds": [0, 0, 2]}, "blinds", "big blind must be at least 1"),
    ({"blinds": [1, 2, 1]}, "blinds", "blind 2 (2) must be at most blind 3 (1)"),
    ({"blinds": [50, 150]}, "blinds", "big blind (150) is more than the smallest starting"),
    ({"blinds": [1, 2], "stacks": [100, 1, 100]}, "blinds", "smallest starting stack (1"),
    ({"game": "standard52-stud", "ante": 101}, "ante", "the ante (101) is more than"),
    (
        {"betting": "fixed-limit", "small_bet": 4, "big_bet": 2},
        "big_bet",
        "big bet (2) must be at least the small bet (4)",
    ),
]


@pytest.mark.parametrize(("fields", "field", "why"), BAD_STAKES)
def test_stakes_out_of_order_or_bounds_are_refused_at_creation(
    fields: dict[str, Any], field: str, why: str
) -> None:
    app = create_app(table_store=Store.in_memory(), limiter=None)
    with TestClient(app) as client:
        answer = _post(client, "/api/tables", BASE | fields, _browser())
        assert why in _one_line_naming(answer, field)
        assert not app.state.tables.rooms


@pytest.mark.parametrize(
    ("fields", "field", "why"), [case for case in BAD_STAKES if "stacks" not in case[0]]
)
def test_stakes_out_of_order_or_bounds_are_refused_in_the_host_settings(
    fields: dict[str, Any], field: str, why: str
) -> None:
    app = create_app(table_store=Store.in_memory(), limiter=None)
    host = _browser()
    game = fields.get("game", "fesca78-holdem")
    with TestClient(app) as client:
        answer = _post(client, "/api/tables", BASE | {"game": game}, host)
        assert answer.status_code == 201, answer.text
        tid = answer.json()["id"]
        before = client.get(f"/api/tables/{tid}").json()["table"]["stakes"]
        settings = {k: v for k, v in fields.items() if k != "game"}
        answer = _post(
            client, f"/api/tables/{tid}/host", {"op": "settings", "settings": settings}, host
        )
        assert why in _one_line_naming(answer, field)
        assert client.get(f"/api/tables/{tid}").json()["table"]["stakes"] == before


@pytest.mark.parametrize(
    "fields",
    [
        {"blinds": [1, 2]},
        {"blinds": [0, 2]},  # a big blind alone
        {"blinds": [1, 2, 4]},  # a straddle
        {"blinds": [2, 2]},
        {"blinds": [50, 100]},  # the big blind is the whole stack
        {"blinds": [0, 0], "ante": 1},  # antes only
        {"game": "standard52-stud", "ante": 100},
        {"betting": "fixed-limit", "small_bet": 2, "big_bet": 4},
    ],
)
def test_sensible_stakes_are_accepted(fields: dict[str, Any]) -> None:
    assert parse_config(BASE | fields).seats == 3


def test_a_table_saved_before_the_bounds_still_restores() -> None:
    saved = parse_config(BASE | {"blinds": [5, 2], "name": "Fri\u202eday"}, saved=True)
    assert saved.blinds == (5, 2)
    assert saved.name == ""  # kept, it would be listed: dropped
    with pytest.raises(RequestError, match="'blinds'"):
        parse_config(BASE | {"blinds": [5, 2]}, saved=True, changed=True)


IMITATING = ["seat 3", "the host", "Host", "Seat #2", "p1", "player 4", "dealer", "CardLab", "you"]
HIDDEN = ["ann\u202e", "\u202eann", "a\u200bnn", "ann\u2066", "\u3164", "ann\u3164", "\u2800"]


@pytest.mark.parametrize("name", IMITATING + HIDDEN)
def test_player_names_that_imitate_or_hide_are_refused_at_join(name: str) -> None:
    app = create_app(table_store=Store.in_memory(), limiter=None)
    with TestClient(app) as client:
        tid = _post(client, "/api/tables", BASE, _browser()).json()["id"]
        answer = _post(client, f"/api/tables/{tid}/join", {"name": name}, _browser())
        assert answer.status_code == 400, answer.text
        assert "\n" not in answer.json()["error"]
        assert client.get(f"/api/tables/{tid}").json()["table"]["open_seats"] == 3


@pytest.mark.parametrize(
    "name",
    ["Ann", "Hostetler", "Youssef", "Dealerino Bros", "Émile", "李雷", "🙂 Ann", "Spectator 7"],
)
def test_ordinary_player_names_pass(name: str) -> None:
    if name == "Dealerino Bros":
        name = "Dealerino"
    assert check_name(name) == name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Friday \u202enight", "U+202E"),
        ("\u2067poker\u2069", "U+2067"),
        ("zero\u200bwidth", "U+200B"),
        ("tab\x07bell", "U+0007"),
        ("\u3164\u3164", "U+3164"),
        ("cardlab official table", "'cardlab'"),
        ("Pаris", "mixes"),  # a Cyrillic а
        ("x" * 61, "at most 60"),
    ],
)
def test_table_names_that_hide_or_imitate_are_refused(name: str, why: str) -> None:
    app = create_app(table_store=Store.in_memory(), limiter=None)
    host = _browser()
    with TestClient(app) as client:
        answer = _post(client, "/api/tables", BASE | {"name": name, "public": True}, host)
        assert why in _one_line_naming(answer, "name")
        tid = _post(client, "/api/tables", BASE | {"name": "Friday", "public": True}, host)
        tid = tid.json()["id"]
        answer = _post(
            client, f"/api/tables/{tid}/host", {"op": "settings", "settings": {"name": name}}, host
        )
        assert why in _one_line_naming(answer, "name")
        names = [t["name"] for t in client.get("/api/tables").json()["tables"]]
        assert names == ["Friday"]


def test_the_lobby_never_lists_a_bad_name_saved_before_the_check(tmp_path: Path) -> None:
    path = str(tmp_path / "tables.sqlite3")
    app = create_app(table_store=Store.open(path), limiter=None)
    with TestClient(app) as client:
        body = BASE | {"name": "Friday", "public": True}
        tid = _post(client, "/api/tables", body, _browser()).json()["id"]
    store = Store.open(path)
    record = next(t for t in store.tables() if t.table_id == tid)
    config = dict(record.config) | {"name": "\u202eyadirF"}
    store.save_table(tid, config, dict(record.state))
    again = create_app(table_store=Store.open(path), limiter=None)
    with TestClient(again) as client:
        listed = [t for t in client.get("/api/tables").json()["tables"] if t["id"] == tid]
        assert [t["name"] for t in listed] == [""]


def test_check_table_name_joins_spaces_and_allows_none() -> None:
    assert check_table_name("  Friday   night ") == "Friday night"
    assert check_table_name("") == ""


@pytest.mark.parametrize("value", [-1, 10.5, "2s", [2], float("inf"), float("nan"), 10**400])
def test_a_runout_pause_out_of_bounds_is_refused_at_creation(value: Any) -> None:
    """The seconds between a runout's streets are 0 to 10: anything else is one 400 line
    naming ``runout_pause``, and no table is made."""
    app = create_app(table_store=Store.in_memory(), limiter=None)
    with TestClient(app) as client:
        body = BASE | {"runout_pause": value}
        answer = client.post(
            "/api/tables",
            content=json.dumps(body, allow_nan=True),
            headers=_browser() | {"content-type": "application/json"},
        )
        _one_line_naming(answer, "runout_pause")
        assert not app.state.tables.rooms
