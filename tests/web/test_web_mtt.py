"""Multi-table tournaments on the web (cardlab.web.mtt): a lobby of registrations, a
3-table tournament of bots played down to one table and to a winner (its places checked
against the stacks of the stored hands, its chips against the starting stacks), and a
restart in the middle that resumes every table."""

from __future__ import annotations

import time
import tomllib
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from cardlab.store import Store
from cardlab.web import create_app

Message = dict[str, Any]

FAST = {"clock": 0, "pause": 0, "bot_delay": 0}


def app_client(store: Store) -> TestClient:
    return TestClient(create_app(table_store=store, limiter=None, tables={"bot_hands": 100_000}))


@pytest.fixture
def client() -> Iterator[TestClient]:
    with app_client(Store.in_memory()) as c:
        yield c


def create(client: TestClient, **fields: Any) -> tuple[str, str]:
    client.cookies.clear()
    body = (
        {
            "name": "Sunday",
            "game": "fesca78-holdem",
            "table_size": 4,
            "stack": 60,
            "levels": "1/2,2/4,3/6,5/10",
            "level_hands": 4,
            "tournament_buy_in": 10,
        }
        | FAST
        | fields
    )
    r = client.post("/api/mtts", json=body)
    assert r.status_code == 201, r.text
    cookie = r.headers["set-cookie"].split(";")[0]
    client.cookies.clear()
    return str(r.json()["id"]), cookie


def post(client: TestClient, url: str, body: Message, cookie: str = "") -> Any:
    headers = {"cookie": cookie} if cookie else {}
    return client.post(url, json=body, headers=headers)


def lobby(client: TestClient, mid: str, cookie: str = "") -> Message:
    headers = {"cookie": cookie} if cookie else {}
    r = client.get(f"/api/mtts/{mid}", headers=headers)
    assert r.status_code == 200, r.text
    return dict(r.json())


def add_bots(client: TestClient, mid: str, host: str, n: int) -> None:
    for i in range(n):
        bot = ("random", "station")[i % 2]
        r = post(client, f"/api/mtts/{mid}/register", {"bot": bot, "name": f"b{i}"}, host)
        assert r.status_code == 200, r.text


def wait_for(client: TestClient, mid: str, done: Any, limit: float = 120.0) -> Message:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        view = lobby(client, mid)
        if done(view):
            return view
        time.sleep(0.05)
    raise AssertionError(f"the tournament did not get there: {lobby(client, mid)}")


def test_registration_and_its_refusals(client: TestClient) -> None:
    mid, host = create(client)
    r = post(client, f"/api/mtts/{mid}/register", {"name": "Ann"})
    assert r.status_code == 200, r.text
    ann = r.headers["set-cookie"].split(";")[0]
    assert lobby(client, mid, ann)["you"] == {
        "name": "Ann", "table": None, "seat": None, "table_url": None
    }  # fmt: skip
    client.cookies.clear()
    assert post(client, f"/api/mtts/{mid}/register", {"name": "ann"}).status_code == 400
    assert post(client, f"/api/mtts/{mid}/register", {"name": "x"}, ann).status_code == 400
    assert post(client, f"/api/mtts/{mid}/register", {"bot": "random"}, ann).status_code == 403
    assert post(client, f"/api/mtts/{mid}/start", {}, ann).status_code == 403
    assert post(client, f"/api/mtts/{mid}/start", {}, host).status_code == 400  # 1 entrant
    assert post(client, f"/api/mtts/{mid}/unregister", {}, ann).status_code == 200
    assert lobby(client, mid)["registered"] == []
    assert client.get("/api/mtts/nope").status_code == 404
    for bad in ({"table_size": 2}, {"stack": 0}, {"game": "nope"}, {"colour": 1}):
        r = client.post("/api/mtts", json={"game": "fesca78-holdem", "stack": 60} | bad)
        assert r.status_code == 400 and "error" in r.json(), (bad, r.text)
    assert client.get("/tournaments").status_code == 200
    assert client.get(f"/tournaments/{mid}").status_code == 200


def stored(store: Store, table_id: str) -> list[dict[str, Any]]:
    records = sorted(store.hands(table_id=table_id), key=lambda r: r.id or 0)
    return [tomllib.loads(r.phh) | {"_id": r.id} for r in records]


