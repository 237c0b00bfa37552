"""Many `cardlab web` processes, one set of tables: every process serves every endpoint of
every table (``--redis``, :mod:`cardlab.web.cluster`). Two real processes A and B over one
PostgreSQL store and one Redis (tests/_postgres.py, tests/_redis.py, tests/_cluster.py):
a table A runs is played through both, each player seeing only their own cards; the host
works through B; the rate limits and the lobby are shared; and an action relayed while
the owner is killed -9 is refused clearly, then played once after the failover."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from _cluster import WebProcess, free_port, start_web
from _postgres import PostgresServer, postgres_server
from _redis import RedisServer, redis_server, redis_url
from cardlab.cards import Card
from cardlab.store import Store

__all__ = ["postgres_server", "redis_server", "redis_url"]

httpx = pytest.importorskip("httpx")
wsc = pytest.importorskip("websockets.sync.client")
ConnectionClosed = pytest.importorskip("websockets.exceptions").ConnectionClosed

Message = dict[str, Any]
TWO_SEATS = {"game": "fesca78-holdem", "seats": 2, "stack": 100, "clock": 0, "pause": 0}


@pytest.fixture(scope="module")
def pair(
    postgres_server: PostgresServer, redis_server: RedisServer, tmp_path_factory: Any
) -> Iterator[tuple[WebProcess, WebProcess]]:
    """Processes A and B, for the tests that kill neither."""
    redis_server.flush()
    logs = tmp_path_factory.mktemp("cluster")
    a, b = start_web(postgres_server.new_schema(), redis_server.url, 2, logs)
    try:
        yield a, b
    finally:
        for process in (a, b):
            process.stop()


_addresses = iter(range(1, 60000))


def address() -> dict[str, str]:
    """A client address of its own (the processes trust X-Forwarded-For), so the tests'
    requests do not share one rate-limit budget."""
    n = next(_addresses)
    return {"x-forwarded-for": f"10.{n // 250}.{n % 250}.7"}


def create(base: str, headers: dict[str, str], **body: Any) -> Message:
    answer = httpx.post(f"{base}/api/tables", json=TWO_SEATS | body, headers=headers)
    assert answer.status_code == 201, answer.text
    return dict(answer.json()) | {"cookie": answer.headers["set-cookie"].split(";")[0]}


def join(base: str, tid: str, name: str) -> str:
    """The cookie of ``name``, seated at ``tid`` through ``base``."""
    answer = httpx.post(f"{base}/api/tables/{tid}/join", json={"name": name}, headers=address())
    assert answer.status_code == 200, answer.text
    return answer.headers["set-cookie"].split(";")[0]


class Socket:
    """A table's WebSocket with the last state it was sent and every message kept."""

    def __init__(self, base: str, tid: str, cookie: str | None = None) -> None:
        url = base.replace("http://", "ws://") + f"/api/tables/{tid}/ws"
        headers = {"cookie": cookie} if cookie else {}
        self._stack = contextlib.ExitStack()
        self.ws = self._stack.enter_context(
            wsc.connect(url, additional_headers=headers | address())
        )
        self.messages: list[Message] = []
        self.state: Message | None = None

    def pump(self, seconds: float = 0.0) -> None:
        """Read what has come (waiting up to ``seconds`` for the first message)."""
        timeout = seconds
        with contextlib.suppress(TimeoutError, ConnectionClosed):
            while True:
                message = json.loads(self.ws.recv(timeout=timeout))
                timeout = 0
                self.messages.append(message)
                if message["type"] == "state":
                    self.state = message

    def wait_for(self, test: Callable[[Message], bool], seconds: float = 15) -> Message:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for message in self.messages:
                if test(message):
                    return message
            self.pump(0.2)
        raise AssertionError(f"no such message in {seconds} s; last: {self.messages[-3:]}")

    def send(self, message: Message) -> None:
        self.ws.send(json.dumps(message))

    def close(self) -> None:
        self._stack.close()

    def states(self) -> list[Message]:
        return [m for m in self.messages if m["type"] == "state"]


def live_before_showdown(state: Message, number: int = 1) -> bool:
    """A state of hand ``number`` in play, before its showdown."""
    hand = state["hand"]
    if hand is None or state["table"]["hand_number"] != number:
        return False
    return not hand["over"] and hand["phase"] != "showdown"


