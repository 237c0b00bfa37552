"""The exact FESCA78 Omaha table for real: every part counted on a local Dask cluster.

    python benchmarks/omaha_run.py [--deck FESCA78] [--parts 64] [--workers 2] [--cache DIR]
    python benchmarks/omaha_run.py --status [--deck ...] [--parts ...] [--cache DIR]

Counts every part of the exact Omaha table (:func:`cardlab.analysis.omaha.
count_omaha_parts`) with the disk cache (default: the user cache, where ``cardlab
report --exact-omaha`` looks), so an interrupted run resumes. Prints a line per finished
part as it arrives (time, parts done, rate, projected finish), then the per-part CPU
and wall seconds, the 64-core projection from the measured parts, and the table with
the check that it adds up to C(n, 4) x C(n - 4, 5). ``--status`` prints the same from
the parts already in the cache, without counting anything.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import sys
import time
from pathlib import Path

from cardlab.analysis.omaha import OmahaTask, PartCount, count_omaha_parts
from cardlab.poker import RuleSet
from cardlab.poker.tables7 import omaha_exact_work, omaha_parts, omaha_table_from_parts
from cardlab.tasks import dask_client, default_cache_dir, task_hash


def now() -> str:
    return datetime.datetime.now(datetime.UTC).strftime("%H:%M:%S")


def say(text: str) -> None:
    print(f"[{now()}] {text}", flush=True)


def cached(rules: RuleSet, parts: int, cache: Path) -> list[PartCount]:
    out = []
    for part in omaha_parts(rules, parts):
        task = OmahaTask(part)
        try:
            data = json.loads((cache / f"{task_hash(task)}.json").read_text())
        except (OSError, ValueError):
            continue
        if data.get("key") == task.key():
            r = data["result"]
            out.append(PartCount(part.index, tuple(r["counts"]), r["cpu_seconds"], r["seconds"]))
    return out


def summary(rules: RuleSet, parts: int, done: list[PartCount]) -> None:
    if not done:
        say("no part counted yet")
        return
    cpu = sorted(p.cpu_seconds for p in done)
    share = sum(omaha_parts(rules, parts)[p.index].work for p in done)
    share /= sum(p.work for p in omaha_parts(rules, parts))
    say(f"{len(done)} of {parts} parts ({share:.1%} of the work)")
    say("per part CPU s: " + " ".join(f"{p.index}:{p.cpu_seconds:.1f}" for p in done))
    say("per part wall s: " + " ".join(f"{p.index}:{p.seconds:.1f}" for p in done))
    total = sum(cpu)
    whole = total / share
    say(
        f"CPU: {total:.0f} s measured (min {cpu[0]:.1f}, median {cpu[len(cpu) // 2]:.1f}, "
        f"max {cpu[-1]:.1f} s per part) -> whole job {whole:.0f} core-s = "
        f"{whole / 3600:.2f} core-hours"
    )
    say(
        f"64 cores, one part each: about {max(cpu[-1], whole / 64):.0f} s of counting "
        f"(the longest part; perfect balance would be {whole / 64:.0f} s)"
    )
    if len(done) == parts:
        table = omaha_table_from_parts(rules, [p.counts for p in done])
        n = len(rules.deck)
        hands = math.comb(n, 4) * math.comb(n - 4, 5)
        counted = sum(table.counts().values())
        say(f"table: {counted:,} deals counted, C({n},4) x C({n - 4},5) = {hands:,}: "
            f"{'equal' if counted == hands else 'DIFFERENT'}")  # fmt: skip
        for row in table.rows:
            say(f"  {row.order:2d} {row.category.english:28s} {row.count:>20,} "
                f"{float(row.probability):.10f}")  # fmt: skip


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deck", default="FESCA78")
    ap.add_argument("--parts", type=int, default=64)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--status", action="store_true")
    args = ap.parse_args(argv)
    rules = RuleSet.for_deck(args.deck)
    cache = args.cache or default_cache_dir()
    if args.status:
        summary(rules, args.parts, cached(rules, args.parts, cache))
        return
    say(
        f"{rules.deck.name} exact Omaha, {args.parts} parts, {args.workers} workers, "
        f"cache {cache}; {omaha_exact_work(rules):.3g} evaluations by the estimate; "
        f"cores {os.cpu_count()}, load {os.getloadavg()[0]:.1f}"
    )
    start = time.perf_counter()
    first: list[int] = []

    def progress(done: int, total: int) -> None:
        if not first:
            first.append(done)
            say(f"{done} of {total} parts in the cache already")
            return
        wall = time.perf_counter() - start
        rate = (done - first[0]) / wall
        left = (total - done) / rate if rate else float("inf")
        say(
            f"{done}/{total} parts, {wall:.0f} s, {rate * 3600:.1f} parts/h, "
            f"about {left / 60:.0f} min left, load {os.getloadavg()[0]:.1f}"
        )

    with dask_client(workers=args.workers) as client:
        done = count_omaha_parts(
            rules, parts=args.parts, client=client, cache=cache, progress=progress
        )
    say(f"all {args.parts} parts in {time.perf_counter() - start:.0f} s wall")
    summary(rules, args.parts, done)


if __name__ == "__main__":
    main(sys.argv[1:])