def test_three_tables_of_bots_play_down_to_one_table_and_a_winner() -> None:
    store = Store.in_memory()
    with app_client(store) as client:
        mid, host = create(client)
        add_bots(client, mid, host, 10)
        # a person registers too, and is moved and placed like the bots (the clock
        # plays for them: nobody answers)
        r = post(client, f"/api/mtts/{mid}/register", {"name": "Ann"})
        ann = r.headers["set-cookie"].split(";")[0]
        started = post(client, f"/api/mtts/{mid}/start", {}, host).json()
        assert post(client, f"/api/mtts/{mid}/register", {"name": "late"}).status_code == 400
        # 11 entrants at tables of 4: three tables of 4, 4 and 3
        assert sorted(t["players"] for t in started["tables"]) == [3, 4, 4]
        ids = [t["url"].rsplit("/", 1)[1] for t in started["tables"]]
        you = lobby(client, mid, ann)["you"]
        assert you["table_url"] in {t["url"] for t in started["tables"]}
        her_table = you["table_url"].rsplit("/", 1)[1]
        seat = client.get(f"/api/tables/{her_table}", headers={"cookie": ann})
        assert seat.json()["you"]["name"] == "Ann"
        # she leaves her seat: a tournament keeps it, and the clock folds her hands
        assert post(client, f"/api/tables/{her_table}/leave", {}, ann).status_code == 200
        # nobody joins a tournament's table from its page
        r = post(client, f"/api/tables/{ids[0]}/join", {"name": "crasher"})
        assert r.status_code == 400 and "register" in r.json()["error"]
        final = wait_for(client, mid, lambda v: v["over"])
    assert final["winner"] is not None and final["final_table"]
    rows = final["standings"]
    assert sorted(r["place"] for r in rows)[0] == 1
    assert len(rows) == 11
    # 11 entrants: 5 places paid, 40/25/15/12/8 of 110 rounded down (44, 27, 16, 13,
    # 8), the 2 units left over to the winner
    assert final["prizes"] == [46, 27, 16, 13, 8]
    assert sum(r["prize"] for r in rows) == 110
    # the stored hands of every table: each player at one table at a time, the chips
    # of the whole tournament kept, and each player out in the hand their stack ran out
    hands = [h for tid in ids for h in stored(store, tid)]
    hands.sort(key=lambda h: h["_id"])
    chips: dict[str, int] = {}
    out: list[str] = []
    for h in hands:
        for name, start, end in zip(
            h["players"], h["starting_stacks"], h["finishing_stacks"], strict=True
        ):
            assert name not in out, f"{name} played after going out"
            if name in chips:
                assert chips[name] == start, (name, chips[name], start)
            chips[name] = end
            if end == 0:
                out.append(name)
    assert len(chips) == 11
    assert sum(chips.values()) == 11 * 60
    assert [n for n in chips if chips[n] > 0] == [final["winner"]]
    places = {r["name"]: r["place"] for r in rows}
    # the order of going out (by hand) gives the places; players out in one hand share
    # or are ordered by their stacks, so the first out has the worst place
    assert places[out[0]] >= places[out[-1]]
    assert places[final["winner"]] == 1
    # more than one table played, and the tables were broken down to one
    assert sum(1 for tid in ids if stored(store, tid)) == 3
    last_tables = {h["_table"] for h in hands[-3:]}
    assert len(last_tables) == 1


def test_a_restart_resumes_every_table(tmp_path: Path) -> None:
    path = tmp_path / "hands.sqlite3"
    with Store.open(path) as store, app_client(store) as client:
        mid, host = create(client, level_hands=50, levels="1/2")
        add_bots(client, mid, host, 9)
        post(client, f"/api/mtts/{mid}/start", {}, host)
        before = wait_for(
            client, mid, lambda v: any(r["place"] is not None for r in v["standings"])
        )
    assert not before["over"]
    with Store.open(path) as store, app_client(store) as client:
        again = lobby(client, mid)
        assert again["registered"] == before["registered"]
        assert again["started"] and not again["over"]
        # the same tables (some may have been broken meanwhile), each still playing
        assert {t["url"] for t in again["tables"]} <= {t["url"] for t in before["tables"]}
        final = wait_for(client, mid, lambda v: v["over"])
        assert sum(r["prize"] for r in final["standings"]) == 90
        assert [r["name"] for r in final["standings"] if r["place"] == 1] == [final["winner"]]


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    ["name", "game", "table_size", "stack", "levels", "level_hands", "level_minutes",
     "tournament_buy_in", "payouts", "clock", "pause", "bot_delay", "bot", "seats"]
)  # fmt: skip


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.dictionaries(FIELDS, JSON, max_size=6), extra=st.dictionaries(FIELDS, JSON, max_size=3)
)
def test_bad_bodies_get_one_clear_error(client: TestClient, body: Message, extra: Message) -> None:
    r = client.post("/api/mtts", json={"game": "fesca78-holdem"} | body)
    assert r.status_code in (201, 400), r.text
    if r.status_code == 400:
        assert set(r.json()) == {"error"} and "\n" not in r.json()["error"]
        return
    mid = r.json()["id"]
    for path in ("register", "unregister", "start"):
        answer = client.post(f"/api/mtts/{mid}/{path}", json=extra)
        assert answer.status_code in (200, 400, 403), answer.text
