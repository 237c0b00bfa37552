"""The first run of each command on an empty cache, and the run after: wall time, peak memory.

Each command runs in a fresh process with empty caches of its own (a temporary
``NUMBA_CACHE_DIR`` for numba's compiled kernels and ``CARDLAB_CACHE_DIR`` for the
look-ups), as on a fresh install; then, once any kernel preparation it started in the
background has finished (``cardlab._prepare``: its lock is free again), the same command
runs again on the now warm caches. ``cardlab decks`` runs beside as the floor (Python,
cardlab and the command line). Peak memory is the process's own maximum resident set
(``wait4``), the background preparation's besides. The kernels each run compiled are
counted from the cache's ``prepare.log`` (``cardlab._shared_compile``).

``--web N`` also starts N ``cardlab web`` processes at once on one empty cache and times
each until it answers its first page (ready to deal), then until the bots' kernels are
prepared, and counts the compiles in the cache's ``prepare.log`` (one expected).

    python benchmarks/first_run.py [--commands NAME,...] [--web N] [--no-after]
        [--prepare off|no-background]
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

_SCRIPT = Path(sys.executable).with_name("cardlab")
CARDLAB = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "cardlab"]
COMMANDS: dict[str, list[str]] = {
    "decks": ["decks"],
    "equity exact AsAc v 7d8d": ["equity", "As Ac", "7d 8d", "--exact"],
    "equity exact AsAh v KsKh": ["equity", "As Ah", "Ks Kh", "--exact"],
    "equity exact 3 players": ["equity", "As Ac", "7d 8d", "Kh Qh", "--exact"],
    "equity exact FESCA78": ["equity", "--game", "fesca78-holdem", "木1 火1", "水12 金11"],
    "equity AsAh v random": ["equity", "As Ah", "random"],
    "equity sampled": ["equity", "As Ac", "7d 8d", "--samples", "100000", "--seed", "1"],
    "ties": ["ties", "--game", "standard52-holdem", "--samples", "1000"],
    "ties 200000": ["ties", "--game", "standard52-holdem"],  # its default samples
    "ties 500000": ["ties", "--game", "standard52-holdem", "--samples", "500000"],  # compiled
    "ties every game": ["ties"],  # 9 games x 2 x 200,000 deals: compiled
    "equity ranges sampled": ["equity", "QQ+", "AKs", "--samples", "1000000"],
    "draw": ["draw", "--game", "tesca54-draw", "木7 火7 水2 陰陽9 木11"],
    "equity AsAh v random exact": ["equity", "As Ah", "random", "--exact"],
    "equity Omaha exact": [
        "equity",
        "--game",
        "standard52-omaha",
        "As Ac Kd Kh",
        "7d 8d 9c Tc",
        "--board",
        "2c 3d 4h",
    ],
    "chart AA 72o": ["chart", "--hands", "AA,72o", "--workers", "0"],
    "chart": ["chart", "--workers", "0"],
    "report standard52": [
        "report",
        "--decks",
        "standard52",
        "--no-pushfold",
        "--workers",
        "0",
        "--no-cache",
        "--out",
        "/tmp/cardlab-first-run-report.html",
    ],
    "showdown": [
        "showdown",
        "--game",
        "standard52-holdem",
        "As Ac",
        "7d 8d",
        "--board",
        "2c 3d 4h 5s 9h",
    ],
    "openseven odds": ["openseven", "odds", "--cards", "7"],
    "arena": ["arena", "--bots", "equity,station", "--hands", "20", "--no-store"],
    "solve postflop": [  # the README's turn example
        "solve",
        "postflop",
        "--board",
        "Td9d6h Qc",
        "--oop",
        "66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s",
        "--ip",
        "QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+",
        "--pot",
        "200",
        "--stack",
        "900",
        "--bets",
        "60%, e, a",
        "--raises",
        "2.5x",
        "--river-donk",
        "50%",
    ],
    "solve pushfold": ["solve", "pushfold", "--game", "standard52-holdem", "--stack", "10"],
}
DEFAULT = (
    "decks,equity exact AsAc v 7d8d,equity exact FESCA78,equity AsAh v random,equity sampled,"
    "ties,draw,chart AA 72o,arena"
)


def timed(args: list[str], env: dict[str, str]) -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds, peak resident MB, exit code) of a process running
    ``args`` (CPU: a loaded machine stretches the wall time, less the CPU time)."""
    start = time.perf_counter()
    child = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    took = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.stderr is not None:
        child.stderr.close()
    cpu = usage.ru_utime + usage.ru_stime
    return took, cpu, usage.ru_maxrss / 1024, child.returncode


def wait_for_preparation(numba_dir: Path) -> float:
    """Seconds until no kernel preparation holds the cache's lock (0: none ran)."""
    from cardlab._prepare import preparing

    start = time.perf_counter()
    time.sleep(0.5)  # a preparation started at the command's end takes its lock first
    while preparing(numba_dir):
        time.sleep(0.5)
    return time.perf_counter() - start


