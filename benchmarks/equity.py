"""Equity speed: exact enumeration and Monte Carlo, against native peers in the same run.

Prints times and rates with their ratio to issue 12's targets (one core unless said):

- exact heads-up Hold'em preflop (AsAh v KsKh): <= 10 ms standard52, <= 100 ms FESCA78;
- exact hand against a random hand preflop: <= 2 s standard52 (and on a flop);
- Monte Carlo: >= 25 M showdowns/s per core standard52, >= 10 M FESCA78;

and cardlab's rate divided by each peer's on the same matchup: poker-equity
(``exact_from_text``, ``chunk_from_text`` on one thread), eval7
(``py_hand_vs_range_monte_carlo``; its exact hand-vs-range answers 1.0 for AsAh v KsKh,
so it is not timed), holdem-hand-evaluator (``calculate_equity``, a hand against random
hands) and pokerkit's sampled ``calculate_equities``, whichever are installed (the
``bench`` extra). cardlab's times are CPU seconds of one thread (``process_time``,
steadier on a shared machine) and wall seconds on every core.

Then, side by side in the same run, cardlab against OMPEval on issue 21's four figures:
random seven-card evaluations per second per core, Monte Carlo showdowns per second per
core, AsAh v KsKh exact, AsAh against a random hand exact; with issue 21's reference
(OMPEval measured elsewhere: 271 M, 39 M, 1.1 ms). Two OMPEvals:

- **native**: OMPEval built from its source on this machine (``-O3 -march=native``, out of
  this repository: its code is never committed here), through a small driver program
  named by ``--native PATH`` or ``$OMPEVAL_BENCH``. The driver answers two commands on
  one thread, each with one JSON line: ``PATH eval N FILE R`` scores the N seven-card
  hands of FILE (N x 7 bytes, OMPEval's card index 4 * rank + suit, suits s h c d) R
  times, each hand built from its seven cards as OMPEval's own "random order (card
  arrays)" benchmark does, and prints ``evals_per_cpu_s`` (the best of R, CPU time);
  ``PATH equity AsAh KsKh --mc S`` (or ``--exact``) runs its EquityCalculator on one
  thread and prints ``hands`` and ``cpu_s`` (docs/speed.md);
- **pokerfast**, a wheel that bundles OMPEval as a C library (at about half the native
  speed), as a second line.

pyrust-poker, a Rust port of OMPEval, is tried too (its wheels cannot evaluate:
docs/speed.md). Last, cardlab's exact walks on 1 and 2 threads (``numba.set_num_threads``,
in this process only) and the speed-up.

    python benchmarks/equity.py [--quick] [--monte-carlo] [--only-fesca-exact] [--samples N]
        [--native [PATH]] [--threads-only] [--mc-native REPEATS]

``--mc-native R``: only the per-core figures against OMPEval, R interleaved rounds of
Monte Carlo (cardlab standard52 AsAh v KsKh, OMPEval on the same matchup, cardlab
FESCA78) and of random seven-card evaluations (2,000,000 hands, all three), each on one
thread; prints each figure's median and range and the median of the per-round ratios
cardlab / OMPEval (run it with NUMBA_NUM_THREADS=1 for one thread in numba too).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np

from cardlab.poker import RuleSet
from cardlab.poker.batch import evaluate_batch
from cardlab.poker.equity import exact_equity, sample_equity
from cardlab.poker.games import get_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
from evaluators import NativeOmpeval, best_rate, pokerfast_runner, pyrust_runner, random_hands

HOLDEM = get_game("standard52-holdem")
FESCA = get_game("fesca78-holdem")
AA_KK = ["As Ah", "Ks Kh"]
FESCA_HANDS = ["木1 火1", "水12 金12"]


def cpu_and_wall(fn: Callable[[], Any], repeat: int = 2) -> tuple[float, float, Any]:
    """(best CPU seconds on one thread, best wall seconds on every core, result)."""
    cores = numba.config.NUMBA_NUM_THREADS
    cpu = wall = float("inf")
    result = None
    for threads in (1, cores):
        numba.set_num_threads(threads)
        for _ in range(repeat):
            c0, w0 = time.process_time(), time.perf_counter()
            result = fn()
            c1, w1 = time.process_time(), time.perf_counter()
            if threads == 1:
                cpu = min(cpu, c1 - c0)
            else:
                wall = min(wall, w1 - w0)
    numba.set_num_threads(cores)
    return cpu, wall, result


def peer_time(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def peer_cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    """CPU seconds of a peer's call (all its threads): a rate per core, as cardlab's."""
    start = time.process_time()
    result = fn()
    return time.process_time() - start, result


def line(label: str, value: str) -> None:
    print(f"{label:<62} {value}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the slowest cases")
    parser.add_argument("--samples", type=int, default=2_000_000)
    parser.add_argument("--monte-carlo", action="store_true", help="only the Monte Carlo lines")
    parser.add_argument(
        "--only-fesca-exact", action="store_true", help="only the exact FESCA78 case, best of 5"
    )
    parser.add_argument(
        "--native",
        nargs="?",
        const="",
        default=None,
        metavar="PATH",
        help="only cardlab against OMPEval, and the threads; PATH: the driver of OMPEval "
        "built from source (default $OMPEVAL_BENCH)",
    )
    parser.add_argument(
        "--threads-only", action="store_true", help="only the exact walks on 1 and 2 threads"
    )
    parser.add_argument("--eval-hands", type=int, default=4_000_000)
    parser.add_argument(
        "--mc-native",
        type=int,
        default=0,
        metavar="R",
        help="only MC and 7-card evaluation per core against OMPEval, R rounds",
    )
    args = parser.parse_args(argv)
    native = NativeOmpeval.find(args.native or os.environ.get("OMPEVAL_BENCH", ""))
    cores = numba.config.NUMBA_NUM_THREADS
    n = args.samples
    if args.mc_native:  # the sampler's kernel only
        sample_equity(HOLDEM, AA_KK, samples=8_000, rng=0)
        mc_native_lines(n, args.mc_native, native)
        return
    # warm up: load (or compile) the kernels
    exact_equity(HOLDEM, AA_KK, board="2c 3d 4h 5s")
    exact_equity(FESCA, FESCA_HANDS, board="木5 火6 土7 金8")
    exact_equity(HOLDEM, ["As Ah", "random"], board="2c 7d 9h 4s")
    if args.only_fesca_exact:
        exact_fesca(5)
        return
    sample_equity(HOLDEM, AA_KK, samples=8_000, rng=0)
    if args.threads_only:
        thread_lines(args.quick)
        return
    if args.native is not None:
        native_lines(n, args.eval_hands, native)
        thread_lines(args.quick)
        return
    print(f"cores: {cores}; cardlab: CPU time of one thread, and wall time on {cores} cores\n")
    if not args.monte_carlo:
        exact_lines(args.quick)
    monte_carlo_lines(n, cores)
    if not args.monte_carlo:
        native_lines(n, args.eval_hands, native)
        thread_lines(args.quick)


def exact_fesca(repeat: int) -> None:
    cpu, wall, r = cpu_and_wall(lambda: exact_equity(FESCA, FESCA_HANDS), repeat=repeat)
    line(
        "exact FESCA78 木1火1 v 水12金12 preflop (16,108,764 boards)",
        f"{cpu * 1e3:8.1f} ms ({wall * 1e3:.1f} ms wall); target 100 ms: x{cpu / 0.1:.2f}",
    )
    print(f"  equity {float(r.players[0].equity):.6f}")


def exact_lines(quick: bool) -> None:
    cpu, wall, r = cpu_and_wall(lambda: exact_equity(HOLDEM, AA_KK))
    line(
        "exact standard52 AsAh v KsKh preflop (1,712,304 boards)",
        f"{cpu * 1e3:8.1f} ms ({wall * 1e3:.1f} ms wall); target 10 ms: x{cpu / 0.010:.2f}",
    )
    print(f"  equity {r.players[0].equity} = {float(r.players[0].equity):.6f}")
    peers_exact: dict[str, float] = {}
    try:
        import poker_equity
    except ImportError:
        poker_equity = None
        print("  poker-equity not installed: pip install poker-equity")
    else:
        t, res = peer_time(lambda: poker_equity.exact_from_text("holdem", ["AsAh", "KsKh"]))
        peers_exact["poker-equity"] = t
        print(f"  peer poker-equity exact_from_text: {t * 1e3:.1f} ms wall (all its threads)")
        print(f"    its equity {res['players'][0]['equity']:.6f}")
    for name, t in peers_exact.items():
        print(f"  cardlab / {name} speed: x{t / wall:.1f} (wall, both on every core)")

    if not quick:
        exact_fesca(1)

    cpu, wall, r = cpu_and_wall(lambda: exact_equity(HOLDEM, ["As Ah", "random"]), 1)
    line(
        "exact standard52 AsAh v random preflop (2,097,572,400 showdowns)",
        f"{cpu * 1e3:8.1f} ms ({wall * 1e3:.1f} ms wall); target 2 s: x{cpu / 2.0:.3f}",
    )
    print(f"  equity {r.players[0].equity} = {float(r.players[0].equity):.6f}")
    if poker_equity is not None:
        t, res = peer_time(lambda: poker_equity.exact_from_text("holdem", ["AsAh", "**"]))
        if res is None:
            print(f"  peer poker-equity exact_from_text: refuses it (None) after {t * 1e3:.0f} ms")
        else:
            print(f"  peer poker-equity: {t:.2f} s wall; cardlab / it: x{t / wall:.1f}")
    flop = "2c 7d 9h"
    cpu, wall, r = cpu_and_wall(lambda: exact_equity(HOLDEM, ["As Ah", "random"], board=flop), 1)
    line(
        f"exact standard52 AsAh v random, flop {flop} (1,070,190 showdowns)",
        f"{cpu * 1e3:8.1f} ms ({wall * 1e3:.1f} ms wall)",
    )
    print(f"  equity {float(r.players[0].equity):.6f}")
    if poker_equity is not None:
        t, res = peer_time(lambda: poker_equity.exact_from_text("holdem", ["AsAh", "**"], flop))
        print(
            f"  peer poker-equity: {t * 1e3:.1f} ms wall, equity {res['players'][0]['equity']:.6f}"
        )
        print(f"  cardlab / poker-equity speed: x{t / wall:.1f} (wall, both on every core)")


def monte_carlo_lines(n: int, cores: int) -> None:
    try:
        import poker_equity
    except ImportError:
        poker_equity = None
    mc: dict[str, float] = {}
    for game, hands, target in ((HOLDEM, AA_KK, 25e6), (FESCA, FESCA_HANDS, 10e6)):
        cpu, wall, r = cpu_and_wall(lambda g=game, h=hands: sample_equity(g, h, samples=n, rng=1))
        mc[game.name] = n / cpu
        line(
            f"Monte Carlo {game.name} {' v '.join(hands)} ({n:,})",
            f"{n / cpu / 1e6:6.2f} M/s per core ({n / wall / 1e6:.2f} M/s on {cores});"
            f" target {target / 1e6:.0f} M: x{n / cpu / target:.2f}",
        )
        print(f"  equity {r.players[0].equity:.5f} ± {r.players[0].equity_se:.5f}")
    rate = mc[HOLDEM.name]
    peers: dict[str, float] = {}
    try:
        import eval7  # type: ignore[import-not-found]
    except ImportError:
        print("eval7 not installed: pip install eval7")
    else:
        hero = [eval7.Card(c) for c in ("As", "Ah")]
        villain = eval7.HandRange("KsKh")
        t, res = peer_cpu(lambda: eval7.py_hand_vs_range_monte_carlo(hero, villain, [], n))
        peers["eval7 (1 thread)"] = n / t
        print(f"peer eval7 py_hand_vs_range_monte_carlo: equity {res:.5f}")
    if poker_equity is not None:
        t, res = peer_cpu(
            lambda: poker_equity.chunk_from_text("holdem", ["AsAh", "KsKh"], samples=n, threads=1)
        )
        peers["poker-equity (1 thread)"] = n / t
        print(f"peer poker-equity chunk_from_text: equity {res['players'][0]['equity']:.5f}")
    try:
        import holdem_hand_evaluator
    except ImportError:
        print("holdem-hand-evaluator not installed: pip install holdem-hand-evaluator")
    else:
        # a hand against one random hand (its only form); its own threads
        m = n // 4
        t, res = peer_cpu(lambda: holdem_hand_evaluator.calculate_equity("AsAh", "", 1, m))
        peers["holdem-hand-evaluator (AsAh v random)"] = m / t
    try:
        from pokerkit import Deck, StandardHighHand, calculate_equities, parse_range
    except ImportError:
        print("pokerkit not installed: pip install pokerkit")
    else:
        m = 20_000
        t, res = peer_cpu(
            lambda: calculate_equities(
                (parse_range("AsAh"), parse_range("KsKh")),
                (),
                2,
                5,
                Deck.STANDARD,
                (StandardHighHand,),
                sample_count=m,
            )
        )
        peers["pokerkit"] = m / t
    for name, peer_rate in peers.items():
        print(
            f"  {name:<40} {peer_rate / 1e6:8.3f} M showdowns/s per CPU second;"
            f" cardlab per core / it: x{rate / peer_rate:.2f}"
        )
    if peers:
        fastest = max(peers, key=lambda k: peers[k])
        print(f"  fastest peer: {fastest}")


# issue 21's reference: OMPEval (C++) measured on one core of another machine
OMPEVAL_REF = {"eval": 271e6, "mc": 39e6, "exact": 1.1e-3}


def _ompeval() -> Any:
    """pokerfast's OMPEval library (ctypes), or None when it is not installed."""
    try:
        from pokerfast import equity as pf
    except ImportError:
        return None
    return pf._load() if pf.available() else None


