"""The commands added with the playing side (play, arena, history, replay, chart, report)
hardened: each test is one defect of issue 22, and failed before its fix.

Most run in this process through :func:`cardlab.cli.main` with a deadline, so a call that
would block (a FIFO) fails instead of hanging; Ctrl-C is sent to real subprocesses.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from _support import deadline
from cardlab.cli import main
from cardlab.store import SCHEMA_VERSION, Store

DATA = Path(__file__).resolve().parent / "data"
PHH = DATA / "phh" / "pluribus-100-0.phh"
SHORT24 = DATA / "decks" / "short24.toml"
TIMEOUT = 300  # a guard against a hang; a first run compiles kernels for minutes


def run(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of ``cardlab ARGS`` with ``stdin`` as its input."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    with contextlib.ExitStack() as stack:
        stack.enter_context(deadline(TIMEOUT))
        stack.callback(setattr, sys, "stdin", sys.stdin)
        sys.stdin = io.StringIO(stdin)
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        try:
            main(list(args))
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def refused(*args: str, stdin: str = "") -> str:
    """The one-line error of a command that must fail with exit code 2."""
    code, out, err = run(*args, stdin=stdin)
    assert code == 2, (args, out, err)
    assert err.startswith("cardlab: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in out + err
    return err


def snapshot(path: Path) -> tuple[bytes, int, list[str]]:
    return path.read_bytes(), path.stat().st_mtime_ns, sorted(os.listdir(path.parent))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    """A store holding one real hand (imported from a PHH file)."""
    db = tmp_path / "hands.sqlite3"
    code, _, err = run("history", "--db", str(db), "import", str(PHH))
    assert code == 0, err
    return db


@pytest.fixture
def damaged(store_file: Path) -> Path:
    """A store with cardlab's application id whose ``seats`` table was dropped by hand."""
    connection = sqlite3.connect(store_file)
    connection.execute("DROP TABLE seats")
    connection.commit()
    connection.close()
    return store_file


# -- 1. tracebacks -----------------------------------------------------------------------


def test_chart_negative_seed_is_refused() -> None:
    err = refused("chart", "--hands", "AA", "--sample", "--seed", "-1", "--workers", "0")
    assert "--seed" in err and "-1" in err


def test_arena_hands_are_bounded() -> None:
    err = refused("arena", "--bots", "random,station", "--hands", "999999999999", "--no-store")
    assert "at most 1,000,000 hands" in err and "999,999,999,999" in err


@pytest.mark.parametrize(
    "command",
    [
        ["history", "list"],
        ["history", "show", "1"],
        ["history", "stats"],
        ["history", "export", "--phh", "{tmp}/out.phhs"],
        ["history", "import", str(PHH)],
        ["history", "prune", "--older-than", "1"],
        ["arena", "--bots", "random,station", "--hands", "5"],
        ["play", "--bots", "station", "--seats", "2", "--hands", "1"],
        ["web", "--port", "{port}"],
    ],
    ids=lambda c: " ".join(c[:2]),
)
def test_a_store_missing_a_table_is_refused_and_untouched(
    damaged: Path, command: list[str], tmp_path: Path
) -> None:
    before = snapshot(damaged)
    args = [a.format(tmp=tmp_path, port=free_port()) for a in command]
    err = refused(*args, "--db", str(damaged), stdin="c\n" * 40)
    assert f"is damaged: schema {SCHEMA_VERSION} has the table seats, the file has not" in err
    assert snapshot(damaged) == before
    assert not (tmp_path / "out.phhs").exists()