def fresh_env(scratch: Path, prepare: str | None = None) -> dict[str, str]:
    """Empty caches under ``scratch``: numba's kernels, cardlab's look-ups, and every
    other user cache (``XDG_CACHE_HOME``: the finished tasks of ``chart`` and ``report``,
    which would answer a repeated chart without running it). ``prepare``: the value of
    ``CARDLAB_PREPARE`` (``off``: every kernel compiled in the foreground, as before
    first answers were interpreted; ``no-background``: no preparation started)."""
    env = dict(os.environ, CARDLAB_DAEMON="off")
    env["NUMBA_CACHE_DIR"] = str(scratch / "numba")
    env["CARDLAB_CACHE_DIR"] = str(scratch / "cardlab")
    env["XDG_CACHE_HOME"] = str(scratch / "user-cache")
    env.pop("CARDLAB_PREPARE", None)
    if prepare is not None:
        env["CARDLAB_PREPARE"] = prepare
    return env


def compiles(numba_dir: Path) -> tuple[int, int]:
    """(compiled, found) lines of the cache's ``prepare.log``."""
    try:
        lines = (numba_dir / "prepare.log").read_text().splitlines()
    except OSError:
        return 0, 0
    sets = [x for x in lines if " kernel " not in x]  # a kernel's own compile: kernels()
    return sum(" compiled " in x for x in sets), sum(" found " in x for x in sets)


def kernels(numba_dir: Path) -> int:
    """Kernels compiled (``kernel ... compiled`` lines of the cache's ``prepare.log``)."""
    try:
        lines = (numba_dir / "prepare.log").read_text().splitlines()
    except OSError:
        return 0
    return sum(" kernel " in x and " compiled " in x for x in lines)


def commands(names: list[str], after: bool, prepare: str | None = None) -> None:
    print(
        f"{'command':28} {'first s':>8} {'CPU s':>6} {'MB':>6} {'background s':>13}"
        f" {'after s':>8} {'CPU s':>6} {'MB':>6}"
    )
    for name in names:
        with tempfile.TemporaryDirectory(prefix="cardlab-first-run-") as scratch:
            env = fresh_env(Path(scratch), prepare)
            first, cpu, first_mb, code = timed([*CARDLAB, *COMMANDS[name]], env)
            background = wait_for_preparation(Path(env["NUMBA_CACHE_DIR"])) if after else 0.0
            line = f"{name:28} {first:8.2f} {cpu:6.1f} {first_mb:6.0f} {background:13.1f}"
            if after:
                again, cpu2, again_mb, code2 = timed([*CARDLAB, *COMMANDS[name]], env)
                line += f" {again:8.2f} {cpu2:6.2f} {again_mb:6.0f}"
                code = code or code2
            made, found = compiles(Path(env["NUMBA_CACHE_DIR"]))
            line += f"   (background compiles {made}, found {found})" if made or found else ""
            compiled = kernels(Path(env["NUMBA_CACHE_DIR"]))
            line += f"   kernels compiled {compiled}" if compiled else ""
            print(line + (f"  exit {code}" if code else ""), flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def web(processes: int, limit: float) -> None:
    with tempfile.TemporaryDirectory(prefix="cardlab-first-run-web-") as scratch:
        env = fresh_env(Path(scratch))
        numba_dir = Path(env["NUMBA_CACHE_DIR"])
        ports = [free_port() for _ in range(processes)]
        start = time.perf_counter()
        children = [
            subprocess.Popen(
                [*CARDLAB, "web", "--memory", "--port", str(port)],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for port in ports
        ]
        ready: dict[int, float] = {}
        prepared = None
        try:
            while time.perf_counter() - start < limit:
                for port in ports:
                    if port not in ready and _answers(port):
                        ready[port] = time.perf_counter() - start
                made, found = compiles(numba_dir)
                if prepared is None and made + found >= processes:
                    prepared = time.perf_counter() - start
                if len(ready) == processes and prepared is not None:
                    break
                time.sleep(0.2)
        finally:
            for child in children:
                child.terminate()
            for child in children:
                child.wait(30)
        made, found = compiles(numba_dir)
        answered = ", ".join(f"{ready[p]:.1f}" for p in ports if p in ready) or "none"
        print(f"\n{processes} web processes started at once on an empty cache:")
        print(f"  first page answered after (s): {answered}")
        done = f"{prepared:.1f} s" if prepared is not None else "not yet"
        print(f"  bots' kernels prepared in every process after: {done}")
        print(f"  compiles (prepare.log): {made} compiled, {found} found")
        shutil.rmtree(scratch, ignore_errors=True)


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1) as r:
            return bool(r.status == 200)
    except OSError:
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--commands", default=DEFAULT, help=f"comma-separated, of: {', '.join(COMMANDS)}"
    )
    parser.add_argument("--web", type=int, default=0, help="start N web processes at once")
    parser.add_argument("--web-limit", type=float, default=600, help="seconds to wait for them")
    parser.add_argument(
        "--no-after", action="store_true", help="skip the warm run after (and the wait for it)"
    )
    parser.add_argument(
        "--prepare",
        choices=("off", "no-background"),
        default=None,
        help="CARDLAB_PREPARE for the commands: off, every kernel compiled in the foreground"
        " (the figures before); no-background, no background preparation started",
    )
    args = parser.parse_args()
    names = [n for n in args.commands.split(",") if n]
    unknown = [n for n in names if n not in COMMANDS]
    if unknown:
        parser.error(f"unknown command {unknown[0]!r}")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load {_load()}")
    commands(names, not args.no_after, args.prepare)
    if args.web:
        web(args.web, args.web_limit)
    print(f"load at the end {_load()}")


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
