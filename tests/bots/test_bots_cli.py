"""``cardlab arena`` and ``cardlab play`` driven as a user would."""

from __future__ import annotations

import contextlib
import io
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.cli import cli, main


def run_main(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = 0
    stdin = sys.stdin
    sys.stdin = io.StringIO("")  # play: the input ends at once (as Ctrl-D)
    with contextlib.ExitStack() as stack:
        stack.callback(setattr, sys, "stdin", stdin)
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        try:
            main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def test_arena_json_shape(tmp_path: Path) -> None:
    db = str(tmp_path / "h.sqlite3")
    args = ["arena", "--game", "fesca78-holdem", "--bots", "station,random", "--hands", "20"]
    code, out, err = run_main(*args, "--seed", "4", "--format", "json", "--db", db)
    assert code == 0, err
    data = json.loads(out)
    assert data["game"] == "fesca78-holdem" and data["hands"] == 20
    assert [b["name"] for b in data["bots"]] == ["station", "random"]
    for b in data["bots"]:
        assert set(b) >= {"name", "bb_per_100", "ci95"}
        lo, hi = b["ci95"]
        assert lo <= b["bb_per_100"] <= hi
    assert sum(b["bb_per_100"] for b in data["bots"]) == pytest.approx(0, abs=1e-9)
    again = run_main(*args, "--seed", "4", "--format", "json", "--no-store")[1]
    assert json.loads(again)["bots"] == data["bots"]
    store = pytest.importorskip("cardlab.store")
    with store.Store.open(db) as s:
        runs = s.arena_runs()
    assert len(runs) == 1


def test_arena_text_report() -> None:
    code, out, _ = run_main("arena", "--bots", "station,random", "--hands", "10", "--no-store")
    assert code == 0
    assert "bb/100" in out and "95% CI" in out and "pots decided by" in out


@pytest.mark.parametrize(
    "args",
    [
        ["--bots", "equity,nobody"],
        ["--seats", "11"],
        ["--seats", "1"],
        ["--stack", "0"],
        ["--stack", "-5"],
        ["--stack", "2.5"],
        ["--blinds", "1/0"],
        ["--blinds", "two"],
        ["--blinds", "3/2"],
        ["--game", "standard52-stud", "--seats", "9"],
        ["--game", "no-such-game"],
    ],
)
@pytest.mark.parametrize("command", ["arena", "play"])
def test_bad_input_is_one_line_exit_2(command: str, args: list[str]) -> None:
    code, _, err = run_main(command, *args, "--no-store" if command == "arena" else "--hands=1")
    assert code == 2
    assert err.startswith("cardlab: error: ") and err.count("\n") == 1


@settings(max_examples=40, deadline=None)
@given(
    seats=st.one_of(st.integers(-3, 14).map(str), st.text(max_size=4)),
    stack=st.one_of(st.integers(-10, 10**6).map(str), st.text(max_size=6)),
    blinds=st.one_of(
        st.tuples(st.integers(-2, 50), st.integers(-2, 50)).map(lambda t: f"{t[0]}/{t[1]}"),
        st.text(max_size=6),
    ),
    bots=st.lists(
        st.sampled_from(["random", "station", "x", "", "RANDOM"]), min_size=1, max_size=4
    ).map(",".join),
)
def test_fuzzed_arena_options(seats: str, stack: str, blinds: str, bots: str) -> None:
    code, out, err = run_main(
        "arena", "--hands", "2", "--no-store", "--format", "json",
        f"--seats={seats}", f"--stack={stack}", f"--blinds={blinds}", f"--bots={bots}",
    )  # fmt: skip
    assert code in (0, 2), err
    if code == 2:
        assert err.startswith("cardlab: error: ") and err.count("\n") == 1
    else:
        assert json.loads(out)["hands"] == 2
    assert "Traceback" not in err


def _play(tmp_path: Path, keys: str, *extra: str) -> tuple[str, int]:
    db = tmp_path / "play.sqlite3"
    args = ["play", "--game", "standard52-holdem", "--seats", "3", "--bots", "station"]
    result = CliRunner().invoke(cli, [*args, "--seed", "2", "--db", str(db), *extra], input=keys)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    played = int(re.search(r"(\d+) hand\(s\) played", result.output).group(1))  # type: ignore[union-attr]
    return result.output, played


def test_play_keeps_every_finished_hand(tmp_path: Path) -> None:
    store = pytest.importorskip("cardlab.store")
    # call everything until the input ends (Ctrl-D) mid-hand
    output, played = _play(tmp_path, "c\n" * 25)
    assert played >= 2
    assert "your move" in output and "c call" in output and "main pot" in output
    with store.Store.open(tmp_path / "play.sqlite3") as s:
        hands = s.hands()
    assert len(hands) == played
    assert all(h.source == "play" and "you" in h.players for h in hands)


def test_play_reasks_after_a_bad_action_and_quits_with_q(tmp_path: Path) -> None:
    output, _ = _play(tmp_path, "r 100000\nzz\nc\nq\n", "--hints")
    assert output.count("try again") == 2
    assert "hint: your equity" in output and "pot odds" in output
    assert "quit" in output


def test_play_shows_the_showdown(tmp_path: Path) -> None:
    output, played = _play(tmp_path, "c\n" * 40, "--hands", "3")
    assert played == 3
    assert "best five" in output and "decided by" in output


@settings(max_examples=25, deadline=None)
@given(
    seats=st.one_of(st.integers(-3, 14).map(str), st.text(max_size=4)),
    stack=st.one_of(st.integers(-10, 10**6).map(str), st.text(max_size=6)),
    blinds=st.one_of(
        st.tuples(st.integers(-1, 4), st.integers(-1, 4)).map(lambda t: f"{t[0]}/{t[1]}"),
        st.text(alphabet="0123/x-", max_size=6),
    ),
    bots=st.lists(st.sampled_from(["equity", "station", "x", ""]), min_size=1, max_size=3).map(
        ",".join
    ),
)
def test_fuzzed_play_options(seats: str, stack: str, blinds: str, bots: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, out, err = run_main(
            "play", "--hands", "1", "--db", str(Path(tmp) / "h.sqlite3"),
            f"--seats={seats}", f"--stack={stack}", f"--blinds={blinds}", f"--bots={bots}",
        )  # fmt: skip
    assert code in (0, 2), err
    if code == 2:
        assert err.startswith("cardlab: error: ") and err.count("\n") == 1
    else:
        assert "hand(s) played" in out
    assert "Traceback" not in err


def test_play_a_tournament_to_the_end(tmp_path: Path) -> None:
    """A sit-and-go: calling every hand you go out (or win); the bots play on and every
    seat gets its place; the levels rise every 2 hands as asked."""
    output, played = _play(
        tmp_path,
        "c\n" * 400,
        "--tournament", "--stack", "30", "--levels", "1/2,2/4,3/6+1", "--level-hands", "2",
        "--buy-in", "5",
    )  # fmt: skip
    assert "level 1: blinds 1/2 (next level in 2 hands)" in output
    assert "level 2: blinds 2/4" in output
    assert "you are out in place 3" in output or "winner: you" in output
    table = output[output.index("standings") :]
    places = re.findall(r"^│\s+(\d)\s+│\s+(\S+)\s+│", table, re.MULTILINE)
    assert sorted(p for p, _ in places) == ["1", "2", "3"]
    assert re.search(
        r"^│\s+1\s+│.*│\s+15\s+│$", table, re.MULTILINE
    )  # 3 seats: the winner takes 15
    with store_module().Store.open(tmp_path / "play.sqlite3") as s:
        assert len(s.hands()) == played


def store_module() -> Any:
    return pytest.importorskip("cardlab.store")


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--levels", "1/2"], "need --tournament"),
        (["--tournament", "--levels", "2/1"], "small blind"),
        (["--tournament", "--level-hands", "2", "--level-minutes", "3"], "not both"),
        (["--tournament", "--payouts", "60,30"], "summing to 100"),
        (["--tournament", "--payouts", "50,30,20,0"], "payouts"),
        (["--tournament", "--payouts", "x"], "whole percents"),
    ],
)
def test_bad_tournament_options_are_one_line(extra: list[str], words: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        code, _out, err = run_main(
            "play",
            "--seats",
            "3",
            "--bots",
            "station",
            "--db",
            str(Path(tmp) / "h.sqlite3"),
            *extra,
        )
    assert code == 2 and err.startswith("cardlab: error: ") and err.count("\n") == 1, err
    assert words in err
