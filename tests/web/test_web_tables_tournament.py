"""A web table that plays a sit-and-go: levels that rise on schedule (checked against
the blinds and antes of every stored hand), places given as seats go out (checked
against the stacks the hands' PHH records), prizes, the results in the store, a
restart in the middle, and the settings a tournament refuses."""

from __future__ import annotations

import time
import tomllib
import warnings
from collections.abc import Iterator
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

# the levels as the test writes them (small, big, ante), then the last one doubling
LEVELS = [(1, 2, 0), (2, 4, 0), (3, 6, 1), (5, 10, 1)]


def level(k: int) -> tuple[int, int, int]:
    if k < len(LEVELS):
        return LEVELS[k]
    times = 2 ** (k - len(LEVELS) + 1)
    return tuple(v * times for v in LEVELS[-1])  # type: ignore[return-value]


def create(client: TestClient, **fields: Any) -> tuple[str, str]:
    client.cookies.clear()
    body = {
        "game": "fesca78-holdem",
        "seats": 4,
        "stack": 40,
        "clock": 0,
        "pause": 0,
        "bot_delay": 0,
        "format": "tournament",
    } | fields
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    cookie = r.headers["set-cookie"].split(";")[0]
    client.cookies.clear()
    return str(r.json()["id"]), cookie


def view(client: TestClient, tid: str, cookie: str = "") -> Message:
    headers = {"cookie": cookie} if cookie else {}
    r = client.get(f"/api/tables/{tid}", headers=headers)
    assert r.status_code == 200, r.text
    return dict(r.json())


def wait_until_over(client: TestClient, tid: str, limit: float = 90.0) -> Message:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        v = view(client, tid)
        if v["tournament"]["over"]:
            return v
        time.sleep(0.05)
    raise AssertionError(f"the tournament did not end: {view(client, tid)['table']['status']}")


@pytest.fixture
def store() -> Store:
    return Store.in_memory()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    app = create_app(table_store=store, limiter=None, tables={"bot_hands": 100_000})
    with TestClient(app) as c:
        yield c


def bots4() -> dict[str, str]:
    return {"1": "random", "2": "station", "3": "random", "4": "station"}


def stored_hands(store: Store, tid: str) -> list[dict[str, Any]]:
    records = sorted(store.hands(table_id=tid), key=lambda r: r.id or 0)
    return [tomllib.loads(r.phh) for r in records]


