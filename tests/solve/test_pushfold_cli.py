"""``cardlab solve pushfold``: text, JSON, the chart (text and PNG), the cache, bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.cli import main

DUO = str(Path(__file__).parent.parent / "data" / "decks" / "duo14.toml")


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = 0
    try:
        main(args)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def _args(tmp_path: Path, *more: str) -> list[str]:
    return ["solve", "pushfold", "--game", "holdem", "--deck", DUO, "--workers", "0",
            "--cache", str(tmp_path), *more]  # fmt: skip


def test_text_and_json_agree(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(_args(tmp_path, "--stack", "10"), capsys)
    assert code == 0 and err == ""
    assert "duo14-holdem: heads-up push/fold, 10 big blinds" in out
    assert "class matrix: 49 classes, equities exact" in out
    assert "mbb per hand" in out and "small blind pushes 62.6% of hands" in out
    code, out, _ = _run(_args(tmp_path, "--stack", "10", "--format", "json"), capsys)
    data = json.loads(out)
    assert code == 0 and data["stack"] == 10 and data["matrix"]["exact"] is True
    assert data["push_share"] == pytest.approx(0.626, abs=5e-4)
    assert data["exploitability"] < 1e-5
    by_class = {row["class"]: row for row in data["classes"]}
    assert len(by_class) == 49 and by_class["AA"]["push"] == 1.0
    hands = sum(r["hands"] for r in data["classes"])
    pushed = sum(r["hands"] * r["push"] for r in data["classes"]) / hands
    assert pushed == pytest.approx(data["push_share"], abs=1e-3)
    assert list((tmp_path / "pushfold").glob("*.json"))  # the matrix is kept


def test_chart_text_and_png(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "grid.png"
    code, out, err = _run(_args(tmp_path, "--chart", str(png)), capsys)
    assert code == 0 and err == ""
    assert "small blind pushes up to" in out and "big blind calls up to" in out
    rows = [line.split() for line in out.splitlines() if line.split()[:1] == ["A"]]
    assert rows[0] == ["A", "K", "Q", "J", "T", "9", "8"]  # the header: ranks high first
    assert rows[1][:2] == ["A", "25+"]  # AA pushes at every stack
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, out, _ = _run(_args(tmp_path, "--chart", "--format", "json"), capsys)
    data = json.loads(out)
    assert code == 0 and data["stacks"][0] == 1.0 and data["stacks"][-1] == 25.0
    assert {r["class"]: r["push"] for r in data["classes"]}["AA"] == 25.0


@pytest.mark.parametrize(
    ("more", "message"),
    [
        (["--stack", "30"], "push/fold stacks are 1 to 25 big blinds, got 30"),
        ([], "give the stack in big blinds"),
        (["--stack", "5", "--ante", "-1"], "ante"),
        (["--stack", "5", "--se", "0"], "--se is a standard error"),
        (["--chart", "grid.txt"], ".png"),
    ],
)
def test_bad_input_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], more: list[str], message: str
) -> None:
    code, out, err = _run(_args(tmp_path, *more), capsys)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_not_holdem_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(["solve", "pushfold", "--game", "standard52-omaha", "--stack", "5"], capsys)
    assert code == 2 and "Hold'em" in err and len(err.strip().splitlines()) == 1
