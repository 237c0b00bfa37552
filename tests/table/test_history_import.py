"""``cardlab history import`` / ``export`` and ``cardlab replay`` on real files: one bad
hand does not reject a file, imports are idempotent and resumable, stored in batches,
recorded results that differ from the replay are reported, exports of several hands are
``.phhs``, and a file's amounts are shown in one unit."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cardlab.cli import main
from cardlab.store import Store
from cardlab.table import phh
from cardlab.table.phh_import import ImportReport, import_files

DATA = Path(__file__).parent.parent / "data" / "phh"
ABS = DATA / "abs-nlh-handhq-1-first10.phhs"
WSOP_2019 = DATA / "wsop-2019-42-3-00-01-07.phh"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def _tables(path: Path) -> list[str]:
    """The hand tables of a .phhs file, as text ([1] ... up to the next header)."""
    text = path.read_text()
    return [t for t in re.split(r"(?m)^(?=\[\d+\]$)", text) if t.strip()]


def _phhs(tables: list[str]) -> str:
    return "\n".join(re.sub(r"^\[\d+\]", f"[{k}]", t, count=1) for k, t in enumerate(tables, 1))


def test_importing_twice_stores_each_hand_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "h.sqlite3")
    code, out, _ = run(capsys, "history", "--db", db, "import", str(ABS))
    assert code == 0 and "imported 10 hands" in out and "already" not in out
    code, out, _ = run(capsys, "history", "--db", db, "import", str(ABS), "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["imported"] == 0 and report["already_stored"] == 10
    with Store.open(db, read_only=True) as store:
        assert store.count_hands() == 10


def test_an_interrupted_import_run_again_continues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = _tables(ABS)
    part = tmp_path / "part.phhs"
    part.write_text(_phhs(tables[:4]))  # what an import cut short had stored
    twice = tmp_path / "twice.phhs"
    twice.write_text(_phhs([*tables, tables[0]]))  # and a file with a hand repeated
    db = str(tmp_path / "h.sqlite3")
    assert run(capsys, "history", "--db", db, "import", str(part))[0] == 0
    code, out, _ = run(capsys, "history", "--db", db, "import", str(twice))
    assert code == 0
    assert "imported 6 hands" in out and "5 hands already in the store, skipped" in out
    with Store.open(db, read_only=True) as store:
        stored = {r.phh for r in store.hands(limit=100)}
    assert stored == {phh.dumps(h) for h in phh.load_all(ABS)}


def test_a_folder_imports_around_a_bad_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "hands"
    (folder / "deep").mkdir(parents=True)
    tables = _tables(ABS)
    broken = tables[2].replace("'p3 f'", "'p3 cbr x'", 1)
    assert broken != tables[2]
    (folder / "deep" / "a.phhs").write_text(_phhs([tables[0], tables[1], broken, tables[3]]))
    (folder / "b.phh").write_text((DATA / "dwan-ivey-2009.phh").read_text())
    (folder / "notes.txt").write_text("not a hand history")
    db = str(tmp_path / "h.sqlite3")
    code, out, _ = run(capsys, "history", "--db", db, "import", str(folder), "--format", "json")
    report = json.loads(out)
    assert code == 1
    assert report["files"] == 2 and report["hands"] == 5 and report["imported"] == 4
    (bad,) = report["bad"]
    assert bad["file"].endswith("a.phhs") and bad["hand"] == 3
    line = next(k for k, t in enumerate(broken.splitlines(), 1) if "cbr x" in t)
    start = 1 + sum(t.count("\n") + 1 for t in (tables[0], tables[1]))
    assert f"line {start + line - 1}" in bad["error"] and "'p3 cbr x'" in bad["error"]


def test_each_batch_is_one_transaction(tmp_path: Path) -> None:
    calls: list[int] = []
    with Store.open(tmp_path / "h.sqlite3") as store:
        add = store.add_hands

        def counting(records: list[object]) -> list[int]:
            calls.append(len(records))
            return add(records)  # type: ignore[arg-type]

        store.add_hands = counting  # type: ignore[method-assign]
        report = import_files(store, [ABS], batch=3)
        assert report.stored == 10 and store.count_hands() == 10
    assert calls == [3, 3, 3, 1]


def test_a_recorded_result_that_differs_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the file says ante trimming, which returns the big-blind ante as uncalled
    # (docs/phh.md): the replay gives Matsuzuki 17,600,000, the record 18,100,000
    code, out, _ = run(capsys, "replay", str(WSOP_2019), "--format", "json")
    assert code == 0
    (hand,) = json.loads(out)["hands"]
    assert hand["finishing_stacks"][0] == 17_600_000
    assert hand["mismatches"] == [
        "finishing_stacks[0] (Dan Matsuzuki): the file says 18100000, the replay gives 17600000",
        "finishing_stacks[1] (Rainer Kempe): the file says 5625000, the replay gives 6125000",
    ]
    db = str(tmp_path / "h.sqlite3")
    code, out, _ = run(capsys, "history", "--db", db, "import", str(WSOP_2019))
    assert code == 0 and "imported 1 hand " in out
    assert "the file says 18100000, the replay gives 17600000" in out
    assert "1 hand differs from the recorded result" in out


def test_export_of_several_hands_is_a_phhs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "h.sqlite3")
    assert run(capsys, "history", "--db", db, "import", str(ABS))[0] == 0
    one = tmp_path / "one.phh"
    code, _, err = run(capsys, "history", "--db", db, "export", "--phh", str(one))
    assert code == 2 and "10 hands match" in err and "one.phhs" in err and not one.exists()
    many = tmp_path / "many.phhs"
    code, out, _ = run(capsys, "history", "--db", db, "export", "--phh", str(many))
    assert code == 0 and "wrote 10 hands" in out
    assert phh.load_all(many) == phh.load_all(ABS)  # in the order they were imported
    # a single hand goes to a .phh that replay and import read
    db1 = str(tmp_path / "one.sqlite3")
    assert run(capsys, "history", "--db", db1, "import", str(WSOP_2019))[0] == 0
    code, out, _ = run(capsys, "history", "--db", db1, "export", "--phh", str(one))
    assert code == 0 and "wrote 1 hand to" in out
    assert phh.load(one) == phh.load(WSOP_2019)
    assert run(capsys, "replay", str(one))[0] == 0


def test_replay_lists_each_hand_in_order_around_a_bad_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tables = _tables(ABS)
    path = tmp_path / "mixed.phhs"
    bad_toml = "[3]\nvariant = 'NT'\nantes = [0 0]\n"  # bad TOML: this hand only
    path.write_text(_phhs([tables[0], tables[1], bad_toml, tables[3]]))
    code, out, err = run(capsys, "replay", str(path), "--format", "json")
    assert code == 1
    hands = json.loads(out)["hands"]
    assert [h["hand"] for h in hands] == [1, 2, 3, 4]
    assert "error" in hands[2] and "finishing_stacks" not in hands[2]
    start = 1 + sum(t.count("\n") + 1 for t in (tables[0], tables[1]))
    assert hands[2]["line"] == start and "hand [3]: not valid TOML" in hands[2]["error"]
    assert f"(at line {start + 2}," in hands[2]["error"]  # the line in the file
    assert all("finishing_stacks" in h for k, h in enumerate(hands) if k != 2)
    assert err.splitlines()[-1] == "cardlab: 1 of 4 hands do not replay"


def test_replay_shows_a_file_in_one_unit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "replay", str(ABS))
    assert code == 0
    first = out.split("hand 2 of 10")[0]
    assert "blinds 0.50/1.00" in first
    assert "posts 0.50" in first and "bets/raises to 3.00" in first
    assert "wins 1.00" in first and "200.30" in first and "197.00" in first
    # nothing in the engine's cents
    assert not re.search(r"(?<![\d.])(50|100|300)(?![\d.])", first)


def test_the_progress_bar_counts_hands_and_bytes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import sys

    from cardlab.cli.history import _import_progress

    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    entries = list(phh.iter_file(ABS))
    assert entries[-1].end == ABS.stat().st_size  # the bytes read when the last hand ends
    with _import_progress([ABS]) as on_hand:
        assert on_hand is not None
        for entry in entries * 20:  # 200 hands: one refresh
            on_hand(ABS, entry)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    with _import_progress([ABS]) as on_hand:
        assert on_hand is None  # not a terminal: no bar


def _reformatted(table: str, name: str) -> str:
    """The same hand written otherwise: another table name, the keys in reverse order,
    comments, basic strings, spaces and the actions array over several lines."""
    _header, *lines = table.strip().splitlines()
    out = [f"[ {name} ]  # the same hand, written by another program"]
    for line in reversed(lines):
        key, _, value = line.partition(" = ")
        if key == "actions":
            items = re.findall(r"'([^']*)'", value)
            value = "[\n" + "".join(f'    "{item}",  # {k}\n' for k, item in enumerate(items)) + "]"
        elif value.startswith("'"):
            value = '"' + value[1:-1] + '"'
        out.append(f"{key}   =   {value}")
    return "\n".join(out) + "\n"


def test_a_hand_is_recognised_by_its_content_not_its_formatting(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The guarantee (docs/phh.md): a hand already stored is recognised whatever file it
    comes from and however that file is written; a hand with any field changed is
    another hand."""
    tables = _tables(ABS)
    db = str(tmp_path / "h.sqlite3")
    assert run(capsys, "history", "--db", db, "import", str(ABS))[0] == 0
    again = tmp_path / "again.phhs"
    again.write_text("\n".join(_reformatted(t, f"hand-{k}") for k, t in enumerate(tables)))
    # the file reads to the very same hands, from text that is not cardlab's
    assert phh.load_all(again) == phh.load_all(ABS)
    assert again.read_text() != ABS.read_text()
    changed = tmp_path / "changed.phhs"
    changed.write_text(_phhs([tables[0].replace("hand = 3017237436", "hand = 3017237437")]))
    code, out, _ = run(capsys, "history", "--db", db, "import", str(again), "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["imported"] == 0 and report["already_stored"] == 10
    code, out, _ = run(capsys, "history", "--db", db, "import", str(changed), "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["imported"] == 1 and report["already_stored"] == 0
    with Store.open(db, read_only=True) as store:
        assert store.count_hands() == 11


SITES_DATA = Path(__file__).parent.parent / "data" / "sites"


def _import_with(jobs: int, folder: Path, db: Path) -> tuple[ImportReport, list[str]]:
    from cardlab.table.phh_import import phh_files

    with Store.open(str(db)) as store:
        report = import_files(store, phh_files(folder), jobs=jobs, batch=7)
        texts = [store.hand(k).phh for k in range(1, store.count_hands() + 1)]
    return report, texts


def test_workers_import_what_one_process_imports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every sample site file (hands that replay, differ, are unsupported or cannot be
    read), one of them twice and one cut off mid-hand, imported by two worker
    processes a few hands at a time: the same report, the same hands in the same order
    as the reading in this process."""
    from cardlab.table import phh_import

    folder = tmp_path / "exports"
    folder.mkdir()
    for f in SITES_DATA.iterdir():
        (folder / f.name).write_bytes(f.read_bytes())
    (folder / "zz-again.txt").write_bytes((SITES_DATA / "stars-cash.txt").read_bytes())
    cut = (SITES_DATA / "gg-cash.txt").read_text(encoding="utf-8")
    (folder / "zz-cut.txt").write_text(cut[: len(cut) // 2], encoding="utf-8")
    one, one_texts = _import_with(1, folder, tmp_path / "one.db")
    monkeypatch.setattr(phh_import, "PARALLEL_BYTES", 0)
    monkeypatch.setattr(phh_import, "CHUNK", 3)
    two, two_texts = _import_with(2, folder, tmp_path / "two.db")
    assert two == one
    assert two_texts == one_texts
    assert one.already and one.bad and one.mismatched and one.stored > 10


def test_a_site_files_hands_say_how_far_the_file_is_read(tmp_path: Path) -> None:
    """The progress bar's bytes for a site's file: growing hand by hand, and the whole
    file by the last hand (a file bigger than the reading buffer)."""
    from cardlab.table import sites

    one = (SITES_DATA / "stars-cash.txt").read_text(encoding="utf-8")
    path = tmp_path / "big.txt"
    path.write_text(one * 40, encoding="utf-8")  # about 100 KB, hand numbers repeated
    ends = [e.end for e in sites.iter_entries(path)]
    assert len(ends) == 40 * len(list(sites.iter_entries(SITES_DATA / "stars-cash.txt")))
    assert ends == sorted(ends) and ends[0] < ends[-1] == path.stat().st_size
