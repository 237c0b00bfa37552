"""Figures of the Omaha and Stud starting-hand charts (issue 11).

    python benchmarks/charts_multi.py [stud] [omaha] [fesca] [--workers N]

- stud: the standard52 Stud chart, all 1,755 classes at the default SE (0.002);
- omaha: the standard52 Omaha chart, all 16,432 classes at the default SE (0.005);
- fesca: FESCA78 Stud and Omaha (suit tie-breaks: every hand of a class dealt), the
  first 300 classes of each at SE 0.01, to project the full charts.

Each runs on a local Dask cluster (``--workers``, default the cores), no cache, and is
set against its peer in the same run: one ``sample_equity`` call dealing the same number
of showdowns in this process (the chart's overhead is the ratio). The machine may be
shared: wall times are an upper bound.
"""

from __future__ import annotations

import argparse
import os
import time

from cardlab.analysis.chart import chart
from cardlab.analysis.chart_multi import game_classes
from cardlab.poker.equity import sample_equity
from cardlab.poker.games import get_game
from cardlab.tasks import dask_client


def peer_rate(game_name: str, hand: str) -> float:
    """Showdowns per CPU second of one long ``sample_equity`` call."""
    game = get_game(game_name)
    sample_equity(game, [hand, "random"], samples=1_000, rng=0)  # compiled
    start = time.process_time()
    r = sample_equity(game, [hand, "random"], samples=2_000_000, rng=1)
    return r.deals / (time.process_time() - start)


def run(client: object, game_name: str, se: float | None, first: int | None) -> None:
    game = get_game(game_name)
    every = game_classes(game)
    chosen = every[:first] if first else None
    start = time.perf_counter()
    c = chart(game, exact=False, target_se=se, client=client, classes=chosen)
    wall = time.perf_counter() - start
    deals = sum(r.deals for r in c.classes)
    worst = max(r.se or 0.0 for r in c.classes)
    share = f" (of {len(every):,})" if first else ""
    print(
        f"{game.name}: {len(c.classes):,} classes{share}, SE <= {c.target_se}, {c.tasks} "
        f"tasks, {deals:,} showdowns, largest SE {worst:.5f}: {wall:.1f} s wall"
    )
    if first:
        print(f"  full chart at this rate: {wall * len(every) / len(c.classes) / 60:.0f} min")
    best = ", ".join(f"{r.hand.name} {float(r.equity) * 100:.2f}%" for r in c.classes[:3])
    print(f"  best: {best}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "parts",
        nargs="*",
        choices=("stud", "omaha", "fesca"),
        help="which charts (default all three)",
    )
    parser.add_argument("--workers", type=int, default=None, help="Dask workers (the cores)")
    args = parser.parse_args(argv)
    workers = args.workers
    which = args.parts or ["stud", "omaha", "fesca"]
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")
    print(
        "peers, per CPU second: Omaha sample_equity "
        f"{peer_rate('standard52-omaha', 'As Ks Ah Kh') / 1e6:.2f} M showdowns/s, Stud "
        f"{peer_rate('standard52-stud', 'As Ks Ah') / 1e6:.2f} M showdowns/s"
    )
    with dask_client(workers=workers) as client:
        n = len(client.scheduler_info()["workers"])
        print(f"local cluster: {n} workers")
        if "stud" in which:
            run(client, "standard52-stud", None, None)
        if "omaha" in which:
            run(client, "standard52-omaha", None, None)
        if "fesca" in which:
            run(client, "fesca78-stud", 0.01, 300)
            run(client, "fesca78-omaha", 0.01, 300)


if __name__ == "__main__":
    main()