def _omp_equity(lib: Any, ranges: list[str], exact: bool, threads: int, limit: float) -> Any:
    """OMPEval's pf_equity: (equities, hands evaluated). ``threads`` 0 is every core;
    Monte Carlo runs until ``limit`` seconds (its standard-error target is never met)."""
    rs = (ctypes.c_char_p * len(ranges))(*[r.encode() for r in ranges])
    out = (ctypes.c_double * len(ranges))()
    hands = ctypes.c_uint64()
    rc = lib.pf_equity(rs, len(ranges), b"", b"", int(exact), 1e-12, threads, limit, out, hands)
    if rc != 0:
        raise RuntimeError(f"pokerfast's pf_equity failed ({rc}) on {ranges}")
    return list(out), hands.value


def _best(fn: Callable[[], Any], repeat: int, clock: Callable[[], float]) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = clock()
        result = fn()
        best = min(best, clock() - start)
    return best, result


def native_lines(samples: int, eval_hands: int, native: NativeOmpeval | None) -> None:
    """cardlab and OMPEval (from source, and pokerfast's) on issue 21's four figures, in
    this one run: one thread each (CPU seconds), then every core (wall seconds) where
    pokerfast can (the native driver runs one thread)."""
    cores = numba.config.NUMBA_NUM_THREADS
    lib = _ompeval()
    print("\ncardlab against OMPEval, same run; per core = CPU s of one thread")
    if lib is None:
        print("  pokerfast (with its OMPEval library) not installed: pip install pokerfast")
    rows: list[tuple[str, ...]] = []

    # 1. random seven-card evaluations per second per core
    hands = random_hands(eval_hands, 52, 7, seed=21)
    rules = RuleSet.for_deck("standard52")
    numba.set_num_threads(1)
    evaluate_batch(hands[:1000], rules)
    out = np.empty(len(hands), np.int64)
    ours = best_rate(
        lambda: evaluate_batch(hands, rules, check=False, out=out), len(hands), 3, time.process_time
    )
    run, _ = pokerfast_runner(hands)
    theirs = best_rate(run, len(hands), 3, time.process_time) if run is not None else None
    from_source = native.eval_rate(hands) if native else None
    rows.append(
        _row("7-card evaluations/s per core", ours, from_source, theirs, OMPEVAL_REF["eval"], True)
    )
    pyrust, why = pyrust_runner(hands)
    if pyrust is None:
        print(f"  pyrust-poker: not measured, {why}")
    else:
        rate = best_rate(pyrust, min(len(hands), 500_000), 3, time.process_time)
        print(
            f"  pyrust-poker: {rate / 1e6:.1f} M evaluations/s per core; cardlab x{ours / rate:.2f}"
        )

    # 2. Monte Carlo showdowns per second per core, AsAh v KsKh
    ours_s, _ = _best(
        lambda: sample_equity(HOLDEM, AA_KK, samples=samples, rng=1), 2, time.process_time
    )
    theirs = None
    if lib is not None:
        _omp_equity(lib, ["AsAh", "KsKh"], False, 1, 0.2)
        start = time.process_time()
        _, played = _omp_equity(lib, ["AsAh", "KsKh"], False, 1, 2.0)
        theirs = played / (time.process_time() - start)
    from_source = None
    if native:
        answer = native.equity(["AsAh", "KsKh"], False, 2.0)
        from_source = answer["hands"] / answer["cpu_s"]
    rows.append(
        _row(
            "MC showdowns/s per core",
            samples / ours_s,
            from_source,
            theirs,
            OMPEVAL_REF["mc"],
            True,
        )
    )

    # 3. and 4. exact: AsAh v KsKh, AsAh v a random hand; one thread, then every core
    for label, hands_text, omp_ranges, repeat in (
        ("exact AsAh v KsKh", AA_KK, ["AsAh", "KsKh"], 5),
        ("exact AsAh v random", ["As Ah", "random"], ["AsAh", "random"], 1),
    ):
        ref = OMPEVAL_REF["exact"] if "KsKh" in omp_ranges else None
        for threads in (1, cores):
            numba.set_num_threads(threads)
            clock = time.process_time if threads == 1 else time.perf_counter
            ours_s, _ = _best(lambda h=hands_text: exact_equity(HOLDEM, h), repeat, clock)
            theirs = None
            if lib is not None:
                omp_threads = 1 if threads == 1 else 0
                theirs, _ = _best(
                    lambda r=omp_ranges, t=omp_threads: _omp_equity(lib, r, True, t, 0.0),
                    repeat,
                    clock,
                )
            from_source = None
            if native and threads == 1:
                from_source = min(native.equity(omp_ranges, True)["cpu_s"] for _ in range(repeat))
            where = "1 thread, CPU s" if threads == 1 else f"{cores} threads, wall s"
            rows.append(
                _row(
                    f"{label} ({where})",
                    ours_s,
                    from_source,
                    theirs,
                    ref if threads == 1 else None,
                    False,
                )
            )
    numba.set_num_threads(cores)
    print(
        f"  {'figure':<40} {'issue ref':>10} {'native':>10} {'pokerfast':>10} {'cardlab':>10}"
        "  cardlab speed"
    )
    for row in rows:
        print(f"  {row[0]:<40} {row[1]:>10} {row[2]:>10} {row[3]:>10} {row[4]:>10}  {row[5]}")


