"""Rendering of best-of-k and Omaha tables for ``cardlab poker table``."""

import csv
import io
import json

import pytest

from cardlab.cli import main
from cardlab.cli._tables7 import count_table, show_table
from cardlab.errors import GameError
from cardlab.poker import RuleSet


def test_text_output_flags_inversions(capsys: pytest.CaptureFixture[str]) -> None:
    show_table(RuleSet.for_deck("standard52"), "text", hand_size=6)
    out = capsys.readouterr().out
    assert "best five of 6 cards, 20,358,520 hands (exact, combinatorial)" in out
    assert "9,730,740" in out  # one pair, best of six
    assert "one pair > no hand" in out


def test_json_output(capsys: pytest.CaptureFixture[str]) -> None:
    show_table(RuleSet.for_deck("FESCA42"), "json", hand_size=6)
    data = json.loads(capsys.readouterr().out)
    assert data["deck"] == "FESCA42" and data["game"] == "best-of-6"
    assert data["exact"] is True and data["method"] == "combinatorial"
    assert sum(row["count"] for row in data["hands"]) == data["combinations"] == 5_245_786
    first = data["hands"][0]
    assert first["order"] == 1 and "/" in first["probability"]


def test_csv_output_of_a_sampled_omaha_table(capsys: pytest.CaptureFixture[str]) -> None:
    show_table(RuleSet.for_deck("FESCA78"), "csv", game="omaha", samples=5_000, seed=2)
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {r["exact"] for r in rows} == {"no"}
    assert sum(int(r["count"]) for r in rows) == 5_000
    assert all(float(r["std_error"]) >= 0 for r in rows)


def test_sampled_text_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    show_table(RuleSet.for_deck("standard52"), "text", game="omaha", samples=2_000, seed=1)
    out = capsys.readouterr().out
    assert "sampled: 2,000 deals, seed 1" in out and "standard error" in out


def test_progress_bar_runs() -> None:
    table = count_table(RuleSet.for_deck("FESCA42"), hand_size=6, show_progress=True)
    assert table.exact


def test_unknown_game() -> None:
    with pytest.raises(GameError, match="unknown game 'razz'"):
        count_table(RuleSet.for_deck("FESCA42"), game="razz")


def test_poker_table_command(capsys: pytest.CaptureFixture[str]) -> None:
    main(["poker", "table", "--deck", "FESCA42", "--hand-size", "6", "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "best-of-6" and data["combinations"] == 5_245_786


def test_poker_table_command_error_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["poker", "table", "--deck", "FESCA78", "--game", "omaha", "--seed", "-1"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("cardlab: error: ") and err.count("\n") == 1
    assert "--seed" in err and "-1" in err


def test_readme_tells_the_fesca78_inversions_the_command_prints() -> None:
    """README's sentence on the seven-card table lists exactly the table's inversions."""
    from math import comb
    from pathlib import Path

    readme = " ".join((Path(__file__).parents[2] / "README.md").read_text("utf-8").split())
    table = count_table(RuleSet.for_deck("FESCA78"), hand_size=7, show_progress=False)
    assert table.hands == comb(78, 7) and f"{comb(78, 7):,} seven-card hands" in readme
    words = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
    assert f"in FESCA78 {words[len(table.inversions)]} inversions" in readme
    said = readme.split("in FESCA78 ", 1)[1].split(". ", 1)[0]
    for stronger, weaker in table.inversions:
        assert stronger.english in said and weaker.english in said, (stronger, weaker, said)