def play_hand(players: list[Socket], number: int) -> None:
    """Each player checks or calls (and shows at the showdown) through its own socket
    until hand ``number`` is over."""
    deadline = time.monotonic() + 60
    acted: set[tuple[int, int]] = set()
    while time.monotonic() < deadline:
        for k, player in enumerate(players):
            player.pump(0.05)
            state = player.state
            if state is None:
                continue
            if state["last"] is not None and state["last"]["hand"] >= number:
                return
            legal = state["legal"]
            if legal is not None and (k, state["turn"]) not in acted:
                acted.add((k, state["turn"]))
                action = "s" if legal["phase"] == "showdown" else "c"
                player.send({"type": "action", "action": action, "turn": state["turn"]})
    raise AssertionError("the hand did not end")


def cards_of(state: Message, seat: int) -> list[str]:
    return list(state["seats"][seat - 1]["cards"])


@pytest.mark.slow
def test_a_hand_across_two_processes(pair: tuple[WebProcess, WebProcess]) -> None:
    a, b = pair
    host = address()
    table = create(a.base, host, name="split")
    tid = table["id"]
    ann = join(b.base, tid, "ann")  # through the process that does not run the table
    bob = join(a.base, tid, "bob")
    # both processes answer the same for the same browser
    seen = [httpx.get(f"{p.base}/api/tables/{tid}", headers={"cookie": ann}) for p in (a, b)]
    assert [r.status_code for r in seen] == [200, 200]
    assert seen[0].json()["you"] == seen[1].json()["you"] == {"seat": 1, "name": "ann"}
    sockets = {
        "ann": Socket(b.base, tid, ann),
        "bob": Socket(a.base, tid, bob),
        "watcher on a": Socket(a.base, tid),
        "watcher on b": Socket(b.base, tid),
    }
    try:
        for s in sockets.values():
            s.wait_for(lambda m: m["type"] == "state")
        sockets["ann"].send({"type": "start"})
        play_hand([sockets["ann"], sockets["bob"]], 1)
        for s in sockets.values():
            s.wait_for(lambda m: m["type"] == "state" and (m["last"] or {}).get("hand") == 1)
        # each player saw only their own hole cards while the hand was played
        for name, seat, other in (("ann", 1, 2), ("bob", 2, 1)):
            live = [m for m in sockets[name].states() if live_before_showdown(m)]
            assert live, f"{name} saw no state of the hand"
            mine = {tuple(cards_of(m, seat)) for m in live}
            assert len(mine) == 1 and "??" not in next(iter(mine)) and len(next(iter(mine))) == 2
            assert all(set(cards_of(m, other)) == {"??"} for m in live)
            assert all(m["you"] == {"seat": seat, "name": name} for m in live)
        # spectators on both processes got the views, with no hole card in them
        for name in ("watcher on a", "watcher on b"):
            live = [m for m in sockets[name].states() if live_before_showdown(m)]
            assert {m["hand"]["street"] for m in live} >= {"pre-flop", "river"}
            assert all(set(cards_of(m, 1)) | set(cards_of(m, 2)) == {"??"} for m in live)
            assert all(m["you"] is None for m in live)
        # the showdown turned up both hands: what each saw as theirs
        ann_cards = cards_of(next(m for m in sockets["ann"].states() if live_before_showdown(m)), 1)
        bob_cards = cards_of(next(m for m in sockets["bob"].states() if live_before_showdown(m)), 2)
        final = sockets["watcher on b"].state
        assert final is not None
        last = [m for m in sockets["watcher on b"].states() if (m["last"] or {}).get("hand") == 1]
        assert ann_cards != bob_cards and last
        # the finished hand's download, as each player may see it, is the same from both
        for cookie, cards in ((ann, ann_cards), (bob, bob_cards)):
            texts = [
                httpx.get(f"{p.base}/api/tables/{tid}/hands.phhs", headers={"cookie": cookie})
                for p in (a, b)
            ]
            assert [t.status_code for t in texts] == [200, 200]
            assert texts[0].text == texts[1].text
            assert all(Card.parse(card).ascii in texts[1].text for card in cards)
            assert texts[1].headers["content-disposition"].endswith(f'table-{tid}.phhs"')
        # and its replay
        replays = [
            httpx.get(f"{p.base}/api/tables/{tid}/hands/1/replay", headers={"cookie": ann})
            for p in (a, b)
        ]
        assert [r.status_code for r in replays] == [200, 200]
        assert replays[0].json() == replays[1].json()
        # chat from a socket on each process reaches the sockets of the other
        sockets["ann"].send({"type": "chat", "text": "hello from b"})
        status = sockets["ann"].wait_for(lambda m: m["type"] == "chat_status")
        assert status["posted"] >= 1 and status["muted"] is False
        sockets["bob"].send({"type": "chat", "text": "hi from a"})
        for s in sockets.values():
            s.wait_for(
                lambda m: (
                    m["type"] == "state"
                    and [c["text"] for c in m["chat"]] == ["hello from b", "hi from a"]
                )
            )
        # a bad message through B gets the owner's one-line error, and changes nothing
        sockets["ann"].send({"type": "dance"})
        error = sockets["ann"].wait_for(lambda m: m["type"] == "error")
        assert error["message"].startswith("unknown message type 'dance'")
        sockets["ann"].send({"type": "action", "action": "r 5000000"})
        error = sockets["ann"].wait_for(
            lambda m: m["type"] == "error" and "dance" not in m["message"]
        )
        assert "5000000" in error["message"] or "not your turn" in error["message"]
        # the ledger and a sit-out (HTTP and socket) through the non-owner
        ledgers = [httpx.get(f"{p.base}/api/tables/{tid}/ledger") for p in (a, b)]
        assert ledgers[0].json() == ledgers[1].json()
        assert ledgers[1].json()["balanced"] is True and ledgers[1].json()["chips_on_table"] == 200
        csv = httpx.get(f"{b.base}/api/tables/{tid}/ledger?format=csv")
        assert csv.headers["content-type"].startswith("text/csv") and "ann" in csv.text
        sockets["ann"].send({"type": "sit_out"})
        view = _poll(a.base, tid, ann, lambda v: v["seats"][0]["sitting_out"])
        assert view["you"]["seat"] == 1
    finally:
        for s in sockets.values():
            s.close()


