"""Every entry holds (issue 36, third pass): output to a full disk or a closed pipe,
closed stdin, the environment, junk options, huge numbers in files, names the OS refuses.
Each test failed before its fix.

Where the real process matters (descriptors, the interpreter's flush at exit, numba's
start) the runs are subprocesses; elsewhere in this process (:func:`_cli.run_cli`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from _cli import assert_answer_or_one_line, run_cli

DATA = Path(__file__).resolve().parent / "data"
PHH = DATA / "phh" / "pluribus-100-0.phh"
TIMEOUT = 300  # a first run may compile kernels


def cardlab(
    *args: str,
    stdout: int | None = subprocess.PIPE,
    stdin: int | None = subprocess.DEVNULL,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``cardlab ARGS`` in a process of its own, without a daemon."""
    return subprocess.run(
        [sys.executable, "-m", "cardlab", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        stdin=stdin,
        text=True,
        check=False,
        timeout=TIMEOUT,
        env={**os.environ, "CARDLAB_DAEMON": "off", **(env or {})},
    )


def one_line(result: subprocess.CompletedProcess[str], *needles: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stderr[-3000:])
    err = result.stderr
    assert err.startswith("cardlab: error: ") and err.count("\n") == 1, err[-3000:]
    for needle in needles:
        assert needle in err, err


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("store") / "hands.sqlite3"
    result = cardlab("history", "--db", str(db), "import", str(PHH))
    assert result.returncode == 0, result.stderr
    return db


# -- 1. output to a full disk, or to a reader that went away ------------------------------

WRITERS = [
    ["decks"],
    ["--help"],
    ["poker", "rank", "-d", "standard52", "As Ks Qs Js Ts"],
    ["poker", "table", "-d", "standard52"],
    ["openseven", "odds"],
    ["verify", str(PHH)],
    ["history", "list", "--db", "{db}"],
    ["solve", "cfr"],
    ["replay", "--format", "json", str(PHH)],
    ["play", "--bots", "station", "--seats", "2", "--hands", "1", "--db", "{tmp}/p.sqlite3"],
]


@pytest.mark.parametrize("args", WRITERS, ids=lambda a: " ".join(a[:2]))
def test_output_to_a_full_disk_is_one_line(args: list[str], store: Path, tmp_path: Path) -> None:
    argv = [a.format(db=store, tmp=tmp_path) for a in args]
    with open("/dev/full", "w") as full:
        result = cardlab(*argv, stdout=full.fileno())
    one_line(result, "cannot write to standard output: No space left on device")


@pytest.mark.parametrize(
    "args", [["poker", "table", "-d", "standard52"], ["--help"], ["decks"]], ids=str
)
def test_a_reader_that_went_away_is_a_quiet_exit_0(args: list[str]) -> None:
    """Rich's tables and click's text alike (rich said 1, the others 0)."""
    read, write = os.pipe()
    os.close(read)
    try:
        result = cardlab(*args, stdout=write)
    finally:
        os.close(write)
    assert (result.returncode, result.stderr) == (0, "")


def test_full_disk_in_this_process_is_one_line() -> None:
    code, out, err = run_cli(["decks"], full_disk=True)
    assert_answer_or_one_line(code, out, err, codes=(2,))
    assert "No space left on device" in err


# -- 4. closed stdin, Ctrl-C at a prompt and in the web server ------------------------------


def _close_stdin_like_a_terminal() -> None:
    import signal

    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.close(0)


CLOSED_STDIN = [
    ["play", "--bots", "station", "--seats", "2", "--hands", "1", "--db", "{tmp}/p.sqlite3"],
    ["play", "--bots", "station", "--seats", "2", "--hands", "3", "--rebuy", "--db", "{tmp}/q"],
    ["openseven", "play"],
]


@pytest.mark.parametrize("args", CLOSED_STDIN, ids=lambda a: " ".join(a[:2]))
def test_closed_stdin_is_one_line(args: list[str], tmp_path: Path) -> None:
    """``cardlab play <&-``: Python starts with ``sys.stdin`` None."""
    result = subprocess.run(
        [sys.executable, "-m", "cardlab", *(a.format(tmp=tmp_path) for a in args)],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**os.environ, "CARDLAB_DAEMON": "off"},
        preexec_fn=_close_stdin_like_a_terminal,
        check=False,
    )
    one_line(result, "cannot read standard input: it is closed")


