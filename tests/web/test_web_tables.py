"""The live poker tables: seats and tokens, turns, the clock, bots, restarts."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from cardlab.store import Store
from cardlab.table import Legal, Phase, TableGame
from cardlab.web import create_app
from cardlab.web.table_payload import default_action, presets

Message = dict[str, Any]


@pytest.fixture
def store() -> Store:
    return Store.in_memory()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(table_store=store)) as c:
        yield c


def new_table(client: TestClient, **fields: Any) -> str:
    body = {"game": "fesca78-holdem", "seats": 2, "stack": 100, "clock": 0, "pause": 0}
    body |= {"bot_delay": 0, "public": True} | fields
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def join(client: TestClient, table_id: str, name: str) -> tuple[int, str]:
    """A new player (no cookie jar shared): the seat and the cookie header."""
    client.cookies.clear()
    r = client.post(f"/api/tables/{table_id}/join", json={"name": name})
    assert r.status_code == 200, r.text
    cookie = r.headers["set-cookie"].split(";")[0]
    client.cookies.clear()
    assert "httponly" in r.headers["set-cookie"].lower()
    return int(r.json()["seat"]), cookie


def until(ws: Any, ok: Callable[[Message], bool], limit: int = 400) -> Message:
    for _ in range(limit):
        m: Message = ws.receive_json()
        if m.get("type") == "error":
            raise AssertionError(f"unexpected error: {m['message']}")
        if m.get("type") == "state" and ok(m):
            return m
    raise AssertionError("the expected state never came")


def error_of(ws: Any, limit: int = 100) -> str:
    """The next error message (states broadcast meanwhile are skipped)."""
    for _ in range(limit):
        m: Message = ws.receive_json()
        if m.get("type") == "error":
            return str(m["message"])
    raise AssertionError("no error came")


def test_seats_tokens_and_full_table(client: TestClient) -> None:
    tid = new_table(client, seats=3, bots={"3": "station"})
    s1, c1 = join(client, tid, "ann")
    s2, c2 = join(client, tid, "  bob  ")
    assert (s1, s2) == (1, 2)
    assert c1 != c2
    r = client.post(f"/api/tables/{tid}/join", json={"name": "cy"})
    assert r.status_code == 400
    assert "full" in r.json()["error"]
    # the cookie is the key: joining again with it (a reload) gives the same seat back
    r = client.post(f"/api/tables/{tid}/join", json={"name": "x"}, headers={"cookie": c2})
    assert r.json() == {"seat": 2, "name": "bob"}
    # a forged or foreign token is no seat
    forged = c1.split("=")[0] + "=" + "A" * 43
    assert client.get(f"/api/tables/{tid}", headers={"cookie": forged}).json()["you"] is None
    assert client.get(f"/api/tables/{tid}", headers={"cookie": c1}).json()["you"]["seat"] == 1
    listed = client.get("/api/tables").json()["tables"]
    assert [t["open_seats"] for t in listed if t["id"] == tid] == [0]


def test_out_of_turn_and_spectators_change_nothing(client: TestClient) -> None:
    tid = new_table(client)
    _, c1 = join(client, tid, "ann")
    _, c2 = join(client, tid, "bob")
    url = f"/api/tables/{tid}/ws"
    with (
        client.websocket_connect(url, headers={"cookie": c1}) as w1,
        client.websocket_connect(url, headers={"cookie": c2}) as w2,
        client.websocket_connect(url) as spectator,
    ):
        m1 = until(w1, lambda m: m["hand"] is not None)
        m2 = until(w2, lambda m: m["hand"] is not None)
        actor, waiter, m_actor = (w1, w2, m1) if m1["legal"] else (w2, w1, m2)
        assert m_actor["legal"] is not None
        waiter.send_json({"type": "action", "action": "f"})
        assert "not your turn" in error_of(waiter)
        spectator.send_json({"type": "action", "action": "c"})
        assert "no seat" in error_of(spectator)
        # nothing changed: the actor still has the same turn
        now = client.get(f"/api/tables/{tid}", headers={"cookie": c1}).json()
        assert now["turn"] == m_actor["turn"]
        # a stale turn number is refused too
        actor.send_json({"type": "action", "action": "c", "turn": m_actor["turn"] - 1})
        assert "moved on" in error_of(actor)
        # an illegal amount is an error and changes nothing
        actor.send_json({"type": "action", "action": "r 1"})
        message = error_of(actor)
        assert "raise" in message
        # in the player's words: "you must ...", not the engine's "p2 must ..."
        assert message.startswith("you ") and "p1" not in message and "p2" not in message
        actor.send_json({"type": "action", "action": "f", "turn": m_actor["turn"]})
        done = until(actor, lambda m: m["last"] is not None)
        assert done["last"]["pots"][0]["decided_by"] == "uncontested"


def test_views_hide_other_hole_cards(client: TestClient) -> None:
    tid = new_table(client, seats=3, bots={"3": "station"})
    _, c1 = join(client, tid, "ann")
    _, c2 = join(client, tid, "bob")
    url = f"/api/tables/{tid}/ws"
    with (
        client.websocket_connect(url, headers={"cookie": c1}) as w1,
        client.websocket_connect(url) as spectator,
    ):
        m = until(w1, lambda m: m["hand"] is not None)
        mine = m["seats"][0]["cards"]
        assert len(mine) == 2 and "??" not in mine
        assert m["seats"][1]["cards"] == ["??", "??"]
        s = until(spectator, lambda m: m["hand"] is not None)
        assert all(c == "??" for seat in s["seats"] for c in seat["cards"])
        assert s["legal"] is None and s["you"] is None
        assert "seed" not in s["table"]["config"]
        other = client.get(f"/api/tables/{tid}", headers={"cookie": c2}).json()
        assert other["seats"][1]["cards"] != ["??", "??"]
        assert not set(mine) & set(other["seats"][1]["cards"])


def test_clock_plays_the_default_action(client: TestClient) -> None:
    # heads-up pre-flop the button (small blind) faces the big blind: the clock folds
    tid = new_table(client, clock=0.05, pause=2)
    _, c1 = join(client, tid, "ann")
    join(client, tid, "bob")
    with client.websocket_connect(f"/api/tables/{tid}/ws", headers={"cookie": c1}) as ws:
        done = until(ws, lambda m: m["last"] is not None)
    assert done["last"]["hand"] == 1
    assert sorted(r["won"] for r in done["last"]["results"]) == [-1, 1]
    first = client.get(f"/api/tables/{tid}/hands.phhs").text.split("[2]")[0]
    assert "actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 f']" in first


def test_default_action_rules() -> None:
    check = Legal(0, Phase.BET, fold=False, call=0, raise_min=2, raise_max=10)
    facing = Legal(0, Phase.BET, fold=True, call=4, raise_min=8, raise_max=10)
    bring = Legal(0, Phase.BET, bring_in=1, raise_min=2, raise_max=2, complete=True)
    assert str(default_action(check)) == "c"
    assert str(default_action(facing)) == "f"
    assert str(default_action(bring)) == "b"
    assert str(default_action(Legal(0, Phase.DRAW, discard=5))) == "d"


def test_a_limit_below_the_stack_is_max_not_all_in() -> None:
    # pot-limit: the pot raise is the top; a 487 stack is not "all-in 26"
    legal = Legal(0, Phase.BET, fold=True, call=2, raise_min=4, raise_max=26)
    got = presets(legal, pot=8, top_bet=2, to_call=2, all_in=487)
    assert [p["label"] for p in got][-1] in ("pot", "max")
    assert all(p["label"] != "all-in" for p in got)
    fixed = Legal(0, Phase.BET, fold=True, call=2, raise_min=4, raise_max=4)
    assert presets(fixed, pot=3, top_bet=2, to_call=1, all_in=100) == [
        {"label": "max", "amount": 4}
    ]
    short = Legal(0, Phase.BET, fold=True, call=2, raise_min=4, raise_max=7)
    assert presets(short, pot=100, top_bet=5, to_call=2, all_in=7)[-1]["label"] == "all-in"


def test_presets_stay_in_the_legal_range() -> None:
    legal = Legal(0, Phase.BET, fold=True, call=2, raise_min=4, raise_max=50)
    got = {p["label"]: p["amount"] for p in presets(legal, pot=3, top_bet=2, to_call=1)}
    # pot 3 + call 1 = 4 behind the top bet 2: pot raise to 6, half pot to 4 (the minimum)
    assert got == {"min": 4, "pot": 6, "all-in": 50}
    short = Legal(0, Phase.BET, fold=True, call=2, raise_min=7, raise_max=7)
    assert presets(short, pot=100, top_bet=5, to_call=2) == [{"label": "all-in", "amount": 7}]


def test_bots_play_hands_and_every_chip_stays(client: TestClient, store: Store) -> None:
    # fixed-limit with deep stacks: random bots cannot bust the table before hand 4
    # (at no-limit they sometimes did, and the table then waits for nobody)
    tid = new_table(
        client,
        seats=4,
        stack=1000,
        betting="fixed-limit",
        bots={"1": "random", "2": "station", "3": "random", "4": "station"},
    )
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        m = until(ws, lambda m: m["table"]["hand_number"] >= 4 and m["last"] is not None)
    assert m["last"]["hand"] >= 3
    records = store.hands(table_id=tid)
    assert len(records) >= 3
    for r in records:
        assert sum(r.starting_stacks) == sum(r.finishing_stacks)
        assert r.phh.startswith("variant = 'FT'") and "????" not in r.phh
    saved = {t.table_id: t for t in store.tables()}[tid]
    assert sum(saved.state["stacks"]) == 4000


def choose(legal: dict[str, Any]) -> str:
    if legal["phase"] == "draw":
        return "d " + legal["hole"][0]
    if legal["phase"] == "showdown":
        return "s"
    if legal["bring_in"] is not None:
        return "b"
    return "c"


def fold(legal: dict[str, Any]) -> str:
    return "f" if legal["fold"] else "c"


def play_hand(
    client: TestClient,
    tid: str,
    players: list[tuple[Any, str]],
    pick: Callable[[dict[str, Any]], str] = choose,
) -> Message:
    """Play the first hand to its end: each seat (websocket, cookie) acts when its view
    says so; returns the state that shows the finished hand."""
    for _ in range(200):
        for ws, cookie in players:
            m = client.get(f"/api/tables/{tid}", headers={"cookie": cookie}).json()
            if m["last"] is not None:
                return m
            if m["legal"] is not None:
                ws.send_json({"type": "action", "action": pick(m["legal"]), "turn": m["turn"]})
                until(ws, lambda s, t=m["turn"]: s["turn"] > t or s["last"] is not None)
    raise AssertionError("the hand did not end")


def test_draw_and_stud_tables(client: TestClient) -> None:
    for game in ("fesca78-draw", "standard52-stud"):
        tid = new_table(client, game=game, seats=2)
        _, c1 = join(client, tid, "ann")
        _, c2 = join(client, tid, "bob")
        url = f"/api/tables/{tid}/ws"
        with (
            client.websocket_connect(url, headers={"cookie": c1}) as w1,
            client.websocket_connect(url, headers={"cookie": c2}) as w2,
        ):
            m = play_hand(client, tid, [(w1, c1), (w2, c2)])
        assert m["last"]["showdown"], game
        phh = client.get(f"/api/tables/{tid}/hands.phhs", headers={"cookie": c1}).text
        assert phh.startswith("[1]\nvariant = 'F")
        if game.endswith("draw"):
            # ann sees her own discard, not bob's
            assert "'p1 sd ??'" in phh or "'p2 sd ??'" in phh


@pytest.mark.parametrize("where", ["memory", "file"])
def test_restart_resumes_between_hands(tmp_path: Path, where: str) -> None:
    path = tmp_path / "hands.sqlite3"
    store = Store.in_memory() if where == "memory" else Store.open(path)
    with TestClient(create_app(table_store=store)) as client:
        tid = new_table(client, seats=3, bots={"3": "station"}, pause=30)
        _, c1 = join(client, tid, "ann")
        _, c2 = join(client, tid, "bob")
        url = f"/api/tables/{tid}/ws"
        with (
            client.websocket_connect(url, headers={"cookie": c1}) as w1,
            client.websocket_connect(url, headers={"cookie": c2}) as w2,
        ):
            m = play_hand(client, tid, [(w1, c1), (w2, c2)], fold)
        before = {s["name"]: s["stack"] for s in m["seats"]}
        records = store.hands(table_id=tid)
    assert len(records) == 1
    expected = dict(zip(records[0].players, records[0].finishing_stacks, strict=True))
    assert before == expected
    assert sorted(expected.values()) != [100, 100, 100]
    # a new server on the same store (the file opened again): the table, the seats and
    # every chip are back
    if where == "file":
        store.close()
        store = Store.open(path)
    with TestClient(create_app(table_store=store)) as client:
        again = client.get(f"/api/tables/{tid}", headers={"cookie": c2}).json()
        assert again["you"] == {"seat": 2, "name": "bob"}
        assert again["table"]["hand_number"] == 1 and again["hand"] is None  # in the pause
        stacks = {s["name"]: s["stack"] for s in again["seats"]}
        assert stacks == expected
        r = client.post(f"/api/tables/{tid}/join", json={"name": "z"}, headers={"cookie": c1})
        assert r.json()["seat"] == 1


def test_table_game_limits_seats(client: TestClient) -> None:
    most = TableGame.create("fesca42-stud").max_seats
    r = client.post("/api/tables", json={"game": "fesca42-stud", "seats": most + 1})
    assert r.status_code == 400 and "seats" in r.json()["error"]


def test_pages(client: TestClient) -> None:
    tid = new_table(client)
    assert "Create a table" in client.get("/tables").text
    page = client.get(f"/tables/{tid}").text
    assert "table.js" in page and tid in page
    assert client.get("/tables/nope").status_code == 404
    assert client.get("/api/tables/nope").status_code == 404
    opts = client.get("/api/tables/options").json()
    assert "random" in opts["bots"] and any(g["base"] == "draw" for g in opts["games"])


def test_the_showdown_says_why_in_words() -> None:
    """Every kind of decision gets its sentence: a category beats another, the same
    category decided by ranks, the suits, a split (checked-down FESCA78 hands)."""
    import random

    from cardlab.table import Session, apply, legal_actions
    from cardlab.table.dealing import Dealer, FairDeal, commitment
    from cardlab.web.table_phh import showdown_summary

    game = TableGame.create("fesca78-holdem")
    seed = bytes(32)
    seen: dict[str, str] = {}
    for k in range(3000):
        if {"category", "ranks", "suits", "tie"} <= set(seen):
            break
        session = Session(game, ["ann", "bob", "cy"], [100] * 3)
        dealer = Dealer(game.game.deck, seed, FairDeal(commitment(seed), ("", "", ""), k))
        hand = session.new_hand(dealer=dealer)
        rng = random.Random(k)
        while not hand.is_over:
            calm = [a for a in legal_actions(hand) if a.kind.value == "c"]
            apply(hand, calm[0] if calm else rng.choice(legal_actions(hand)))
        summary = showdown_summary(hand, ["ann", "bob", "cy"])
        for pot in summary["pots"]:
            seen.setdefault(pot["decided_by"], pot["why"])
            if pot["decided_by"] == "category":
                shown = {h["name"]: h["description"].split(",")[0] for h in summary["hands"]}
                assert pot["why"].startswith(shown[pot["winners"][0]].split(" — ")[0])
    assert " beats " in seen["category"]
    assert seen["ranks"].startswith("both ") and " beats " in seen["ranks"]
    assert "the suits decide" in seen["suits"]
    assert seen["tie"].startswith("split: ")
