"""The playing side's commands (play, arena, history, replay, chart, report) with hand-store
files of every broken shape and a FIFO or a device for every path they take.

Each refusal is one line on stderr in cardlab's words, exit code 2, no traceback, and the
refused file is left as it was: the same bytes, the same modification time, nothing new
beside it. A store that is only read is never written; a read-only store file is read by
the commands that read, and refused at once by the ones that write (before a hand is
played, not after). Every case runs in this process under a deadline, so a path that
blocks (a FIFO opened for reading) fails instead of hanging.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from _cli import run_cli
from _stores import REFUSED, file_modes_hold, snapshot, sql
from cardlab.errors import StoreError
from cardlab.store import APPLICATION_ID, Store

PHH_DIR = Path(__file__).resolve().parent / "data" / "phh"
ONE_HAND = PHH_DIR / "dwan-ivey-2009.phh"
FIFO_DEADLINE = 15  # seconds: a refusal is immediate; a blocked open() is the bug


# Every command that opens the hand store: its arguments ({db}: the store; {out}: an output
# file in another directory) and whether it writes to the store.
STORE_COMMANDS: dict[str, tuple[list[str], bool]] = {
    "play": (["play", "--bots", "random", "--seats", "2", "--hands", "1", "--seed", "3"], True),
    "arena": (["arena", "--bots", "random,station", "--hands", "4", "--seed", "1"], True),
    "history list": (["history", "list"], False),
    "history --db list": (["history", "--db", "{db}", "list"], False),
    "history show": (["history", "show", "1"], False),
    "history stats": (["history", "stats", "--format", "json"], False),
    "history export": (["history", "export", "--phh", "{out}"], False),
    "history import": (["history", "import", str(ONE_HAND)], True),
    "history prune": (["history", "prune", "--older-than", "0"], True),
}


def store_args(command: str, db: Path, out_dir: Path) -> list[str]:
    args, _ = STORE_COMMANDS[command]
    filled = [a.format(db=db, out=out_dir / "out.phhs") for a in args]
    return filled if "{db}" in args else [*filled, "--db", str(db)]


def writes(command: str) -> bool:
    return STORE_COMMANDS[command][1]


@pytest.fixture
def places(tmp_path: Path) -> tuple[Path, Path]:
    """(the store's directory, a separate directory for outputs)."""
    (tmp_path / "store").mkdir()
    (tmp_path / "out").mkdir()
    return tmp_path / "store", tmp_path / "out"


# --- refused store files ----------------------------------------------------------------


@pytest.mark.parametrize("shape", sorted(REFUSED))
@pytest.mark.parametrize("command", sorted(STORE_COMMANDS))
def test_a_refused_store_is_one_line_and_untouched(
    command: str, shape: str, places: tuple[Path, Path]
) -> None:
    store_dir, out_dir = places
    make, needle = REFUSED[shape]
    db = make(store_dir / "hands.sqlite3")
    before = snapshot(db)
    code, out, err = run_cli(store_args(command, db, out_dir), stdin="q\n", timeout=FIFO_DEADLINE)
    assert code == 2, (code, out, err)
    assert err.startswith("cardlab: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in out + err
    assert needle in err and str(db) in err, err
    assert snapshot(db) == before
    assert os.listdir(out_dir) == []  # nothing was exported either


# --- an empty file: a new store -----------------------------------------------------------


@pytest.mark.parametrize("command", sorted(STORE_COMMANDS))
def test_an_empty_file_is_a_new_store(command: str, places: tuple[Path, Path]) -> None:
    """Documented: an empty file is a store with no hands yet. Commands that read find
    nothing and leave it empty; commands that write make the store in it."""
    store_dir, out_dir = places
    db = store_dir / "hands.sqlite3"
    db.touch()
    before = snapshot(db)
    code, out, err = run_cli(store_args(command, db, out_dir), stdin="q\n")
    assert "Traceback" not in out + err
    if writes(command):
        assert code == 0, (out, err)
        connection = sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)
        try:
            assert connection.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        finally:
            connection.close()
    else:
        nothing = {"history show": "no hand 1", "history export": "nothing to export"}
        if command in nothing:
            assert code == 2 and nothing[command] in err and err.count("\n") == 1, err
        else:
            assert code == 0 and err == "", err
        assert snapshot(db) == before


# --- a read-only file ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def one_hand_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A closed store (no -wal beside it) holding one real hand."""
    from cardlab.table import phh
    from cardlab.table.history import imported, replay

    path = tmp_path_factory.mktemp("template") / "hands.sqlite3"
    with Store.open(path) as store:
        store.add_hands([imported(replay(phh.load(ONE_HAND)))])
    return path


@pytest.mark.parametrize("journal", ["wal", "delete"])
@pytest.mark.parametrize("command", sorted(STORE_COMMANDS))
def test_a_read_only_store_is_read_and_never_written(
    command: str, journal: str, one_hand_store: Path, places: tuple[Path, Path]
) -> None:
    """A store file the user may not write (mode 0444): read by the commands that read;
    refused in one line by the ones that write, before any work (SQLite would open it
    read-only and fail at the first write, after a hand or an arena run)."""
    store_dir, out_dir = places
    db = Path(shutil.copy(one_hand_store, store_dir / "hands.sqlite3"))
    if journal == "delete":  # as another tool may leave it
        sql(db, "PRAGMA journal_mode = DELETE")
    db.chmod(0o444)
    before = snapshot(db)
    with file_modes_hold():
        code, out, err = run_cli(store_args(command, db, out_dir), stdin="q\n")
    assert "Traceback" not in out + err
    if writes(command):
        assert code == 2, (out, err)
        assert err.count("\n") == 1 and "cannot write to the hand store" in err, err
        assert "Permission denied" in err and str(db) in err, err
    else:
        assert code == 0 and err == "", err
    assert snapshot(db) == before


def test_a_write_that_fails_part_way_is_one_error_and_rolled_back(tmp_path: Path) -> None:
    """A full disk mid-write (here: a page limit) is a StoreError naming the store, not a
    sqlite3 traceback, and no part of the hands is kept."""
    from cardlab.table import phh
    from cardlab.table.history import imported, replay

    record = imported(replay(phh.load(ONE_HAND)))
    path = tmp_path / "full.sqlite3"
    with Store.open(path) as store:
        store.add_hand(record)
        connection = store._connection
        assert connection is not None
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {pages}")
        with pytest.raises(StoreError, match=r"cannot write to the hand store .*full"):
            store.add_hands([record] * 200)
        assert store.count_hands() == 1 and len(store.hands()) == 1
        connection.execute(f"PRAGMA max_page_count = {pages * 1000}")
        assert store.add_hand(record) == 2  # room again: the store goes on


# --- FIFOs and devices for every path option ------------------------------------------------


@pytest.fixture(scope="module")
def specials(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """FIFOs named as each option expects its files, a link to /dev/zero, a regular file
    where a directory is expected."""
    d = tmp_path_factory.mktemp("specials")
    names: dict[str, str] = {}
    for suffix in ("toml", "phh", "phhs", "png", "html", "sqlite3", "dir"):
        os.mkfifo(d / f"fifo.{suffix}")
        names[f"fifo_{suffix}"] = str(d / f"fifo.{suffix}")
    (d / "zero.phhs").symlink_to("/dev/zero")
    names["zero_phhs"] = str(d / "zero.phhs")
    (d / "zero.toml").symlink_to("/dev/zero")
    names["zero_toml"] = str(d / "zero.toml")
    (d / "file").write_text("not a directory\n")
    names["file"] = str(d / "file")
    return names


# (arguments, a word the one line must say); {name}: a path of `specials`
PATH_CASES: list[Any] = [
    (["play", "--deck", "{fifo_toml}", "-g", "holdem"], "not a regular file"),
    (["play", "--deck", "{zero_toml}", "-g", "holdem"], "not a regular file"),
    (["play", "--db", "{fifo_sqlite3}"], "not a regular file"),
    (["play", "--db", "/dev/zero"], "not a regular file"),
    (["arena", "--deck", "{fifo_toml}", "-g", "holdem", "--no-store"], "not a regular file"),
    (["arena", "--db", "{fifo_sqlite3}", "--bots", "random,station"], "not a regular file"),
    (["arena", "--db", "/dev/null", "--bots", "random,station"], "not a regular file"),
    (["history", "--db", "{fifo_sqlite3}", "list"], "not a regular file"),
    (["history", "show", "1", "--db", "{fifo_sqlite3}"], "not a regular file"),
    (["history", "stats", "--db", "/dev/zero"], "not a regular file"),
    (["history", "export", "--phh", "{fifo_phhs}"], "not a regular file"),
    (["history", "export", "--phh", "/dev/null"], "not a regular file"),
    (["history", "export", "--phh", "{out}", "--db", "{fifo_sqlite3}"], "not a regular file"),
    (["history", "prune", "--older-than", "1", "--db", "{fifo_sqlite3}"], "not a regular file"),
    (["history", "import", "{fifo_toml}"], "not a regular file"),
    (["history", "import", "{fifo_phh}"], "not a regular file"),
    (["history", "import", "{fifo_phhs}"], "not a regular file"),
    (["history", "import", "{zero_phhs}"], "not a regular file"),
    (["history", "import", str(ONE_HAND), "--db", "{fifo_sqlite3}"], "not a regular file"),
    (["replay", "{fifo_toml}"], "not a regular file"),
    (["replay", "{fifo_phh}"], "not a regular file"),
    (["replay", "{fifo_phhs}"], "not a regular file"),
    (["replay", "{zero_phhs}"], "not a regular file"),
    (["replay", "/dev/stdin"], "not a regular file"),
    (["chart", "--deck", "{fifo_toml}", "-g", "holdem", "--workers", "0"], "not a regular file"),
    (["chart", "--plot", "{fifo_png}", "--workers", "0"], "not a regular file"),
    (["chart", "--cache", "{fifo_dir}", "--workers", "0", "--hands", "AA"], "not one"),
    (["chart", "--cache", "{file}/sub", "--workers", "0", "--hands", "AA"], "Not a directory"),
    (["report", "--decks", "{fifo_toml}", "--workers", "0"], "not a regular file"),
    (["report", "--decks", "FESCA42,{zero_toml}", "--workers", "0"], "not a regular file"),
    (["report", "--out", "{fifo_html}", "--workers", "0"], "not a regular file"),
    (["report", "--cache", "{fifo_dir}", "--workers", "0", "--decks", "FESCA42"], "not one"),
]


def _case_id(case: Any) -> str:
    args = case.values[0] if hasattr(case, "values") else case[0]
    return " ".join(args).replace(str(PHH_DIR), "")[:70]


@pytest.mark.parametrize(("args", "needle"), PATH_CASES, ids=[_case_id(c) for c in PATH_CASES])
def test_fifos_and_devices_as_paths_are_refused_at_once(
    args: list[str], needle: str, specials: dict[str, str], tmp_path: Path
) -> None:
    filled = [a.format(out=tmp_path / "out.phhs", **specials) for a in args]
    if "--db" not in filled and filled[0] in ("play", "arena", "history"):
        filled += ["--db", str(tmp_path / "hands.sqlite3")]  # never the user's store
    before = {name: snapshot(Path(p)) for name, p in specials.items()}
    code, out, err = run_cli(filled, stdin="q\n", timeout=FIFO_DEADLINE)
    assert code == 2, (code, out, err)
    assert err.startswith("cardlab: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in out + err
    assert needle in err, err
    assert {name: snapshot(Path(p)) for name, p in specials.items()} == before
    assert not (tmp_path / "out.phhs").exists()
