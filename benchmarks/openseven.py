"""Open Seven timings: `table` + `odds` for every N = 1..13, and `odds` for N = 52.

Prints figures only (wall-clock seconds). The numba kernel (used for even N >= 12)
is imported and loaded once first (compiled on the very first run, then cached on
disk); that is timed separately.
Run: python benchmarks/openseven.py
"""

from __future__ import annotations

import argparse
import time

from cardlab.openseven import analysis, graph, models
from cardlab.openseven.models import Model


def _timed(label: str, work: object) -> float:
    begin = time.perf_counter()
    assert callable(work)
    work()
    seconds = time.perf_counter() - begin
    print(f"{label:<44} {seconds:8.3f} s")
    return seconds


def _load_kernel() -> None:
    import numpy as np

    from cardlab.openseven import _kernels

    _kernels.circuit_histogram(np.array([2, 2], dtype=np.int64))


def main(argv: list[str] | None = None) -> None:
    argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0]).parse_args(argv)
    print("Open Seven benchmark (exact integers and fractions throughout)")
    graph._circuit_distribution.cache_clear()
    warm = _timed("numba import + kernel load/compile", _load_kernel)
    models._arrived.cache_clear()
    models._turned.cache_clear()
    total = 0.0
    for n in range(1, 14):
        total += _timed(
            f"table + odds, N={n}", lambda n=n: (analysis.distribution(n), models.odds(n))
        )
    print(f"{'table + odds, N=1..13 total':<44} {total:8.3f} s")
    print(f"{'  the same with the kernel load':<44} {total + warm:8.3f} s")
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
