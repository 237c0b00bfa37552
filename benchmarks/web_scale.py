"""Load test of many `cardlab web` processes behind nginx: 1, 2 and 4 processes, one run.

Starts a PostgreSQL and a Redis in temporary folders (the tests' own helpers,
``tests/_postgres.py`` and ``tests/_redis.py``), then for each process count: a new
empty database, that many ``cardlab web --db postgresql://... --redis redis://...
--trust-proxy`` processes, and nginx in front of them with the configuration of
docs/scale-out.md (``tests/_cluster.py``). Through nginx only, as a site's visitors
would, it creates ``--bot-tables`` tables of six bots and ``--humans`` simulated people
(two per table with two random bots; each answers every turn with a random legal action
over its WebSocket), the same load as ``benchmarks/web_tables.py``. Round robin spreads
the tables' creation, so their ownership, over the processes, and most people's
sockets end on a process that does not run their table: their actions and views travel
through Redis.

Every simulated client uses an address of its own on the loopback network (127.1.x.y),
as a site's visitors have: nginx passes it on in X-Forwarded-For and the shared rate
limits count each client alone, as they would in production (the limits are the
defaults: 10 tables a minute per client, so the tables are made from several addresses).

Measured over ``--seconds`` after the tables are made: hands finished (counted in the
store), the latency from a person's action to the state it caused (p50 / p95), the
resident memory of the web processes (before the tables, and at the end) and the CPU
each part used (web processes, PostgreSQL, Redis, nginx, this load generator). Only
loopback is ever contacted.

    python benchmarks/web_scale.py [--processes 1 2 4] [--bot-tables 50] [--humans 20]
        [--seconds 20] [--repeat 1] [--bot-delay 0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "benchmarks")]

from _cluster import Nginx, WebProcess, launch_web, stop_all, wait_ready  # noqa: E402
from _postgres import PostgresServer  # noqa: E402
from _redis import RedisServer  # noqa: E402
from cardlab.store import Store  # noqa: E402
from web_tables import random_action, rss_kib  # noqa: E402

GAMES = ["fesca78-holdem", "fesca78-omaha", "fesca78-stud", "fesca78-draw"]
PER_ADDRESS = 5  # tables made from one client address (the default limit is 10 a minute)
TICKS = os.sysconf("SC_CLK_TCK")


def address(k: int) -> str:
    """The ``k``-th simulated client's loopback address: 127.1.0.1, 127.1.0.2, ..."""
    return f"127.1.{k // 250}.{1 + k % 250}"


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU seconds the processes ``pids`` used so far."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


