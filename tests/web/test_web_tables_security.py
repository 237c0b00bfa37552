"""The web tables against people who would cheat, peek or flood, on the real app.

Each test plays the attacker (a page on another site, a second browser, a client
sending too much) or checks a promise of the hardening ("Tables nobody can cheat, peek
at or flood"): cross-site refusals, practice tables, private tables, one seat per
browser, leaving and closing with every chip accounted for, names, rate limits, idle
tables, and fair dealing from the client seeds to ``cardlab verify``. The guard's own
unit tests are in test_web_guard.py; these go through :func:`create_app`.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
import warnings
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.websockets import WebSocketDisconnect

with warnings.catch_warnings():  # starlette >= 1 would rather have httpx2
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from cardlab.cli import main as cardlab_main
from cardlab.store import Store
from cardlab.table import phh
from cardlab.table.dealing import verify_deal
from cardlab.table.phh_actions import join_cards, split_cards
from cardlab.web import create_app
from cardlab.web.guard import Limit, RateLimiter

T = TypeVar("T")
Message = dict[str, Any]
Headers = dict[str, str]

OWN = "http://testserver"  # the TestClient's own origin
EVIL = "https://evil.example"
# heads-up hold'em, blinds 1/2, no clock, no pause, bots at once
BASE: dict[str, Any] = {
    "game": "fesca78-holdem",
    "seats": 2,
    "stack": 100,
    "clock": 0,
    "pause": 0,
    "bot_delay": 0,
}


# --- helpers ---------------------------------------------------------------------------


def browser() -> Headers:
    """The headers of a new browser: its own secret ``cardlab_id`` cookie."""
    return {"cookie": f"cardlab_id={secrets.token_urlsafe(32)}"}


def get(client: TestClient, url: str, who: Headers | None = None) -> Any:
    client.cookies.clear()  # only the cookie a call names is sent
    return client.get(url, headers=who)


def post(
    client: TestClient, url: str, body: Any = None, who: Headers | None = None, **headers: str
) -> Any:
    client.cookies.clear()
    return client.post(url, json={} if body is None else body, headers=(who or {}) | headers)


def create(client: TestClient, who: Headers | None = None, **fields: Any) -> str:
    r = post(client, "/api/tables", BASE | fields, who)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def join(client: TestClient, tid: str, name: str, who: Headers, **extra: Any) -> int:
    r = post(client, f"/api/tables/{tid}/join", {"name": name} | extra, who)
    assert r.status_code == 200, r.text
    return int(r.json()["seat"])


def state(client: TestClient, tid: str, who: Headers | None = None) -> Message:
    r = get(client, f"/api/tables/{tid}", who)
    assert r.status_code == 200, r.text
    return dict(r.json())


def ws_url(tid: str) -> str:
    return f"/api/tables/{tid}/ws"


def connect(client: TestClient, tid: str, who: Headers | None = None, **headers: str) -> Any:
    client.cookies.clear()
    return client.websocket_connect(ws_url(tid), headers=(who or {}) | headers)


def eventually(check: Callable[[], T], timeout: float = 10.0, what: str = "") -> T:
    """``check()`` once it is truthy (the server's tasks run in the portal's thread)."""
    deadline = time.monotonic() + timeout
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or check}")
        time.sleep(0.005)


def replies(ws: Any, count: int) -> list[Message]:
    """The next ``count`` messages that are not state broadcasts (errors, pongs)."""
    out: list[Message] = []
    while len(out) < count:
        m: Message = ws.receive_json()
        if m.get("type") != "state":
            out.append(m)
    return out


def handled(ws: Any) -> None:
    """Wait until the server has handled every message sent on ``ws`` (a ping answered
    in order); an error answered meanwhile fails the test."""
    ws.send_json({"type": "ping"})
    (m,) = replies(ws, 1)
    assert m == {"type": "pong"}, m


def act(ws: Any, action: str, turn: int) -> None:
    ws.send_json({"type": "action", "action": action, "turn": turn})
    handled(ws)


def ledger(store: Store, tid: str) -> list[tuple[str, str, int]]:
    return [(e.player, e.kind, e.amount) for e in store.ledger(tid)]


def between_hands(client: TestClient, tid: str, hand: int, who: Headers | None = None) -> Message:
    """The state once hand ``hand`` is over and the next is not dealt (a long pause)."""

    def over() -> Message | None:
        m = state(client, tid, who)
        done = m["last"] is not None and m["last"]["hand"] == hand
        return m if done and "is over" in m["table"]["status"] else None

    return eventually(over, what=f"the end of hand {hand}")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@pytest.fixture
def store() -> Store:
    return Store.in_memory()


@pytest.fixture
def app(store: Store) -> Any:
    return create_app(table_store=store, limiter=None)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


# --- 1. cross-site ---------------------------------------------------------------------


def test_cross_site_writes_create_and_seat_nothing(client: TestClient, app: Any) -> None:
    r = post(client, "/api/tables", BASE | {"public": True}, origin=EVIL)
    assert r.status_code == 403, r.text
    assert "cross-site" in r.json()["error"]
    assert get(client, "/api/tables").json() == {"tables": []}
    assert app.state.tables.rooms == {}

    host, ann, visitor = browser(), browser(), browser()
    tid = create(client, host, seats=3, public=True)
    join(client, tid, "ann", ann)
    url = f"/api/tables/{tid}"
    # a page elsewhere seats its visitor, unseats a player, closes the host's table
    for who, path, extra in [
        (visitor, "/join", {"origin": EVIL}),
        (visitor, "/join", {"origin": "null"}),
        (visitor, "/join", {"sec-fetch-site": "cross-site"}),
        (ann, "/leave", {"origin": EVIL}),
        (host, "/close", {"origin": EVIL}),
    ]:
        r = post(client, url + path, {"name": "mallory", "now": True}, who, **extra)
        assert r.status_code == 403, (path, extra, r.text)
    seen = state(client, tid, visitor)
    assert seen["you"] is None
    assert [s["kind"] for s in seen["seats"]] == ["human", "open", "open"]
    assert seen["table"]["closed"] is False
    assert state(client, tid, ann)["you"] == {"seat": 1, "name": "ann"}
    assert [t["open_seats"] for t in get(client, "/api/tables").json()["tables"]] == [2]
    # the same requests from the server's own pages go through
    r = post(client, url + "/join", {"name": "vic"}, visitor, origin=OWN)
    assert r.status_code == 200 and r.json()["seat"] == 2
    # a cross-site read gets no CORS grant, so the page cannot read the answer
    r = client.get(url, headers=ann | {"origin": EVIL})
    assert "access-control-allow-origin" not in {k.lower() for k in r.headers}


def test_csrf_content_types_are_refused(client: TestClient, app: Any) -> None:
    body = json.dumps(BASE | {"public": True})
    # what a form or a no-preflight fetch can send: text/plain, a form, multipart
    r = client.post("/api/tables", content=body, headers={"content-type": "text/plain"})
    assert r.status_code == 415, r.text
    r = client.post("/api/tables", data={"game": "fesca78-holdem", "seats": "2"})
    assert r.status_code == 415, r.text
    r = client.post("/api/tables", files={"f": ("x.json", body, "application/json")})
    assert r.status_code == 415, r.text
    assert app.state.tables.rooms == {}
    assert get(client, "/api/tables").json() == {"tables": []}
    tid = create(client, public=True)
    who = browser()
    client.cookies.clear()
    r = client.post(
        f"/api/tables/{tid}/join",
        content='{"name": "ann"}',
        headers=who | {"content-type": "text/plain;charset=UTF-8"},
    )
    assert r.status_code == 415, r.text
    assert state(client, tid, who)["you"] is None


def test_websocket_origin(client: TestClient, app: Any) -> None:
    tid = create(client)
    for origin in (EVIL, "null", "http://testserver.evil.example", "https://testserver"):
        with pytest.raises(WebSocketDisconnect) as refused, connect(client, tid, origin=origin):
            pass
        assert refused.value.code == 4403, origin
    assert len(app.state.tables.rooms[tid].audience) == 0
    with connect(client, tid, origin=OWN) as ws:
        m = ws.receive_json()
        assert m["type"] == "state" and m["table"]["id"] == tid


def test_foreign_origin_with_a_seat_cookie_reads_no_cards(client: TestClient, app: Any) -> None:
    tid = create(client)
    ann, bob = browser(), browser()
    join(client, tid, "ann", ann)
    join(client, tid, "bob", bob)
    mine = eventually(lambda: state(client, tid, ann)["seats"][0]["cards"], what="a deal")
    assert len(mine) == 2 and "??" not in mine
    # the visitor's browser sends its cookie along with the foreign page's handshake
    with pytest.raises(WebSocketDisconnect) as refused, connect(client, tid, ann, origin=EVIL):
        raise AssertionError("the handshake was accepted")  # pragma: no cover
    assert refused.value.code == 4403
    assert len(app.state.tables.rooms[tid].audience) == 0


def test_allowed_origins_let_that_origin_through() -> None:
    app = create_app(
        table_store=Store.in_memory(), limiter=None, allowed_origins=["https://poker.example"]
    )
    friend = "https://poker.example"
    with TestClient(app) as client:
        r = post(client, "/api/tables", BASE, origin=friend)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        who = browser()
        r = post(client, f"/api/tables/{tid}/join", {"name": "ann"}, who, origin=friend)
        assert r.status_code == 200, r.text
        with connect(client, tid, who, origin=friend) as ws:
            assert ws.receive_json()["you"] == {"seat": 1, "name": "ann"}
        # only that origin: not its subdomains, other schemes or look-alikes
        for origin in (
            "http://poker.example",
            "https://poker.example.evil.example",
            "https://evil.poker.example",
            EVIL,
        ):
            r = post(client, "/api/tables", BASE, origin=origin)
            assert r.status_code == 403, origin
            with pytest.raises(WebSocketDisconnect), connect(client, tid, origin=origin):
                pass
        assert list(app.state.tables.rooms) == [tid]


# --- 2. practice tables ----------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"seats": 2},
        {"seats": 3, "bots": {"3": "station"}},
        {"seats": 6, "bots": {"2": "random", "3": "random", "4": "random", "5": "random"}},
    ],
)
def test_seed_only_on_a_practice_table(
    client: TestClient, app: Any, fields: dict[str, Any]
) -> None:
    r = post(client, "/api/tables", BASE | fields | {"seed": 12345})
    assert r.status_code == 400, r.text
    assert "practice" in r.json()["error"]
    assert app.state.tables.rooms == {}


def test_practice_table_seats_only_its_creator(client: TestClient, store: Store) -> None:
    creator, other = browser(), browser()
    body = BASE | {"bots": {"2": "station"}, "seed": 12345, "clock": 0.01, "pause": 30}
    r = post(client, "/api/tables", body, creator)
    assert r.status_code == 201, r.text
    assert r.json()["practice"] is True
    tid = r.json()["id"]
    # the deals follow from the number (docs/fair-dealing.md): sha256 of the seed text
    server_seed = hashlib.sha256(b"cardlab practice table seed 12345").digest()
    seen = state(client, tid, other)
    assert seen["table"]["practice"] is True and seen["fair"]["practice"] is True
    assert seen["fair"]["commitment"] == sha256_hex(server_seed)
    assert "seed" not in seen["table"]["config"] and "12345" not in json.dumps(seen)
    # nobody but the creator sits down, even with the seat open
    r = post(client, f"/api/tables/{tid}/join", {"name": "bob"}, other)
    assert r.status_code == 400 and "practice" in r.json()["error"]
    assert state(client, tid, other)["table"]["open_seats"] == 1
    # the creator plays a hand (the clock plays for them); its PHH says practice
    assert join(client, tid, "ann", creator) == 1
    between_hands(client, tid, 1, creator)
    (record,) = store.hands(table_id=tid)
    assert "_practice = true" in record.phh
    text = get(client, f"/api/tables/{tid}/hands.phhs", creator).text
    assert "_practice = true" in text
    (hand,) = phh.loads_all(text)
    assert hand.user_fields["_practice"] is True and verify_deal(hand).practice
    # still nobody else, now that the table is playing
    r = post(client, f"/api/tables/{tid}/join", {"name": "bob"}, other)
    assert r.status_code == 400


def test_practice_tables_with_one_seed_deal_alike(client: TestClient) -> None:
    cards = []
    for _ in range(2):
        creator = browser()
        tid = create(client, creator, bots={"2": "station"}, seed=777)
        join(client, tid, "ann", creator)
        seat = eventually(lambda t=tid, c=creator: state(client, t, c)["seats"][0]["cards"])
        cards.append(seat)
    assert cards[0] == cards[1]
    assert len(cards[0]) == 2 and "??" not in cards[0]


def test_fair_tables_do_not_share_a_commitment(client: TestClient) -> None:
    tables = [create(client) for _ in range(3)] + [
        create(client, browser(), bots={"2": "station"}, seed=5)
    ]
    promises = [state(client, tid)["fair"]["commitment"] for tid in tables]
    assert all(re.fullmatch(r"[0-9a-f]{64}", p) for p in promises)
    assert len(set(promises)) == 4
    practice = sha256_hex(hashlib.sha256(b"cardlab practice table seed 5").digest())
    assert promises[3] == practice


# --- 3. private by default ---------------------------------------------------------------


def test_tables_are_private_unless_asked(client: TestClient) -> None:
    hidden = create(client)  # no "public": only its link finds it
    listed = create(client, public=True)
    lobby = get(client, "/api/tables")
    assert [t["id"] for t in lobby.json()["tables"]] == [listed]
    assert hidden not in lobby.text
    assert state(client, hidden)["table"]["public"] is False
    assert get(client, f"/tables/{hidden}").status_code == 200
    assert get(client, f"/api/tables/{hidden}/hands.phhs").status_code == 200
    ids = [hidden, listed] + [create(client) for _ in range(10)]
    for tid in ids:  # 16 random bytes in URL-safe base64: 22 characters
        assert re.fullmatch(r"[A-Za-z0-9_-]{22,}", tid), tid
    assert len(set(ids)) == len(ids)
    # a guess near a real id finds nothing
    near = hidden[:-1] + ("A" if hidden[-1] != "A" else "B")
    assert get(client, f"/api/tables/{near}").status_code == 404


# --- 4. seats: one per browser; leaving ---------------------------------------------------


def test_one_browser_one_seat(client: TestClient, store: Store) -> None:
    tid = create(client, seats=4)
    ann = browser()
    first = post(client, f"/api/tables/{tid}/join", {"name": "ann"}, ann).json()
    again = post(client, f"/api/tables/{tid}/join", {"name": "ann2", "seat": 3}, ann).json()
    assert first == again == {"seat": 1, "name": "ann"}
    # two joins at once from one browser (a double click): neither waits for the other
    bob = browser()
    url = f"/api/tables/{tid}/join"
    client.cookies.clear()
    with ThreadPoolExecutor(4) as pool:
        answers = list(
            pool.map(
                lambda k: client.post(url, json={"name": f"bob{k}", "seat": k + 2}, headers=bob),
                range(3),
            )
        )
    assert all(r.status_code == 200 for r in answers), [r.text for r in answers]
    assert len({(r.json()["seat"], r.json()["name"]) for r in answers}) == 1
    seen = state(client, tid, bob)
    assert seen["table"]["open_seats"] == 2
    assert [s["kind"] for s in seen["seats"]].count("human") == 2
    assert seen["you"] == answers[0].json()
    assert [kind for _, kind, _ in ledger(store, tid)] == ["buy-in", "buy-in"]


def test_leave_between_hands(client: TestClient, store: Store) -> None:
    # the clock folds the small blind at once; then a long pause
    tid = create(client, clock=0.01, pause=30)
    ann, bob = browser(), browser()
    join(client, tid, "ann", ann)
    join(client, tid, "bob", bob)
    before = between_hands(client, tid, 1, ann)
    stacks = {s["name"]: s["stack"] for s in before["seats"]}
    assert sorted(stacks.values()) == [99, 101]  # the small blind (1) folded
    r = post(client, f"/api/tables/{tid}/leave", None, ann)
    assert r.status_code == 200 and r.json() == {"left": True}
    after = state(client, tid, ann)
    assert after["you"] is None
    assert after["seats"][0]["kind"] == "open" and after["table"]["open_seats"] == 1
    assert ledger(store, tid) == [
        ("ann", "buy-in", 100),
        ("bob", "buy-in", 100),
        ("ann", "cash-out", stacks["ann"]),
    ]
    # the old cookie acts no more: no second cash-out, no action
    r = post(client, f"/api/tables/{tid}/leave", None, ann)
    assert r.status_code == 400
    with connect(client, tid, ann) as ws:
        assert ws.receive_json()["you"] is None
        ws.send_json({"type": "leave"})
        ws.send_json({"type": "start"})
        errors = replies(ws, 2)
        assert all(e["type"] == "error" for e in errors), errors
    assert len(store.ledger(tid)) == 3
    # chips: what came in is what went out plus what is on the table
    on_table = sum(s["stack"] for s in state(client, tid)["seats"])
    assert on_table + stacks["ann"] == 200


def test_leave_during_a_hand(client: TestClient, store: Store) -> None:
    tid = create(client, pause=30)  # no clock: a person's decision waits for them
    ann, bob = browser(), browser()
    join(client, tid, "ann", ann)
    join(client, tid, "bob", bob)
    m = eventually(lambda: state(client, tid, ann)["hand"], what="a deal")
    assert m is not None
    # heads-up the button posts the small blind and acts first: the other one leaves
    to_act = {
        name: state(client, tid, who)["legal"] is not None
        for name, who in (("ann", ann), ("bob", bob))
    }
    stayer, leaver = ("ann", "bob") if to_act["ann"] else ("bob", "ann")
    who = {"ann": ann, "bob": bob}
    r = post(client, f"/api/tables/{tid}/leave", None, who[leaver])
    assert r.status_code == 200
    seen = state(client, tid, who[stayer])
    seat = next(s for s in seen["seats"] if s["name"] == leaver)
    assert seat["leaving"] is True and seat["kind"] == "human"
    assert seen["hand"] is not None and not seen["hand"]["over"]
    assert state(client, tid, who[leaver])["you"] is None  # the cookie is dead at once
    # a newcomer cannot take the seat while its hand is on
    r = post(client, f"/api/tables/{tid}/join", {"name": "cy"}, browser())
    assert r.status_code == 400
    with connect(client, tid, who[stayer]) as ws:
        # call; the leaver's free option is checked, then the flop checked for them;
        # the stayer bets and the leaver, facing a bet, is folded
        for step in range(2):
            m = eventually(lambda: state(client, tid, who[stayer])["legal"], what="a turn")
            now = state(client, tid, who[stayer])
            action = "c" if step == 0 else f"r {m['raise_min']}"
            act(ws, action, now["turn"])
        done = eventually(lambda: state(client, tid, who[stayer])["last"], what="the end")
    assert done["hand"] == 1
    (record,) = store.hands(table_id=tid)
    position = record.players.index(leaver) + 1
    history = phh.loads(record.phh)
    theirs = [str(a) for a in history.actions if str(a).startswith(f"p{position} ")]
    assert theirs == [f"p{position} cc", f"p{position} cc", f"p{position} f"]
    after = state(client, tid, who[stayer])
    seat = after["seats"][0 if leaver == "ann" else 1]
    assert seat["kind"] == "open" and not seat["leaving"]
    # the leaver put in the big blind (2) and nothing more
    assert ledger(store, tid)[-1] == (leaver, "cash-out", 98)
    assert sum(s["stack"] for s in after["seats"]) + 98 == 200
    assert join(client, tid, "cy", browser()) == (1 if leaver == "ann" else 2)


# --- 5. names ------------------------------------------------------------------------------

REFUSED_NAMES = [
    "\u202eann",  # right-to-left override
    "an\u200dn",  # zero-width joiner
    "an\u200bn",  # zero-width space
    "\u2066ann\u2069",  # an isolate
    "ann\x00",
    "ann\x1b[31m",
    "ann\x7f",
    "station bot 5",  # a bot's label
    "Bot",
    "random-bot",
    "BOTS",
    "ｂｏｔ",  # full-width
    "the_bot",
    "",
    "   ",
    "x" * 25,
]


def test_names(client: TestClient) -> None:
    tid = create(client, seats=4)
    url = f"/api/tables/{tid}/join"
    assert post(client, url, {"name": "  Ann   Lee "}, browser()).json()["name"] == "Ann Lee"
    # one name per table, whatever the case or width
    for twin in ("ann lee", "ANN LEE", "ａｎｎ ｌｅｅ", " Ann Lee"):
        r = post(client, url, {"name": twin}, browser())
        assert r.status_code == 400, twin
        assert "taken" in r.json()["error"]
    for name in REFUSED_NAMES:
        r = post(client, url, {"name": name}, browser())
        assert r.status_code == 400, repr(name)
        assert "error" in r.json()
    r = post(client, url, {"name": 7}, browser())
    assert r.status_code == 400
    assert state(client, tid)["table"]["open_seats"] == 3
    # words that merely hold "bot" are names
    for name in ("Abbott", "Robotnik", "Talbot"):
        r = post(client, url, {"name": name}, browser())
        assert r.status_code == 200, (name, r.text)
    names = [s["name"] for s in state(client, tid)["seats"]]
    assert names == ["Ann Lee", "Abbott", "Robotnik", "Talbot"]


def test_look_alike_names(client: TestClient) -> None:
    tid = create(client, seats=3)
    url = f"/api/tables/{tid}/join"
    assert post(client, url, {"name": "Ann"}, browser()).status_code == 200
    cyrillic_o, cyrillic_a = "\u043e", "\u0410"
    assert post(client, url, {"name": f"station b{cyrillic_o}t 2"}, browser()).status_code == 400
    assert post(client, url, {"name": f"{cyrillic_a}nn"}, browser()).status_code == 400


# --- 6. the host ---------------------------------------------------------------------------


def host_cookie(response: Any) -> Headers:
    """The browser secret a create answer set (the caller had none)."""
    token = response.cookies["cardlab_id"]
    assert "httponly" in response.headers["set-cookie"].lower()
    return {"cookie": f"cardlab_id={token}"}


def test_only_the_host_closes(client: TestClient, store: Store) -> None:
    r = post(client, "/api/tables", BASE | {"clock": 0.01, "pause": 30})
    assert r.status_code == 201 and r.json()["host"] is True
    tid, host = r.json()["id"], host_cookie(r)
    bob, stranger = browser(), browser()
    assert state(client, tid, host)["host"] is True
    assert state(client, tid, stranger)["host"] is False
    assert state(client, tid)["host"] is False
    with connect(client, tid, host) as ws:
        assert ws.receive_json()["host"] is True
    join(client, tid, "ann", host)
    join(client, tid, "bob", bob)
    before = between_hands(client, tid, 1, host)
    stacks = {s["name"]: s["stack"] for s in before["seats"]}
    for who in (bob, stranger, {}):
        r = post(client, f"/api/tables/{tid}/close", {"now": True}, who)
        assert r.status_code == 403, r.text
    assert state(client, tid)["table"]["closed"] is False
    r = post(client, f"/api/tables/{tid}/close", {}, host)
    assert r.status_code == 200 and r.json() == {"closed": True, "closing": False}
    # the host (and those who sat) still read it; nobody else, and nobody joins
    for path in ("", "/hands.phhs"):
        assert get(client, f"/api/tables/{tid}{path}", host).status_code == 200
        assert get(client, f"/api/tables/{tid}{path}", stranger).status_code == 404
    assert post(client, f"/api/tables/{tid}/join", {"name": "cy"}, browser()).status_code == 404
    with connect(client, tid, host) as ws:  # the last state, then the socket ends
        assert ws.receive_json()["table"]["closed"] is True
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    with pytest.raises(WebSocketDisconnect) as gone, connect(client, tid, stranger):
        pass
    assert gone.value.code == 4404
    assert tid in {t.table_id for t in store.tables(closed=True)}
    assert tid not in {t.table_id for t in store.tables()}
    # the hands stay, now with the seed revealed, and check out
    records = store.hands(table_id=tid)
    assert len(records) == 1
    for record in records:
        history = phh.loads(record.phh)
        seed = history.user_fields["_server_seed"]
        assert sha256_hex(bytes.fromhex(seed)) == history.user_fields["_commitment"]
        assert verify_deal(history).status == "verified", verify_deal(history)
    assert sorted(ledger(store, tid)[2:]) == sorted(
        (name, "cash-out", stack) for name, stack in stacks.items()
    )


def start_heads_up(client: TestClient, seats: int = 2) -> tuple[str, Headers, Headers]:
    """A table hosted by ann, with ann and bob seated and the first hand dealt."""
    r = post(client, "/api/tables", BASE | {"seats": seats})
    tid, ann = r.json()["id"], host_cookie(r)
    bob = browser()
    join(client, tid, "ann", ann)
    join(client, tid, "bob", bob)
    if seats > 2:
        with connect(client, tid, ann) as ws:
            ws.send_json({"type": "start"})
            handled(ws)
    eventually(lambda: state(client, tid, ann)["hand"], what="the first deal")
    return tid, ann, bob


def actor(client: TestClient, tid: str, players: list[Headers]) -> tuple[Headers, Message]:
    """The player whose turn it is, and what they see."""

    def find() -> tuple[Headers, Message] | None:
        for who in players:
            m = state(client, tid, who)
            if m["legal"] is not None:
                return who, m
        return None

    return eventually(find, what="a player to act")


def test_close_during_a_hand_waits_for_its_end(client: TestClient, store: Store) -> None:
    tid, ann, bob = start_heads_up(client, seats=3)
    r = post(client, f"/api/tables/{tid}/close", {}, ann)
    assert r.status_code == 200 and r.json() == {"closed": False, "closing": True}
    seen = state(client, tid, bob)
    assert seen["table"]["closing"] is True and seen["hand"] is not None
    assert "closes after this hand" in seen["table"]["status"]
    r = post(client, f"/api/tables/{tid}/join", {"name": "cy"}, browser())
    assert r.status_code == 400 and "closed" in r.json()["error"]
    who, m = actor(client, tid, [ann, bob])
    with connect(client, tid, who) as ws:
        act(ws, "f", m["turn"])  # the small blind folds: the hand is over
    eventually(lambda: get(client, f"/api/tables/{tid}").status_code == 404, what="the close")
    assert len(store.hands(table_id=tid)) == 1
    assert store.live_hand(tid) is None
    assert sorted(amount for _, kind, amount in ledger(store, tid) if kind == "cash-out") == [
        99,
        101,
    ]


def test_close_now_returns_every_chip(client: TestClient, store: Store) -> None:
    tid, ann, bob = start_heads_up(client)
    who, m = actor(client, tid, [ann, bob])
    with connect(client, tid, who) as ws:
        act(ws, "f", m["turn"])  # hand 1: the small blind folds (99 / 101)
    m = eventually(
        lambda: (s := state(client, tid, ann))["table"]["hand_number"] == 2 and s["hand"] and s,
        what="hand 2",
    )
    (first,) = store.hands(table_id=tid)
    before = dict(zip(first.players, first.finishing_stacks, strict=True))
    assert sorted(before.values()) == [99, 101]
    who, m = actor(client, tid, [ann, bob])
    with connect(client, tid, who) as ws:
        act(ws, f"r {m['legal']['raise_min']}", m["turn"])
    assert state(client, tid, ann)["hand"]["total_pot"] > 3  # more than the blinds
    r = post(client, f"/api/tables/{tid}/close", {"now": True}, ann)
    assert r.status_code == 200 and r.json() == {"closed": True, "closing": False}
    assert get(client, f"/api/tables/{tid}").status_code == 404
    assert store.live_hand(tid) is None
    assert len(store.hands(table_id=tid)) == 1  # the cancelled hand is not a hand
    cash_out = {p: amount for p, kind, amount in ledger(store, tid) if kind == "cash-out"}
    assert cash_out == before
    assert verify_deal(phh.loads(store.hands(table_id=tid)[0].phh)).status == "verified"


# --- 7. limits ----------------------------------------------------------------------------


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def limited_app(clock: FakeClock, **limits: Limit) -> Any:
    every = {
        "create": Limit(3, 60.0),
        "join": Limit(2, 60.0),
        "message": Limit(4, 1.0),
        "request": Limit(10_000, 1.0),
    }
    limiter = RateLimiter(every | limits, clock=clock)
    return create_app(table_store=Store.in_memory(), limiter=limiter)


def peer(client: TestClient, address: str) -> TestClient:
    """Another client (its own address) of the running app, on the same event loop."""
    other = TestClient(client.app, client=(address, 40000))
    other.portal = client.portal  # no second lifespan: the same tables, the same loop
    return other


def test_create_flood_is_limited_per_client() -> None:
    clock = FakeClock()
    app = limited_app(clock)
    with TestClient(app) as client:
        for _ in range(3):
            create(client)
        r = post(client, "/api/tables", BASE)
        assert r.status_code == 429, r.text
        assert r.headers["retry-after"] == "20"  # 3 per 60 s: one back every 20 s
        assert r.json()["retry_after"] == 20
        assert len(app.state.tables.rooms) == 3
        # a made-up forwarding header is no new client (trust_forwarded is off)
        r = post(client, "/api/tables", BASE, **{"x-forwarded-for": "10.9.9.9"})
        assert r.status_code == 429
        # another address is
        r = post(peer(client, "10.0.0.2"), "/api/tables", BASE)
        assert r.status_code == 201, r.text
        assert len(app.state.tables.rooms) == 4
        clock.now += 20
        create(client)
        assert post(client, "/api/tables", BASE).status_code == 429


def test_forwarded_clients_are_told_apart_only_when_trusted() -> None:
    clock = FakeClock()
    limiter = RateLimiter(
        {"create": Limit(1, 60.0), "request": Limit(10_000, 1.0)},
        clock=clock,
    )
    app = create_app(table_store=Store.in_memory(), limiter=limiter, trust_forwarded=True)
    with TestClient(app) as client:
        for address in ("10.0.0.1", "10.0.0.2"):
            r = post(client, "/api/tables", BASE, **{"x-forwarded-for": address})
            assert r.status_code == 201, r.text
        r = post(client, "/api/tables", BASE, **{"x-forwarded-for": "10.0.0.1"})
        assert r.status_code == 429


def test_join_flood_is_limited() -> None:
    clock = FakeClock()
    app = limited_app(clock)
    with TestClient(app) as client:
        tid = create(client, seats=4)
        join(client, tid, "ann", browser())
        join(client, tid, "bob", browser())
        late = browser()
        r = post(client, f"/api/tables/{tid}/join", {"name": "cy"}, late)
        assert r.status_code == 429 and r.headers["retry-after"] == "30"
        assert state(client, tid, late)["you"] is None
        assert state(client, tid)["table"]["open_seats"] == 2
        clock.now += 30
        assert join(client, tid, "cy", late) == 3


def test_websocket_flood_gets_errors_and_the_socket_lives() -> None:
    clock = FakeClock()
    app = limited_app(clock)
    with TestClient(app) as client:
        tid = create(client, seats=3)
        ann = browser()
        join(client, tid, "ann", ann)
        join(client, tid, "bob", browser())
        with connect(client, tid, ann) as ws:
            for _ in range(4):
                ws.send_json({"type": "ping"})
            ws.send_json({"type": "start"})  # over the budget: refused, changes nothing
            ws.send_json({"type": "ping"})
            got = replies(ws, 6)
            assert got[:4] == [{"type": "pong"}] * 4
            for error in got[4:]:
                assert error["type"] == "error" and "too many" in error["message"]
                assert error["retry_after"] == 0.25  # 4 a second: one back every 0.25 s
            assert state(client, tid, ann)["table"]["started"] is False
            clock.now += 0.25
            ws.send_json({"type": "start"})
            eventually(lambda: state(client, tid, ann)["table"]["started"], what="a start")
            clock.now += 1
            handled(ws)


def test_table_limit_counts_live_tables() -> None:
    app = create_app(table_store=Store.in_memory(), limiter=None, tables={"max_tables": 2})
    with TestClient(app) as client:
        hosts = []
        for _ in range(2):
            r = post(client, "/api/tables", BASE)
            assert r.status_code == 201
            hosts.append((r.json()["id"], host_cookie(r)))
        r = post(client, "/api/tables", BASE)
        assert r.status_code in (400, 429, 503) and "limit" in r.json()["error"]
        assert len(app.state.tables.rooms) == 2
        tid, host = hosts[0]
        assert post(client, f"/api/tables/{tid}/close", {}, host).json()["closed"] is True
        create(client)
        assert post(client, "/api/tables", BASE).status_code in (400, 429, 503)


# --- 8. idle tables and tables of bots -------------------------------------------------------


def test_idle_tables_without_people_close(store: Store) -> None:
    app = create_app(
        table_store=store, limiter=None, tables={"idle_close": 0.2, "janitor_every": 3600}
    )
    manager = app.state.tables
    with TestClient(app) as client:
        lone = create(client, seats=3, bots={"3": "station"})
        seated = create(client, seats=3, bots={"3": "station"})
        join(client, seated, "ann", browser())
        watched = create(client, seats=3, bots={"3": "station"})
        assert client.portal.call(manager.sweep) == []  # not idle long enough yet
        with connect(client, watched) as ws:
            ws.receive_json()
            time.sleep(0.3)
            assert client.portal.call(manager.sweep) == [lone]
        assert get(client, f"/api/tables/{lone}").status_code == 404
        assert lone in {t.table_id for t in store.tables(closed=True)}
        for tid in (seated, watched):
            assert state(client, tid)["table"]["closed"] is False
        # once nobody watches, the table with nobody seated goes too
        time.sleep(0.3)
        assert client.portal.call(manager.sweep) == [watched]
        assert state(client, seated)["table"]["closed"] is False


def test_bots_alone_stop_after_bot_hands(store: Store) -> None:
    app = create_app(table_store=store, limiter=None, tables={"bot_hands": 3})
    with TestClient(app) as client:
        tid = create(client, bots={"1": "station", "2": "station"})
        m = eventually(lambda: "paused" in (s := state(client, tid))["table"]["status"] and s)
        assert m["table"]["hand_number"] == 3
        assert m["hand"] is None or m["hand"]["over"]
        time.sleep(0.2)
        assert len(store.hands(table_id=tid)) == 3
        assert "paused" in state(client, tid)["table"]["status"]
        with connect(client, tid) as ws:
            ws.receive_json()
            eventually(lambda: len(store.hands(table_id=tid)) >= 5, what="more hands")


# --- 9. fair dealing, end to end ---------------------------------------------------------


class Player:
    """A seated person's browser: its cookie, its WebSocket and the client seeds sent."""

    def __init__(self, name: str, who: Headers, ws: Any) -> None:
        self.name = name
        self.who = who
        self.ws = ws
        self.sent: dict[int, str] = {}  # deal number -> the client seed sent for it

    def offer_seed(self, client: TestClient, tid: str) -> None:
        """Send a client seed for the next deal, once, as the table page does."""
        deal = state(client, tid, self.who)["fair"]["next_deal"]
        if deal not in self.sent:
            self.sent[deal] = f"{self.name}-{deal}-{secrets.token_hex(8)}"
            self.ws.send_json({"type": "client_seed", "deal": deal, "seed": self.sent[deal]})
            handled(self.ws)


