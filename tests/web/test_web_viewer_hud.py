"""The HUD from a viewer's own hand histories: an uploaded file's figures equal
``cardlab history stats`` on the same file, kept per browser and private to it, every
bad upload one 400 naming what is wrong (fuzzed), refused from another site, and
rate-limited."""

from __future__ import annotations

import json
import secrets
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from cardlab.cli import cli
from cardlab.store import Store
from cardlab.web import create_app
from cardlab.web.viewer_hud import MAX_UPLOAD

OWN = "http://testserver"
DATA = Path(__file__).parents[1] / "data"
FILES = [
    DATA / "phh" / "abs-nlh-handhq-1-first10.phhs",
    DATA / "sites" / "stars-cash.txt",
    DATA / "sites" / "gg-cash.txt",
    DATA / "sites" / "pokernow-log.csv",
]


def browser() -> dict[str, str]:
    return {"cookie": f"cardlab_id={secrets.token_urlsafe(32)}"}


def upload(client: TestClient, body: Any, who: dict[str, str], origin: str = OWN) -> Any:
    client.cookies.clear()
    return client.post("/api/hud/mine", json=body, headers=who | {"origin": origin})


def mine(client: TestClient, who: dict[str, str]) -> dict[str, Any]:
    client.cookies.clear()
    r = client.get("/api/hud/mine", headers=who)
    assert r.status_code == 200, r.text
    return dict(r.json())


@pytest.fixture(scope="module")
def store() -> Store:
    return Store.in_memory()


@pytest.fixture(scope="module")
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(table_store=store, limiter=None)) as c:
        yield c


def cli_stats(path: Path, tmp_path: Path) -> dict[str, Any]:
    """``cardlab history import`` then ``cardlab history stats --format json``."""
    db = str(tmp_path / f"{path.stem}.sqlite3")
    runner = CliRunner()
    imported = runner.invoke(cli, ["history", "--db", db, "import", str(path), "--jobs", "1"])
    assert imported.exit_code in (0, 1), imported.output  # 1: some hands skipped
    out = runner.invoke(cli, ["history", "--db", db, "stats", "--format", "json"])
    assert out.exit_code == 0, out.output
    return dict(json.loads(out.stdout))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_figures_equal_history_stats_on_the_same_file(
    client: TestClient, path: Path, tmp_path: Path
) -> None:
    who = browser()
    r = upload(client, {"text": path.read_text("utf-8"), "name": path.name}, who)
    assert r.status_code == 200, r.text
    got = mine(client, who)
    games = cli_stats(path, tmp_path)
    games.pop("skipped", None)
    assert len(games) == 1  # one game in each file: the HUD counts every hand
    (report,) = games.values()
    assert got["hands"] == report["hands"] == r.json()["added"] > 0
    players = got["players"]
    assert sorted(p["name"] for p in players.values()) == sorted(
        p["name"] for p in report["players"]
    )
    for row in report["players"]:
        figures = next(p for p in players.values() if p["name"] == row["name"])
        assert figures["hands"] == row["hands"]
        for rate in ("vpip", "pfr", "three_bet", "went_to_showdown"):
            assert (figures[rate]["count"], figures[rate]["chances"]) == (
                row[rate]["count"],
                row[rate]["chances"],
            ), (row["name"], rate)
        if row["aggression_factor"] is None:
            assert figures["aggression"] is None
        else:
            assert figures["aggression"] == round(row["aggression_factor"], 2)


def test_the_hands_are_kept_per_browser_once_and_private(client: TestClient, store: Store) -> None:
    ann, bob = browser(), browser()
    text = FILES[0].read_text("utf-8")
    first = upload(client, {"text": text, "name": FILES[0].name}, ann).json()
    again = upload(client, {"text": text}, ann).json()
    assert (again["added"], again["already"]) == (0, first["added"])  # kept once
    assert mine(client, ann)["hands"] == first["added"]
    assert mine(client, bob) == {"hands": 0, "players": {}}  # another browser sees none
    client.cookies.clear()
    assert client.get("/api/hud/mine").json() == {"hands": 0, "players": {}}
    # the store holds the browser's hash, never its secret
    secret = ann["cookie"].split("=", 1)[1]
    rows = store._open_connection().execute("SELECT DISTINCT writer FROM viewer_hands").fetchall()
    assert rows and all(secret not in w for (w,) in rows)
    # forgetting them: for this browser only
    upload(client, {"text": text}, bob)
    client.cookies.clear()
    r = client.post("/api/hud/mine/forget", headers=ann | {"origin": OWN})
    assert r.json() == {"forgotten": first["added"]}
    assert mine(client, ann)["hands"] == 0 and mine(client, bob)["hands"] == first["added"]


