"""Outages under real `cardlab web` processes (tests/_cluster.py), a PostgreSQL and a Redis
of this module's own (stopped and started here):

- PostgreSQL stopped for a few seconds mid-hand: every table pauses and every page says
  so, an action is refused with that reason, ``/readyz`` is 503; when it is back
  ``/readyz`` is 200, the pages are closed with 1012 and reconnect to the same decision,
  and play goes on with every hand stored once and every chip kept;
- an outage past ``--outage-limit``: ``/healthz`` 503, and ``--outage-exit`` stops the
  process with status 3;
- Redis restarted empty, and ``FLUSHALL``: the owner loses its leases and closes its
  tables' sockets (its own and those relayed by another process) with 1012 at once; the
  pages reconnect and play on.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from _cluster import WebProcess, start_web, stop_all
from _postgres import PostgresServer
from _redis import RedisServer
from cardlab.store import Store
from cardlab.web.table_errors import AWAY

httpx = pytest.importorskip("httpx")
wsc = pytest.importorskip("websockets.sync.client")
ConnectionClosed = pytest.importorskip("websockets.exceptions").ConnectionClosed

Message = dict[str, Any]
RECONNECT = 1012
TABLE = {
    "game": "fesca78-holdem",
    "seats": 3,
    "stack": 100,
    "clock": 0,
    "pause": 0,
    "bot_delay": 0,
    "bots": {"3": "station"},
}


@pytest.fixture(scope="module")
def servers() -> Iterator[tuple[PostgresServer, RedisServer]]:
    """A PostgreSQL and a Redis of this module's own: the tests stop and start them."""
    try:
        pg, redis = PostgresServer(), RedisServer()
    except FileNotFoundError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        pg.start()
        redis.start()
        yield pg, redis
    finally:
        redis.stop()
        pg.stop()


_addresses = iter(range(1, 60000))


def address() -> dict[str, str]:
    """A client address of its own (the processes trust X-Forwarded-For)."""
    n = next(_addresses)
    return {"x-forwarded-for": f"10.9.{n // 250}.{n % 250 + 1}"}


class Page:
    """One person's page: a seat's cookie and its WebSocket (reconnected on demand)."""

    def __init__(self, base: str, tid: str, cookie: str) -> None:
        self.base, self.tid, self.cookie = base, tid, cookie
        self.state: Message | None = None
        self.errors: list[str] = []
        self.closed_with: int | None = None
        self.ws: Any = None
        self._stack = contextlib.ExitStack()
        self.connect()

    def connect(self) -> None:
        url = self.base.replace("http://", "ws://") + f"/api/tables/{self.tid}/ws"
        self.close()
        self._stack = contextlib.ExitStack()
        headers = {"cookie": self.cookie} | address()
        self.ws = self._stack.enter_context(wsc.connect(url, additional_headers=headers))
        self.closed_with = None
        self.state = None

    def pump(self, seconds: float = 0.0) -> None:
        """Read what has come (waiting up to ``seconds`` for the first message)."""
        timeout = seconds
        try:
            while True:
                message = json.loads(self.ws.recv(timeout=timeout))
                timeout = 0
                if message["type"] == "state":
                    self.state = message
                elif message["type"] == "error":
                    self.errors.append(message["message"])
        except TimeoutError:
            pass
        except ConnectionClosed as closed:
            self.closed_with = closed.rcvd.code if closed.rcvd is not None else -1

    def wait(self, test: Callable[[Page], bool], seconds: float = 20) -> None:
        deadline = time.monotonic() + seconds
        while not test(self):
            assert time.monotonic() < deadline, f"not so in {seconds} s: {self.summary()}"
            if self.closed_with is not None:
                time.sleep(0.1)
            else:
                self.pump(0.2)

    def summary(self) -> str:
        if self.state is None:
            return f"no state; closed with {self.closed_with}"
        return f"{self.state['table']['status']!r}; closed with {self.closed_with}"

    def my_turn(self) -> bool:
        return bool(self.state and self.state["legal"] and self.state["table"]["status"] != AWAY)

    def act(self) -> None:
        """Check or call (show at a showdown)."""
        assert self.state is not None
        action = "s" if self.state["legal"]["phase"] == "showdown" else "c"
        self.ws.send(json.dumps({"type": "action", "action": action, "turn": self.state["turn"]}))

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._stack.close()


def status(page: Page) -> str:
    return "" if page.state is None else str(page.state["table"]["status"])