# -- 2. read-only commands open the store read-only ---------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["history", "--db", "{db}", "list"],
        ["history", "list", "--db", "{db}", "--format", "json"],
        ["history", "show", "1", "--db", "{db}"],
        ["history", "show", "1", "--db", "{db}", "--format", "phh"],
        ["history", "stats", "--db", "{db}"],
        ["history", "export", "--db", "{db}", "--phh", "{out}"],
    ],
    ids=lambda c: " ".join(c[:3]),
)
def test_read_only_commands_change_nothing(
    store_file: Path, command: list[str], tmp_path: Path
) -> None:
    """The store in rollback-journal mode stays so: no WAL switch, no write, no side file."""
    connection = sqlite3.connect(store_file)
    connection.execute("PRAGMA journal_mode = DELETE")
    connection.close()
    out = tmp_path / "out" / "hands.phhs"
    out.parent.mkdir()
    before = snapshot(store_file)
    code, stdout, err = run(*[a.format(db=store_file, out=out) for a in command])
    assert code == 0, err
    assert snapshot(store_file) == before
    connection = sqlite3.connect(f"{store_file.as_uri()}?mode=ro", uri=True)
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    connection.close()
    if "list" in command:
        assert "pluribus" in stdout.lower() or "1 of 1" in stdout or '"total": 1' in stdout


def test_listing_a_store_that_does_not_exist_creates_nothing(tmp_path: Path) -> None:
    code, out, err = run("history", "list", "--db", str(tmp_path / "none.sqlite3"))
    assert code == 0, err
    assert "0 of 0 stored hands" in out
    assert os.listdir(tmp_path) == []


# -- 3. worker counts and Ctrl-C on Dask --------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["arena", "--workers", "500", "--hands", "500", "--no-store", "--bots", "random,station"],
        ["chart", "--workers", "500", "--hands", "AA"],
        ["report", "--workers", "500", "--decks", "FESCA42", "--out", "{tmp}/r.html"],
    ],
    ids=lambda c: c[0],
)
def test_worker_counts_are_bounded(command: list[str], tmp_path: Path) -> None:
    most = 4 * (os.cpu_count() or 1)
    err = refused(*[a.format(tmp=tmp_path) for a in command])
    assert "500 workers is too many" in err and f"at most {most}" in err


def _workers_started(pid: int, count: int) -> bool:
    """Whether ``pid`` has ``count`` Dask worker processes (multiprocessing spawns)."""
    import psutil

    try:
        children = psutil.Process(pid).children(recursive=True)
        spawned = [c for c in children if "spawn_main" in " ".join(c.cmdline())]
    except psutil.Error:
        return False
    return len(spawned) >= count


def _like_a_terminal() -> None:
    """In the child, before cardlab starts: SIGINT unblocked and at its default, as a
    shell starts a command (a test process may carry a blocked or ignored SIGINT from
    an earlier test's threads, which the child would inherit and never see Ctrl-C)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt_when_started(args: list[str], tmp_path: Path) -> tuple[int, str]:
    """Run cardlab in its own process group, Ctrl-C the group (as a terminal does) once
    the local cluster's two workers are up, and return (exit code, stderr)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardlab", *args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=tmp_path,
        preexec_fn=_like_a_terminal,
    )
    try:
        started = time.monotonic()
        while not _workers_started(proc.pid, 2):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() - started < 3 * TIMEOUT, "the cluster did not start"
            time.sleep(0.2)
        time.sleep(2)  # tasks under way
        os.killpg(proc.pid, signal.SIGINT)
        _, stderr = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, stderr


@pytest.mark.slow
def test_ctrl_c_stops_a_dask_arena_in_one_line(tmp_path: Path) -> None:
    args = ["arena", "--hands", "100000", "--no-store", "--bots", "random,station"]
    code, stderr = _interrupt_when_started([*args, "--workers", "2"], tmp_path)
    assert code == 130
    assert stderr.strip() == "cardlab: interrupted", stderr


@pytest.mark.slow
def test_ctrl_c_stops_a_dask_chart_in_one_line(tmp_path: Path) -> None:
    args = ["chart", "--game", "fesca78-holdem", "--se", "0.0001", "--no-cache", "--workers", "2"]
    code, stderr = _interrupt_when_started(args, tmp_path)
    assert code == 130
    # the task bar, drawn without a terminal, leaves a blank line where it stood
    said = [line for line in stderr.splitlines() if line.strip()]
    lines = [line for line in said if not line.startswith("cardlab: preparing")]
    assert lines == ["cardlab: interrupted"], stderr


