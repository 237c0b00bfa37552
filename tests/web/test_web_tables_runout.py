"""An all-in runout at a web table comes street by street (``runout_pause`` seconds
apart): every page, the players' and a watcher's, sees the exact odds of each street
while the next one waits, equal to the reference evaluator's brute force over every
remaining board (each board of a double-board bomb pot on its own); the stored history
has pokerkit's order and replays in pokerkit; a restart in the middle of a runout
deals the same cards and finishes the hand."""

from __future__ import annotations

import dataclasses
import time
import warnings
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pokerkit as pk
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from test_web_tables_restart import app_on, make_table

from cardlab.poker.equity import reference_equity
from cardlab.poker.games import get_game
from cardlab.store import Store
from cardlab.table import phh
from cardlab.web import create_app

Message = dict[str, Any]
WAIT = 120.0


@pytest.fixture
def store() -> Store:
    return Store.in_memory()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(table_store=store, limiter=None)) as c:
        yield c


def _views(client: TestClient, tid: str, cookies: list[str | None]) -> list[Message]:
    out = []
    for c in cookies:
        headers = {"cookie": c} if c else {}
        client.cookies.clear()
        out.append(client.get(f"/api/tables/{tid}", headers=headers).json())
    return out


def _shove_on_the_flop(ws: Any, view: Message) -> None:
    """Check or call before the flop; all in on the flop (or call the all-in)."""
    legal = view["legal"]
    if legal is None:
        return
    if legal["phase"] == "showdown":
        action = "s"
    elif view["hand"]["street"] != "pre-flop" and legal["raise_max"] is not None:
        action = f"r {legal['raise_max']}"
    else:
        action = "c"
    ws.send_json({"type": "action", "action": action, "turn": view["turn"]})


def _boards(view: Message) -> list[list[str]]:
    hand = view["hand"]
    return hand.get("boards") or [hand["board"]]


def _watch_the_runout(
    client: TestClient, tid: str, cookies: list[str], watcher: bool = True
) -> tuple[list[list[Message]], Message]:
    """Both players push on the flop; every page's views until the hand is over (the
    pages polled as the runout comes), and the finished hand's summary."""
    url = f"/api/tables/{tid}/ws"
    pages: list[str | None] = [*cookies, None] if watcher else list(cookies)
    seen: list[list[Message]] = []
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
    ):
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            views = _views(client, tid, pages)
            if views[0]["last"] is not None:
                return seen, views[0]["last"]
            if views[0]["hand"] is not None and views[0]["hand"]["street"] != "pre-flop":
                seen.append(views)
            for ws, view in zip((w0, w1), views, strict=False):
                _shove_on_the_flop(ws, view)
            time.sleep(0.02)
    raise AssertionError("the hand never ended")


def _check_odds(odds: Message, boards: list[list[str]], game: str) -> None:
    """One street's odds: the brute force of the reference evaluator on that board,
    the other board's cards (of a double board) out of the deck."""
    on = odds["on"] - 1
    length = len(odds["board"].split())
    assert odds["board"].split() == boards[on][:length]
    dead = [c for k, b in enumerate(boards) if k != on for c in b[:length]]
    assert odds["dead"].split() == dead
    holes = [h["cards"] for h in odds["hands"]]
    plain = reference_equity(get_game(game), holes, board=odds["board"], dead=" ".join(dead))
    assert [Fraction(h["exact"]["equity"]) for h in odds["hands"]] == [
        p.equity for p in plain.players
    ]
    assert [Fraction(h["exact"]["win"]) for h in odds["hands"]] == [p.win for p in plain.players]


