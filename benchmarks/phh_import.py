"""Figures of reading, replaying and importing real PHH files, beside pokerkit (issue 20).

    python benchmarks/phh_import.py [--corpus DIR] [--sample N] [--rounds N] [--hands N]
                                    [--no-import]

- the corpus: every hand of the ``.phh``/``.phhs`` files under ``--corpus`` (default
  ``tests/data/phh``; the public dataset, e.g. a checkout of ``uoftcprg/phh-dataset`` or
  its mirror ``wjsutton/phh-dataset``, for the real figures) that both cardlab and
  pokerkit replay to the end; ``--rounds`` (default 3) samples of ``--sample`` hands
  (default 3000), each other hands where the corpus has enough (so that no engine reads
  a hand it has read before, as in a real import), are timed, cardlab and pokerkit in
  turn on each sample, and the rates are of all rounds together (a shared machine's
  load falls on both alike);
- parsing: PHH text to a hand history (``phh.loads`` against ``HandHistory.loads``);
- load + replay: text to the finished hand (``replay(phh.loads(...))`` against running
  every state of ``HandHistory.loads``), in the same run;
- the first showdown of a fresh process against the later ones;
- import: ``--hands`` hands (default 100,000, the corpus's hands again and again, each
  with its own ``hand`` number so that none is a repeat) written to one ``.phhs`` and
  imported by ``cardlab history import`` into a new store, in a child process: wall
  time, CPU time and peak memory (max RSS); then imported again (every hand already
  stored: what resuming an import costs).

The machine may be shared: rates are given per CPU second of this process (what
compares cardlab with pokerkit fairly under load) and per wall second.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

import pokerkit as pk

from cardlab.errors import CardlabError
from cardlab.table import phh
from cardlab.table.history import replay

ROOT = Path(__file__).resolve().parents[1]


def corpus(folder: Path) -> list[str]:
    """The PHH text of every hand under ``folder`` that cardlab and pokerkit both play
    to the end."""
    texts = []
    files = sorted(f for f in folder.rglob("*") if f.suffix in (".phh", ".phhs"))
    for path in files:
        for entry in phh.iter_file(path):
            if entry.history is None:
                continue
            text = phh.dumps(entry.history)
            try:
                replay(entry.history)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    *_, state = pk.HandHistory.loads(text)
            except (CardlabError, ValueError, KeyError):
                continue
            if not state.status:
                texts.append(text)
    return texts


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of ``work()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    work()
    return time.process_time() - cpu, time.perf_counter() - wall


def in_turn(
    samples: list[list[str]],
    ours: Callable[[list[str]], object],
    theirs: Callable[[list[str]], object],
) -> tuple[tuple[float, float], tuple[float, float]]:
    """(CPU s, wall s) of each engine over every sample, the two taken in turn."""
    mine, others = [0.0, 0.0], [0.0, 0.0]
    for sample in samples:
        for total, work in ((mine, ours), (others, theirs)):
            cpu, wall = timed(lambda: work(sample))  # noqa: B023 (called at once)
            total[0] += cpu
            total[1] += wall
    return (mine[0], mine[1]), (others[0], others[1])


def pokerkit_replay(texts: list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for text in texts:
            for _ in pk.HandHistory.loads(text):
                pass


def pokerkit_parse(texts: list[str]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for text in texts:
            pk.HandHistory.loads(text)


def cardlab_replay(texts: list[str]) -> None:
    for text in texts:
        replay(phh.loads(text))


def cardlab_parse(texts: list[str]) -> None:
    for text in texts:
        phh.loads(text)


def rate_line(name: str, n: int, ours: tuple[float, float], theirs: tuple[float, float]) -> str:
    cpu_ratio = (n / ours[0]) / (n / theirs[0])
    return (
        f"{name:<14} cardlab {n / ours[0]:8,.0f} hands/CPU s ({n / ours[1]:8,.0f}/s wall)   "
        f"pokerkit {n / theirs[0]:8,.0f} ({n / theirs[1]:8,.0f})   cardlab/pokerkit "
        f"{cpu_ratio:.2f}x"
    )


FIRST_SHOWDOWN = """
import sys, time
from cardlab.table import phh
from cardlab.table.history import replay
texts = sys.stdin.read().split("\\x00")
for text in texts:
    history = phh.loads(text)
    wall, cpu = time.perf_counter(), time.process_time()
    replay(history)
    print(time.perf_counter() - wall, time.process_time() - cpu)
