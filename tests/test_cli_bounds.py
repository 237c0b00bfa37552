"""Issue 36, cause 6: work with no bound. Each test is one defect, and failed before its
fix: a long computation is estimated before it starts and refused past the budget's
limits with the estimate, in one line; input too small or too large for the work is
said, never a traceback. No test runs the big job: the refusal comes first, and an
accepted run ends at :func:`_cli.start`.
"""

from __future__ import annotations

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


# -- 3. one cap on PHH files -------------------------------------------------------------


@pytest.fixture
def big_phhs(tmp_path: Path) -> Path:
    """A .phhs of 68 MB: one real hand, then padding (a sparse file: no disk is used)."""
    path = tmp_path / "big.phhs"
    with path.open("w", encoding="utf-8") as handle:
        handle.write("[1]\n" + PHH.read_text(encoding="utf-8"))
        handle.truncate(68 << 20)
    return path


@pytest.mark.parametrize(
    "args",
    [["verify", "{f}"], ["replay", "{f}"], ["history", "--db", "{db}", "import", "{f}"]],
    ids=["verify", "replay", "history import"],
)
def test_phh_files_share_one_cap(args: list[str], big_phhs: Path, tmp_path: Path) -> None:
    from cardlab.table.phh import MAX_FILE_BYTES

    db = tmp_path / "hands.sqlite3"
    err = refused([a.format(f=big_phhs, db=db) for a in args])
    assert f"{str(big_phhs)!r} is over {MAX_FILE_BYTES >> 20} MB" in err


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
