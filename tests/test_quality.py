"""Lint, format and type checks run with the tests so that CI holds them too."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> list[str]:
    """The tool installed beside this Python (its virtualenv, activated or not), else on
    the PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return [str(beside)]
    if shutil.which(name) is None:
        pytest.skip(f"{name} is not installed")
    return [name]


def test_ruff_lint() -> None:
    result = subprocess.run(
        [*_tool("ruff"), "check", "src", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = subprocess.run(
        [*_tool("ruff"), "format", "--check", "src", "tests", "benchmarks"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_package() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
