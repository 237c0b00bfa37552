"""The chat of a web table: the :class:`~cardlab.web.table_chat.Chat` rules on their own
(text, rate, names, mutes), then over the real app's WebSockets (a player's message
reaches a spectator, markup stays text, mutes, refusals, a fuzz), then two headless
Chromiums talking."""

from __future__ import annotations

import hashlib
import itertools
import json
import secrets
import time
import unicodedata
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

with warnings.catch_warnings():  # starlette >= 1 would rather have httpx2
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from cardlab.errors import CardlabError
from cardlab.store import Store
from cardlab.web import create_app
from cardlab.web.table_chat import KEEP, MAX_TEXT, SHOWN, Chat, ChatError, clean_text

Message = dict[str, Any]
Headers = dict[str, str]
OWN = "http://testserver"
EVIL = "https://evil.example"
REMOVED = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}


class Clock:
    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def new_chat(host: str = "H") -> tuple[Chat, Clock, list[int]]:
    """A chat whose host is the browser ``host``, its clock, and a count of changes."""
    clock = Clock()
    changes = [0]

    def changed() -> None:
        changes[0] += 1

    chat = Chat(is_host=lambda a: a == host, on_change=changed, clock=clock, wall=lambda: 1.7e9)
    return chat, clock, changes


def refused(call: Callable[[], object]) -> str:
    with pytest.raises(CardlabError) as error:
        call()
    return str(error.value)


# --- the text --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("  hello  ", "hello"),
        ("<b>x</b>", "<b>x</b>"),  # markup is text: the page shows it as typed
        ("a\nb\tc", "a b c"),  # line breaks and tabs become spaces
        ("abc\u202edef", "abcdef"),  # a right-to-left override is removed
        ("\u2066x\u2069 y\u200b", "x y"),  # isolates and a zero-width space too
        ("nul\x00 bell\x07", "nul bell"),
        ("\u200d hi \u200d", "hi"),  # a joiner at an end is trimmed,
        ("👩\u200d💻", "👩\u200d💻"),  # one inside an emoji sequence kept
        ("x" * MAX_TEXT, "x" * MAX_TEXT),
        (" " + "é" * MAX_TEXT + "\n", "é" * MAX_TEXT),  # the limit counts after trimming
    ],
)
def test_clean_text_keeps_what_a_person_typed(given: str, kept: str) -> None:
    assert clean_text(given) == kept


@pytest.mark.parametrize(
    ("given", "error"),
    [
        ("", "empty"),
        ("   \n\t ", "empty"),
        ("\u202e\u200b\x00", "empty"),
        ("x" * (MAX_TEXT + 1), f"at most {MAX_TEXT} characters (this one has {MAX_TEXT + 1})"),
        (None, "'text' as a string: None"),
        (["hi"], "'text' as a string: ['hi']"),
        (5, "'text' as a string: 5"),
    ],
)
def test_clean_text_refuses(given: object, error: str) -> None:
    assert error in refused(lambda: clean_text(given))


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=260) | st.text(st.characters(codec=None), max_size=40))
def test_clean_text_gives_printable_trimmed_text_or_one_error(text: str) -> None:
    try:
        kept = clean_text(text)
    except ChatError as error:
        assert "empty" in str(error) or "at most" in str(error)
        return
    assert 1 <= len(kept) <= MAX_TEXT
    assert kept == kept.strip() and kept[0] not in "\u200c\u200d" and kept[-1] not in "\u200d"
    bad = [c for c in kept if unicodedata.category(c) in REMOVED and c not in "\u200c\u200d"]
    assert bad == []
    # what was kept is the typed text in order, less what was removed
    assert all(c in text or c == " " for c in kept)


# --- the Chat ----------------------------------------------------------------------------


