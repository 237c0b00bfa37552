"""Hand store throughput: hands written per second, one transaction per hand or per batch,
with ``synchronous=FULL`` (the default) and ``NORMAL``; reading hands back; and the time to
open a file (its ``quick_check``) as it grows. Figures only, printed; no thresholds.

Each hand is a six-seat record whose PHH text is about 1.5 kB, like a no-limit Hold'em
hand with a dozen actions. The files are written under a temporary directory (or
``--dir``, to measure another disk).

    python benchmarks/store.py [--hands 2000] [--batch 100] [--big 100000] [--dir PATH]
"""

from __future__ import annotations

import argparse
import datetime
import random
import tempfile
import time
from pathlib import Path
from typing import Literal

from cardlab.store import HandRecord, Store


def record(number: int) -> HandRecord:
    rng = random.Random(number)
    players = tuple(f"player{seat}" for seat in range(6))
    starting = tuple(rng.randrange(100, 1000) for _ in players)
    actions = [f"p{1 + i % 6} cbr {rng.randrange(2, 100)}" for i in range(14)]
    phh = (
        'variant = "NT"\nantes = [0, 0, 0, 0, 0, 0]\nblinds_or_straddles = [1, 2, 0, 0, 0, 0]\n'
        f"min_bet = 2\nstarting_stacks = {list(starting)}\nactions = {actions}\n"
        f"players = {list(players)}\nfinishing_stacks = {list(starting)}\n" + "# " + "x" * 700
    )
    return HandRecord(
        game="standard52-holdem",
        variant="NT",
        phh=phh,
        players=players,
        starting_stacks=starting,
        finishing_stacks=starting,
        board="AsKdQh7c2s",
        actions=len(actions),
        showdown=number % 3 == 0,
        decided_by="showdown",
        source="bench",
        played_at=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
        + datetime.timedelta(seconds=number),
    )


def write_rate(path: Path, hands: int, batch: int, synchronous: Literal["FULL", "NORMAL"]) -> float:
    records = [record(n) for n in range(hands)]
    with Store.open(path, synchronous=synchronous) as store:
        start = time.perf_counter()
        if batch == 1:
            for one in records:
                store.add_hand(one)
        else:
            for first in range(0, hands, batch):
                store.add_hands(records[first : first + batch])
        elapsed = time.perf_counter() - start
    return hands / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=100)
    parser.add_argument("--big", type=int, default=100_000, help="hands in the file opened")
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        where = Path(folder)
        print(f"writing {args.hands} six-seat hands under {where}")
        rates = {}
        for synchronous in ("FULL", "NORMAL"):
            for batch in (1, args.batch):
                name = f"{synchronous.lower()}-{batch}.sqlite3"
                rates[synchronous, batch] = rate = write_rate(
                    where / name, args.hands, batch, synchronous
                )
                label = "one hand per transaction" if batch == 1 else f"batches of {batch}"
                print(f"  synchronous={synchronous:<6} {label:<26} {rate:>10,.0f} hands/s")
        print(
            "  NORMAL/FULL, one per transaction: "
            f"{rates['NORMAL', 1] / rates['FULL', 1]:.1f}x; batched/single, FULL: "
            f"{rates['FULL', args.batch] / rates['FULL', 1]:.1f}x"
        )

        big = where / "big.sqlite3"
        with Store.open(big, synchronous="NORMAL") as store:
            for first in range(0, args.big, 1000):
                store.add_hands(record(n) for n in range(first, min(args.big, first + 1000)))
        size = big.stat().st_size
        start = time.perf_counter()
        store = Store.open(big)
        opened = time.perf_counter() - start
        start = time.perf_counter()
        read = store.hands(limit=10_000)
        reading = time.perf_counter() - start
        start = time.perf_counter()
        stats = store.stats()
        counting = time.perf_counter() - start
        store.close()
        print(f"file of {args.big:,} hands: {size / 2**20:.1f} MiB")
        print(f"  open (checks + quick_check): {opened * 1000:,.0f} ms")
        print(f"  read the newest {len(read):,} hands: {len(read) / reading:,.0f} hands/s")
        print(f"  stats over all hands: {counting * 1000:,.0f} ms ({len(stats)} game)")


if __name__ == "__main__":
    main()