def essentials(view: Message) -> Message:
    """What must be the same after an outage: the hand, its cards, the decision."""
    hand = view["hand"]
    return {
        "hand_number": view["table"]["hand_number"],
        "deal": None if hand is None else hand["deal_number"],
        "board": None if hand is None else hand["board"],
        "seats": [{k: s[k] for k in ("name", "stack", "bet", "cards")} for s in view["seats"]],
        "legal": view["legal"],
        "log": view["log"],
    }


def play(pages: list[Page], until: Callable[[Message], bool], seconds: float = 60) -> None:
    """The people check or call until ``until(state of the first page)``."""
    deadline = time.monotonic() + seconds
    while True:
        for page in pages:
            page.pump(0.05)
            assert page.closed_with is None, f"a socket closed in play: {page.summary()}"
        first = pages[0].state
        if first is not None and until(first):
            return
        assert time.monotonic() < deadline, f"play never got there: {pages[0].summary()}"
        for page in pages:
            if page.my_turn():
                page.act()


def ready(base: str) -> int:
    try:
        return httpx.get(base + "/readyz", timeout=5).status_code
    except httpx.HTTPError:
        return -1


def wait_status(base: str, path: str, code: int, seconds: float = 20) -> str:
    deadline = time.monotonic() + seconds
    while True:
        with contextlib.suppress(httpx.HTTPError):
            answer = httpx.get(base + path, timeout=5)
            if answer.status_code == code:
                return answer.text
        assert time.monotonic() < deadline, f"{path} never answered {code}"
        time.sleep(0.2)


def new_table(base: str) -> tuple[str, list[str]]:
    """A table of ann, bob and a bot, through ``base``: its id and the people's cookies."""
    created = httpx.post(f"{base}/api/tables", json=TABLE, headers=address())
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    cookies = []
    for name in ("ann", "bob"):
        joined = httpx.post(f"{base}/api/tables/{tid}/join", json={"name": name}, headers=address())
        assert joined.status_code == 200, joined.text
        cookies.append(joined.headers["set-cookie"].split(";")[0])
    return tid, cookies


def check_books(db: str, tid: str, at_least: int) -> None:
    """Every hand dealt and finished is stored once (deal numbers 0, 1, 2... each once),
    at least ``at_least`` of them; every chip is on the table; the ledger balances
    (buy-ins = what sits on the table, nobody cashed out)."""
    with Store.open(db) as store:
        hands = store.hands(table_id=tid)
        deals = sorted(int(re.findall(r"_deal_number = (\d+)", h.phh)[0]) for h in hands)
        _, state = store.load_table(tid)
        assert deals == list(range(state["hands_played"]))
        assert len(deals) >= at_least
        for hand in hands:
            assert sum(hand.finishing_stacks) == sum(hand.starting_stacks) == 300
        bought = sum(e.amount for e in store.ledger(tid) if e.kind == "buy-in")
        assert bought == 300 == sum(state["stacks"])


def count_lines(process: WebProcess, text: str) -> int:
    return sum(1 for line in process.tail(10**7).splitlines() if text in line)


@pytest.mark.slow
def test_postgresql_stopped_mid_hand_pauses_every_table_and_play_resumes(
    servers: tuple[PostgresServer, RedisServer], tmp_path: Path
) -> None:
    pg, redis = servers
    redis.flush()
    db = pg.new_schema()
    a, b = start_web(db, redis.url, 2, tmp_path)
    pages: list[Page] = []
    try:
        tid, cookies = new_table(a.base)  # A runs it
        # ann's socket is A's own, bob's is relayed by B to A
        pages = [Page(a.base, tid, cookies[0]), Page(b.base, tid, cookies[1])]
        play(pages, lambda s: s["table"]["hand_number"] >= 2 and s["hand"]["street"] == "flop")
        time.sleep(0.5)
        for page in pages:
            page.pump(0.2)
        views = [httpx.get(f"{a.base}/api/tables/{tid}", headers={"cookie": c}) for c in cookies]
        before = [essentials(v.json()) for v in views]

        pg.pause()
        for process in (a, b):
            reason = wait_status(process.base, "/readyz", 503)
            assert "store is unreachable" in reason
        for page in pages:  # every page hears why the table waits
            page.wait(lambda p: status(p) == AWAY)
            assert page.state is not None
            page.ws.send(json.dumps({"type": "action", "action": "c", "turn": page.state["turn"]}))
            page.wait(lambda p: any("store is unreachable" in e for e in p.errors))
        refused = httpx.post(
            f"{b.base}/api/tables/{tid}/join", json={"name": "cy"}, headers=address()
        )
        assert refused.status_code == 503 and AWAY in refused.json()["error"]
        seen = httpx.get(f"{b.base}/api/tables/{tid}", headers={"cookie": cookies[0]})
        assert seen.status_code == 200 and seen.json()["table"]["status"] == AWAY
        time.sleep(2)  # the bot and the clock wait too: nothing moved
        assert essentials(seen.json()) == before[0]

        pg.resume()
        for process in (a, b):
            wait_status(process.base, "/readyz", 200, seconds=30)
        for page in pages:  # closed with 1012: the page reconnects
            page.wait(lambda p: p.closed_with is not None)
            assert page.closed_with == RECONNECT
            page.connect()
            page.wait(lambda p: p.state is not None and status(p) != AWAY)
        views = [httpx.get(f"{a.base}/api/tables/{tid}", headers={"cookie": c}) for c in cookies]
        assert [essentials(v.json()) for v in views] == before  # the same decision

        play(pages, lambda s: s["table"]["hand_number"] >= 4)
        check_books(db, tid, 3)
        assert count_lines(a, "the store is unreachable") == 1
        assert count_lines(a, "the store is reachable again") == 1
    except BaseException:
        for process in (a, b):
            print(f"--- {process.log.name}\n{process.tail()}")
        raise
    finally:
        for page in pages:
            page.close()
        with contextlib.suppress(Exception):
            pg.resume()
        stop_all([a, b])


