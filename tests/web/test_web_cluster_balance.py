"""Balance and drain with real ``cardlab web --redis`` processes over one PostgreSQL and
one Redis (tests/_cluster.py, :mod:`cardlab.web.balance`):

- a process that joins gets half of the tables, each moved at the end of a hand (the last
  state its watcher saw from the old owner has no hand in play), no hand lost or stored
  twice, every chip kept; new tables go to the least loaded process; and the metrics
  agree with the store's and the logs' counts;
- SIGTERM drains a process: ``/readyz`` says so, the people at its table finish their
  hand there, then their pages reconnect (through the doc's nginx) to the new owner and
  play on, with the table's chat; the process exits 0 with every table handed over, one
  log line each.
"""

from __future__ import annotations

import contextlib
import json
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_cluster import address, create, join
from test_web_cluster_metrics import process_of, scrape, value

from _cluster import Nginx, WebProcess, start_web
from _postgres import PostgresServer, postgres_server
from _redis import RedisServer, redis_server
from cardlab.store import Store

pytestmark = pytest.mark.xdist_group("clusters")  # see test_web_cluster_browser.py

__all__ = ["postgres_server", "redis_server"]

httpx = pytest.importorskip("httpx")
wsc = pytest.importorskip("websockets.sync.client")
ConnectionClosed = pytest.importorskip("websockets.exceptions").ConnectionClosed

Message = dict[str, Any]
BOTS = {"bots": {"1": "station", "2": "station"}, "stack": 1000, "bot_delay": 0, "pause": 0.3}
EXTRA = ["--log-format", "json", "--bot-hands", "25", "--drain-timeout", "30"]


class Page:
    """A table page's WebSocket, reconnecting as table.js does (a second after any
    close), keeping every message and the code of every close."""

    def __init__(self, base: str, tid: str, cookie: str | None = None) -> None:
        self.url = base.replace("http://", "ws://") + f"/api/tables/{tid}/ws"
        self.headers = ({"cookie": cookie} if cookie else {}) | address()
        self.messages: list[Message] = []
        self.state: Message | None = None
        self.closes: list[int | None] = []
        self.closed_after: list[int] = []  # the messages received before each close
        self.opened = 0  # connections made
        self.ws: Any = None
        self._stack = contextlib.ExitStack()
        self._retry_at = 0.0
        self._connect()

    def _connect(self) -> None:
        self._stack.close()
        try:
            connecting = wsc.connect(self.url, additional_headers=self.headers, open_timeout=5)
            self.ws = self._stack.enter_context(connecting)
            self.opened += 1
        except Exception:  # refused (between owners, or the process is gone): again
            self.ws = None
            self._retry_at = time.monotonic() + 1.0

    def pump(self, seconds: float = 0.0) -> None:
        if self.ws is None:
            if time.monotonic() >= self._retry_at:
                self._connect()
            else:
                time.sleep(min(seconds, 0.1))
            return
        timeout = seconds
        try:
            while True:
                message = json.loads(self.ws.recv(timeout=timeout))
                timeout = 0
                self.messages.append(message)
                if message["type"] == "state":
                    self.state = message
        except TimeoutError:
            pass
        except ConnectionClosed as closed:
            self.closes.append(closed.rcvd.code if closed.rcvd is not None else None)
            self.closed_after.append(len(self.messages))
            self.ws = None
            self._retry_at = time.monotonic() + 1.0

    def send(self, message: Message) -> None:
        if self.ws is not None:
            with contextlib.suppress(ConnectionClosed):
                self.ws.send(json.dumps(message))

    def close(self) -> None:
        self._stack.close()
        self.ws = None

    def wait_for(self, test: Callable[[Message], bool], seconds: float = 30) -> Message:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.state is not None and test(self.state):
                return self.state
            self.pump(0.1)
        raise AssertionError(f"no such state in {seconds} s; last: {self.state}")


def play_until(players: list[Page], done: Callable[[Message], bool], seconds: float = 90) -> None:
    """Each player checks or calls (and shows at the showdown) on its turn, sending again
    after a reconnect, until ``done`` holds for the first player's state."""
    deadline = time.monotonic() + seconds
    acted: set[tuple[int, int, int]] = set()
    while time.monotonic() < deadline:
        for k, player in enumerate(players):
            player.pump(0.05)
            state = player.state
            if state is None:
                continue
            if k == 0 and done(state):
                return
            legal = state["legal"]
            key = (k, state["turn"], player.opened)
            if legal is not None and player.ws is not None and key not in acted:
                acted.add(key)
                action = "s" if legal["phase"] == "showdown" else "c"
                player.send({"type": "action", "action": action, "turn": state["turn"]})
    raise AssertionError(f"not done in {seconds} s; last: {players[0].state}")


def over(state: Message) -> bool:
    return state["hand"] is not None and bool(state["hand"]["over"])


