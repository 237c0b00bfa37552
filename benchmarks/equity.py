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

    python benchmarks/equity.py [--quick] [--monte-carlo] [--only-fesca-exact] [--samples N]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numba

from cardlab.poker.equity import exact_equity, sample_equity
from cardlab.poker.games import get_game

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the slowest cases")
    parser.add_argument("--samples", type=int, default=2_000_000)
    parser.add_argument("--monte-carlo", action="store_true", help="only the Monte Carlo lines")
    parser.add_argument(
        "--only-fesca-exact", action="store_true", help="only the exact FESCA78 case, best of 5"
    )
    args = parser.parse_args()
    cores = numba.config.NUMBA_NUM_THREADS
    n = args.samples
    # warm up: load (or compile) the kernels
    exact_equity(HOLDEM, AA_KK, board="2c 3d 4h 5s")
    exact_equity(FESCA, FESCA_HANDS, board="木5 火6 土7 金8")
    exact_equity(HOLDEM, ["As Ah", "random"], board="2c 7d 9h 4s")
    if args.only_fesca_exact:
        exact_fesca(5)
        return
    sample_equity(HOLDEM, AA_KK, samples=8_000, rng=0)
    print(f"cores: {cores}; cardlab: CPU time of one thread, and wall time on {cores} cores\n")
    if not args.monte_carlo:
        exact_lines(args.quick)
    monte_carlo_lines(n, cores)


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


if __name__ == "__main__":
    main()