def test_messages_count_up_and_keep_the_browser_key_on_the_server() -> None:
    chat, clock, changes = new_chat()
    first = chat.post("a", " hi ", seat=1, seat_name="ann")
    clock.now += 1
    second = chat.post("H", "welcome", seat=2, seat_name="hana")
    clock.now += 1
    third = chat.post("s", "hello")
    assert [first.id, second.id, third.id] == [1, 2, 3]
    assert changes == [3]
    assert chat.recent() == [
        {"id": 1, "name": "ann", "seat": 1, "text": "hi", "at": 1700000000, "host": False},
        {"id": 2, "name": "hana", "seat": 2, "text": "welcome", "at": 1700000000, "host": True},
        {"id": 3, "name": "spectator 1", "seat": None, "text": "hello", "at": 1700000000,
         "host": False},
    ]  # fmt: skip
    assert "'a'" not in repr(first) and "author" not in json.dumps(chat.recent(host=True))


def test_a_table_keeps_100_messages_and_sends_the_last_50() -> None:
    chat, clock, _ = new_chat()
    for i in range(KEEP + 30):
        clock.now += 3  # one a three seconds: within every limit
        chat.post("a", f"m{i}", seat=1, seat_name="ann")
    assert len(chat.messages) == KEEP == 100
    assert [m.id for m in chat.messages] == list(range(31, 131))
    shown = chat.recent()
    assert len(shown) == SHOWN == 50
    assert [m["text"] for m in shown] == [f"m{i}" for i in range(80, 130)]


def test_rate_limits_per_author_with_the_wait_named() -> None:
    chat, clock, _ = new_chat()
    chat.post("a", "1", seat=1, seat_name="ann")
    clock.now += 0.2
    assert refused(lambda: chat.post("a", "2", seat=1, seat_name="ann")) == (
        "you are sending messages too fast: wait 0.3 s"
    )
    chat.post("b", "another author is not held up", seat=2, seat_name="bob")
    clock.now += 0.3  # 0.5 s after the first: allowed
    for _ in range(3):
        chat.post("a", "x", seat=1, seat_name="ann")
        clock.now += 0.5
    # five in 2 s (at 100.0, 100.5, 101.0, 101.5 and the one below at 102.0)
    chat.post("a", "fifth", seat=1, seat_name="ann")
    clock.now += 0.5  # 102.5: the sixth waits for 100.0 + 10
    assert refused(lambda: chat.post("a", "6", seat=1, seat_name="ann")).endswith("wait 7.5 s")
    clock.now = 109.95
    assert refused(lambda: chat.post("a", "6", seat=1, seat_name="ann")).endswith("wait 0.1 s")
    clock.now = 110.0
    assert chat.post("a", "sixth", seat=1, seat_name="ann").text == "sixth"
    assert [m.text for m in chat.messages if m.author == "a"][-2:] == ["fifth", "sixth"]


def test_refused_messages_do_not_count_against_the_rate() -> None:
    chat, clock, changes = new_chat()
    chat.post("a", "early", seat=1, seat_name="ann")
    clock.now += 0.4
    assert "too fast" in refused(lambda: chat.post("a", "no", seat=1, seat_name="ann"))
    clock.now += 0.1  # 0.5 s after "early" (0.1 s after the refused one)
    chat.post("a", "ok", seat=1, seat_name="ann")
    for bad in ("", "x" * 500, 7):
        clock.now += 0.5
        refused(lambda b=bad: chat.post("a", b, seat=1, seat_name="ann"))
    clock.now += 0.01  # 1.51 s after "ok"; the refused three would have needed 0.5 s more
    chat.post("a", "still ok", seat=1, seat_name="ann")
    assert [m.text for m in chat.messages] == ["early", "ok", "still ok"]
    assert changes == [3]


