"""``cardlab history copy`` and :func:`copy_store`: SQLite to PostgreSQL and back, every
row with its ids; run again, it writes nothing or the rest; a target holding other
hands is refused untouched. And the commands that take ``--db`` on a PostgreSQL URL."""

from __future__ import annotations

import dataclasses
import datetime
import json
from pathlib import Path
from typing import Any

import pytest
from store_records import make_record

from _postgres import PostgresServer
from cardlab.cli import main
from cardlab.errors import StoreError
from cardlab.store import Store
from cardlab.store.copy import KEYS, copy_store
from cardlab.store.schema import SCHEMA_VERSION, expected_columns

UTC = datetime.UTC


def _fill(store: Store) -> None:
    """A store with a row in every table: hands (with gaps in their ids), web tables with
    a hand in play, a seed, a ledger, tournament results, arena runs."""
    start = datetime.datetime(2026, 3, 1, tzinfo=UTC)
    ids = store.add_hands(
        [
            make_record(n, table_id="t1" if n % 3 == 0 else None, seats=2 + n % 5,
                        played_at=start + datetime.timedelta(minutes=n % 7))
            for n in range(25)
        ]
    )  # fmt: skip
    store.prune(start + datetime.timedelta(minutes=1))  # gaps in the ids
    assert store.count_hands() < len(ids)
    store.save_table("t1", {"game": "standard52-holdem"}, {"stacks": [100, 200]})
    store.save_table("t2", {"game": "x"}, {"stacks": []})
    store.begin_hand("t1", 7, {"order": [1, 0]}, {"stacks": [100, 200]})
    store.add_action("t1", 0, "cbr 4")
    store.save_clock("t1", 1, 9.25)
    store.add_seed("t1", "c" * 64, "d" * 64)
    store.add_ledger("t1", 0, "ann", "buy-in", 100)
    store.add_ledger("t1", 1, "bob", "buy-in", 200)
    store.close_table("t2", {"stacks": [], "closed": True})
    store.save_results("t2", [{"seat": 1, "place": 1, "name": "cy", "prize": 10}])
    store.add_arena_run({"bots": ["a"]}, {"net": 1.5})
    store.add_arena_run({"bots": ["b"]}, {"net": -1.5}, played_at=start)


def _everything(store: Store) -> dict[str, Any]:
    """Everything a store gives back through its API."""
    tables = store.tables(closed=True)
    return {
        "hands": store.hands(),
        "tables": tables,
        "live": [store.live_hand(t.table_id) for t in tables],
        "seed": store.seed("t1", "c" * 64),
        "ledger": [store.ledger(t.table_id) for t in tables],
        "results": [store.results(t.table_id) for t in tables],
        "arena": store.arena_runs(),
        "stats": store.stats(),
    }


@pytest.fixture
def sqlite_path(tmp_path: Path) -> str:
    return str(tmp_path / "source.sqlite3")


def test_copy_knows_every_table() -> None:
    assert set(KEYS) == set(expected_columns(SCHEMA_VERSION))


def test_sqlite_to_postgres_and_back_is_the_same_store(
    sqlite_path: str, postgres_url: str, tmp_path: Path
) -> None:
    with Store.open(sqlite_path) as source:
        _fill(source)
        want = _everything(source)
        rows = {table: source.count_hands() for table in ("hands",)}
    with Store.open(sqlite_path, read_only=True) as source, Store.open(postgres_url) as target:
        seen: list[tuple[int, int]] = []
        report = copy_store(source, target, chunk=4, progress=lambda d, t: seen.append((d, t)))
    assert report.copied["hands"] == rows["hands"] and report.copied["ledger"] == 2
    assert sum(report.present.values()) == 0
    assert seen[-1][0] == seen[-1][1] and [d for d, _ in seen] == sorted(d for d, _ in seen)
    with Store.open(postgres_url) as copied:
        assert _everything(copied) == want
        # the identities go on after the copied ids
        new_id = copied.add_hand(make_record(99))
        assert new_id == max(r.id for r in want["hands"] if r.id is not None) + 1
        assert copied.add_ledger("t1", 0, "ann", "cash-out", 5) == 3
    back = str(tmp_path / "back.sqlite3")
    with Store.open(postgres_url, read_only=True) as source, Store.open(back) as target:
        copy_store(source, target)
    with Store.open(back) as returned, Store.open(postgres_url) as copied:
        assert _everything(returned) == _everything(copied)
        assert returned.hand(new_id) == copied.hand(new_id)


