"""Fuzz of every command's entries (issue 36): the process around the arguments.

Each example draws a command from the whole command tree and one hostile kind of
surrounding: stdout on a full disk (``/dev/full``), stdin closed (``<&-``), an
environment value cardlab or a library reads (``NUMBA_NUM_THREADS``, ``CARDLAB_DB``,
``CARDLAB_DAEMON_DIR``), a path option naming a file the system refuses, a file argument
holding a number past Python's 4,300-digit limit or an absurd exponent. The property
is the README's: an answer, or one line on stderr and exit 2; never a traceback, and a
full disk is never an answer.

The commands come from :data:`cardlab.cli.COMMANDS` through click: every command gets
``--help`` under every kind for free, and every command must either have a quick run in
:data:`QUICK` (then it meets every kind with real work) or say in :data:`NOT_QUICK` why
it has none (a test holds the two lists to the command tree, so a new command cannot
be forgotten).
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _cli import assert_answer_or_one_line, run_cli
from cardlab.cli import cli

DATA = Path(__file__).resolve().parent / "data"
PHH = DATA / "phh" / "pluribus-100-0.phh"
SHORT24 = DATA / "decks" / "short24.toml"
FIXTURES = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]


def _leaves(group: click.Group, ctx: click.Context, prefix: str) -> Iterator[str]:
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            yield from _leaves(command, ctx, f"{prefix}{name} ")
        else:
            yield f"{prefix}{name}"


COMMANDS = sorted(_leaves(cli, click.Context(cli), ""))

# a run of each command answered within seconds ({tmp}: a fresh directory; {db}: a store
# there; {deck}, {phh}: files there, hostile or not)
QUICK: dict[str, list[str]] = {
    "openseven export": ["-n", "4", "--out", "{tmp}/o.csv"],
    "openseven odds": [],
    "openseven table": ["-n", "5"],
    "decks show": ["{deck}"],
    "poker compare": ["-d", "{deck}", "9c Tc Jc Qc Kc", "9d Td Jd Qd Kd"],
    "poker rank": ["-d", "{deck}", "9c Tc Jc Qc Kc"],
    "poker rules": ["-d", "{deck}"],
    "poker table": ["-d", "standard52"],
    "showdown": ["-g", "standard52-holdem", "-b", "2c 7d 9h Js Qd", "As Ad", "Kc Kd"],
    "equity": ["-g", "standard52-holdem", "-b", "2c 7d 9h", "As Ad", "Kc Kd"],
    "draw": ["-g", "standard52-draw", "As Ad Kc 7d 2h"],
    "history export": ["--db", "{db}", "--phh", "{tmp}/out.phhs"],
    "history import": ["--db", "{db}", "{phh}"],
    "history list": ["--db", "{db}"],
    "history prune": ["--db", "{db}", "--older-than", "1"],
    "history show": ["--db", "{db}", "1"],
    "history stats": ["--db", "{db}"],
    "history copy": ["{db}", "{tmp}/copy.sqlite3"],
    "replay": ["{phh}"],
    "verify": ["{phh}"],
    "play": ["--bots", "station", "--seats", "2", "--hands", "1", "--db", "{db}"],
    "arena": ["--bots", "random,station", "--hands", "2", "--db", "{db}"],
    "solve cfr": ["--game", "kuhn", "-n", "10"],
    "daemon status": [],
}
NOT_QUICK = {
    "openseven play": "reads moves at a prompt (closed stdin: test_cli_every_entry)",
    "openseven simulate": "a Monte Carlo run (test_cli_bad_input covers its options)",
    "openseven solve": "solves every arrangement",
    "openseven sweep": "sweeps every size",
    "ties": "samples 200,000 deals per game",
    "web": "serves until stopped (test_cli_every_entry)",
    "chart": "a long computation (test_cli_fuzz_playing, with a stand-in)",
    "report": "a long computation (test_cli_fuzz_playing, with a stand-in)",
    "solve postflop": "a long computation",
    "solve flops": "solves many flops (tests/solve/test_postflop_flops.py fuzzes its options)",
    "solve pushfold": "a long computation",
    "daemon start": "starts a process that outlives the run",
    "daemon stop": "stops a daemon another test may use",
}

KINDS = ["full disk", "closed stdin", "environment", "long path", "big numbers"]
ENVIRONMENT = [
    ("NUMBA_NUM_THREADS", "0"),
    ("NUMBA_NUM_THREADS", "abc"),
    ("NUMBA_NUM_THREADS", "9" * 30),
    ("CARDLAB_DB", "{tmp}/" + "b" * 300 + ".sqlite3"),
    ("CARDLAB_DAEMON_DIR", "{tmp}/" + "d" * 300),
]
BIG_NUMBERS = ["9" * 5000, "1e5000", "1e999999", "1e-999999", "0." + "0" * 4400 + "1"]


def test_every_command_is_quick_or_says_why_not() -> None:
    assert sorted([*QUICK, *NOT_QUICK]) == COMMANDS
    assert not set(QUICK) & set(NOT_QUICK)


def _setting(tmp: Path, big: str | None) -> dict[str, str]:
    """The files a quick run names: a store with one hand, a deck and a PHH file (holding
    ``big`` where a number goes, if given)."""
    db = tmp / "hands.sqlite3"
    code, _, err = run_cli(["history", "import", "--db", str(db), str(PHH)])
    assert code == 0, err
    deck, phh = tmp / "deck.toml", tmp / "hand.phh"
    deck_text = SHORT24.read_text(encoding="utf-8")
    phh_text = PHH.read_text(encoding="utf-8")
    if big is not None:
        deck_text += f"\nweight = {big}\n"
        phh_text = phh_text.replace("min_bet = 100", f"min_bet = {big}")
    deck.write_text(deck_text, encoding="utf-8")
    phh.write_text(phh_text, encoding="utf-8")
    return {"tmp": str(tmp), "db": str(db), "deck": str(deck), "phh": str(phh)}


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURES)
@given(
    command=st.sampled_from(COMMANDS),
    kind=st.sampled_from(KINDS),
    variable=st.sampled_from(ENVIRONMENT),
    big=st.sampled_from(BIG_NUMBERS),
    help_only=st.sampled_from([False, False, False, True]),
    data=st.data(),
)
def test_every_command_under_every_kind(
    command: str,
    kind: str,
    variable: tuple[str, str],
    big: str,
    help_only: bool,
    data: st.DataObject,
) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="cardlab-entries-"))
    files = _setting(tmp, big if kind == "big numbers" else None)
    if help_only or command not in QUICK:
        args = [*command.split(), "--help"]
    else:
        args = [*command.split(), *(a.format(**files) for a in QUICK[command])]
    if kind == "long path":  # every path option of the command meets a name too long
        options = _path_options(command)
        if not options or args[-1] == "--help":
            args = [*command.split(), "--help"]
        else:
            option = data.draw(st.sampled_from(options))
            args += [option, str(tmp / ("p" * 300) / "x")]
    env = None
    if kind == "environment":
        name, value = variable
        env = {name: value.format(tmp=tmp), "CARDLAB_DAEMON": "on"}
    code, out, err = run_cli(
        args,
        stdin=None if kind == "closed stdin" else "",
        full_disk=kind == "full disk",
        env=env,
        timeout=120,
    )
    assert_answer_or_one_line(code, out, err, codes=(0, 1, 2))
    if kind == "full disk":
        assert code == 2 and "No space left on device" in err, (code, err)
    if kind == "environment" and variable[0] == "NUMBA_NUM_THREADS":
        assert code == 2 and "NUMBA_NUM_THREADS" in err, err
    if kind == "long path" and args[-1] != "--help":
        assert code == 2 and "at most 255" in err, err
    reads_a_file = any("{deck}" in a or "{phh}" in a for a in QUICK.get(command, []))
    if kind == "big numbers" and reads_a_file and args[-1] != "--help":
        assert code in (1, 2) and ("digits" in out + err or "exponent" in out + err), err


def _path_options(command: str) -> list[str]:
    """The options of ``command`` that name a file or a directory."""
    node: click.Command = cli
    ctx = click.Context(cli)
    for name in command.split():
        assert isinstance(node, click.Group)
        found = node.get_command(ctx, name)
        assert found is not None
        node = found
    return [
        next(o for o in p.opts if o.startswith("--"))
        for p in node.params
        if isinstance(p, click.Option) and isinstance(p.type, click.Path)
    ]


@pytest.mark.parametrize("command", COMMANDS)
def test_help_of_every_command_to_a_full_disk(command: str) -> None:
    code, out, err = run_cli([*command.split(), "--help"], full_disk=True)
    assert_answer_or_one_line(code, out, err, codes=(2,))