def test_mute_and_unmute_and_the_host_cannot_be_muted() -> None:
    chat, clock, changes = new_chat(host="H")
    said = chat.post("a", "first", seat=1, seat_name="ann")
    chat.mute("a", "ann")
    clock.now += 1
    assert refused(lambda: chat.post("a", "second", seat=1, seat_name="ann")) == (
        "the host has muted you"
    )
    assert [m.text for m in chat.messages] == ["first"]  # earlier messages stay
    assert chat.muted("a") and not chat.muted("b") and not chat.muted(None)
    assert chat.recent(host=True)[0]["muted"] is True
    assert "muted" not in chat.recent()[0]  # only the host is told who is muted
    assert chat.mutes() == [{"key": 1, "name": "ann"}]
    assert chat.author_of(said.id) == ("a", "ann")
    assert chat.status("a") == {"type": "chat_status", "can_chat": True, "muted": True,
                                "name": None}  # fmt: skip
    # the host cannot be muted, whatever names it
    assert refused(lambda: chat.mute("H", "hana")) == "the host cannot be muted"
    chat.post("H", "fine", seat=2, seat_name="hana")
    chat.unmute(chat.author_of_key(1))
    assert chat.mutes() == [] and not chat.muted("a")
    assert chat.post("a", "back", seat=1, seat_name="ann").text == "back"
    chat.unmute("a")  # not muted: nothing happens
    for key in (1, 2, True, "1", None):
        assert "nobody muted" in refused(lambda k=key: chat.author_of_key(k))
    for bad_id in (0, 99, True, "1", None, 1.0):
        assert "no chat message" in refused(lambda i=bad_id: chat.author_of(i))
    assert changes == [5]  # "first", the mute, "fine", the unmute, "back"


def test_a_muted_author_who_becomes_host_may_write() -> None:
    host = ["H"]
    chat = Chat(is_host=lambda a: a == host[0])
    chat.mute("a", "ann")
    host[0] = "a"  # the table was handed to ann
    assert not chat.muted("a") and chat.mutes() == []
    assert chat.post("a", "hello", seat=1, seat_name="ann").host is True


def test_spectator_names() -> None:
    chat, clock, _ = new_chat()
    taken = {"ann"}  # the name keys of the seated players
    assert chat.post("s1", "hi", taken=taken).name == "spectator 1"
    assert chat.post("s2", "hi", taken=taken).name == "spectator 2"
    clock.now += 1
    assert chat.post("s1", "again", taken=taken).name == "spectator 1"  # stable per browser
    clock.now += 1
    # a spectator may give a name: checked like a seat's, not a player's or another's
    for name, error in [
        ("ANN", "is a player's"),
        ("Ａｎｎ", "is a player's"),
        ("Spectator 7", "spectators without a name"),
        ("spectator", "spectators without a name"),
        ("x" * 25, "1 to 24 characters"),
        ("ev\u202eil", "control or text-direction"),
        ("a bot", "may not say 'bot'"),
        ("", "1 to 24"),
        (3, "must be a string"),
    ]:
        assert error in refused(lambda n=name: chat.post("s2", "hi", name=n, taken=taken)), name
    assert chat.post("s2", "hi", name="  carl ", taken=taken).name == "carl"
    clock.now += 1
    assert "already chats as" in refused(lambda: chat.post("s3", "hi", name="CARL", taken=taken))
    assert chat.post("s2", "kept", taken=taken).name == "carl"  # the name stays
    assert chat.post("s3", "hi", taken=taken).name == "spectator 3"
    assert chat.status("s2")["name"] == "carl" and chat.status("nobody")["name"] is None
    # a seated player chats under the seat's name, not a chosen one
    assert "seat's name" in refused(
        lambda: chat.post("a", "hi", seat=1, seat_name="ann", name="zed", taken=taken)
    )
    assert "open the table's page" in refused(lambda: chat.post(None, "hi"))
    assert "open the table's page" in refused(lambda: chat.post("", "hi"))


