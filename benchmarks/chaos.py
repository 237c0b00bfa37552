"""A chaos run of the scale-out set-up of docs/scale-out.md: what outages cost and lose.

Starts a PostgreSQL and a Redis in temporary folders (the tests' helpers,
``tests/_postgres.py`` and ``tests/_redis.py``), three ``cardlab web --db
postgresql://... --redis redis://... --trust-proxy`` processes and nginx in front of them
with the configuration of docs/scale-out.md (``tests/_cluster.py``). Through nginx only,
it creates ``--tables`` tables, each of ``--people`` scripted people (a WebSocket client
each, from a loopback address of its own, acting at random on its turn and reconnecting
a second after its socket closes, as the page does) and two bots. During the run, one
event every ``--gap`` seconds, in this order: ``kill -9`` of a random web process
(started again two seconds later), PostgreSQL stopped for ``--pg-down`` seconds and
started, another ``kill -9``, Redis restarted empty, Redis ``FLUSHALL``, a last ``kill
-9``; then ``--settle`` seconds of quiet play.

At the end it checks, from the store: every deal begun is stored once as a finished hand
or is the hand in play (deal numbers 0, 1, 2... with none twice and none missing), every
stored hand ends with the chips it started with, every table's chips equal its ledger's
buy-ins less its cash-outs; and from the clients: every person's page is connected and
saw a new hand dealt after the last event. It prints the counts, and exits 1 if a check
failed. Only loopback is ever contacted; the run is bounded (about ``6 * --gap +
--settle`` seconds after the start and the time the events take, ``--timeout`` at
most).

    python benchmarks/chaos.py [--tables 30] [--people 1] [--gap 15] [--settle 30]
        [--pg-down 6] [--seed 1]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "benchmarks")]

from _cluster import Nginx, WebProcess, launch_web, stop_all, wait_ready  # noqa: E402
from _postgres import PostgresServer  # noqa: E402
from _redis import RedisServer  # noqa: E402
from cardlab.store import Store  # noqa: E402
from web_tables import random_action  # noqa: E402

GAMES = ["fesca78-holdem", "fesca78-omaha", "fesca78-stud", "fesca78-draw"]
EVENTS = ("kill", "postgres", "kill", "redis-restart", "flushall", "kill")
PROCESSES = 3
STACK = 1000
AWAY = "store is unreachable"


def address(k: int) -> str:
    """The ``k``-th client's loopback address: 127.2.0.1, 127.2.0.2, ..."""
    return f"127.2.{k // 250}.{1 + k % 250}"


@dataclass
class Person:
    """One scripted person's page and what it went through."""

    name: str
    table: str
    source: str
    cookie: str = ""
    connected: bool = False
    actions: int = 0
    closes: Counter[str] = field(default_factory=Counter)  # close codes, refusals
    errors: Counter[str] = field(default_factory=Counter)  # error messages, by kind
    hands_seen: list[tuple[float, int]] = field(default_factory=list)  # (when, hand number)

    def saw_new_hand_after(self, moment: float) -> bool:
        before = [n for at, n in self.hands_seen if at <= moment]
        after = [n for at, n in self.hands_seen if at > moment]
        return bool(after) and max(after) > max(before, default=-1)


async def join(base: str, person: Person, stop: asyncio.Event) -> bool:
    """Sit ``person`` down through nginx (again and again while the table moves)."""
    transport = httpx.AsyncHTTPTransport(local_address=person.source)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as client:
        while not stop.is_set():
            try:
                r = await client.post(
                    f"/api/tables/{person.table}/join", json={"name": person.name}
                )
            except httpx.HTTPError:
                r = None
            if r is not None and r.status_code == 200:
                person.cookie = r.headers["set-cookie"].split(";")[0]
                return True
            person.closes[f"join {r.status_code if r is not None else 'failed'}"] += 1
            if r is not None and r.status_code < 500 and r.status_code != 429:
                print(f"{person.name} cannot join: {r.status_code} {r.text[:200]}")
                return False  # refused for good: the check at the end counts it
            await asyncio.sleep(1)
    return False


async def play(base: str, person: Person, stop: asyncio.Event, rng: random.Random) -> None:
    """The page: connected, acting on its turn, reconnecting a second after a close,
    until ``stop`` is set."""
    if not await join(base, person, stop):
        return
    uri = base.replace("http", "ws") + f"/api/tables/{person.table}/ws"
    while not stop.is_set():
        try:
            async with connect(
                uri,
                additional_headers={"cookie": person.cookie},
                max_size=2**22,
                local_addr=(person.source, 0),
                open_timeout=10,
            ) as ws:
                person.connected = True
                await _converse(ws, person, stop, rng)
                if stop.is_set():
                    return  # still connected at the end
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else 1006
            person.closes[str(code)] += 1
        except InvalidStatus as refused:  # the handshake refused (no owner yet: 403)
            person.closes[f"handshake {refused.response.status_code}"] += 1
        except (OSError, TimeoutError):
            person.closes["connect failed"] += 1
        person.connected = False
        await asyncio.sleep(1)


