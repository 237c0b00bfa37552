"""The venue's room defects of issue 31, each on the room's parts: a closed table stays
for those who sat at it, the hand number never steps back at a hand's end, a restart
keeps the turn and the clock's seconds, client seeds are waited for after a restart, a
sit-and-go's ledger settles by prizes, a closed table's state names nobody's seat and
promises no new deal, the old host's socket loses the host's panel at once."""

from __future__ import annotations

import asyncio
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from cardlab.store import Store
from cardlab.web import create_app
from cardlab.web.table_config import parse_config
from cardlab.web.table_fair import TableSeeds
from cardlab.web.table_room import Room

Message = dict[str, Any]


@pytest.fixture
def store() -> Store:
    return Store.in_memory()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    app = create_app(table_store=store, limiter=None, tables={"bot_hands": 100_000})
    with TestClient(app) as c:
        yield c


def create(client: TestClient, **fields: Any) -> tuple[str, str]:
    """A new table and its host's cookie."""
    client.cookies.clear()
    body = {"game": "fesca78-holdem", "seats": 3, "stack": 100, "clock": 0, "pause": 0}
    r = client.post("/api/tables", json=body | {"bot_delay": 0} | fields)
    assert r.status_code == 201, r.text
    cookie = r.headers["set-cookie"].split(";")[0]
    client.cookies.clear()
    return str(r.json()["id"]), cookie


def join(client: TestClient, tid: str, name: str) -> str:
    client.cookies.clear()
    r = client.post(f"/api/tables/{tid}/join", json={"name": name})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    return r.headers["set-cookie"].split(";")[0]


def get(client: TestClient, url: str, cookie: str = "") -> Any:
    client.cookies.clear()
    return client.get(url, headers={"cookie": cookie} if cookie else {})


def view(client: TestClient, tid: str, cookie: str = "") -> Message:
    r = get(client, f"/api/tables/{tid}", cookie)
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_a_closed_table_stays_for_those_who_sat_at_it_and_its_host(client: TestClient) -> None:
    tid, host = create(client, bots={"2": "station", "3": "random"})
    ann = join(client, tid, "ann")
    r = client.post(f"/api/tables/{tid}/leave", headers={"cookie": ann})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    end = time.monotonic() + 30
    while view(client, tid)["table"]["hand_number"] < 3 and time.monotonic() < end:
        time.sleep(0.02)  # the bots play on
    r = client.post(f"/api/tables/{tid}/close", json={"now": True}, headers={"cookie": host})
    assert r.status_code == 200 and r.json()["closed"], r.text
    client.cookies.clear()
    stranger = "cardlab_id=" + "x" * 43
    for who in (ann, host):
        ledger = get(client, f"/api/tables/{tid}/ledger", who)
        assert ledger.status_code == 200, ledger.text
        rows = {(e["player"], e["kind"], e["amount"]) for e in ledger.json()["entries"]}
        assert ("ann", "buy-in", 100) in rows and any(r[:2] == ("ann", "cash-out") for r in rows)
        assert ledger.json()["balanced"]
        csv = get(client, f"/api/tables/{tid}/ledger?format=csv", who)
        assert csv.status_code == 200 and csv.text.startswith("player,bought"), csv.text
        hands = get(client, f"/api/tables/{tid}/hands.phhs", who)
        assert hands.status_code == 200 and "_server_seed" in hands.text  # revealed at close
        page = get(client, f"/tables/{tid}", who)
        assert page.status_code == 200
        replay = get(client, f"/api/tables/{tid}/hands/1/replay", who)
        assert replay.status_code == 200, replay.text
        state = view(client, tid, who)
        assert state["table"]["closed"] and state["you"] is None
        assert state["fair"]["commitment"] is None and state["fair"]["next_deal"] is None
    for url in ("ledger", "ledger?format=csv", "hands.phhs", "hands/1/replay", ""):
        r = get(client, f"/api/tables/{tid}/{url}".rstrip("/"), stranger)
        assert r.status_code == 404, (url, r.status_code)
    assert get(client, f"/tables/{tid}", stranger).status_code == 404


def test_a_closed_table_is_kept_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "hands.sqlite3"
    with TestClient(create_app(table_store=Store.open(path), limiter=None)) as c:
        tid, host = create(c, bots={"2": "station", "3": "random"})
        ann = join(c, tid, "ann")
        r = c.post(f"/api/tables/{tid}/close", json={"now": True}, headers={"cookie": host})
        assert r.status_code == 200
    with TestClient(create_app(table_store=Store.open(path), limiter=None)) as c:
        ledger = get(c, f"/api/tables/{tid}/ledger", ann)
        assert ledger.status_code == 200, ledger.text
        assert get(c, f"/api/tables/{tid}/ledger").status_code == 404  # nobody's browser


def test_the_hand_number_never_steps_back_at_the_end_of_a_hand(client: TestClient) -> None:
    bots = {"1": "station", "2": "station"}  # they call down: every hand has a showdown
    tid, _ = create(client, seats=2, bots=bots, pause=0.05, stack=10_000)
    seen: list[tuple[int, bool, int | None]] = []
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        while (not seen or seen[-1][0] < 5) and len(seen) < 2000:
            m = ws.receive_json()
            if m.get("type") != "state":
                continue
            over = m["hand"] is None or m["hand"]["over"]
            last = None if m["last"] is None else m["last"]["hand"]
            seen.append((m["table"]["hand_number"], over, last))
    numbers = [n for n, _, _ in seen]
    assert numbers == sorted(numbers), numbers  # never back by one
    for number, over, last in seen:
        if over and number > 0:  # a finished hand's state carries its own result
            assert last == number, seen


