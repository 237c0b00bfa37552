"""Issue 36, cause 6: work with no bound. Each test is one defect, and failed before its
fix: a long computation is estimated before it starts and refused past the budget's
limits with the estimate, in one line; input too small or too large for the work is
said, never a traceback. No test runs the big job: the refusal comes first, and an
accepted run ends at :func:`_cli.start`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from _cli import assert_answer_or_one_line, run_cli, start

DATA = Path(__file__).resolve().parent / "data"
PHH = DATA / "phh" / "pluribus-100-0.phh"


def refused(args: list[str]) -> str:
    """The one-line error of a command that must fail with exit code 2."""
    code, out, err = run_cli(args)
    assert_answer_or_one_line(code, out, err, codes=(2,))
    return err


def _deck(path: Path, suits: int, ranks: int) -> str:
    names = ", ".join(f'"{s}"' for s in "MKDGSY"[:suits])
    rank_list = ", ".join(f'{{key = "r{i}", value = {i}}}' for i in range(1, ranks + 1))
    path.write_text(f'name = "{path.stem}"\nsuits = [{names}]\nranks = [{rank_list}]\n')
    return str(path)


# -- 1. push/fold's standard error ------------------------------------------------------


@pytest.mark.parametrize("se", ["1e-9", "1e-5"])
def test_pushfold_se_too_small_is_refused_with_the_estimate(se: str) -> None:
    err = refused(["solve", "pushfold", "--stack", "10", "--se", se, "--no-cache"])
    assert "would take about" in err and "(the limit is 24 h)" in err and "--se" in err
    assert "negative dimensions" not in err and "too big" not in err


def test_pushfold_with_a_fair_se_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cardlab.solve.pushfold_matrix._sampled", start)
    code, out, err = run_cli(["solve", "pushfold", "--stack", "10", "--se", "0.01", "--no-cache"])
    assert code is None, (out, err)


# -- 2. report decks too small ----------------------------------------------------------


def test_report_refuses_a_deck_too_small_for_its_hands(tmp_path: Path) -> None:
    three = tmp_path / "three.toml"
    three.write_text('name = "three"\nsuits = ["M"]\nranks = ["1", "2", "3"]\n')
    err = refused(["report", "--decks", str(three), "--out", str(tmp_path / "r.html")])
    assert "three" in err and "3 cards" in err and "14" in err
    assert not (tmp_path / "r.html").exists()


# -- 3. one rule of size for PHH files, and replay streamed ------------------------------

PHHS = DATA / "phh" / "abs-nlh-handhq-1-first10.phhs"  # 10 hands, 7 KB
PHH_COMMANDS = [["verify", "{f}"], ["replay", "{f}"], ["history", "--db", "{db}", "import", "{f}"]]
PHH_IDS = ["verify", "replay", "history import"]


@pytest.fixture
def big_phhs(tmp_path: Path) -> Path:
    """A .phhs of 68 MB: one real hand, then padding (a sparse file: no disk is used)."""
    path = tmp_path / "big.phhs"
    with path.open("w", encoding="utf-8") as handle:
        handle.write("[1]\n" + PHH.read_text(encoding="utf-8"))
        handle.truncate(68 << 20)
    return path


@pytest.mark.parametrize("args", PHH_COMMANDS, ids=PHH_IDS)
def test_a_hand_over_the_cap_is_refused_by_every_reader(
    args: list[str], big_phhs: Path, tmp_path: Path
) -> None:
    """One rule, one message: a hand (here [1], grown to 68 MB) is at most 64 MB."""
    from cardlab.table.phh import MAX_FILE_BYTES

    db = tmp_path / "hands.sqlite3"
    err = refused([a.format(f=big_phhs, db=db) for a in args])
    mb = MAX_FILE_BYTES >> 20
    assert f"{big_phhs}: hand [1] (line 1) is over {mb} MB: a PHH hand is at most {mb} MB" in err


@pytest.mark.parametrize("args", PHH_COMMANDS, ids=PHH_IDS)
def test_a_file_over_the_cap_is_read_hand_by_hand_by_every_reader(
    args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cap is a hand's, not a file's: with a cap of 2,000 bytes the 7 KB file of ten
    hands of under 1 KB is read whole by verify, replay and history import (each refused
    the file before, and verify held it whole)."""
    monkeypatch.setattr("cardlab.table.phh.MAX_FILE_BYTES", 2000)
    db = tmp_path / "hands.sqlite3"
    code, out, err = run_cli([a.format(f=PHHS, db=db) for a in args])
    assert code == 0 and "over" not in err, (out, err)
    assert "10" in out


