"""Where an iteration of cardlab's postflop solver spends its CPU: one thread, one spot.

Prints CPU milliseconds (this process's, so other engineers' load counts little) of:
a DCFR iteration; each player's training (CFR) walk; each player's best-response walk;
one exploitability measure (the two best responses, float64) and its share of an
iteration when measured every 10 iterations, as ``benchmarks/postflop.py`` measures.
The peer is not run: its figures come from ``benchmarks/postflop.py`` in the same
session.

``--perf-map`` compiles the kernels afresh (an empty numba cache in a temporary
directory: code loaded from the cache has no symbols) and writes
``/tmp/perf-PID.map``, naming each compiled function's address range, so that
``perf record -g python benchmarks/postflop_profile.py --perf-map`` then ``perf report
--sort dso,symbol`` names the numba kernels (leave ``NUMBA_DEBUGINFO`` unset: it
stops numba inlining, and the profile is then another program's).

    python benchmarks/postflop_profile.py [--spot basic|3bet] [--iterations N]
        [--repeat R] [--perf-map]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

if "--perf-map" in sys.argv:  # before numba is imported: a cache of its own, empty
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="cardlab-perf-")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cardlab.solve.postflop import Solver, _kernels, _loop
from postflop import CASES, WARM_UP  # this folder's benchmark: the same spots


def cpu_ms(call: Callable[[], Any], repeat: int) -> float:
    """CPU milliseconds of one ``call()``, the mean of ``repeat``."""
    start = time.process_time()
    for _ in range(repeat):
        call()
    return 1000 * (time.process_time() - start) / repeat


def write_perf_map() -> Path:
    """``/tmp/perf-PID.map`` for every compiled function of the walk's modules (each
    runs to the next one's address)."""
    import numba

    starts: dict[int, str] = {}
    for module in (_kernels, _loop):
        for name in dir(module):
            dispatcher = getattr(module, name)
            if not isinstance(dispatcher, numba.core.registry.CPUDispatcher):
                continue
            for overload in dispatcher.overloads.values():
                library = overload.library
                for function in library._final_module.functions:
                    if function.is_declaration:
                        continue
                    address = library.get_pointer_to_function(function.name)
                    if address:
                        starts[address] = function.name
    ordered = sorted(starts.items())
    path = Path(f"/tmp/perf-{os.getpid()}.map")
    with path.open("w") as out:
        for i, (address, name) in enumerate(ordered):
            end = ordered[i + 1][0] if i + 1 < len(ordered) else address + 0x10000
            out.write(f"{address:x} {min(end - address, 0x100000):x} {name}\n")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spot", choices=list(CASES), default="basic")
    parser.add_argument("--iterations", type=int, default=60, help="timed iterations")
    parser.add_argument("--repeat", type=int, default=5, help="timed walks and measures")
    parser.add_argument("--perf-map", action="store_true", help="name the kernels for perf")
    args = parser.parse_args()

    warm = Solver(WARM_UP.game_arrays(), threads=1)
    warm.run(2, every=1)
    solver = Solver(CASES[args.spot].spot.game_arrays(), threads=1)
    solver.iterate()
    solver.exploitability()
    if args.perf_map:
        print(f"perf map: {write_perf_map()}")
    iteration = cpu_ms(solver.iterate, args.iterations)
    measure = cpu_ms(solver.exploitability, args.repeat)
    disc = np.array([0.9, 0.5, 0.9])  # any discounts: the walk's cost is the same
    walks = {
        f"{name} walk, {player}": cpu_ms(
            lambda mode=mode, p=p: solver.root_values(mode, p, disc), args.repeat
        )
        for name, mode in (("training", _kernels.CFR), ("best-response", _kernels.BEST))
        for p, player in enumerate(("OOP", "IP"))
    }
    print(f"{args.spot}: CPU ms, one thread, after {solver.iterations} iterations")
    print(f"  iteration                       {iteration:8.2f}")
    for label, ms in walks.items():
        print(f"  {label:<31} {ms:8.2f}")
    print(f"  exploitability measure          {measure:8.2f}")
    share = measure / 10 / (iteration + measure / 10)
    print(f"  measure's share, every 10       {100 * share:7.1f}%")


if __name__ == "__main__":
    main()