def test_greeting_only_when_a_browser_is_muted_or_named() -> None:
    chat, _, _ = new_chat()
    assert chat.greeting("a") is None and chat.greeting(None) is None
    chat.post("a", "hi")
    assert chat.greeting("a") == {"type": "chat_status", "can_chat": True, "muted": False,
                                  "name": "spectator 1"}  # fmt: skip
    chat.mute("b", "bob")
    assert chat.greeting("b") == {"type": "chat_status", "can_chat": True, "muted": True,
                                  "name": None}  # fmt: skip


# --- over the WebSocket ------------------------------------------------------------------

BASE: dict[str, Any] = {"game": "fesca78-holdem", "seats": 3, "stack": 100, "clock": 0}


@pytest.fixture
def app() -> Any:
    return create_app(table_store=Store.in_memory(), limiter=None)


@pytest.fixture
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def browser() -> Headers:
    return {"cookie": f"cardlab_id={secrets.token_urlsafe(32)}"}


def post(client: TestClient, url: str, body: Any, who: Headers | None = None) -> Any:
    client.cookies.clear()  # only the cookie a call names is sent
    return client.post(url, json=body, headers=(who or {}) | {"origin": OWN})


def create(client: TestClient, host: Headers, **fields: Any) -> str:
    r = post(client, "/api/tables", BASE | fields, host)
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def join(client: TestClient, tid: str, name: str, who: Headers) -> int:
    r = post(client, f"/api/tables/{tid}/join", {"name": name}, who)
    assert r.status_code == 200, r.text
    return int(r.json()["seat"])


def connect(client: TestClient, tid: str, who: Headers | None = None, origin: str = OWN) -> Any:
    client.cookies.clear()
    return client.websocket_connect(
        f"/api/tables/{tid}/ws", headers=(who or {}) | {"origin": origin}
    )


def reply(ws: Any) -> Message:
    """The next message that is not a state broadcast."""
    for _ in range(200):
        m: Message = ws.receive_json()
        if m["type"] != "state":
            return m
    raise AssertionError("no reply came")


def say(ws: Any, text: object, **extra: Any) -> Message:
    ws.send_json({"type": "chat", "text": text} | extra)
    return reply(ws)


def state_where(ws: Any, ok: Callable[[Message], bool]) -> Message:
    for _ in range(200):
        m: Message = ws.receive_json()
        if m["type"] == "state" and ok(m):
            return m
    raise AssertionError("the expected state never came")


def fake_clock(app: Any, tid: str) -> Clock:
    clock = Clock()
    app.state.tables.rooms[tid].chat.clock = clock
    return clock


def test_a_players_message_reaches_a_spectator_as_literal_text(
    client: TestClient, app: Any
) -> None:
    host, ann, watcher = browser(), browser(), browser()
    tid = create(client, host)
    join(client, tid, "ann", ann)
    text = '<script>alert("x")</script> & <b>bold</b>'
    before = int(time.time())
    with connect(client, tid, watcher) as spectator, connect(client, tid, ann) as player:
        first = spectator.receive_json()
        assert first["type"] == "state" and first["chat"] == [] and first["chat_mutes"] == []
        answer = say(player, f"  {text}\n")
        assert answer == {"type": "chat_status", "can_chat": True, "muted": False, "name": None,
                          "posted": 1}  # fmt: skip
        seen = state_where(spectator, lambda m: bool(m["chat"]))
        (message,) = seen["chat"]
        assert message["text"] == text  # the very characters: nothing escaped or dropped
        assert {k: v for k, v in message.items() if k != "at"} == {
            "id": 1, "name": "ann", "seat": 1, "text": text, "host": False
        }  # fmt: skip
        assert before <= message["at"] <= time.time() + 1
        # a spectator answers; the player sees it, marked as a spectator's
        assert say(spectator, "hi ann")["name"] == "spectator 1"
        seen = state_where(player, lambda m: len(m["chat"]) == 2)
        assert seen["chat"][1] | {"at": 0} == {
            "id": 2, "name": "spectator 1", "seat": None, "text": "hi ann", "at": 0,
            "host": False,
        }  # fmt: skip
    # the HTTP view carries the chat too, and no browser key of any author
    client.cookies.clear()
    got = client.get(f"/api/tables/{tid}").json()
    assert [m["text"] for m in got["chat"]] == [text, "hi ann"]
    token = ann["cookie"].split("=", 1)[1]
    key = hashlib.sha256(token.encode()).hexdigest()
    assert token not in json.dumps(got) and key not in json.dumps(got)
    assert all(set(m) == {"id", "name", "seat", "text", "at", "host"} for m in got["chat"])