def _reading_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Mark on stdout each hand the replay takes from the file (a generator in place of
    the reader), so the output says what was printed before the file was read through."""
    from cardlab.table import phh

    def marked(path: str, site: str | None = None):  # type: ignore[no-untyped-def]
        for entry in phh.iter_file(path):
            sys.stdout.write(f"<<read {entry.number}>>")
            yield entry

    monkeypatch.setattr("cardlab.cli.replay.hands_of", marked)


def test_replay_json_prints_each_hand_as_it_is_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON answer streams: the first hand is out before the second is read (it
    came after all ten were replayed, the file and every replay held at once)."""
    _reading_marks(monkeypatch)
    code, out, err = run_cli(["replay", str(PHHS), "--format", "json"])
    assert code == 0, err
    assert out.index('"hand": 1,') < out.index("<<read 2>>")
    assert out.index('"hand": 9,') < out.index("<<read 10>>")


def test_replay_text_prints_each_hand_past_its_look_ahead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The text reads a bounded number of hands ahead (here 3): past it, each hand is
    shown as it is replayed, titled without the count it cannot know yet."""
    monkeypatch.setattr("cardlab.cli.replay.LOOKAHEAD_HANDS", 3)
    _reading_marks(monkeypatch)
    code, out, err = run_cli(["replay", str(PHHS)])
    assert code == 0, err
    assert out.index("hand 1 — NT") < out.index("<<read 5>>")
    assert out.index("hand 9 — NT") < out.index("<<read 10>>") < out.index("hand 10 — NT")
    assert " of 10" not in out


def test_replay_json_streamed_is_one_json_document() -> None:
    """Streamed or not, the answer is the one document: its bytes are the canonical
    dump of what it parses to, and its hands are the file's in order."""
    from cardlab import render

    code, out, err = run_cli(["replay", str(PHHS), "--format", "json"])
    assert code == 0, err
    answer = json.loads(out)
    assert out == render.to_json(answer) + "\n"
    assert [h["hand"] for h in answer["hands"]] == list(range(1, 11))
    assert answer["replayed"] == 10 and answer["file"] == str(PHHS)


# -- 4. poker table on a huge deck -------------------------------------------------------


def test_poker_table_of_a_huge_deck_is_refused_with_the_estimate(tmp_path: Path) -> None:
    deck = _deck(tmp_path / "wide.toml", 4, 31)
    err = refused(["poker", "table", "--deck", deck, "--hand-size", "7"])
    assert "10,295,472 rank patterns" in err and "of memory" in err and "GB" in err
    assert "(the limit is" in err


def test_poker_table_of_a_large_deck_starts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("cardlab.poker._kernels.tables7_patterns.run_patterns", start)
    code, out, err = run_cli(["poker", "table", "--deck", "standard52", "--hand-size", "7"])
    assert code is None, (out, err)


# -- 5. solve cfr on a large tree -------------------------------------------------------

FESCA_GAME = """name = "FESCA two rounds"
deck = "FESCA78"
private = 1
[[rounds]]
bet = 2
cap = 2
[[rounds]]
public = 1
bet = 4
cap = 2
"""


@pytest.fixture
def fesca_game(tmp_path: Path) -> str:
    """The full FESCA78 deck, two rounds: 5,865 public nodes, 180,648 information sets
    (within the size guard; some 0.5 s an iteration)."""
    path = tmp_path / "fesca.toml"
    path.write_text(FESCA_GAME)
    return str(path)