def test_closed_stdin_in_this_process(tmp_path: Path) -> None:
    args = ["play", "--bots", "station", "--seats", "2", "--db", str(tmp_path / "p.sqlite3")]
    code, out, err = run_cli(args, stdin=None)
    assert_answer_or_one_line(code, out, err, codes=(2,))
    assert "cannot read standard input" in err


def _like_a_terminal() -> None:
    import signal

    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt_once(
    args: list[str], ready: str, *, on_stderr: bool, sig: int | None = None
) -> tuple[int, str, str]:
    """Start ``cardlab ARGS``, wait for ``ready`` in its output, press Ctrl-C (or send
    ``sig``)."""
    import signal
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "cardlab", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "CARDLAB_DAEMON": "off"},
        preexec_fn=_like_a_terminal,
    )
    assert proc.stdout is not None and proc.stderr is not None
    watched = proc.stderr if on_stderr else proc.stdout
    os.set_blocking(watched.fileno(), False)
    seen = b""
    started = time.monotonic()
    try:
        while ready.encode() not in seen:
            assert proc.poll() is None, (seen, proc.communicate())
            assert time.monotonic() - started < TIMEOUT, seen
            seen += watched.read() or b""
            time.sleep(0.05)
        time.sleep(0.3)
        proc.send_signal(signal.SIGINT if sig is None else sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if on_stderr:
        err = seen + err
    else:
        out = seen + out
    return proc.returncode, out.decode(), err.decode()


def test_ctrl_c_at_the_play_prompt_is_exit_130(tmp_path: Path) -> None:
    args = ["play", "--bots", "station", "--seats", "2", "--hands", "5"]
    code, out, err = _interrupt_once(
        [*args, "--db", str(tmp_path / "p.sqlite3")], "your move", on_stderr=False
    )
    assert (code, err) == (130, "cardlab: interrupted\n"), (code, out[-500:], err)
    assert "hand(s) played" in out  # the session's summary still said


def test_ctrl_c_stops_the_web_server_with_exit_130() -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, _, err = _interrupt_once(
        ["web", "--port", str(port), "--memory"], "Ctrl+C stops", on_stderr=True
    )
    assert code == 130, err
    assert err.endswith("(Ctrl+C stops)\ncardlab: interrupted\n"), err


def test_sigterm_stops_a_lone_web_server_with_exit_0() -> None:
    """systemd's stop: with no other process to hand its tables to, at once, cleanly."""
    import signal
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code, _, err = _interrupt_once(
        ["web", "--port", str(port), "--memory"], "Ctrl+C stops", on_stderr=True, sig=signal.SIGTERM
    )
    assert code == 0, err
    assert err.endswith("(Ctrl+C stops)\n"), err


def test_ctrl_c_is_one_line_without_a_blank_line_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """click's main printed an empty line before Ctrl-C's (and an EOFError's) message."""

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("cardlab.cli.replay.hands_of", interrupted)
    monkeypatch.setattr("cardlab.cli.verify.load_histories", interrupted)
    for args in (["replay", str(PHH)], ["verify", str(PHH)]):
        code, out, err = run_cli(args)
        assert (code, err) == (130, "cardlab: interrupted\n"), (args, out, err)


def test_data_ending_early_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def ended(*args: object, **kwargs: object) -> None:
        raise EOFError("Compressed file ended before the end-of-stream marker was reached")

    monkeypatch.setattr("cardlab.cli.replay.hands_of", ended)
    code, out, err = run_cli(["replay", str(PHH)])
    assert_answer_or_one_line(code, out, err, codes=(2,))


# -- 6. the environment --------------------------------------------------------------------


@pytest.mark.parametrize("value", ["0", "abc", "-1", "", "4.5", "9" * 30, "100000"])
def test_numba_threads_out_of_range_are_one_line(value: str) -> None:
    """numba reads NUMBA_NUM_THREADS at import: a traceback (0) or a warning (abc) there."""
    args = ["equity", "-g", "standard52-holdem", "As Ah", "Kd Kc", "--samples", "1000"]
    one_line(cardlab(*args, env={"NUMBA_NUM_THREADS": value}), "NUMBA_NUM_THREADS")


def test_numba_threads_checked_in_this_process() -> None:
    code, out, err = run_cli(["decks"], env={"NUMBA_NUM_THREADS": "0"})
    assert_answer_or_one_line(code, out, err, codes=(2,))


def test_a_utf16_error_is_one_line() -> None:
    """PYTHONIOENCODING=utf-16: the error is one line in its encoding (a BOM first)."""
    result = subprocess.run(
        [sys.executable, "-m", "cardlab", "poker", "rank", "木1 木1 土3 金4 水5"],
        capture_output=True,
        timeout=TIMEOUT,
        env={**os.environ, "CARDLAB_DAEMON": "off", "PYTHONIOENCODING": "utf-16"},
        check=False,
    )
    err = result.stderr.decode("utf-16")
    assert result.returncode == 2
    assert err.startswith("cardlab: error: ") and err.count("\n") == 1, err
    assert result.stderr.count("\n".encode("utf-16-le")) == 1


# -- 5. junk options --------------------------------------------------------------------------


def _kuhn(tmp_path: Path) -> Path:
    from importlib import resources

    game = tmp_path / "g.toml"
    text = resources.files("cardlab.solve").joinpath("builtin/kuhn.toml").read_text("utf-8")
    game.write_text(text, encoding="utf-8")
    return game


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["web", "--memory", "--allow-origin", "not a url"], "scheme://host[:port]"),
        (["web", "--memory", "--allow-origin", "*"], "scheme://host[:port]"),
        (["web", "--memory", "--allow-origin", ""], "scheme://host[:port]"),
        (["web", "--memory", "--allow-origin", "https://" + "a" * 100_000], "scheme://host"),
        (["web", "--memory", "--idle-close", "nan"], "'nan' is not a finite number"),
        (["web", "--memory", "--retention-days", "nan"], "'nan' is not a finite number"),
        (["web", "--memory", "--proxy-hops", "2"], "need --trust-proxy"),
        (["web", "--memory", "--proxy-address", "10.0.0.1"], "need --trust-proxy"),
        (["web", "--memory", "--trust-proxy", "--proxy-address", "junk"], "a proxy address is"),
        (["web", "--memory", "--trust-proxy", "--proxy-hops", "11"], "not in the range"),
        (["web", "--memory", "--max-sockets", "0"], "not in the range"),
        (["web", "--memory", "--drain-timeout", "nan"], "'nan' is not a finite number"),
        (["solve", "pushfold", "--workers", "100000"], "100000 workers is too many"),
        (["solve", "pushfold", "--scheduler", "junk"], "host:port"),
        (["chart", "--hands", "AA", "--scheduler", "tcp://host:99999"], "host:port"),
        (["arena", "--bots", "random,station", "--scheduler", "a b", "--no-store"], "host:port"),
        (["poker", "rules", "--deck", ""], "the name is empty"),
        (["poker", "rules", "--deck", "  "], "the name is empty"),
        (["openseven", "simulate", "--seed", "-1"], "-1 is not in the range"),
        (["solve", "cfr", "--game", "kuhn", "--target-exploitability", "nan"], "finite"),
        (["solve", "cfr", "--game", "{game}", "--out", "{game}"], "never overwrites an input"),
    ],
    ids=lambda v: " ".join(v)[:50] if isinstance(v, list) else None,
)
def test_junk_options_are_refused(args: list[str], needle: str, tmp_path: Path) -> None:
    game = _kuhn(tmp_path)
    before = game.read_bytes()
    argv = [a.format(game=game) for a in args]
    code, out, err = run_cli(argv, stdin=None, timeout=30)
    assert_answer_or_one_line(code, out, err, codes=(2,))
    assert needle in err, err
    assert game.read_bytes() == before


