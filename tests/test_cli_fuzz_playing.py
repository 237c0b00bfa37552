"""Fuzz of the playing side's commands: ``play`` with any typed input, and any options of
``arena``, ``history``, ``replay``, ``chart`` and ``report``.

The property, for every run: exit code 0, 1 or 2 (130, "interrupted", never: nobody
pressed Ctrl-C), no traceback in the output, and a refusal (exit 2) is one line on stderr
in cardlab's words. Runs are in this process (:func:`_cli.run_cli`); games are small
and hands bounded, and where a command would start a long computation (a chart, a report,
a big arena run) a stand-in ends the run once the input has been accepted.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _cli import Started, assert_answer_or_one_line, run_cli, start
from _stores import snapshot
from cardlab.errors import HistoryError
from cardlab.store import Store

PHH_DIR = Path(__file__).resolve().parent / "data" / "phh"
FIXTURES = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow]

# text that can be an argument on a command line: no NUL, no lone surrogates
arg_text = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"),
    max_size=12,
)
huge = st.sampled_from(["9" * 25, "-" + "9" * 25, "1e308", "1e-400", "0x10", "１０", "nan", "-0"])
number_text = st.one_of(st.integers(-5, 10**6).map(str), huge, arg_text)


def fresh_dir() -> Path:
    """A new directory for one example (hypothesis runs many per test)."""
    return Path(tempfile.mkdtemp(prefix="cardlab-fuzz-"))


# --- play: whatever is typed at the prompt ------------------------------------------------

ACTIONS = ["f", "c", "b", "d", "s", "m", "F", " c ", "check", "call", "fold", "r", "bet 6"]
ACTIONS += ["r 4", "r 10", "r 199", "r 200", "r 0", "r -1", "r 1e3", "r 4.5", "r ４"]
ACTIONS += ["d As", "d As Kd Qh Jc Tc 9c", "d 木7 火2", "d ??", "r " + "9" * 25, "9" * 400]
ACTIONS += ["", " ", "\t", "\x1b[A", "\x04", "\x7f", "q", "quit", "exit", "Q"]
typed_line = st.one_of(
    st.sampled_from(ACTIONS),
    st.text(max_size=12).filter(lambda t: not {"\n", "\r", "\x0b", "\x0c"} & set(t)),
)


@st.composite
def typed_input(draw: st.DrawFn) -> str:
    """Lines typed at the prompt, ending with a newline, mid-line, or nothing more (EOF)."""
    lines = draw(st.lists(typed_line, max_size=25))
    ending = draw(st.sampled_from(["\n", "", "\nq\n"]))
    return "\n".join(lines) + ending if lines else ending


@settings(max_examples=30, deadline=None, suppress_health_check=FIXTURES)
@given(
    keys=typed_input(),
    game=st.sampled_from(
        [
            *("standard52-holdem", "fesca42-holdem", "standard52-omaha", "standard52-stud"),
            *("tesca54-draw", "fesca42-stud"),
        ]
    ),
    seats=st.integers(2, 3),
    hands=st.integers(1, 3),
    bots=st.sampled_from(["random", "station", "random,station"]),
    seed=st.integers(0, 2**32),
    tournament=st.booleans(),
)
def test_play_with_any_typed_input(
    keys: str, game: str, seats: int, hands: int, bots: str, seed: int, tournament: bool
) -> None:
    """Whatever is typed (actions, garbage, huge numbers, an end of input anywhere): asked
    again or played, the run ends normally, and every hand said to be played is kept."""
    db = fresh_dir() / "hands.sqlite3"
    args = ["play", "-g", game, "--seats", str(seats), "--bots", bots, "--hands", str(hands)]
    args += ["--seed", str(seed), "--db", str(db)]
    args += ["--tournament", "--level-hands", "1", "--stack", "40"] if tournament else []
    code, out, err = run_cli(args, stdin=keys)
    assert_answer_or_one_line(code, out, err, codes=(0,))
    played = re.search(r"(\d+) hand\(s\) played", out)
    assert played is not None, out[-500:]
    with Store.open(db, read_only=True) as store:
        assert store.count_hands() == int(played.group(1))
        assert {r.source for r in store.hands()} <= {"play"}


@settings(max_examples=30, deadline=None, suppress_health_check=FIXTURES)
@given(
    option=st.sampled_from(
        [
            *("--stack", "--blinds", "--seats", "--hands", "--seed", "--name", "--bots", "-g"),
            *("--levels", "--level-hands", "--level-minutes", "--buy-in", "--payouts", "-d"),
        ]
    ),
    value=st.one_of(
        number_text,
        st.sampled_from(["1/2", "0/0", "2/1", "1/" + "9" * 20, "10/20,15/30+5", "65,35", "100"]),
        st.sampled_from(["holdem", "standard52-draw", "nope", "FESCA42", "equity,nope", ","]),
    ),
    tournament=st.booleans(),
)
def test_play_options(option: str, value: str, tournament: bool) -> None:
    """Any value of any option: played (input ends at once) or one line."""
    db = fresh_dir() / "hands.sqlite3"
    args = ["play", "-g", "standard52-holdem", "--seats", "2", "--bots", "random", "--seed", "1"]
    args += ["--hands", "2", "--db", str(db), *(["--tournament"] if tournament else [])]
    args += [option, value]
    code, out, err = run_cli(args, stdin="")
    assert_answer_or_one_line(code, out, err, codes=(0, 2))


# --- arena ---------------------------------------------------------------------------------


@st.composite
def mutated(draw: st.DrawFn, valid: dict[str, st.SearchStrategy[str | None]]) -> list[str]:
    """``--option=value`` for a valid run, then up to two options given a hostile value
    (or left out): most runs get past the checks, and each check meets bad input."""
    values = {name: draw(strategy) for name, strategy in valid.items()}
    for name in draw(st.lists(st.sampled_from(sorted(valid)), max_size=2, unique=True)):
        values[name] = draw(st.one_of(st.none(), number_text, huge, arg_text))
    return [f"{name}={value}" for name, value in values.items() if value is not None]


def small_or_start(real: Any) -> Any:
    """``run_arena`` for a run of a few hands between the fast bots in this process;
    the stand-in for anything bigger."""

    def run(config: Any, *, workers: int, scheduler: str | None, **kwargs: Any) -> Any:
        fast = set(config.bots) <= {"random", "station"}
        if config.hands <= 24 and workers == 1 and scheduler is None and fast:
            return real(config, workers=workers, scheduler=scheduler, **kwargs)
        raise Started

    return run


ARENA = {
    "--bots": st.sampled_from(["random,station", "station,random,random", "random,station,equity"]),
    "--hands": st.integers(1, 24).map(str),
    "--game": st.sampled_from(
        ["fesca42-holdem", "standard52-stud", "tesca54-draw", "fesca42-omaha"]
    ),
    "--seed": st.integers(0, 2**63 - 1).map(str),
    "--seats": st.one_of(st.none(), st.integers(2, 4).map(str)),
    "--stack": st.integers(4, 500).map(str),
    "--blinds": st.sampled_from(["1/2", "2/4", "1/1"]),
    "--workers": st.sampled_from([None, None, "1", "2"]),
    "--format": st.sampled_from(["text", "json"]),
}


@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURES)
@given(options=mutated(ARENA), duplicate=st.booleans(), store=st.booleans())
def test_arena_options(
    options: list[str], duplicate: bool, store: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    import cardlab.cli.arena

    monkeypatch.setattr(cardlab.cli.arena, "run_arena", small_or_start(cardlab.cli.arena.run_arena))
    db = fresh_dir() / "hands.sqlite3"
    args = ["arena", *options, *(["--duplicate"] if duplicate else [])]
    args += [f"--db={db}"] if store else ["--no-store"]
    code, out, err = run_cli(args)
    assert_answer_or_one_line(code, out, err, codes=(None, 0, 2))
    if code == 0 and "--format=json" in options:
        assert json.loads(out)["hands"] >= 1
    if store and db.exists():
        with Store.open(db, read_only=True) as kept:
            assert len(kept.arena_runs()) == (code == 0)  # a refused run is not kept


# --- history ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hands_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with the hands of the repository's PHH files that replay."""
    from cardlab.table import phh
    from cardlab.table.history import imported, replay

    records = []
    for path in sorted(PHH_DIR.glob("*.phh*")):
        try:
            histories = phh.load_all(path) if path.suffix == ".phhs" else [phh.load(path)]
            records += [imported(replay(h)) for h in histories[:4]]
        except HistoryError:
            continue  # a variant cardlab does not play
    assert len(records) >= 5
    db = tmp_path_factory.mktemp("history") / "hands.sqlite3"
    with Store.open(db) as store:
        store.add_hands(records)
    return db