def children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (PostgreSQL's backends, nginx's workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == parent:
                found.append(int(entry.name))
    return found


def machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle, iowait
    return (sum(values) - idle) / TICKS, sum(values) / TICKS


@dataclass
class Figures:
    processes: int
    tables: int
    listed: int
    owners: list[int]
    seconds: float
    hands: int
    latencies: list[float]
    actions: int
    rss_start_kib: int
    rss_end_kib: int
    cpu: dict[str, float]
    failures: list[str]
    load: float  # the machine's load average (1 min) when the measure began
    leases_lost: int  # "lost the lease" lines in the processes' logs
    moved: int  # tables claimed more than once (they changed process)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds

    def quantile(self, q: float) -> float:
        lat = sorted(self.latencies)
        return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")


async def person(
    base: str,
    table_id: str,
    name: str,
    source: str,
    until: float,
    latencies: list[float],
    failures: list[str],
    seed: int,
) -> int:
    """One simulated person from address ``source``: joins, then acts at random whenever
    it is their turn (as ``web_tables.human``); returns the number of actions sent. A
    join refused or a socket closed is added to ``failures``."""
    rng = random.Random(seed)
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as client:
        r = await client.post(f"/api/tables/{table_id}/join", json={"name": name})
        if r.status_code != 200:
            failures.append(f"{name} could not join: {r.status_code} {r.text[:200]}")
            return 0
        cookie = r.headers["set-cookie"].split(";")[0]
    uri = base.replace("http", "ws") + f"/api/tables/{table_id}/ws"
    sent = 0
    async with connect(
        uri, additional_headers={"cookie": cookie}, max_size=2**22, local_addr=(source, 0)
    ) as ws:
        waiting: tuple[int, float] | None = None  # (turn sent, when)
        last = ""
        while time.monotonic() < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
            except TimeoutError:
                break
            except ConnectionClosed as closed:
                failures.append(f"{name}'s socket closed: {closed}")
                return sent
            message = json.loads(raw)
            now = time.perf_counter()
            if message["type"] == "error" and "retry_after" in message and waiting is not None:
                await asyncio.sleep(float(message["retry_after"]))
                await ws.send(last)
                continue
            if waiting is not None and (
                message["type"] == "error" or message.get("turn", -1) > waiting[0]
            ):
                latencies.append(now - waiting[1])
                waiting = None
            if message["type"] != "state" or waiting is not None or message["legal"] is None:
                continue
            action = random_action(message["legal"], rng)
            waiting = (message["turn"], time.perf_counter())
            last = json.dumps({"type": "action", "action": action, "turn": message["turn"]})
            await ws.send(last)
            sent += 1
    return sent


async def make_tables(base: str, bodies: list[dict[str, Any]]) -> list[str]:
    """Create the tables through nginx, ``PER_ADDRESS`` from each client address."""
    ids: list[str] = []
    for start in range(0, len(bodies), PER_ADDRESS):
        transport = httpx.AsyncHTTPTransport(local_address=address(1000 + start // PER_ADDRESS))
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as client:
            for body in bodies[start : start + PER_ADDRESS]:
                r = await client.post("/api/tables", json=body)
                if r.status_code != 201:
                    raise RuntimeError(f"creating a table: {r.status_code} {r.text}")
                ids.append(r.json()["id"])
    return ids


def table_bodies(args: argparse.Namespace) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The bot tables' and the people's tables' settings (as benchmarks/web_tables.py)."""
    common = {"betting": "fixed-limit", "stack": 10_000, "public": True}
    common |= {"bot_delay": args.bot_delay, "pause": 0, "clock": 30}
    bots = []
    for k in range(args.bot_tables):
        seats = {str(s): ("random" if s % 2 else "station") for s in range(1, 7)}
        bots.append({"game": GAMES[k % 4], "seats": 6, "bots": seats} | common)
    people = [
        {"game": GAMES[k % 4], "seats": 4, "bots": {"3": "random", "4": "random"}} | common
        for k in range((args.humans + 1) // 2)
    ]
    return bots, people


def owners(redis_url: str) -> list[int]:
    """How many table leases each process holds, most first."""
    import redis

    client = redis.Redis.from_url(redis_url)
    counts: dict[object, int] = {}
    for key in client.scan_iter("cardlab:lease:*"):
        holder = client.get(key)
        if holder is not None:
            counts[holder] = counts.get(holder, 0) + 1
    client.close()
    return sorted(counts.values(), reverse=True)


async def run_once(
    count: int, args: argparse.Namespace, pg: PostgresServer, redis: RedisServer, logs: Path
) -> Figures:
    redis.flush()
    db = pg.new_database()
    extra = ["--bot-hands", "1000000", "--max-tables", "10000", "--idle-close", "86400"]
    extra += ["--durability", args.durability]
    web = launch_web(db, redis.url, count, logs / f"n{count}", extra=extra)
    nginx = Nginx([p.port for p in web], workers=1)
    try:
        wait_ready(web)
        nginx.start()
        base = nginx.base
        rss_start = sum(rss_kib(p.pid) for p in web)
        bots, people = table_bodies(args)
        bot_tables = await make_tables(base, bots)
        human_tables = await make_tables(base, people)
        ids = bot_tables + human_tables
        with Store.open(db) as store:
            start_hands = store.count_hands()
        parts = _parts(web, pg, redis, nginx)
        cpu_start = {name: cpu_seconds(pids) for name, pids in parts.items()}
        own_start = os.times()
        busy_start = machine_busy()
        load = os.getloadavg()[0]
        start = time.monotonic()
        until = start + args.seconds
        latencies: list[float] = []
        failures: list[str] = []
        tasks = [
            asyncio.create_task(
                person(
                    base, human_tables[i // 2], f"h{i}", address(i), until, latencies, failures, i
                )
            )
            for i in range(args.humans)
        ]
        await asyncio.sleep(max(0.0, until - time.monotonic()))
        actions = sum(await asyncio.gather(*tasks))
        elapsed = time.monotonic() - start
        with Store.open(db) as store:
            hands = store.count_hands() - start_hands
            moved = sum((store.fence(t) or 0) > 1 for t in ids)
        own_end = os.times()
        parts = _parts(web, pg, redis, nginx)  # backends started meanwhile count too
        cpu = {name: cpu_seconds(pids) - cpu_start.get(name, 0.0) for name, pids in parts.items()}
        cpu["load generator"] = (own_end.user + own_end.system) - (
            own_start.user + own_start.system
        )
        busy_end = machine_busy()
        # what the rest of the machine used meanwhile (other programs: not our load)
        cpu["others"] = max(0.0, busy_end[0] - busy_start[0] - sum(cpu.values()))
        cpu = {name: seconds / elapsed for name, seconds in cpu.items()}
        rss_end = sum(rss_kib(p.pid) for p in web)
        listed = len(httpx.get(base + "/api/tables", timeout=30).json()["tables"])
        return Figures(
            processes=count,
            tables=len(bots) + len(people),
            listed=listed,
            owners=owners(redis.url),
            seconds=elapsed,
            hands=hands,
            latencies=latencies,
            actions=actions,
            rss_start_kib=rss_start,
            rss_end_kib=rss_end,
            cpu=cpu,
            failures=failures,
            load=load,
            leases_lost=sum(p.tail(10**8).count("lost the lease") for p in web),
            moved=moved,
        )
    except BaseException:
        for process in web:
            print(f"--- {process.log}\n{process.tail()}", file=sys.stderr)
        print(f"--- nginx\n{nginx.tail()}", file=sys.stderr)
        raise
    finally:
        nginx.stop()
        stop_all(web)


def _parts(
    web: list[WebProcess], pg: PostgresServer, redis: RedisServer, nginx: Nginx
) -> dict[str, list[int]]:
    """The process ids of each part of the system."""
    postmaster = int((pg.data / "postmaster.pid").read_text().split("\n", 1)[0])
    assert redis.process is not None and nginx.process is not None
    return {
        "web": [p.pid for p in web],
        "postgres": [postmaster, *children(postmaster)],
        "redis": [redis.process.pid],
        "nginx": [nginx.process.pid, *children(nginx.process.pid)],
    }


def report(rounds: list[list[Figures]], args: argparse.Namespace) -> None:
    """Every run, each compared with the first of its round; then the medians."""
    print(
        f"\n{args.bot_tables} bot tables (6 bots, bot delay {args.bot_delay:g} s) + "
        f"{args.humans} simulated people ({(args.humans + 1) // 2} tables), "
        f"{args.seconds:g} s each, nginx round robin, PostgreSQL with fsync on, "
        f"--durability {args.durability}, "
        f"{os.cpu_count()} cores"
    )
    head = (
        f"{'procs':>5} {'tables':>6} {'hands/s':>8} {'x 1':>5} {'p50 ms':>7} {'p95 ms':>7} "
        f"{'x 1':>5} {'RSS MiB':>8} {'KiB/table':>9}  CPU (cores): web / postgres / redis / "
        f"nginx / load / others"
    )
    print(head)
    print("-" * len(head))
    for runs in rounds:
        _rows(runs)
    if len(rounds) > 1:
        medians = []
        for k, count in enumerate(args.processes):
            hands = statistics.median(r[k].hands_per_second for r in rounds)
            p95 = statistics.median(r[k].quantile(0.95) for r in rounds)
            medians.append((count, hands, p95))
        print(f"\nmedians of {len(rounds)} rounds:")
        for count, hands, p95 in medians:
            print(
                f"{count:>5} processes: {hands:.1f} hands/s (x {hands / medians[0][1]:.2f}), "
                f"p95 {p95:.1f} ms (x {p95 / medians[0][2]:.2f})"
            )
    print()
    for runs in rounds:
        _details(runs)


def _rows(runs: list[Figures]) -> None:
    one = runs[0]
    for f in runs:
        per_table = (f.rss_end_kib - f.rss_start_kib) / f.tables
        cpu = " / ".join(
            f"{f.cpu.get(k, 0):.2f}"
            for k in ("web", "postgres", "redis", "nginx", "load generator", "others")
        )
        print(
            f"{f.processes:>5} {f.tables:>6} {f.hands_per_second:>8.1f} "
            f"{f.hands_per_second / one.hands_per_second:>5.2f} {f.quantile(0.5):>7.1f} "
            f"{f.quantile(0.95):>7.1f} {f.quantile(0.95) / one.quantile(0.95):>5.2f} "
            f"{f.rss_end_kib / 1024:>8.0f} {per_table:>9.0f}  {cpu}"
        )


def _details(runs: list[Figures]) -> None:
    for f in runs:
        print(
            f"{f.processes} process(es): {f.hands} hands in {f.seconds:.1f} s; "
            f"{f.actions} actions by people, {len(f.latencies)} answered; "
            f"tables per process (leases) {f.owners}; lobby lists {f.listed} of {f.tables}; "
            f"RSS {f.rss_start_kib / 1024:.0f} MiB before the tables, "
            f"{f.rss_end_kib / 1024:.0f} MiB at the end; leases lost {f.leases_lost}, "
            f"tables that changed process {f.moved}; load average {f.load:.1f} at the start"
        )
        for failure in f.failures[:5]:
            print(f"    {failure}")


async def run(args: argparse.Namespace) -> None:
    pg = PostgresServer()
    redis = RedisServer()
    logs = Path(tempfile.mkdtemp(prefix="cardlab-scale-"))
    try:
        pg.start()
        # PostgreSQL as in production: the tests' server runs with fsync off. (`cardlab
        # web --durability fast` sets synchronous_commit off for its own sessions)
        for setting in ("fsync = on", "full_page_writes = on"):
            pg.admin(f"ALTER SYSTEM SET {setting}")
        pg.admin("SELECT pg_reload_conf()")
        redis.start()
        rounds = []
        for _ in range(args.repeat):  # interleaved, so a busier minute hits every count
            runs = []
            for count in args.processes:
                figures = await run_once(count, args, pg, redis, logs)
                print(
                    f"{count} process(es): {figures.hands_per_second:.1f} hands/s, "
                    f"p95 {figures.quantile(0.95):.1f} ms",
                    flush=True,
                )
                runs.append(figures)
            rounds.append(runs)
        report(rounds, args)
    finally:
        redis.stop()
        pg.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4])
    parser.add_argument("--bot-tables", type=int, default=50)
    parser.add_argument("--humans", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="Rounds of every process count, interleaved (medians reported).",
    )
    parser.add_argument(
        "--durability",
        choices=["strict", "fast"],
        default="strict",
        help="The web processes' --durability (strict: synchronous_commit on).",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.0,
        help="Seconds a bot waits before acting (0: as fast as the server deals).",
    )
    args = parser.parse_args()
    if not 0 < args.seconds <= 600:
        parser.error("--seconds must be in (0, 600]")
    if not 1 <= args.repeat <= 10:
        parser.error("--repeat must be in 1..10")
    if any(not 1 <= n <= 16 for n in args.processes):
        parser.error("--processes: each count must be in 1..16")
    if args.humans < 0 or args.bot_tables < 0 or args.bot_delay < 0:
        parser.error("--humans, --bot-tables and --bot-delay must not be negative")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
