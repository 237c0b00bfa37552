"""Player notes over the web: kept per browser in the store, private to the writer,
checked field by field (one 400), refused from another site, rate-limited, fuzzed."""

from __future__ import annotations

import json
import secrets
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
from cardlab.web.notes import COLOURS, MAX_NOTE

OWN = "http://testserver"


def browser() -> dict[str, str]:
    return {"cookie": f"cardlab_id={secrets.token_urlsafe(32)}"}


def save(client: TestClient, body: Any, who: dict[str, str], origin: str = OWN) -> Any:
    client.cookies.clear()
    return client.post("/api/notes", json=body, headers=who | {"origin": origin})


def notes(client: TestClient, who: dict[str, str]) -> list[dict[str, Any]]:
    client.cookies.clear()
    r = client.get("/api/notes", headers=who)
    assert r.status_code == 200, r.text
    return list(r.json()["notes"])


@pytest.fixture(scope="module")
def store() -> Store:
    return Store.in_memory()


@pytest.fixture(scope="module")
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(table_store=store, limiter=None)) as c:
        yield c


def test_notes_are_kept_per_browser_and_private(client: TestClient, store: Store) -> None:
    ann, bob = browser(), browser()
    r = save(client, {"name": "  Carl ", "note": "bluffs\\r\\nrivers".replace("\\r\\n", "\r\n"),
                      "colour": "red"}, ann)  # fmt: skip
    assert r.status_code == 200, r.text
    assert r.json() == {"name": "Carl", "key": "carl", "note": "bluffs\nrivers", "colour": "red",
                        "deleted": False}  # fmt: skip
    assert save(client, {"name": "ＣＡＲＬ", "note": "tight now"}, ann).status_code == 200
    assert save(client, {"name": "dee", "colour": "green"}, bob).status_code == 200
    mine = notes(client, ann)
    assert [(n["name"], n["key"], n["note"], n["colour"]) for n in mine] == [
        ("ＣＡＲＬ", "carl", "tight now", "")  # one player: "Carl" and "ＣＡＲＬ" share a key
    ]
    assert [(n["name"], n["colour"]) for n in notes(client, bob)] == [("dee", "green")]
    client.cookies.clear()
    anonymous = client.get("/api/notes").json()
    assert anonymous == {"notes": [], "colours": list(COLOURS)}
    # the store holds the browser's hash, never its secret
    secret = ann["cookie"].split("=", 1)[1]
    rows = store._open_connection().execute("SELECT writer FROM player_notes").fetchall()
    assert all(secret not in w for (w,) in rows)
    # an empty note without a colour deletes it
    r = save(client, {"name": "carl", "note": "", "colour": ""}, ann)
    assert r.json()["deleted"] is True and notes(client, ann) == []
    assert [n["name"] for n in notes(client, bob)] == ["dee"]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({}, "field 'name' must be the player's name: None"),
        ({"name": "   "}, "field 'name' must be the player's name"),
        ({"name": 5}, "field 'name' must be the player's name: 5"),
        ({"name": "x" * 25}, "field 'name' is not a player's name"),
        ({"name": "a\u202eb"}, "field 'name' is not a player's name"),
        ({"name": "ann", "note": 3}, "field 'note' must be text: 3"),
        ({"name": "ann", "note": "x" * (MAX_NOTE + 1)}, f"at most {MAX_NOTE} characters"),
        ({"name": "ann", "note": "a\x00b"}, "control or format characters (U+0000)"),
        ({"name": "ann", "colour": "pink"}, "field 'colour' is one of red, orange"),
        ({"name": "ann", "colour": ["red"]}, "field 'colour' is one of"),
        ({"name": "ann", "extra": 1}, "a note has 'name', 'note' and 'colour', not 'extra'"),
        ([1, 2], "the request body must be a JSON object"),
    ],
)
def test_bad_notes_are_one_clear_400(client: TestClient, body: Any, error: str) -> None:
    r = save(client, body, browser())
    assert r.status_code == 400, r.text
    assert error in r.json()["error"]
    assert set(r.json()) == {"error"}


def test_a_note_needs_the_browser_key_and_this_site(client: TestClient) -> None:
    client.cookies.clear()
    r = client.post("/api/notes", json={"name": "ann", "note": "x"}, headers={"origin": OWN})
    assert r.status_code == 400 and "per browser" in r.json()["error"]
    r = save(client, {"name": "ann", "note": "x"}, browser(), origin="https://evil.example")
    assert r.status_code == 403
    client.cookies.clear()
    r = client.post(
        "/api/notes",
        content=b"name=ann",
        headers=browser() | {"origin": OWN, "content-type": "application/x-www-form-urlencoded"},
    )
    assert r.status_code == 415


def test_notes_are_rate_limited_per_browser() -> None:
    with TestClient(create_app(table_store=Store.in_memory())) as client:
        ann, bob = browser(), browser()
        codes = [save(client, {"name": f"p{k}", "note": "x"}, ann).status_code for k in range(61)]
        assert codes[:60] == [200] * 60 and codes[60] == 429
        refused = save(client, {"name": "q", "note": "x"}, ann)
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert save(client, {"name": "q", "note": "x"}, bob).status_code == 200  # its own budget


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                               max_size=3),
    max_leaves=6,
)  # fmt: skip
BODIES = st.fixed_dictionaries(
    {},
    optional={
        "name": st.one_of(st.text(max_size=30), JSON),
        "note": st.one_of(st.text(max_size=600), JSON),
        "colour": st.one_of(st.sampled_from(COLOURS), st.text(max_size=8), JSON),
    },
) | st.dictionaries(st.text(max_size=8), JSON, max_size=3)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(body=BODIES)
def test_any_note_is_kept_as_checked_or_one_400(client: TestClient, body: dict[str, Any]) -> None:
    who = browser()
    r = save(client, body, who)
    assert r.status_code in (200, 400), r.text
    if r.status_code == 400:
        assert set(r.json()) == {"error"} and "\n" not in r.json()["error"]
        assert notes(client, who) == []
        return
    got = r.json()
    kept = notes(client, who)
    if got["deleted"]:
        assert kept == []
    else:
        assert [(n["name"], n["note"], n["colour"]) for n in kept] == [
            (got["name"], got["note"], got["colour"])
        ]
        assert len(got["note"]) <= MAX_NOTE and got["colour"] in COLOURS
    json.dumps(got)
