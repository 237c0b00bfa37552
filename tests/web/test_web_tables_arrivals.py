"""Who sits down at a web table and when they are first dealt in: the host's approval of
seat requests (``approve_seats``), and new players who wait for the big blind or post
one (``new_players``), whose hands replay in pokerkit to the same stacks."""

from __future__ import annotations

import importlib.util
import random
import sys
import time
import warnings
from collections.abc import Callable, Iterator
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

from cardlab.errors import GameError
from cardlab.store import Store
from cardlab.table import HandState, TableGame, phh
from cardlab.table.history import replay, to_history
from cardlab.web import create_app
from cardlab.web.table_arrivals import ASK_AGAIN, GONE, LIFETIME, MAX_REQUESTS, dealt_in

Message = dict[str, Any]


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(table_store=Store.in_memory(), limiter=None)) as c:
        yield c


def create(client: TestClient, **fields: Any) -> tuple[str, str]:
    """A table and its host's cookie."""
    client.cookies.clear()
    body = {"game": "fesca78-holdem", "seats": 3, "stack": 100, "clock": 0, "pause": 0.05}
    body |= {"bot_delay": 0} | fields
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    cookie = r.headers["set-cookie"].split(";")[0]
    client.cookies.clear()
    return str(r.json()["id"]), cookie


def ask(
    client: TestClient, tid: str, name: str, cookie: str | None = None, **more: Any
) -> tuple[Any, str]:
    """A join; its answer and the caller's cookie (a new one if none was given)."""
    client.cookies.clear()
    headers = {"cookie": cookie} if cookie else {}
    r = client.post(f"/api/tables/{tid}/join", json={"name": name} | more, headers=headers)
    got = r.headers.get("set-cookie")
    client.cookies.clear()
    return r, cookie or str(got).split(";")[0]


def get(client: TestClient, tid: str, cookie: str) -> Message:
    return client.get(f"/api/tables/{tid}", headers={"cookie": cookie}).json()


def post(client: TestClient, tid: str, what: str, cookie: str, body: Any) -> Any:
    return client.post(f"/api/tables/{tid}/{what}", json=body, headers={"cookie": cookie})


def status(client: TestClient, tid: str, cookie: str) -> Message:
    r = client.get(f"/api/tables/{tid}/request", headers={"cookie": cookie})
    assert r.status_code == 200, r.text
    return r.json()


def room_of(client: TestClient, tid: str) -> Any:
    return client.app.state.tables.rooms[tid]  # type: ignore[attr-defined]


# --- approving seats -----------------------------------------------------------------


def test_a_join_waits_for_the_host_who_seats_the_person(client: TestClient) -> None:
    tid, host = create(client, approve_seats=True)
    r, _ = ask(client, tid, "ann", host)
    assert r.status_code == 200 and r.json()["seat"] == 1  # the host sits down at once
    r, bob = ask(client, tid, "bob")
    assert r.status_code == 202, r.text
    body = r.json()
    assert body["pending"] and body["status"] == "waiting for the host to approve"
    request = body["request"]
    # asking twice gives the same request; the page learns it is pending
    again, _ = ask(client, tid, "bob", bob)
    assert again.status_code == 202 and again.json()["request"] == request
    assert status(client, tid, bob) == {
        "status": "pending",
        "request": request,
        "name": "bob",
        "message": "waiting for the host to approve",
    }
    # only the host's state lists the requests, without any token hash
    host_view = get(client, tid, host)
    assert [(q["request"], q["name"], q["seat"]) for q in host_view["seat_requests"]] == [
        (request, "bob", None)
    ]
    assert "token" not in str(host_view["seat_requests"])
    assert get(client, tid, bob)["seat_requests"] == []
    assert get(client, tid, bob)["you"] is None
    # bob cannot approve himself; the host can
    r = post(client, tid, "host", bob, {"op": "approve", "request": request})
    assert r.status_code == 403
    r = post(client, tid, "host", host, {"op": "approve", "request": request})
    assert r.status_code == 200, r.text
    assert status(client, tid, bob) == {"status": "seated", "seat": 2, "name": "bob"}
    view = get(client, tid, bob)
    assert view["you"] == {"seat": 2, "name": "bob"}
    assert view["seat_requests"] == [] and get(client, tid, host)["seat_requests"] == []
    assert "the host seated bob" in view["notices"]
    ledger = client.get(f"/api/tables/{tid}/ledger").json()
    bought = [(e["player"], e["kind"], e["amount"]) for e in ledger["entries"]]
    assert bought == [("ann", "buy-in", 100), ("bob", "buy-in", 100)]
    assert ledger["balanced"]
    # the request is answered: approving it again says so
    r = post(client, tid, "host", host, {"op": "approve", "request": request})
    assert r.status_code == 400 and "no pending seat request" in r.json()["error"]


