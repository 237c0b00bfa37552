"""``cardlab solve cfr``: output, JSON, saving, and bad input as one line (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardlab.cli import main


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = 0
    try:
        main(args)
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def test_text_output_gives_value_exploitability_time_and_strategy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = _run(["solve", "cfr", "--game", "kuhn", "-n", "2000"], capsys)
    assert code == 0 and err == ""
    assert "CFR+, 2000 iterations in" in out
    assert "game value: player 1 -0.05556, player 2 +0.05556 chips per hand" in out
    assert "mbb per hand" in out
    assert len([line for line in out.splitlines() if "│ Ks " in line]) == 4  # 4 nodes, the king


def test_json_output_and_out_file_hold_the_solution(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "leduc-fesca.json"
    code, out, _ = _run(
        [
            "solve",
            "cfr",
            "-g",
            "leduc",
            "-d",
            "FESCA78",
            "-n",
            "50",
            "--format",
            "json",
            "--out",
            str(saved),
        ],
        capsys,
    )
    assert code == 0
    data = json.loads(out)
    assert data == json.loads(saved.read_text("utf-8"))
    assert data["cards"] == ["水11", "陰陽11", "水12", "陰陽12", "水Z", "太極"]
    assert data["solver"] == "CFR+" and data["iterations"] == 50
    assert len(data["strategy"]) == 936
    first = data["strategy"][0]
    assert first["player"] == 1 and set(first["strategy"]) == {"check", "bet"}
    assert sum(first["strategy"].values()) == pytest.approx(1.0)


def test_a_target_stops_early(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        [
            "solve",
            "cfr",
            "-g",
            "kuhn",
            "-n",
            "100000",
            "--target-exploitability",
            "0.01",
            "--format",
            "json",
        ],
        capsys,
    )
    data = json.loads(out)
    assert code == 0 and data["iterations"] < 1000 and data["exploitability"] <= 0.01


def test_a_game_file_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "tiny.toml"
    path.write_text(
        'name = "tiny"\ndeck = "FESCA60"\nranks = 2\nsuits = 1\n[[rounds]]\nbet = 1\n', "utf-8"
    )
    code, out, _ = _run(["solve", "cfr", "-g", str(path), "-n", "200"], capsys)
    assert code == 0 and "tiny: 水11 水12 (FESCA60)" in out
    # the 12 always wins and the 11 folds to any bet (calling loses 2 chips, folding 1):
    # each player wins 1 chip half the time, value 0
    code, out, _ = _run(["solve", "cfr", "-g", str(path), "-n", "200", "--format", "json"], capsys)
    data = json.loads(out)
    assert abs(data["value"]) < 1e-3
    play = {(s["player"], s["history"], s["hand"]): s["strategy"] for s in data["strategy"]}
    assert play[2, "b", "水11"]["fold"] > 0.99 and play[1, "kb", "水11"]["fold"] > 0.99


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["-g", "chess"], "unknown game 'chess'"),
        (["-g", "kuhn", "-n", "0"], "iterations must be from 1"),
        (["-g", "kuhn", "-d", "nodeck"], "unknown deck 'nodeck'"),
        (["-g", "kuhn", "--target-exploitability", "-1"], "target exploitability must be above 0"),
        (["-g", "missing.toml"], "cannot read game file 'missing.toml'"),
        (["-g", "kuhn", "--out", "/no/such/dir/x.json"], "no directory"),
        (["-g", "kuhn", "--format", "xml"], "'xml' is not one of"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(["solve", "cfr", *args], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("cardlab: error:") and needle in err


def test_a_bad_game_file_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\ndeck = "standard52"\nrounds = [{bet = 0}]\n', "utf-8")
    code, _, err = _run(["solve", "cfr", "-g", str(path)], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "round 1 bet must be a whole number from 1" in err and "bad.toml" in err