def test_an_output_beside_its_input_is_fine(tmp_path: Path) -> None:
    game = _kuhn(tmp_path)
    code, _, err = run_cli(
        ["solve", "cfr", "--game", str(game), "-n", "20", "--out", str(tmp_path / "o.json")]
    )
    assert code == 0, err


# -- 2. numbers in files: digits, exponents, nan ---------------------------------------------

SHORT24 = DATA / "decks" / "short24.toml"
BIG = "9" * 5000


def _phh_with(tmp_path: Path, name: str, old: str, new: str) -> str:
    text = PHH.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


STACKS = "starting_stacks = [10000, 10000,"


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        (BIG, "5,000 digits"),
        ("1e5000", "exponent 5000"),
        ("1e999999", "exponent 999999"),
        ("1e-999999", "exponent -999999"),
        ("0." + "0" * 4000 + "1", "4,001 digits"),
        ("nan", "nan"),
    ],
    ids=["digits", "e5000", "e999999", "e-999999", "fraction", "nan"],
)
@pytest.mark.parametrize("command", ["replay", "verify", "history import"])
def test_numbers_in_a_phh_file_are_bounded(
    value: str, needle: str, command: str, tmp_path: Path
) -> None:
    phh = _phh_with(tmp_path, "big.phh", STACKS, f"starting_stacks = [{value}, 10000,")
    args = command.split()
    if command == "history import":
        args += ["--db", str(tmp_path / "h.sqlite3")]
    code, out, err = run_cli([*args, phh], timeout=20)
    assert_answer_or_one_line(code, out, err, codes=(1, 2))
    said = (out + err).lower()  # import lists what it skipped on stdout
    assert "starting_stacks" in said and needle in said, (out, err)


