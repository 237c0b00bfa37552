"""A poker night's seats and host: sitting out, rebuys and top-ups, the ledger that
balances against the chips on the table, and the host's pause, settings, removals, bots
and hand-over."""

from __future__ import annotations

import csv
import io
import time
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from cardlab.store import Store
from cardlab.web import create_app

Message = dict[str, Any]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(table_store=Store.in_memory(), limiter=None)) as c:
        yield c


def create(client: TestClient, **fields: Any) -> tuple[str, str]:
    """A table and its host's cookie."""
    client.cookies.clear()
    body = {"game": "fesca78-holdem", "seats": 3, "stack": 100, "clock": 0, "pause": 0.4}
    body |= {"bot_delay": 0} | fields
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    cookie = r.headers["set-cookie"].split(";")[0]
    client.cookies.clear()
    return str(r.json()["id"]), cookie


def join(client: TestClient, tid: str, name: str, cookie: str | None = None) -> str:
    client.cookies.clear()
    headers = {"cookie": cookie} if cookie else {}
    r = client.post(f"/api/tables/{tid}/join", json={"name": name}, headers=headers)
    assert r.status_code == 200, r.text
    got = r.headers.get("set-cookie")
    client.cookies.clear()
    return cookie or str(got).split(";")[0]


def get(client: TestClient, tid: str, cookie: str) -> Message:
    return client.get(f"/api/tables/{tid}", headers={"cookie": cookie}).json()


def post(client: TestClient, tid: str, what: str, cookie: str, body: Any) -> Any:
    return client.post(f"/api/tables/{tid}/{what}", json=body, headers={"cookie": cookie})


def play(
    client: TestClient, tid: str, cookies: list[str], done: Callable[[Message], bool]
) -> Message:
    """The people check or call (and show at a showdown) until ``done(view)``."""
    url = f"/api/tables/{tid}/ws"
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
    ):
        for _ in range(600):
            views = [get(client, tid, c) for c in cookies]
            if done(views[0]):
                return views[0]
            for ws, v in zip((w0, w1), views, strict=True):
                if v["legal"] is not None:
                    action = "s" if v["legal"]["phase"] == "showdown" else "c"
                    ws.send_json({"type": "action", "action": action, "turn": v["turn"]})
            time.sleep(0.01)
    raise AssertionError("never reached")


def between_hands(v: Message) -> bool:
    return v["hand"] is None or v["hand"]["over"]


def test_rebuys_top_ups_and_a_ledger_that_balances(client: TestClient) -> None:
    tid, host = create(client, bots={"3": "station"}, max_buy_in=150)
    ann = join(client, tid, "ann", host)
    bob = join(client, tid, "bob")
    play(client, tid, [ann, bob], lambda v: v["table"]["hand_number"] >= 3)
    # a top-up past the cap is refused with the figure; one within it is a buy-in
    view = play(client, tid, [ann, bob], between_hands)
    r = post(client, tid, "chips", bob, {"amount": 10_000})
    assert r.status_code == 400 and "at most 150" in r.json()["error"]
    for bad in (0, -5, 2.5, "10", True):
        assert post(client, tid, "chips", bob, {"amount": bad}).status_code == 400
    ledger = client.get(f"/api/tables/{tid}/ledger").json()
    stacks = {s["name"]: s["stack"] for s in get(client, tid, ann)["seats"]}
    # 100 each for ann, bob and the bot: nothing else was brought
    assert ledger["chips_brought"] == 300 and ledger["chips_taken"] == 0
    assert ledger["chips_on_table"] == 300 == sum(stacks.values())
    assert ledger["balanced"]
    # ann leaves between hands: her stack is cashed out at the figure the table showed
    left = get(client, tid, ann)
    if not between_hands(left):
        left = play(client, tid, [ann, bob], between_hands)
    ann_stack = next(s["stack"] for s in get(client, tid, ann)["seats"] if s["name"] == "ann")
    assert post(client, tid, "leave", ann, {}).status_code == 200
    ledger = client.get(f"/api/tables/{tid}/ledger").json()
    assert ledger["chips_taken"] == ann_stack
    assert ledger["balanced"]
    rows = list(
        csv.DictReader(io.StringIO(client.get(f"/api/tables/{tid}/ledger?format=csv").text))
    )
    assert {r["player"] for r in rows} == {"ann", "bob", "station bot 3"}
    assert sum(int(r["net"]) for r in rows) == 0
    del view