def lobby(base: str) -> dict[str, Message]:
    return {t["id"]: t for t in httpx.get(f"{base}/api/tables").json()["tables"]}


def log_lines(process: WebProcess, *words: str) -> list[Message]:
    lines = [json.loads(x) for x in process.log.read_text().splitlines() if x.startswith("{")]
    return [x for x in lines if all(w in x["message"] for w in words)]


def check_hands(db: str, tables: list[str], stack: int) -> int:
    """Every table's stored hands chain (each starts with the stacks the last ended
    with: none lost or stored twice), keep every chip, and number as the table counts
    them; the hands stored."""
    total = 0
    with Store.open(db, read_only=True) as store:
        for tid in tables:
            hands = sorted(store.hands(table_id=tid), key=lambda h: h.id or 0)
            assert store.live_hand(tid) is None, tid
            assert len(hands) == store.table(tid).state["hands_played"], tid
            stacks: dict[str, int] = {}  # by player (a hand lists them by position)
            for hand in hands:
                start = dict(zip(hand.players, hand.starting_stacks, strict=True))
                assert start == (stacks or dict.fromkeys(start, stack)), tid
                stacks = dict(zip(hand.players, hand.finishing_stacks, strict=True))
                assert sum(stacks.values()) == 2 * stack, tid
            total += len(hands)
    return total


def settled(db: str, tables: list[str], seconds: float = 240) -> None:
    """Wait until no table has a hand in play and no hand was added for 3 s."""
    deadline = time.monotonic() + seconds
    last, since = -1, time.monotonic()
    while time.monotonic() < deadline:
        with Store.open(db, read_only=True) as store:
            count = sum(len(store.hands(table_id=t)) for t in tables)
            live = any(store.live_hand(t) is not None for t in tables)
        if count != last or live:
            last, since = count, time.monotonic()
        elif time.monotonic() - since > 3:
            return
        time.sleep(0.5)
    raise AssertionError("the tables kept dealing")


@pytest.fixture
def cluster(
    postgres_server: PostgresServer, redis_server: RedisServer, tmp_path: Path
) -> Iterator[tuple[str, str, Path, list[WebProcess]]]:
    """The store, the Redis, the log folder and the processes started (stopped at the
    end)."""
    redis_server.flush()
    started: list[WebProcess] = []
    try:
        yield postgres_server.new_schema(), redis_server.url, tmp_path, started
    finally:
        for process in started:
            process.stop()


@pytest.mark.slow
def test_a_process_that_joins_takes_half_the_tables_at_hand_boundaries(
    cluster: tuple[str, str, Path, list[WebProcess]],
) -> None:
    db, redis, logs, started = cluster
    (a,) = start_web(db, redis, 1, logs / "a", extra=EXTRA)
    started.append(a)
    tables = [create(a.base, address(), **BOTS, public=True)["id"] for _ in range(4)]
    a_name = process_of(scrape(a))
    assert {t["process"] for t in lobby(a.base).values()} == {a_name}  # alone: all on A
    watchers = {tid: Page(a.base, tid) for tid in tables}  # each table watched, on A
    for page in watchers.values():
        page.wait_for(lambda s: s["table"]["hand_number"] >= 1)

    (b,) = start_web(db, redis, 1, logs / "b", extra=EXTRA)
    started.append(b)
    b_name = process_of(scrape(b))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for page in watchers.values():
            page.pump(0.02)
        owners = [t["process"] for t in lobby(b.base).values()]
        if owners.count(b_name) == 2 and sum(bool(p.closes) for p in watchers.values()) == 2:
            break
    owners_now = {tid: t["process"] for tid, t in lobby(b.base).items()}
    assert sorted(owners_now.values()) == sorted([a_name] * 2 + [b_name] * 2), owners_now
    for tid, page in watchers.items():
        if owners_now[tid] == b_name:  # moved: its page was told to reconnect, after
            # the last state of a finished hand (never in the middle of one)
            assert page.closes[:1] == [1012], page.closes
            before = page.messages[: page.closed_after[0]]
            last = [m for m in before if m["type"] == "state"][-1]
            assert last["hand"] is None or last["hand"]["over"], last["hand"]
            number = last["table"]["hand_number"]
            # reconnected (to A, which relays to B): B deals the next hand
            page.wait_for(lambda s, n=number: s["table"]["hand_number"] > n)
        else:
            assert page.closes == []
    handed = log_lines(a, "handed table")
    assert len(handed) == 2 and all("(balance, after hand " in x["message"] for x in handed)
    assert {x["message"].split("over to process ")[1].split(" ")[0] for x in handed} == {b_name}

    # new tables go to the least loaded process (a tie to the one asked), through either
    placed = [create(a.base, address(), **BOTS, public=True)["id"] for _ in range(2)]
    placed.append(create(b.base, address(), **BOTS, public=True)["id"])
    owners_now = {tid: t["process"] for tid, t in lobby(a.base).items()}
    assert [owners_now[t] for t in placed] == [a_name, b_name, b_name]
    tables += placed

    for page in watchers.values():
        page.close()
    settled(db, tables)  # each table stops after 25 hands nobody watched
    stored = check_hands(db, tables, 1000)
    found = {p: scrape(p) for p in (a, b)}
    assert sum(value(f, "cardlab_hands_dealt_total") for f in found.values()) == stored
    with Store.open(db, read_only=True) as store:
        actions = sum(h.actions for t in tables for h in store.hands(table_id=t))
    assert sum(value(f, "cardlab_actions_total") for f in found.values()) == actions
    assert value(found[a], "cardlab_table_handovers_total", reason="balance") == 2
    assert value(found[b], "cardlab_table_handovers_total", reason="balance") == 0
    # handed, not taken over: a takeover happens only if a process misses its lease
    # renewals (an overloaded machine), and then it is counted and logged alike
    for p in (a, b):
        took = len(log_lines(p, "took over"))
        assert value(found[p], "cardlab_lease_takeovers_total") == took
    assert value(found[a], "cardlab_tables") == 3 and value(found[b], "cardlab_tables") == 4
    assert value(found[a], "cardlab_draining") == 0


