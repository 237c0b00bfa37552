"""The first run, continued: every process shares each kernel's compile (a lock per
kernel in numba's cache directory); a first sampled answer (``equity --samples``,
``ties``, a small ``arena``) does not wait for the compiled sampler and is its answer
(the kernels interpreted, ``cardlab.poker.uncompiled``); a web bot's decision while its
process prepares the sampler comes from the plain evaluator's Monte Carlo
(``cardlab.poker._plain_sampling``)."""

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
from cardlab.bots.arena import ArenaConfig, run_arena
from cardlab.poker import uncompiled
from cardlab.poker.equity import (
    RANDOM,
    exact_equity,
    plain_sample_equity,
    reference_equity,
    sample_equity,
    tie_rate,
)
from cardlab.poker.games import game_names, get_game

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


def _first_run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``cardlab ARGS`` on empty caches, no preparation started: what a first run after
    install answers (the kernels interpreted) and says on stderr."""
    done = subprocess.run(
        [sys.executable, "-m", "cardlab", *args],
        env=_fresh_env(tmp_path, CARDLAB_PREPARE="no-background"),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "in the background (first run after install" in done.stderr
    assert "RuntimeWarning" not in done.stderr  # the generators' wrap-around is silent
    assert not list((tmp_path / "numba").rglob("*.nbi"))  # no kernel compiled for it
    return done


def test_a_first_sampled_answer_is_the_compiled_samplers(tmp_path: Path) -> None:
    hands, board = ["As Ac", "7d 8d"], "2c 9h Td"
    args = ["equity", *hands, "--board", board, "--samples", "3000", "--seed", "1"]
    first = json.loads(_first_run(tmp_path, *args, "--format", "json").stdout)
    compiled = sample_equity(get_game("standard52-holdem"), hands, board, samples=3000, rng=1)
    assert first["exact"] is False and first["deals"] == compiled.deals == 3000
    for mine, theirs in zip(first["players"], compiled.players, strict=True):
        for field in ("win", "tie", "lose", "equity", "equity_se"):
            assert float(mine[field]) == getattr(theirs, field)  # the same deals, bit for bit


def test_a_first_ties_answer_is_the_compiled_samplers(tmp_path: Path) -> None:
    args = ["ties", "--game", "fesca78-holdem", "--samples", "2000", "--seed", "5"]
    first = json.loads(_first_run(tmp_path, *args, "--format", "json").stdout)["games"][0]
    compiled = tie_rate(get_game("fesca78-holdem"), samples=2000, rng=5)
    assert first["split_with_suits"] == compiled.with_suits
    assert first["split_without_suits"] == compiled.without_suits
    assert first["split_with_suits_se"] == compiled.with_suits_se
    assert compiled.with_suits < compiled.without_suits  # suits break ties: fewer splits


def test_a_first_arena_plays_the_compiled_bots_hands(tmp_path: Path) -> None:
    args = ["arena", "--bots", "equity,station", "--hands", "12", "--seed", "3", "--no-store"]
    first = json.loads(_first_run(tmp_path, *args, "--format", "json").stdout)
    config = ArenaConfig(game="fesca78-holdem", bots=("equity", "station"), hands=12, seed=3)
    compiled = run_arena(config, workers=1).as_dict()  # this process: compiled kernels
    assert first == json.loads(json.dumps(compiled))
    assert {b["name"] for b in first["bots"]} == {"equity", "station"}


def test_a_big_sample_still_compiles(tmp_path: Path) -> None:
    # over the interpreted budget (some 800,000 showdowns): the compiled sampler, as before
    holdem = get_game("standard52-holdem")
    assert uncompiled.sampling_quick([holdem], 200_000)
    assert not uncompiled.sampling_quick([holdem], 10_000_000)
    assert not uncompiled.sampling_quick([get_game("standard52-omaha")], 1_000)  # not measured
    every = [get_game(n) for n in game_names() if n.endswith("-holdem")]
    assert not uncompiled.sampling_quick(every, 8 * 4 * 200_000)  # `cardlab ties` by default


def test_a_hand_against_a_random_hand_compiles_each_part_once() -> None:
    # a callee first typed with a literal argument (``n = 0`` before a loop) was compiled
    # twice, for Literal[int](0) and for int64: 20 s of a first run's compile
    from cardlab.poker._kernels import direct, tally, vs_random

    exact_equity(get_game("standard52-holdem"), ["As Ah", RANDOM], board="2c 9h Td")
    kernels = (vs_random._part_a, vs_random._part_b, tally.multiset_prefixes, direct.groups_key)
    checked = 0
    for kernel in kernels:
        index = kernel._cache._cache_file._load_index()  # numba's index of the disk cache
        checked += bool(index)
        assert all("Literal" not in str(key[0]) for key in index), kernel.py_func.__name__
    if not checked:
        pytest.skip("the kernels were not written to numba's disk cache")
