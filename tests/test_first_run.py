"""The first run on empty caches: the first exact equity does not wait for the compile,
and processes started at once compile the kernels once (``cardlab._prepare``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
from fractions import Fraction
from pathlib import Path

import pytest

from cardlab import _prepare
from cardlab.poker.equity import exact_equity, quick_uncompiled
from cardlab.poker.games import get_game

SRC = Path(__file__).resolve().parents[1] / "src"


def _fresh_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = dict(os.environ, CARDLAB_DAEMON="off", **extra)
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "numba")
    env["CARDLAB_CACHE_DIR"] = str(tmp_path / "cardlab")
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), *filter(None, [env.get("PYTHONPATH")])])
    env.pop("NUMBA_DISABLE_JIT", None)
    return env


def _compiled_files(root: Path) -> list[Path]:
    return sorted(root.rglob("*.nbi")) if root.is_dir() else []


def test_a_fresh_cache_answers_without_compiling_and_as_the_kernels_do(tmp_path: Path) -> None:
    env = _fresh_env(tmp_path, CARDLAB_PREPARE="no-background")
    hands = ["As Ac", "7d 8d"]
    done = subprocess.run(
        [sys.executable, "-m", "cardlab", "equity", *hands, "--format", "json"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "preparing the equity kernels in the background" in done.stderr
    assert _compiled_files(tmp_path / "numba") == []  # nothing was compiled for the answer
    first = json.loads(done.stdout)
    kernel = exact_equity(get_game("standard52-holdem"), hands)  # compiled, this process
    assert first["exact"] is True and first["deals"] == kernel.deals == 1_712_304
    for mine, theirs in zip(first["players"], kernel.players, strict=True):
        for field in ("win", "tie", "lose", "equity"):
            assert Fraction(mine[field]) == getattr(theirs, field)


def test_with_the_kernels_in_the_cache_the_answer_is_compiled(tmp_path: Path) -> None:
    # a cache holding the question's kernels: no interpreted answer, no notice
    (tmp_path / "numba" / "kernels").mkdir(parents=True)
    for kernel in _prepare.SETS["exact"].kernels:
        name = ".".join(kernel.split(".")[-2:])
        (tmp_path / "numba" / "kernels" / f"{name}-1.py311.nbi").touch()
    code = (
        "from cardlab import _prepare\n"
        "print(_prepare.in_cache('exact'), _prepare.in_cache('equity'),"
        " _prepare.answer_interpreted('exact'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=_fresh_env(tmp_path, CARDLAB_PREPARE="no-background"),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.split() == ["True", "False", "False"]


def test_a_program_calling_the_command_line_keeps_its_compiler(tmp_path: Path) -> None:
    # a program of its own asking on an empty cache (as the tests run commands through
    # click's runner): nothing switched, nothing started
    code = (
        "import os\nfrom cardlab import _prepare\n"
        "print(_prepare.command_process(), _prepare.answer_interpreted('exact'),"
        " 'NUMBA_DISABLE_JIT' in os.environ)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=_fresh_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.split() == ["False", "False", "False"]
    assert not (tmp_path / "numba" / _prepare.LOG).exists()  # no preparation started


@pytest.mark.parametrize(
    ("game", "hands", "options", "quick"),
    [
        ("standard52-holdem", ["As Ac", "7d 8d"], {}, True),
        ("standard52-holdem", ["As Ac", "7d 8d", "Kh Qh"], {}, True),
        ("standard52-holdem", ["As Ac", "7d 8d"], {"exact": True}, True),
        ("standard52-holdem", ["As Ac", "7d 8d", "Kh Qh", "2c 2d"], {}, False),
        ("standard52-holdem", ["As Ac", "random"], {}, False),
        ("standard52-holdem", ["QQ+", "AKs"], {}, False),
        ("standard52-holdem", ["As Ac", "7d 8d"], {"samples": 1000}, False),
        ("standard52-holdem", ["As Ac", "7d 8d"], {"exact": False}, False),
        ("standard52-holdem", ["As Ac", "As 8d"], {}, False),  # bad input: reported later
        ("standard52-holdem", ["As Ac", "7d 8d"], {"board": "2c 3c 4d"}, False),  # plain code
        ("fesca78-holdem", ["木1 火1", "水12 金11"], {}, True),
        ("fesca78-holdem", ["木1 火1", "水12 金11", "木2 火2"], {}, False),
        ("standard52-omaha", ["As Ac Kd Kh", "7d 8d 9c Tc"], {}, False),
    ],
)
def test_which_questions_the_plain_kernels_answer(
    game: str,
    hands: list[str],
    options: dict[str, object],
    quick: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # as in a new process: whether the compiled showdown loops are loaded already
    # (another test in this worker may have loaded them) changes the answer for a board
    monkeypatch.delitem(sys.modules, "cardlab.poker._kernels.showdowns", raising=False)
    assert quick_uncompiled(get_game(game), hands, **options) is quick  # type: ignore[arg-type]


_PROBE = '''
"""A kernel for the tests of cardlab._prepare."""
import numba


@numba.njit(cache=True)
def double(x):
    return 2 * x


def run():
    double(21)
'''

_PREPARE = """
import sys, time
from pathlib import Path
from cardlab import _prepare
import probe_kernels
_prepare.SETS["probe"] = _prepare.KernelSet(("probe_kernels.double",), "probe_kernels:run")
print("ready", flush=True)
gate = Path(sys.argv[1])
while not gate.exists():
    time.sleep(0.01)
