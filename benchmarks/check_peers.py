"""Check cardlab's standard52 hand order against independent evaluators from PyPI.

On random seven-card hands (default 1,000,000; ``--hands N``), cardlab's batch keys
(best five of seven) must order the hands exactly as each peer does: hands with equal
cardlab keys must get equal peer values, and hands with higher keys better peer values.
The script sorts the hands by cardlab key and checks the peers' values along that sort
(every pair of hands then agrees), and also counts agreement on consecutive pairs
(hand 2i against hand 2i+1: win, lose or tie). Exit status 1 on any disagreement.

Peers (the ``bench`` extra): phevaluator and treys (rank 1 = best), eval7 (higher is
better), pokerfast (OMPEval's evaluator, higher is better, scored in one native call).
pokerkit is too slow for a million hands in Python; it is checked on
``--pokerkit-hands`` (default 20,000) pairs.

    python benchmarks/check_peers.py [--hands 1000000] [--seed 2024]
"""

from __future__ import annotations

import argparse
import ctypes
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cardlab.poker import RuleSet
from cardlab.poker.batch import evaluate_batch


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    """n rows of k distinct card codes of a 52-card deck."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), np.uint8)
    step = 1_000_000
    for start in range(0, n, step):
        m = min(step, n - start)
        out[start : start + m] = np.argsort(rng.random((m, 52)), axis=1)[:, :k]
    return out


def peer_scorers(names: Sequence[str]) -> dict[str, Callable[[list[int]], int]]:
    """Per peer: a function from a hand (cardlab codes) to a value, higher is better."""
    rules = RuleSet.for_deck("standard52")
    text = [str(c) for c in rules.deck.cards]  # "As", "Td": every peer reads these
    scorers: dict[str, Callable[[list[int]], int]] = {}
    if "phevaluator" in names:
        from phevaluator import Card as PhCard
        from phevaluator import evaluate_cards

        ph = [PhCard(t).id_ for t in text]
        scorers["phevaluator"] = lambda h: -evaluate_cards(*[ph[c] for c in h])
    if "eval7" in names:
        import eval7

        e7 = [eval7.Card(t) for t in text]
        scorers["eval7"] = lambda h: eval7.evaluate([e7[c] for c in h])
    if "treys" in names:
        from treys import Card as TreysCard
        from treys import Evaluator

        evaluator = Evaluator()
        tr = [TreysCard.new(t) for t in text]
        scorers["treys"] = lambda h: (
            -evaluator.evaluate([tr[h[0]], tr[h[1]]], [tr[c] for c in h[2:]])
        )
    if "pokerkit" in names:
        from pokerkit import Card as PkCard
        from pokerkit import StandardHighHand

        pk = [next(iter(PkCard.parse(t))) for t in text]
        # pokerkit's hands compare with < and ==, which is all pair_agreement needs
        scorers["pokerkit"] = (
            lambda h: StandardHighHand.from_game(  # type: ignore[return-value]
                [pk[c] for c in h[:2]], [pk[c] for c in h[2:]]
            )
        )
    return scorers


def ompeval_values(hands: np.ndarray) -> np.ndarray | None:
    """OMPEval's values (higher is better) of ``hands`` (standard52 codes, one row each)
    through pokerfast's bundled library, in one call; None without it."""
    try:
        from pokerfast import equity as pf
    except ImportError:
        return None
    if not pf.available():
        return None
    text = [str(c) for c in RuleSet.for_deck("standard52").deck.cards]
    # OMPEval's card index: 4 * rank + suit, suits ordered s, h, c, d
    code = np.array([4 * "23456789TJQKA".index(t[0]) + "shcd".index(t[1]) for t in text])
    n, k = hands.shape
    out = (ctypes.c_uint16 * n)()
    if pf._load().pf_evaluate(code[hands].astype(np.uint8).tobytes(), n, k, out) != 0:
        raise RuntimeError("pokerfast's pf_evaluate refused the hands")
    return np.frombuffer(out, np.uint16).astype(np.int64)


def check_sorted(keys: np.ndarray, values: np.ndarray) -> tuple[int, int]:
    """(violations, distinct keys): along cardlab's sort, peer values must be constant
    within a key and strictly increase between keys."""
    order = np.argsort(keys, kind="stable")
    k = keys[order]
    v = values[order]
    same = k[1:] == k[:-1]
    bad_equal = int(np.count_nonzero(same & (v[1:] != v[:-1])))
    bad_order = int(np.count_nonzero(~same & (v[1:] <= v[:-1])))
    return bad_equal + bad_order, int(np.count_nonzero(~same)) + 1


def pair_agreement(keys: np.ndarray, values: Sequence[Any]) -> tuple[int, int]:
    """(agreeing pairs, pairs) on hands 2i vs 2i+1."""
    agree = 0
    pairs = len(keys) // 2
    for i in range(pairs):
        a, b = keys[2 * i], keys[2 * i + 1]
        x, y = values[2 * i], values[2 * i + 1]
        agree += (a > b) == (x > y) and (a < b) == (x < y)
    return agree, pairs


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--pokerkit-hands", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)

    rules = RuleSet.for_deck("standard52")
    hands = random_hands(args.hands, 7, args.seed)
    start = time.perf_counter()
    keys = evaluate_batch(hands, rules)
    print(
        f"cardlab: {len(keys):,} seven-card standard52 hands in "
        f"{time.perf_counter() - start:.2f} s (first call: loads the compiled kernels), "
        f"{len(np.unique(keys)):,} distinct keys"
    )
    failed = False
    rows = hands.astype(np.int64).tolist()
    for name, score in peer_scorers(["phevaluator", "eval7", "treys"]).items():
        start = time.perf_counter()
        values = np.array([score(h) for h in rows], np.int64)
        seconds = time.perf_counter() - start
        violations, distinct = check_sorted(keys, values)
        agree, pairs = pair_agreement(keys, values.tolist())
        failed |= violations > 0 or agree != pairs
        print(
            f"{name:12s} {len(rows):,} hands ({seconds:.1f} s): order violations {violations}, "
            f"{distinct:,} key classes; pairs agreeing {agree:,} / {pairs:,}"
        )
    start = time.perf_counter()
    omp = ompeval_values(hands)
    if omp is None:
        print("pokerfast    not installed (or without its OMPEval library): not checked")
    else:
        seconds = time.perf_counter() - start
        violations, distinct = check_sorted(keys, omp)
        agree, pairs = pair_agreement(keys, omp.tolist())
        failed |= violations > 0 or agree != pairs
        print(
            f"{'pokerfast':12s} {len(rows):,} hands ({seconds:.1f} s): order violations "
            f"{violations}, {distinct:,} key classes; pairs agreeing {agree:,} / {pairs:,}"
        )
    n_pk = min(args.pokerkit_hands, len(rows))
    if n_pk:
        score = peer_scorers(["pokerkit"])["pokerkit"]
        start = time.perf_counter()
        pk_values = [score(h) for h in rows[:n_pk]]
        seconds = time.perf_counter() - start
        agree, pairs = pair_agreement(keys[:n_pk], pk_values)
        failed |= agree != pairs
        print(
            f"{'pokerkit':12s} {n_pk:,} hands ({seconds:.1f} s): "
            f"pairs agreeing {agree:,} / {pairs:,}"
        )
    print("FAILED: the orders disagree" if failed else "OK: every peer orders the hands as cardlab")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