def _poll(base: str, tid: str, cookie: str, test: Callable[[Message], bool]) -> Message:
    for _ in range(100):
        view = httpx.get(f"{base}/api/tables/{tid}", headers={"cookie": cookie}).json()
        if test(view):
            return dict(view)
        time.sleep(0.1)
    raise AssertionError("the view never changed")


def test_the_host_works_through_the_process_that_does_not_run_the_table(
    pair: tuple[WebProcess, WebProcess],
) -> None:
    a, b = pair
    table = create(a.base, address(), name="hosted")
    tid, host = table["id"], table["cookie"]
    url = f"{b.base}/api/tables/{tid}/host"
    paused = httpx.post(url, json={"op": "pause"}, headers={"cookie": host} | address())
    assert paused.status_code == 200, paused.text
    assert paused.json()["paused"] is True
    assert _poll(a.base, tid, host, lambda v: v["table"]["paused"])["host"] is True
    stranger = httpx.post(url, json={"op": "resume"}, headers=address())
    assert stranger.status_code == 403 and "host" in stranger.json()["error"]
    bad = httpx.post(url, json={"op": "dance"}, headers={"cookie": host} | address())
    assert bad.status_code == 400 and "unknown host operation" in bad.json()["error"]
    added = httpx.post(
        url, json={"op": "add_bot", "seat": 2, "bot": "random"}, headers={"cookie": host}
    )
    assert added.status_code == 200, added.text
    view = _poll(a.base, tid, host, lambda v: v["seats"][1]["kind"] == "bot")
    assert view["seats"][1]["name"] == "random bot 2"
    closed = httpx.post(f"{b.base}/api/tables/{tid}/close", json={}, headers={"cookie": host})
    assert closed.status_code == 200 and closed.json()["closed"] is True
    # a closed table is gone everywhere
    for p in (a, b):
        assert httpx.get(f"{p.base}/api/tables/{tid}").status_code == 404


def test_the_rate_limits_hold_across_processes(pair: tuple[WebProcess, WebProcess]) -> None:
    """Tables created are 10 a minute per client: half the requests to each process,
    the eleventh is refused (each process alone would allow ten)."""
    a, b = pair
    one = address()
    codes = []
    for k in range(12):
        base = (a, b)[k % 2].base
        answer = httpx.post(f"{base}/api/tables", json=TWO_SEATS, headers=one)
        codes.append(answer.status_code)
        if answer.status_code == 429:
            assert int(answer.headers["retry-after"]) >= 1
    assert codes == [201] * 10 + [429, 429]
    other = httpx.post(f"{a.base}/api/tables", json=TWO_SEATS, headers=address())
    assert other.status_code == 201  # another client has its own budget