_prepare.prepare("probe")
print(sum(probe_kernels.double.stats.cache_misses.values()), flush=True)
"""


def test_processes_started_at_once_compile_once(tmp_path: Path) -> None:
    (tmp_path / "probe_kernels.py").write_text(textwrap.dedent(_PROBE))
    env = _fresh_env(tmp_path)
    env["PYTHONPATH"] += os.pathsep + str(tmp_path)
    gate = tmp_path / "go"
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _PREPARE, str(gate)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    for child in children:  # every process has started and imported numba
        assert child.stdout is not None and child.stdout.readline() == "ready\n"
    gate.touch()  # then all three ask at once
    misses = []
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0, err
        misses.append(int(out))
    assert sorted(misses) == [0, 0, 1]  # numba's own count: one compile, two loads
    log = (tmp_path / "numba" / _prepare.LOG).read_text().splitlines()
    sets = [line.split()[3] for line in log if line.split()[3] != "kernel"]
    assert sorted(sets) == ["compiled", "found", "found"]


def test_the_lock_is_seen_from_another_process(tmp_path: Path) -> None:
    root = tmp_path / "numba"
    assert not _prepare.preparing(root)
    with _prepare.machine_lock(root):
        code = (
            "from pathlib import Path\nfrom cardlab import _prepare\n"
            f"print(_prepare.preparing(Path({str(root)!r})))"
        )
        done = subprocess.run(
            [sys.executable, "-c", code],
            env=_fresh_env(tmp_path),
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        )
        assert done.stdout.strip() == "True"
    assert not _prepare.preparing(root)


def test_a_preparation_in_a_thread_holds_the_other_threads() -> None:
    import threading

    order: list[str] = []
    release = threading.Event()

    def work() -> None:
        release.wait(10)
        order.append("prepared")

    thread = _prepare.in_thread(work)
    waiter = threading.Thread(target=lambda: (_prepare.wait_in_process(), order.append("asked")))
    waiter.start()
    time.sleep(0.05)
    assert order == []  # the asking thread waits
    release.set()
    waiter.join(10)
    thread.join(10)
    assert order == ["prepared", "asked"]


def test_a_background_preparation_runs_detached_and_logs_beside_the_cache(tmp_path: Path) -> None:
    # a set the child does not know: it says so in one line, which goes to the log (its
    # standard error) while the starter has long returned
    code = "from cardlab import _prepare; print(_prepare.start_in_background('nothing'))"
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=_fresh_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.strip() == "True"
    log = tmp_path / "numba" / _prepare.LOG
    deadline = time.monotonic() + 120
    while "no kernel set" not in (log.read_text() if log.exists() else ""):
        assert time.monotonic() < deadline, "the background process never ran"
        time.sleep(0.1)
    assert (
        log.read_text().strip() == "cardlab: no kernel set 'nothing' (known: exact, equity, bots)"
    )


def test_an_unknown_set_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert _prepare.main(["nothing"]) == 2
    assert capsys.readouterr().err.strip().startswith("cardlab: no kernel set 'nothing'")


@pytest.mark.slow
def test_the_bots_kernels_compile_once_in_the_background_and_beside_it(tmp_path: Path) -> None:
    """A real set on an empty cache: a background preparation and two processes asking
    at once: one compiles (numba's cache misses, in the log), the others load."""
    env = _fresh_env(tmp_path)
    starter = subprocess.run(
        [
            sys.executable,
            "-c",
            "from cardlab import _prepare; print(_prepare.start_in_background('bots'))",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert starter.stdout.strip() == "True"
    others = [
        subprocess.Popen(
            [sys.executable, "-m", "cardlab._prepare", "bots"], env=env, stderr=subprocess.PIPE
        )
        for _ in range(2)
    ]
    for child in others:
        _, err = child.communicate(timeout=1800)
        assert child.returncode == 0, err
    root = tmp_path / "numba"
    deadline = time.monotonic() + 1800
    while _prepare.preparing(root) and time.monotonic() < deadline:
        time.sleep(1)
    log = (root / _prepare.LOG).read_text().splitlines()
    outcomes = sorted(line.split()[3] for line in log if " bots " in line)
    assert outcomes == ["compiled", "found", "found"], log