@pytest.mark.parametrize("boards", [1, 2])
def test_every_page_sees_each_streets_odds_before_the_next(
    client: TestClient, store: Store, boards: int
) -> None:
    game = "standard52-holdem"
    house = {"bomb_pot_every": 1, "bomb_pot_ante": 5, "bomb_pot_boards": 2} if boards == 2 else {}
    tid, cookies = make_table(client, game=game, pause=30, runout_pause=3, **house)
    seen, last = _watch_the_runout(client, tid, cookies)
    final = [b.split() for b in last["boards"]] if boards == 2 else [last["board"].split()]
    assert all(len(b) == 5 for b in final)
    # while the turn waited (four cards out, the hand not over), every page showed the
    # flop's odds; while the river waited, the turn's too; each board on its own
    for length in (3, 4):
        waiting = [  # (every page polled at the same street: a loaded machine is slow)
            views
            for views in seen
            if all(len(_boards(v)[0]) == length and not v["hand"]["over"] for v in views)
        ]
        assert waiting, f"the runout never waited with {length} cards out"
        counted = [
            views
            for views in waiting
            if all(
                sorted(o["on"] for o in v["odds"] or [] if len(o["board"].split()) == length)
                == list(range(1, boards + 1))
                for v in views
            )
        ]
        assert counted, f"no page showed the odds with {length} cards out"
        views = counted[-1]
        assert all(v["odds"] == views[0]["odds"] for v in views)  # the same for everyone
        newest = [o for o in views[0]["odds"] if len(o["board"].split()) == length]
        assert sorted(o["on"] for o in newest) == list(range(1, boards + 1))
        for odds in newest:
            _check_odds(odds, final, game)
    # the stored history lists the shows before the runout and replays in pokerkit
    text = next(r.phh for r in store.hands(table_id=tid))
    actions = [str(a) for a in phh.loads(text).actions]
    shows = [k for k, a in enumerate(actions) if " sm " in a]
    last_bet = max(k for k, a in enumerate(actions) if " cbr " in a or " cc" in a)
    deals_after = [k for k, a in enumerate(actions) if a.startswith("d db") and k > last_bet]
    assert len(shows) == 2 and max(shows) < min(deals_after)
    if boards == 1:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, state = pk.HandHistory.loads(text)
        assert list(state.stacks) == list(phh.loads(text).finishing_stacks)