def test_every_stored_hand_shows_with_its_net(hands_db: Path) -> None:
    """Each stored hand of the sample files shows as text and JSON, inf stacks too (the
    net of an ``inf`` stack is the hand's own: ``inf - inf`` once ended in a traceback)."""
    with Store.open(hands_db) as store:
        ids = [r.id for r in store.hands()]
    assert len(ids) >= 5
    texts = []
    for hand_id in ids:
        for fmt in ("text", "json"):
            code, out, err = run_cli(
                ["history", "show", str(hand_id), "--format", fmt, "--db", str(hands_db)]
            )
            assert code == 0 and not err, (hand_id, fmt, err[-500:])
            texts += [out] if fmt == "text" else []
    unbounded = [t for t in texts if re.search(r"│ +inf │ +inf │", t)]
    assert unbounded and any(re.search(r"│ +[+-]\d+\.\d\d │", t) for t in unbounded)


HISTORY_OPTIONS = {
    "list": ["--limit", "--game", "-g", "--source", "--player", "--format", "--db"],
    "show": ["--format", "--db"],
    "stats": ["--game", "-g", "--format", "--db"],
    "export": ["--game", "-g", "--source", "--phh", "--db"],
}


@settings(max_examples=50, deadline=None, suppress_health_check=FIXTURES)
@given(
    command=st.sampled_from(sorted(HISTORY_OPTIONS)),
    hand_id=st.one_of(st.integers(-1, 40).map(str), huge, arg_text),
    options=st.lists(
        st.tuples(
            st.sampled_from(
                ["--limit", "--game", "-g", "--source", "--player", "--format", "--phh", "--db"]
            ),
            st.one_of(
                number_text,
                st.sampled_from(["json", "csv", "phh", "text", "NT", "import", "Phil Ivey"]),
                st.sampled_from(["standard52-holdem", "out.phh", "out.phhs", "", "/"]),
            ),
        ),
        max_size=3,
    ),
    db_first=st.booleans(),
)
def test_history_reading_options(
    command: str, hand_id: str, options: list[tuple[str, str]], db_first: bool, hands_db: Path
) -> None:
    """Any options of the reading commands: an answer or one line, the store untouched,
    and nothing written beside it (an export goes to its own directory)."""
    out_dir = fresh_dir()
    before = snapshot(hands_db)
    args = ["history", *(["--db", str(hands_db)] if db_first else []), command]
    args += [hand_id] if command == "show" else []
    for option, value in options:
        if option not in HISTORY_OPTIONS[command]:
            continue
        if option == "--phh" and value and "/" not in value:
            value = str(out_dir / value)
        args += [option, value]
    if command == "export" and "--phh" not in args:
        args += ["--phh", str(out_dir / "all.phhs")]
    if not db_first and "--db" not in args:
        args += ["--db", str(hands_db)]
    code, out, err = run_cli(args)
    assert_answer_or_one_line(code, out, err, codes=(0, 2))
    assert snapshot(hands_db) == before


