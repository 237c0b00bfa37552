"""Every entry holds (issue 36, third pass): output to a full disk or a closed pipe,
closed stdin, the environment, junk options, huge numbers in files, names the OS refuses.
Each test failed before its fix.

Where the real process matters (descriptors, the interpreter's flush at exit, numba's
start) the runs are subprocesses; elsewhere in this process (:func:`_cli.run_cli`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from _cli import assert_answer_or_one_line, run_cli

DATA = Path(__file__).resolve().parent / "data"
PHH = DATA / "phh" / "pluribus-100-0.phh"
TIMEOUT = 300  # a first run may compile kernels


def cardlab(
    *args: str,
    stdout: int | None = subprocess.PIPE,
    stdin: int | None = subprocess.DEVNULL,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``cardlab ARGS`` in a process of its own, without a daemon."""
    return subprocess.run(
        [sys.executable, "-m", "cardlab", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        stdin=stdin,
        text=True,
        check=False,
        timeout=TIMEOUT,
        env={**os.environ, "CARDLAB_DAEMON": "off", **(env or {})},
    )


def one_line(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr[-3000:])
    err = result.stderr
    assert err.startswith("cardlab: error: ") and err.count("\n") == 1, err[-3000:]
    for needle in needles:
        assert needle in err, err


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("store") / "hands.sqlite3"
    result = cardlab("history", "--db", str(db), "import", str(PHH))
    assert result.returncode == 0, result.stderr
    return db


# -- 1. output to a full disk, or to a reader that went away ------------------------------

WRITERS = [
    ["decks"],
    ["--help"],
    ["poker", "rank", "-d", "standard52", "As Ks Qs Js Ts"],
    ["poker", "table", "-d", "standard52"],
    ["openseven", "odds"],
    ["verify", str(PHH)],
    ["history", "list", "--db", "{db}"],
    ["solve", "cfr"],
    ["replay", "--format", "json", str(PHH)],
    ["play", "--bots", "station", "--seats", "2", "--hands", "1", "--db", "{tmp}/p.sqlite3"],
]


@pytest.mark.parametrize("args", WRITERS, ids=lambda a: " ".join(a[:2]))
def test_output_to_a_full_disk_is_one_line(args: list[str], store: Path, tmp_path: Path) -> None:
    argv = [a.format(db=store, tmp=tmp_path) for a in args]
    with open("/dev/full", "w") as full:
        result = cardlab(*argv, stdout=full.fileno())
    one_line(result, "cannot write to standard output: No space left on device")


@pytest.mark.parametrize(
    "args", [["poker", "table", "-d", "standard52"], ["--help"], ["decks"]], ids=str
)
def test_a_reader_that_went_away_is_a_quiet_exit_0(args: list[str]) -> None:
    """Rich's tables and click's text alike (rich said 1, the others 0)."""
    read, write = os.pipe()
    os.close(read)
    try:
        result = cardlab(*args, stdout=write)
    finally:
        os.close(write)
    assert (result.returncode, result.stderr) == (0, "")


def test_full_disk_in_this_process_is_one_line() -> None:
    code, out, err = run_cli(["decks"], full_disk=True)
    assert_answer_or_one_line(code, out, err, codes=(2,))
    assert "No space left on device" in err
