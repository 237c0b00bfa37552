"""Postflop solving: cardlab against b-inary/postflop-solver on the same spots, one run.

For each spot both solvers run DCFR on the same betting tree (cardlab's ``Spot`` is
written out as the peer driver's flags, so the sizes, donk bets and thresholds are
the same text) with the same iteration cap and target, measuring the exploitability
every 10 iterations and after the last one, and stopping once it is at most the target
(% of the starting pot). cardlab runs its default DCFR schedule (``"auto"``:
``"restart"`` on the flop, ``"smooth"`` on the turn; :mod:`cardlab.solve.postflop.solver`).
The two exploitabilities are the same quantity, compared as printed: the mean of the
two best responders' gains over the strategy's values, in chips per hand pair (the
peer's ``compute_exploitability``, in float32; cardlab's in float64). Printed per spot
and solver: iterations, seconds to the target or the cap (measurements included),
seconds per iteration (DCFR steps only), CPU seconds per iteration (every thread's,
measurements included: on a shared machine the figure to compare), the
exploitability reached, memory (each solver's own estimate, and the peak resident set
of its process: cardlab's includes ~0.19 GB of Python, numpy and numba), the root EV
and equity of OOP and IP, the root strategy; then the ratios cardlab / peer and the
differences of their answers.

Spots:

- ``basic``: postflop-solver's ``examples/basic.rs`` (turn Td9d6h Qc, pot 200, stack
  900, bets "60%, e, a", raises "2.5x", river donk "50%", add all-in 1.5, force all-in
  0.15, merging 0.1), target 0.5% of the pot;
- ``3bet``: PioSOLVER's 3betpotFAST preset (flop QsJh2h, pot 180, stack 910, bets
  52% / 55% / 70% on flop / turn / river, raises 45%, both players; OOP may lead on the
  turn and river with its bet sizes, as in postflop-solver's own test of the preset,
  whose tree has 194 decisions; no all-in added or forced, no merging), target 0.1% of
  the pot. PioSOLVER's published answer at 0.1%: OOP EV 105.11, OOP equity 55.347%,
  OOP bets 55.19% at the root. It is big (~1.3 GB each), so its default cap is 30
  iterations (3 to 4% of the pot); ``--iterations 200`` takes both to the target
  (the peer needs about 180 iterations).

Each solver runs in a child process of its own, one after the other (never both at
once), so peak memory is per solver (``--compress`` adds a run of cardlab with its
16-bit storage); cardlab's child first solves a tiny spot so that numba's compilation
(or loading its cache) is not timed. ``--threads N`` gives both N
threads (cardlab's ``threads``, the peer's rayon pool); by default each uses its own
default (cardlab: 4 task threads per core; the peer: one per core).

The peer is a small driver program around postflop-solver (AGPL: neither it, nor its
driver, nor a recipe to build them is kept in this repository), built from a snapshot
of its source outside the repo. Its protocol is this script's: the flags of
:func:`peer_args` in, one JSON line out with the fields :func:`report` reads (the same
names as cardlab's child prints). Without it cardlab runs alone.

    python benchmarks/postflop.py [--spot basic|3bet|all] [--iterations N] [--target PCT]
        [--threads N] [--compress] [--peer PATH] [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from cardlab.solve.postflop import PostflopSolution, Solver, Spot

REPO = Path(__file__).resolve().parent.parent
DEFAULT_PEER = REPO.parent / "peers" / "postflop_solver_bench" / "target" / "release"
DEFAULT_PEER = DEFAULT_PEER / "postflop_solver_bench"
STREETS = ("flop", "turn", "river")


@dataclass(frozen=True)
class Case:
    """A spot and how it is run by default."""

    name: str
    title: str
    spot: Spot
    iterations: int
    target: float  # % of the starting pot
    note: str


CASES = {
    "basic": Case(
        "basic",
        "postflop-solver examples/basic.rs (turn)",
        Spot(
            "standard52-holdem",
            "Td9d6h Qc",
            "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s",
            "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+",
            200,
            900,
            bets="60%, e, a",
            raises="2.5x",
            river_donk="50%",  # the turn's donk sizes: None, OOP's bet sizes (as basic.rs)
            add_allin=1.5,
            force_allin=0.15,
            merging=0.1,
        ),
        1000,
        0.5,
        "known on this machine: the peer reaches 0.5% in ~100 iterations",
    ),
    "3bet": Case(
        "3bet",
        "PioSOLVER 3betpotFAST (flop)",
        Spot(
            "standard52-holdem",
            "Qs Jh 2h",
            "88+,A8s+,A5s-A2s:0.5,AJo+,ATo:0.75,K9s+,KQo,KJo:0.75,KTo:0.25,Q9s+,QJo:0.5,"
            "J8s+,JTo:0.25,T8s+,T7s:0.45,97s+,96s:0.45,87s,86s:0.75,85s:0.45,75s+:0.75,"
            "74s:0.45,65s:0.75,64s:0.5,63s:0.45,54s:0.75,53s:0.5,52s:0.45,43s:0.5,42s:0.45,"
            "32s:0.45",
            "AA:0.25,99-22,AJs-A2s,AQo-A8o,K2s+,K9o+,Q2s+,Q9o+,J6s+,J9o+,T6s+,T9o,96s+,"
            "95s:0.5,98o,86s+,85s:0.5,75s+,74s:0.5,64s+,63s:0.5,54s,53s:0.5,43s",
            180,
            910,
            bets="52%",
            raises="45%",
            streets={"turn": {"bets": "55%"}, "river": {"bets": "70%"}},
            turn_donk=None,  # OOP may lead with its bet sizes (the peer's default)
            river_donk=None,
        ),
        30,
        0.1,
        "the peer reaches 0.1% in about 180 iterations; --iterations 200 lets both get there",
    ),
}

# a tiny flop spot that takes every kernel the real solves take (numba compiles or loads)
WARM_UP = Spot("standard52-holdem", "Qs Jh 2h", "AA,KQs", "KK,JTs", 100, 200, bets="a", raises="")


# --- the peer's command line ---------------------------------------------------------


def peer_args(spot: Spot, iterations: int, target: float, threads: int | None) -> list[str]:
    """The driver's flags for ``spot``: every player's sizes on every street written out."""
    board = "".join(spot.board.split())
    args = ["--board", board, "--oop-range", spot.oop, "--ip-range", spot.ip]
    args += ["--pot", str(spot.pot), "--stack", str(spot.stack)]
    for street in STREETS[spot.first_street() :]:
        for player in ("oop", "ip"):
            for kind, flag in (("bets", "bet"), ("raises", "raise")):
                args += [f"--{player}-{street}-{flag}", spot.sizes_for(street, player, kind)]
    for street, donk in (("turn", spot.turn_donk), ("river", spot.river_donk)):
        if donk is not None:  # None: the library's default, OOP's bet sizes (as cardlab)
            args += [f"--{street}-donk", donk if donk.strip() else "none"]
    args += ["--add-allin-threshold", repr(spot.add_allin)]
    args += ["--force-allin-threshold", repr(spot.force_allin)]
    args += ["--merging-threshold", repr(spot.merging)]
    args += ["--rake-rate", repr(spot.rake_rate), "--rake-cap", repr(spot.rake_cap)]
    args += ["--target-pct", repr(target), "--max-iterations", str(iterations)]
    if threads is not None:
        args += ["--threads", str(threads)]
    return args


def peer_action(name: str) -> str:
    """postflop-solver's ``Bet(120)`` as cardlab's ``b120`` (``Check`` as ``k``, ...)."""
    head, _, rest = name.partition("(")
    letter = {"Fold": "f", "Check": "k", "Call": "c", "Bet": "b", "Raise": "r", "AllIn": "a"}
    return letter.get(head, head) + rest.rstrip(")")


def run_peer(binary: Path, case: Case, iterations: int, target: float, threads: int | None) -> Any:
    command = [str(binary), *peer_args(case.spot, iterations, target, threads)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the peer failed ({done.returncode}): {done.stderr.strip()}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["root_actions"] = [[peer_action(a), f] for a, f in out["root_actions"]]
    return out


# --- cardlab, in a child process of its own -------------------------------------------


def cardlab_figures(
    case: Case, iterations: int, target: float, threads: int | None, compressed: bool = False
) -> Any:
    """Solve in this process and return the figures (what the child prints)."""
    warm_game = WARM_UP.game_arrays(compressed=compressed)  # compiled for that storage
    warm = PostflopSolution(WARM_UP, Solver(warm_game, threads=threads))
    warm.resume(2, target=None, every=1)
    warm.as_dict()

    built = time.perf_counter()
    game = case.spot.game_arrays(max_memory=available_memory(), compressed=compressed)
    solver = Solver(game, threads=threads)
    build_seconds = time.perf_counter() - built
    # the exploitability measurements are timed apart (the solver calls its own
    # method), so that seconds per iteration counts DCFR steps only, as the peer's does
    measure = [0.0]
    exploitability = solver.exploitability

    def timed_exploitability(*a: Any, **kw: Any) -> float:
        start = time.perf_counter()
        try:
            return exploitability(*a, **kw)
        finally:
            measure[0] += time.perf_counter() - start

    solver.exploitability = timed_exploitability  # type: ignore[method-assign]
    cpu = time.process_time()  # every thread of this process
    solution = PostflopSolution(case.spot, solver).resume(iterations, target=target)
    solve_cpu = time.process_time() - cpu
    ev, equity = solution.ev(), solution.equity()
    data = solution.as_dict()
    return {
        "solver": "cardlab",
        "exploitability": solution.exploitability,
        "exploitability_pot_percent": solution.exploitability_pot_percent,
        "iterations": solution.iterations,
        "seconds": solution.seconds,
        "step_seconds": solution.seconds - measure[0],
        "measure_seconds": measure[0],
        "build_seconds": build_seconds,
        "solve_cpu_seconds": solve_cpu,
        "memory_bytes": game.memory_bytes,
        "peak_rss_bytes": peak_resident(),
        "ev_oop": ev.oop,
        "ev_ip": ev.ip,
        "equity_oop": equity.oop,
        "equity_ip": equity.ip,
        "root_actions": [[a["action"], a["frequency"]] for a in data.get("actions", [])],
        "decisions": game.tree.counts()["decisions"],
        "threads": solver.threads,
        "target_pot_percent": target,
        "max_iterations": iterations,
    }


def peak_resident() -> int:
    """This process's peak resident set in bytes: VmHWM of /proc/self/status (getrusage's
    maxrss would carry the parent's over the exec), else getrusage's."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def run_cardlab(
    case: Case, iterations: int, target: float, threads: int | None, compressed: bool = False
) -> Any:
    command = [sys.executable, __file__, "--child", case.name, "--iterations", str(iterations)]
    command += ["--target", repr(target)] + (["--compress"] if compressed else [])
    if threads is not None:
        command += ["--threads", str(threads)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"cardlab's child failed ({done.returncode}): {done.stderr.strip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def busy_cpu_seconds() -> float:
    """CPU seconds the whole machine has spent busy since boot (/proc/stat; 0 elsewhere)."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return 0.0
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def measured(run: Any, *args: Any) -> Any:
    """``run(*args)``'s figures, with the CPU seconds other processes took meanwhile (the
    machine's busy time less the child's): on a shared machine that explains odd times."""
    busy, child = busy_cpu_seconds(), resource.getrusage(resource.RUSAGE_CHILDREN)
    figures = run(*args)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    own = (after.ru_utime - child.ru_utime) + (after.ru_stime - child.ru_stime)
    figures["cpu_seconds"] = own
    figures["other_cpu_seconds"] = max(busy_cpu_seconds() - busy - own, 0.0)
    return figures


def available_memory() -> int | None:
    """MemAvailable of /proc/meminfo in bytes (None where there is none)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