def test_a_sit_and_go_of_bots_plays_to_a_winner_on_schedule(
    client: TestClient, store: Store
) -> None:
    levels = ",".join(f"{s}/{b}" + (f"+{a}" if a else "") for s, b, a in LEVELS)
    tid, _host = create(client, bots=bots4(), levels=levels, level_hands=3, tournament_buy_in=10)
    final = wait_until_over(client, tid)
    hands = stored_hands(store, tid)
    assert hands  # one hand may end it: everyone but one all-in and beaten
    # every hand was dealt at its level: hand k (from 0) at level k // 3
    for k, h in enumerate(hands):
        small, big, ante = level(k // 3)
        n = len(h["players"])
        blinds = [b for b in h["blinds_or_straddles"] if b]
        assert sorted(blinds) == [small, big], (k, h["blinds_or_straddles"])
        assert h["antes"] == [ante] * n, (k, h["antes"])
    # the places, worked out from the stored hands: seats out in the same hand are
    # placed by the stacks they started it with
    left = 4
    expected: dict[int, tuple[int, int | None]] = {}
    for k, h in enumerate(hands, start=1):
        gone = [
            (start, seat)
            for seat, start, end in zip(
                h["_seats"], h["starting_stacks"], h["finishing_stacks"], strict=True
            )
            if end == 0
        ]
        left -= len(gone)
        place = left + 1
        for start in sorted({s for s, _ in gone}, reverse=True):
            group = [seat for s, seat in gone if s == start]
            for seat in group:
                expected[seat] = (place, k)
            place += len(group)
    assert left == 1
    winner = next(s for s in range(1, 5) if s not in expected)
    expected[winner] = (1, None)
    t = final["tournament"]
    got = {row["seat"]: (row["place"], row["out_hand"]) for row in t["standings"]}
    assert got == expected
    # 4 entrants: 65% and 35% of 40; seats sharing a place share its prizes
    table = [26, 14, 0, 0]
    prizes = {row["seat"]: row["prize"] for row in t["standings"]}
    for place in {p for p, _ in expected.values()}:
        group = [s for s, (p, _) in expected.items() if p == place]
        pool = sum(table[place - 1 : place - 1 + len(group)])
        assert sorted(prizes[s] for s in group) in (
            [pool // len(group)] * len(group),
            sorted(
                [pool // len(group)] * (len(group) - pool % len(group))
                + [pool // len(group) + 1] * (pool % len(group))
            ),
        ), (place, group, prizes)
    assert t["winner"] == final["seats"][winner - 1]["name"]
    assert final["table"]["status"].startswith("the tournament is over")
    # the same standings are in the store
    results = {r.seat + 1: (r.place, r.out_hand, r.prize) for r in store.results(tid)}
    assert results == {s: (*expected[s], prizes[s]) for s in expected}
    # the chips never left the table: the winner holds them all
    assert [p["stack"] for p in final["seats"] if p["stack"]] == [160]


def test_default_schedule_and_levels_by_minutes_are_shown(client: TestClient) -> None:
    tid, host = create(client, stack=1500, level_minutes=12, bots={"2": "random"}, seats=2)
    t = view(client, tid, host)["tournament"]
    assert t["started"] is False
    assert t["stakes"] == "blinds 10/20" and t["next"] == "blinds 15/30"
    assert t["next_in"] == {"seconds": 720.0}
    assert t["unit"] == "minutes" and t["every"] == 12


def test_nobody_joins_or_rebuys_once_it_runs_and_the_stakes_follow_the_schedule(
    client: TestClient,
) -> None:
    tid, host = create(client, seats=3, bots={"2": "station", "3": "station"})
    r = client.post(f"/api/tables/{tid}/join", json={"name": "ann"}, headers={"cookie": host})
    assert r.status_code == 200, r.text
    end = time.monotonic() + 60
    while view(client, tid, host)["tournament"]["started"] is False:
        assert time.monotonic() < end
        time.sleep(0.05)
    client.cookies.clear()
    r = client.post(f"/api/tables/{tid}/join", json={"name": "bob"})
    assert r.status_code == 400 and "tournament has started" in r.json()["error"]
    r = client.post(f"/api/tables/{tid}/chips", json={"amount": 10}, headers={"cookie": host})
    assert r.status_code == 400 and "no rebuys" in r.json()["error"]
    r = client.post(
        f"/api/tables/{tid}/host",
        json={"op": "settings", "settings": {"blinds": [5, 10]}},
        headers={"cookie": host},
    )
    assert r.status_code == 400 and "schedule" in r.json()["error"]


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"levels": "10/20,5"}, "level 2"),
        ({"levels": "20/10"}, "small blind"),
        ({"level_hands": 3, "level_minutes": 2}, "not both"),
        ({"payouts": [50, 30]}, "summing to 100"),
        ({"payouts": [40, 60]}, "less"),
        ({"payouts": [40, 30, 20, 5, 5]}, "1 to 4 percents"),
        ({"stacks": [10, 20, 10, 10]}, "same stack"),
        ({"format": "league"}, "'cash' or 'tournament'"),
        ({"format": "cash", "levels": "1/2"}, "for a tournament"),
        ({"levels": "2/2", "game": "fesca78-stud"}, "bring-in"),
    ],
)
def test_bad_tournament_settings_are_refused_with_a_reason(
    client: TestClient, fields: dict[str, Any], words: str
) -> None:
    body = {"game": "fesca78-holdem", "seats": 4, "format": "tournament"} | fields
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400, r.text
    assert words in r.json()["error"], r.json()["error"]


def test_a_stud_sit_and_go_raises_the_ante_bring_in_and_bets(
    client: TestClient, store: Store
) -> None:
    tid, _ = create(
        client,
        game="fesca78-stud",
        seats=3,
        stack=60,
        bots={"1": "station", "2": "random", "3": "random"},
        levels="1/2+1,2/4+1,3/6+2",
        level_hands=2,
    )
    wait_until_over(client, tid)
    hands = stored_hands(store, tid)
    expect = [(1, 2, 1), (2, 4, 1), (3, 6, 2)]
    for k, h in enumerate(hands):
        bring_in, small, ante = (
            expect[k // 2] if k // 2 < 3 else tuple(v * 2 ** (k // 2 - 2) for v in expect[-1])
        )
        assert h["bring_in"] == bring_in, k
        assert h["small_bet"] == small and h["big_bet"] == 2 * small, k
        assert set(h["antes"]) == {ante}, k


def test_a_restart_keeps_the_tournament(store: Store) -> None:
    app = create_app(table_store=store, limiter=None, tables={"bot_hands": 6})
    with TestClient(app) as client:
        tid, _ = create(client, bots=bots4(), levels="1/2,2/4,4/8", level_hands=2, stack=200)
        end = time.monotonic() + 60
        while len(store.hands(table_id=tid)) < 6 and not view(client, tid)["tournament"]["over"]:
            assert time.monotonic() < end
            time.sleep(0.05)
        before = view(client, tid)["tournament"]
    app = create_app(table_store=store, limiter=None, tables={"bot_hands": 100_000})
    with TestClient(app) as client:
        after = view(client, tid)["tournament"]
        assert after["started"] and after["entrants"] == before["entrants"] == 4
        assert after["level"] >= before["level"]
        final = wait_until_over(client, tid)
    hands = stored_hands(store, tid)
    for k, h in enumerate(hands):  # levels kept counting across the restart
        small, big, _ = level_of_restart(k // 2)
        assert sorted(b for b in h["blinds_or_straddles"] if b) == [small, big], k
    assert final["tournament"]["winner"]


def level_of_restart(k: int) -> tuple[int, int, int]:
    base = [(1, 2, 0), (2, 4, 0), (4, 8, 0)]
    if k < 3:
        return base[k]
    return tuple(v * 2 ** (k - 2) for v in base[-1])  # type: ignore[return-value]