def test_a_refused_person_is_not_seated_and_asks_again_a_minute_later(
    client: TestClient,
) -> None:
    tid, host = create(client, approve_seats=True, seats=4)
    r, cy = ask(client, tid, "cy", seat=3)
    request = r.json()["request"]
    assert get(client, tid, host)["seat_requests"][0]["seat"] == 3
    r = post(client, tid, "host", host, {"op": "refuse", "request": request})
    assert r.status_code == 200, r.text
    answer = status(client, tid, cy)
    assert answer["status"] == "refused" and 0 < answer["retry_after"] <= ASK_AGAIN
    view = get(client, tid, host)
    assert all(s["kind"] == "open" for s in view["seats"]) and view["seat_requests"] == []
    assert "the host refused cy's request for a seat" in view["notices"]
    # asking again at once is refused with the wait; a minute later it is a new request
    r, _ = ask(client, tid, "cy", cy)
    assert r.status_code == 429 and r.json()["retry_after"] >= ASK_AGAIN - 5
    assert "refused" in r.json()["error"]
    room = room_of(client, tid)
    room.seating.requests.clock = lambda: time.time() + ASK_AGAIN + 1
    r, _ = ask(client, tid, "cy", cy)
    assert r.status_code == 202 and r.json()["request"] != request
    assert status(client, tid, cy)["status"] == "pending"


def test_requests_are_limited_and_expire(client: TestClient) -> None:
    tid, host = create(client, approve_seats=True, seats=3)
    cookies = []
    for k in range(MAX_REQUESTS):
        r, cookie = ask(client, tid, f"guest {k}")
        assert r.status_code == 202, r.text
        cookies.append(cookie)
    r, _ = ask(client, tid, "late")
    assert r.status_code == 429 and "try again later" in r.json()["error"]
    assert len(get(client, tid, host)["seat_requests"]) == MAX_REQUESTS
    # a name asked for is taken, like a seated player's
    r, _ = ask(client, tid, "GUEST 3")
    assert r.status_code == 400 and "taken" in r.json()["error"]
    # the requester leaves: the request goes and the page is told
    r = post(client, tid, "leave", cookies[0], {})
    assert r.status_code == 200 and r.json()["withdrawn"]
    assert status(client, tid, cookies[0])["status"] == "withdrawn"
    r, _ = ask(client, tid, "guest 3")
    assert r.status_code == 400 and "taken" in r.json()["error"]
    r, late = ask(client, tid, "late")
    assert r.status_code == 202
    # a page that stops asking for news has left; every request ends after LIFETIME
    room = room_of(client, tid)
    room.seating.requests.monotonic = lambda: time.monotonic() + GONE + 1
    assert status(client, tid, late)["status"] == "expired"  # its own poll comes too late
    assert get(client, tid, host)["seat_requests"] == []
    room.seating.requests.monotonic = time.monotonic
    r, again = ask(client, tid, "again")
    assert r.status_code == 202
    room.seating.requests.clock = lambda: time.time() + LIFETIME + 1
    assert status(client, tid, again)["status"] == "expired"
    view = get(client, tid, host)
    assert view["seat_requests"] == []
    assert "again's request for a seat expired" in view["notices"]
    assert all(s["kind"] == "open" for s in view["seats"])