# --- printing --------------------------------------------------------------------------


def gb(n: float) -> str:
    return f"{n / 1e9:.3f} GB"


def ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}" if b > 0 and math.isfinite(a / b) else "—"


def solve_cpu(figures: dict[str, Any]) -> float:
    """The CPU seconds (every thread) of a solve, measurements included: cardlab's
    child times its solve apart from its start and warm-up; the peer's driver starts
    in milliseconds, so its process's CPU time is its solve's."""
    return float(figures.get("solve_cpu_seconds", figures["cpu_seconds"]))


def report(console: Console, case: Case, results: dict[str, Any]) -> dict[str, Any]:
    """Print one spot's figures; return its ratios and differences."""
    names = list(results)
    table = Table(title=f"{case.name}: {case.title}", title_justify="left")
    table.add_column("")
    for name in names:
        table.add_column(name, justify="right")
    rows: list[tuple[str, Any]] = [
        ("decision nodes (tree)", lambda r: f"{r['decisions']}"),
        ("threads", lambda r: f"{r['threads']}"),
        ("CPU s of other processes", lambda r: f"{r['other_cpu_seconds']:.1f}"),
        ("iterations", lambda r: f"{r['iterations']}"),
        ("seconds (to target or cap)", lambda r: f"{r['seconds']:.2f}"),
        ("  of which measuring", lambda r: f"{r['measure_seconds']:.2f}"),
        ("seconds per iteration", lambda r: f"{r['step_seconds'] / r['iterations']:.4f}"),
        ("CPU s per iteration", lambda r: f"{solve_cpu(r) / r['iterations']:.4f}"),
        ("exploitability, % of pot", lambda r: f"{r['exploitability_pot_percent']:.4f}"),
        ("exploitability, chips", lambda r: f"{r['exploitability']:.4f}"),
        ("memory (own estimate)", lambda r: gb(r["memory_bytes"])),
        ("peak resident memory", lambda r: gb(r["peak_rss_bytes"])),
        ("EV OOP", lambda r: f"{r['ev_oop']:.4f}"),
        ("EV IP", lambda r: f"{r['ev_ip']:.4f}"),
        ("equity OOP", lambda r: f"{100 * r['equity_oop']:.4f}%"),
        ("equity IP", lambda r: f"{100 * r['equity_ip']:.4f}%"),
        ("set-up seconds (tree, arrays)", lambda r: f"{r['build_seconds']:.2f}"),
    ]
    for label, cell in rows:
        table.add_row(label, *(cell(results[n]) for n in names))
    actions = list(dict.fromkeys(a for n in names for a, _ in results[n]["root_actions"]))
    for action in actions:
        freqs = [dict(results[n]["root_actions"]).get(action) for n in names]
        table.add_row(
            f"root: OOP {action}", *("—" if f is None else f"{100 * f:.2f}%" for f in freqs)
        )
    console.print(table)

    c = results["cardlab"]
    target = c["target_pot_percent"]
    reached = "reached" if c["exploitability_pot_percent"] <= target else "not reached"
    console.print(
        f"cardlab: {c['iterations']} iterations in {c['seconds']:.2f} s, "
        f"{c['exploitability_pot_percent']:.4f}% of the pot (target {target:g}% {reached})"
    )
    if "postflop-solver" not in results:
        return {}
    p = results["postflop-solver"]
    c_it = c["step_seconds"] / c["iterations"]
    p_it = p["step_seconds"] / p["iterations"]
    c_cpu = solve_cpu(c) / c["iterations"]
    p_cpu = solve_cpu(p) / p["iterations"]
    both = c["exploitability_pot_percent"] <= target and p["exploitability_pot_percent"] <= target
    out = {
        "seconds_per_iteration": c_it / p_it,
        "cpu_seconds_per_iteration": c_cpu / p_cpu,
        "seconds_to_target": c["seconds"] / p["seconds"] if both else None,
        "memory_estimate": c["memory_bytes"] / p["memory_bytes"],
        "peak_rss": c["peak_rss_bytes"] / p["peak_rss_bytes"],
        "iterations": c["iterations"] / p["iterations"],
        "ev_oop_difference": c["ev_oop"] - p["ev_oop"],
        "ev_ip_difference": c["ev_ip"] - p["ev_ip"],
        "equity_oop_difference_percent": 100 * (c["equity_oop"] - p["equity_oop"]),
        "exploitability_difference_percent": (
            c["exploitability_pot_percent"] - p["exploitability_pot_percent"]
        ),
        "same_tree": c["decisions"] == p["decisions"],
    }
    console.print(
        f"postflop-solver: {p['iterations']} iterations in {p['seconds']:.2f} s, "
        f"{p['exploitability_pot_percent']:.4f}% of the pot"
    )
    to_target = (
        f"{out['seconds_to_target']:.2f}"
        if both
        else "— (not both at the target: compare per iteration)"
    )
    console.print(
        f"cardlab / peer: seconds per iteration {ratio(c_it, p_it)}, "
        f"CPU seconds per iteration {ratio(c_cpu, p_cpu)}, "
        f"seconds to target {to_target}, iterations {ratio(c['iterations'], p['iterations'])}, "
        f"memory {ratio(c['memory_bytes'], p['memory_bytes'])} (estimates), "
        f"{ratio(c['peak_rss_bytes'], p['peak_rss_bytes'])} (peak resident)"
    )
    console.print(
        f"cardlab − peer: EV OOP {out['ev_oop_difference']:+.4f} chips, "
        f"EV IP {out['ev_ip_difference']:+.4f}, equity OOP "
        f"{out['equity_oop_difference_percent']:+.4f} points, exploitability "
        f"{out['exploitability_difference_percent']:+.4f} points of the pot"
        + ("" if out["same_tree"] else "  [the trees differ: decision nodes not equal]")
    )
    console.print()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spot", choices=[*CASES, "all"], default="all")
    parser.add_argument(
        "--iterations",
        type=int,
        default=None,
        metavar="N",
        help="iteration cap for both solvers (default: basic 1000, 3bet 30)",
    )
    parser.add_argument(
        "--target",
        type=float,
        default=None,
        metavar="PCT",
        help="target exploitability, %% of the pot (default: basic 0.5, 3bet 0.1)",
    )
    parser.add_argument(
        "--threads", type=int, default=None, metavar="N", help="threads for both solvers"
    )
    parser.add_argument(
        "--peer",
        type=Path,
        default=Path(os.environ.get("POSTFLOP_SOLVER_BENCH", DEFAULT_PEER)),
        help="the peer driver's binary (default: $POSTFLOP_SOLVER_BENCH, else %(default)s)",
    )
    parser.add_argument(
        "--compress",
        action="store_true",
        help="also run cardlab with 16-bit compressed storage (a third column)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document instead")
    parser.add_argument("--child", choices=list(CASES), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.iterations is not None and args.iterations < 1:
        parser.error(f"--iterations must be at least 1, got {args.iterations}")
    if args.target is not None and not 0 < args.target < 1000:
        parser.error(f"--target is a percentage of the pot above 0, got {args.target}")

    if args.child:  # the child process: solve one spot with cardlab, print one JSON line
        case = CASES[args.child]
        figures = cardlab_figures(case, args.iterations, args.target, args.threads, args.compress)
        print(json.dumps(figures))
        return 0

    console = Console(quiet=args.json)
    cases = list(CASES.values()) if args.spot == "all" else [CASES[args.spot]]
    peer: Path | None = args.peer
    if not (args.peer.is_file() and os.access(args.peer, os.X_OK)):
        peer = None
    version = REPO.parent / "peers" / "postflop_solver_bench" / "PEER_VERSION"
    console.print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    if peer is None:
        console.print(
            f"[bold]postflop-solver's driver is not here[/] (no {args.peer}): cardlab runs "
            "alone. Give the driver with --peer PATH or $POSTFLOP_SOLVER_BENCH (see this "
            "script's docstring for its protocol)."
        )
    else:
        peer_version = version.read_text().strip() if version.is_file() else "version unknown"
        console.print(f"peer: {peer} ({peer_version})")
    console.print()

    document: dict[str, Any] = {"spots": {}}
    for case in cases:
        iterations = args.iterations or case.iterations
        target = args.target if args.target is not None else case.target
        console.print(
            f"[bold]{case.name}[/]: at most {iterations} iterations, target {target:g}% of the "
            f"pot ({case.note})"
        )
        results = {"cardlab": measured(run_cardlab, case, iterations, target, args.threads)}
        if args.compress:
            results["cardlab 16-bit"] = measured(
                run_cardlab, case, iterations, target, args.threads, True
            )
        if peer is not None:
            results["postflop-solver"] = measured(
                run_peer, peer, case, iterations, target, args.threads
            )
        comparison = report(console, case, results)
        document["spots"][case.name] = {
            "spot": case.spot.as_dict(),
            "iterations": iterations,
            "target_pot_percent": target,
            "results": results,
            "cardlab_over_peer": comparison,
        }
    if args.json:
        print(json.dumps(document, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