def test_copying_again_writes_nothing_and_an_interrupted_copy_resumes(
    sqlite_path: str, postgres_url: str
) -> None:
    with Store.open(sqlite_path) as source:
        _fill(source)
        want = _everything(source)

    def stop_after_two_chunks(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 2:
            raise KeyboardInterrupt

    calls: list[int] = []
    with Store.open(sqlite_path, read_only=True) as source, Store.open(postgres_url) as target:
        with pytest.raises(KeyboardInterrupt):
            copy_store(source, target, chunk=3, progress=stop_after_two_chunks)
        partial = target.count_hands()
        assert 0 < partial < len(want["hands"])
        for record in target.hands():  # whole hands only: each with its seats
            assert record == next(r for r in want["hands"] if r.id == record.id)
        report = copy_store(source, target, chunk=3)
        assert report.present["hands"] == partial
        assert report.copied["hands"] == len(want["hands"]) - partial
        again = copy_store(source, target)
        assert sum(again.copied.values()) == 0
        assert again.present["hands"] == len(want["hands"])
        assert _everything(target) == want


def test_a_target_with_other_hands_is_refused_untouched(
    sqlite_path: str, postgres_url: str
) -> None:
    with Store.open(sqlite_path) as source:
        _fill(source)
    with Store.open(postgres_url) as target:
        target.add_hand(make_record(500, source="elsewhere"))
        before = (target.hands(), target.tables(closed=True), target.arena_runs())
        with (
            Store.open(sqlite_path, read_only=True) as source,
            pytest.raises(StoreError, match="holds other content") as caught,
        ):
            copy_store(source, target)
        assert "hands row 1 is not in the source" in str(caught.value)  # hand 1 was pruned
        assert (target.hands(), target.tables(closed=True), target.arena_runs()) == before


def test_a_target_with_a_changed_row_is_refused(sqlite_path: str, postgres_url: str) -> None:
    with Store.open(sqlite_path) as source:
        _fill(source)
    with Store.open(sqlite_path, read_only=True) as source, Store.open(postgres_url) as target:
        copy_store(source, target)
        target.save_table("t1", {"game": "changed"}, {})
        with pytest.raises(StoreError, match="its tables row 't1' differs from the source"):
            copy_store(source, target)


def test_a_store_is_not_copied_into_itself(sqlite_path: str) -> None:
    with (
        Store.open(sqlite_path) as one,
        Store.open(sqlite_path) as other,
        pytest.raises(StoreError, match="into itself"),
    ):
        copy_store(one, other)


# -- the command line --------------------------------------------------------------------------


def test_history_copy_command(
    sqlite_path: str,
    postgres_server: PostgresServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    with Store.open(sqlite_path) as source:
        _fill(source)
        hands = source.count_hands()
    url = postgres_server.new_schema()
    main(["history", "copy", sqlite_path, url])
    out = capsys.readouterr().out
    assert out == f"copied {hands} hand(s) and 10 other row(s) (tables, arena runs, ledger...)" \
        f" from {sqlite_path} to {url}\n"  # fmt: skip
    main(["history", "copy", sqlite_path, url, "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert report["copied"]["hands"] == 0 and report["already_there"]["hands"] == hands
    back = str(tmp_path / "back.sqlite3")
    main(["history", "copy", url, back])
    assert f"copied {hands} hand(s)" in capsys.readouterr().out
    with Store.open(back) as returned, Store.open(sqlite_path) as source:
        assert _everything(returned) == _everything(source)
    with pytest.raises(SystemExit) as ended:  # a SRC that is not there: said, not copied
        main(["history", "copy", str(tmp_path / "typo.sqlite3"), url])
    assert ended.value.code == 2
    assert "no hand store to copy at" in capsys.readouterr().err
    # another store's hands in the target: one line, exit code 2, nothing written
    other = str(tmp_path / "other.sqlite3")
    with Store.open(other) as store:
        store.add_hand(make_record(1, source="other"))
    with pytest.raises(SystemExit) as ended:
        main(["history", "copy", url, other])
    assert ended.value.code == 2
    assert "holds other content" in capsys.readouterr().err
    with Store.open(other) as store:
        assert store.count_hands() == 1


def test_history_commands_on_a_postgres_store(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    record = make_record(4, game="standard52-holdem")
    with Store.open(postgres_url) as store:
        hand_id = store.add_hand(dataclasses.replace(record, source="play"))
    main(["history", "--db", postgres_url, "list", "--format", "json"])
    listed = json.loads(capsys.readouterr().out)
    assert listed["total"] == 1 and [row["id"] for row in listed["hands"]] == [hand_id]
    assert listed["hands"][0]["players"] == list(record.players)
    main(["history", "--db", postgres_url, "show", str(hand_id), "--format", "phh"])
    assert capsys.readouterr().out.strip() == record.phh.strip()


def test_arena_keeps_its_run_in_a_postgres_store(
    postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["arena", "--bots", "station,random", "--hands", "10", "--seed", "3"]
    main([*args, "--format", "json", "--db", postgres_url])
    result = json.loads(capsys.readouterr().out)
    with Store.open(postgres_url, read_only=True) as store:
        runs = store.arena_runs()
    assert len(runs) == 1
    assert runs[0].results["bots"] == result["bots"]
