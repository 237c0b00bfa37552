"""Show or muck at a web table: at the showdown the first hand (and every hand of an
all-in) is turned up by the rules, the others are asked with the table clock, whose
default shows a hand that wins or ties and mucks one that loses; a mucked hand never
reaches anybody else; the winner of a hand everyone folded to may show it before the
next deal, into the summary, the download and the stored hand; a restart mid-showdown
resumes the same decision."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pokerkit as pk
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from test_web_tables_restart import app_on, essentials, make_table
from test_web_tables_venue import create, get, join

from cardlab.cards import Card
from cardlab.poker.showdown import best_five
from cardlab.store import Store
from cardlab.table import phh
from cardlab.table import phh_actions as pa
from cardlab.table.history import replay
from cardlab.web import create_app
from cardlab.web.table_room import Room

Message = dict[str, Any]
GAME = "standard52-holdem"  # pokerkit reads its histories too


@pytest.fixture
def store() -> Store:
    return Store.in_memory()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(table_store=store, limiter=None)) as c:
        yield c


def two_people(client: TestClient, **fields: Any) -> tuple[str, list[str]]:
    """A table of ann (seat 1, its host) and bob (seat 2); their cookies."""
    tid, host = create(client, game=GAME, seats=2, **fields)
    return tid, [join(client, tid, "ann", host), join(client, tid, "bob")]


def room_of(client: TestClient, tid: str) -> Room:
    room: Room = client.app.state.tables.rooms[tid]  # type: ignore[attr-defined]
    return room


def strength(client: TestClient, tid: str) -> list[int]:
    """Each seat's hand at the showdown in play, by the reference evaluator (the key of
    its best five: higher wins)."""
    room = room_of(client, tid)
    hand = room.session.hand
    assert hand is not None
    out = []
    for seat in (0, 1):
        position = room.session.position_of(seat)
        assert position is not None
        own = [c for c in hand.hole[position] if c is not None]
        out.append(best_five(hand.game.game, own, hand.board).key)
    return out


def act(ws: Any, view: Message, action: str) -> None:
    ws.send_json({"type": "action", "action": action, "turn": view["turn"]})


def asked_at_showdown(
    client: TestClient, tid: str, cookies: list[str], sockets: list[Any]
) -> tuple[int, list[Message]]:
    """Both check or call until one of them is asked to show or muck: (that seat, both
    views then). Nobody else is ever asked meanwhile."""
    for _ in range(3000):
        views = [get(client, tid, c) for c in cookies]
        asked = [k for k, v in enumerate(views) if v["legal"] and v["legal"]["phase"] == "showdown"]
        if asked:
            assert len(asked) == 1, views
            return asked[0], views
        for ws, v in zip(sockets, views, strict=True):
            if v["legal"] is not None:
                act(ws, v, "c")
        time.sleep(0.01)
    raise AssertionError("nobody was asked to show or muck")


def finished(client: TestClient, tid: str, cookie: str, number: int) -> Message:
    """The view once hand ``number`` is over."""
    for _ in range(3000):
        v = get(client, tid, cookie)
        if v["last"] is not None and v["last"]["hand"] >= number:
            assert v["last"]["hand"] == number
            return v
        time.sleep(0.01)
    raise AssertionError(f"hand {number} did not end")


def received(ws: Any, done: Callable[[Message], bool]) -> list[Message]:
    """Every message ``ws`` received up to the first state for which ``done`` holds,
    and the ones sent before a ping is answered after it."""
    out: list[Message] = []
    for _ in range(5000):
        m: Message = ws.receive_json()
        out.append(m)
        if m.get("type") == "state" and done(m):
            break
    else:
        raise AssertionError("the state never came")
    ws.send_json({"type": "ping"})
    while (m := ws.receive_json()).get("type") != "pong":
        out.append(m)
    return out


def error_of(ws: Any, message: dict[str, Any]) -> str:
    ws.send_json(message)
    return next_error(ws)


def next_error(ws: Any) -> str:
    """The next error message (the state broadcasts meanwhile are skipped)."""
    for _ in range(500):
        m: Message = ws.receive_json()
        if m.get("type") == "error":
            return str(m["message"])
        assert m.get("type") == "state", m
    raise AssertionError("no error came")


def alive(ws: Any) -> None:
    ws.send_json({"type": "ping"})
    for _ in range(500):
        m: Message = ws.receive_json()
        if m.get("type") == "pong":
            return
        assert m.get("type") == "state", m
    raise AssertionError("no pong")


def cards_of(view: Message, seat: int) -> list[str]:
    return list(view["seats"][seat]["cards"])


def download(client: TestClient, tid: str, cookie: str | None, number: int) -> phh.HandHistory:
    headers = {"cookie": cookie} if cookie else {}
    r = client.get(f"/api/tables/{tid}/hands.phhs", headers=headers)
    assert r.status_code == 200
    return next(h for h in phh.loads_all(r.text) if h.hand == number)


def stored(store: Store, tid: str, number: int) -> str:
    texts = [r.phh for r in store.hands(table_id=tid) if phh.loads(r.phh).hand == number]
    assert len(texts) == 1  # stored once
    return texts[0]


def shows(history: phh.HandHistory) -> dict[int, str | None]:
    """Position (from 0) -> the cards of its sm line (None: mucked)."""
    return {a.player: a.token for a in history.actions if isinstance(a, pa.ShowMuck)}


def dealt(history: phh.HandHistory) -> dict[int, str]:
    return {a.player: a.token for a in history.actions if isinstance(a, pa.DealHole)}


def token(cards: list[str]) -> str:
    return "".join(cards)  # standard52: str(card) is its PHH code


def test_the_asked_loser_mucks_and_the_cards_never_leave(client: TestClient, store: Store) -> None:
    tid, cookies = two_people(client, clock=30, pause=0.2)
    url = f"/api/tables/{tid}/ws"
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
    ):
        sockets = [w0, w1]
        for _ in range(60):
            asked, views = asked_at_showdown(client, tid, cookies, sockets)
            other = 1 - asked
            # the other showed first without being asked, and the asked one sees it
            assert views[other]["legal"] is None
            assert cards_of(views[asked], other) == cards_of(views[other], other)
            assert "??" not in cards_of(views[asked], other)
            value = strength(client, tid)
            if value[asked] < value[other]:
                break
            act(sockets[asked], views[asked], "s")  # a winner: the next hand
        else:
            raise AssertionError("the asked player never held the losing hand")
        loser, winner = asked, other
        number = views[loser]["table"]["hand_number"]
        hole = cards_of(views[loser], loser)
        assert len(hole) == 2 and "??" not in hole
        assert views[loser]["legal"]["default"] == "m"  # what the clock would do
        assert views[loser]["legal"]["muck"] is True
        assert views[winner]["seats"][loser]["cards"] == ["??", "??"]
        act(sockets[loser], views[loser], "m")
        seen = received(sockets[winner], lambda m: (m["last"] or {}).get("hand") == number)
    end = finished(client, tid, cookies[winner], number)
    names = ["ann", "bob"]
    # nothing of the mucked hand reached the winner: not on the seat, not in the
    # summary, not in the log
    for m in [*seen, end]:
        if m.get("type") != "state" or m["table"]["hand_number"] != number:
            continue
        assert cards_of(m, loser) in (["??", "??"], [])
        summary = m["last"] if m["last"] and m["last"]["hand"] == number else None
        if summary is not None:
            assert [h["name"] for h in summary["hands"]] == [names[winner]]
            assert not any(c in h["cards"] for h in summary["hands"] for c in hole)
        assert not any(f"{names[loser]} shows" in line for line in m["log"])
    assert f"{names[loser]} mucks" in end["log"]
    # the winner's download: the loser's cards are ?? and their sm line has none
    history = download(client, tid, cookies[winner], number)
    order = [s - 1 for s in history.user_fields["_seats"]]
    p_loser, p_winner = order.index(loser), order.index(winner)
    assert dealt(history)[p_loser] == "????"
    assert shows(history) == {p_winner: token(cards_of(views[winner], winner)), p_loser: None}
    # the store keeps the full hand: the mucked cards were dealt, and mucked
    full = phh.loads(stored(store, tid, number))
    assert dealt(full)[p_loser] == token(hole)
    assert shows(full)[p_loser] is None
    assert replay(full).hand.result is not None


def test_the_clock_shows_a_winning_hand_and_mucks_a_losing_one(client: TestClient) -> None:
    tid, cookies = two_people(client, clock=1.2, pause=0.2)
    url = f"/api/tables/{tid}/ws"
    outcomes: dict[bool, Message] = {}
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
    ):
        for _ in range(60):
            asked, views = asked_at_showdown(client, tid, cookies, [w0, w1])
            value = strength(client, tid)
            wins = value[asked] >= value[1 - asked]
            assert views[asked]["clock"]["seat"] == asked + 1
            assert views[asked]["legal"]["default"] == ("s" if wins else "m")
            number = views[asked]["table"]["hand_number"]
            if wins in outcomes:
                act([w0, w1][asked], views[asked], "s")
                continue
            # nobody clicks: the clock decides
            end = finished(client, tid, cookies[1 - asked], number)
            name = ["ann", "bob"][asked]
            assert (name in [h["name"] for h in end["last"]["hands"]]) == wins
            assert (f"{name} shows" in " ".join(end["log"])) == wins
            outcomes[wins] = end
            if len(outcomes) == 2:
                break
    assert set(outcomes) == {True, False}


def test_the_uncontested_winner_shows_after_the_hand(client: TestClient, store: Store) -> None:
    tid, cookies = two_people(client, clock=0, pause=4)
    url = f"/api/tables/{tid}/ws"
    names = ["ann", "bob"]
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
        client.websocket_connect(url) as spectator,
    ):
        sockets = [w0, w1]
        for _ in range(500):
            views = [get(client, tid, c) for c in cookies]
            folder = next((k for k, v in enumerate(views) if v["legal"]), None)
            if folder is not None:
                break
            time.sleep(0.01)
        assert folder is not None
        winner = 1 - folder
        act(sockets[folder], views[folder], "f")
        mine = finished(client, tid, cookies[winner], 1)
        theirs = get(client, tid, cookies[folder])
        hole = cards_of(mine, winner)
        assert mine["last"]["pots"][0]["decided_by"] == "uncontested"
        assert mine["can_show"] is True
        assert theirs["can_show"] is False and get(client, tid, "")["can_show"] is False
        assert cards_of(theirs, winner) == ["??", "??"] and theirs["last"]["hands"] == []
        # the folder and a spectator may not show; nothing changes
        assert "only the winner" in error_of(sockets[folder], {"type": "show"})
        assert "no seat" in error_of(spectator, {"type": "show"})
        early = download(client, tid, cookies[folder], 1)
        p = [s - 1 for s in early.user_fields["_seats"]].index(winner)
        assert dealt(early)[p] == "????" and shows(early) == {}
        # the winner shows: everybody sees the cards
        sockets[winner].send_json({"type": "show"})
        alive(sockets[winner])
        after = get(client, tid, cookies[folder])
        assert after["can_show"] is False and get(client, tid, cookies[winner])["can_show"] is False
        assert cards_of(after, winner) == hole
        assert [(h["name"], h["cards"].replace(" ", "")) for h in after["last"]["hands"]] == [
            (names[winner], token(hole))
        ]
        assert f"{names[winner]} shows" in " ".join(after["log"])
        assert cards_of(get(client, tid, ""), winner) == hole  # the spectator too
        assert "already shown" in error_of(sockets[winner], {"type": "show"})
        # in every download and in the stored hand: `pN sm CARDS` after the fold
        for who in (cookies[folder], None):
            history = download(client, tid, who, 1)
            order = [s - 1 for s in history.user_fields["_seats"]]
            assert str(history.actions[-1]) == f"p{p + 1} sm {token(hole)}"
            assert str(history.actions[-2]) == f"p{order.index(folder) + 1} f"
            assert dealt(history)[p] == token(hole)
            assert replay(history).hand.shown_hands()[p] == tuple(Card.parse(c) for c in hole)
        text = stored(store, tid, 1)
        assert f"'p{p + 1} sm {token(hole)}'" in text
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, state = pk.HandHistory.loads(text)
        assert list(state.stacks) == list(phh.loads(text).finishing_stacks or ())
        # once the next hand is dealt the window is closed
        for _ in range(1000):
            if get(client, tid, cookies[winner])["table"]["hand_number"] == 2:
                break
            time.sleep(0.01)
        assert "still being played" in error_of(sockets[winner], {"type": "show"})
    assert stored(store, tid, 1) == text  # the stored hand is what was announced


def test_an_all_in_turns_every_hand_up_and_asks_nobody(client: TestClient) -> None:
    tid, cookies = two_people(client, clock=30, pause=0.2)
    url = f"/api/tables/{tid}/ws"
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
    ):
        sockets, first = [w0, w1], None
        for _ in range(2000):
            views = [get(client, tid, c) for c in cookies]
            if views[0]["last"] is not None:
                break
            for k, v in enumerate(views):
                legal = v["legal"]
                if legal is None:
                    continue
                assert legal["phase"] != "showdown"  # nobody is asked
                if first is None and legal["raise_max"]:
                    first = k
                    act(sockets[k], v, f"r {legal['raise_max']}")
                else:
                    act(sockets[k], v, "c")
            time.sleep(0.01)
        end = finished(client, tid, cookies[0], 1)
    assert {h["name"] for h in end["last"]["hands"]} == {"ann", "bob"}
    history = download(client, tid, cookies[0], 1)
    assert all(cards is not None for cards in shows(history).values())
    assert len(shows(history)) == 2


def test_bots_show_winners_and_muck_losers(client: TestClient, store: Store) -> None:
    tid, _ = create(
        client, game=GAME, seats=2, bots={"1": "station", "2": "station"}, pause=0, clock=0
    )
    with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
        for _ in range(3000):
            m = ws.receive_json()
            if m.get("type") == "state" and m["table"]["hand_number"] > 12:
                break
    seen = {"mucked": 0, "shown": 0}
    for record in store.hands(table_id=tid):
        history = phh.loads(record.phh)
        lines = [a for a in history.actions if isinstance(a, pa.ShowMuck)]
        if not lines or min(history.starting_stacks) <= 2:
            continue  # (a blind all-in turns every hand up)
        hand = replay(history).hand
        value = {
            p: best_five(hand.game.game, [c for c in hand.hole[p] if c is not None], hand.board)
            for p in range(hand.players)
        }
        first, *rest = lines
        assert first.token is not None  # the first hand is turned up by the rule
        for line in rest:  # a calling station never bets: no all-in, the default decides
            p, q = line.player, first.player
            if line.token is None:
                assert value[p] < value[q]  # a muck only ever gives up a lost pot
                seen["mucked"] += 1
            else:
                assert value[p] >= value[q]
                seen["shown"] += 1
    assert seen["mucked"] and seen["shown"]


def test_bad_messages_about_showing_are_errors_not_500s(client: TestClient) -> None:
    tid, cookies = two_people(client, clock=0, pause=0.2)
    url = f"/api/tables/{tid}/ws"
    bad: list[dict[str, Any]] = [
        {"type": "show"},
        {"type": "show", "cards": "AsKd", "seat": 2},
        {"type": "show", "player": 1},
        {"type": "action", "action": "s"},
        {"type": "action", "action": "m"},
        {"type": "action", "action": "s AsKd"},
        {"type": "action", "action": "muck please"},
        {"type": "action", "action": "show", "turn": -1},
        {"type": "SHOW"},
        {"type": ["show"]},
    ]
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
        client.websocket_connect(url) as spectator,
    ):
        for _ in range(500):
            if get(client, tid, cookies[0])["hand"] is not None:
                break
            time.sleep(0.01)
        for ws in (w0, w1, spectator):
            for message in bad:
                assert error_of(ws, message)
            ws.send_bytes(b'{"type": "show"}')
            assert "not binary" in next_error(ws)
            alive(ws)
        assert client.get(f"/api/tables/{tid}").status_code == 200
        assert client.get(f"/api/tables/{tid}/hands.phhs").status_code == 200


def test_a_restart_mid_showdown_resumes_the_same_decision(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    with TestClient(app_on(path)) as client:
        tid, cookies = make_table(client, game=GAME, clock=30)
        url = f"/api/tables/{tid}/ws"
        with (
            client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
            client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
        ):
            asked, before = asked_at_showdown(client, tid, cookies, [w0, w1])
        number = before[asked]["table"]["hand_number"]
    with TestClient(app_on(path)) as client:
        after = [get(client, tid, c) for c in cookies]
        for b, a in zip(before, after, strict=True):
            assert essentials(a) == essentials(b)
        assert after[asked]["legal"]["phase"] == "showdown"
        assert "??" not in cards_of(after[asked], 1 - asked)  # the first show stands
        with client.websocket_connect(
            f"/api/tables/{tid}/ws", headers={"cookie": cookies[asked]}
        ) as ws:
            act(ws, after[asked], "m")
            finished(client, tid, cookies[asked], number)
        store = client.app.state.tables.store  # type: ignore[attr-defined]
        texts = [r.phh for r in store.hands(table_id=tid)]
    (text,) = texts  # the hand is stored once
    history = phh.loads(text)
    order = [s - 1 for s in history.user_fields["_seats"]]
    assert shows(history) == {
        order.index(1 - asked): token(cards_of(before[1 - asked], 1 - asked)),
        order.index(asked): None,
    }
    assert sum(history.finishing_stacks or ()) == 200
