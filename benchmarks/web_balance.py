"""Balance and drain, measured: tables of bots on one ``cardlab web --redis`` process, then
more processes join, then the first is drained with SIGTERM (docs/scale-out.md, "Balance
and drain"; :mod:`cardlab.web.balance`).

It starts a PostgreSQL and a Redis in temporary folders (``tests/_postgres.py``,
``tests/_redis.py``) and the processes as the tests do (``tests/_cluster.py``), creates
``--tables`` tables of two calling-station bots on the first process, lets them deal, and
prints:

- how the tables sat after the join and after the drain (per process), how long each
  took, and the handovers each process counted (``cardlab_table_handovers_total``);
- the pause a table saw when it moved: the longest gap between two of its stored hands
  around the moves, against the median gap between hands (the table's own rhythm);
- whether every hand was stored once with every chip (each hand starts with the stacks
  the last one ended with) and the drained process's exit status.

With ``--stall S`` the first process is stopped (``SIGSTOP``) for ``S`` seconds twice,
mid-play: once while it runs alone (its leases lapse with no one to take them: it must
not take them back while its old rooms still run) and once after the join (the others
take its tables over, the failover path). ``--keep`` copies the store into an SQLite
file next to the processes' logs before the PostgreSQL goes, so a broken chain can be
read (``cardlab history``); the folder's path is printed.

    python benchmarks/web_balance.py [--tables 12] [--join 2] [--drain-timeout 30] [--pause 1]
        [--stall 6] [--keep]
"""

from __future__ import annotations

import argparse
import itertools
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests")]

from _cluster import WebProcess, start_web, stop_all  # noqa: E402
from _postgres import PostgresServer  # noqa: E402
from _redis import RedisServer  # noqa: E402
from cardlab.store import Store  # noqa: E402
from cardlab.store.copy import copy_store  # noqa: E402

BOTS = {
    "game": "fesca78-holdem",
    "seats": 2,
    "stack": 1000,
    "bots": {"1": "station", "2": "station"},
    "bot_delay": 0,
    "pause": 1.0,
    "public": True,
}


def owners(base: str) -> dict[str, str]:
    """Table id -> the process running it, from the shared lobby."""
    tables = httpx.get(f"{base}/api/tables", timeout=10).json()["tables"]
    return {t["id"]: t["process"] for t in tables}


def spread(found: dict[str, str]) -> list[int]:
    counts: dict[str, int] = {}
    for process in found.values():
        counts[process] = counts.get(process, 0) + 1
    return sorted(counts.values(), reverse=True)


def handovers(process: WebProcess) -> float:
    text = httpx.get(f"{process.base}/metrics", timeout=10).text
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("cardlab_table_handovers_total{")
    )


def wait_balanced(base: str, processes: int, bound: float) -> tuple[float, list[int]]:
    start = time.monotonic()
    while True:
        counts = spread(owners(base))
        if len(counts) == processes and counts[0] - counts[-1] <= 1:
            return time.monotonic() - start, counts
        if time.monotonic() - start > bound:
            return float("nan"), counts
        time.sleep(0.2)


def hand_gaps(db: str, tables: list[str]) -> tuple[list[float], list[float], bool]:
    """Every gap between two stored hands of a table, the longest of each table, and
    whether the hands chain (each starts with the stacks the last ended with)."""
    gaps: list[float] = []
    longest: list[float] = []
    chained = True
    with Store.open(db, read_only=True) as store:
        for tid in tables:
            hands = sorted(store.hands(table_id=tid), key=lambda h: h.id or 0)
            times = [h.played_at.timestamp() for h in hands]
            mine = [b - a for a, b in itertools.pairwise(times)]
            gaps += mine
            longest.append(max(mine, default=0.0))
            stacks: dict[str, int] = {}
            for hand in hands:
                start = dict(zip(hand.players, hand.starting_stacks, strict=True))
                expected = stacks or dict.fromkeys(start, BOTS["stack"])
                stacks = dict(zip(hand.players, hand.finishing_stacks, strict=True))
                if start != expected or sum(stacks.values()) != 2 * int(str(BOTS["stack"])):
                    print(f"  table {tid}: hand {hand.id} starts {start}, not {expected}")
                    chained = False
    return gaps, longest, chained


