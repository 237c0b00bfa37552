"""``cardlab decks``: listing, grids, JSON, and one-line errors."""

import json

import pytest

from cardlab.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    main(list(args))
    return capsys.readouterr().out


def test_list_json(capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(run(capsys, "decks", "--format", "json"))
    assert {d["name"]: d["cards"] for d in data["decks"]}["FESCA78"] == 78


def test_show_text_and_csv(capsys: pytest.CaptureFixture[str]) -> None:
    text = run(capsys, "decks", "show", "FESCA78")
    assert "太極" in text and "水12" in text
    csv_text = run(capsys, "decks", "show", "TESCA54", "--format", "csv", "--ascii")
    assert csv_text.splitlines()[3].startswith("D,")
    assert csv_text.splitlines()[3].endswith(",DZ")


def test_unknown_deck_is_one_line_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["decks", "show", "FESCA99"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "FESCA99" in err
