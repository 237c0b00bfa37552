"""Every command with bad or extreme input: one line on stderr, exit code 2, no traceback.

Most cases run in this process through :func:`cardlab.cli.main` (fast); the ones that
could block or that depend on the process's streams (a FIFO, /dev/zero, an ASCII-only
stdout, Ctrl-C) run as subprocesses with a timeout, so a regression fails instead of
hanging. Times are bounded by timeouts, never asserted.

The playing side's commands with hand-store files of every broken shape and FIFOs are in
``test_cli_bad_input_playing.py``; their fuzz is in ``test_cli_fuzz_playing.py``.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _support import deadline
from cardlab.cli import main
from cardlab.errors import CardlabError

TIMEOUT = 60  # seconds a subprocess may take before the case counts as hanging


# --- generated bad files ----------------------------------------------------------


@pytest.fixture(scope="module")
def bad(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Bad deck files and output places, by name."""
    d = tmp_path_factory.mktemp("bad")
    files = {
        "binary": (d / "binary.toml", bytes(range(256)) * 4),
        "utf16": (d / "utf16.toml", 'name = "x"\nsuits = ["M"]\nranks = ["1"]\n'.encode("utf-16")),
        "latin1": (d / "latin1.toml", 'name = "caf\xe9"\nsuits = ["M"]\n'.encode("latin-1")),
        "nested": (d / "nested.toml", ("x = " + "[" * 5000 + "]" * 5000 + "\n").encode()),
        "suits": (
            d / "suits.toml",
            (
                'name = "wide"\nranks = ["1", "2", "3"]\nsuits = ['
                + ", ".join(f'{{key = "S{i}"}}' for i in range(10_000))
                + "]\n"
            ).encode(),
        ),
        "tiny": (d / "tiny.toml", b'name = "tiny"\nsuits = ["M"]\nranks = ["1", "2", "3"]\n'),
        "notoml": (d / "notoml.toml", b"this is = = not toml\n"),
    }
    out: dict[str, str] = {}
    for name, (path, data) in files.items():
        path.write_bytes(data)
        out[name] = str(path)
    fifo = d / "fifo.toml"
    os.mkfifo(fifo)
    out["fifo"] = str(fifo)
    zero = d / "zero.toml"
    zero.symlink_to("/dev/zero")
    out["zero"] = str(zero)
    out["dir"] = str(d)
    out["missing"] = str(d / "no" / "such" / "dir" / "x.csv")
    return out


def random_row(cards: int, seed: int) -> str:
    values = list(range(1, cards + 1))
    random.Random(seed).shuffle(values)
    return " ".join(map(str, values))


