"""``cardlab openseven``: output shapes, play through CliRunner, and bad input (exit 2)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardlab.cli import main
from cardlab.cli.openseven import openseven


def run(*args: str, input: str | None = None) -> str:
    result = CliRunner().invoke(openseven, list(args), input=input, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_solve_json_shape() -> None:
    data = json.loads(run("solve", "2 3 1 5 7 4 6", "--format", "json"))
    assert data == {
        "arrangement": [2, 3, 1, 5, 7, 4, 6],
        "solutions": 52,
        "lines": 28,
        "per_start": [
            {"position": p, "solutions": 4 if p == 4 else 8, "lines": 4} for p in range(1, 8)
        ],
    }
    with_lines = json.loads(run("solve", "2 3 1", "--format", "json", "--with-lines"))
    assert with_lines["winning_lines"] == [[1, 2, 3], [2, 3, 1], [3, 1, 2]]


def test_solve_text_and_csv() -> None:
    text = run("solve", "2,3,1,5,7,4,6", "--limit", "3")
    assert "52 solutions, 28 winning lines" in text
    assert "4 3 7 2 5 1 6" not in text and "25 more" in text
    rows = list(csv.reader(io.StringIO(run("solve", "2 3 1", "--format", "csv"))))
    assert rows == [
        ["position", "solutions", "lines"],
        ["1", "2", "1"],
        ["2", "1", "1"],  # the middle start: no doubled step
        ["3", "2", "1"],
    ]


def test_table_json_shape() -> None:
    data = json.loads(run("table", "--cards", "7", "--format", "json"))
    assert data == {
        "cards": 7,
        "arrangements": 5040,
        "winnable": 3552,
        "distribution": [
            {"solutions": s, "arrangements": a}
            for s, a in [(52, 96), (39, 384), (26, 1152), (13, 1920), (0, 1488)]
        ],
    }
    assert run("table", "-n", "3", "--format", "csv") == "solutions,arrangements\n5,4\n0,2\n"
    assert "winnable: 3552 of 5040" in run("table")


def test_odds_json_shape() -> None:
    data = json.loads(run("odds", "--cards", "7", "--format", "json"))
    assert data["cards"] == 7
    assert list(data["models"]) == ["sighted_random", "optimal", "blind", "perfect_information"]
    optimal = data["models"]["optimal"]
    assert optimal == {"per_start": ["2/7"] * 3 + ["1/7"] + ["2/7"] * 3, "overall": "13/49"}
    assert data["models"]["blind"]["overall"] == "13/392"
    assert data["models"]["perfect_information"]["overall"] == "74/105"
    text = run("odds")
    assert "start 4 (middle)" in text and "13/49" in text
    assert "optimal,overall,13/49," in run("odds", "--format", "csv")
    big = json.loads(run("odds", "--cards", "52", "--format", "json"))
    assert big["models"]["optimal"]["overall"] == "1/26"


def test_export(tmp_path: Path) -> None:
    out = tmp_path / "six.csv"
    assert "wrote 720 arrangements" in run("export", "--cards", "6", "--out", str(out))
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 720 and rows[0]["arrangement"] == "1 2 3 4 5 6"
    assert sum(int(r["solutions"]) > 0 for r in rows) == 592


def test_simulate_is_seeded() -> None:
    args = ["simulate", "--cards", "7", "--games", "3000", "--seed", "4", "--format", "json"]
    first, second = json.loads(run(*args)), json.loads(run(*args))
    assert first == second
    assert first["exact"] == "13/49" and first["model"] == "sighted_random"
    text = run("simulate", "--games", "500", "--seed", "1", "--model", "blind")
    assert "±" in text and "13/392" in text


def test_sweep_with_plot(tmp_path: Path) -> None:
    png = tmp_path / "sweep.png"
    data = json.loads(run("sweep", "--max-cards", "9", "--plot", str(png), "--format", "json"))
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert data["rows"][6]["optimal"] == "13/49" and data["rows"][6]["winnable"] == 3552
    assert run("sweep", "--max-cards", "3", "--format", "csv").startswith("cards,arrangements")
    assert "perfect information" in run("sweep", "--max-cards", "4")


def test_play_to_a_win_with_hints() -> None:
    moves = "4\nright\nright\nright\nright\nright\nright\n"
    out = run("play", "--arrangement", "2 3 1 5 7 4 6", "--hints", input=moves)
    assert "hint: 1-3, 5-7: 2/7" in out and "hint: 4: 1/7" in out
    assert "You won!" in out and "The row was: 2 3 1 5 7 4 6" in out


def test_play_re_prompts_after_a_bad_move_and_can_lose() -> None:
    out = run("play", "--arrangement", "2 1 3", input="2\nup\nleft\n")
    assert "not a legal move" in out and "You lost" in out


def test_play_seeded_deal_and_scripted_json() -> None:
    first = run("play", "--cards", "5", "--seed", "9", "--moves", "1", "--format", "json")
    again = run("play", "--cards", "5", "--seed", "9", "--moves", "1", "--format", "json")
    assert first == again
    data = json.loads(first)
    assert data["turned"] == [1] and len(data["arrangement"]) == 5


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["solve", "1 2 2"], "not a permutation of 1..3: '1 2 2'"),
        (["solve", "1 x"], "'1 x'"),
        (["table", "--cards", "15"], "1..14: 15"),
        (["odds", "--cards", "0"], "1..60: 0"),
        (["export", "--cards", "12", "--out", "never.csv"], "1..11: 12"),
        (["simulate", "--model", "lucky"], "unknown model"),
        (["simulate", "--games", "0"], "at least 1"),
        (["play", "--arrangement", "2 1 3", "--moves", "2 left left"], "over"),
        (["play", "--arrangement", "1 2 3 4 5", "--moves", "5 left"], "already face up"),
        (["play", "--arrangement", "1 2 3", "--moves", "left"], "start position"),
        (["sweep", "--max-cards", "100"], "1..60"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["openseven", *args])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error:") and err.count("\n") == 1
    assert needle in err
    assert not Path("never.csv").exists()


def test_bad_input_through_the_console_script() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "cardlab", "openseven", "solve", "3 1"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr == "cardlab: error: not a permutation of 1..2: '3 1'\n"
