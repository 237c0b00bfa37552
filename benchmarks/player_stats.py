"""Player statistics with the all-in adjustment on many hands: hands a second.

    python benchmarks/player_stats.py [HANDS] [GAME]

Plays HANDS (default 10,000) seeded hands of GAME (default standard52-holdem) among six
named players who call, raise and go all in at random (some hands have an all-in before
the river), writes them as PHH text, then times
:func:`cardlab.table.player_stats.summarize` over all of them (replay, statistics and
exact equities, cached per situation) and prints the figures.
"""

from __future__ import annotations

import argparse
import random
import time

from cardlab.table import HandState, TableGame, phh
from cardlab.table.history import to_history
from cardlab.table.player_stats import EquityCache, player_stats, summarize

NAMES = ["Ann", "Bob", "Cy", "Dora", "Eli", "陳"]


def play(game: TableGame, seed: int) -> str:
    rng = random.Random(seed)
    hand = HandState(game, [rng.choice([100, 200, 400]) for _ in NAMES], seed=seed)
    while not hand.is_over:
        legal = hand.legal()
        roll = rng.random()
        if legal.fold and roll < 0.55:
            hand.fold()
        elif legal.can_raise and roll > 0.9:
            hand.bet_or_raise_to(legal.raise_max if roll > 0.99 else legal.raise_min or 0)
        else:
            hand.check_or_call()
    return phh.dumps(to_history(hand, players=NAMES))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("hands", nargs="?", type=int, default=10_000, help="hands to play")
    parser.add_argument("game", nargs="?", default="standard52-holdem", help="the game")
    args = parser.parse_args(argv)
    count = args.hands
    game = TableGame.create(args.game)
    texts = [play(game, seed) for seed in range(count)]
    cache = EquityCache()
    summarize(phh.loads(texts[0]), cache=cache)  # loads the compiled kernels once
    start, cpu = time.perf_counter(), time.process_time()
    summaries = [summarize(phh.loads(t), cache=cache) for t in texts]
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    players = player_stats(summaries)
    all_ins = sum(s.all_in is not None for s in summaries)
    print(
        f"{count:,} hands of {game.game.key}: {seconds:.2f} s ({count / seconds:,.0f} hands/s)",
        end="",
    )
    print(f", {cpu:.2f} s of CPU")
    print(f"all-ins adjusted: {all_ins:,}; equities computed {cache.computed:,},", end=" ")
    print(f"reused {cache.reused:,}")
    for p in players:
        print(
            f"  {p.name:5} {p.hands:6,} hands  net {float(p.bb_per_100):+8.1f} bb/100"
            f"  all-in adjusted {float(p.expected_bb_per_100):+8.1f} bb/100"
        )


if __name__ == "__main__":
    main()
