"""Figures of the long analyses (issue 11): charts and the exact Omaha cluster job.

    python benchmarks/analysis.py [standard52] [fesca78] [omaha] [--workers N]

- standard52: the exact heads-up chart (169 classes) in this process;
- fesca78: the FESCA78 Mixwell Hold'em heads-up chart to 0.1% standard error on a local
  Dask cluster (``--workers``, default the cores), no cache;
- omaha: the exact FESCA78 Omaha table: some of its parts timed (CPU seconds on one
  core) and the whole job projected on this machine's cores and on 64 cores.

Prints figures; the machine may be shared, so wall times are an upper bound and the
CPU time per part is the figure to project from.
"""

from __future__ import annotations

import argparse
import os
import time

from cardlab.analysis.chart import chart
from cardlab.analysis.omaha import project_time
from cardlab.poker import RuleSet
from cardlab.poker.games import get_game
from cardlab.poker.tables7 import omaha_exact_work
from cardlab.tasks import dask_client


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "parts",
        nargs="*",
        choices=("standard52", "fesca78", "omaha"),
        help="which figures (default all three)",
    )
    parser.add_argument("--workers", type=int, default=None, help="Dask workers (the cores)")
    args = parser.parse_args(argv)
    workers = args.workers
    which = args.parts or ["standard52", "fesca78", "omaha"]
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")
    if "standard52" in which:
        start = time.perf_counter()
        c = chart(get_game("standard52-holdem"), exact=True)
        wall = time.perf_counter() - start
        print(
            f"standard52 heads-up exact chart, {len(c.classes)} classes, {c.tasks} tasks: "
            f"{wall:.1f} s wall in one process"
        )
    if "fesca78" in which:
        game = get_game("fesca78-holdem")
        with dask_client(workers=workers) as client:
            n = len(client.scheduler_info()["workers"])
            start = time.perf_counter()
            c = chart(game, target_se=0.001, client=client)
            wall = time.perf_counter() - start
        deals = sum(r.deals for r in c.classes)
        worst = max(r.se or 0.0 for r in c.classes)
        print(
            f"FESCA78 heads-up chart to SE 0.001: {len(c.classes)} classes, {c.tasks} tasks, "
            f"{deals:,} showdowns, largest SE {worst:.5f}: {wall:.1f} s wall on {n} workers"
        )
        best = c.classes[:5]
        print("  best: " + ", ".join(f"{r.hand.name} {float(r.equity):.4f}" for r in best))
    if "omaha" in which:
        rules = RuleSet.for_deck("FESCA78")
        print(f"FESCA78 exact Omaha: {omaha_exact_work(rules):.3g} five-card evaluations")
        p = project_time(rules, parts=4096, measure=3)
        cores = os.cpu_count() or 1
        print(
            f"  {p.measured} of {p.parts} parts ({p.share:.3%} of the work): {p.seconds:.1f} "
            f"CPU s -> {p.core_seconds / 3600:.1f} core-hours; "
            f"{p.wall(cores) / 3600:.1f} h on this machine's {cores} cores, "
            f"{p.wall(64) / 3600:.2f} h on 64 cores"
        )


if __name__ == "__main__":
    main()
