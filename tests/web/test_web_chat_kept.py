"""A table's chat kept in the store (:mod:`cardlab.store.chat`): written before it is shown
(at once on SQLite, from a worker thread when the store is a server), restored with the
table after a restart (the same messages, ids, names, mutes and spectators' numbering),
kept in memory only while the store is away. A handover between two processes is in
tests/web/test_web_cluster_balance.py (the drain), a kill -9 takeover in
tests/web/test_web_tables_failover.py."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # starlette >= 1 would rather have httpx2
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from test_web_tables_chat import Clock, browser, connect, post, reply, say

from cardlab.errors import CardlabError, StoreError
from cardlab.store import Store
from cardlab.store.chat import ChatLine
from cardlab.web import create_app
from cardlab.web.table_chat import KEEP, Chat, ChatMessage, chat_message
from cardlab.web.table_config import parse_config
from cardlab.web.table_room import Room

Message = dict[str, Any]
BASE: dict[str, Any] = {"game": "fesca78-holdem", "seats": 3, "stack": 100, "clock": 0}
NOT_KEPT = "the server could not store the message: it was not sent (try again)"


# --- the Chat with a store ---------------------------------------------------------------------


def test_a_chat_restored_from_lines_and_state_goes_on_where_it_was() -> None:
    """Messages, ids, the spectators' names and numbering and the mutes as one chat left
    them, in a chat built from the store's lines and the saved state."""
    clock = Clock()
    kept: list[ChatLine] = []
    first = Chat(is_host=lambda a: a == "H", clock=clock, keep=lambda m: kept.append(m.line()))
    first.post("a", "hi", seat=1, seat_name="ann")
    first.post("s1", "who deals?")  # spectator 1
    first.post("s2", "me", name="carl")  # named: not numbered
    first.post("s3", "hello")  # spectator 2
    first.post("H", "welcome", seat=2, seat_name="hana")
    first.mute("s1", "spectator 1")
    assert [line.id for line in kept] == [1, 2, 3, 4, 5]

    second = Chat(is_host=lambda a: a == "H", clock=Clock(500.0))
    second.restore(kept, first.state())
    assert second.recent(host=True) == first.recent(host=True)
    assert second.mutes() == [{"key": 1, "name": "spectator 1"}]
    with pytest.raises(CardlabError, match="the host has muted you"):
        second.post("s1", "let me")
    assert second.post("s3", "again").name == "spectator 2"  # the name it had
    assert second.post("s2", "again").name == "carl"
    assert second.post("s4", "new here").name == "spectator 3"  # the numbering goes on
    assert [m.id for m in second.messages][-3:] == [6, 7, 8]
    second.mute("s4", "spectator 3")
    assert second.mutes()[-1] == {"key": 2, "name": "spectator 3"}  # keys go on too


def test_a_chat_saved_before_the_store_kept_it_starts_empty() -> None:
    chat = Chat()
    chat.restore([], None)
    assert chat.recent() == [] and chat.post("a", "first", seat=1, seat_name="ann").id == 1


def test_the_store_keeps_what_the_chat_keeps() -> None:
    store = Store.in_memory()
    clock = Clock()
    chat = Chat(clock=clock, keep=lambda m: store.add_chat_line("t", m.line(), keep=KEEP))
    for i in range(KEEP + 7):
        clock.now += 3
        chat.post("a", f"m{i}", seat=1, seat_name="ann")
    stored = [ChatMessage.from_line(line) for line in store.chat_lines("t")]
    assert stored == list(chat.messages) and [m.id for m in stored] == list(range(8, 108))


def test_a_message_the_store_refuses_is_not_shown_and_does_not_count() -> None:
    clock, changes, refuse = Clock(), [0], [True]

    def keep(message: ChatMessage) -> None:
        if refuse[0]:
            raise StoreError("the hand store is unreachable")

    def changed() -> None:
        changes[0] += 1

    chat = Chat(clock=clock, keep=keep, on_change=changed)
    with pytest.raises(CardlabError) as error:
        chat.post("a", "lost?", seat=1, seat_name="ann")
    assert str(error.value) == NOT_KEPT
    assert list(chat.messages) == [] and changes == [0]
    refuse[0] = False
    posted = chat.post("a", "again", seat=1, seat_name="ann")  # at once: no rate counted
    assert [m.text for m in chat.messages] == ["again"] and posted.id == 2 and changes == [1]


def test_while_the_store_is_away_the_chat_goes_on_in_memory() -> None:
    written: list[int] = []
    away = [True]
    chat = Chat(clock=Clock(), keep=lambda m: written.append(m.id), away=lambda: away[0])
    chat.post("a", "still here?", seat=1, seat_name="ann")
    assert [m.text for m in chat.messages] == ["still here?"] and written == []


class Listener:
    def __init__(self) -> None:
        self.got: list[Message] = []

    async def send_text(self, data: str) -> None:
        self.got.append(json.loads(data))


