"""A command's first run answers by the serial twin of a parallel kernel the cache lacks,
while the parallel kernel is compiled in the background for the next run
(``cardlab._serial_first``): the twin's answer is the parallel kernel's, bit for bit, and
the first answer does not wait for the parallel compile."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cardlab import _serial_first
from cardlab.poker._kernels import sampling, vs_random
from cardlab.poker._kernels.tally import SHARE_UNIT
from cardlab.poker.equity import _cores, _parse_deal, _rest, _sample_arrays, tie_rate
from cardlab.poker.games import get_game
from cardlab.poker.plan import KernelPlan

SRC = Path(__file__).resolve().parents[1] / "src"

_PROBE = '''
"""A parallel kernel for the tests of cardlab._serial_first."""
import numba
import numpy as np


@numba.njit(cache=True, parallel=True)
def total(x):
    s = 0
    for i in numba.prange(x.shape[0]):
        s += x[i] * x[i]
    return s
'''

_CALL = """
import json, sys
import numpy as np
import cardlab
import probe_parallel
from cardlab import _serial_first

twin = _serial_first.twin(probe_parallel.total)
x = np.arange(1000, dtype=np.int64)
answer = _serial_first.call(probe_parallel.total, twin, (x,))
print(json.dumps({
    "answer": int(answer),
    "parallel": len(probe_parallel.total.signatures),
    "serial": len(twin.signatures),
}))
"""


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, CARDLAB_DAEMON="off", **extra)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")
    env["CARDLAB_CACHE_DIR"] = str(tmp_path / "cardlab")
    env["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), str(tmp_path)])
    for name in ("NUMBA_DISABLE_JIT", "CARDLAB_PREPARE", _serial_first.SWITCH):
        env.pop(name, None)
    env.update(extra)
    return env


def _indexed(root: Path, name: str) -> bool:
    """Whether numba's disk cache under ``root`` has an index of kernel ``name``
    (``module.function``: numba's file ``module.function-<line>.py311.nbi``)."""
    return any(root.rglob(f"{name}-*.nbi"))


def _text(path: Path) -> str:
    return path.read_text() if path.is_file() else ""


def _probe(tmp_path: Path, **extra: str) -> dict[str, int]:
    (tmp_path / "probe_parallel.py").write_text(_PROBE)
    done = subprocess.run(
        [sys.executable, "-c", _CALL],
        env=_env(tmp_path, **extra),
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    out: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def test_the_twin_answers_a_first_call_and_the_kernel_the_next(tmp_path: Path) -> None:
    squares = sum(i * i for i in range(1000))
    numba_dir = tmp_path / "numba"
    # off unless a command asked for it: the parallel kernel, compiled here
    (tmp_path / "off").mkdir()
    plain = _probe(tmp_path / "off")
    assert plain == {"answer": squares, "parallel": 1, "serial": 0}
    # asked, the kernel not in the cache: the twin answers; nothing compiled beside it
    first = _probe(tmp_path, CARDLAB_SERIAL_FIRST="1", CARDLAB_PREPARE="no-background")
    assert first == {"answer": squares, "parallel": 0, "serial": 1}
    assert _indexed(numba_dir, "probe_parallel.total_serial")
    assert not _indexed(numba_dir, "probe_parallel.total")
    # with the background compile: the parallel kernel lands in the cache after the answer
    again = _probe(tmp_path, CARDLAB_SERIAL_FIRST="1")
    assert again == {"answer": squares, "parallel": 0, "serial": 1}  # (loaded, not compiled)
    log = numba_dir / "prepare.log"
    deadline = time.monotonic() + 240
    while "kernel probe_parallel.total compiled" not in _text(log):
        assert time.monotonic() < deadline, _text(log)
        time.sleep(0.2)
    assert _indexed(numba_dir, "probe_parallel.total")
    # the next run finds it: the parallel kernel answers
    later = _probe(tmp_path, CARDLAB_SERIAL_FIRST="1")
    assert later == {"answer": squares, "parallel": 1, "serial": 0}


def _loop_arguments(game_name: str, hands: list[str], board: str = "") -> tuple[Any, ...]:
    game = get_game(game_name)
    deal = _parse_deal(game, hands, board, "")
    combos, n_combos, board_arr, base_used = _sample_arrays(game, deal)
    plan = KernelPlan.for_game(game)
    seeds = np.random.default_rng(3).integers(1, 2**62, size=4, dtype=np.int64)
    deck = len(game.deck)
    return (combos, n_combos, board_arr, base_used, deck, plan.arrays, plan.scalars, seeds, 5000)


@pytest.mark.parametrize(
    ("game", "hands", "loop"),
    [
        ("standard52-holdem", ["As Ac", "random"], "plain_loop"),
        ("fesca78-holdem", ["木1 火1", "random"], "dealt_loop"),
        ("standard52-holdem", ["QQ+", "AKs"], "ranges_loop"),
    ],
)
def test_each_sampling_loops_twin_deals_as_the_loop(game: str, hands: list[str], loop: str) -> None:
    args = _loop_arguments(game, hands)
    kernel = sampling.loop_for(args[1], args[4], args[6], False)
    serial = sampling._SERIAL[kernel]
    assert kernel.__name__ == loop and serial.py_func.__name__ == f"{loop}_serial"
    assert kernel.targetoptions.get("parallel") and not serial.targetoptions.get("parallel")
    assert np.array_equal(serial(*args), kernel(*args))  # the same deals, the same tallies


def test_the_twin_of_a_hand_against_a_random_hand_counts_as_it() -> None:
    game = get_game("standard52-holdem")
    deck = game.deck
    deal = _parse_deal(game, ["As Ah", "random"], "2c 9h Td", "")
    hole = np.array(deck.codes(deal.combos[0][0]), np.int64)
    board = np.array(deck.codes(deal.board), np.int64)
    rest = np.array(_rest(len(deck), hole, board, (), deck), np.int64)
    plan = KernelPlan.for_game(game)
    args = (hole, board, rest, plan.arrays, plan.scalars, _cores())
    parallel = vs_random.hand_vs_random(*args)
    assert np.array_equal(vs_random.hand_vs_random_serial(*args), parallel)
    # every deal once: two board cards of the 47 left, then two opponent cards of 45
    assert int(parallel[2].sum()) == math.comb(47, 2) * math.comb(45, 2) * SHARE_UNIT


@pytest.mark.slow
def test_a_first_ties_compiles_only_the_twins_and_answers_as_the_loops(tmp_path: Path) -> None:
    # 300,000 deals a suit setting: too many for the interpreted kernels, so it compiles;
    # the serial twins, not the parallel loops, and the same tallies as they give
    args = ["ties", "--game", "standard52-holdem", "--samples", "300000", "--seed", "2"]
    done = subprocess.run(
        [sys.executable, "-m", "cardlab", *args, "--format", "json"],
        env=_env(tmp_path, CARDLAB_PREPARE="no-background"),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    numba_dir = tmp_path / "numba"
    for loop in ("plain_loop", "dealt_loop"):
        assert _indexed(numba_dir, f"sampling.{loop}_serial")
        assert not _indexed(numba_dir, f"sampling.{loop}")  # not waited for
    first = json.loads(done.stdout)["games"][0]
    compiled = tie_rate(get_game("standard52-holdem"), samples=300_000, rng=2)
    assert first["split_with_suits"] == compiled.with_suits
    assert first["split_without_suits"] == compiled.without_suits
    assert first["split_without_suits_se"] == compiled.without_suits_se


def test_a_program_calling_the_command_line_keeps_the_parallel_kernels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(_serial_first.SWITCH, raising=False)
    _serial_first.enable()  # this process is pytest, not the cardlab command
    assert not _serial_first.enabled()


def test_off_means_every_kernel_compiled_as_before(tmp_path: Path) -> None:
    code = textwrap.dedent(
        """
        import sys
        sys.argv[0] = "cardlab"
        from cardlab import _serial_first
        _serial_first.enable()
        print(_serial_first.enabled())
        """
    )
    for prepare, expected in (("off", "False"), ("", "True")):
        done = subprocess.run(
            [sys.executable, "-c", code],
            env=_env(tmp_path, CARDLAB_PREPARE=prepare),
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        assert done.stdout.strip() == expected


@pytest.mark.parametrize("suits", [True, False], ids=["suits", "no-suits"])
def test_omahas_loop_without_mixwells_deals_as_the_general_one(suits: bool) -> None:
    # standard52's Omaha loop leaves out the Mixwell step and the path without look-ups
    # (omaha_key_plain): the same deals, the same tallies as the loop with both
    game = get_game("standard52-omaha").with_options(suit_tiebreak=suits)
    deal = _parse_deal(game, ["random", "random"], "", "")
    combos, n_combos, board_arr, base_used = _sample_arrays(game, deal)
    plan = KernelPlan.for_game(game)
    seeds = np.random.default_rng(5).integers(1, 2**62, size=4, dtype=np.int64)
    args = (combos, n_combos, board_arr, base_used, 52, plan.arrays, plan.scalars, seeds, 20_000)
    assert sampling.loop_for(n_combos, 52, plan.scalars, False) is sampling.omaha_loop
    plain = sampling._SERIAL[sampling.omaha_loop](*args)
    general = sampling._SERIAL[sampling.omaha_mixwell_loop](*args)
    assert np.array_equal(plain, general)
    assert int(plain[0].sum()) > 0
    assert suits or int(plain[1].sum()) > 0  # split pots without suit tie-breaks


@pytest.mark.slow
def test_a_first_report_compiles_omahas_loop_without_mixwells(tmp_path: Path) -> None:
    # cardlab report's first run (issue 35): standard52's Omaha split pots by the loop
    # without the Mixwell step, its serial twin, nothing of the general Omaha loop
    args = ["report", "--decks", "standard52", "--no-pushfold", "--workers", "0", "--no-cache"]
    args += ["--tie-samples", "20000", "--omaha-samples", "20000", "--seed", "4"]
    done = subprocess.run(
        [sys.executable, "-m", "cardlab", *args, "--out", str(tmp_path / "r.html")],
        env=_env(tmp_path, CARDLAB_PREPARE="no-background"),
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    numba_dir = tmp_path / "numba"
    assert _indexed(numba_dir, "sampling.omaha_loop_serial")
    assert not _indexed(numba_dir, "sampling.omaha_loop")  # not waited for
    assert not _indexed(numba_dir, "sampling.omaha_mixwell_loop")
    assert not _indexed(numba_dir, "sampling.omaha_mixwell_loop_serial")
