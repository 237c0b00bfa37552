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