def _row(
    label: str,
    ours: float,
    native: float | None,
    theirs: float | None,
    ref: float | None,
    rate: bool,
) -> tuple[str, ...]:
    """One line of the native table: a rate (higher is better) or a time in seconds;
    ``native``: OMPEval from source, ``theirs``: pokerfast's OMPEval, ``ref``: the issue's."""

    def text(x: float | None) -> str:
        if x is None:
            return "-"
        return f"{x / 1e6:.1f} M" if rate else f"{x * 1e3:.1f} ms"

    def speed(other: float | None, name: str) -> str:
        if other is None:
            return ""
        return f"x{ours / other if rate else other / ours:.2f} {name}"

    ratios = ", ".join(
        r
        for r in (speed(native, "native"), speed(theirs, "pokerfast"), speed(ref, "issue ref"))
        if r
    )
    return label, text(ref), text(native), text(theirs), text(ours), ratios


def mc_native_lines(samples: int, rounds: int, native: NativeOmpeval | None = None) -> None:
    """Per-core Monte Carlo and seven-card evaluation, cardlab against OMPEval (pokerfast's,
    and the native build's when given), ``rounds`` interleaved rounds on one thread (CPU
    seconds): medians, ranges and the median per-round ratio (a shared machine's speed
    drifts within a minute: the two measured side by side see the same drift)."""
    numba.set_num_threads(1)
    sample_equity(FESCA, FESCA_HANDS, samples=8_000, rng=0)
    lib = _ompeval()
    if lib is not None:
        _omp_equity(lib, ["AsAh", "KsKh"], False, 1, 0.2)
    hands = random_hands(2_000_000, 52, 7, seed=21)
    rules = RuleSet.for_deck("standard52")
    out = np.empty(len(hands), np.int64)
    evaluate_batch(hands[:1000], rules)
    omp_eval, _ = pokerfast_runner(hands)
    evals: dict[str, list[float]] = {"cardlab": [], "OMPEval": [], "native": []}
    rates: dict[str, list[float]] = {"cardlab": [], "OMPEval": [], "native": [], "FESCA78": []}
    ratios: list[float] = []
    native_ratios: list[float] = []
    for r in range(rounds):
        start = time.process_time()
        evaluate_batch(hands, rules, check=False, out=out)
        evals["cardlab"].append(len(hands) / (time.process_time() - start))
        if omp_eval is not None:
            start = time.process_time()
            omp_eval()
            evals["OMPEval"].append(len(hands) / (time.process_time() - start))
        if native is not None:
            evals["native"].append(native.eval_rate(hands, repeat=1))
        start = time.process_time()
        sample_equity(HOLDEM, AA_KK, samples=samples, rng=r)
        rates["cardlab"].append(samples / (time.process_time() - start))
        if lib is not None:
            start = time.process_time()
            _, played = _omp_equity(lib, ["AsAh", "KsKh"], False, 1, 1.0)
            rates["OMPEval"].append(played / (time.process_time() - start))
            ratios.append(rates["cardlab"][-1] / rates["OMPEval"][-1])
        if native is not None:
            answer = native.equity(["AsAh", "KsKh"], False, 1.0)
            rates["native"].append(answer["hands"] / answer["cpu_s"])
            native_ratios.append(rates["cardlab"][-1] / rates["native"][-1])
        start = time.process_time()
        sample_equity(FESCA, FESCA_HANDS, samples=samples, rng=r)
        rates["FESCA78"].append(samples / (time.process_time() - start))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    print(f"Monte Carlo per core (1 thread, CPU s), {rounds} interleaved rounds of {samples:,}")
    labels = {
        "cardlab": "cardlab standard52 AsAh v KsKh",
        "OMPEval": "OMPEval (pokerfast) AsAh v KsKh",
        "native": "OMPEval (from source) AsAh v KsKh",
        "FESCA78": f"cardlab FESCA78 {' v '.join(FESCA_HANDS)}",
    }
    for name, values in rates.items():
        if values:
            print(
                f"  {labels[name]:<40} median {np.median(values) / 1e6:6.2f} M/s"
                f" (range {min(values) / 1e6:.2f}-{max(values) / 1e6:.2f})"
            )
    for name, each in (("pokerfast", ratios), ("from source", native_ratios)):
        if each:
            print(
                f"  cardlab / OMPEval ({name}) per round: median x{np.median(each):.2f}"
                f" (range x{min(each):.2f}-x{max(each):.2f})"
            )
    print(f"Random seven-card evaluations per core, the same rounds ({len(hands):,} hands)")
    names = {"cardlab": "cardlab", "OMPEval": "OMPEval (pokerfast)", "native": "OMPEval (source)"}
    for name, values in evals.items():
        if values:
            print(
                f"  {names[name]:<40} median {np.median(values) / 1e6:6.2f} M/s"
                f" (range {min(values) / 1e6:.2f}-{max(values) / 1e6:.2f})"
            )
    for name in ("OMPEval", "native"):
        if evals[name]:
            per_round = np.array(evals["cardlab"]) / np.array(evals[name])
            print(
                f"  cardlab / {names[name]} per round: median x{np.median(per_round):.2f}"
                f" (range x{per_round.min():.2f}-x{per_round.max():.2f})"
            )


