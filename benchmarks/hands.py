"""Five-card hand engine timings: the exact table per deck, and single-hand evaluation.

Prints figures only: the time of the combinatorial five-card table (cold: shape counts,
fixed point, order) for every built-in deck against its number of hands, the plain
brute-force enumeration on FESCA42 for the ratio, and `evaluate` / `best_hand` calls per
second with the reference evaluator.
Run: python benchmarks/hands.py [--no-brute-force]
"""

from __future__ import annotations

import argparse
import random
import time
from math import comb

from cardlab.decks import BUILTIN_DECKS, get_deck
from cardlab.poker import RuleSet
from cardlab.poker._counting import brute_force_shape_counts, clear_caches, count_shapes
from cardlab.poker.frequencies import five_card_table
from cardlab.poker.hands import best_hand, evaluate


def _cold_table_seconds(name: str) -> float:
    clear_caches()  # nothing cached from before: counts, order, table
    rules = RuleSet.for_deck(name)
    begin = time.perf_counter()
    five_card_table(rules)
    return time.perf_counter() - begin


def _rate(label: str, calls: int, work: object) -> float:
    assert callable(work)
    begin = time.perf_counter()
    work()
    seconds = time.perf_counter() - begin
    rate = calls / seconds
    print(f"{label:<44} {rate:>12,.0f} /s  ({seconds * 1e6 / calls:.1f} µs each)")
    return rate


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--no-brute-force", action="store_true", help="skip the FESCA42 brute-force ratio"
    )
    args = parser.parse_args(argv)
    print("Five-card tables (exact, combinatorial), cold")
    print(f"{'deck':<12} {'hands':>12} {'seconds':>9} {'hands/s':>16}")
    for name in BUILTIN_DECKS:
        seconds = _cold_table_seconds(name)
        hands = comb(len(get_deck(name)), 5)
        print(f"{name:<12} {hands:>12,} {seconds:>9.4f} {hands / seconds:>16,.0f}")

    if not args.no_brute_force:
        rules = RuleSet.for_deck("FESCA42")
        begin = time.perf_counter()
        brute = brute_force_shape_counts(rules)
        brute_s = time.perf_counter() - begin
        begin = time.perf_counter()
        fast = count_shapes(rules)
        fast_s = time.perf_counter() - begin
        assert brute == fast
        print(
            f"FESCA42 brute force {brute_s:.2f} s vs combinatorial {fast_s * 1000:.1f} ms:"
            f" {brute_s / fast_s:,.0f}x"
        )

    print("\nReference evaluator (plain Python)")
    for name in ("FESCA78", "FESCA60", "standard52"):
        _evaluator_rates(name)


def _evaluator_rates(name: str) -> None:
    rules = RuleSet.for_deck(name)
    rng = random.Random(0)
    fives = [tuple(rng.sample(rules.deck.cards, 5)) for _ in range(20_000)]
    sevens = [tuple(rng.sample(rules.deck.cards, 7)) for _ in range(1_000)]
    text = " ".join(map(str, fives[0]))
    evaluate(fives[0], rules)  # warm the per-rule-set caches
    _rate(f"{name} evaluate (5 cards)", len(fives), lambda: [evaluate(h, rules) for h in fives])
    _rate(f"{name} best_hand (7 cards)", len(sevens), lambda: [best_hand(h, rules) for h in sevens])
    _rate(f"{name} evaluate (text)", 5_000, lambda: [evaluate(text, rules) for _ in range(5_000)])


if __name__ == "__main__":
    main()
