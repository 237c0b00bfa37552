"""``cardlab history``: import, list, show, export, stats on a store file of its own."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.store import Store
from cardlab.table import HandState, TableGame, phh
from cardlab.table.history import record, replay

DATA = Path(__file__).parent.parent / "data" / "phh"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_import_list_show_export_stats(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "hands.sqlite3")
    code, out, _ = run(capsys, "history", "--db", db, "import", str(DATA / "dwan-ivey-2009.phh"))
    assert code == 0 and "imported 1 hand " in out
    code, out, _ = run(
        capsys, "history", "--db", db, "import", str(DATA / "abs-nlh-handhq-1-first10.phhs")
    )
    assert code == 0 and "imported 10 hands" in out
    code, out, _ = run(capsys, "history", "--db", db, "list", "--format", "json", "--limit", "50")
    listed = json.loads(out)
    assert listed["total"] == 11
    dwan = next(h for h in listed["hands"] if "Tom Dwan" in h["players"])
    assert dwan["winnings"] == [-553500, -2500, 556000]
    code, out, _ = run(capsys, "history", "--db", db, "show", str(dwan["id"]))
    assert code == 0 and "Tom Dwan wins 1109500" in out
    out_file = tmp_path / "all.phhs"
    code, out, _ = run(capsys, "history", "--db", db, "export", "--phh", str(out_file))
    assert code == 0
    again = phh.load_all(out_file)
    assert len(again) == 11
    assert {tuple(h.players or ()) for h in again} >= {("Phil Ivey", "Patrik Antonius", "Tom Dwan")}
    code, out, _ = run(capsys, "history", "--db", db, "stats", "--format", "json")
    stats = json.loads(out)["standard52-holdem"]
    assert stats["hands"] == 11
    net = {p["name"]: p["net"] for p in stats["players"]}
    assert net["Tom Dwan"] == 556000


def test_played_hands_stored_replay_to_the_same_stacks(tmp_path: Path) -> None:
    game = TableGame.create("fesca78-holdem")
    rng = random.Random(3)
    with Store.open(tmp_path / "s.sqlite3") as store:
        for seed in range(10):
            h = HandState(game, [100, 60, 30], seed=seed)
            while not h.is_over:
                legal = h.legal()
                if legal.raise_min is not None and rng.random() < 0.3:
                    h.bet_or_raise_to(legal.raise_max or legal.raise_min)
                else:
                    h.check_or_call()
            store.add_hand(record(h, players=["ann", "bob", "cy"], source="test"))
        for r in store.hands():
            again = replay(phh.loads(r.phh))
            assert tuple(again.hand.stacks) == r.finishing_stacks


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["show", "999"], "no hand 999"),
        (["show", "0"], "0"),
        (["export", "--phh", "/no/such/dir/x.phhs"], "no directory"),
        (["export", "--phh", "x.phhs", "--game", "nothing"], "nothing to export"),
        (["import", "/no/such/file.phh"], "cannot read"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    db = str(tmp_path / "h.sqlite3")
    code, _, err = run(capsys, "history", "--db", db, *args)
    assert code == 2
    assert err.count("\n") == 1 and message in err


def test_a_newer_or_foreign_store_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "other.sqlite3"
    db.write_bytes(b"not a database at all" * 10)
    before = db.read_bytes()
    code, _, err = run(capsys, "history", "--db", str(db), "list")
    assert code == 2 and "other.sqlite3" in err
    assert db.read_bytes() == before


def test_hands_with_cents_are_listed_in_the_histories_own_amounts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the store keeps whole units (cents, or finer); the list shows the file's amounts,
    # as the replay of each file's own text gives them
    db = str(tmp_path / "hands.sqlite3")
    source = DATA / "abs-nlh-handhq-1-first10.phhs"
    code, _, _ = run(capsys, "history", "--db", db, "import", str(source))
    assert code == 0
    code, out, _ = run(capsys, "history", "--db", db, "list", "--format", "json")
    listed = {tuple(h["players"]): h for h in json.loads(out)["hands"]}
    code, text, _ = run(capsys, "history", "--db", db, "list", "--limit", "50")
    assert code == 0
    for history in phh.load_all(source):
        hand = listed[tuple(history.players or ())]
        net = replay(history).net
        assert hand["winnings"] == [pytest.approx(float(w)) for w in net]
        assert hand["starting_stacks"] == [pytest.approx(float(s)) for s in history.starting_stacks]
        places = len(str(hand["units_per_chip"])) - 1
        shown = " ".join(f"{float(w):+.{places}f}" if w else "0" for w in net)
        assert shown in text