async def _converse(ws: Any, person: Person, stop: asyncio.Event, rng: random.Random) -> None:
    answered = -1  # the turn last acted on
    while not stop.is_set():
        try:
            raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
        except TimeoutError:
            continue
        message = json.loads(raw)
        if message["type"] == "error":
            text = str(message["message"])
            person.errors[AWAY if AWAY in text else text.split(":")[0][:50]] += 1
            continue
        if message["type"] != "state":
            continue
        person.hands_seen.append((time.monotonic(), int(message["table"]["hand_number"])))
        legal = message["legal"]
        if legal is None or message["turn"] == answered:
            continue  # (while the store is away it acts too: the refusal is counted)
        answered = message["turn"]
        action = random_action(legal, rng)
        await ws.send(json.dumps({"type": "action", "action": action, "turn": message["turn"]}))
        person.actions += 1


async def make_tables(base: str, count: int, people: int) -> list[str]:
    """The tables, created through nginx, five from each client address (the rate limit
    is ten a minute per client)."""
    ids: list[str] = []
    for k in range(count):
        seats = people + 2
        body = {
            "game": GAMES[k % len(GAMES)],
            "seats": seats,
            "betting": "fixed-limit",
            "stack": STACK,
            "bots": {str(people + 1): "random", str(people + 2): "station"},
            "bot_delay": 0.3,
            "pause": 0.5,
            "clock": 20,
            "public": True,
        }
        transport = httpx.AsyncHTTPTransport(local_address=address(5000 + k // 5))
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as client:
            r = await client.post("/api/tables", json=body)
        if r.status_code != 201:
            raise RuntimeError(f"creating a table: {r.status_code} {r.text}")
        ids.append(r.json()["id"])
    return ids


class Chaos:
    """The servers, and the events done to them."""

    def __init__(self, web: list[WebProcess], pg: PostgresServer, redis: RedisServer) -> None:
        self.web = web
        self.pg = pg
        self.redis = redis
        self.done: Counter[str] = Counter()

    async def event(self, kind: str, rng: random.Random, pg_down: float) -> str:
        if kind == "kill":
            victim = rng.choice(self.web)
            victim.kill()
            await asyncio.sleep(2)
            victim.launch()
            await asyncio.to_thread(victim.wait_ready)
            what = f"kill -9 of the process on port {victim.port}, started again"
        elif kind == "postgres":
            await asyncio.to_thread(self.pg.pause)
            await asyncio.sleep(pg_down)
            await asyncio.to_thread(self.pg.resume)
            what = f"PostgreSQL stopped for {pg_down:g} s and started"
        elif kind == "redis-restart":
            await asyncio.to_thread(self.redis.restart)
            what = "Redis restarted empty"
        else:
            await asyncio.to_thread(self.redis.flush)
            what = "Redis FLUSHALL"
        self.done[kind] += 1
        return what


@dataclass
class Books:
    """What the store holds, table by table."""

    hands: int = 0
    duplicates: int = 0  # deal numbers stored twice
    missing: int = 0  # deal numbers begun, neither stored nor in play
    unconserved: int = 0  # stored hands whose chips changed in total
    unbalanced: list[str] = field(default_factory=list)  # tables whose ledger does not add up


def audit(db: str, ids: list[str]) -> Books:
    books = Books()
    with Store.open(db) as store:
        for tid in ids:
            hands = store.hands(table_id=tid)
            books.hands += len(hands)
            deals = [int(re.findall(r"_deal_number = (\d+)", h.phh)[0]) for h in hands]
            books.duplicates += len(deals) - len(set(deals))
            books.unconserved += sum(
                sum(h.finishing_stacks) != sum(h.starting_stacks) for h in hands
            )
            _, state = store.load_table(tid)
            live = store.live_hand(tid)
            begun = set(range(int(state["deals"])))
            books.missing += len(begun - set(deals) - ({live.deal_number} if live else set()))
            entries = store.ledger(tid)
            brought = sum(e.amount for e in entries if e.kind == "buy-in")
            taken = sum(e.amount for e in entries if e.kind == "cash-out")
            if brought - taken != sum(int(v) for v in state["stacks"]):
                books.unbalanced.append(tid)
    return books


def log_lines(web: list[WebProcess], text: str) -> int:
    return sum(p.tail(10**9).count(text) for p in web)


async def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    pg, redis = PostgresServer(), RedisServer()
    logs = Path(tempfile.mkdtemp(prefix="cardlab-chaos-"))
    web: list[WebProcess] = []
    nginx: Nginx | None = None
    try:
        pg.start()
        redis.start()
        db = pg.new_database()
        extra = ["--bot-hands", "1000000", "--idle-close", "86400", "--outage-limit", "600"]
        web = launch_web(db, redis.url, PROCESSES, logs, extra=extra)
        await asyncio.to_thread(wait_ready, web)
        nginx = Nginx([p.port for p in web], workers=1)
        nginx.start()
        ids = await make_tables(nginx.base, args.tables, args.people)
        start = time.monotonic()
        stop = asyncio.Event()
        people = [
            Person(f"guest{k}", ids[k // args.people], address(k))
            for k in range(args.tables * args.people)
        ]
        clients = [
            asyncio.create_task(play(nginx.base, p, stop, random.Random(rng.random())))
            for p in people
        ]
        chaos = Chaos(web, pg, redis)
        last_event = start
        for kind in EVENTS:
            await asyncio.sleep(args.gap)
            what = await chaos.event(kind, rng, args.pg_down)
            last_event = time.monotonic()
            print(f"{last_event - start:6.1f} s  {what}", flush=True)
        await asyncio.sleep(args.settle)
        stop.set()
        await asyncio.gather(*clients)
        elapsed = time.monotonic() - start
        books = audit(db, ids)
        playing = sum(p.connected and p.saw_new_hand_after(last_event) for p in people)
        closes: Counter[str] = Counter()
        errors: Counter[str] = Counter()
        for p in people:
            closes.update(p.closes)
            errors.update(p.errors)
        print(
            f"\n{args.tables} tables ({args.people} people and 2 bots each), {PROCESSES} "
            f"processes behind nginx, {elapsed:.0f} s; events: "
            + ", ".join(f"{n} {k}" for k, n in chaos.done.items())
        )
        print(f"hands stored {books.hands}; actions by people {sum(p.actions for p in people)}")
        print(
            f"deal numbers stored twice {books.duplicates}, begun but lost {books.missing}; "
            f"hands whose chips changed in total {books.unconserved}; tables whose ledger "
            f"does not balance {len(books.unbalanced)} of {len(ids)}"
        )
        print(f"pages connected and playing after the last event: {playing} of {len(people)}")
        print("socket closes and refusals seen by the pages: " + _counts(closes))
        print("errors sent to the pages: " + _counts(errors))
        print(
            f"log lines: takeovers {log_lines(web, 'took over table')}, leases lost "
            f"{log_lines(web, 'lost the lease')}, store outages "
            f"{log_lines(web, 'the store is unreachable (')} begun / "
            f"{log_lines(web, 'the store is reachable again')} ended"
        )
        ok = (
            not books.duplicates
            and not books.missing
            and not books.unconserved
            and not books.unbalanced
            and playing == len(people)
        )
        print("every check passed" if ok else "A CHECK FAILED")
        return 0 if ok else 1
    except BaseException:
        for process in web:
            print(f"--- {process.log}\n{process.tail()}", file=sys.stderr)
        raise
    finally:
        if nginx is not None:
            nginx.stop()
        stop_all(web)
        redis.stop()
        pg.stop()


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{k}: {n}" for k, n in counter.most_common()) or "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30, help="tables (default 30)")
    parser.add_argument(
        "--people", type=int, default=1, help="scripted people per table (default 1)"
    )
    parser.add_argument(
        "--gap", type=float, default=15.0, help="seconds between events (default 15)"
    )
    parser.add_argument(
        "--settle", type=float, default=30.0, help="seconds of play after the last event"
    )
    parser.add_argument(
        "--pg-down", type=float, default=6.0, help="seconds PostgreSQL stays stopped (default 6)"
    )
    parser.add_argument("--seed", type=int, default=1, help="the events' random seed")
    parser.add_argument(
        "--timeout", type=float, default=1800.0, help="seconds the whole run may take at most"
    )
    args = parser.parse_args()
    if not (1 <= args.tables <= 200 and 1 <= args.people <= 4):
        parser.error("--tables is 1..200 and --people 1..4")
    if not (1 <= args.gap <= 600 and 0 <= args.settle <= 600 and 0 < args.pg_down <= 120):
        parser.error("--gap is 1..600 s, --settle 0..600 s, --pg-down 0..120 s")

    async def bounded() -> int:
        return await asyncio.wait_for(run(args), args.timeout)

    sys.exit(asyncio.run(bounded()))


if __name__ == "__main__":
    main()