def test_approval_fails_cleanly_when_no_seat_is_open(client: TestClient) -> None:
    tid, host = create(client, approve_seats=True, seats=2)
    r, _ = ask(client, tid, "ann")
    r2, _ = ask(client, tid, "bob")
    r3, cy = ask(client, tid, "cy")
    ids = [x.json()["request"] for x in (r, r2, r3)]
    for rid in ids[:2]:
        assert post(client, tid, "host", host, {"op": "approve", "request": rid}).status_code == 200
    r = post(client, tid, "host", host, {"op": "approve", "request": ids[2]})
    assert r.status_code == 400 and "full" in r.json()["error"]
    assert status(client, tid, cy)["status"] == "pending"  # the host may still refuse it
    assert post(client, tid, "host", host, {"op": "refuse", "request": ids[2]}).status_code == 200
    assert [s["name"] for s in get(client, tid, host)["seats"]] == ["ann", "bob"]
    # both settings are the host's to change, checked
    for bad in ({"approve_seats": "yes"}, {"new_players": "sometimes"}):
        r = post(client, tid, "host", host, {"op": "settings", "settings": bad})
        assert r.status_code == 400 and "error" in r.json()
    good = {"approve_seats": False, "new_players": "post"}
    r = post(client, tid, "host", host, {"op": "settings", "settings": good})
    assert r.status_code == 200, r.text