def test_refusals_are_one_clear_error(client: TestClient, app: Any) -> None:
    host, ann = browser(), browser()
    tid = create(client, host)
    join(client, tid, "ann", ann)
    clock = fake_clock(app, tid)
    with connect(client, tid, ann) as ws:
        cases: list[tuple[object, str]] = [
            ("x" * 201, "a chat message has at most 200 characters (this one has 201)"),
            ("   ", "a chat message is empty: write something first"),
            (None, "a chat message needs its 'text' as a string: None"),
            ({"a": 1}, "a chat message needs its 'text' as a string: {'a': 1}"),
        ]
        for text, error in cases:
            assert say(ws, text) == {"type": "error", "message": error, "about": "chat"}
        assert say(ws, "one")["posted"] == 1
        clock.now += 0.25
        assert say(ws, "two") == {
            "type": "error",
            "message": "you are sending messages too fast: wait 0.3 s",
            "about": "chat",
        }
        clock.now += 0.25
        assert say(ws, "two")["posted"] == 2
        assert say(ws, "x", name="zed")["message"] == (
            "a seated player chats under the seat's name ('ann')"
        )
        ws.send_json({"type": "ping"})
        assert reply(ws) == {"type": "pong"}
    client.cookies.clear()
    assert [m["text"] for m in client.get(f"/api/tables/{tid}").json()["chat"]] == ["one", "two"]
    # a socket without the browser's cookie cannot chat (the page always sets one)
    with connect(client, tid) as ws:
        assert "open the table's page" in say(ws, "hi")["message"]


def test_the_host_mutes_by_seat_or_message_and_unmutes(client: TestClient, app: Any) -> None:
    host, ann, bob, watcher = browser(), browser(), browser(), browser()
    tid = create(client, host)
    join(client, tid, "hana", host)
    join(client, tid, "ann", ann)
    join(client, tid, "bob", bob)
    clock = fake_clock(app, tid)
    url = f"/api/tables/{tid}/host"
    with (
        connect(client, tid, ann) as a,
        connect(client, tid, watcher) as w,
        connect(client, tid, host) as h,
    ):
        assert say(a, "from ann")["posted"] == 1
        assert say(w, "from a spectator")["posted"] == 2
        assert say(h, "from the host")["posted"] == 3
        # not the host: 403, nothing changes
        for body in ({"op": "mute", "seat": 2}, {"op": "mute", "message": 1}):
            r = post(client, url, body, bob)
            assert r.status_code == 403 and "only the table's host" in r.json()["error"]
        clock.now += 1
        assert say(a, "still here")["posted"] == 4
        # the host mutes ann by her seat: her socket is told at once
        assert post(client, url, {"op": "mute", "seat": 2}, host).status_code == 200
        assert reply(a) == {"type": "chat_status", "can_chat": True, "muted": True, "name": None}
        clock.now += 1
        assert say(a, "let me speak") == {
            "type": "error", "message": "the host has muted you", "about": "chat"
        }  # fmt: skip
        # ... and the spectator by its message
        assert post(client, url, {"op": "mute", "message": 2}, host).status_code == 200
        assert reply(w)["muted"] is True
        clock.now += 1
        assert say(w, "me neither")["message"] == "the host has muted you"
        seen = state_where(h, lambda m: len(m["chat_mutes"]) == 2)
        assert seen["chat_mutes"] == [{"key": 1, "name": "ann"}, {"key": 2, "name": "spectator 1"}]
        assert [(m["text"], m["muted"]) for m in seen["chat"]] == [
            ("from ann", True),
            ("from a spectator", True),
            ("from the host", False),
            ("still here", True),
        ]  # earlier messages stay
        # the host cannot be muted; bad targets are a 400 naming the problem
        for body, error in [
            ({"op": "mute", "seat": 1}, "the host cannot be muted"),
            ({"op": "mute", "message": 3}, "the host cannot be muted"),
            ({"op": "mute", "message": 99}, "no chat message 99"),
            ({"op": "mute", "seat": 3, "message": 1}, "mute names one of seat, message"),
            ({"op": "mute"}, "mute names one of seat, message"),
            ({"op": "mute", "key": 1}, "mute names one of seat, message"),
            ({"op": "mute", "seat": "2"}, "a seat is a number from 1 to 3"),
            ({"op": "unmute", "key": 9}, "nobody muted has the key 9"),
        ]:
            r = post(client, url, body, host)
            assert r.status_code == 400 and error in r.json()["error"], (body, r.text)
        # unmute by key (from the host's list) and by seat
        assert post(client, url, {"op": "unmute", "key": 2}, host).status_code == 200
        assert reply(w)["muted"] is False
        assert post(client, url, {"op": "unmute", "seat": 2}, host).status_code == 200
        assert reply(a)["muted"] is False
        clock.now += 1
        assert say(a, "thanks")["posted"] == 5
        assert say(w, "thanks too")["posted"] == 6
    # the non-host's state never lists mutes
    client.cookies.clear()
    seen_by_bob = client.get(f"/api/tables/{tid}", headers=bob).json()
    assert seen_by_bob["chat_mutes"] == [] and all("muted" not in m for m in seen_by_bob["chat"])


