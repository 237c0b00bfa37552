"""Arena speed and bot strength: hands per second, decision times, and who beats whom.

1. Decision time of every bot in every base game on standard52 and FESCA78 (max and
   95th percentile over the decisions of a few hands, after one warm-up hand): the
   budget is 200 ms.
2. Arena throughput in hands per second, random against random and equity bots, on
   standard52 and FESCA78 Hold'em, in one process (one core) and on a local Dask
   cluster with a worker per core.
3. Strength: heads-up duplicate matches of ``equity`` against ``random`` and against
   ``station`` in every base game and both decks, and ``pushfold`` against ``equity``
   ten big blinds deep; big blinds per 100 hands with 95% intervals.
4. Draw keeps: ``equity`` (the exact best keep) against the same bot keeping by Monte
   Carlo (``draw="sampled"``), heads-up duplicate in Draw on three decks, and the time
   of one exact keep.

    python benchmarks/arena.py [--part times|speed|strength|pushfold|draw] [--hands N]
"""

from __future__ import annotations

import argparse
import os
import random
import time

from cardlab.bots import get_bot
from cardlab.bots.arena import ArenaConfig, run_arena, table_game
from cardlab.bots.equity import EquityBot
from cardlab.table.actions import apply
from cardlab.table.state import HandState
from cardlab.table.view import seat_view

GAMES = [
    f"{deck}-{base}"
    for base in ("holdem", "omaha", "stud", "draw")
    for deck in ("standard52", "fesca78")
]


def decision_times(game: str, bot: str, hands: int) -> list[float]:
    """The bot's decision times; push/fold plays heads-up 10 big blinds deep, where its
    equilibrium is used, the others six-handed."""
    g = table_game(game)
    seats, stack = (2, 20) if bot == "pushfold" else (6, 200)
    b = get_bot(bot)
    others = get_bot("station")
    if g.game.base.draws:  # as cardlab play and arena do before the first hand
        from cardlab.poker.draw_strength import warm

        warm(g.game)
    times: list[float] = []
    for h in range(hands + 1):
        hand = HandState(g, [stack] * seats, seed=h)
        k = 0
        while not hand.is_over:
            p = hand.actor
            assert p is not None
            view = seat_view(hand, p)
            rng = random.Random(k)
            k += 1
            if p % 2 == 0:
                start = time.perf_counter()
                action = b.act(view, rng)
                if h > 0:  # hand 0 warms up (numba caches, the push/fold tables)
                    times.append(time.perf_counter() - start)
            else:
                action = others.act(view, rng)
            apply(hand, action)
    return times


def part_times(hands: int) -> None:
    print("decision time (ms), 6 seats, the bot in positions 1, 3, 5 against stations")
    print(f"{'game':22} {'bot':9} {'n':>5} {'p95':>8} {'max':>8}")
    for game in GAMES:
        for bot in ("random", "station", "equity", "pushfold"):
            if bot == "pushfold" and game != "standard52-holdem":
                continue
            ts = decision_times(game, bot, hands)
            ts.sort()
            p95 = ts[int(0.95 * (len(ts) - 1))] * 1000
            print(f"{game:22} {bot:9} {len(ts):5d} {p95:8.2f} {ts[-1] * 1000:8.2f}", flush=True)


def part_speed(hands: int) -> None:
    """In this process, then on a local Dask cluster with a worker per core (started
    once and warmed up first: its start-up time is printed apart)."""
    from distributed import LocalCluster

    cores = os.cpu_count() or 1
    print(f"arena throughput (hands/s), 6 seats, {cores} cores")
    start = time.perf_counter()
    with LocalCluster(
        n_workers=cores,
        threads_per_worker=1,
        processes=True,
        dashboard_address=":0",
        env={"NUMBA_NUM_THREADS": "1"},
    ) as cluster:
        address = cluster.scheduler_address
        print(f"cluster start-up {time.perf_counter() - start:.1f} s")
        for game in ("standard52-holdem", "fesca78-holdem"):  # warm-up: imports, kernels
            run_arena(ArenaConfig(game, ("equity",), 200, seats=6), scheduler=address)
        for game in ("standard52-holdem", "fesca78-holdem"):
            for bots, n in ((("random",), hands * 10), (("equity",), hands)):
                cfg = ArenaConfig(game, bots, n, seed=1, seats=6)
                rates = []
                for scheduler in (None, address):
                    start = time.perf_counter()
                    run_arena(cfg, workers=1, scheduler=scheduler)
                    rates.append(n / (time.perf_counter() - start))
                print(
                    f"{game:20} {bots[0]:8} x6  1 core {rates[0]:8.1f}  "
                    f"{cores} workers {rates[1]:8.1f}  ratio {rates[1] / rates[0]:.2f}",
                    flush=True,
                )