def _ceiling_kernel() -> Any:
    """A loop of 64 independent units of pure arithmetic over ``prange``: the speed-up
    two threads can give on this machine at this moment (about x2 on two idle cores,
    x1 when another process holds one), the ceiling for the walks measured beside it."""

    @numba.njit(parallel=True, cache=False)
    def ceiling(n: np.int64) -> Any:  # pragma: no cover - compiled
        out = np.zeros(64, np.uint64)
        for t in numba.prange(64):
            x = np.uint64(t + 1)
            acc = np.uint64(0)
            for _ in range(n):
                x ^= x << np.uint64(13)
                x ^= x >> np.uint64(7)
                x ^= x << np.uint64(17)
                acc += x & np.uint64(255)
            out[t] = acc
        return out

    return ceiling


def thread_lines(quick: bool) -> None:
    """cardlab's exact walks on 1 and on 2 threads: wall seconds, medians of rounds that
    alternate the two (a shared machine's speed drifts by half within a minute: rounds
    side by side see the same drift), and the speed-up, the median of the rounds' ratios
    (issue 21's goal: at least 1.8 on two). Each 2-thread run also reports the share of
    its CPU time spent on other threads than the calling one (0 for a single-threaded
    kernel, 0.5 for two evenly loaded)."""
    cases: list[tuple[str, Any, list[str], int]] = [
        ("exact AsAh v KsKh", HOLDEM, AA_KK, 41),
        ("exact AsAh v random", HOLDEM, ["As Ah", "random"], 9),
    ]
    if not quick:
        cases.append(("exact FESCA78 木1火1 v 水12金12", FESCA, FESCA_HANDS, 9))
    print("\ncardlab's exact walks on 1 and 2 threads (wall s, medians of alternating rounds;")
    print("goal x1.8)")
    control = _ceiling_kernel()
    control(np.int64(10))  # compiled before timing
    cases.insert(0, ("ceiling: a trivially parallel loop", None, [], 5))
    for label, game, hands, rounds in cases:
        if game is not None:
            exact_equity(game, hands)  # compiled and loaded before timing
        walls: dict[int, list[float]] = {1: [], 2: []}
        others = []
        for _ in range(rounds):
            for threads in (1, 2):
                numba.set_num_threads(threads)
                c0, t0, w0 = time.process_time(), time.thread_time(), time.perf_counter()
                if game is None:  # what this machine gives two threads right now
                    control(np.int64(3_000_000))
                else:
                    exact_equity(game, hands)
                c1, t1, w1 = time.process_time(), time.thread_time(), time.perf_counter()
                walls[threads].append(w1 - w0)
                if threads == 2 and c1 > c0:
                    others.append(max(0.0, 1 - (t1 - t0) / (c1 - c0)))
        one, two = float(np.median(walls[1])), float(np.median(walls[2]))
        ratios = np.array(walls[1]) / np.array(walls[2])
        print(
            f"  {label:<34} 1 thread {one * 1e3:8.1f} ms, 2 threads {two * 1e3:8.1f} ms:"
            f" x{np.median(ratios):.2f} (rounds x{ratios.min():.2f}-x{ratios.max():.2f});"
            f" CPU on other threads {np.median(others) if others else 0.0:.2f}"
        )
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    if not quick:
        _two_processes_line()


