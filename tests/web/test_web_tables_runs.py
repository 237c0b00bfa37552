"""Run it twice, the rabbit, the all-in odds and the hints at a web table (the server's
side; the browser test plays one at a real page)."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from test_web_tables_venue import create, get, join

from cardlab.store import Store
from cardlab.table import phh
from cardlab.table.history import replay
from cardlab.web import create_app

Message = dict[str, Any]


@pytest.fixture
def store() -> Store:
    return Store.in_memory()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(table_store=store, limiter=None)) as c:
        yield c


WAIT = 180.0  # seconds: a loaded machine counts the odds slowly


def _wait(client: TestClient, tid: str, cookie: str, done: Any, what: str) -> Message:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        v = get(client, tid, cookie)
        if done(v):
            return v
        time.sleep(0.02)
    raise AssertionError(f"{what} never came")


def _send(ws: Any, view: Message, action: str) -> None:
    ws.send_json({"type": "action", "action": action, "turn": view["turn"]})


def test_two_people_run_it_twice_and_see_the_odds(client: TestClient, store: Store) -> None:
    # a long pause: the hand's odds are counted before the next hand is dealt (3 seconds
    # may be too short for a loaded machine)
    tid, host = create(
        client, game="standard52-holdem", seats=2, clock=30, run_it=3, pause=60, runout_pause=0
    )
    cookies = [join(client, tid, "ann", host), join(client, tid, "bob")]
    url = f"/api/tables/{tid}/ws"
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
    ):
        sockets = [w0, w1]
        asked = set()
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            views = [get(client, tid, c) for c in cookies]
            if views[0]["last"] is not None:
                break
            for ws, v in zip(sockets, views, strict=True):
                legal = v["legal"]
                if legal is None:
                    continue
                if legal["phase"] == "runs":
                    assert legal["runs"] == 3
                    asked.add(v["you"]["seat"])
                    _send(ws, v, "runs 2")
                elif legal["raise_max"] is not None:
                    _send(ws, v, f"r {legal['raise_max']}")
                else:
                    _send(ws, v, "c")
            time.sleep(0.01)
        assert asked == {1, 2}  # both were asked
        last = get(client, tid, cookies[0])["last"]
        assert len(last["runs"]) == 2 and last["runs"][0] != last["runs"][1]
        assert any(p["name"].startswith("run 2") for p in last["pots"])
        text = next(r.phh for r in store.hands(table_id=tid))
        history = phh.loads(text)
        assert history.user_fields["_runs"] == 2
        assert "# run 2" in text
        hand = replay(history).hand
        assert [" ".join(map(str, b)) for b in hand.runouts()] == last["runs"]
        # the odds, every street of both runs, once counted (off the event loop)
        # (shown street by street as each is counted: before the flop, run 1's flop and
        # turn, then run 2's own start (the empty board again, without run 1's five
        # cards in its deck), flop and turn)
        view = _wait(client, tid, cookies[1], lambda v: v["odds"] and len(v["odds"]) == 6, "odds")
        assert [(o["run"], len(o["board"].split())) for o in view["odds"]] == [
            (1, 0),
            (1, 3),
            (1, 4),
            (2, 0),
            (2, 3),
            (2, 4),
        ]
        assert view["odds"][3]["dead"] == last["runs"][0]
        for o in view["odds"]:
            assert abs(sum(h["equity"] for h in o["hands"]) - 1) < 1e-9


def test_the_rabbit_and_the_hints(client: TestClient, store: Store) -> None:
    tid, host = create(client, game="standard52-holdem", seats=2, clock=30, pause=30)
    cookies = [join(client, tid, "ann", host), join(client, tid, "bob")]
    url = f"/api/tables/{tid}/ws"
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
    ):
        sockets = [w0, w1]
        w0.send_json({"type": "hints", "on": True})
        view = _wait(client, tid, cookies[0], lambda v: v["hint"], "ann's hint")
        assert view["hints_on"] and 0 < view["hint"]["equity"] < 1
        assert get(client, tid, cookies[1])["hint"] is None  # bob did not ask
        # whoever acts first folds: the hand ends before the flop
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            views = [get(client, tid, c) for c in cookies]
            actor = next((k for k, v in enumerate(views) if v["legal"]), None)
            if actor is not None:
                _send(sockets[actor], views[actor], "f")
                break
            time.sleep(0.01)
        last = _wait(client, tid, cookies[1], lambda v: v["last"], "the end")["last"]
        assert last["rabbit_due"] and last["rabbit"] is None
        w1.send_json({"type": "rabbit"})
        last = _wait(
            client, tid, cookies[0], lambda v: v["last"] and v["last"]["rabbit"], "the rabbit"
        )["last"]
        assert len(last["rabbit"].split()) == 5 and not last["rabbit_due"]
        text = next(r.phh for r in store.hands(table_id=tid))
        history = phh.loads(text)
        assert history.user_fields["_rabbit"].split() == [c for c in last["rabbit"].split()]
        assert not any("d db" in str(a) for a in history.actions)  # no part of the hand


def test_the_replayer_shows_each_run_its_odds_and_the_rabbit() -> None:
    from cardlab.table import HandState, TableGame
    from cardlab.table.history import to_history
    from cardlab.table.odds import all_in_streets
    from cardlab.web.replay import hand_frames

    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    hand = HandState(game, [100, 100], seed=1, runs=2)
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    hand.choose_runs(2)
    hand.choose_runs(2)
    data = hand_frames(phh.loads(phh.dumps(to_history(hand))))
    boards = [[str(c) for c in b] for b in hand.runouts()]
    # run 1's river is shown before run 2 starts; run 2's frames show run 1 above
    assert any(f["board"] == boards[0] and not f["runs_done"] for f in data["frames"])
    later = [f for f in data["frames"] if f["runs_done"]]
    assert later and all(f["runs_done"] == [boards[0]] for f in later)
    assert any(f["street"].startswith("run 2: ") for f in data["frames"])
    # run 2 starts with a frame of its own: the board the runs share, its own odds
    start = next(f for f in data["frames"] if f["street"] == "run 2: pre-flop")
    assert start["board"] == [] and start["odds"]["run"] == 2
    assert start["odds"]["dead"].split() == boards[0]
    # the frames' odds are the table's, street by street and run by run
    shown = [f["odds"] for f in data["frames"] if f["odds"]]
    table = [o.as_dict() for o in all_in_streets(hand)]
    assert [(o["run"], o["board"]) for o in shown] == [(o["run"], o["board"]) for o in table]
    assert [[h["exact"] for h in o["hands"]] for o in shown] == [
        [h["exact"] for h in o["hands"]] for o in table
    ]
    folded = HandState(game, [100, 100], seed=1)
    folded.fold()
    rabbit = folded.rabbit_hunt()
    data = hand_frames(phh.loads(phh.dumps(to_history(folded))))
    assert data["rabbit"] == [str(c) for c in rabbit]
    assert all(not f["board"] for f in data["frames"])  # no part of the hand


def test_the_rabbit_of_a_double_board(client: TestClient, store: Store) -> None:
    house = {"bomb_pot_every": 1, "bomb_pot_ante": 5, "bomb_pot_boards": 2}
    tid, host = create(client, game="standard52-holdem", seats=2, clock=30, pause=30, **house)
    cookies = [join(client, tid, "ann", host), join(client, tid, "bob")]
    url = f"/api/tables/{tid}/ws"
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
    ):
        sockets = [w0, w1]
        # on the flop (a bomb pot: no betting before it) the first to act bets, the
        # other folds: the turn and the river of both boards are the rabbit's
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            views = [get(client, tid, c) for c in cookies]
            if views[0]["last"] is not None:
                break
            for ws, v in zip(sockets, views, strict=True):
                if v["legal"] is not None:
                    _send(ws, v, "f" if v["legal"]["call"] else "r 10")
            time.sleep(0.01)
        last = _wait(client, tid, cookies[1], lambda v: v["last"], "the end")["last"]
        assert last["rabbit_due"] and len(last["boards"]) == 2
        w1.send_json({"type": "rabbit"})
        last = _wait(
            client, tid, cookies[0], lambda v: v["last"] and v["last"]["rabbit"], "the rabbit"
        )["last"]
    assert [len(b.split()) for b in last["rabbit_boards"]] == [2, 2]
    text = next(r.phh for r in store.hands(table_id=tid))
    history = phh.loads(text)
    shown = history.user_fields["_rabbit"].split()
    # dealt as the hand would have: the turn to board 1, then to board 2, then the rivers
    turns, rivers = shown[:2], shown[2:]
    assert last["rabbit_boards"] == [f"{turns[0]} {rivers[0]}", f"{turns[1]} {rivers[1]}"]


def test_hints_on_a_double_board(client: TestClient) -> None:
    """A double-board bomb pot: ann's hint is each board's (her best hand on it, her
    equity), her share of the pot the mean of the two (each pot split in halves); the
    same as the engine's hint for her cards (tests/table/test_double_board_hints.py
    checks that against the brute force); bob, who did not ask, gets none."""
    from fractions import Fraction

    from cardlab.table.odds import strength_hint

    house = {"bomb_pot_every": 1, "bomb_pot_ante": 5, "bomb_pot_boards": 2}
    tid, host = create(client, game="standard52-holdem", seats=2, clock=30, pause=30, **house)
    cookies = [join(client, tid, "ann", host), join(client, tid, "bob")]
    url = f"/api/tables/{tid}/ws"
    with client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0:
        w0.send_json({"type": "hints", "on": True})

        def counted(v: Message) -> bool:
            return bool(v["hint"] and v["hint"]["boards"] and v["hint"]["equity"] is not None)

        view = _wait(client, tid, cookies[0], counted, "ann's double-board hint")
        assert get(client, tid, cookies[1])["hint"] is None  # bob did not ask
        hint = view["hint"]
        boards = view["hand"]["boards"]
        assert len(boards) == 2 and [b["on"] for b in hint["boards"]] == [1, 2]
        assert all(b["hand"] and 0 <= b["equity"] <= 1 for b in hint["boards"])
        each = [Fraction(b["exact"]) for b in hint["boards"]]
        assert Fraction(hint["exact"]) == sum(each) / 2
        runner = client.app.state.tables.get(tid).runner  # type: ignore[attr-defined]
        position = runner.session.position_of(view["you"]["seat"] - 1)
        engine = strength_hint(runner.hand, position)
        assert engine is not None and engine.as_dict() == hint