def test_a_seat_sits_out_and_is_stood_up_after_missed_hands(client: TestClient) -> None:
    tid, host = create(client, seats=3, bots={"3": "station"}, max_missed=2)
    ann = join(client, tid, "ann", host)
    bob = join(client, tid, "bob")
    url = f"/api/tables/{tid}/ws"
    with client.websocket_connect(url, headers={"cookie": ann}) as ws:
        ws.send_json({"type": "sit_out"})
        time.sleep(0.05)
    start = get(client, tid, ann)["table"]["hand_number"]
    bought_before = client.get(f"/api/tables/{tid}/ledger").json()["chips_taken"]
    # the hand in play goes on (ann acts in it); from the next one ann is dealt
    # nothing and posts nothing, and after two missed hands she is stood up
    seen_ann_cards = []

    def watch(v: Message) -> bool:
        if v["hand"] is not None and v["table"]["hand_number"] > start:
            seen_ann_cards.append(v["seats"][0]["cards"])
        return bool(v["seats"][0]["kind"] == "open")

    play(client, tid, [ann, bob], lambda v: watch(get(client, tid, bob)))
    final = get(client, tid, bob)
    assert final["seats"][0]["kind"] == "open"  # stood up after two missed hands
    assert all(cards == [] for cards in seen_ann_cards)
    ledger = client.get(f"/api/tables/{tid}/ledger").json()
    assert ledger["chips_taken"] > bought_before and ledger["balanced"]


def test_the_host_pauses_changes_the_blinds_removes_and_hands_over(client: TestClient) -> None:
    tid, host = create(client, seats=4, bots={"3": "station", "4": "station"})
    ann = join(client, tid, "ann", host)
    bob = join(client, tid, "bob")
    assert get(client, tid, ann)["host"] and not get(client, tid, bob)["host"]
    assert post(client, tid, "host", bob, {"op": "pause"}).status_code == 403
    for bad in (
        {"op": "nope"},
        {"op": "settings", "settings": {"seed": 3}},
        {"op": "settings", "settings": {"blinds": [1, "x"]}},
        {"op": "remove", "seat": 9},
        {"op": "add_bot", "seat": 3, "bot": "x"},
    ):
        assert post(client, tid, "host", ann, bad).status_code == 400, bad
    # new blinds from the next hand
    r = post(client, tid, "host", ann, {"op": "settings", "settings": {"blinds": [5, 10]}})
    assert r.status_code == 200, r.text
    now = get(client, tid, ann)["table"]["hand_number"]
    v = play(
        client, tid, [ann, bob], lambda v: v["table"]["hand_number"] > now and not v["hand"]["over"]
    )
    assert "blinds 5/10" in v["table"]["stakes"]
    posts = [line for line in v["log"] if "posts" in line]
    assert any(line.endswith("posts 5") for line in posts), posts
    assert any(line.endswith("posts 10") for line in posts), posts
    # pause: the hand in play ends, no new one comes until resumed
    assert post(client, tid, "host", ann, {"op": "pause"}).status_code == 200
    v = play(client, tid, [ann, bob], between_hands)
    number = v["table"]["hand_number"]
    time.sleep(0.3)
    v = get(client, tid, ann)
    assert v["table"]["hand_number"] == number and v["table"]["status"] == "paused by the host"
    # remove a bot, seat another, hand the table to bob
    assert post(client, tid, "host", ann, {"op": "remove", "seat": 4}).status_code == 200
    assert get(client, tid, ann)["seats"][3]["kind"] == "open"
    r = post(client, tid, "host", ann, {"op": "add_bot", "seat": 4, "bot": "random"})
    assert r.status_code == 200
    assert get(client, tid, ann)["seats"][3]["name"] == "random bot 4"
    assert post(client, tid, "host", ann, {"op": "transfer", "seat": 2}).status_code == 200
    assert get(client, tid, bob)["host"] and not get(client, tid, ann)["host"]
    assert post(client, tid, "host", bob, {"op": "resume"}).status_code == 200
    play(client, tid, [ann, bob], lambda v: v["table"]["hand_number"] > number)
    assert client.get(f"/api/tables/{tid}/ledger").json()["balanced"]