@settings(max_examples=20, deadline=None, suppress_health_check=FIXTURES)
@given(
    days=st.one_of(st.floats(allow_infinity=True).map(str), number_text),
    fmt=st.sampled_from(["text", "json", "xml"]),
)
def test_history_prune_options(days: str, fmt: str, hands_db: Path) -> None:
    """``prune`` on a copy of the store: any age is an answer or one line."""
    db = fresh_dir() / "copy.sqlite3"
    db.write_bytes(hands_db.read_bytes())
    code, out, err = run_cli(
        ["history", "prune", f"--older-than={days}", "--format", fmt, "--db", str(db)]
    )
    assert_answer_or_one_line(code, out, err, codes=(0, 2))


# --- replay (and import) of random and garbled PHH text ---------------------------------------

PHH_LINES = [
    "variant = 'NT'",
    "variant = 'F7S'",
    "variant = 'FO'",
    "variant = 'XX'",
    "antes = [0, 0]",
    "antes = [1, 1, 1]",
    "blinds_or_straddles = [1, 2]",
    "blinds_or_straddles = [1e400, 2]",
    "min_bet = 2",
    "bring_in = 1",
    "small_bet = 2",
    "big_bet = 4",
    "starting_stacks = [200, 200]",
    "starting_stacks = [0, -1]",
    "starting_stacks = [inf, 200]",
    f"starting_stacks = [{'9' * 40}, 200]",
    "actions = ['d dh p1 AsKs', 'd dh p2 QdQh', 'p2 cc', 'p1 cc']",
    "actions = ['d dh p1 AsKs', 'd dh p2 QdQh', 'p1 f']",
    "actions = ['d dh p1 AsKs', 'd dh p2 QdQh', 'p2 cbr 99999999999999999999']",
    "actions = ['d dh p1 AsAs']",
    "actions = ['p9 cc']",
    "actions = []",
    "players = ['a', 'b']",
    "_deck = 'FESCA78'",
    "_deck = 'my.toml'",
    "_deck = {name = 'x'}",
    "_game = 'standard52-stud'",
    "_rules = {suit_tiebreak = 'maybe'}",
    "[1]",
    "[2]",
    "= broken",
]
REAL_PHH = sorted(p for p in PHH_DIR.glob("*.phh*") if p.stat().st_size < 200_000)


