"""Exact best-of-seven tables: timings, counts, and the brute-force check.

For each deck: the seven-card table end to end in a fresh process (start-up, imports
and the cached numba kernels included: what ``cardlab poker table --hand-size 7``
costs), then in this process, and where affordable the brute force over every
7-subset with the ratio between the two. Prints figures only; no assertions on time.

Run: python benchmarks/tables.py [--brute-force DECK ...] [--omaha] [--six]
(default brute force: FESCA42; FESCA54 visits 177 million hands, about a minute.)
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import time

from cardlab.poker.rules import RuleSet
from cardlab.poker.tables7 import (
    SevenTable,
    best_of_table,
    brute_force_counts,
    omaha_exact_work,
    omaha_table,
)

DECKS = (
    "standard52",
    "FESCA42",
    "FESCA54",
    "FESCA60",
    "FESCA65",
    "FESCA73",
    "TESCA52",
    "TESCA54",
    "FESCA78",
)
TARGETS = {"standard52": 3.0, "FESCA78": 15.0}  # seconds, start-up included (issue 5)

_FRESH = """
import sys, time
t = time.perf_counter()
from cardlab.poker.rules import RuleSet
from cardlab.poker.tables7 import best_of_table
best_of_table(RuleSet.for_deck(sys.argv[1]), int(sys.argv[2]))
"""


def fresh_process_seconds(deck: str, k: int) -> float:
    """Wall time of a new Python process that imports cardlab and counts the table."""
    begin = time.perf_counter()
    subprocess.run([sys.executable, "-c", _FRESH, deck, str(k)], check=True)
    return time.perf_counter() - begin


def show(table: SevenTable) -> None:
    label = "Omaha" if table.game == "omaha" else f"best of {table.hand_size}"
    for r in table.rows:
        flag = ""
        if r.inverted_over:
            flag = "  INVERTED over " + ", ".join(c.english for c in r.inverted_over)
        print(
            f"    {r.order:2d}. {r.category.english:<24} five-card {r.five_card_count:>12,}"
            f"   {label}: {r.count:>15,}{flag}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--brute-force", nargs="*", default=["FESCA42"], metavar="DECK")
    parser.add_argument("--omaha", action="store_true", help="also Omaha tables")
    parser.add_argument("--six", action="store_true", help="also best-of-six tables")
    args = parser.parse_args()

    print("warming the kernel cache (compiles on the very first run) ...")
    begin = time.perf_counter()
    subprocess.run([sys.executable, "-c", _FRESH, "standard52", "7"], check=True)
    best_of_table(RuleSet.for_deck("FESCA42"), 6)  # loads the kernels in this process
    print(f"  warm-up {time.perf_counter() - begin:.2f} s\n")
    print("fresh process: a new Python that imports cardlab and counts the table (best of")
    print("3 runs for the decks with a target); in process: the count alone\n")

    print(f"{'deck':<11} {'hands (C(n,7))':>16} {'fresh process':>14} {'in process':>11}")
    for deck in DECKS:
        rules = RuleSet.for_deck(deck)
        runs = 3 if deck in TARGETS else 1
        fresh = min(fresh_process_seconds(deck, 7) for _ in range(runs))
        begin = time.perf_counter()
        table = best_of_table(rules, 7)
        inside = time.perf_counter() - begin
        target = f"   (target < {TARGETS[deck]:.0f} s)" if deck in TARGETS else ""
        print(f"{deck:<11} {table.hands:>16,} {fresh:>12.2f} s {inside:>9.2f} s{target}")
        show(table)
        if deck in args.brute_force:
            begin = time.perf_counter()
            expected = brute_force_counts(rules, 7)
            brute = time.perf_counter() - begin
            agree = {c: n for c, n in table.counts().items() if n} == expected
            print(
                f"    brute force over all {table.hands:,} hands: {brute:.2f} s "
                f"({table.hands / brute / 1e6:.1f} M hands/s), "
                f"{brute / inside:.1f}x the combinatorial count; "
                f"{'AGREES' if agree else 'DISAGREES'}"
            )
        if args.six:
            begin = time.perf_counter()
            six = best_of_table(rules, 6)
            print(f"    best of 6 ({six.hands:,} hands): {time.perf_counter() - begin:.2f} s")
            show(six)
        print()

    if args.omaha:
        for deck in ("FESCA42", "standard52", "FESCA78"):
            rules = RuleSet.for_deck(deck)
            n = len(rules.deck)
            deals = math.comb(n, 4) * math.comb(n - 4, 5)
            begin = time.perf_counter()
            table = omaha_table(rules, seed=1)
            seconds = time.perf_counter() - begin
            print(
                f"Omaha {deck}: {deals:,} deals, ~{omaha_exact_work(rules):,} evaluations "
                f"for an exact count -> {table.method} in {seconds:.2f} s"
            )
            show(table)


if __name__ == "__main__":
    main()