def test_a_restart_keeps_the_pending_requests(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"

    def app() -> Any:
        return create_app(table_store=Store.open(path, synchronous="NORMAL"), limiter=None)

    with TestClient(app()) as c:
        tid, host = create(c, approve_seats=True)
        r, bob = ask(c, tid, "bob", seat=2)
        request = r.json()["request"]
    with TestClient(app()) as c:
        assert status(c, tid, bob)["request"] == request
        shown = get(c, tid, host)["seat_requests"]
        assert [(q["request"], q["name"], q["seat"]) for q in shown] == [(request, "bob", 2)]
        assert post(c, tid, "host", host, {"op": "approve", "request": request}).status_code == 200
        assert get(c, tid, bob)["you"] == {"seat": 2, "name": "bob"}
    with TestClient(app()) as c:  # and the answered request stays answered
        assert get(c, tid, host)["seat_requests"] == []
        assert get(c, tid, bob)["you"] == {"seat": 2, "name": "bob"}


def test_fuzzed_host_operations_never_fail_the_server(client: TestClient) -> None:
    tid, host = create(client, approve_seats=True)
    r, _ = ask(client, tid, "bob")
    real = r.json()["request"]
    ids = st.one_of(
        st.text(max_size=30),
        st.integers(),
        st.none(),
        st.booleans(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.lists(st.integers(), max_size=3),
        st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
        st.just(real),
        st.just(real + "x"),
    )

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(op=st.sampled_from(["approve", "refuse"]), request=ids, extra=st.booleans())
    def check(op: str, request: Any, extra: bool) -> None:
        body: dict[str, Any] = {"op": op, "request": request}
        if extra:
            body["seat"] = request
        r = post(client, tid, "host", host, body)
        assert r.status_code in (200, 400), r.text
        assert "error" in r.json() or r.status_code == 200

    check()
    assert client.get(f"/api/tables/{tid}/ledger").json()["balanced"]


# --- new players: wait for the big blind, or post -----------------------------------------


def test_the_rules_of_coming_in() -> None:
    blinds = (1, 2)
    # wait: in at the big blind's position only
    assert dealt_in([1, 2, 3, 4, 0], {1}, blinds, "wait") == ([2, 3, 4, 0], [])
    assert dealt_in([4, 1, 2, 3, 0], {1}, blinds, "wait") == ([4, 1, 2, 3, 0], [])
    assert dealt_in([4, 2, 3, 1, 0], {1}, blinds, "wait") == ([4, 2, 3, 0], [])
    # post: in at once from any position but the small blind's and the button
    assert dealt_in([4, 2, 1, 3, 0], {1}, blinds, "post") == ([4, 2, 1, 3, 0], [2])
    assert dealt_in([4, 2, 3, 0, 1], {1}, blinds, "post") == ([4, 2, 3, 0], [])
    assert dealt_in([1, 2, 3, 4, 0], {1}, blinds, "post") == ([2, 3, 4, 0], [])
    assert dealt_in([4, 1, 2, 3, 0], {1}, blinds, "post") == ([4, 1, 2, 3, 0], [])
    two = dealt_in([4, 2, 1, 3, 0], {1, 3}, blinds, "post")
    assert two == ([4, 2, 1, 3, 0], [2, 3])
    # the one waiting on the button and one before it: neither posts from the button
    assert dealt_in([4, 2, 3, 1, 0], {1, 0}, blinds, "post") == ([4, 2, 3], [])
    # three players (heads-up plus one): only the big blind's position lets one in
    assert dealt_in([2, 1, 0], {1}, blinds, "post") == ([2, 1, 0], [])
    assert dealt_in([1, 2, 0], {1}, blinds, "post") == ([2, 0], [])
    # fewer than two others, or no big blind (stud): everybody comes in at once
    assert dealt_in([1, 0], {1}, blinds, "wait") == ([1, 0], [])
    assert dealt_in([1, 0, 2], {1, 2}, blinds, "wait") == ([1, 0, 2], [])
    assert dealt_in([1, 2, 0], {1}, (), "wait") == ([1, 2, 0], [])
    with pytest.raises(GameError):
        dealt_in([1, 2, 0], {1}, blinds, "sometimes")


def _pokerkit_driver() -> Any:
    """tests/table/pokerkit_driver.py: both engines decision by decision."""
    path = Path(__file__).parents[1] / "table" / "pokerkit_driver.py"
    spec = importlib.util.spec_from_file_location("_seating_pokerkit_driver", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_hands_with_posts_agree_with_pokerkit_decision_by_decision() -> None:
    pytest.importorskip("pokerkit")
    driver = _pokerkit_driver()
    compared = 0
    for seed in range(150):
        rng = random.Random(seed)
        n = rng.randint(4, 9)
        base: tuple[int, ...] = (1, 2, 4) if n > 4 and rng.random() < 0.3 else (1, 2)
        posts = rng.sample(range(len(base), n - 1), rng.randint(1, n - 1 - len(base)))
        blinds = TableGame.create("standard52-holdem", blinds=base).stakes.with_posts(posts, n)
        stacks = tuple(rng.choice([1, 2, 3, 5, 40, 400]) for _ in range(n))
        ante = rng.choice([0, 0, 1])
        setup = driver.Setup("NT", n, stacks, ante, 0, blinds.blinds, 2, 4, 0, False)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, _, decisions = driver.play(setup, seed)
        compared += decisions
    assert compared > 500


def test_posts_are_pokerkits_negative_blinds_and_agree_with_it() -> None:
    pk = pytest.importorskip("pokerkit")
    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    assert game.stakes.with_posts([3], 5).blinds == (1, 2, 0, -2, 0)
    assert game.stakes.with_posts([1, 2], 4).blinds == (1, 2, -2, 0)  # a blind stays
    for bad in ([5], [-1]):
        with pytest.raises(GameError):
            game.stakes.with_posts(bad, 5)
    with pytest.raises(GameError):
        game.stakes.with_posts([1], 2)
    for seed in range(100):
        rng = random.Random(seed)
        n = rng.randint(4, 9)
        posts = sorted(rng.sample(range(2, n - 1), rng.randint(1, n - 3)))
        hand = HandState(
            TableGame(game.game, game.stakes.with_posts(posts, n)),
            [rng.choice([1, 2, 3, 40, 200]) for _ in range(n)],
            seed=seed,
        )
        assert [hand.bets[p] for p in posts] == [min(2, hand.starting_stacks[p]) for p in posts]
        while not hand.is_over:
            legal = hand.legal()
            roll = rng.random()
            if legal.raise_min is not None and legal.raise_max is not None and roll < 0.25:
                hand.bet_or_raise_to(rng.randint(legal.raise_min, legal.raise_max))
            elif legal.fold and roll < 0.5:
                hand.fold()
            else:
                hand.check_or_call()
        text = phh.dumps(to_history(hand, players=[f"p{i}" for i in range(n)]))
        assert phh.loads(text).blinds_or_straddles == tuple(hand.stakes.blinds_for(n))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, state = pk.HandHistory.loads(text)
        assert list(state.stacks) == hand.stacks, text
        assert replay(phh.loads(text)).hand.stacks == hand.stacks


def _wait(client: TestClient, tid: str, cookie: str, done: Callable[[Message], bool]) -> Message:
    for _ in range(2000):
        view = get(client, tid, cookie)
        if done(view):
            return view
        time.sleep(0.005)
    raise AssertionError("never reached")


def _check(view: Message) -> str:
    """Check or call; anything else (a showdown, a draw): the default."""
    return "c" if view["legal"]["phase"] == "bet" else str(view["legal"]["default"])


def _between(view: Message) -> bool:
    return view["hand"] is None or bool(view["hand"]["over"])


def _bots_table(client: TestClient, rule: str) -> tuple[str, str]:
    """Six seats: the host in seat 1 sitting out, station bots in seats 2 to 5 playing,
    seat 6 open; a hand has been dealt and the table is paused between hands with the
    button where ``rule``'s newcomer in seat 6 does not come in at once ("wait": not
    the big blind's position) or posts at once ("post")."""
    bots = {str(k): "station" for k in range(2, 6)}
    tid, host = create(
        client,
        game="standard52-holdem",
        seats=6,
        bots=bots,
        new_players=rule,
        stack=1000,
        max_missed=1000,
    )
    r, _ = ask(client, tid, "hal", host)
    assert r.status_code == 200
    url = f"/api/tables/{tid}/ws"
    with client.websocket_connect(url, headers={"cookie": host}) as ws:
        ws.send_json({"type": "sit_out"})
        ws.send_json({"type": "start"})
        _wait(client, tid, host, lambda v: v["table"]["hand_number"] >= 1)
        for _ in range(12):
            post(client, tid, "host", host, {"op": "pause"})
            view = _wait(client, tid, host, lambda v: _between(v) and v["table"]["paused"])
            button = next(s["seat"] for s in view["seats"] if s["button"])
            # seats 2-5 play; seat 6 comes after seat 5: its position when it joins
            order = [(button - 1 + k) % 6 for k in range(1, 7)]
            order = [s for s in order if s in (1, 2, 3, 4, 5)]
            position = order.index(5)
            if (rule == "wait" and position != 1) or (rule == "post" and position in (2, 3)):
                return tid, host
            number = view["table"]["hand_number"]
            post(client, tid, "host", host, {"op": "resume"})
            _wait(client, tid, host, lambda v, n=number: v["table"]["hand_number"] > n)
    raise AssertionError("the button never came round")


def _table_hands(client: TestClient, tid: str) -> list[phh.HandHistory]:
    store = client.app.state.tables.store  # type: ignore[attr-defined]
    records = store.hands(table_id=tid)
    return sorted((phh.loads(r.phh) for r in records), key=lambda h: int(h.hand or 0))


def _play_dave(
    client: TestClient, tid: str, host: str, dave: str, done: Callable[[Message], bool]
) -> list[Message]:
    """Dave checks or calls (and shows) until ``done(dave's view)``; the views where he
    could bet."""
    decisions = []
    with client.websocket_connect(f"/api/tables/{tid}/ws", headers={"cookie": dave}) as ws:
        for _ in range(3000):
            view = get(client, tid, dave)
            if done(view):
                return decisions
            if view["legal"] is not None:
                if view["legal"]["phase"] == "bet":
                    decisions.append(view)
                ws.send_json({"type": "action", "action": _check(view), "turn": view["turn"]})
            time.sleep(0.005)
    raise AssertionError("never reached")


def test_a_new_player_waits_for_the_big_blind(client: TestClient) -> None:
    tid, host = _bots_table(client, "wait")
    joined_at = get(client, tid, host)["table"]["hand_number"]
    r, dave = ask(client, tid, "dave", seat=6)
    assert r.status_code == 200, r.text
    view = get(client, tid, dave)
    assert view["seats"][5]["waiting"] and not view["seats"][1]["waiting"]
    assert "dave waits for the big blind" in view["table"]["status"]
    assert post(client, tid, "host", host, {"op": "resume"}).status_code == 200
    seen_cards: list[list[str]] = []

    def dealt(v: Message) -> bool:
        if v["hand"] is not None and not v["hand"]["over"] and not v["seats"][5]["waiting"]:
            return True
        if v["hand"] is not None and not v["hand"]["over"]:
            seen_cards.append(v["seats"][5]["cards"])
        return False

    _play_dave(client, tid, host, dave, dealt)
    _play_dave(client, tid, host, dave, _between)
    hands = [h for h in _table_hands(client, tid) if int(h.hand or 0) > joined_at]
    first = next(k for k, h in enumerate(hands) if "dave" in (h.players or ()))
    assert first >= 1  # at least one hand went by without dave
    assert all(cards == [] for cards in seen_cards)
    # his first hand: he is the big blind (position 1) and nobody posts more
    hand = hands[first]
    assert hand.players is not None and hand.players[1] == "dave"
    assert list(hand.blinds_or_straddles or ()) == [1, 2, 0, 0, 0]
    assert sum(hand.starting_stacks) == sum(hand.finishing_stacks or ())
    # the host sits back in after missing hands: she waits too
    with client.websocket_connect(f"/api/tables/{tid}/ws", headers={"cookie": host}) as ws:
        ws.send_json({"type": "sit_in"})
        _wait(client, tid, host, lambda v: not v["seats"][0]["sitting_out"])
    assert get(client, tid, host)["seats"][0]["waiting"]
    assert client.get(f"/api/tables/{tid}/ledger").json()["balanced"]


def test_a_new_player_posts_and_the_hand_replays_in_pokerkit(client: TestClient) -> None:
    pk = pytest.importorskip("pokerkit")
    tid, host = _bots_table(client, "post")
    joined_at = get(client, tid, host)["table"]["hand_number"]
    r, dave = ask(client, tid, "dave", seat=6)
    assert r.status_code == 200, r.text
    view = get(client, tid, dave)
    assert view["seats"][5]["waiting"]
    assert "dave waits to post a big blind" in view["table"]["status"]
    assert post(client, tid, "host", host, {"op": "resume"}).status_code == 200
    started: list[Message] = []

    def over(v: Message) -> bool:
        if v["hand"] is not None and v["table"]["hand_number"] == joined_at + 1:
            started.append(v)
        return bool(v["table"]["hand_number"] > joined_at and _between(v))

    decisions = _play_dave(client, tid, host, dave, over)
    assert started and started[0]["seats"][5]["cards"]  # dealt in the next hand
    # the post is his live bet: the station bots call the big blind, so he may check
    first = decisions[0]
    assert first["hand"]["street"] == "pre-flop" and first["legal"]["check"]
    hand = next(h for h in _table_hands(client, tid) if int(h.hand or 0) == joined_at + 1)
    assert hand.players is not None
    position = list(hand.players).index("dave")
    assert 2 <= position <= len(hand.players) - 2
    expected = [1, 2] + [0] * (len(hand.players) - 2)
    expected[position] = -2
    assert list(hand.blinds_or_straddles or ()) == expected
    text = phh.dumps(hand)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = pk.HandHistory.loads(text)
    assert list(state.stacks) == list(hand.finishing_stacks or ()), text
    assert replay(hand).finishing_stacks == list(hand.finishing_stacks or ())
    # the download (as dave sees it) carries the post too
    download = client.get(f"/api/tables/{tid}/hands.phhs", headers={"cookie": dave}).text
    mine = next(h for h in phh.loads_all(download) if h.hand == hand.hand)
    assert list(mine.blinds_or_straddles or ()) == expected


def test_nobody_waits_at_a_new_table_nor_with_one_other_player(client: TestClient) -> None:
    tid, host = create(client, seats=2)
    _, ann = ask(client, tid, "ann", host)
    r, bob = ask(client, tid, "bob")
    assert r.status_code == 200
    view = get(client, tid, ann)
    assert not any(s["waiting"] for s in view["seats"])  # the table had dealt nothing

    def play_until(done: Callable[[Message], bool], cookies: list[str]) -> Message:
        url = f"/api/tables/{tid}/ws"
        with (
            client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
            client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
        ):
            for _ in range(2000):
                views = [get(client, tid, c) for c in cookies]
                if done(views[0]):
                    return views[0]
                for w, v in zip((w0, w1), views, strict=True):
                    if v["legal"] is not None:
                        w.send_json({"type": "action", "action": _check(v), "turn": v["turn"]})
                time.sleep(0.005)
        raise AssertionError("never reached")

    play_until(lambda v: v["table"]["hand_number"] >= 1 and _between(v), [ann, bob])
    post(client, tid, "host", host, {"op": "pause"})
    play_until(_between, [ann, bob])
    assert post(client, tid, "leave", bob, {}).status_code == 200
    r, cy = ask(client, tid, "cy")
    assert r.status_code == 200
    assert get(client, tid, cy)["seats"][1]["waiting"]  # a running table...
    post(client, tid, "host", host, {"op": "resume"})
    # ...but with one other player: dealt in at once
    view = play_until(lambda v: v["hand"] is not None and not v["hand"]["over"], [ann, cy])
    number = view["table"]["hand_number"]
    assert get(client, tid, cy)["seats"][1]["cards"]
    play_until(lambda v: v["table"]["hand_number"] == number and _between(v), [ann, cy])
    hand = next(h for h in _table_hands(client, tid) if h.hand == number)
    assert sorted(hand.players or ()) == ["ann", "cy"]


def test_a_hand_with_a_post_and_a_waiting_seat_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"

    def app() -> Any:
        return create_app(table_store=Store.open(path, synchronous="NORMAL"), limiter=None)

    with TestClient(app()) as c:
        tid, host = _bots_table(c, "post")
        joined_at = get(c, tid, host)["table"]["hand_number"]
        _, dave = ask(c, tid, "dave", seat=6)
        assert get(c, tid, dave)["seats"][5]["waiting"]
        post(c, tid, "host", host, {"op": "resume"})
        view = _wait(c, tid, dave, lambda v: v["legal"] is not None)  # dave to act
        assert view["table"]["hand_number"] == joined_at + 1
        cards, bets = view["seats"][5]["cards"], [s["bet"] for s in view["seats"]]
        assert view["seats"][5]["bet"] == 2 and not view["seats"][5]["waiting"]
    with TestClient(app()) as c:
        again = get(c, tid, dave)
        assert any("resumed after a server restart" in n for n in again["notices"])
        assert again["seats"][5]["cards"] == cards
        assert [s["bet"] for s in again["seats"]] == bets
        assert again["legal"] is not None and again["legal"]["check"]
        _play_dave(c, tid, host, dave, _between)
        hand = next(h for h in _table_hands(c, tid) if h.hand == joined_at + 1)
        assert hand.players is not None and -2 in (hand.blinds_or_straddles or ())
        assert replay(hand).finishing_stacks == list(hand.finishing_stacks or ())
    # a seat that waits stays waiting across a restart; the hands read back keep the post
    with TestClient(app()) as c:
        download = c.get(f"/api/tables/{tid}/hands.phhs", headers={"cookie": host}).text
        mine = next(h for h in phh.loads_all(download) if h.hand == joined_at + 1)
        assert -2 in (mine.blinds_or_straddles or ())
        post(c, tid, "host", host, {"op": "pause"})
        _wait(c, tid, host, _between)
        assert post(c, tid, "leave", dave, {}).status_code == 200
        _, eve = ask(c, tid, "eve", seat=6)
        assert get(c, tid, eve)["seats"][5]["waiting"]
    with TestClient(app()) as c:
        assert get(c, tid, eve)["seats"][5]["waiting"]