def test_a_restart_in_the_middle_of_a_runout_deals_the_same_cards(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    with TestClient(app_on(path)) as client:
        tid, cookies = make_table(client, game="standard52-holdem", pause=30, runout_pause=3)
        url = f"/api/tables/{tid}/ws"
        with (
            client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
            client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
        ):
            deadline = time.monotonic() + WAIT
            before: Message | None = None
            while time.monotonic() < deadline and before is None:
                views = _views(client, tid, list(cookies))
                hand = views[0]["hand"]
                shown = all(s["cards"] for s in views[0]["seats"] if s["in_hand"])
                waiting = all(not v["legal"] for v in views)
                if hand is not None and len(hand["board"]) == 3 and shown and waiting:
                    before = views[0]
                    break
                for ws, view in zip((w0, w1), views, strict=True):
                    _shove_on_the_flop(ws, view)
                time.sleep(0.02)
        assert before is not None, "the runout never waited on the flop"
        assert before["hand"]["board"] and not before["hand"]["over"]
    # a new server on the same file: the hand resumes at the same pause (nobody watches
    # now: no pause) and runs out from the same deck
    with TestClient(app_on(path)) as client:
        store = client.app.state.tables.store  # type: ignore[attr-defined]
        deadline = time.monotonic() + WAIT
        while True:  # (the hand may be over before the first look: a loaded machine)
            client.cookies.clear()
            view = client.get(f"/api/tables/{tid}", headers={"cookie": cookies[0]}).json()
            if store.hands(table_id=tid) or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert any("resumed after a server restart" in n for n in view["notices"])
        records = store.hands(table_id=tid)
        assert len(records) == 1
        history = phh.loads(records[0].phh)
        assert sum(history.finishing_stacks) == 200
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, state = pk.HandHistory.loads(records[0].phh)
        assert list(state.stacks) == list(history.finishing_stacks)
        # the flop the pages saw before the restart is the stored hand's flop
        board = [repr(c) for cards in state.board_cards for c in cards]
        assert len(board) == 5 and board[:3] == before["hand"]["board"]


def test_a_street_too_big_to_count_does_not_hide_the_later_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardlab.table import HandState, Phase, TableGame
    from cardlab.table import odds as table_odds_rules
    from cardlab.web import table_odds

    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    hand = HandState(game, [100, 100], seed=8, showdown="manual", runout="street")
    hand.bet_or_raise_to(100)
    hand.check_or_call()
    while hand.phase is Phase.SHOWDOWN:
        hand.show_or_muck(True)
    hand.deal_runout()
    hand.deal_runout()  # the turn is out, the river waits

    def spot_odds(h: HandState, spot: Any) -> Any:  # the pre-flop count: too big
        return None if not spot.board else table_odds_rules.spot_odds(h, spot)

    monkeypatch.setattr(table_odds, "spot_odds", spot_odds)
    shown = table_odds.TableOdds().all_in(hand)  # no event loop: counted at once
    assert shown is not None
    assert [len(o["board"].split()) for o in shown] == [3, 4]


def test_the_replayer_shows_each_boards_odds_on_a_double_board() -> None:
    from cardlab.table import HandState, Phase, TableGame
    from cardlab.table.history import to_history
    from cardlab.table.house import bomb_pot_stakes
    from cardlab.web.replay import hand_frames

    base = TableGame.create("standard52-holdem", blinds=(1, 2))
    game = dataclasses.replace(base, stakes=bomb_pot_stakes(base.stakes, 5))
    hand = HandState(
        game, [60] * 3, seed=5, showdown="manual", runout="street", bomb_pot=True, boards=2
    )
    while not hand.is_over:  # all in on the flop, shown, run out
        if hand.phase is Phase.BET:
            most = hand.legal().raise_max
            hand.bet_or_raise_to(most) if most is not None else hand.check_or_call()
        elif hand.runout_paused:
            hand.deal_runout()
        else:
            hand.show_or_muck(True)
    data = hand_frames(phh.loads(phh.dumps(to_history(hand))))
    shown = [f["odds"] for f in data["frames"] if f["odds"]]
    assert len(shown) >= 2  # the flop, the turn (and the frame between the boards' turns)
    for odds in shown:
        each = odds["boards"]
        assert [b["on"] for b in each] == [1, 2]
        for b in each:
            other = [str(c) for c in hand.boards[2 - b["on"]]]
            dead = b["dead"].split()
            assert dead == other[: len(dead)] and len(dead) >= 3  # the other board, so far
            holes = [x["cards"] for x in b["hands"]]
            plain = reference_equity(game.game, holes, board=b["board"], dead=b["dead"])
            assert [Fraction(x["exact"]["equity"]) for x in b["hands"]] == [
                p.equity for p in plain.players
            ]
        # a hand's share of the pot: the mean of its two boards' shares
        for k, x in enumerate(odds["hands"]):
            mean = sum(Fraction(b["hands"][k]["exact"]["equity"]) for b in each) / 2
            assert Fraction(x["exact"]["equity"]) == mean


def _run_two_starts(view: Message) -> bool:
    """Run 2's turn waits, its odds counted (the view's newest line is run 2's)."""
    hand = view["hand"]
    if not hand or hand["over"] or len(hand["run_boards"]) != 1 or len(hand["board"]) != 3:
        return False
    return bool(view["odds"]) and view["odds"][-1]["run"] == 2


def test_each_run_starts_with_its_own_odds(client: TestClient) -> None:
    """Run twice from the flop, street by street: while run 2's turn waits, every page's
    newest odds line is run 2's start (the flop again, without the turn and river run 1
    dealt), equal to the brute force; not run 1's turn."""
    game = "standard52-holdem"
    tid, cookies = make_table(client, game=game, pause=30, runout_pause=2.5, run_it=2)
    url = f"/api/tables/{tid}/ws"
    pages: list[str | None] = [*cookies, None]
    starts: list[list[Message]] = []  # the views while run 2's turn waited, odds counted
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
    ):
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            views = _views(client, tid, pages)
            if views[0]["last"] is not None:
                break
            if all(_run_two_starts(v) for v in views):
                starts.append(views)
            for ws, view in zip((w0, w1), views, strict=False):
                if view["legal"] and view["legal"]["phase"] == "runs":
                    ws.send_json({"type": "action", "action": "runs 2", "turn": view["turn"]})
                else:
                    _shove_on_the_flop(ws, view)
            time.sleep(0.02)
        last = _views(client, tid, pages[:1])[0]["last"]
    assert last is not None and len(last["runs"]) == 2, "the board was not run twice"
    assert starts, "no page showed run 2's own odds while its turn waited"
    views = starts[-1]
    assert all(v["odds"] == views[0]["odds"] for v in views)  # the same for everyone
    runs = [r.split() for r in last["runs"]]
    assert [(o["run"], len(o["board"].split())) for o in views[0]["odds"]] == [
        (1, 3),
        (1, 4),
        (2, 3),
    ]
    start = views[0]["odds"][-1]
    assert start["board"].split() == runs[1][:3] == runs[0][:3]
    assert start["dead"].split() == runs[0][3:]  # run 1's turn and river: out of its deck
    holes = [h["cards"] for h in start["hands"]]
    plain = reference_equity(get_game(game), holes, board=start["board"], dead=start["dead"])
    assert [Fraction(h["exact"]["equity"]) for h in start["hands"]] == [
        p.equity for p in plain.players
    ]
    assert [Fraction(h["exact"]["win"]) for h in start["hands"]] == [p.win for p in plain.players]
    # and it is not run 1's line on the same flop (those cards were in its deck)
    first = views[0]["odds"][0]
    assert first["board"] == start["board"] and first["dead"] == ""