@st.composite
def garbled_phh(draw: st.DrawFn) -> tuple[str, str]:
    """(a file suffix, text): lines of PHH keys, or a real file garbled by a few edits."""
    if draw(st.booleans()):
        lines = draw(st.lists(st.sampled_from(PHH_LINES), max_size=10))
        return draw(st.sampled_from([".phh", ".phhs"])), "\n".join(lines) + "\n"
    source = draw(st.sampled_from(REAL_PHH))
    text = source.read_text(encoding="utf-8")[:20_000]
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        edit = draw(st.sampled_from(["cut", "drop", "insert", "number", "end"]))
        if edit == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif edit == "drop":  # a whole line
            start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at)
            text = text[:start] + (text[end + 1 :] if end >= 0 else "")
        elif edit == "insert":
            text = text[:at] + draw(st.one_of(arg_text, st.sampled_from(PHH_LINES))) + text[at:]
        elif edit == "number":
            text = re.sub(
                r"\d+", draw(st.sampled_from(["-1", "0", "9" * 30, "1.5"])), text, count=1
            )
        else:
            text = text[:at]
    return source.suffix, text


@settings(max_examples=60, deadline=None, suppress_health_check=FIXTURES)
@given(phh=garbled_phh(), fmt=st.sampled_from(["text", "json"]))
def test_replay_of_garbled_phh(phh: tuple[str, str], fmt: str) -> None:
    """Any PHH text: replayed, or refused (one line, exit 2), or some hands do not replay
    (exit 1: each one's error, then the count); never a traceback."""
    suffix, text = phh
    path = fresh_dir() / f"fuzz{suffix}"
    path.write_text(text, encoding="utf-8")
    code, out, err = run_cli(["replay", "--format", fmt, str(path)])
    assert_answer_or_one_line(code, out, err, codes=(0, 1, 2))
    if code == 1:
        assert err.rstrip("\n").endswith("do not replay"), err


@settings(max_examples=25, deadline=None, suppress_health_check=FIXTURES)
@given(phh=garbled_phh())
def test_import_of_garbled_phh(phh: tuple[str, str]) -> None:
    """Importing any PHH text: what is said to be imported is what the store holds."""
    suffix, text = phh
    folder = fresh_dir()
    path, db = folder / f"fuzz{suffix}", folder / "hands.sqlite3"
    path.write_text(text, encoding="utf-8")
    code, out, err = run_cli(["history", "import", "--format", "json", str(path), "--db", str(db)])
    assert_answer_or_one_line(code, out, err, codes=(0, 1, 2))
    if code in (0, 1) and db.exists():
        with Store.open(db, read_only=True) as store:
            assert store.count_hands() == json.loads(out)["imported"]