print("numba" in sys.modules)
"""


def first_showdown(texts: list[str]) -> str:
    """The replay of a hand that ends in a showdown, the first of a fresh process
    against the next ones (wall and CPU ms), and whether the process loaded numba."""
    showdowns = [t for t in texts if replay(phh.loads(t)).hand.result.showdown][:8]  # type: ignore[union-attr]
    if len(showdowns) < 2:
        return "first showdown: too few showdowns in the corpus"
    out = subprocess.run(
        [sys.executable, "-c", FIRST_SHOWDOWN],
        input="\x00".join(showdowns),
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    rows = [[float(x) * 1000 for x in line.split()] for line in out[: len(showdowns)]]
    numba = out[len(showdowns)].strip()

    def median(values: list[float]) -> float:
        return sorted(values)[len(values) // 2]

    wall, cpu = rows[0]
    return (
        f"first showdown of a process: {wall:.1f} ms wall, {cpu:.1f} ms CPU; later ones "
        f"{median([r[0] for r in rows[1:]]):.1f} ms wall, {median([r[1] for r in rows[1:]]):.1f} "
        f"ms CPU (median); numba loaded: {numba}"
    )


def write_hands(texts: list[str], n: int, path: Path) -> None:
    """``n`` hands cycled from ``texts`` as one .phhs, each with its own ``hand``."""
    with path.open("w", encoding="utf-8") as out:
        for k in range(n):
            text = re.sub(r"(?m)^hand = .*$\n?", "", texts[k % len(texts)].rstrip("\n") + "\n")
            out.write(f"{'' if k == 0 else chr(10)}[{k + 1}]\n{text}hand = {k + 1}\n")


def import_run(path: Path, db: Path) -> tuple[float, float, float, str]:
    """(wall s, CPU s, peak MB, last line) of ``cardlab history import`` in a child."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "cardlab", "history", "--db", str(db), "import", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert child.stdout is not None
    output = child.stdout.read()
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    peak = usage.ru_maxrss / 1024  # kilobytes on Linux
    last = output.strip().splitlines()[-1] if output.strip() else f"exit {child.returncode}"
    return wall, usage.ru_utime + usage.ru_stime, peak, last


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--corpus",
        type=Path,
        default=ROOT / "tests" / "data" / "phh",
        help="the .phh/.phhs files to read (default tests/data/phh)",
    )
    parser.add_argument("--sample", type=int, default=3000, help="hands a timed sample")
    parser.add_argument("--rounds", type=int, default=3, help="timed samples")
    parser.add_argument("--hands", type=int, default=100_000, help="hands to import")
    parser.add_argument("--no-import", action="store_true", help="skip the import figures")
    args = parser.parse_args(argv)
    folder, sample, rounds, hands = args.corpus, args.sample, args.rounds, args.hands
    print(f"cores: {os.cpu_count()}, load average: {os.getloadavg()[0]:.1f}")
    texts = corpus(folder)
    print(f"corpus: {len(texts):,} hands under {folder} that both engines replay")
    if not texts:
        return
    shuffled = random.Random(0).sample(texts, len(texts))
    size = min(sample, len(texts))
    samples = [
        [shuffled[(k * size + i) % len(shuffled)] for i in range(size)] for k in range(rounds)
    ]
    n = size * rounds
    warm = random.Random(1).sample(texts, min(50, len(texts)))
    cardlab_replay(warm)  # warm: imports, the first showdown
    pokerkit_replay(warm)
    print(f"timed: {rounds} samples of {size:,} hands, each engine in turn on each")
    print(rate_line("parsing", n, *in_turn(samples, cardlab_parse, pokerkit_parse)))
    print(rate_line("load + replay", n, *in_turn(samples, cardlab_replay, pokerkit_replay)))
    print(first_showdown(texts))
    if args.no_import:
        return
    with tempfile.TemporaryDirectory() as tmp:
        path, db = Path(tmp) / "hands.phhs", Path(tmp) / "hands.sqlite3"
        write_hands(texts, hands, path)
        size = path.stat().st_size / 2**20
        wall, cpu, peak, last = import_run(path, db)
        print(
            f"import of {hands:,} hands ({size:,.0f} MB): {wall:.1f} s wall, {cpu:.1f} s CPU, "
            f"peak memory {peak:,.0f} MB; {last}"
        )
        wall, cpu, peak, last = import_run(path, db)
        print(
            f"the same again (all stored): {wall:.1f} s wall, {cpu:.1f} s CPU, "
            f"peak memory {peak:,.0f} MB; {last}"
        )
    print(
        f"own peak memory (corpus and timings): "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB"
    )


if __name__ == "__main__":
    main()