# -- 4. every deck that plays is kept and replayed ----------------------------------------


def _named_like_a_builtin(tmp_path: Path) -> Path:
    """A user's deck that calls itself standard52 but holds 24 cards."""
    path = tmp_path / "standard52.toml"
    path.write_text(SHORT24.read_text().replace('"short24"', '"standard52"'))
    return path


@pytest.mark.parametrize("deck", ["short24", "named-like-standard52"])
def test_play_with_a_user_deck_loses_no_hand(deck: str, tmp_path: Path) -> None:
    """Either the deck's hands are kept and replay, or play says so before dealing: never
    a hand played and then lost with exit 2."""
    path = SHORT24 if deck == "short24" else _named_like_a_builtin(tmp_path)
    db = tmp_path / "hands.sqlite3"
    args = ["play", "--deck", str(path), "--game", "holdem", "--seats", "2"]
    code, out, err = run(
        *args, "--bots", "station", "--hands", "1", "--seed", "3", "--db", str(db), stdin="c\n" * 20
    )
    if code == 2:
        assert err.count("\n") == 1 and "cannot be kept" in err
        assert "hand 1" not in out and "your move" not in out  # nothing was dealt
        assert not db.exists() or Store.open(db, read_only=True).count_hands() == 0
        return
    assert code == 0, err
    assert "1 hand(s) played" in out
    with Store.open(db, read_only=True) as store:
        (kept,) = store.hands()
    code, shown, err = run("history", "show", "1", "--db", str(db), "--format", "json")
    assert code == 0, err
    assert json.loads(shown)["replay"]["finishing_stacks"] == list(kept.finishing_stacks)


@pytest.mark.parametrize("deck", ["short24", "named-like-standard52"])
def test_a_user_deck_hand_round_trips_through_phh(deck: str, tmp_path: Path) -> None:
    from cardlab.decks import load_deck
    from cardlab.table import phh
    from cardlab.table.actions import Action, apply
    from cardlab.table.history import check_recordable, replay, to_history
    from cardlab.table.state import HandState
    from cardlab.table.structure import TableGame

    path = SHORT24 if deck == "short24" else _named_like_a_builtin(tmp_path)
    game = TableGame.create(f"{path}-holdem")
    check_recordable(game)
    hand = HandState(game, [200, 200], seed=11)
    while not hand.is_over:
        apply(hand, Action.call() if hand.legal().call is not None else Action.show())
    again = replay(phh.loads(phh.dumps(to_history(hand))))
    assert again.hand.game.game.deck == load_deck(path)
    assert again.hand.stacks == hand.stacks and again.hand.board == hand.board


# -- 5. contradictions are errors ------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["draw", "--dead", "木7", "木7 火7 水2 陰陽9 木11"], "is both held and dead"),
        (
            ["poker", "compare", "木1 火2 土3 金4 水5", "木1 火3 土4 金5 水6"],
            "is in hand 1 and in hand 2",
        ),
        (["ties", "-r", "suit_tiebreak=off"], "drop -r suit_tiebreak"),
        (["ties", "-g", "standard52-holdem", "-o", "suit_tiebreak=on"], "drop -r suit_tiebreak"),
        (["report", "--compare-options", "", "--out", "{tmp}/r.html"], "NAME=VALUE"),
    ],
    ids=["draw dead", "compare", "ties rule", "ties rule on", "report compare"],
)
def test_contradictions_are_one_line(args: list[str], needle: str, tmp_path: Path) -> None:
    assert needle in refused(*[a.format(tmp=tmp_path) for a in args])


