"""``cardlab equity`` and ``ties``: bounded work, Ctrl-C, clean refusals, quiet stderr."""

import signal
import subprocess
import sys
import time

import pytest

from cardlab.poker.equity import ExactTooBig, exact_cost, exact_equity, sample_equity
from cardlab.poker.games import get_game


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardlab", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def _one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stderr
    lines = [x for x in result.stderr.splitlines() if not x.startswith("cardlab: preparing")]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("cardlab: error:")
    assert "Traceback" not in result.stderr
    return lines[0]


def _like_a_terminal() -> None:
    """In the child, before cardlab starts: SIGINT unblocked and at its default, as a
    shell starts a command (a test process may carry a blocked or ignored SIGINT from
    an earlier test's threads, which the child would inherit and never see Ctrl-C)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(
    "args",
    [
        ("equity", "As Ah", "Ks Kh", "--samples", "1000", "--seed", "-1"),
        ("ties", "-g", "standard52-holdem", "--samples", "1000", "--seed", "-1"),
    ],
)
def test_negative_seed_is_refused(args: tuple[str, ...]) -> None:
    assert "--seed" in _one_error_line(run(*args))


@pytest.mark.parametrize(
    "args",
    [
        ("equity", "QQ+", "QQ+", "QQ+"),
        ("equity", "-g", "fesca78-holdem", "木12 火3", "random", "--exact"),
    ],
)
def test_huge_exact_work_is_refused_with_an_estimate(args: tuple[str, ...]) -> None:
    line = _one_error_line(run(*args))
    assert "showdowns" in line and "--samples" in line


def test_exact_cost_counts_the_deal() -> None:
    holdem = get_game("standard52-holdem")
    showdowns, seconds = exact_cost(holdem, ["As Ah", "Ks Kh"])
    assert showdowns == 1_712_304  # C(48, 5)
    assert 0 < seconds < 60
    fesca = get_game("fesca78-holdem")
    showdowns, _ = exact_cost(fesca, ["木12 火3", "random"])
    assert showdowns == 2_850 * 16_108_764  # C(76, 2) hands, C(74, 5) boards each
    with pytest.raises(ExactTooBig, match="sample instead"):
        exact_equity(fesca, ["木12 火3", "random"])


def test_a_normal_run_leaves_stderr_empty() -> None:
    result = run("equity", "As Ah", "Ks Kh", "-b", "2c 3d 4h 5s")
    assert result.returncode == 0, result.stderr
    # nothing but, on the first run of an install, the line saying kernels compile
    assert all(x.startswith("cardlab: preparing") for x in result.stderr.splitlines())
    assert "\n\n" not in result.stderr and result.stderr.strip() == result.stderr.rstrip("\n")


@pytest.mark.parametrize(
    "args",
    [
        ("equity", "As Ah", "Ks Kh", "--samples", "10000000000", "--seed", "1"),
        ("ties", "-g", "standard52-holdem", "--samples", "10000000000"),
    ],
)
def test_ctrl_c_stops_a_long_run(args: tuple[str, ...]) -> None:
    # load (or compile) the kernels here, so that the child is inside them when hit
    sample_equity(get_game("standard52-holdem"), ["As Ah", "Ks Kh"], samples=1000, rng=0)
    child = subprocess.Popen(
        [sys.executable, "-m", "cardlab", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_like_a_terminal,
    )
    time.sleep(5)
    assert child.poll() is None, child.communicate()
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=20)  # stops within the chunk under way
    assert child.returncode == 130, err
    assert err.strip().splitlines()[-1] == "cardlab: interrupted"
    assert "Traceback" not in err