@pytest.mark.slow
def test_sigterm_drains_a_process_and_the_pages_play_on(
    cluster: tuple[str, str, Path, list[WebProcess]],
) -> None:
    db, redis, logs, started = cluster
    a, b = start_web(db, redis, 2, logs, extra=EXTRA)
    started += [a, b]
    a_name, b_name = process_of(scrape(a)), process_of(scrape(b))
    nginx = Nginx([a.port, b.port])  # the doc's site
    nginx.start()
    try:
        # A's people: a table made through A (a tie: the process asked), then a bot table
        # of each process (the least loaded gets the next)
        host = create(a.base, address(), public=True)
        tid = host["id"]
        bots = [create(a.base, address(), **BOTS, public=True)["id"] for _ in range(2)]
        owners = {t: x["process"] for t, x in lobby(a.base).items()}
        assert [owners[t] for t in [tid, *bots]] == [a_name, b_name, a_name]
        players = [Page(nginx.base, tid, join(a.base, tid, n)) for n in ("ann", "bob")]
        for p in players:
            p.wait_for(lambda s: s["seats"] is not None)
        players[0].send({"type": "chat", "text": "good luck"})  # kept in the store
        players[1].wait_for(lambda s: [c["text"] for c in s["chat"]] == ["good luck"])
        players[0].send({"type": "start"})
        # hand 1 under way, then SIGTERM: A drains
        play_until(players, lambda s: s["hand"] is not None and s["hand"]["street"] != "preflop")
        assert players[0].state is not None and not players[0].state["hand"]["over"]
        assert httpx.post(f"{nginx.base}/drain").status_code == 403  # not for strangers
        assert a.process is not None
        a.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 10
        while httpx.get(f"{a.base}/readyz").status_code == 200:
            assert time.monotonic() < deadline, "A never said it drains"
            time.sleep(0.1)
        ready = httpx.get(f"{a.base}/readyz")
        assert ready.status_code == 503 and "draining" in ready.text
        # the hand in play finishes at A; then the table moves and the pages follow
        play_until(players, lambda s: s["table"]["hand_number"] >= 2 and over(s))
        assert all(1012 in p.closes or p.opened > 1 for p in players), [p.closes for p in players]
        assert a.process.wait(60) == 0
        # the chat came with the table: B shows what was said at A, its ids go on
        players[1].send({"type": "chat", "text": "gg"})
        said = [(1, "ann", "good luck"), (2, "bob", "gg")]
        players[0].wait_for(lambda s: [(c["id"], c["name"], c["text"]) for c in s["chat"]] == said)
    finally:
        for p in players if "players" in locals() else []:
            p.close()
        nginx.stop()
    drained = log_lines(a, "drained")
    assert len(drained) == 1 and "2 tables handed over" in drained[0]["message"]
    handed = log_lines(a, "handed table")
    to_b = f"over to process {b_name} (drain, after hand"
    assert len(handed) == 2 and all(to_b in x["message"] for x in handed)
    assert any(f"{tid!r}" in x["message"] and "after hand 1)" in x["message"] for x in handed)
    assert {t["process"] for t in lobby(b.base).values()} == {b_name}
    found = scrape(b)
    assert value(found, "cardlab_tables") == 3
    assert value(found, "cardlab_lease_takeovers_total") == len(log_lines(b, "took over"))
    with Store.open(db, read_only=True) as store:
        hands = store.hands(table_id=tid)
    assert len(hands) >= 2 and all(sum(h.finishing_stacks) == 200 for h in hands)
    assert all(sorted(h.players) == ["ann", "bob"] for h in hands)