def test_a_muted_browser_is_told_when_it_connects(client: TestClient, app: Any) -> None:
    host, watcher = browser(), browser()
    tid = create(client, host)
    with connect(client, tid, watcher) as w:
        assert say(w, "hi", name="carl")["name"] == "carl"
    assert post(client, f"/api/tables/{tid}/host", {"op": "mute", "message": 1}, host).is_success
    with connect(client, tid, watcher) as w:
        assert w.receive_json()["type"] == "state"
        assert reply(w) == {"type": "chat_status", "can_chat": True, "muted": True,
                            "name": "carl"}  # fmt: skip
    # a browser with nothing to be told gets no status: the first reply is the pong
    with connect(client, tid, browser()) as fresh:
        fresh.send_json({"type": "ping"})
        assert reply(fresh) == {"type": "pong"}


def test_spectator_names_over_the_socket(client: TestClient, app: Any) -> None:
    host, ann, s1, s2 = browser(), browser(), browser(), browser()
    tid = create(client, host)
    join(client, tid, "ann", ann)
    with connect(client, tid, s1) as one, connect(client, tid, s2) as two:
        assert say(one, "hi", name="Ann")["message"] == (
            "the name 'Ann' is a player's at this table: choose another"
        )
        assert say(one, "hi", name="carl")["name"] == "carl"
        assert "already chats as" in say(two, "hi", name="CARL")["message"]
        assert say(two, "hi")["name"] == "spectator 1"
        seen = state_where(one, lambda m: len(m["chat"]) == 2)
        assert [(m["name"], m["seat"]) for m in seen["chat"]] == [
            ("carl", None),
            ("spectator 1", None),
        ]


def test_no_chat_from_another_site_or_at_a_closed_table(client: TestClient, app: Any) -> None:
    host, ann = browser(), browser()
    tid = create(client, host)
    join(client, tid, "ann", ann)
    with pytest.raises(WebSocketDisconnect) as closed, connect(client, tid, ann, origin=EVIL):
        raise AssertionError("a foreign page's handshake was accepted")  # pragma: no cover
    assert closed.value.code == 4403
    with connect(client, tid, ann) as ws:
        assert post(client, f"/api/tables/{tid}/close", {}, host).status_code == 200
        assert say(ws, "bye")["message"] == "the table is closed"