@pytest.mark.slow
def test_an_outage_past_its_limit_makes_the_process_unhealthy_or_stop(
    servers: tuple[PostgresServer, RedisServer], tmp_path: Path
) -> None:
    pg, redis = servers
    redis.flush()
    db = pg.new_schema()
    limit = ["--outage-limit", "2"]
    stops = WebProcess(db, redis.url, tmp_path / "stops.log", extra=[*limit, "--outage-exit"])
    stays = WebProcess(db, redis.url, tmp_path / "stays.log", extra=limit)
    try:
        for process in (stops, stays):
            process.start()
            wait_status(process.base, "/readyz", 200)
        assert httpx.get(stays.base + "/healthz").status_code == 200
        pg.pause()
        assert stops.process is not None
        assert stops.process.wait(30) == 3
        assert "--outage-limit" in stops.tail()
        text = wait_status(stays.base, "/healthz", 503)
        assert "store has been unreachable" in text
        assert ready(stays.base) == 503
        pg.resume()
        wait_status(stays.base, "/healthz", 200, seconds=30)
        wait_status(stays.base, "/readyz", 200)
    except BaseException:
        for process in (stops, stays):
            print(f"--- {process.log.name}\n{process.tail()}")
        raise
    finally:
        with contextlib.suppress(Exception):
            pg.resume()
        stop_all([stops, stays])


@pytest.mark.slow
@pytest.mark.parametrize("forget", ["restart", "flushall"])
def test_redis_forgetting_the_leases_closes_the_old_owners_sockets(
    forget: str, servers: tuple[PostgresServer, RedisServer], tmp_path: Path
) -> None:
    pg, redis = servers
    redis.flush()
    db = pg.new_schema()
    a, b = start_web(db, redis.url, 2, tmp_path)
    pages: list[Page] = []
    try:
        tid, cookies = new_table(a.base)
        pages = [Page(a.base, tid, cookies[0]), Page(b.base, tid, cookies[1])]
        play(pages, lambda s: s["table"]["hand_number"] >= 2 and s["hand"]["street"] == "turn")
        if forget == "restart":
            redis.restart()
        else:
            redis.flush()
        forgot = time.monotonic()
        for page in pages:  # A's own socket and the one B relays: both closed, 1012
            page.wait(lambda p: p.closed_with is not None, seconds=10)
            assert page.closed_with == RECONNECT, page.summary()
        assert time.monotonic() - forgot < 12  # a renewal (every 5/3 s) and a close
        assert count_lines(a, "lost the lease") >= 1
        for page in pages:  # the pages reconnect (a refusal while nobody holds the lease)
            deadline = time.monotonic() + 20
            while True:
                try:
                    page.connect()
                    page.wait(lambda p: p.state is not None and p.closed_with is None, 5)
                    break
                except Exception:
                    assert time.monotonic() < deadline, "the page never reconnected"
                    time.sleep(1)
        number = pages[0].state["table"]["hand_number"] if pages[0].state else 0
        play(pages, lambda s: s["table"]["hand_number"] >= number + 2)
        check_books(db, tid, number + 1)
    except BaseException:
        for process in (a, b):
            print(f"--- {process.log.name}\n{process.tail()}")
        raise
    finally:
        for page in pages:
            page.close()
        stop_all([a, b])