# -- 6. FIFOs and devices ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "needle"),
    [
        (["history", "--db", "{fifo}", "list"], "the hand store '{fifo}' is not a regular file"),
        (["history", "list", "--db", "{fifo}"], "is not a regular file"),
        (["history", "stats", "--db", "/dev/zero"], "is not a regular file"),
        (["play", "--db", "{fifo}", "--bots", "station"], "is not a regular file"),
        (["arena", "--db", "{fifo}", "--bots", "random,station"], "is not a regular file"),
        (["web", "--db", "{fifo}", "--port", "{port}"], "is not a regular file"),
        (["history", "--db", "/dev/null", "list"], "'/dev/null' is not a regular file"),
        (["history", "export", "--phh", "{fifo}"], "cannot write '{fifo}': not a regular file"),
    ],
    ids=lambda c: " ".join(c[:3]) if isinstance(c, list) else None,
)
def test_special_files_are_refused_without_blocking(
    command: list[str], needle: str, tmp_path: Path, store_file: Path
) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    port = free_port()
    args = [a.format(fifo=fifo, port=port) for a in command]
    if "export" in args:
        args += ["--db", str(store_file)]
    assert needle.format(fifo=fifo) in refused(*args)


# -- 7. sampling has a bound ---------------------------------------------------------------


