"""Hands per second: cardlab's batch API against the established evaluators' Python APIs.

All evaluators score the same random hands in one run: standard52 five- and seven-card
hands (cardlab and every peer), and cardlab alone on FESCA78. cardlab is timed on one
core (``numba.set_num_threads(1)``) and on all cores; peers are single-threaded Python
calls, one per hand, with the cards converted to each peer's objects beforehand (not
timed). Figures are the best of ``--repeat`` runs; the first call of each cardlab
kernel (loading compiled code, building the rule set's look-ups) is reported apart.

    python benchmarks/evaluators.py [--hands 10000000] [--peer-hands 200000]
        [--part all|seven|omaha]

Peers come from the ``bench`` extra: phevaluator, eval7, treys, pokerkit, pkrbot,
holdem-hand-evaluator (seven cards only), poker-equity (its batch ``score_batch``) and
pokerfast, which bundles OMPEval (C++): its evaluator is timed on ``--native-hands``
hands (default 2,000,000) in one native call on cards encoded beforehand, as cardlab's
batch is. pyrust-poker (a Rust port of OMPEval) is tried when it is importable; its
PyPI wheels cannot evaluate a hand (docs/speed.md says why) and the run says so.
The issue's targets (one core): 150 M seven-card standard52 hands/s, 50 M FESCA78;
issue 21's reference: OMPEval at 271 M random seven-card evaluations/s per core.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import numba
import numpy as np

from cardlab.poker import RuleSet
from cardlab.poker.batch import evaluate_batch, method_for


def random_hands(n: int, n_cards: int, k: int, seed: int) -> np.ndarray:
    """n rows of k distinct codes from a deck of n_cards."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), np.uint8)
    step = 500_000
    for start in range(0, n, step):
        m = min(step, n - start)
        out[start : start + m] = np.argsort(rng.random((m, n_cards)), axis=1)[:, :k]
    return out