def test_off_the_loop_a_message_is_shown_once_stored_in_the_order_sent() -> None:
    """A store that takes 0.2 s a line: the loop is not held up, nobody sees a message
    before it is stored, the messages are shown in the order sent, each author is told
    its message is posted, and one the store refuses is not shown and its author is
    told so."""
    threads: set[int] = set()
    stored: list[int] = []

    def keep(message: ChatMessage) -> None:
        threads.add(threading.get_ident())
        time.sleep(0.2)
        if message.text == "refused":
            raise StoreError("table 't' was taken over by another process")
        stored.append(message.id)

    async def scenario() -> tuple[Chat, Listener, Listener, list[list[int]], float]:
        clock = Clock()
        seen: list[list[int]] = []
        chat = Chat(clock=clock, keep=keep, off_loop=True)
        chat.on_change = lambda: seen.append([m.id for m in chat.messages])
        ann, bob = Listener(), Listener()
        chat.listen(1, ann, "a")
        chat.listen(2, bob, "b")
        started = time.monotonic()
        replies = [
            chat_message(chat, [], None, "a", {"type": "chat", "text": "one"}),
            chat_message(chat, [], None, "b", {"type": "chat", "text": "two"}),
        ]
        clock.now += 1
        replies.append(chat_message(chat, [], None, "a", {"type": "chat", "text": "refused"}))
        clock.now += 1
        replies.append(chat_message(chat, [], None, "b", {"type": "chat", "text": "four"}))
        took = time.monotonic() - started
        assert replies == [None] * 4  # told once stored
        assert list(chat.messages) == [] and len(chat.pending) == 4
        while chat.pending:
            await asyncio.sleep(0.02)
        await asyncio.sleep(0.05)  # the last status on its way
        return chat, ann, bob, seen, took

    chat, ann, bob, seen, took = asyncio.run(scenario())
    assert took < 0.1  # four posts, 0.8 s of writes: none waited on the loop
    assert threading.get_ident() not in threads
    assert stored == [1, 2, 4]
    assert seen == [[1], [1, 2], [1, 2, 4]]  # each shown after it was stored, in order
    assert [m["posted"] for m in ann.got if "posted" in m] == [1]
    assert {"type": "error", "message": NOT_KEPT, "about": "chat"} in ann.got
    assert [m["posted"] for m in bob.got if "posted" in m] == [2, 4]
    assert [m.text for m in chat.messages] == ["one", "two", "four"]


# --- a table restarted from its store ---------------------------------------------------------


def first_state(ws: Any) -> Message:
    for _ in range(50):
        m: Message = ws.receive_json()
        if m["type"] == "state":
            return m
    raise AssertionError("no state came")


def app_on(path: Path) -> Any:
    return create_app(table_store=Store.open(path, synchronous="NORMAL"), limiter=None)


def test_a_restarted_server_shows_the_chat_and_keeps_its_mutes(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    host, ann, carl, watcher, muted = browser(), browser(), browser(), browser(), browser()
    with TestClient(app_on(path)) as client:
        r = post(client, "/api/tables", BASE, host)
        assert r.status_code == 201, r.text
        tid = str(r.json()["id"])
        for name, who in (("hana", host), ("ann", ann)):
            assert post(client, f"/api/tables/{tid}/join", {"name": name}, who).is_success
        with (
            connect(client, tid, ann) as a,
            connect(client, tid, carl) as c,
            connect(client, tid, watcher) as w,
            connect(client, tid, muted) as m,
        ):
            assert say(a, "hi <b>all</b>")["posted"] == 1
            assert say(c, "evening", name="carl")["posted"] == 2
            assert say(w, "who deals?") == {"type": "chat_status", "can_chat": True,
                                             "muted": False, "name": "spectator 1",
                                             "posted": 3}  # fmt: skip
            assert say(m, "spam")["posted"] == 4
            mute = {"op": "mute", "message": 4}
            assert post(client, f"/api/tables/{tid}/host", mute, host).is_success
            assert reply(m)["muted"] is True
        before = client.get(f"/api/tables/{tid}", headers=host).json()
    assert [(c["id"], c["name"], c["seat"], c["text"]) for c in before["chat"]] == [
        (1, "ann", 2, "hi <b>all</b>"),
        (2, "carl", None, "evening"),
        (3, "spectator 1", None, "who deals?"),
        (4, "spectator 2", None, "spam"),
    ]
    with TestClient(app_on(path)) as client:  # a new server on the same file
        client.cookies.clear()
        after = client.get(f"/api/tables/{tid}", headers=host).json()
        assert after["chat"] == before["chat"]  # ids, names, seats, texts, times, marks
        assert after["chat_mutes"] == [{"key": 1, "name": "spectator 2"}]
        with connect(client, tid, muted) as m, connect(client, tid, watcher) as w:
            assert first_state(m)["chat"] == [
                {k: v for k, v in c.items() if k != "muted"} for c in before["chat"]
            ]
            assert reply(m) == {"type": "chat_status", "can_chat": True, "muted": True,
                                "name": "spectator 2"}  # fmt: skip
            assert say(m, "let me")["message"] == "the host has muted you"
            assert reply(w)["name"] == "spectator 1"  # its name, told as it connects
            assert say(w, "back")["posted"] == 5  # the ids go on
            with connect(client, tid, browser()) as newcomer:
                assert say(newcomer, "hello")["name"] == "spectator 3"
    with Store.open(path) as store:
        assert [line.text for line in store.chat_lines(tid)] == [
            "hi <b>all</b>", "evening", "who deals?", "spam", "back", "hello",
        ]  # fmt: skip


def test_a_room_restored_from_a_state_saved_before_the_chat_was_kept(tmp_path: Path) -> None:
    """A table saved by a cardlab without the chat in its state restores with an empty
    chat; a chat state that is not one is refused."""
    with Store.open(tmp_path / "t.sqlite3") as store:
        room = Room("t1", parse_config(BASE), store)
        room.save()
        saved = store.table("t1")
        state = {k: v for k, v in saved.state.items() if k != "chat"}
        assert Room.restore("t1", saved.config, state, store).chat.recent() == []
        with pytest.raises(CardlabError, match="a chat state that is not one"):
            Room.restore("t1", saved.config, state | {"chat": {"muted": [["a", "1", "x"]]}}, store)
