"""Open Seven timings: `table` + `odds` for every N = 1..13, and `odds` for N = 52.

Prints figures only (wall-clock seconds). The first run also compiles the numba
kernel (cached on disk afterwards); it is timed separately.
Run: python benchmarks/openseven.py
"""

from __future__ import annotations

import time

from cardlab.openseven import analysis, models
from cardlab.openseven.models import Model


def _timed(label: str, work: object) -> float:
    begin = time.perf_counter()
    assert callable(work)
    work()
    seconds = time.perf_counter() - begin
    print(f"{label:<44} {seconds:8.3f} s")
    return seconds


def main() -> None:
    print("Open Seven benchmark (exact integers and fractions throughout)")
    _timed("kernel load/compile (table N=1)", lambda: analysis.distribution(1))
    models._arrived.cache_clear()
    models._turned.cache_clear()
    total = 0.0
    for n in range(1, 14):
        total += _timed(
            f"table + odds, N={n}", lambda n=n: (analysis.distribution(n), models.odds(n))
        )
    print(f"{'table + odds, N=1..13 total':<44} {total:8.3f} s")
    models._arrived.cache_clear()
    models._turned.cache_clear()
    _timed("odds N=52 (all four models, cold caches)", lambda: models.odds(52))
    for model in Model:
        models._arrived.cache_clear()
        models._turned.cache_clear()
        _timed(f"  odds N=52, {model.value}", lambda m=model: models.chances(52, m))
    _timed("table N=14", lambda: analysis.distribution(14))
    _timed(
        "export N=10 (3,628,800 rows, to memory)", lambda: sum(map(len, analysis.export_csv(10)))
    )
    _timed(
        "simulate N=7, 100000 games, sighted random",
        lambda: analysis.simulate(7, 100_000, "sighted_random", seed=1),
    )


if __name__ == "__main__":
    main()