def best_rate(
    run: Callable[[], object], n: int, repeat: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Hands per second, best of ``repeat`` runs, by wall clock or by ``clock``."""
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        run()
        best = min(best, clock() - start)
    return n / best


OMPEVAL_EVALS_PER_S = 271e6  # issue 21: OMPEval, random seven-card hands, one core


def pokerfast_runner(hands: np.ndarray) -> tuple[Callable[[], object] | None, str]:
    """(pokerfast's OMPEval evaluator on ``hands`` (standard52 codes, one row each) as
    one native call on cards encoded beforehand, or None, and why not). Its own
    ``equity.evaluate`` would spend most of its time parsing text in Python."""
    try:
        import ctypes

        from pokerfast import equity as pf
    except ImportError:
        return None, "not installed: pip install pokerfast"
    if not pf.available():
        return None, "installed without its OMPEval library (no wheel for this platform)"
    lib = pf._load()  # the loaded library: pf_evaluate(cards, n, k, out) -> status
    # OMPEval's card index: 4 * rank + suit, suits ordered s, h, c, d
    text = [str(c) for c in RuleSet.for_deck("standard52").deck.cards]
    code = np.array([4 * "23456789TJQKA".index(t[0]) + "shcd".index(t[1]) for t in text], np.uint8)
    n, k = hands.shape
    buf = code[hands].tobytes()
    out = (ctypes.c_uint16 * n)()

    def run() -> None:
        if lib.pf_evaluate(buf, n, k, out) != 0:
            raise RuntimeError("pokerfast's pf_evaluate refused the hands")

    return run, ""


class NativeOmpeval:
    """OMPEval built from source, through its driver program (the module docstring says
    what the driver answers)."""

    def __init__(self, path: str) -> None:
        self.path = path

    @classmethod
    def find(cls, path: str) -> NativeOmpeval | None:
        """The driver at ``path``, or None (with a line saying why) when there is none."""
        if not path:
            print("OMPEval from source: not measured (no --native PATH or $OMPEVAL_BENCH)")
            return None
        if not os.access(path, os.X_OK):
            print(f"OMPEval from source: not measured ({path} is not an executable)")
            return None
        return cls(path)

    def _run(self, *args: str) -> dict[str, Any]:
        done = subprocess.run(
            [self.path, *args], capture_output=True, text=True, check=False, timeout=600
        )
        if done.returncode != 0:
            raise RuntimeError(f"{self.path} {' '.join(args)}: {done.stderr.strip()}")
        answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        return answer

    def eval_rate(self, hands: np.ndarray, repeat: int = 3) -> float:
        """Seven-card evaluations per CPU second of one thread on ``hands`` (standard52
        codes), the best of ``repeat``."""
        text = [str(c) for c in RuleSet.for_deck("standard52").deck.cards]
        index = np.array(
            [4 * "23456789TJQKA".index(t[0]) + "shcd".index(t[1]) for t in text], np.uint8
        )
        with tempfile.NamedTemporaryFile(suffix=".hands") as f:
            f.write(index[hands].tobytes())
            f.flush()
            answer = self._run("eval", str(len(hands)), f.name, str(repeat))
        return float(answer["evals_per_cpu_s"])

    def equity(self, ranges: list[str], exact: bool, seconds: float = 1.0) -> dict[str, Any]:
        """Its EquityCalculator on one thread: ``hands`` played and ``cpu_s``."""
        how = ["--exact"] if exact else ["--mc", str(seconds)]
        return self._run("equity", *ranges, *how)


def pyrust_runner(hands: np.ndarray) -> tuple[Callable[[], object] | None, str]:
    """(pyrust-poker's ``get_hand_strengths`` on ``hands`` (at most 500,000: its input is
    a 52-wide mask per hand), or None, and why not). Its published wheels read their
    tables from the build directory of the machine that built them, so the first
    evaluation panics: probed on one hand first."""
    try:
        import pyrust_poker
    except ImportError:
        return None, "not installed (wheels for CPython 3.12 only; see docs/speed.md)"
    # any bijection of suits keeps the order of hands: card c -> 4 * rank + suit index
    text = [str(c) for c in RuleSet.for_deck("standard52").deck.cards]
    index = np.array([4 * "23456789TJQKA".index(t[0]) + "cdhs".index(t[1]) for t in text])

    def masks(rows: np.ndarray) -> np.ndarray:
        out = np.zeros((len(rows), 52), np.bool_)
        np.put_along_axis(out, index[rows.astype(np.int64)], True, axis=1)
        return out

    try:
        pyrust_poker.get_hand_strengths(masks(hands[:1]))
    except BaseException as e:  # a Rust panic is a BaseException
        if isinstance(e, KeyboardInterrupt | SystemExit):
            raise
        return None, (
            f"panics on its first hand ({str(e).splitlines()[0][:60]}...): it reads its "
            "tables from the folder it was built in (docs/speed.md)"
        )
    some = masks(hands[:500_000])
    return (lambda: pyrust_poker.get_hand_strengths(some)), ""


def native_hands_of(hands: np.ndarray, n: int) -> np.ndarray:
    """The first ``n`` rows of ``hands``, contiguous (what the native driver reads)."""
    return np.ascontiguousarray(hands[:n])


def peer_runners(k: int, rows: list[list[int]]) -> dict[str, Callable[[], object]]:
    """Per peer: a function scoring every row with the peer's Python API."""
    text = [str(c) for c in RuleSet.for_deck("standard52").deck.cards]
    runners: dict[str, Callable[[], object]] = {}
    try:
        from phevaluator import Card as PhCard
        from phevaluator import evaluate_cards

        ph = [[PhCard(text[c]).id_ for c in row] for row in rows]
        runners["phevaluator"] = lambda: [evaluate_cards(*h) for h in ph]
    except ImportError:
        pass
    try:
        import eval7

        e7 = [[eval7.Card(text[c]) for c in row] for row in rows]
        runners["eval7"] = lambda: [eval7.evaluate(h) for h in e7]
    except ImportError:
        pass
    try:
        from treys import Card as TreysCard
        from treys import Evaluator

        evaluator = Evaluator()
        tr = [[TreysCard.new(text[c]) for c in row] for row in rows]
        runners["treys"] = lambda: [evaluator.evaluate(h[:2], h[2:]) for h in tr]
    except ImportError:
        pass
    try:
        import pkrbot

        pb = [[pkrbot.Card(text[c]) for c in row] for row in rows]
        runners["pkrbot"] = lambda: [pkrbot.evaluate(h) for h in pb]
    except ImportError:
        pass
    try:
        from holdem_hand_evaluator import evaluate_hand

        hh = ["".join(text[c] for c in row) for row in rows]
        runners["holdem-hand-evaluator"] = lambda: [evaluate_hand(h) for h in hh]
    except ImportError:
        pass
    try:
        import poker_equity

        pe = ["".join(text[c] for c in row) for row in rows]
        runners["poker-equity"] = lambda: poker_equity.score_batch("high", pe)  # one call
    except ImportError:
        pass
    try:
        from pokerkit import Card as PkCard
        from pokerkit import StandardHighHand

        pk = [[next(iter(PkCard.parse(text[c]))) for c in row] for row in rows]
        runners["pokerkit"] = lambda: [StandardHighHand.from_game(h[:2], h[2:]) for h in pk]
    except ImportError:
        pass
    return runners