def test_a_big_number_in_an_action_is_bounded(tmp_path: Path) -> None:
    phh = _phh_with(tmp_path, "act.phh", "p4 cbr 210", f"p4 cbr {BIG}")
    code, out, err = run_cli(["replay", phh], timeout=20)
    assert_answer_or_one_line(code, out, err, codes=(1, 2))
    assert "'actions'" in err and "5,000 digits" in err


@pytest.mark.parametrize(
    ("extra", "needle"),
    [(f"wrap_extra = {BIG}", "5,000 digits"), ("weight = 1e5000", "exponent"), ("x = nan", "nan")],
    ids=["digits", "exponent", "nan"],
)
@pytest.mark.parametrize(
    "command",
    [["decks", "show", "{deck}"], ["poker", "rank", "--deck", "{deck}", "9c Tc Jc Qc Kc"]],
    ids=lambda c: " ".join(c[:2]),
)
def test_numbers_in_a_deck_file_are_bounded(
    extra: str, needle: str, command: list[str], tmp_path: Path
) -> None:
    deck = tmp_path / "big.toml"
    deck.write_text(SHORT24.read_text(encoding="utf-8") + f"\n{extra}\n", encoding="utf-8")
    code, out, err = run_cli([a.format(deck=deck) for a in command], timeout=20)
    assert_answer_or_one_line(code, out, err, codes=(2,))
    assert needle in err and ("line" in err or needle == "nan"), err


@pytest.mark.parametrize("value", [BIG, "1e999999", "inf", "nan"])
def test_numbers_in_a_game_file_are_bounded(value: str, tmp_path: Path) -> None:
    game = _kuhn(tmp_path)
    game.write_text(game.read_text().replace("ante = 1", f"ante = {value}"), encoding="utf-8")
    code, out, err = run_cli(["solve", "cfr", "--game", str(game), "-n", "10"], timeout=20)
    assert_answer_or_one_line(code, out, err, codes=(2,))
    assert "ante" in err, err


# -- 3. names the OS refuses ------------------------------------------------------------------

LONG = "a" * 300