def stall(process: WebProcess, seconds: float) -> None:
    """Stop ``process`` for ``seconds`` (a starved process: no lease renewed meanwhile)."""
    if seconds <= 0 or process.process is None:
        return
    process.process.send_signal(signal.SIGSTOP)
    try:
        time.sleep(seconds)
    finally:
        process.process.send_signal(signal.SIGCONT)
    print(f"  the first process stopped for {seconds:g} s (SIGSTOP, SIGCONT)")


def keep(db: str, folder: Path) -> None:
    """Copy the store ``db`` into ``folder/hands.sqlite3``."""
    target = folder / "hands.sqlite3"
    with Store.open(db, read_only=True) as source, Store.open(target) as copy:
        copy_store(source, copy)
    print(f"the store and the logs are kept in {folder}")


def run(args: argparse.Namespace) -> None:
    BOTS["pause"] = args.pause
    pg, redis = PostgresServer(), RedisServer()
    pg.start()
    redis.start()
    logs = Path(tempfile.mkdtemp(prefix="cardlab-balance-"))
    extra = ["--bot-hands", "100000", "--drain-timeout", str(args.drain_timeout)]
    processes: list[WebProcess] = []
    db = ""
    try:
        db = pg.new_schema()
        processes += start_web(db, redis.url, 1, logs / "first", extra=extra)
        first = processes[0]
        tables = []
        for k in range(args.tables):  # each from an address of its own: the create limit
            client = {"x-forwarded-for": f"10.9.{k // 250}.{k % 250 + 1}"}
            made = httpx.post(f"{first.base}/api/tables", json=BOTS, headers=client, timeout=30)
            tables.append(made.json()["id"])
        time.sleep(args.settle)
        stall(first, args.stall)
        time.sleep(args.settle if args.stall > 0 else 0)
        print(f"{args.tables} tables on 1 process: {spread(owners(first.base))}")

        processes += start_web(db, redis.url, args.join, logs / "joined", extra=extra)
        took, counts = wait_balanced(first.base, 1 + args.join, 120)
        print(f"{args.join} processes joined: balanced in {took:.1f} s as {counts}")
        print(f"  handovers counted by the first process: {handovers(first):.0f}")
        time.sleep(args.settle)
        if args.stall > 0:
            stall(first, args.stall)
            took, counts = wait_balanced(first.base, 1 + args.join, 120)
            print(f"  balanced again {took:.1f} s later as {counts}")
            time.sleep(args.settle)

        assert first.process is not None
        stopped = time.monotonic()
        first.process.send_signal(signal.SIGTERM)
        status = first.process.wait(args.drain_timeout + 60)
        drained = time.monotonic() - stopped
        took, counts = wait_balanced(processes[1].base, args.join, 120)
        print(f"SIGTERM to the first: it exited {status} after {drained:.1f} s; "
              f"the others balanced {took:.1f} s later as {counts}")  # fmt: skip
        time.sleep(args.settle)
        gaps, longest, chained = hand_gaps(db, tables)
        print(
            f"gaps between a table's hands: median {statistics.median(gaps):.2f} s; "
            f"the longest of each table: median {statistics.median(longest):.2f} s, "
            f"max {max(longest):.2f} s ({len(gaps) + len(tables)} hands)"
        )
        print(f"every hand stored once with every chip: {chained}")
    finally:
        stop_all([p for p in processes if p.alive()])
        if args.keep and db:
            keep(db, logs)
        redis.stop()
        pg.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=12, help="tables of bots (default 12)")
    parser.add_argument("--join", type=int, default=2, help="processes that join (default 2)")
    parser.add_argument("--drain-timeout", type=float, default=30.0, help="seconds (default 30)")
    parser.add_argument(
        "--pause", type=float, default=1.0, help="seconds between a table's hands (default 1)"
    )
    parser.add_argument(
        "--settle", type=float, default=5.0, help="seconds of play between steps (default 5)"
    )
    parser.add_argument(
        "--stall", type=float, default=0.0, help="seconds the first process is stopped, twice"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep a copy of the store next to the logs"
    )
    args = parser.parse_args()
    if args.tables < 1 or args.join < 1:
        parser.error("--tables and --join are at least 1")
    run(args)


if __name__ == "__main__":
    main()
