"""A table whose store is written off the event loop (``Room.shell.off_loop``, on by
default with PostgreSQL; forced here on SQLite, with a slow store): the loop keeps
serving while an action is stored, every action announced is already in the store, the
actions reach the store in order, and a table restored from the store is the one that
was announced."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cardlab.store import Store
from cardlab.web.table_config import parse_config
from cardlab.web.table_room import Room

CONFIG = {
    "game": "fesca78-holdem",
    "seats": 4,
    "bots": {"1": "random", "2": "station", "3": "random", "4": "station"},
    "stack": 10_000,
    "betting": "fixed-limit",
    "pause": 0,
    "bot_delay": 0,
}


class SlowStore:
    """A store whose action writes take ``delay`` seconds (a far database server) and
    note the thread they run in."""

    def __init__(self, store: Store, delay: float) -> None:
        self.store = store
        self.delay = delay
        self.threads: set[int] = set()
        self.writes: list[tuple[int, int]] = []  # (deal number, seq) in the order stored

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def add_action(
        self, table_id: str, seq: int, action: str, *, deal_number: int | None = None
    ) -> None:
        self.threads.add(threading.get_ident())
        time.sleep(self.delay)
        self.store.add_action(table_id, seq, action, deal_number=deal_number)
        self.writes.append((-1 if deal_number is None else deal_number, seq))


class Watcher:
    """A connection that checks, at every state it is sent, that the store holds every
    action the room has applied."""

    def __init__(self, room: Room, store: Store) -> None:
        self.room = room
        self.store = store
        self.states = 0
        self.behind: list[str] = []

    async def send_text(self, data: str) -> None:
        json.loads(data)
        self.states += 1
        room = self.room
        runner = room.runner
        if room.live() and runner.deal is not None:
            live = self.store.live_hand(room.id)
            stored = -1 if live is None else len(live.actions)
            number = None if live is None else live.deal_number
            if number != runner.deal.hand_number or stored < runner.action_seq:
                self.behind.append(
                    f"deal {runner.deal.hand_number} at action {runner.action_seq}: the store "
                    f"has deal {number} with {stored} actions"
                )


async def play(room: Room, store: Store, seconds: float) -> tuple[float, Watcher]:
    """Run the room for ``seconds`` with a watcher; the longest the loop was blocked."""
    watcher = Watcher(room, store)
    conn_id = room.connect(watcher, None)
    room.wake()
    loop = asyncio.get_running_loop()
    longest = 0.0
    until = loop.time() + seconds
    while loop.time() < until:
        before = time.monotonic()
        await asyncio.sleep(0.005)
        longest = max(longest, time.monotonic() - before - 0.005)
    while room.runner.storing:  # let the write in flight land
        await asyncio.sleep(0.01)
    await stop(room, conn_id)
    return longest, watcher


async def stop(room: Room, conn_id: int) -> None:
    room.disconnect(conn_id)
    room.ending.mark_closed()  # its broadcaster ends at its next wake
    room.notify()
    room.close()
    await asyncio.sleep(0.05)


def new_room(path: Path, delay: float) -> tuple[Room, Store, SlowStore]:
    store = Store.open(path)
    slow = SlowStore(store, delay)
    room = Room("t1", parse_config(CONFIG), slow)  # type: ignore[arg-type]
    room.save()
    return room, store, slow


@pytest.mark.parametrize("off_loop", [True, False])
def test_writes_off_the_loop_leave_it_free(tmp_path: Path, off_loop: bool) -> None:
    """Each action takes 0.25 s to store: off the loop, the loop is never blocked for
    long; on it (SQLite's way), every action blocks it that long."""

    async def scenario() -> tuple[float, Watcher, SlowStore, int]:
        room, store, slow = new_room(tmp_path / "hands.sqlite3", 0.25)
        room.shell.off_loop = off_loop
        try:
            longest, watcher = await play(room, store, 2.0)
            return longest, watcher, slow, threading.get_ident()
        finally:
            store.close()

    longest, watcher, slow, loop_thread = asyncio.run(scenario())
    assert len(slow.writes) >= 4 and watcher.states >= 4
    assert watcher.behind == []
    if off_loop:
        assert loop_thread not in slow.threads
        assert longest < 0.2
    else:
        assert slow.threads == {loop_thread}
        assert longest >= 0.24


def test_actions_are_stored_in_order_and_announced_after(tmp_path: Path) -> None:
    """Hands of four bots with writes off the loop: every state sent finds the room's
    actions in the store, the store got them in order, hand after hand, and a room
    restored from the store (a restart) has the same hand as the room announced."""
    path = tmp_path / "hands.sqlite3"

    async def scenario() -> tuple[Room, Watcher, SlowStore]:
        room, store, slow = new_room(path, 0.0)
        room.shell.off_loop = True
        try:
            _, watcher = await play(room, store, 1.5)
        finally:
            store.close()
        return room, watcher, slow

    room, watcher, slow = asyncio.run(scenario())
    assert watcher.behind == []
    assert room.session.hands_played >= 2  # several hands were played through
    by_deal: dict[int, list[int]] = {}
    for deal, seq in slow.writes:
        by_deal.setdefault(deal, []).append(seq)
    assert list(by_deal) == sorted(by_deal) and len(by_deal) >= 3
    for seqs in by_deal.values():
        assert seqs == list(range(len(seqs)))
    with Store.open(path) as store:
        saved = store.table("t1")
        restored = Room.restore("t1", saved.config, saved.state, store)
        live = store.live_hand("t1")
    if room.live():
        assert live is not None and restored.runner.action_seq == room.runner.action_seq
        assert restored.session.hand is not None and room.session.hand is not None
        assert restored.session.hand.history == room.session.hand.history
    else:
        assert live is None
    assert restored.session.hands_played == room.session.hands_played
    assert [s.stack for s in restored.session.seats] == [s.stack for s in room.session.seats]


def test_a_hand_cancelled_while_its_action_is_stored(tmp_path: Path) -> None:
    """The host cancels the hand while a bot's action is being stored: the action is
    not applied, and the store holds no action of the cancelled hand."""

    async def scenario() -> tuple[Room, Store]:
        room, store, _ = new_room(tmp_path / "hands.sqlite3", 0.3)
        room.shell.off_loop = True
        conn_id = room.connect(Watcher(room, store), None)
        room.wake()
        while not room.runner.storing:
            await asyncio.sleep(0.01)
        assert room.runner.deal is not None
        history = list(room.session.hand.history) if room.session.hand else []
        room.ending.cancel_hand("a test")
        storing = room.shell.storing_task
        await storing
        await stop(room, conn_id)
        assert room.session.hand is None and history
        return room, store

    room, store = asyncio.run(scenario())
    store.close()
    assert room.runner.action_seq == 0  # the action in flight was not applied
    with sqlite3.connect(tmp_path / "hands.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM live_hands").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM live_actions").fetchone() == (0,)
