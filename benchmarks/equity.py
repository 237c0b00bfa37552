"""Equity speed: exact heads-up preflop enumeration and Monte Carlo, against a peer.

Prints wall times, boards or showdowns per second, and ratios to the issue's targets
(standard52 < 1 s, FESCA78 < 10 s, Monte Carlo >= 2 M showdowns/s, on one core and on
all) and to a peer calculator from PyPI run on the same matchup in the same process:
eval7's ``py_hand_vs_range_monte_carlo`` (its ``py_hand_vs_range_exact`` answers 1.0
for AsAh v KsKh preflop and on a flop, so it is not timed), and pokerkit's sampled
``calculate_equities`` when installed. Run: ``python benchmarks/equity.py [--quick]``.
"""

from __future__ import annotations

import argparse
import time

import numba

from cardlab.poker.equity import exact_equity, sample_equity
from cardlab.poker.games import get_game


def timed(label: str, fn, *args, **kwargs):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    elapsed = time.perf_counter() - start
    print(f"{label:<58} {elapsed:8.3f} s")
    return result, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip FESCA78 exact")
    args = parser.parse_args()

    holdem = get_game("standard52-holdem")
    fesca = get_game("fesca78-holdem")
    hands = ["As Ah", "Ks Kh"]
    # warm up: compile (cached on disk afterwards)
    exact_equity(holdem, hands, board="2c 3d 4h 5s")
    sample_equity(holdem, hands, samples=8_000, rng=0)

    r, t52 = timed(
        "exact standard52 AsAh v KsKh preflop (1,712,304 boards)", exact_equity, holdem, hands
    )
    eq = r.players[0].equity
    print(
        f"  equity {float(eq):.6f} = {eq}; {r.deals / t52 / 1e6:.2f} M boards/s;"
        f" time/target(1 s): x{t52:.2f}"
    )

    if not args.quick:
        fh = ["木1 火1", "水12 金12"]
        exact_equity(fesca, fh, board="木5 火6 土7 金8")
        r, t78 = timed(
            "exact FESCA78 木1火1 v 水12金12 preflop (16,108,764 boards)", exact_equity, fesca, fh
        )
        print(
            f"  equity {float(r.players[0].equity):.6f}; {r.deals / t78 / 1e6:.2f} M boards/s;"
            f" time/target(10 s): x{t78 / 10:.2f}"
        )

    n = 2_000_000
    cores = numba.config.NUMBA_NUM_THREADS
    rates = {}
    for threads in sorted({1, cores}):
        numba.set_num_threads(threads)
        r, tmc = timed(
            f"Monte Carlo standard52 AsAh v KsKh ({n:,} showdowns, {threads} core(s))",
            sample_equity,
            holdem,
            hands,
            samples=n,
            rng=1,
        )
        rates[threads] = n / tmc
        print(
            f"  equity {r.players[0].equity:.5f} ± {r.players[0].equity_se:.5f};"
            f" {rates[threads] / 1e6:.2f} M showdowns/s;"
            f" rate/target(2 M/s): x{rates[threads] / 2e6:.2f}"
        )
    numba.set_num_threads(cores)
    rate = rates[cores]
    r, tmf = timed(
        f"Monte Carlo FESCA78 木1火1 v 水12金12 ({n:,} showdowns)",
        sample_equity,
        fesca,
        ["木1 火1", "水12 金12"],
        samples=n,
        rng=1,
    )
    print(f"  {n / tmf / 1e6:.2f} M showdowns/s")

    try:
        import eval7  # type: ignore[import-not-found]
    except ImportError:
        print("eval7 not installed: pip install eval7")
    else:
        hero = [eval7.Card(c) for c in ("As", "Ah")]
        villain = eval7.HandRange("KsKh")
        # eval7's exact hand-vs-range needs a board; its Monte Carlo is the peer here
        res, tpeer = timed(
            f"peer eval7.py_hand_vs_range_monte_carlo ({n:,})",
            eval7.py_hand_vs_range_monte_carlo,
            hero,
            villain,
            [],
            n,
        )
        peer_rate = n / tpeer
        print(f"  eval7 equity {res:.5f}; {peer_rate / 1e6:.2f} M showdowns/s")
        for threads, each in rates.items():
            print(f"  cardlab/eval7 Monte Carlo rate, {threads} core(s): x{each / peer_rate:.2f}")
        print(
            f"  cardlab exact preflop (every board) / eval7 sampling {n:,}: time x{t52 / tpeer:.2f}"
        )
    try:
        from pokerkit import Card, Deck, StandardHighHand, calculate_equities, parse_range
    except ImportError:
        print("pokerkit not installed: pip install pokerkit")
    else:
        samples = 20_000
        res, tpk = timed(
            f"peer pokerkit.calculate_equities sampled ({samples:,})",
            calculate_equities,
            (parse_range("AsAh"), parse_range("KsKh")),
            (),
            2,
            5,
            Deck.STANDARD,
            (StandardHighHand,),
            sample_count=samples,
        )
        print(
            f"  pokerkit equity {res[0]:.4f}; {samples / tpk / 1e3:.1f} k showdowns/s;"
            f" cardlab/pokerkit Monte Carlo rate: x{rate / (samples / tpk):.0f}"
        )
        _ = Card


if __name__ == "__main__":
    main()
