"""Load test of the web tables on loopback: bot tables and human clients at once.

Starts ``cardlab``'s web app under uvicorn in a child process on 127.0.0.1, creates
``--bot-tables`` tables of six bots (random and station, fixed-limit so that they last,
no delay, no pause between hands: as fast as the server deals) and ``--humans`` human
clients (two per table with two random bots), each a WebSocket client that answers
every turn with a random legal action. Runs for ``--seconds`` (bounded), then reports
hands per second, the latency from sending an action to receiving the state it caused
(p50 / p95 / max), and the server's resident memory sampled every second. Only
loopback is ever contacted.

    python benchmarks/web_tables.py [--bot-tables 50] [--humans 20] [--seconds 30]
    python benchmarks/web_tables.py --bot-tables 150 --humans 100 --bot-delay 0.8  # 200 tables
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

SERVER = """
import sys, uvicorn
from cardlab.store import Store
from cardlab.web import create_app
store = Store.open(sys.argv[2], synchronous="NORMAL") if len(sys.argv) > 2 else Store.in_memory()
from cardlab.web.guard import DEFAULT_LIMITS, Limit, RateLimiter
# the default limits, but the load test makes its 50+ tables from one address at once
limits = dict(DEFAULT_LIMITS) | {"create": Limit(1000, 60.0), "join": Limit(1000, 60.0)}
app = create_app(table_store=store, limiter=RateLimiter(limits))
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def random_action(legal: dict[str, Any], rng: random.Random) -> str:
    if legal["phase"] == "draw":
        hole = legal["hole"]
        thrown = rng.sample(hole, rng.randint(0, len(hole)))
        return ("d " + " ".join(thrown)).strip()
    if legal["phase"] == "showdown":
        return rng.choice(["s", "s", "m"])  # show or muck
    kinds = []
    if legal["fold"]:
        kinds.append("f")
    if legal["call"] is not None:
        kinds += ["c", "c"]  # calls twice as often as anything else: hands go further
    if legal["bring_in"] is not None:
        kinds.append("b")
    if legal["raise_min"] is not None:
        kinds.append("r")
    kind = rng.choice(kinds)
    if kind == "r":
        return f"r {rng.randint(legal['raise_min'], legal['raise_max'])}"
    return kind


async def human(
    base: str, table_id: str, name: str, until: float, latencies: list[float], seed: int
) -> int:
    """One person: joins, then acts at random whenever it is their turn; returns the
    number of actions sent."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base) as client:
        r = await client.post(f"/api/tables/{table_id}/join", json={"name": name})
        r.raise_for_status()
        cookie = r.headers["set-cookie"].split(";")[0]
    uri = base.replace("http", "ws") + f"/api/tables/{table_id}/ws"
    sent = 0
    async with connect(uri, additional_headers={"cookie": cookie}, max_size=2**22) as ws:
        waiting: tuple[int, float] | None = None  # (turn sent, when)
        last = ""
        while time.monotonic() < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, until - time.monotonic()))
            except TimeoutError:
                break
            message = json.loads(raw)
            now = time.perf_counter()
            if message["type"] == "error" and "retry_after" in message and waiting is not None:
                # rate-limited (a person never acts this fast): send it again when allowed
                await asyncio.sleep(float(message["retry_after"]))
                await ws.send(last)
                continue
            if waiting is not None and (
                message["type"] == "error" or message.get("turn", -1) > waiting[0]
            ):
                latencies.append(now - waiting[1])
                waiting = None
            if message["type"] != "state" or waiting is not None:
                continue
            legal = message["legal"]
            if legal is None:
                continue
            action = random_action(legal, rng)
            waiting = (message["turn"], time.perf_counter())
            last = json.dumps({"type": "action", "action": action, "turn": message["turn"]})
            await ws.send(last)
            sent += 1
    return sent


async def hands_played(client: httpx.AsyncClient) -> int:
    tables = (await client.get("/api/tables")).json()["tables"]
    return sum(int(t["hands_played"]) for t in tables)


async def run(args: argparse.Namespace) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    extra = [args.db] if args.db else []
    server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), *extra])
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as client:
            for _ in range(300):
                try:
                    await client.get("/api/tables")
                    break
                except httpx.TransportError:
                    await asyncio.sleep(0.1)
            rss = [(0.0, rss_kib(server.pid))]
            games = ["fesca78-holdem", "fesca78-omaha", "fesca78-stud", "fesca78-draw"]
            for k in range(args.bot_tables):
                bots = {str(s): ("random" if s % 2 else "station") for s in range(1, 7)}
                # fixed-limit, so that random bots do not bust each other in a few hands
                body = {"game": games[k % 4], "seats": 6, "bots": bots, "stack": 10_000}
                body["betting"] = "fixed-limit"
                body |= {"bot_delay": args.bot_delay, "pause": 0, "clock": 30, "public": True}
                (await client.post("/api/tables", json=body)).raise_for_status()
            human_tables = []
            for k in range((args.humans + 1) // 2):
                body = {"game": games[k % 4], "seats": 4, "bots": {"3": "random", "4": "random"}}
                body["betting"] = "fixed-limit"  # random play busts no-limit tables in seconds
                body |= {"stack": 10_000, "bot_delay": args.bot_delay, "pause": 0, "clock": 30}
                body["public"] = True
                r = await client.post("/api/tables", json=body)
                human_tables.append(r.json()["id"])
            start_hands = await hands_played(client)
            start = time.monotonic()
            until = start + args.seconds
            latencies: list[float] = []
            tasks = [
                asyncio.create_task(
                    human(base, human_tables[i // 2], f"h{i}", until, latencies, seed=i)
                )
                for i in range(args.humans)
            ]
            while time.monotonic() < until:
                await asyncio.sleep(1.0)
                rss.append((time.monotonic() - start, rss_kib(server.pid)))
            actions = sum(await asyncio.gather(*tasks))
            elapsed = time.monotonic() - start
            hands = await hands_played(client) - start_hands
    finally:
        server.terminate()
        server.wait(10)
    lat = sorted(latencies)
    print(
        f"web tables on loopback: {args.bot_tables} bot tables (6 bots, bot delay "
        f"{args.bot_delay:g} s) + "
        f"{args.humans} human clients (random legal actions) for {elapsed:.1f} s"
    )
    print(f"hands finished: {hands} ({hands / elapsed:.1f} hands/s, all tables)")
    if lat:
        p50 = statistics.median(lat) * 1000
        p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))] * 1000
        print(
            f"human actions: {actions} sent, {len(lat)} answered; latency action -> new "
            f"state: p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {lat[-1] * 1000:.1f} ms"
        )
    samples = ", ".join(f"{t:.0f}s {kib / 1024:.0f}" for t, kib in rss[:: max(1, len(rss) // 8)])
    print(f"server RSS (MiB) over time: {samples}; last {rss[-1][1] / 1024:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot-tables", type=int, default=50)
    parser.add_argument("--humans", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=0.0,
        help="Seconds a bot waits before acting (0: as fast as the server deals; the web "
        "table's default is 0.8, as people play).",
    )
    parser.add_argument(
        "--db", default=None, help="Serve with this SQLite store file (default: in memory)."
    )
    args = parser.parse_args()
    if not 0 < args.seconds <= 600:
        parser.error("--seconds must be in (0, 600]")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
