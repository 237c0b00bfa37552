"""The command line's shared behaviour: help, and bad input as one line with exit code 2."""

import subprocess
import sys

import pytest

from cardlab.cli import main


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardlab", *args], capture_output=True, text=True, check=False
    )


def test_help_lists_commands() -> None:
    result = run("--help")
    assert result.returncode == 0
    assert "Usage: cardlab" in result.stdout


def test_unknown_command_is_one_line_exit_2() -> None:
    result = run("no-such-command")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "no-such-command" in result.stderr
    assert "Traceback" not in result.stderr


def test_main_exits_2_on_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--no-such-option"])
    assert info.value.code == 2
    assert capsys.readouterr().err.startswith("cardlab: error:")


@pytest.mark.slow
def test_a_first_run_says_what_compiles_and_a_later_run_does_not(tmp_path: object) -> None:
    """With an empty compiled-code cache (a fresh install), the command says on stderr what
    it prepares and about how long it takes; with the cache filled it says nothing."""
    env = {**__import__("os").environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    args = [sys.executable, "-m", "cardlab", "draw", "-g", "standard52-draw", "As Ks Qs 7h 2c"]
    bad = subprocess.run([*args[:-1], "As Ks"], capture_output=True, text=True, env=env)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1  # bad input: no notice
    first = subprocess.run(args, capture_output=True, text=True, env=env, check=True)
    assert "preparing the draw kernels (first run after install, about" in first.stderr
    assert "keep" in first.stdout
    again = subprocess.run(args, capture_output=True, text=True, env=env, check=True)
    assert again.stderr == "" and again.stdout == first.stdout