def omaha_peers(rows: list[list[int]]) -> dict[str, Callable[[], object]]:
    """Per Omaha peer: a function scoring every row (four hole cards, then five board
    cards, as cardlab's Omaha rows) with the peer's Python API."""
    text = [str(c) for c in RuleSet.for_deck("standard52").deck.cards]
    runners: dict[str, Callable[[], object]] = {}
    try:
        from phevaluator import Card as PhCard
        from phevaluator import evaluate_omaha_cards

        ph = [[PhCard(text[c]).id_ for c in row] for row in rows]
        # phevaluator takes the five board cards first, then the four hole cards
        runners["phevaluator"] = lambda: [evaluate_omaha_cards(*h[4:], *h[:4]) for h in ph]
    except ImportError:
        pass
    return runners


def cardlab_rates(
    hands: np.ndarray, rules: RuleSet, repeat: int, cores: int
) -> tuple[float, float, float, float, float, float]:
    """(first call seconds, hands/s on one core, per CPU second on one core, the same
    into a reused output array, on all cores, on all cores checked)."""
    start = time.perf_counter()
    evaluate_batch(hands[:1000], rules)
    first = time.perf_counter() - start
    n = len(hands)
    numba.set_num_threads(1)
    one = best_rate(lambda: evaluate_batch(hands, rules, check=False), n, repeat)
    # on a shared machine the CPU clock is steadier than the wall clock
    cpu = best_rate(lambda: evaluate_batch(hands, rules, check=False), n, repeat, time.process_time)
    # a fresh output array of millions of keys costs the system's zeroing of its pages
    out = np.empty(n, np.int64)
    reused = best_rate(
        lambda: evaluate_batch(hands, rules, check=False, out=out), n, repeat, time.process_time
    )
    numba.set_num_threads(cores)
    every = best_rate(lambda: evaluate_batch(hands, rules, check=False), n, repeat)
    checked = best_rate(lambda: evaluate_batch(hands, rules), n, repeat)
    return first, one, cpu, reused, every, checked


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000_000, help="hands for cardlab")
    parser.add_argument("--peer-hands", type=int, default=200_000, help="hands for peers")
    parser.add_argument("--pokerkit-hands", type=int, default=10_000)
    parser.add_argument(
        "--native-hands", type=int, default=2_000_000, help="hands for native peers"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--part", choices=("all", "seven", "omaha"), default="all", help="which cases to run"
    )
    parser.add_argument(
        "--native",
        default=os.environ.get("OMPEVAL_BENCH", ""),
        metavar="PATH",
        help="the driver of OMPEval built from source (default $OMPEVAL_BENCH; see equity.py)",
    )
    args = parser.parse_args(argv)
    native = NativeOmpeval.find(args.native)
    cores = numba.config.NUMBA_NUM_THREADS
    print(f"cores: {cores}; load average before: {os.getloadavg()[0]:.1f}")
    print(
        f"cardlab {args.hands:,} hands per case; peers {args.peer_hands:,} (pokerkit "
        f"{args.pokerkit_hands:,}); best of {args.repeat}\n"
    )

    header = f"{'case':28s} {'evaluator':12s} {'hands/s':>14s} {'cardlab per CPU s / it':>23s}"
    targets = {("standard52", 7): 150e6, ("FESCA78", 7): 50e6}
    cases = (("standard52", 5), ("standard52", 7), ("FESCA78", 5), ("FESCA78", 7))
    for deck, k in cases if args.part != "omaha" else ():
        rules = RuleSet.for_deck(deck)
        hands = random_hands(args.hands, len(rules.deck), k, args.seed)
        first, one, cpu, reused, every, checked = cardlab_rates(hands, rules, args.repeat, cores)
        case = f"{deck} {k}-card"
        print(header)
        print(f"{case:28s} {'cardlab':12s} {one:14,.0f}   (1 core, {method_for(rules, k)})")
        print(f"{'':28s} {'cardlab':12s} {cpu:14,.0f}   (per CPU second, 1 thread)")
        print(f"{'':28s} {'cardlab':12s} {reused:14,.0f}   (the same, into a reused out= array)")
        print(f"{'':28s} {'cardlab':12s} {every:14,.0f}   ({cores} cores, unchecked)")
        print(f"{'':28s} {'cardlab':12s} {checked:14,.0f}   ({cores} cores, check=True)")
        print(f"{'':28s} first call {first:.2f} s (load compiled code, build look-ups)")
        if (deck, k) in targets:
            goal = targets[deck, k]
            print(
                f"{'':28s} per CPU second / target {goal / 1e6:.0f} M: x{cpu / goal:.2f} "
                f"(fresh array each call), x{reused / goal:.2f} (reused out=)"
            )
        if deck == "standard52":
            native = hands[: args.native_hands]
            m = len(native)
            for name, (runner, why) in (
                ("pokerfast", pokerfast_runner(native)),
                ("pyrust-poker", pyrust_runner(native)),
            ):
                if runner is None:
                    print(f"{'':28s} {name:12s} {'not measured':>14s}   {why}")
                    continue
                scored = min(m, 500_000) if name == "pyrust-poker" else m
                rate = best_rate(runner, scored, args.repeat, time.process_time)
                print(
                    f"{'':28s} {name[:12]:12s} {rate:14,.0f}   x{cpu / rate:,.2f} (per CPU s; "
                    f"{scored:,} hands, one native call)"
                )
            if k == 7 and native is not None:
                rate = native.eval_rate(native_hands_of(hands, args.native_hands), args.repeat)
                print(
                    f"{'':28s} {'OMPEval src':12s} {rate:14,.0f}   x{cpu / rate:,.2f} (per CPU s; "
                    "built from source, its driver)"
                )
            if k == 7:
                print(
                    f"{'':28s} {'OMPEval ref':12s} {OMPEVAL_EVALS_PER_S:14,.0f}   "
                    f"x{cpu / OMPEVAL_EVALS_PER_S:,.2f} (issue 21's figure, another machine)"
                )
            rows = hands[: args.peer_hands].astype(np.int64).tolist()
            for name, run in peer_runners(k, rows).items():
                if name == "holdem-hand-evaluator" and k != 7:
                    continue
                n = len(rows)
                if name == "pokerkit":
                    n = min(n, args.pokerkit_hands)
                    short = rows[:n]
                    run = peer_runners(k, short)[name]
                # per CPU second, like cardlab's per-CPU-second line (steadier when busy)
                repeat = 1 if name in ("pokerkit", "treys") else args.repeat
                rate = best_rate(run, n, repeat, time.process_time)
                print(f"{'':28s} {name[:12]:12s} {rate:14,.0f}   x{cpu / rate:,.0f} (per CPU s)")
        print()
    omaha = args.hands // 20  # the Omaha kernel scores all 60 choices: fewer hands
    for deck in ("standard52", "FESCA78") if args.part != "seven" else ():
        rules = RuleSet.for_deck(deck)
        hands = random_hands(omaha, len(rules.deck), 9, args.seed)
        evaluate_batch(hands[:100], rules, game="omaha")
        run = partial(evaluate_batch, hands, rules, game="omaha")
        numba.set_num_threads(1)
        one = best_rate(run, omaha, args.repeat)
        cpu = best_rate(run, omaha, args.repeat, time.process_time)
        numba.set_num_threads(cores)
        every = best_rate(run, omaha, args.repeat)
        print(
            f"{deck + ' Omaha (4 + 5)':28s} {'cardlab':12s} {one:14,.0f}   (1 core, "
            f"{method_for(rules, 9, 'omaha')}); {cpu:,.0f} per CPU second; "
            f"{every:,.0f} on {cores} cores"
        )
        if deck == "standard52":
            for name, peer in omaha_peers(hands[: args.peer_hands].tolist()).items():
                rate = best_rate(peer, min(args.peer_hands, omaha), args.repeat, time.process_time)
                print(f"{'':28s} {name[:12]:12s} {rate:14,.0f}   x{cpu / rate:,.0f} (per CPU s)")
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