def test_every_lobby_lists_every_public_table(pair: tuple[WebProcess, WebProcess]) -> None:
    a, b = pair
    on_a = create(a.base, address(), public=True, name="lobby a")["id"]
    on_b = create(b.base, address(), public=True, name="lobby b")["id"]
    private = create(b.base, address(), name="hidden")["id"]
    lobbies = [httpx.get(f"{p.base}/api/tables").json()["tables"] for p in (a, b)]
    for tables in lobbies:
        by_id = {t["id"]: t for t in tables}
        assert {on_a, on_b} <= set(by_id) and private not in by_id
        assert by_id[on_a]["name"] == "lobby a" and by_id[on_b]["name"] == "lobby b"
        assert by_id[on_b]["url"] == f"/tables/{on_b}" and by_id[on_b]["open_seats"] == 2
    # the same fields from the process running the table and from the other
    here = {t["id"]: t for t in lobbies[0]}[on_a]
    there = {t["id"]: t for t in lobbies[1]}[on_a]
    assert here == there
    assert set(here) == {
        "id", "name", "game", "game_name", "stakes", "seats", "open_seats", "bots",
        "hands_played", "status", "public", "practice", "url", "process",
    }  # fmt: skip
    # a table's page is served by both
    for p in (a, b):
        page = httpx.get(f"{p.base}/tables/{on_b}")
        assert page.status_code == 200 and on_b in page.text


def test_an_unknown_table_is_404_on_every_process(pair: tuple[WebProcess, WebProcess]) -> None:
    a, b = pair
    for p in (a, b):
        answer = httpx.get(f"{p.base}/api/tables/nosuchtable123")
        assert answer.status_code == 404 and "no table" in answer.json()["error"]


@pytest.mark.slow
def test_an_action_relayed_to_a_killed_owner_is_refused_then_played_once(
    postgres_server: PostgresServer, redis_url: str, tmp_path: Path
) -> None:
    db = postgres_server.new_schema()
    a, b = start_web(db, redis_url, 2, tmp_path)
    sockets: list[Socket] = []
    try:
        tid = create(a.base, address())["id"]
        cookies = [join(b.base, tid, name) for name in ("ann", "bob")]
        sockets = [Socket(b.base, tid, c) for c in cookies]
        sockets[0].send({"type": "start"})
        actor = None
        for _ in range(100):  # the hand is dealt: find who acts first
            for s in sockets:
                s.pump(0.05)
            actor = next((s for s in sockets if s.state and s.state["legal"]), None)
            if actor is not None:
                break
        assert actor is not None and actor.state is not None
        turn = actor.state["turn"]
        with Store.open(db) as store:
            live = store.live_hand(tid)
            assert live is not None
            before = live.actions
        a.kill()  # kill -9 the owner
        actor.send({"type": "action", "action": "c", "turn": turn})
        error = actor.wait_for(lambda m: m["type"] == "error", seconds=10)
        assert "stopped" in error["message"] or "did not answer" in error["message"]
        with pytest.raises(ConnectionClosed) as closed:  # then B closes it: reconnect
            actor.ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        # the page reconnects once B has taken the table over; the hand is where it was
        deadline = time.monotonic() + 20
        while True:
            view = httpx.get(f"{b.base}/api/tables/{tid}", headers={"cookie": cookies[0]})
            if view.status_code == 200:
                break
            assert view.status_code == 503 and view.json()["error"], view.text
            assert time.monotonic() < deadline, "B never took the table over"
            time.sleep(0.2)
        with Store.open(db) as store:
            live = store.live_hand(tid)
            assert live is not None and live.actions == before  # not applied
        seat = actor.state["you"]["seat"]
        again = Socket(b.base, tid, cookies[seat - 1])
        sockets.append(again)
        state = again.wait_for(lambda m: m["type"] == "state" and m["legal"] is not None)
        again.send({"type": "action", "action": "c", "turn": state["turn"]})
        again.send({"type": "action", "action": "c", "turn": state["turn"]})  # a double click
        again.wait_for(lambda m: m["type"] == "error" and "moved on" in m["message"])
        with Store.open(db) as store:
            live = store.live_hand(tid)
            assert live is not None and len(live.actions) == len(before) + 1  # once
    except BaseException:
        for p in (a, b):
            print(f"--- {p.log}", p.tail())
        raise
    finally:
        for s in sockets:
            with contextlib.suppress(Exception):
                s.close()
        for p in (a, b):
            p.stop()


# ---- the pieces, without processes ----------------------------------------------------------