def show(cfg: ArenaConfig, workers: int) -> None:
    start = time.perf_counter()
    r = run_arena(cfg, workers=workers)
    b = r.bots[0]
    print(
        f"{cfg.game:20} {b.name:8} vs {r.bots[1].name:8} {b.bb_per_100:+9.1f} bb/100 "
        f"[{b.ci95[0]:+.1f}, {b.ci95[1]:+.1f}]  ({r.hands} hands, duplicate, "
        f"{time.perf_counter() - start:.0f} s)",
        flush=True,
    )


def part_strength(hands: int, workers: int, games: list[str]) -> None:
    print("heads-up duplicate matches, stacks 100 big blinds")
    for game in games:
        for rival in ("random", "station"):
            show(ArenaConfig(game, ("equity", rival), hands, seed=7, duplicate=True), workers)


def part_pushfold(hands: int, workers: int) -> None:
    print("push/fold against equity, heads-up standard52 Hold'em, duplicate")
    for stack in (10, 20, 30):
        cfg = ArenaConfig(
            "standard52-holdem", ("pushfold", "equity"), hands, seed=11, duplicate=True, stack=stack
        )
        print(f"stacks {stack // 2} big blinds:", end=" ")
        show(cfg, workers)


class SampledDrawBot(EquityBot):
    """The equity bot keeping by Monte Carlo equity (the old way), for part 4."""

    def __init__(self) -> None:
        super().__init__(draw="sampled", name="sampled")


def part_draw(hands: int) -> None:
    from cardlab.bots.base import BOTS
    from cardlab.poker.draw_strength import draw_table, keep_strengths
    from cardlab.poker.games import get_game

    BOTS["sampled"] = "__main__:SampledDrawBot"
    print("the exact keep: time of one decision (all 32 keeps), table build / load")
    for game in ("standard52-draw", "tesca54-draw", "fesca78-draw"):
        g = get_game(game)
        start = time.perf_counter()
        draw_table(g.rules)
        ready = time.perf_counter() - start
        rng = random.Random(3)
        times = []
        for _ in range(200):
            hand = rng.sample(list(g.deck.cards), 5)
            start = time.perf_counter()
            keep_strengths(g, hand)
            times.append(time.perf_counter() - start)
        times.sort()
        print(
            f"{game:20} table {ready:6.2f} s   keep p50 {times[100] * 1000:6.2f} ms  "
            f"max {times[-1] * 1000:6.2f} ms",
            flush=True,
        )
    print("exact keep against Monte Carlo keep, heads-up duplicate, 100 big blinds")
    for game in ("standard52-draw", "tesca54-draw", "fesca78-draw"):
        show(ArenaConfig(game, ("equity", "sampled"), hands, seed=5, duplicate=True), 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--part", choices=["times", "speed", "strength", "pushfold", "draw", "all"], default="all"
    )
    parser.add_argument("--hands", type=int, default=400)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--games", default=",".join(GAMES), help="games of the strength part")
    args = parser.parse_args()
    if args.part in ("times", "all"):
        part_times(max(3, args.hands // 100))
    if args.part in ("speed", "all"):
        part_speed(max(20, args.hands // 2))
    if args.part in ("strength", "all"):
        part_strength(args.hands, args.workers, args.games.split(","))
    if args.part in ("pushfold", "all"):
        part_pushfold(args.hands, args.workers)
    if args.part in ("draw", "all"):
        part_draw(args.hands)


if __name__ == "__main__":
    main()
