"""Build the heads-up pre-flop equity table of the 169 standard52 Hold'em classes that the
push/fold bot (:mod:`cardlab.bots.pushfold`) solves its equilibrium on.

Each pair of classes is sampled with cardlab's Monte Carlo (``sample_equity`` of two
ranges, combos that share no card), ``--samples`` showdowns per pair (standard error
about 0.5 / sqrt(samples)), and the combo-pair counts (card removal) are counted
exactly. Writes ``src/cardlab/bots/data/preflop169.json``; with ``--equilibria`` it writes the
push/fold equilibria solved on it, ``data/pushfold.json``.

    NUMBA_NUM_THREADS=1 python benchmarks/preflop_matrix.py --samples 20000
    python benchmarks/preflop_matrix.py --equilibria
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from cardlab.poker.equity import sample_equity
from cardlab.poker.games import get_game
from cardlab.poker.ranges import parse_range

RANKS = "AKQJT98765432"


def classes() -> list[str]:
    out = []
    for i, a in enumerate(RANKS):
        for j, b in enumerate(RANKS):
            if i == j:
                out.append(a + a)
            elif i < j:
                out.append(a + b + "s")
                out.append(a + b + "o")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=4000)
    parser.add_argument(
        "--equilibria", action="store_true", help="only (re)write data/pushfold.json"
    )
    args = parser.parse_args()
    data_dir = Path(__file__).parent.parent / "src/cardlab/bots/data"
    if args.equilibria:
        from cardlab.bots.pushfold import equilibria_json

        (data_dir / "pushfold.json").write_text(equilibria_json())
        return
    game = get_game("standard52-holdem")
    names = classes()
    combos = [parse_range(n, game).combos for n in names]
    n = len(names)
    eq = [[0.5] * n for _ in range(n)]
    pairs = [[0] * n for _ in range(n)]
    start = time.perf_counter()
    for i in range(n):
        for j in range(i, n):
            a = [set(c) for c in combos[i]]
            count = sum(1 for x in a for y in combos[j] if not x & set(y))
            pairs[i][j] = pairs[j][i] = count
            if count == 0:
                continue
            r = sample_equity(game, [names[i], names[j]], samples=args.samples, rng=i * n + j)
            e = float(r.players[0].equity)
            eq[i][j], eq[j][i] = e, 1 - e
        print(f"{i + 1}/{n} {time.perf_counter() - start:.0f}s", flush=True)
    out = data_dir / "preflop169.json"
    data = {
        "classes": names,
        "samples": args.samples,
        "equity": [[round(x, 4) for x in row] for row in eq],
        "pairs": pairs,
    }
    out.write_text(json.dumps(data, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
