"""CFR+ on Leduc Hold'em: cardlab against OpenSpiel's C++ and Python CFR+, one run.

For each solver: iterations per second (``--rate-iterations`` iterations, no
exploitability measured in between), then the time to an average strategy with
exploitability at most ``--target`` chips per hand (1 milli-big-blind per hand when the
target is 0.001), measuring every ``--check-every`` iterations; the time to target
includes those measurements (cardlab's own best response; OpenSpiel's
``exploitability``), and a solver that has not reached the target after ``--budget``
seconds is reported as not there yet, with the exploitability it had. Then cardlab
alone on FESCA versions of Leduc: the highest 3 to 6 ranks of FESCA78 in its 2 or 3
strongest suits (any two decks give the same game for the same counts, up to the
names of the cards, since only the order of ranks and of suits matters).

    python benchmarks/cfr.py [--target 0.001] [--budget 120] [--skip-python]

OpenSpiel comes from the test extra (``pip install open-spiel``).
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from typing import Any

from cardlab.solve import CFRPlus, get_game
from cardlab.solve.games import PokerGame, game_from_data


def rate(step: Callable[[], None], iterations: int) -> tuple[float, float]:
    """Iterations per second of wall time and of this process's CPU time."""
    started, cpu = time.perf_counter(), time.process_time()
    for _ in range(iterations):
        step()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    return iterations / wall, iterations / cpu


def to_target(
    step: Callable[[], None], measure: Callable[[], float], target: float, every: int, budget: float
) -> tuple[int, float, float, float]:
    """(iterations, wall seconds, CPU seconds, exploitability) when the target or the
    budget (wall seconds) was reached."""
    started, cpu = time.perf_counter(), time.process_time()
    done = 0
    while True:
        for _ in range(every):
            step()
        done += every
        reached = measure()
        seconds = time.perf_counter() - started
        if reached <= target or seconds > budget:
            return done, seconds, time.process_time() - cpu, reached


def cardlab_solver(game: str | PokerGame) -> tuple[Any, Any, Any]:
    solver = CFRPlus(get_game(game) if isinstance(game, str) else game)
    return (lambda: solver.iterate(1)), solver.exploitability, solver


def openspiel_cpp() -> tuple[Any, Any, Any]:
    import pyspiel

    game = pyspiel.load_game("leduc_poker")
    solver = pyspiel.CFRPlusSolver(game)
    return (
        solver.evaluate_and_update_policy,
        lambda: pyspiel.exploitability(game, solver.tabular_average_policy()),
        solver,
    )


def openspiel_python() -> tuple[Any, Any, Any]:
    import pyspiel
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game("leduc_poker")
    solver = cfr.CFRPlusSolver(game)
    return (
        solver.evaluate_and_update_policy,
        lambda: exploitability.exploitability(game, solver.average_policy()),
        solver,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--target", type=float, default=0.001)
    parser.add_argument("--budget", type=float, default=120.0, help="seconds per solver")
    parser.add_argument("--check-every", type=int, default=10)
    parser.add_argument("--rate-iterations", type=int, default=100)
    parser.add_argument("--skip-python", action="store_true", help="skip OpenSpiel's Python CFR+")
    args = parser.parse_args()
    print(f"Leduc Hold'em, CFR+, target exploitability {args.target} chips per hand")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    solvers: list[tuple[str, Callable[[], tuple[Any, Any, Any]], int]] = [
        ("cardlab (numpy, vectorised)", lambda: cardlab_solver("leduc"), 1),
        ("OpenSpiel C++ CFRPlusSolver", openspiel_cpp, 1),
    ]
    if not args.skip_python:
        solvers.append(("OpenSpiel Python CFRPlusSolver", openspiel_python, 10))
    print("(iter/s and seconds: wall clock, then CPU time of this process)")
    print(
        f"{'solver':40} {'iter/s':>7} {'cpu':>7} {'iterations':>10} {'seconds':>8} "
        f"{'cpu s':>8} {'exploitability':>14}"
    )
    for name, make, shrink in solvers:
        step, _, _ = make()
        per_second, per_cpu = rate(step, max(1, args.rate_iterations // shrink))
        step, measure, _ = make()
        done, seconds, cpu, reached = to_target(
            step, measure, args.target, args.check_every, args.budget
        )
        note = "" if reached <= args.target else f"  (not reached in {args.budget:g} s)"
        print(
            f"{name:40} {per_second:7.1f} {per_cpu:7.1f} {done:10d} {seconds:8.2f} "
            f"{cpu:8.2f} {reached:14.6f}{note}"
        )
    print()
    print("cardlab on FESCA versions of Leduc (to the same target):")
    for ranks, suits in ((3, 2), (3, 3), (4, 3), (6, 3)):
        game = fesca_leduc(ranks, suits)
        step, measure, _ = cardlab_solver(game)
        done, seconds, cpu, reached = to_target(
            step, measure, args.target, args.check_every, args.budget
        )
        cards = " ".join(map(str, game.cards))
        print(
            f"  {done:6d} iterations {seconds:7.2f} s ({cpu:.2f} s CPU)  "
            f"exploitability {reached:.6f}  {cards}"
        )


def fesca_leduc(ranks: int, suits: int) -> PokerGame:
    """Leduc on FESCA78 with the highest ``ranks`` ranks and strongest ``suits`` suits."""
    data = get_game("leduc").definition() | {"deck": "FESCA78", "ranks": ranks, "suits": suits}
    return game_from_data(data)


if __name__ == "__main__":
    main()