# (argument list, a word the message must contain); "{name}" is a file of `bad`
CASES: list[tuple[list[str], str]] = [
    # decks
    (["decks", "show", "NOPE"], "unknown deck"),
    (["decks", "show", "{binary}"], "not UTF-8"),
    (["decks", "show", "{utf16}"], "UTF-16"),
    (["decks", "show", "{latin1}"], "not UTF-8"),
    (["decks", "show", "{nested}"], "nests too deeply"),
    (["decks", "show", "{suits}"], "at most 31 ranks and 15 suits"),
    (["decks", "show", "{notoml}"], "not valid TOML"),
    (["decks", "show", "{fifo}"], "not a regular file"),
    (["decks", "show", "{zero}"], "not a regular file"),
    (["decks", "show", "/dev/zero"], "not a regular file"),
    (["decks", "show", "{dir}/absent.toml"], "cannot read"),
    (["decks", "--format", "xml"], "xml"),
    # poker
    (["poker", "table", "-d", "{suits}"], "at most 31 ranks and 15 suits"),
    (["poker", "table", "-d", "{tiny}"], "at least 5 cards"),
    (["poker", "table", "-d", "{tiny}", "--hand-size", "7"], "at least 7 cards"),
    (["poker", "table", "-g", "draw"], "holdem, stud or omaha"),
    (["poker", "table", "-g", "standard52-holdem", "-d", "FESCA78"], "names its own deck"),
    (["poker", "table", "--hand-size", "9"], "9"),
    (["poker", "rank", "木1 火2 土3 金4"], "five"),
    (["poker", "rank", "-r", "compound", "木1 火2 土3 金4 水5"], "NAME=VALUE"),
    (["poker", "rank", "-o", "nope=1", "木1 火2 土3 金4 水5"], "unknown rule option"),
    (["poker", "rank", "-d", "standard52", "As 1s Kd Qd Jd"], "given twice"),
    (["poker", "rank", "-d", "{fifo}", "As Ks Qs Js Ts"], "not a regular file"),
    (["poker", "compare", "木1 火2 土3 金4 水5"], "at least two"),
    (["poker", "rules", "-d", "NOPE"], "unknown deck"),
    # showdown, equity, ties, draw: refused before any dealing
    (["showdown", "-g", "{tiny}-holdem", "M1", "M2"], "at least 9 cards"),
    (["showdown", "-g", "nope", "As Ad", "Kc Kd"], "unknown game"),
    (["showdown", "-g", "holdem", "As Ad", "Kc Kd"], "needs --deck"),
    (["showdown", "-r", "=x", "As Ad", "Kc Kd"], "NAME=VALUE"),
    (["equity", "-g", "nope", "As Ad", "Kc Kd"], "unknown game"),
    (["equity", "-r", "suit_tiebreak=maybe", "As Ad", "Kc Kd"], "on or off"),
    (["equity", "-d", "{suits}", "-g", "holdem", "As Ad", "Kc Kd"], "at most 31 ranks"),
    (["equity", "As Ad", "Kc Kd", "--samples", "9" * 30], "would take about"),
    (["ties", "-g", "nope"], "unknown game"),
    (["ties", "-g", "fesca78-holdem", "-g", "nope"], "unknown game"),  # before any sampling
    (["ties", "-r", "suit_tiebreak=on"], "drop -r suit_tiebreak"),
    (["ties", "--samples", "9" * 30], "would take about"),
    (["ties", "-d", "{tiny}"], "at least 9 cards"),
    (["draw", "-g", "nope", "As Kd Qd Jd Td"], "unknown game"),
    (["draw", "-g", "standard52-draw", "--dead", "As", "As Kd Qd Jd Td"], "both held and dead"),
    (["poker", "compare", "-d", "standard52", "As Kd Qd Jd Td", "As 2c 3c 4c 5h"], "in hand 1"),
    # openseven
    (["openseven", "export", "-n", "4", "--out", "{missing}"], "no directory"),
    (["openseven", "export", "-n", "4", "--out", ""], "empty"),
    (["openseven", "export", "-n", "4", "--out", "/proc/version"], "/proc/version"),
    (["openseven", "export", "-n", "4", "--out", "/dev/full"], "not a regular file"),
    (["openseven", "export", "-n", "4", "--out", "{dir}"], "directory"),
    (["openseven", "export", "-n", "12", "--out", "{dir}/x.csv"], "1..11"),
    (["openseven", "sweep", "--plot", "{missing}.png"], "no directory"),
    (["openseven", "sweep", "--plot", "/proc/self/x.png"], "cannot write"),
    (["openseven", "sweep", "--plot", "{dir}/p.xyz"], ".png"),
    (["openseven", "solve", random_row(2000, 1)], "1..1000"),
    (["openseven", "solve", "1 1 2"], "permutation"),
    (["openseven", "solve", "--limit", "-1", "1"], "-1"),
    (["openseven", "table", "-n", "20"], "1..14"),
    (["openseven", "odds", "-n", "100"], "1..60"),
    (["openseven", "simulate", "--games", "-1"], "-1"),
    (["openseven", "simulate", "--games", "9" * 20], "would take about"),
    (["openseven", "play", "--moves", "9", "--arrangement", "2 3 1"], "9"),
    # replay and history (hand files and the hand store)
    (["replay", "{dir}/absent.phh"], "cannot read"),
    (["replay", "{binary}"], "not UTF-8"),
    (["replay", "{fifo}"], "not a regular file"),
    (["history", "--db", "{binary}", "list"], "not a cardlab hand store"),
    (["history", "--db", "{missing}", "list"], "cannot open"),
    (["history", "list", "--db", "{binary}"], "not a cardlab hand store"),
    (["history", "--db", "{fifo}", "stats"], "not a regular file"),
    (["history", "show", "0"], "0"),
    (["history", "list", "--limit", "0"], "--limit"),
    (["history", "import", "{fifo}"], "not a regular file"),
    (["history", "import", "{binary}"], "not UTF-8"),
    (["history", "import", "{notoml}"], "not valid TOML"),
    (["history", "export", "--phh", "{dir}"], "directory"),
    (["history", "export", "--phh", "{missing}"], "no directory"),
    (["history", "export", "--phh", "{fifo}"], "not a regular file"),
    (["history", "export", "--phh", "/dev/full"], "not a regular file"),
    (["history", "prune", "--older-than", "-1"], "-1"),
    (["replay", "{notoml}"], "not valid TOML"),
    (["replay", "{dir}"], "directory"),
    # play and arena: refused before any hand
    (["play", "--blinds", "x"], "SMALL/BIG"),
    (["play", "--stack", "0"], "positive whole number"),
    (["play", "--seats", "1"], "--seats"),
    (["play", "--levels", "10/20"], "need --tournament"),
    (["play", "--deck", "{binary}", "-g", "holdem"], "not UTF-8"),
    (["play", "--deck", "{fifo}", "-g", "holdem"], "not a regular file"),
    (["play", "--db", "{fifo}"], "not a regular file"),
    (["play", "--db", "/dev/null"], "not a regular file"),
    (["play", "--tournament", "--payouts", "50,60"], "summing to 100"),
    (["arena", "--bots", ""], "separated by commas"),
    (["arena", "--bots", "nope,station"], "unknown bot"),
    (["arena", "--bots", "equity", "--no-store"], "one bot"),
    (["arena", "--hands", "0"], "--hands"),
    (["arena", "--hands", "1000001", "--no-store"], "at most 1,000,000"),
    (["arena", "--workers", "0"], "--workers"),
    (["arena", "--workers", "100000", "--no-store"], "too many"),
    (["arena", "--db", "{fifo}"], "not a regular file"),
    (["arena", "-d", "{tiny}", "-g", "holdem", "--no-store"], "at least 9 cards"),
    # chart and report: refused before a cluster starts
    (["chart", "--hands", "ZZZ", "--workers", "0"], "no starting-hand class"),
    (["chart", "--classes", "0"], "--classes"),
    (["chart", "--se", "0", "--workers", "0"], "positive number"),
    (["chart", "--se", "nan", "--workers", "0"], "positive number"),
    (["chart", "--se", "-inf", "--workers", "0"], "positive number"),
    (["chart", "--se", "1e-300"], "would take about"),
    (["chart", "--exact", "--se", "0.01"], "drop --se"),
    (["chart", "-n", "10", "--workers", "0"], "--opponents"),
    (["chart", "--seed", "-5", "--workers", "0"], "--seed"),
    (["chart", "--plot", "{dir}/x.txt"], ".png"),
    (["chart", "-d", "{tiny}", "-g", "holdem", "--workers", "0"], "at least 9 cards"),
    (["report", "--decks", ""], "at least one deck"),
    (["report", "--decks", "NOPE"], "unknown deck"),
    (["report", "--out", "{dir}/x.txt"], ".html"),
    (["report", "--out", "{missing}.html"], "no directory"),
    (["report", "--compare-options", "nope=1"], "unknown rule option"),
    (["report", "--compare-options", ""], "NAME=VALUE"),
    (["report", "--seed", "-1"], "--seed"),
    (["report", "--tie-samples", "10"], "--tie-samples"),
    (["report", "--workers", "100000"], "too many"),
    # web
    (["web", "--port", "0"], "0"),
    (["web", "--host", "no-such-host.invalid"], "no-such-host.invalid"),
]


