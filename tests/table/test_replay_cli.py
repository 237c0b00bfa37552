"""``cardlab replay``: text and JSON of real files, one-line errors naming the hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.cli import cli

DATA = Path(__file__).parent.parent / "data" / "phh"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_replay_text_shows_streets_and_result() -> None:
    code, out, _ = run("replay", str(DATA / "dwan-ivey-2009.phh"))
    assert code == 0
    assert "turn 4h" in out and "Tom Dwan wins 1109500 (ranks)" in out
    assert "+556000" in out


def test_replay_json_of_a_phhs_file() -> None:
    code, out, _ = run("replay", str(DATA / "abs-nlh-handhq-1-first10.phhs"), "--format", "json")
    assert code == 0
    hands = json.loads(out)["hands"]
    assert len(hands) == 10
    first = hands[0]
    assert first["variant"] == "NT" and first["game"] == "standard52-holdem"
    assert first["hand"] == 1 and first["line"] == 1
    assert first["starting_stacks"] == [200.3, 81.6, 197]
    assert first["finishing_stacks"] == [201.3, 80.6, 197]
    assert first["net"] == [1, -1, 0]
    assert first["winnings"] == [2, 0, 0]  # collected: the file's own figure (no rake here)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("variant = 'NT'\n", "starting_stacks|required"),
        (
            (DATA / "dwan-ivey-2009.phh").read_text().replace('"p3 cbr 7000"', '"p3 cbr 1"'),
            r"hand 1 \(line 1\): actions\[\d+\] 'p3 cbr 1'",
        ),
        ((DATA / "pluribus-100-0.phh").read_text().replace("'NT'", "'ZZ'", 1), "not played by"),
    ],
)
def test_a_hand_that_does_not_replay_is_listed_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    import re

    from cardlab.cli import main

    path = tmp_path / "bad.phh"
    path.write_text(text)
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(path), "--format", "json"])
    assert exc.value.code == 1
    captured = capsys.readouterr()
    (entry,) = json.loads(captured.out)["hands"]
    assert set(entry) == {"hand", "line", "error"} and re.search(message, entry["error"])
    lines = captured.err.splitlines()
    assert len(lines) == 2 and re.search(message, lines[0])
    assert lines[1] == "cardlab: 1 of 1 hands do not replay"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        (b"", "no hand"),
        (b"\xff\xfe variant", "not UTF-8"),
        (b"# only a comment\n", "no hand"),
        (b"not toml at all [", "not valid TOML"),  # a one-hand file that is not TOML
        (b"antes = [0, 0]\n[1]\nvariant = 'NT'\n", "keys come before its first table"),
    ],
)
def test_a_file_that_cannot_be_read_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, message: str
) -> None:
    from cardlab.cli import main

    path = tmp_path / "bad.phhs"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(SystemExit) as exc:
        main(["replay", str(path)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("cardlab: error:") and message in err


@settings(max_examples=50, deadline=None)
@given(st.text(max_size=300))
def test_replay_of_any_text_is_a_result_or_one_line(text: str) -> None:
    import contextlib
    import io
    import tempfile

    from cardlab.cli import main

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "fuzz.phh"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                main(["replay", str(path)])
                code = 0
            except SystemExit as exc:
                code = int(exc.code or 0)
        assert code in (0, 1, 2)
        if code == 2:
            assert err.getvalue().count("\n") == 1
        if code == 1:  # the hand's error, then the count
            assert err.getvalue().endswith("cardlab: 1 of 1 hands do not replay\n")


def test_poker_rules_lists_the_stud_options() -> None:
    code, out, _ = run("poker", "rules", "--deck", "FESCA78", "--format", "json")
    assert code == 0
    names = {o["name"]: o for o in json.loads(out)["table_options"]}
    assert names["stud_bring_in"]["default"] == "low-card"
    assert names["stud_opener"]["default"] == "best-showing"
    # and they are the options TableGame.create takes
    from cardlab.table import TableGame

    g = TableGame.create(
        "fesca78-stud", stud_bring_in="high-card", stud_opener="best-showing-suits"
    )
    assert g.stud.bring_in.value == "high-card"
