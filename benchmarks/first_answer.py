"""The first answer of a new process: wall time of whole CLI runs, beside ``cardlab decks``.

Each command runs in a fresh process, ``--runs`` times, the commands taking turns (so a
change in the machine's load touches them alike); a command's cost is read as its
difference to ``cardlab decks`` in the same round (the start of Python, cardlab and the
command line, which every command pays), and the median of those differences is shown.

Four states: three of the look-up cache (:mod:`cardlab.poker._lookup_cache`):

- ``warm``: the look-ups on disk (one run first writes them);
- ``cold``: an empty cache directory each run (``CARDLAB_CACHE_DIR``): built and written;
- ``off``: ``CARDLAB_LOOKUP_CACHE=off``, built every run and never written (the code
  before the cache);
- ``daemon``: warm, and a daemon (``cardlab daemon start``, docs/daemon.md) answers
  each command; ``cardlab decks`` in its own process is shown beside.

Every state but ``daemon`` runs with ``CARDLAB_DAEMON=off``.

The compiled kernels come from numba's cache in every state (a first run ever compiles
for minutes; run the script twice and read the second).

A last row, for scale: a process that only starts numba (imports it and readies its
code generator, as loading the first compiled function does), over ``cardlab decks``.

Then the first showdown of a table process against its later ones: fresh processes
deal check-down hands of Hold'em and time the action that ends each hand (its
showdown), and whether ``import cardlab.table`` loaded numba.

    python benchmarks/first_answer.py [--runs N] [--states warm,cold,off] [--hide-scipy]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# the installed command beside this Python, as a user runs it (else the module)
_SCRIPT = Path(sys.executable).with_name("cardlab")
CARDLAB = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "cardlab"]
# numba's own start, for scale: imported, and its code generator readied (what loading
# the first compiled function does; it imports scipy.linalg when scipy is installed)
NUMBA_START = (
    "import cardlab.cli, numba\n"
    "from numba.core.registry import cpu_target\n"
    "cpu_target.target_context.refresh()"
)
COMMANDS: dict[str, list[str]] = {
    "decks": [*CARDLAB, "decks"],
    "fesca78 exact": [
        *CARDLAB,
        *("equity", "--game", "fesca78-holdem", "木1 火1", "水12 金11", "--exact"),
    ],
    "standard52 exact": [*CARDLAB, "equity", "As Ah", "Ks Kh", "--exact"],
    "numba start": [sys.executable, "-c", NUMBA_START],
}
TARGETS = {"fesca78 exact": 0.25, "standard52 exact": 0.10}  # seconds over decks

SHOWDOWNS = r"""
import json, sys, time
t0 = time.perf_counter()
import cardlab.table
from cardlab.table import HandState, TableGame
numba_loaded = "numba" in sys.modules
imported = time.perf_counter() - t0
out = {"import_s": imported, "numba_after_import": numba_loaded}
for name in sys.argv[1:]:
    game = TableGame.create(name, blinds=(1, 2))
    times = []
    for h in range(30):
        s = HandState(game, [200] * 6, seed=h)
        while True:
            start = time.perf_counter()
            s.check_or_call()
            took = time.perf_counter() - start
            if s.is_over:
                times.append(took)
                break
    out[name] = times