@pytest.mark.parametrize(
    "args",
    [
        ["history", "list", "--db", "{tmp}/{long}/h.sqlite3"],
        ["history", "import", str(PHH), "--db", "{tmp}/{long}.sqlite3"],
        ["play", "--bots", "station", "--seats", "2", "--hands", "1", "--db", "{tmp}/{long}"],
        ["arena", "--bots", "random,station", "--hands", "2", "--db", "{tmp}/{long}"],
        ["web", "--port", "1", "--db", "{tmp}/{long}"],
        ["openseven", "export", "-n", "4", "--out", "{tmp}/{long}.csv"],
        ["chart", "--hands", "AA", "--workers", "0", "--cache", "{tmp}/{long}"],
        ["history", "import", "{tmp}/{long}.phh", "--db", "{tmp}/h.sqlite3"],
        ["history", "copy", "{tmp}/{long}", "{tmp}/h.sqlite3"],
        ["history", "copy", str(PHH), "{tmp}/{long}"],
    ],
    ids=lambda a: " ".join(a[:3])[:40],
)
def test_a_name_too_long_is_one_line(args: list[str], tmp_path: Path) -> None:
    argv = [a.format(tmp=tmp_path, long=LONG) for a in args]
    code, out, err = run_cli(argv, stdin="", timeout=60)
    assert_answer_or_one_line(code, out, err, codes=(2,))
    assert "300 bytes" in err or "a file name has at most 255" in err, err
    assert list(tmp_path.iterdir()) == []  # nothing made


@pytest.mark.parametrize(
    ("name", "args"),
    [
        ("CARDLAB_DB", ["history", "list"]),
        ("CARDLAB_DB", ["play", "--bots", "station", "--seats", "2", "--hands", "1"]),
        ("CARDLAB_DAEMON_DIR", ["daemon", "status"]),
        ("CARDLAB_DAEMON_DIR", ["daemon", "start"]),
    ],
    ids=lambda v: v if isinstance(v, str) else " ".join(v[:2]),
)
def test_an_environment_name_too_long_is_one_line(
    name: str, args: list[str], tmp_path: Path
) -> None:
    result = cardlab(*args, env={name: str(tmp_path / LONG)})
    one_line(result, name, "at most 255")
    assert list(tmp_path.iterdir()) == []


def test_a_daemon_directory_too_long_for_a_socket_is_said_at_once(tmp_path: Path) -> None:
    folder = tmp_path / ("d" * 100)
    result = cardlab("daemon", "start", env={"CARDLAB_DAEMON_DIR": str(folder)})
    one_line(result, "a Unix socket's path has at most 107")


def test_a_daemon_that_cannot_listen_is_reported_at_once(tmp_path: Path) -> None:
    """The socket's path is a directory: the server ends at once, and `start` says why
    (it waited 300 s)."""
    from cardlab.cli._daemon import wire

    folder = tmp_path / "d"
    folder.mkdir(mode=0o700)
    (folder / f"daemon-{wire.installation_key()}.sock").mkdir()
    result = cardlab("daemon", "start", env={"CARDLAB_DAEMON_DIR": str(folder)})
    one_line(result, "the daemon ended as it started", "Is a directory")


# -- 7. equity samples by default where enumeration cannot apply -----------------------------


def test_partial_stud_hands_are_sampled_by_default() -> None:
    from cardlab.poker.equity import enumerates
    from cardlab.poker.games import get_game

    stud = get_game("standard52-stud")
    assert not enumerates(stud, ["As Ah Kd", "Qc Qs 2h"])
    assert enumerates(get_game("standard52-holdem"), ["As Ah", "Kd Kc"])
    args = ["equity", "--game", "standard52-stud", "As Ah Kd", "Qc Qs 2h", "--format", "json"]
    code, out, err = run_cli([*args, "--seed", "1"], timeout=300)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["exact"] is False and answer["deals"] >= 100_000


@pytest.mark.parametrize(
    "text",
    [
        '_commitment = "3e78042a9f"',  # a digest whose letters and digits look like 3e78042
        '_seed = "00af7e99999c"',
        'name = "x1e9999"',
    ],
)
def test_words_that_only_look_like_exponents_are_read(text: str) -> None:
    """A fair deal's digest is hexadecimal: its 'e' between digits is no exponent (the
    restart tests' hands carry one, and were refused)."""
    from cardlab._toml_numbers import check_text
    from cardlab.errors import HistoryError

    check_text(text, "PHH text", HistoryError)  # no error
    with pytest.raises(HistoryError, match="exponent 5000"):
        check_text(text + '\nactions = ["p1 cbr 1e5000"]', "PHH text", HistoryError)
