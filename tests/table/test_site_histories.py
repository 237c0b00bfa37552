"""The sites' own hand histories (cardlab.table.sites): read, replayed, checked.

Every file under tests/data/sites/ was written for these tests in each site's format
(own players, numbers and hands). The expected stacks are worked out by hand from the
text (starting stack, less what the player put in, plus what came back and what the
site says was collected), never from the reader.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.cli import cli
from cardlab.cli import main as run_main
from cardlab.errors import HistoryError
from cardlab.table import phh, sites
from cardlab.table.history import replay

DATA = Path(__file__).resolve().parents[1] / "data" / "sites"


def _replayed(path: Path) -> list[dict[str, object]]:
    result = CliRunner().invoke(cli, ["replay", str(path), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)["hands"]  # type: ignore[no-any-return]


def _by_player(hand: dict[str, object], key: str) -> dict[str, object]:
    return dict(zip(hand["players"], hand[key], strict=True))  # type: ignore[call-overload]


def test_pokerstars_cash_side_pots_rake_uncalled() -> None:
    hands = _replayed(DATA / "stars-cash.txt")
    first = hands[0]
    assert (first["id"], first["site"], first["rake"]) == ("900000000001", "pokerstars", 2)
    # bruno all-in for 12.50 wins the main pot, chen the side pot; 2 of rake
    assert _by_player(first, "finishing_stacks") == {"bruno": 36.2, "chen": 26.8, "alice": 27.5}
    assert _by_player(first, "winnings") == {"bruno": 36.2, "chen": 19.3, "alice": 0}
    assert "dora" not in first["players"]  # sitting out: not dealt in
    assert "mismatches" not in first
    second = hands[1]  # a raise folded to: 1 uncalled back
    assert _by_player(second, "net") == {"chen": -0.25, "alice": -0.5, "bruno": 0.75}


def test_pokerstars_mismatch_names_hand_and_line() -> None:
    third = _replayed(DATA / "stars-cash.txt")[2]
    assert third["id"] == "900000000003"
    # the text says 1.35 was collected from a pot of 1.25: its line 79
    assert third["mismatches"] == ["line 79: 'bruno' collected 1.35, the replay pays 1.25"]


def test_cancelled_and_partial_hands_are_reported_as_such() -> None:
    result = CliRunner().invoke(cli, ["replay", str(DATA / "stars-cash.txt")])
    assert result.exit_code == 1
    assert "hand 900000000004 (line 89): unsupported: line 98: the hand was cancelled" in (
        result.stderr
    )
    assert "hand 900000000005 (line 106): unsupported: a partial hand" in result.stderr


def test_pokerstars_tournament_antes() -> None:
    (hand,) = _replayed(DATA / "stars-tournament.txt")
    assert _by_player(hand, "finishing_stacks") == {"ana": 4610, "ben": 0, "cy": 1890}
    assert _by_player(hand, "winnings") == {"ana": 3110, "ben": 0, "cy": 0}
    assert "mismatches" not in hand


def test_ggpoker_straddle_fees_and_run_it_twice() -> None:
    hands = _replayed(DATA / "gg-cash.txt")
    first = hands[0]
    assert first["players"] == ["p_two", "p_three", "p_four", "p_one"]  # straddle third
    assert _by_player(first, "finishing_stacks") == {
        "p_two": 9.95,
        "p_three": 9.9,
        "p_four": 10.93,
        "p_one": 9.2,
    }
    assert first["rake"] == 0.02 and "mismatches" not in first
    # run twice: each run's board from the engine's runs, the pot split per run
    twice = hands[1]
    assert "error" not in twice and "mismatches" not in twice, twice
    assert _by_player(twice, "winnings") == {"p_three": 0, "p_one": 9.12, "p_two": 9.13}
    entry = list(sites.iter_entries(DATA / "gg-cash.txt"))[1]
    assert entry.history is not None and entry.history.user_fields["_runs"] == 2
    again = replay(entry.history)  # before the rake: 18.45, the odd cent to run 1
    assert again.winnings == [Decimal(0), Decimal("9.23"), Decimal("9.22")]
    assert [" ".join(map(str, b)) for b in again.hand.runouts()] == [
        "2c 3d 4h 5s 9d",
        "Qs 7c 6c 8d 2d",
    ]


def test_pokernow_log_in_order_straddle_run_twice_partial() -> None:
    hands = _replayed(DATA / "pokernow-log.csv")
    heads_up, straddled, twice, partial = hands
    assert heads_up["id"] == "tst0000hand1"
    assert _by_player(heads_up, "finishing_stacks") == {
        "ivan @ Zx9cVb1nMa": 2500,
        "rosa @ Qw3rTy7uIo": 0,
    }
    assert _by_player(straddled, "finishing_stacks") == {
        "rosa @ Qw3rTy7uIo": 460,
        "lena @ Pl0kMn8jUh": 700,
        "ivan @ Zx9cVb1nMa": 2640,
    }
    assert "run it twice" in twice["error"]
    assert "partial hand" in partial["error"]


@pytest.mark.parametrize(
    ("encoding", "newline"),
    [("utf-16", "\r\n"), ("utf-16-le", "\n"), ("utf-16-be", "\r\n"), ("utf-8-sig", "\r\n")],
)
def test_encodings_and_newlines_read_alike(tmp_path: Path, encoding: str, newline: str) -> None:
    text = (DATA / "stars-cash.txt").read_text(encoding="utf-8")
    other = tmp_path / "stars.txt"
    other.write_bytes(text.replace("\n", newline).encode(encoding))
    plain = list(sites.iter_entries(DATA / "stars-cash.txt"))
    again = list(sites.iter_entries(other))
    assert [e.history for e in again] == [e.history for e in plain]
    assert [e.line for e in again] == [e.line for e in plain]


def test_site_hand_as_phh_replays_alike() -> None:
    entry = next(iter(sites.iter_entries(DATA / "stars-cash.txt")))
    assert entry.history is not None
    text = phh.dumps(entry.history)
    again = phh.loads(text)
    r = replay(again)
    assert again.user_fields["_site"] == "pokerstars"
    assert r.mismatches() == []  # the stacks after the rake: shares add up to it
    assert sum(r.winnings) - sum(again.winnings or ()) == Decimal(2)


def test_import_is_idempotent_and_mixes_phh(tmp_path: Path) -> None:
    folder = tmp_path / "hands"
    folder.mkdir()
    for name in ("stars-cash.txt", "gg-cash.txt", "pokernow-log.csv"):
        (folder / name).write_bytes((DATA / name).read_bytes())
    (folder / "copy.txt").write_bytes((DATA / "stars-tournament.txt").read_bytes())
    (folder / "again.txt").write_bytes((DATA / "stars-tournament.txt").read_bytes())
    pluribus = Path(__file__).resolve().parents[1] / "data" / "phh" / "pluribus-100-0.phh"
    (folder / "one.phh").write_bytes(pluribus.read_bytes())
    (folder / "notes.md").write_text("not a hand\n")
    db = tmp_path / "hands.db"
    runner = CliRunner()
    args = ["history", "--db", str(db), "import", str(folder), "--format", "json"]
    first = json.loads(runner.invoke(cli, args).stdout)
    # stars: 3 of 5 (cancelled, partial), gg: 2 of 2 (one run twice), pokernow: 2 of 4,
    # tournament once, pluribus 1; the second copy of the tournament hand is recognised
    assert first["imported"] == 3 + 2 + 2 + 1 + 1
    assert first["already_stored"] == 1
    assert len(first["mismatches"]) == 1 and first["mismatches"][0]["hand"] == 3
    second = json.loads(runner.invoke(cli, args).stdout)
    assert second["imported"] == 0 and second["already_stored"] == 10
    out = tmp_path / "all.phhs"
    done = runner.invoke(cli, ["history", "--db", str(db), "export", "--phh", str(out)])
    assert done.exit_code == 0, done.output
    exported = phh.load_all(out)
    assert sum(1 for h in exported if h.user_fields.get("_site") == "pokerstars") == 4


def test_unknown_text_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_text("hello = [\n")
    with pytest.raises(SystemExit) as exc:
        run_main(["replay", str(junk)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "neither PHH" in err and "Traceback" not in err and len(err.splitlines()) == 1


_LINES = (DATA / "stars-cash.txt").read_text(encoding="utf-8").splitlines()


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    keep=st.lists(st.integers(0, len(_LINES) - 1), max_size=80),
    junk=st.lists(st.text(max_size=40), max_size=5),
    encoding=st.sampled_from(["utf-8", "utf-16", "cp1252"]),
)
def test_fuzz_readers_never_trace_back(
    tmp_path: Path, keep: list[int], junk: list[str], encoding: str
) -> None:
    lines = ["PokerStars Hand #1:  Hold'em No Limit ($1/$2 USD)"]
    lines += [_LINES[i] for i in keep] + junk
    path = tmp_path / "fuzz.txt"
    path.write_bytes("\n".join(lines).encode(encoding, errors="replace"))
    try:
        for entry in sites.iter_entries(path):
            if entry.history is not None:
                try:
                    r = replay(entry.history, label=sites.label(entry))
                except HistoryError:
                    continue
                sites.mismatches(entry, r)
            else:
                assert entry.error
    except HistoryError as exc:
        assert str(exc)  # the file as a whole: one message
    try:
        run_main(["replay", str(path)])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code in (0, 1, 2)


def test_winamax_collected_counts_the_uncalled_bet() -> None:
    (hand,) = _replayed(DATA / "winamax-cash.txt")
    # a pot of 1.30 less 0.03 of rake; the text's 2.17 "collected" also holds the 0.90
    # bet nobody called
    assert (hand["id"], hand["site"], hand["rake"]) == ("1111111-22-1700000000", "winamax", 0.03)
    assert _by_player(hand, "winnings") == {"paulo": 0, "marcel": 0, "odile": 1.27}
    assert _by_player(hand, "finishing_stacks") == {"paulo": 7.9, "marcel": 19.4, "odile": 16.17}
    assert "mismatches" not in hand


def test_888_increments_uncalled_in_collected_decimal_commas() -> None:
    first, second = _replayed(DATA / "888-cash.txt")
    # 888 writes what each action adds, no rake and no uncalled line; "collected"
    # holds the 0.40 nobody called (1.03 = a pot of 0.65, less 0.02, plus 0.40)
    assert (first["id"], first["site"], first["rake"]) == ("700000001", "pacific", None)
    assert _by_player(first, "finishing_stacks") == {"ola": 7.95, "kasia": 9.7, "lev": 10.53}
    assert _by_player(first, "winnings") == {"ola": 0, "kasia": 0, "lev": 0.63}
    # amounts with a decimal comma; an all-in called: a pot of 19.50, 19.10 collected
    assert _by_player(second, "finishing_stacks") == {"kasia": 19.1, "lev": 0.83, "ola": 7.85}
    assert "mismatches" not in first and "mismatches" not in second


def test_partypoker_fixed_limit_wins_holds_the_uncalled_bet() -> None:
    (hand,) = _replayed(DATA / "party-cash.txt")
    # a pot of 13 less 0.50; "wins 16.50" also holds the 4 nobody called
    assert (hand["id"], hand["site"]) == ("80000000001", "partypoker")
    assert _by_player(hand, "finishing_stacks") == {"yara": 59, "zeno": 39, "wren": 86.5}
    assert _by_player(hand, "winnings") == {"yara": 0, "zeno": 0, "wren": 12.5}
    assert "mismatches" not in hand


def test_full_tilt_as_pokerstars_words() -> None:
    (hand,) = _replayed(DATA / "fulltilt-cash.txt")
    # rhea calls to 6 and folds to the all-in; a pot of 186 less 3 of rake
    assert (hand["id"], hand["site"], hand["rake"]) == ("50000000001", "fulltilt", 3)
    assert _by_player(hand, "finishing_stacks") == {"rhea": 144, "soren": 183, "quinn": 110}
    assert "mismatches" not in hand


def test_full_tilt_blind_posted_all_in() -> None:
    """A big blind short of the stakes posts all of it ("posts the big blind of 20, and
    is all in", as much as the small blind): in the main pot of 3 x 20, the side pot of
    2 x 180 to the best of the other two."""
    (entry,) = sites.iter_entries(DATA / "fulltilt-short-blind.txt")
    assert entry.history is not None, entry.error
    replayed = replay(entry.history)
    assert replayed.finishing_stacks == [460, 60, 300]  # quinn, rhea, soren
    assert sites.mismatches(entry, replayed) == []


def test_ipoker_xml_actions_in_their_numbered_order() -> None:
    (hand,) = _replayed(DATA / "ipoker-cash.xml")
    # the blinds are listed big first, numbered small first; vik's sevens (shown in a
    # later round) beat ute's ace-king: a pot of 0.70, 0.67 won; the empty seat 9 is no one
    assert (hand["id"], hand["site"], hand["rake"]) == ("9900000001", "ipoker", None)
    assert hand["players"] == ["vik", "wim", "ute"]
    assert _by_player(hand, "finishing_stacks") == {"vik": 6.87, "wim": 11.9, "ute": 9.7}
    assert "mismatches" not in hand


@pytest.mark.parametrize("name", sorted(p.name for p in DATA.iterdir()))
def test_every_hand_round_trips_through_phh_text(name: str) -> None:
    """site text -> PHH text -> replay: the same stacks as the site's hand replayed."""
    for entry in sites.iter_entries(DATA / name):
        if entry.history is None:
            continue
        again = phh.loads(phh.dumps(entry.history))
        assert again == entry.history
        assert replay(again).finishing_stacks == replay(entry.history).finishing_stacks


def test_stored_hands_written_as_pokerstars_text_read_back_equal(tmp_path: Path) -> None:
    """stored hand -> PokerStars text -> read back: the same players and stacks."""
    db = tmp_path / "hands.db"
    runner = CliRunner()
    pluribus = Path(__file__).resolve().parents[1] / "data" / "phh" / "pluribus-100-0.phh"
    for path in (pluribus, DATA / "gg-cash.txt", DATA / "stars-tournament.txt"):
        runner.invoke(cli, ["history", "--db", str(db), "import", str(path)])
    out = tmp_path / "stars.txt"
    done = runner.invoke(cli, ["history", "--db", str(db), "export", "--pokerstars", str(out)])
    assert done.exit_code == 0, done.output
    assert "wrote 4 hands" in done.stdout  # the GGPoker hand run twice too
    back = list(sites.iter_entries(out))
    originals = [phh.load(pluribus), *(e.history for e in sites.iter_entries(DATA / "gg-cash.txt"))]
    originals += [e.history for e in sites.iter_entries(DATA / "stars-tournament.txt")]
    expected = [h for h in originals if h is not None]
    assert [e.site for e in back] == ["pokerstars"] * 4  # type: ignore[attr-defined]
    for entry, original in zip(back, expected, strict=True):
        assert entry.history is not None, entry.error
        r = replay(entry.history)
        assert sites.mismatches(entry, r) == []
        want = original.finishing_stacks or replay(original).finishing_stacks
        assert [Decimal(x) for x in entry.history.finishing_stacks or ()] == [
            Decimal(x) for x in want
        ]
        assert entry.history.players == (original.players or entry.history.players)


def test_export_needs_one_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "hands.db"
    with pytest.raises(SystemExit) as exc:
        run_main(["history", "--db", str(db), "export"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--phh FILE or --pokerstars FILE" in err and len(err.splitlines()) == 1


def _pokerkit_nets(parser: object, text: str) -> dict[str, dict[str, Decimal]]:
    """Each hand's net per player as pokerkit's own converter and engine have it (the
    hands it reads and plays to the end)."""
    import contextlib
    import io
    import warnings

    out: dict[str, dict[str, Decimal]] = {}
    with warnings.catch_warnings(), contextlib.redirect_stderr(io.StringIO()):
        warnings.simplefilter("ignore")
        for hh in parser(text):  # type: ignore[operator]
            state = list(hh)[-1]
            if not state.status:
                pairs = zip(state.stacks, hh.starting_stacks, strict=True)
                nets = [Decimal(str(a)) - Decimal(str(b)) for a, b in pairs]
                out[str(hh.hand)] = dict(zip(hh.players, nets, strict=True))
    return out


@pytest.mark.parametrize("name", ["stars-cash.txt", "stars-tournament.txt"])
def test_the_same_nets_as_pokerkits_converter(name: str) -> None:
    """Hands pokerkit's PokerStars converter reads and plays to the end: each player's
    net equals cardlab's, or (the tournament's antes, which its converter leaves out)
    cardlab's replay is the one that matches the site's own collected amounts."""
    from pokerkit.notation import PokerStarsParser

    theirs = _pokerkit_nets(PokerStarsParser(), (DATA / name).read_text(encoding="utf-8"))
    entries = {e.name: e for e in sites.iter_entries(DATA / name) if e.history is not None}
    assert theirs and set(theirs) <= set(entries)
    for hand, nets in theirs.items():
        entry = entries[hand]
        assert entry.history is not None
        replayed = replay(entry.history)
        ours = dict(zip(entry.history.players, map(Decimal, map(str, replayed.net)), strict=True))
        if ours != nets:  # only where its converter drops the antes
            assert name == "stars-tournament.txt", hand
            assert sites.mismatches(entry, replayed) == [], hand


@pytest.mark.parametrize(
    ("header", "big"),
    [
        ("8-Game (Hold'em No Limit, $0.25/$0.50 USD)", Decimal("0.50")),
        ("Hold'em No Limit ($1,000/$2,000 USD)", 2000),
    ],
)
def test_pokerstars_mixed_game_and_thousands_headers(
    tmp_path: Path, header: str, big: object
) -> None:
    """A mixed game names the game inside the stakes' brackets ("8-Game (7 Card Stud
    Hi/Lo Limit, $400/$800 USD)"), and big stakes have thousands commas."""
    text = (DATA / "stars-cash.txt").read_text(encoding="utf-8")
    first = text.split("\n\n\n")[0]
    path = tmp_path / "mixed.txt"
    path.write_text(first.replace("Hold'em No Limit ($0.25/$0.50 USD)", header, 1))
    (entry,) = sites.iter_entries(path)
    assert entry.history is not None, entry.error
    assert entry.history.min_bet == big  # the big blind, from the header