def test_some_bad_hands_are_listed_and_the_good_kept(client: TestClient) -> None:
    good = FILES[0].read_text("utf-8")
    bad = good.replace("'p3 f', 'p1 cbr 3.00'", "'p3 f', 'p1 cbr 99999'", 1)  # past the stack
    assert bad != good
    r = upload(client, {"text": bad, "name": "mine.phhs"}, browser())
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["skipped_count"] >= 1 and body["added"] >= 1
    assert "mine.phhs" in body["skipped"][0] or "hand" in body["skipped"][0]


@pytest.mark.parametrize(
    ("body", "error"),
    [
        ({}, "field 'text' must be the hand-history file's text"),
        ({"text": 5}, "field 'text' must be the hand-history file's text: 5"),
        ({"text": "   "}, "the upload is empty"),
        ({"text": "x", "name": 3}, "field 'name' must be the file's name"),
        ({"text": "x", "extra": 1}, "an upload has 'text' and 'name', not 'extra'"),
        ([1, 2], "the request body must be a JSON object"),
        ({"text": "hello there\n", "name": "a.txt"}, "a.txt"),
        ({"text": "variant = 'NT'\n", "name": "h.phh"}, "h.phh"),
        ({"text": "x" * (MAX_UPLOAD + 1)}, f"at most {MAX_UPLOAD:,}"),
        ({"text": "a\ud800b"}, "not valid Unicode"),
    ],
)
def test_a_bad_upload_is_one_clear_400(client: TestClient, body: Any, error: str) -> None:
    if isinstance(body, dict) and "\ud800" in str(body.get("text", "")):
        client.cookies.clear()
        raw = b'{"text": "a\\ud800b"}'
        headers = browser() | {"origin": OWN, "content-type": "application/json"}
        r = client.post("/api/hud/mine", content=raw, headers=headers)
    else:
        r = upload(client, body, browser())
    assert r.status_code == 400, r.text
    assert error in r.json()["error"], r.json()
    assert set(r.json()) == {"error"}
    assert "/tmp" not in r.json()["error"]  # the server's file is not named


def test_the_size_limit_is_the_replayers() -> None:
    from cardlab.web.replay import MAX_PHH

    assert MAX_UPLOAD == MAX_PHH


def test_an_upload_needs_the_browser_key_and_this_site(client: TestClient) -> None:
    text = FILES[1].read_text("utf-8")
    client.cookies.clear()
    r = client.post("/api/hud/mine", json={"text": text}, headers={"origin": OWN})
    assert r.status_code == 400 and "per browser" in r.json()["error"]
    r = upload(client, {"text": text}, browser(), origin="https://evil.example")
    assert r.status_code == 403
    client.cookies.clear()
    headers = browser() | {"origin": OWN, "content-type": "text/plain"}
    assert client.post("/api/hud/mine", content=text, headers=headers).status_code == 415


def test_uploads_are_rate_limited_per_browser() -> None:
    with TestClient(create_app(table_store=Store.in_memory())) as client:
        ann, bob = browser(), browser()
        codes = [upload(client, {"text": "x"}, ann).status_code for _ in range(11)]
        assert codes[:10] == [400] * 10 and codes[10] == 429
        assert upload(client, {"text": "x"}, bob).status_code == 400  # its own budget


SITE_TEXT = st.sampled_from([p.read_text("utf-8") for p in FILES[1:]])


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    data=st.one_of(
        st.text(max_size=300),
        SITE_TEXT.flatmap(
            lambda t: st.tuples(
                st.integers(0, len(t)), st.integers(0, 60), st.text(max_size=20)
            ).map(lambda cut: t[: cut[0]] + cut[2] + t[cut[0] + cut[1] :])
        ),
    ),
    name=st.one_of(st.none(), st.sampled_from(["a.phh", "b.phhs", "c.txt", "d.csv", "e.xml"])),
)
def test_fuzzed_uploads_answer_200_or_one_400(
    client: TestClient, data: str, name: str | None
) -> None:
    body: dict[str, Any] = {"text": data} | ({} if name is None else {"name": name})
    r = upload(client, body, browser())
    assert r.status_code in (200, 400), r.text
    if r.status_code == 400:
        assert set(r.json()) == {"error"} and "\n" not in r.json()["error"].strip()
        assert "cardlab-hud-" not in r.json()["error"]  # the server's file is not named
    else:
        assert r.json()["added"] >= 1
