"""Every benchmark script answers ``--help`` with its usage and stops: it parses its
arguments (argparse) before it starts any work, so a mistyped option never runs a
benchmark of many minutes (``phh_import.py --help`` once ran the whole import)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / "benchmarks").glob("*.py"))


def test_there_are_scripts() -> None:
    assert len(SCRIPTS) >= 10


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_help_prints_the_usage_and_stops(script: Path) -> None:
    # a benchmark that ran would print its figures before (or instead of) the usage, and
    # run for minutes: the timeout is a guard against a hang, not a measure of speed
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, str(script), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith(f"usage: {script.name}"), done.stdout[:500]
    assert "options:" in done.stdout