def play_until(client: TestClient, tid: str, players: list[Player], hands: int) -> Message:
    """Check or call (show at a showdown) for every person, each sending its client seed
    for every deal, until hand ``hands`` is over; the last state seen."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        for p in players:
            p.offer_seed(client, tid)
        for p in players:
            m = state(client, tid, p.who)
            if m["last"] is not None and m["last"]["hand"] >= hands:
                return m
            if m["legal"] is not None:
                act(p.ws, "s" if m["legal"]["phase"] == "showdown" else "c", m["turn"])
        time.sleep(0.002)
    raise AssertionError(f"hand {hands} did not end")


def seat_seeds(history: phh.HandHistory, players: list[Player]) -> list[str]:
    """The client seeds each position's seat sent for the hand's deal (a bot: "")."""
    deal = history.user_fields["_deal_number"]
    by_seat = {k + 1: p for k, p in enumerate(players)}
    return [
        by_seat[s].sent.get(deal, "") if s in by_seat else "" for s in history.user_fields["_seats"]
    ]


def cli_verify(path: Path, capsys: Any, *options: str) -> tuple[int, str]:
    """``cardlab verify PATH``: its exit code and what it printed."""
    try:
        cardlab_main(["verify", str(path), *options])
        code = 0
    except SystemExit as exit_:
        code = int(exit_.code or 0)
    return code, capsys.readouterr().out


def section(text: str, hand: int) -> tuple[int, int]:
    """Where hand ``hand`` ([n]) of a .phhs text starts and ends."""
    start = text.index(f"[{hand}]\n")
    end = text.find(f"\n[{hand + 1}]\n", start)
    return start, len(text) if end < 0 else end


def tampered(text: str, hand: int, old: str, new: str) -> str:
    start, end = section(text, hand)
    part = text[start:end]
    assert old in part, (old, part)
    return text[:start] + part.replace(old, new, 1) + text[end:]


def swap_first_hole_cards(text: str, hand: int) -> str:
    """The viewer's two hole cards in hand ``hand`` dealt the other way round."""
    start, end = section(text, hand)
    found = re.search(r"'d dh (p\d+) ([^'?]+)'", text[start:end])
    assert found is not None
    deck = phh.loads_all(text)[0].deck
    cards = split_cards(found.group(2), deck)
    swapped = join_cards([cards[1], cards[0], *cards[2:]], deck)
    return tampered(text, hand, found.group(0), f"'d dh {found.group(1)} {swapped}'")