CHAT_MESSAGES = st.fixed_dictionaries(
    {"type": st.just("chat")},
    optional={
        "text": st.text(max_size=230)
        | st.text(st.characters(codec=None), max_size=30)
        | st.sampled_from(["<b>x</b>", "\u202eevil", "  ", "\x00"])
        | st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
            lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.text(max_size=3), kids),
            max_leaves=6,
        ),
        "name": st.none() | st.text(max_size=30) | st.integers() | st.sampled_from(["ann", ""]),
    },
) | st.fixed_dictionaries(  # not a chat message: one error each
    {},
    optional={
        "type": st.sampled_from(["Chat", "chat ", "", "nope"]) | st.none() | st.integers(),
        "text": st.text(max_size=10),
        "name": st.text(max_size=10),
    },
)


@pytest.fixture(scope="module")
def fuzz_app() -> Iterator[tuple[Any, TestClient]]:
    app = create_app(table_store=Store.in_memory(), limiter=None, tables={"max_tables": 100_000})
    with TestClient(app) as c:
        yield app, c


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(messages=st.lists(CHAT_MESSAGES, min_size=1, max_size=8), seated=st.booleans())
def test_any_chat_message_never_crashes_the_socket(
    fuzz_app: tuple[Any, TestClient], messages: list[Any], seated: bool
) -> None:
    app, client = fuzz_app
    host, ann = browser(), browser()
    tid = create(client, host)
    join(client, tid, "ann", ann)
    app.state.tables.rooms[tid].chat.clock = itertools.count(step=3).__next__  # no rate limit
    with connect(client, tid, ann if seated else browser()) as ws:
        for message in messages:
            ws.send_text(json.dumps(message))
        ws.send_json({"type": "ping"})
        answers = []
        for _ in range(500):
            m = ws.receive_json()
            assert m["type"] in ("state", "error", "pong", "chat_status"), m
            if m["type"] == "pong":
                break
            if m["type"] != "state":
                answers.append(m)
    assert len(answers) == len(messages)  # one answer to each message, in order
    client.cookies.clear()
    chat = client.get(f"/api/tables/{tid}").json()["chat"]
    assert len(chat) == sum(a["type"] == "chat_status" for a in answers)
    assert [m["id"] for m in chat] == list(range(1, len(chat) + 1))
    for m in chat:
        assert 1 <= len(m["text"]) <= MAX_TEXT and m["text"] == m["text"].strip()
        assert not any(
            unicodedata.category(c) in REMOVED and c not in "\u200c\u200d" for c in m["text"]
        )
        assert (m["seat"], m["name"]) == ((1, "ann") if seated else (None, m["name"]))


# --- two browsers ----------------------------------------------------------------------------

try:
    from test_web_tables_browser import (  # the shared headless-Chromium helpers
        DESKTOP,
        PHONE,
        _browser,
        base_url,
        click,
        screenshot,
        size,
        text,
        visible,
        wait,
    )
except pytest.skip.Exception as missing:  # selenium or uvicorn is not installed
    MISSING = str(missing)

    @pytest.fixture(scope="module")
    def base_url() -> Iterator[str]:
        pytest.skip(MISSING)
        yield ""  # pragma: no cover