@pytest.mark.parametrize("name", ["kuhn", "leduc", "leduc-fesca"])
def test_tree_counts_match_the_built_tree(name: str) -> None:
    from cardlab.solve.games import get_game, tree_counts
    from cardlab.solve.tree import PublicTree

    game = get_game(name)
    tree = PublicTree(game)
    counts = tree_counts(game)
    boards = [tree.nodes[int(i)].board for i in tree.decision_nodes]
    assert counts.decisions == len(tree.decision_nodes)
    assert counts.infosets == int(tree.hand_valid[boards].sum())


def test_cfr_past_a_day_is_refused_with_the_estimate(fesca_game: str) -> None:
    args = ["solve", "cfr", "-g", fesca_game, "-n", "10000000", "--format", "json"]
    err = refused(args)
    assert "would take about" in err and "(the limit is 24 h)" in err
    assert "5,865 public nodes, 180,648 information sets, 10,000,000 iterations" in err


def test_cfr_text_of_too_many_rows_is_refused_before_the_work(
    fesca_game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("cardlab.solve.cfr.CFRPlus", start)
    err = refused(["solve", "cfr", "-g", fesca_game, "-n", "10"])
    assert "180,648 information sets" in err and "--format json" in err and "--out" in err
    code, out, err = run_cli(["solve", "cfr", "-g", fesca_game, "-n", "10", "--format", "json"])
    assert code is None, (out, err)


def test_cfr_text_of_too_many_rows_is_summarised_with_out(fesca_game: str, tmp_path: Path) -> None:
    import json

    saved = tmp_path / "s.json"
    code, out, err = run_cli(["solve", "cfr", "-g", fesca_game, "-n", "2", "--out", str(saved)])
    assert code == 0, err
    assert f"the strategy's 180,648 information sets are in {saved}, not printed" in out
    assert len(out.splitlines()) < 10
    assert len(json.loads(saved.read_text())["strategy"]) == 180_648


def test_poker_table_omaha_samples_are_bounded() -> None:
    args = ["poker", "table", "-g", "fesca78-omaha", "--samples", "1" + "0" * 15]
    err = refused(args)
    assert "sampling 1,000,000,000,000,000 Omaha deals would take about" in err
    assert "(the limit is 24 h)" in err


# -- 6. report: exact Omaha and huge decks estimated up front -----------------------------


def _report(tmp_path: Path, *args: str) -> list[str]:
    return ["report", *args, "--out", str(tmp_path / "r.html"), "--no-cache"]


def test_report_exact_omaha_past_the_memory_limit_is_refused_with_the_estimate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deck of 24 ranks of one card each: a minute of evaluations, but 82 million
    canonical (hole, board) rank patterns listed, about 7 GB a process. Before, the time
    alone was checked, and the report started."""
    monkeypatch.setattr("cardlab.cli.report.client_from", start)  # (the cluster: next)
    deck = _deck(tmp_path / "lone.toml", 1, 24)
    err = refused(_report(tmp_path, "--decks", deck, "--exact-omaha", "--no-pushfold"))
    assert "the exact Omaha tables of 1 deck(s) and variant(s)" in err
    assert "82,372,752 rank patterns" in err and "of memory (the limit is 4.0 GB)" in err
    assert "drop --exact-omaha" in err
    assert not (tmp_path / "r.html").exists()


def test_report_exact_omaha_of_the_default_decks_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("cardlab.cli.report.client_from", start)  # (the cluster: next)
    code, out, err = run_cli(_report(tmp_path, "--exact-omaha"))
    assert code is None, (out, err)


def test_report_of_a_huge_deck_is_refused_up_front(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """31 ranks of 4 suits: its best-of-seven table lists 10 million rank patterns
    (13 GB). Before, the report started its cluster and the table's task failed late."""
    monkeypatch.setattr("cardlab.cli.report.client_from", start)  # (the cluster: next)
    deck = _deck(tmp_path / "wide.toml", 4, 31)
    err = refused(_report(tmp_path, "--decks", deck))
    assert "10,295,472 rank patterns" in err and "of memory" in err
    assert "give decks with fewer ranks" in err