# --- chart and report: every option, up to the computation --------------------------------

CHART = {
    "--game": st.sampled_from(
        ["standard52-holdem", "fesca42-holdem", "fesca42-omaha", "fesca42-stud", "tesca54-draw"]
    ),
    "--opponents": st.integers(1, 3).map(str),
    "--classes": st.one_of(st.none(), st.integers(1, 6).map(str)),
    "--se": st.one_of(st.none(), st.sampled_from(["0.05", "0.01", "0.002"])),
    "--seed": st.integers(0, 100).map(str),
    "--top": st.one_of(st.none(), st.integers(1, 5).map(str)),
    "--rule": st.one_of(st.none(), st.sampled_from(["suit_tiebreak=off", "compound=base"])),
    "--format": st.sampled_from(["text", "json"]),
}


@settings(max_examples=40, deadline=None, suppress_health_check=FIXTURES)
@given(
    options=mutated(CHART),
    hands=st.one_of(st.none(), st.sampled_from(["AA,KK", "AKs", "AaAbKaKb", ",", "AA,AA", "zz"])),
    exact=st.sampled_from([None, "--exact", "--sample"]),
    plot=st.sampled_from([None, "x.png", "x.svg", "missing/x.png"]),
)
def test_chart_options(
    options: list[str],
    hands: str | None,
    exact: str | None,
    plot: str | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("cardlab.analysis.chart.chart", start)
    out_dir = fresh_dir()
    args = ["chart", "--workers", "0", "--cache", str(out_dir / "cache"), *options]
    args += [] if hands is None else [f"--hands={hands}"]
    args += [] if exact is None else [exact]
    args += [] if plot is None else ["--plot", str(out_dir / plot)]
    code, out, err = run_cli(args)
    assert_answer_or_one_line(code, out, err, codes=(None, 2))
    assert not list(out_dir.rglob("*.png"))  # nothing drawn before the computation


REPORT = {
    "--decks": st.sampled_from(["FESCA42", "standard52", "FESCA42,fesca60", "TESCA54"]),
    "--tie-samples": st.integers(1000, 200_000).map(str),
    "--omaha-samples": st.integers(1000, 400_000).map(str),
    "--seed": st.integers(0, 2**63).map(str),
    "--compare-options": st.one_of(
        st.none(), st.sampled_from(["suit_tiebreak=off", "mixwell=off"])
    ),
    "--format": st.sampled_from(["text", "json"]),
}


@settings(max_examples=30, deadline=None, suppress_health_check=FIXTURES)
@given(
    options=mutated(REPORT),
    out=st.sampled_from(["r.html", "r.HTM", "r.txt", "", "sub/r.html"]),
    exact_omaha=st.booleans(),
)
def test_report_options(
    options: list[str], out: str, exact_omaha: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("cardlab.analysis.report.build_report", start)
    out_dir = fresh_dir()
    target = str(out_dir / out) if out else ""
    args = ["report", "--workers", "0", "--no-cache", *options, "--out", target]
    args += ["--exact-omaha"] if exact_omaha else []
    code, out_text, err = run_cli(args)
    assert_answer_or_one_line(code, out_text, err, codes=(None, 2))
    assert list(out_dir.rglob("*")) == []  # nothing written before the report is built


# --- found by the fuzz: each once a traceback ------------------------------------------

FOUND = [
    pytest.param(["history", "prune", "--older-than", "nan"], id="prune-nan"),
]


@pytest.mark.parametrize("args", FOUND)
def test_found_by_fuzzing(args: list[str], tmp_path: Path) -> None:
    code, out, err = run_cli([*args, "--db", str(tmp_path / "hands.sqlite3")], stdin="")
    assert_answer_or_one_line(code, out, err, codes=(0, 1, 2))