def test_fair_dealing_end_to_end(
    client: TestClient, store: Store, tmp_path: Path, capsys: Any
) -> None:
    # three seats for people (one stays open) and a station bot: ann starts the table
    tid = create(client, seats=4, bots={"4": "station"})
    ann_who, bob_who = browser(), browser()
    assert join(client, tid, "ann", ann_who) == 1
    assert join(client, tid, "bob", bob_who) == 2
    with connect(client, tid, ann_who) as ann_ws, connect(client, tid, bob_who) as bob_ws:
        players = [Player("ann", ann_who, ann_ws), Player("bob", bob_who, bob_ws)]
        first = state(client, tid)["fair"]
        assert first["next_deal"] == 0 and first["revealed"] == []
        for p in players:
            p.offer_seed(client, tid)  # deal 0's seeds before the table starts
        ann_ws.send_json({"type": "start"})
        handled(ann_ws)
        play_until(client, tid, players, 2)

        # before a reveal: every hand carries its seeds and commitment, unrevealed
        early = phh.loads_all(get(client, f"/api/tables/{tid}/hands.phhs", ann_who).text)
        assert len(early) >= 2
        for history in early:
            user = history.user_fields
            assert user["_commitment"] == first["commitment"]
            assert user["_client_seeds"] == seat_seeds(history, players)
            assert sorted(map(bool, user["_client_seeds"])) == [False, True, True]  # bot: ""
            assert "_server_seed" not in user
            assert verify_deal(history).status == "unrevealed"
        unrevealed = tmp_path / "early.phhs"
        unrevealed.write_text(get(client, f"/api/tables/{tid}/hands.phhs", ann_who).text)
        code, out = cli_verify(unrevealed, capsys)
        assert code == 0 and "unrevealed" in out and "verified" not in out

        # ann asks for the reveal during hand 3: it comes at the end of that hand
        eventually(lambda: state(client, tid)["table"]["hand_number"] == 3, what="hand 3")
        ann_ws.send_json({"type": "reveal"})
        handled(ann_ws)
        during = state(client, tid)
        assert during["hand"] is not None and during["fair"]["reveal_requested"] is True
        assert during["fair"]["commitment"] == first["commitment"]
        assert during["fair"]["revealed"] == []
        m = play_until(client, tid, players, 3)
        m = eventually(lambda: (s := state(client, tid))["fair"]["revealed"] and s, what="reveal")
    fair = m["fair"]
    (revealed,) = fair["revealed"]
    assert revealed["commitment"] == first["commitment"]
    seed = bytes.fromhex(revealed["server_seed"])
    assert sha256_hex(seed) == first["commitment"]
    assert re.fullmatch(r"[0-9a-f]{64}", fair["commitment"])
    assert fair["commitment"] != first["commitment"]

    # after it: the store and every seat's download check out, hand by hand
    stored = sorted(
        (phh.loads(r.phh) for r in store.hands(table_id=tid)),
        key=lambda h: h.user_fields["_deal_number"],
    )
    assert len(stored) == 3
    for history in stored:
        user = history.user_fields
        assert user["_commitment"] == first["commitment"]
        assert user["_server_seed"] == revealed["server_seed"]
        assert user["_client_seeds"] == seat_seeds(history, players)
        assert verify_deal(history).status == "verified", verify_deal(history)
    downloads = {}
    for name, who in (("ann", ann_who), ("bob", bob_who), ("spectator", None)):
        text = get(client, f"/api/tables/{tid}/hands.phhs", who).text
        downloads[name] = text
        hands = phh.loads_all(text)
        assert [h.user_fields["_deal_number"] for h in hands] == [
            h.user_fields["_deal_number"] for h in stored
        ]
        for history in hands:
            assert history.user_fields["_client_seeds"] == seat_seeds(history, players)
            assert verify_deal(history).status == "verified", (name, verify_deal(history))

    path = tmp_path / "ann.phhs"
    path.write_text(downloads["ann"])
    code, out = cli_verify(path, capsys)
    assert code == 0, out
    assert f"{len(stored)} verified" in out and "failed" not in out

    # one card, one client seed or the commitment changed: that hand fails
    seed_of_2 = next(
        s for s in phh.loads_all(downloads["ann"])[1].user_fields["_client_seeds"] if s
    )
    commitment = first["commitment"]
    cases = {
        1: swap_first_hole_cards(downloads["ann"], 1),
        2: tampered(downloads["ann"], 2, f"'{seed_of_2}'", f"'{seed_of_2}x'"),
        3: tampered(
            downloads["ann"], 3, commitment, ("0" if commitment[0] != "0" else "1") + commitment[1:]
        ),
    }
    for hand, text in cases.items():
        bad = tmp_path / f"bad{hand}.phhs"
        bad.write_text(text)
        code, out = cli_verify(bad, capsys)
        assert code == 1 and "failed" in out, (hand, out)
        code, out = cli_verify(bad, capsys, "--format", "json")
        assert code == 1
        statuses = [row["status"] for row in json.loads(out)["hands"]]
        assert statuses == [
            "failed" if k == hand else "verified" for k in range(1, len(stored) + 1)
        ]


