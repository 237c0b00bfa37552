"""The first run, continued: every process shares each kernel's compile (a lock per
kernel in numba's cache directory), and a sampled answer does not wait for the compiled
sampler (the plain evaluator's Monte Carlo, ``cardlab.poker._plain_sampling``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest

from cardlab import _prepare
from cardlab.poker.equity import (
    plain_sample_applies,
    plain_sample_equity,
    reference_equity,
    sample_equity,
)
from cardlab.poker.games import get_game

SRC = Path(__file__).resolve().parents[1] / "src"

_PROBE = '''
"""A kernel for the tests of cardlab._prepare."""
import numba


@numba.njit(cache=True)
def triple(x):
    return 3 * x
'''

# import cardlab first (it patches numba's dispatcher), then a kernel outside cardlab
_CALL = """
import sys, time
from pathlib import Path
import cardlab
import probe_kernels
print("ready", flush=True)
gate = Path(sys.argv[1])
while not gate.exists():
    time.sleep(0.01)
assert probe_kernels.triple(14) == 42
print(sum(probe_kernels.triple.stats.cache_misses.values()), flush=True)
"""


def _fresh_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, CARDLAB_DAEMON="off", **extra)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")
    env["CARDLAB_CACHE_DIR"] = str(tmp_path / "cardlab")
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), str(tmp_path)])
    env.pop("NUMBA_DISABLE_JIT", None)
    return env


def test_processes_calling_a_kernel_at_once_compile_it_once(tmp_path: Path) -> None:
    # no kernel set, no preparation: any process that calls a cached kernel (a Dask
    # worker, a daemon's child) takes the kernel's lock, so one compiles, two load
    (tmp_path / "probe_kernels.py").write_text(textwrap.dedent(_PROBE))
    env = _fresh_env(tmp_path)
    gate = tmp_path / "go"
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _CALL, str(gate)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    for child in children:
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
    gate.touch()
    misses = []
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0, err
        misses.append(int(out))
    assert sorted(misses) == [0, 0, 1]  # numba's own count of its cache misses
    log = (tmp_path / "numba" / _prepare.LOG).read_text().splitlines()
    assert [line.split()[4] for line in log] == ["probe_kernels.triple"]
    assert (tmp_path / "numba" / "locks" / "probe_kernels.triple.lock").is_file()


def test_the_dispatcher_is_patched_once_numba_is_imported() -> None:
    import numba.core.dispatcher

    assert getattr(numba.core.dispatcher.Dispatcher.compile, "cardlab_shared", False)


def _close(sampled: float, exact: float, se: float) -> bool:
    return abs(sampled - exact) <= 4.5 * se + 1e-12


@pytest.mark.parametrize(
    ("game_name", "hands", "board"),
    [
        ("standard52-holdem", ["As Ac", "7d 8d"], "2c 9h Td"),
        ("standard52-holdem", ["As Ah", "Ks Kh", "Qd Jd"], "2c 9h Td"),
        ("standard52-holdem", ["As Ah", "random"], "2c 9h Td Kd 3s"),
        ("fesca78-holdem", ["木1 火1", "水12 金11"], "木2 火3 水4 金5"),
    ],
)
def test_the_plain_sampler_agrees_with_the_exact_equity(
    game_name: str, hands: list[str], board: str
) -> None:
    game = get_game(game_name)
    exact = reference_equity(game, hands, board)  # every board, the reference evaluator
    sampled = plain_sample_equity(game, hands, board, samples=3000, rng=7)
    assert not sampled.exact and sampled.deals == 3000
    for mine, theirs in zip(sampled.players, exact.players, strict=True):
        assert mine.equity_se is not None and mine.win_se is not None
        assert _close(mine.equity, float(theirs.equity), max(mine.equity_se, 1e-3))
        assert _close(mine.win, float(theirs.win), max(mine.win_se, 1e-3))


def test_the_plain_sampler_takes_complete_or_random_hands() -> None:
    holdem = get_game("standard52-holdem")
    assert plain_sample_applies(holdem, ["As Ac", "random"])
    assert not plain_sample_applies(holdem, ["AA", "random"])  # a range: the kernels
    assert not plain_sample_applies(holdem, ["As Ax", "random"])  # bad input: the question's
    stud = get_game("standard52-stud")
    assert not plain_sample_applies(stud, ["As Ac Kd", "random"])  # a partial Stud hand


def test_the_plain_sampler_stops_at_a_target_standard_error() -> None:
    game = get_game("standard52-holdem")
    result = plain_sample_equity(game, ["As Ac", "random"], "2c 9h Td Kd 3s", target_se=0.02)
    assert result.target_reached is True
    assert 2_000 <= result.deals < 5_000  # checked from 2,000 deals, every thousand
    assert max(p.equity_se or 0 for p in result.players) <= 0.02


def test_a_small_sample_does_not_wait_for_a_preparation_in_a_thread() -> None:
    # a web process's bots while its thread prepares the compiled sampler: the decision
    # (800 deals) is settled by the plain evaluator, not held until the compile ends
    release = threading.Event()
    thread = _prepare.in_thread(lambda: release.wait(60))
    try:
        game = get_game("standard52-holdem")
        result = sample_equity(game, ["As Ah", "random"], "2c 9h Td Kd 3s", samples=800, rng=3)
        assert not release.is_set() and thread.is_alive()  # answered meanwhile
        exact = reference_equity(game, ["As Ah", "random"], "2c 9h Td Kd 3s")
        assert result.deals == 800 and not result.exact
        se = result.players[0].equity_se or 1e-3
        assert _close(result.players[0].equity, float(exact.players[0].equity), se)
    finally:
        release.set()
        thread.join(10)


def test_a_first_sampled_answer_comes_from_the_plain_evaluator(tmp_path: Path) -> None:
    env = _fresh_env(tmp_path, CARDLAB_PREPARE="no-background")
    hands, board = ["As Ac", "7d 8d"], "2c 9h Td"
    args = ["equity", *hands, "--board", board, "--samples", "3000", "--seed", "1"]
    done = subprocess.run(
        [sys.executable, "-m", "cardlab", *args, "--format", "json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "sampled by the plain evaluator" in done.stderr
    assert not list((tmp_path / "numba").rglob("*.nbi"))  # nothing compiled for it
    first = json.loads(done.stdout)
    assert first["exact"] is False and first["deals"] == 3000
    exact = reference_equity(get_game("standard52-holdem"), hands, board)
    for mine, theirs in zip(first["players"], exact.players, strict=True):
        assert _close(float(mine["equity"]), float(theirs.equity), float(mine["equity_se"]))