def test_shared_rate_limits_are_one_budget_for_every_limiter(redis_url: str) -> None:
    """Two limiters on one Redis (two processes) share each client's buckets; the
    per-connection "message" bucket stays in each; a Redis away limits per process."""
    import asyncio

    import redis.asyncio

    from cardlab.web.guard import Limit, SharedRateLimiter

    limits = {"join": Limit(3, 60.0), "message": Limit(1, 60.0)}

    async def scenario() -> None:
        client = redis.asyncio.Redis.from_url(redis_url)
        try:
            one, two = SharedRateLimiter(client, limits), SharedRateLimiter(client, limits)
            taken = [await (one, two)[k % 2].take("10.0.0.1", "join") for k in range(4)]
            assert taken[:3] == [None, None, None]
            assert taken[3] == pytest.approx(20.0, abs=0.5)  # a token comes back in 60/3 s
            assert await two.take("10.0.0.2", "join") is None  # another client
            assert await one.take("10.0.0.1", "message") is None
            assert await two.take("10.0.0.1", "message") is None  # each process its own
            assert await one.take("10.0.0.1", "message") == pytest.approx(60.0, abs=0.5)
            ttl = await client.pttl("cardlab:rate:join:10.0.0.1")
            assert 0 < ttl <= 60_001  # forgotten once full again (an expiry rounded up a ms)
        finally:
            await client.aclose()
        away = redis.asyncio.Redis(port=free_port(), socket_connect_timeout=0.5)
        alone = SharedRateLimiter(away, limits)
        started = time.monotonic()
        waits = [await alone.take("c", "join") for _ in range(4)]
        assert waits[:3] == [None, None, None] and waits[3] is not None
        assert 20.0 - (time.monotonic() - started) - 0.1 <= waits[3] <= 20.0
        assert time.monotonic() - started < 20  # one look for Redis, then local at once
        await away.aclose()

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("path", "query", "table"),
    [
        ("/api/tables/abc_D-1", "", "abc_D-1"),
        ("/api/tables/abc/join", "", "abc"),
        ("/tables/abc/hands/3/replay", "", "abc"),
        ("/api/tables/abc/hands.phhs", "", "abc"),
        ("/api/tables/options", "", None),
        ("/api/tables", "", None),
        ("/tables", "", None),
        ("/api/hands/12/replay", "table=xyz", "xyz"),
        ("/api/hands/12/replay", "", None),
        ("/api/tables/a%2Fb", "", None),
        ("/api/openseven/games/abc", "", None),
    ],
)
def test_which_requests_are_about_a_table(path: str, query: str, table: str | None) -> None:
    from cardlab.web.cluster import table_of

    assert table_of({"path": path, "query_string": query.encode()}) == table


def test_a_request_to_a_silent_or_gone_process_fails_clearly(redis_url: str) -> None:
    """Nobody listening: refused at once; listening but silent (stalled): refused after
    the timeout; never resent (the silent process got it once)."""
    import asyncio

    import redis.asyncio

    from cardlab.web.cluster import Cluster, ClusterError, Moved

    async def scenario() -> None:
        asker = Cluster(redis.asyncio.Redis.from_url(redis_url), "asker", timeout=0.5)
        stalled = Cluster(redis.asyncio.Redis.from_url(redis_url), "stalled")
        got: list[dict[str, Any]] = []

        async def never(message: dict[str, Any]) -> dict[str, Any]:
            got.append(message)
            await asyncio.sleep(3600)
            return {}

        async def echo(message: dict[str, Any]) -> dict[str, Any]:
            return {"reply": {"echo": message["text"]}}

        stalled.handlers.update(ws_msg=never, ws_open=echo)
        await asker.start()
        await stalled.start()
        try:
            answer = await asker.request("stalled", {"kind": "ws_open", "text": "hi"})
            assert answer["reply"] == {"echo": "hi"}
            started = time.monotonic()
            with pytest.raises(ClusterError, match=r"did not answer within 0.5 s") as stall:
                await asker.request("stalled", {"kind": "ws_msg", "text": "c"})
            assert not isinstance(stall.value, Moved)
            assert 0.5 <= time.monotonic() - started < 2
            await asyncio.sleep(0.2)
            assert [m["text"] for m in got] == ["c"]  # delivered once, not resent
            started = time.monotonic()
            with pytest.raises(Moved, match="has stopped"):
                await asker.request("nobody", {"kind": "ws_msg", "text": "c"})
            assert time.monotonic() - started < 0.5  # at once
            assert asker._waiting == {}  # nothing left waiting
        finally:
            await stalled.stop()
            await asker.stop()

    asyncio.run(scenario())