_ONE_WALK = """
import sys, time
import numpy as np
from cardlab.poker.equity import exact_equity
from cardlab.poker.games import get_game
game, hands = get_game("fesca78-holdem"), ["木1 火1", "水12 金12"]
exact_equity(game, hands)
start, runs = float(sys.argv[1]), int(sys.argv[2])
while time.time() < start:
    time.sleep(0.001)
walls = []
for _ in range(runs):
    t = time.perf_counter()
    exact_equity(game, hands)
    walls.append(time.perf_counter() - t)
print(float(np.median(walls)))
"""


def _two_processes_line(runs: int = 9, rounds: int = 2) -> None:
    """The ceiling for work like the walks': the FESCA78 walk on one thread in one
    process, then in two processes at once (each on one thread, started together). On
    two independent cores each copy would keep its speed; what two copies lose is what
    the machine takes from two threads of such work (shared caches, memory, or cores
    that are not whole), whatever the code does."""

    env = {**os.environ, "NUMBA_NUM_THREADS": "1"}
    alone: list[float] = []
    together: list[float] = []
    for _ in range(rounds):
        for copies, into in ((1, alone), (2, together)):
            start = time.time() + 8  # after every copy has loaded and compiled
            procs = [
                subprocess.Popen(
                    [sys.executable, "-c", _ONE_WALK, str(start), str(runs)],
                    env=env,
                    stdout=subprocess.PIPE,
                    text=True,
                )
                for _ in range(copies)
            ]
            into.extend(float(p.communicate()[0]) for p in procs)
    one, two = float(np.median(alone)), float(np.median(together))
    print(
        f"  FESCA78 walk, 1 thread: alone {one * 1e3:.1f} ms, two processes at once"
        f" {two * 1e3:.1f} ms each: two copies do x{2 * one / two:.2f} the work of one"
        " (the machine's ceiling for such work)"
    )


if __name__ == "__main__":
    main()