out["numba_at_end"] = "numba" in sys.modules
print(json.dumps(out))
"""


def run(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one process running ``args``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(args, env=env, capture_output=True, check=False)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{done.stderr.decode()}")
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return took, cpu


def child_env(bytecode: bool, hide_scipy: bool) -> dict[str, str]:
    """The environment of every process run: with ``bytecode``, Python's compiled
    modules are written and reused (kept apart, in a temporary tree), as on a user's
    machine; without, whatever this environment says (``PYTHONDONTWRITEBYTECODE``
    makes every process compile cardlab's sources again). With ``hide_scipy``, scipy
    cannot be imported, as in an install of cardlab without the dev extra (open-spiel
    brings scipy, and numba imports scipy.linalg on its first load when it is there)."""
    env = dict(os.environ)
    scratch = Path(tempfile.gettempdir())
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(scratch / "cardlab-first-answer-pyc")
    if hide_scipy:
        hider = scratch / "cardlab-first-answer-no-scipy" / "scipy"
        hider.mkdir(parents=True, exist_ok=True)
        (hider / "__init__.py").write_text('raise ImportError("hidden by first_answer.py")\n')
        env["PYTHONPATH"] = os.pathsep.join(
            [str(hider.parent), *filter(None, [env.get("PYTHONPATH")])]
        )
    return env


Times = dict[str, list[tuple[float, float]]]  # command -> (wall, CPU) per run


def cli_rounds(state: str, runs: int, env: dict[str, str], pause: float = 0.0) -> Times:
    commands = dict(COMMANDS)
    base = {**env, "CARDLAB_DAEMON": "off"}
    with tempfile.TemporaryDirectory() as scratch:
        if state == "off":
            base["CARDLAB_LOOKUP_CACHE"] = "off"
        elif state in ("warm", "daemon"):
            base["CARDLAB_CACHE_DIR"] = scratch
        for args in commands.values():  # write the look-ups (warm) and the bytecode once
            run(args, base)
        if state == "daemon":  # the same commands answered by a running daemon
            del commands["numba start"]
            commands["decks, own process"] = commands["decks"]
            base["CARDLAB_DAEMON_DIR"] = str(Path(scratch) / "daemon")
            del base["CARDLAB_DAEMON"]
            run([*CARDLAB, "daemon", "start"], base)
        times: Times = {name: [] for name in commands}
        try:
            for r in range(runs):
                for name, args in commands.items():
                    env = dict(base)
                    if state == "cold":
                        env["CARDLAB_CACHE_DIR"] = str(Path(scratch) / f"{r}-{len(times[name])}")
                    if name == "decks, own process":
                        env["CARDLAB_DAEMON"] = "off"
                    time.sleep(pause)  # a person between two commands (not timed)
                    times[name].append(run(args, env))
        finally:
            if state == "daemon":
                run([*CARDLAB, "daemon", "stop"], base)
    return times


def report_cli(state: str, times: Times) -> None:
    if state == "daemon":
        print("\nwarm look-up cache, a daemon running (`cardlab daemon start`): the CPU column")
        print("counts the calling process only (the answer runs in the daemon's child)")
    else:
        print(f"\n{state} look-up cache: seconds per run, median (min), and over `cardlab decks`")
    print(f"  {'':17} {'wall':>13} {'over decks':>17} {'CPU':>13} {'over decks':>17}")
    decks = times["decks"]
    for name, values in times.items():
        line = f"  {name:17}"
        for i in (0, 1):  # wall, CPU
            mine = [v[i] for v in values]
            line += f" {statistics.median(mine):6.3f} ({min(mine):5.3f})"
            if name == "decks":
                line += " " * 18
                continue
            base = [d[i] for d in decks]
            over = [m - b for m, b in zip(mine, base, strict=True)]
            line += f" +{statistics.median(over):6.3f} (+{min(mine) - min(base):5.3f})"
        if name in TARGETS:
            line += f"  target +{TARGETS[name]:.2f}"
        print(line)


def showdowns(runs: int, env: dict[str, str]) -> None:
    games = ["standard52-holdem", "fesca78-holdem"]
    firsts: dict[str, list[float]] = {g: [] for g in games}
    laters: dict[str, list[float]] = {g: [] for g in games}
    imports, numba_import, numba_end = [], set(), set()
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, "-c", SHOWDOWNS, *games], capture_output=True, check=True, env=env
        )
        out = json.loads(done.stdout)
        imports.append(out["import_s"])
        numba_import.add(out["numba_after_import"])
        numba_end.add(out["numba_at_end"])
        for g in games:
            firsts[g].append(out[g][0])
            laters[g].append(statistics.median(out[g][1:]))
    print(f"\ntable process ({runs} processes, 30 check-down hands each): the showdown action")
    print(
        f"  import cardlab.table: {statistics.median(imports):.3f} s, loads numba: {numba_import}"
    )
    for g in games:
        first, later = statistics.median(firsts[g]), statistics.median(laters[g])
        print(
            f"  {g:15} first {first * 1000:7.2f} ms  later {later * 1000:6.2f} ms  "
            f"first - later {1000 * (first - later):6.2f} ms (target 10 ms)"
        )
    print(f"  numba loaded by the end: {numba_end}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--states", default="warm,cold,off,daemon")
    parser.add_argument("--no-table", action="store_true", help="skip the table showdowns")
    parser.add_argument(
        "--pause",
        type=float,
        default=0.0,
        help="seconds between two commands, untimed (a daemon readies its spare child meanwhile)",
    )
    parser.add_argument(
        "--no-bytecode", action="store_true", help="keep this environment's bytecode setting"
    )
    parser.add_argument(
        "--hide-scipy", action="store_true", help="run as an install without scipy would"
    )
    args = parser.parse_args()
    env = child_env(not args.no_bytecode, args.hide_scipy)
    import cardlab

    print(f"cardlab from {Path(cardlab.__file__).parent}; scipy hidden: {args.hide_scipy}")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {_load()}")
    for state in filter(None, args.states.split(",")):
        report_cli(state, cli_rounds(state, args.runs, env, args.pause))
    if not args.no_table:
        showdowns(args.runs, env)
    print(f"\nload average at the end {_load()} (a shared machine: compare CPU columns too)")


def _load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