@pytest.fixture(scope="module")
def huge_deck(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The six FESCA suits with 20 ranks: 120 cards, 3e14 evaluations of exact Omaha."""
    path = tmp_path_factory.mktemp("huge") / "huge.toml"
    ranks = ", ".join(f'{{key = "r{i}", value = {i}}}' for i in range(1, 21))
    path.write_text(f'name = "huge"\nsuits = ["M", "K", "D", "G", "S", "Y"]\nranks = [{ranks}]\n')
    return str(path)


@pytest.mark.parametrize(
    "args",
    [
        ["equity", "As Ac", "Kd Kh", "--samples", "99999999999999999999"],
        ["equity", "As Ac", "Kd Kh", "--samples", "1" + "0" * 400],
        ["ties", "--samples", "99999999999999999999"],
        ["openseven", "simulate", "--games", "99999999999999"],
        ["chart", "--se", "1e-12"],
        ["chart", "--se", "1e-12", "--workers", "0"],
        ["report", "--tie-samples", "99999999999999", "--out", "{tmp}/r.html"],
    ],
    ids=[
        "equity",
        "equity 1e400",
        "ties",
        "simulate",
        "chart",
        "chart here",
        "ties",
    ],
)
def test_runs_past_a_day_are_refused_with_the_estimate(
    args: list[str], huge_deck: str, tmp_path: Path
) -> None:
    err = refused(*[a.format(huge=huge_deck, tmp=tmp_path) for a in args])
    assert "would take about" in err and "(the limit is 24 h)" in err
    assert " days " in err or " days on" in err
    assert not (tmp_path / "r.html").exists()


def test_exact_omaha_past_the_memory_is_refused_with_the_estimate(
    huge_deck: str, tmp_path: Path
) -> None:
    """The huge deck's exact Omaha listing would hold about 32 GB (it would also take
    days): refused before any work, with the memory estimate and the way out."""
    err = refused("report", "--exact-omaha", "--decks", huge_deck, "--out", f"{tmp_path}/r.html")
    assert "would hold about" in err and "(the limit is 4.0 GB)" in err
    assert "drop --exact-omaha" in err
    assert not (tmp_path / "r.html").exists()


def test_target_se_missed_at_the_cap_is_said() -> None:
    hands = ["As Ac", "Kd Kh"]
    args = ["equity", *hands, "--samples", "200000", "--seed", "1"]
    code, out, err = run(*args, "--target-se", "0.000001")
    assert code == 0, err
    assert "the target standard error 1e-06 was not reached" in out and "200,000 deals" in out
    code, out, err = run(*args, "--target-se", "0.000001", "--format", "json")
    data = json.loads(out)
    assert data["target_reached"] is False and data["deals"] == 200_000
    assert max(p["equity_se"] for p in data["players"]) > 1e-6
    code, out, err = run(*args, "--target-se", "0.01", "--format", "json")
    data = json.loads(out)
    assert data["target_reached"] is True and max(p["equity_se"] for p in data["players"]) <= 0.01
    code, out, _ = run(*args, "--target-se", "0.01")
    assert "not reached" not in out


# -- 8. clear messages -----------------------------------------------------------------


@pytest.fixture(scope="module")
def small_decks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    d = tmp_path_factory.mktemp("small")
    (d / "six.toml").write_text('name = "six"\nsuits = ["M", "K"]\nranks = ["1", "2", "3"]\n')
    (d / "one.toml").write_text('name = "one"\nsuits = ["M"]\nranks = ["1"]\n')
    return {"six": str(d / "six.toml"), "one": str(d / "one.toml")}


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (
            ["play", "-d", "{six}", "-g", "holdem"],
            "needs at least 9 cards for two players; the six",
        ),
        (["arena", "-d", "{six}", "-g", "holdem", "--no-store"], "needs at least 9 cards"),
        (["arena", "-d", "{one}", "-g", "stud", "--no-store"], "needs at least 13 cards"),
        (["chart", "-d", "{one}", "-g", "holdem", "--workers", "0"], "the one deck has 1"),
        (["ties", "-d", "{one}", "-g", "holdem"], "needs at least 9 cards"),
        (["arena", "--bots", "equity", "--no-store"], "one bot (equity) fills one seat"),
    ],
    ids=["play six", "arena six", "stud one", "chart one", "ties one", "arena one bot"],
)
def test_messages_say_what_is_wrong(
    args: list[str], needle: str, small_decks: dict[str, str]
) -> None:
    err = refused(*[a.format(**small_decks) for a in args])
    assert needle in err
    assert "2 to 0" not in err and "-2" not in err


def test_db_goes_before_or_after_the_history_command(store_file: Path, tmp_path: Path) -> None:
    before = run("history", "--db", str(store_file), "list", "--format", "json")
    after = run("history", "list", "--format", "json", "--db", str(store_file))
    assert before[0] == after[0] == 0 and before[1] == after[1]
    assert json.loads(after[1])["total"] == 1
    err = refused("history", "--db", str(store_file), "list", "--db", str(tmp_path / "x"))
    assert "--db is given twice" in err


def test_a_bad_stored_hand_is_named(tmp_path: Path) -> None:
    from cardlab.store import HandRecord

    db = tmp_path / "bad.sqlite3"
    with Store.open(db) as store:
        store.add_hand(
            HandRecord(
                game="standard52-holdem",
                variant="NT",
                phh="variant = = 'NT'\n",
                players=("a", "b"),
                starting_stacks=(10, 10),
                finishing_stacks=(12, 8),
                board="",
                actions=1,
                showdown=False,
                decided_by=None,
                source="test",
            )
        )
    for command in (["show", "1"], ["export", "--phh", str(tmp_path / "x.phhs")]):
        err = refused("history", *command, "--db", str(db))
        assert f"hand 1 in the hand store '{db}'" in err and "not valid TOML" in err


@pytest.mark.parametrize(
    ("actions", "needle"),
    [
        ("'d dh p1 AsKs', 'd dh p2 QdQh', 'p1 f'", "p1 acts out of turn (p2 is to act)"),
        ("'d dh p1 AsKs', 'd dh p2 QdQh', 'p2 f', 'p1 cc'", "(the hand is over)"),
        ("'d dh p1 AsKs', 'p2 cc'", "(the cards are not dealt yet)"),
    ],
)
def test_heads_up_out_of_turn_says_who_is_to_act(actions: str, needle: str, tmp_path: Path) -> None:
    path = tmp_path / "hu.phh"
    path.write_text(
        "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
        f"starting_stacks = [200, 200]\nactions = [{actions}]\n"
    )
    # the file reads, its one hand does not replay: exit 1, the hand's error said
    code, out, err = run("replay", str(path))
    assert code == 1 and "Traceback" not in out + err
    assert needle in err and "nobody is to act" not in err


def test_a_huge_raise_at_the_prompt_says_the_range(tmp_path: Path) -> None:
    db = str(tmp_path / "h.sqlite3")
    args = ["play", "-g", "standard52-holdem", "--seats", "2", "--bots", "station", "--db", db]
    code, out, err = run(*args, "--hands", "1", stdin="r 99999999999999999999\nq\n")
    assert code == 0, err
    assert "at most 200" in " ".join(out.split()) and "whole amount" not in out