# --- bugs found on the way -------------------------------------------------------------------


def test_a_seat_newcomer_does_not_see_its_predecessors_cards(client: TestClient) -> None:
    tid = create(client, clock=0.01, pause=30)  # the small blind folds: nothing shown
    ann, bob, cy = browser(), browser(), browser()
    join(client, tid, "ann", ann)
    join(client, tid, "bob", bob)
    between_hands(client, tid, 1, ann)
    mine = get(client, f"/api/tables/{tid}/hands.phhs", ann).text
    (hand,) = phh.loads_all(mine)
    position = hand.players.index("ann") + 1
    line = re.search(rf"'d dh p{position} ([^']+)'", mine)
    assert line is not None and "?" not in line.group(1)  # ann sees her own cards
    assert post(client, f"/api/tables/{tid}/leave", None, ann).status_code == 200
    assert join(client, tid, "cy", cy) == 1  # ann's old seat
    for who in (bob, cy):
        text = get(client, f"/api/tables/{tid}/hands.phhs", who).text
        assert line.group(0) not in text
        assert f"'d dh p{position} ????'" in text


def test_the_last_hands_log_keeps_its_players_names(client: TestClient) -> None:
    tid = create(client, clock=0.01, pause=30)
    ann, bob, cy = browser(), browser(), browser()
    join(client, tid, "ann", ann)
    join(client, tid, "bob", bob)
    log = between_hands(client, tid, 1, bob)["log"]
    assert any(line.startswith("ann ") for line in log), log
    post(client, f"/api/tables/{tid}/leave", None, ann)
    join(client, tid, "cy", cy)
    after = state(client, tid, bob)
    assert after["last"]["hand"] == 1
    assert after["log"] == log


def test_websocket_handshakes_count_against_the_request_limit() -> None:
    clock = FakeClock()
    app = limited_app(clock, request=Limit(5, 60.0))
    with TestClient(app) as client:
        tid = create(client)
        while get(client, "/api/tables").status_code != 429:
            pass
        refused = 0
        for _ in range(20):
            try:
                with connect(client, tid) as ws:
                    refused += ws.receive_json().get("type") != "state"
            except WebSocketDisconnect:
                refused += 1
        assert refused == 20


def test_an_absent_person_does_not_keep_bots_dealing(store: Store) -> None:
    app = create_app(table_store=store, limiter=None, tables={"bot_hands": 3})
    with TestClient(app) as client:
        tid = create(client, seats=3, bots={"2": "station", "3": "station"}, clock=0.005)
        join(client, tid, "ann", browser())  # ... who never opens the table's page
        eventually(lambda: len(store.hands(table_id=tid)) >= 3, what="3 hands")
        time.sleep(0.5)
        assert len(store.hands(table_id=tid)) <= 4