def _room_in(path: Path, **fields: Any) -> tuple[Room, Store]:
    store = Store.open(path)
    config = {"game": "fesca78-holdem", "seats": 2, "stack": 100, "pause": 0}
    room = Room("t1", parse_config(config | {"bot_delay": 0} | fields), store)
    room.save()
    return room, store


def test_a_restart_keeps_the_turn_and_the_clock_seconds(tmp_path: Path) -> None:
    path = tmp_path / "hands.sqlite3"

    async def play() -> tuple[int, float]:
        room, store = _room_in(path, clock=30, bots={"2": "station"})
        room.seating.join("ann", 0, "a" * 64)
        room.wake()
        while room.clock.deadline is None:  # ann's decision, her clock running
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.3)
        turn = room.runner.turn
        left = room.clock.remaining()
        assert left is not None
        room.close()  # the server stops: the clock's seconds are saved
        store.close()
        return turn, left

    turn, left = asyncio.run(play())
    store = Store.open(path)
    live = store.live_hand("t1")
    assert live is not None and live.clock_remaining is not None
    assert abs(live.clock_remaining - left) < 0.2 and live.clock_remaining < 29.8
    saved = store.tables()[0]
    restored = Room.restore("t1", saved.config, saved.state, store)
    assert restored.runner.turn == turn > 0  # an old screen's echo is refused, this one not
    assert restored.clock.resume_from == live.clock_remaining


def test_client_seed_senders_are_waited_for_after_a_restart() -> None:
    store = Store.in_memory()
    fair = TableSeeds("t", store)
    fair.offer(2, 0, "ab" * 8)
    state = fair.state()
    assert state["seeders"] == [2]
    again = TableSeeds("t", store, current=state["commitment"], seeders=state["seeders"])
    # the page of seat 2 is connected and has not sent this deal's seed: the deal waits
    assert again.missing({1, 2}, {2}, now=0.0, wait=1.5)
    assert not again.missing({1, 2}, set(), now=0.0, wait=1.5)  # not connected: no wait
    again.offer(2, 0, "cd" * 8)
    assert not again.missing({1, 2}, {2}, now=0.0, wait=1.5)


def test_a_sit_and_go_ledger_settles_by_prizes(client: TestClient) -> None:
    bots = {"1": "random", "2": "station", "3": "random"}
    tid, host = create(client, bots=bots, stack=20, tournament_buy_in=10, format="tournament")
    end = time.monotonic() + 90
    while not view(client, tid)["tournament"]["over"]:
        assert time.monotonic() < end, "the tournament did not end"
        time.sleep(0.05)
    state = view(client, tid)
    t = state["tournament"]
    assert t["players_left"] == 1 and t["entrants"] == 3  # the winner, not "0 of 3"
    assert state["table"]["tournament"] is True  # the page offers no rebuy nor stakes
    ledger = get(client, f"/api/tables/{tid}/ledger", host).json()["tournament"]
    assert ledger["buy_in"] == 10 and sum(ledger["prizes"]) == 30
    players = ledger["players"]
    assert len(players) == 3 and all(p["place"] is not None for p in players)
    winner = next(p for p in players if p["place"] == 1)
    assert winner["player"] == t["winner"] and winner["prize"] >= max(ledger["prizes"])
    # two out in one hand with equal stacks share their places' prizes
    assert sum(p["prize"] for p in players) == sum(ledger["prizes"])
    assert all(p["net"] == p["prize"] - 10 for p in players)
    assert sum(p["net"] for p in players) == 0
    csv = get(client, f"/api/tables/{tid}/ledger?format=csv", host).text
    assert csv.splitlines()[0] == "player,place,buy_in,prize,net"


def _host_flags(ws: Any, want: bool) -> Message:
    for _ in range(200):
        m = ws.receive_json()
        if m.get("type") == "state" and m["host"] is want:
            return dict(m)
    raise AssertionError(f"no state with host {want}")


def test_the_old_hosts_socket_loses_the_host_panel_at_once(client: TestClient) -> None:
    tid, host = create(client, bots={"3": "station"})
    bob = join(client, tid, "bob")
    client.cookies.clear()
    with (
        client.websocket_connect(f"/api/tables/{tid}/ws", headers={"cookie": host}) as old,
        client.websocket_connect(f"/api/tables/{tid}/ws", headers={"cookie": bob}) as new,
    ):
        assert _host_flags(old, True)["host"]
        r = client.post(
            f"/api/tables/{tid}/host", json={"op": "transfer", "seat": 1}, headers={"cookie": host}
        )
        assert r.status_code == 200, r.text
        assert _host_flags(old, False)["seat_requests"] == []
        assert _host_flags(new, True)["host"]


def test_the_seed_note_is_only_for_a_hand_the_viewer_was_dealt_into(client: TestClient) -> None:
    tid, _ = create(client, seats=2, bots={"1": "station"}, clock=30)
    ann = join(client, tid, "ann")
    end = time.monotonic() + 30
    while view(client, tid)["hand"] is None:
        assert time.monotonic() < end, "no hand was dealt"
        time.sleep(0.02)
    assert view(client, tid, ann)["hand"]["dealt_in"] is True
    assert view(client, tid)["hand"]["dealt_in"] is False  # a spectator's