@pytest.mark.slow
def test_two_browsers_chat_and_markup_stays_text(base_url: str) -> None:
    import shutil

    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    made = [_browser() for _ in range(2)]
    (ann, _), (watcher, _) = made
    try:
        size(ann, DESKTOP)
        size(watcher, DESKTOP)
        ann.get(base_url + "/tables")
        # ann creates the table from her browser: she is its host
        config = {"game": "fesca78-holdem", "seats": 3, "clock": 0, "name": "chat test"}
        created = ann.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/api/tables', {method: 'POST', headers: {'content-type': 'application/json'},"
            " body: JSON.stringify(arguments[0])}).then(r => r.json()).then(done);",
            config,
        )
        url = base_url + created["url"]
        ann.get(url)
        wait(ann, lambda: visible(ann, "pt-join"), "the join form")
        ann.find_element(By.ID, "pt-name").send_keys("ann")
        ann.find_element(By.ID, "pt-join-btn").click()
        wait(ann, lambda: "you are ann" in text(ann, "#pt-status"), "ann seated")
        watcher.get(url)
        wait(watcher, lambda: visible(watcher, "chat"), "the chat panel")
        assert visible(watcher, "chat-name") and not visible(ann, "chat-name")
        # ann types markup and presses Enter: the watcher sees the characters, no <b>
        wait(ann, lambda: visible(ann, "chat-text"), "ann's chat input")
        ann.find_element(By.ID, "chat-text").send_keys("<b>x</b> & <i>y</i>", Keys.ENTER)
        ann_spoke = time.monotonic()
        line = "#chat-list li:last-child .chat-msg"
        wait(watcher, lambda: text(watcher, line) == "<b>x</b> & <i>y</i>", "the message")
        assert (
            watcher.execute_script(
                "return document.querySelectorAll('#chat-list b, #chat-list i').length"
            )
            == 0
        )
        assert "ann" in text(watcher, "#chat-list li:last-child .chat-who")
        wait(ann, lambda: ann.find_element(By.ID, "chat-text").get_attribute("value") == "",
             "the input cleared once sent")  # fmt: skip
        # the watcher names itself and answers; ann sees it marked "watching"
        watcher.find_element(By.ID, "chat-name").send_keys("carl")
        watcher.find_element(By.ID, "chat-text").send_keys("hello <script>1</script>", Keys.ENTER)
        wait(ann, lambda: text(ann, line) == "hello <script>1</script>", "the answer")
        assert "carl" in text(ann, "#chat-list li:last-child .chat-who")
        assert "watching" in text(ann, "#chat-list li:last-child")
        wait(watcher, lambda: "You chat as carl" in text(watcher, "#chat-as"), "the name kept")
        # the host mutes carl from his message; carl's page says so and stops sending
        assert not visible(watcher, "chat-muted")
        click(ann, "#chat-list li:last-child .chat-mute")
        wait(watcher, lambda: visible(watcher, "chat-muted"), "the muted notice")
        assert watcher.find_element(By.ID, "chat-text").get_attribute("disabled") is not None
        wait(ann, lambda: "carl" in text(ann, "#chat-mutes-list"), "the host's list")
        # the host's own messages have no mute button (ann speaks again once the chat's
        # limit of one message per half second allows: a quick machine gets here sooner)
        time.sleep(max(0.0, ann_spoke + 0.6 - time.monotonic()))
        ann.find_element(By.ID, "chat-text").send_keys("house rules", Keys.ENTER)
        wait(ann, lambda: text(ann, line) == "house rules", "the host's message")
        assert (
            ann.execute_script(
                "return document.querySelector('#chat-list li:last-child .chat-mute')"
            )
            is None
        )
        screenshot(ann, "table-chat-host")
        screenshot(watcher, "table-chat-muted")
        # on a phone nothing in the panel is wider than the screen
        size(ann, PHONE)
        wide = ann.execute_script(
            "return [...document.querySelectorAll('#chat *')]"
            ".filter(e => e.tagName !== 'INPUT' && e.scrollWidth > e.clientWidth + 1)"
            ".map(e => e.tagName + '#' + e.id + '.' + e.className)"
        )
        assert wide == [] and ann.execute_script(
            "const r = document.getElementById('chat').getBoundingClientRect();"
            "return r.right <= window.innerWidth + 1"
        ), wide
        screenshot(ann, "table-chat-host")
    finally:
        for driver, profile in made:
            driver.quit()
            shutil.rmtree(profile, ignore_errors=True)