def run_bad(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with deadline(TIMEOUT), pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    assert info.value.code == 2, (args, out, err)
    assert err.startswith("cardlab: error: "), err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err + out
    return err


@pytest.mark.parametrize(("args", "needle"), CASES, ids=[" ".join(a)[:60] for a, _ in CASES])
def test_bad_input_is_one_line_exit_2(
    args: list[str], needle: str, bad: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    err = run_bad([a.format(**bad) if "{" in a else a for a in args], capsys)
    assert needle.format(**bad) in err


def test_deck_alone_plays_the_default_base_game(capsys: pytest.CaptureFixture[str]) -> None:
    """`showdown -d standard52` is standard52 Hold'em; the same as naming it in --game."""
    args = ["-b", "2c 7d 9h Js Qd", "As Ad", "Kc Kd", "--format", "json"]
    main(["showdown", "-d", "standard52", *args])
    by_deck = capsys.readouterr().out
    main(["showdown", "-g", "standard52-holdem", *args])
    assert by_deck == capsys.readouterr().out and json.loads(by_deck)["winners"] == [1]


def test_web_port_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        err = run_bad(["web", "--port", str(port)], capsys)
    assert f"127.0.0.1:{port}" in err


def test_export_to_a_full_disk_leaves_no_file(
    bad: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that fails half-way (ENOSPC) is one line, and the partial file is gone."""
    out = Path(bad["dir"]) / "full.csv"
    real_open = Path.open

    class Full:
        def __init__(self, handle: object) -> None:
            self.handle = handle

        def __enter__(self) -> Full:
            return self

        def __exit__(self, *exc: object) -> None:
            self.handle.close()  # type: ignore[attr-defined]

        def write(self, data: bytes) -> int:
            raise OSError(28, "No space left on device")

    monkeypatch.setattr(Path, "open", lambda self, *a, **k: Full(real_open(self, *a, **k)))
    err = run_bad(["openseven", "export", "-n", "5", "--out", str(out)], capsys)
    assert "No space left on device" in err
    assert not out.exists()


# --- the help, rather than an error ---------------------------------------------------


@pytest.mark.parametrize("args", [[], ["poker"], ["openseven"], ["history"]])
def test_bare_groups_show_help(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(args)
    out, err = capsys.readouterr()
    assert info.value.code == 0 and err == ""
    assert out.startswith("Usage: cardlab") and "\n\n" in out  # the help itself, laid out


def test_every_option_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    """Each option of each command says what it is for, and --format offers only the
    formats the command accepts."""
    import click

    from cardlab.cli import cli

    def commands(group: click.Group, ctx: click.Context) -> Iterator[click.Command]:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            assert command is not None
            yield command
            if isinstance(command, click.Group):
                yield from commands(command, ctx)

    ctx = click.Context(cli)
    for command in commands(cli, ctx):
        for param in command.params:
            if isinstance(param, click.Option) and param.name not in ("help", "version"):
                assert param.help, f"{command.name} {param.opts} has no help"
                if param.name == "fmt":
                    assert isinstance(param.type, click.Choice)
                    offered = {c for c in param.type.choices if str(c).upper() in param.help}
                    if "csv" not in param.type.choices:
                        assert "CSV" not in param.help, (command.name, param.help)
                    assert offered <= set(param.type.choices)


# --- subprocesses: streams, FIFOs, Ctrl-C ---------------------------------------------


def cardlab(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardlab", *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=TIMEOUT,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
    )


@pytest.mark.parametrize("name", ["fifo", "zero"])
def test_special_deck_files_do_not_block(name: str, bad: dict[str, str]) -> None:
    result = cardlab("decks", "show", bad[name])
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "not a regular file" in result.stderr


@pytest.mark.parametrize(
    ("args", "ascii_cards"),
    [
        (["poker", "rank", "陰陽3 木7 火7 土7 金2"], "D7 K7 M7 Y3 G2"),
        (["decks", "show", "FESCA78"], "YZ"),
        (["poker", "table", "-d", "FESCA60"], "Mixwell"),
        (["showdown", "-g", "standard52-holdem", "-b", "2c 7d 9h Js Qd", "A♠ Ad", "Kc Kd"], "As"),
        (["poker", "rank", "--format", "json", "木1 火2 土3 金4 水5"], "\\u6728"),
    ],
)
def test_ascii_only_output_falls_back_to_ascii_notation(args: list[str], ascii_cards: str) -> None:
    result = cardlab(*args, env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.isascii() and ascii_cards in result.stdout
    assert result.stderr == ""


def test_ascii_only_error_is_one_ascii_line() -> None:
    result = cardlab("poker", "rank", "木1 木1 土3 金4 水5", env={"PYTHONIOENCODING": "ascii"})
    assert result.returncode == 2
    assert result.stderr.isascii() and result.stderr.count("\n") == 1
    assert "M1" in result.stderr


def _like_a_terminal() -> None:
    """In the child, before cardlab starts: SIGINT unblocked and at its default, as a
    shell starts a command (a test process may carry a blocked or ignored SIGINT from
    an earlier test's threads, which the child would inherit and never see Ctrl-C)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_a_long_export(tmp_path: Path) -> None:
    """Open-11 export writes 40 million rows (minutes); Ctrl-C stops it at once."""
    out = tmp_path / "open11.csv"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardlab", "openseven", "export", "-n", "11", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        preexec_fn=_like_a_terminal,
    )
    try:
        waited = 0.0
        while not (out.exists() and out.stat().st_size > 1 << 16):  # rows are being written
            assert proc.poll() is None, proc.communicate()
            assert waited < 3 * TIMEOUT, "the export did not start"  # may compile first
            time.sleep(0.1)
            waited += 0.1
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130
    assert stderr.strip() == "cardlab: interrupted"
    assert not out.exists()


# --- fuzz: any text as cards or as an argument ------------------------------------------

card_text = st.text(
    alphabet=st.sampled_from(
        list("木火土金水陰陽太極空無ZzMmKkDdGgSsYy0123456789TJQKAtjqkashdc♠♥♦♣ ,;１２Ａｓ\u3000")
    ),
    max_size=24,
) | st.text(max_size=12)


@settings(max_examples=200, deadline=None)
@given(text=card_text)
def test_deck_parse_cards_raises_only_cardlab_errors(text: str) -> None:
    from cardlab.decks import get_deck

    for deck in ("FESCA78", "standard52"):
        try:
            cards = get_deck(deck).parse_cards(text)
        except CardlabError:
            continue
        again = get_deck(deck).parse_cards(" ".join(map(str, cards)))
        assert again == cards  # what parses prints back to the same cards


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    command=st.sampled_from(
        [
            ["poker", "rank"],
            ["poker", "rank", "-d", "standard52"],
            ["poker", "rank", "-r"],
            ["poker", "compare", "木1 火2 土3 金4 水5"],
            ["decks", "show"],
            ["openseven", "solve"],
            ["showdown", "-g", "standard52-holdem", "As Ad"],
            ["draw", "-g", "standard52-draw", "--strength"],
        ]
    ),
    text=card_text,
)
def test_any_argument_is_an_answer_or_one_line(
    command: list[str], text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with deadline(TIMEOUT):
        try:
            main([*command, text])
            code = 0
        except SystemExit as exc:
            code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert code in (0, 2), (command, text, err)
    assert "Traceback" not in out + err
    if code == 2:
        assert err.startswith("cardlab: error: ") and err.count("\n") == 1
