"""The tracker rates (3-bet, 4-bet, fold to 3-bet, steal, fold to steal, c-bet and fold to
c-bet, check-raise, won when saw the flop), positions and filters.

Five six-handed hands are written out below; the comment on each action says which
rates it is a chance for and which it counts, and the expected totals in
``test_every_rate_counted_by_hand`` were added up by hand from those comments (not by
the code under test). Laws on random and real hands: every count is at most its
chances, and filters partition the hands."""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_history import _random_hand

from cardlab.cli import main
from cardlab.errors import CardlabError
from cardlab.store import Store
from cardlab.table import Betting, TableGame, phh
from cardlab.table.history import imported, replay, to_history
from cardlab.table.player_stats import (
    RATES,
    HandSummary,
    Rate,
    Session,
    player_stats,
    sessions,
    summarize,
)
from cardlab.table.stat_counts import positions
from cardlab.table.stats_filter import HandFilter, parse_day, parse_position, parse_stakes

DATA = Path(__file__).parent.parent / "data" / "phh"

HEADER = """variant = "NT"
antes = [0, 0, 0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0, 0, 0]
min_bet = 2
starting_stacks = [200, 200, 200, 200, 200, 200]
players = ["A", "B", "C", "D", "E", "F"]
"""
# p1 A small blind, p2 B big blind, p3 C UTG, p4 D HJ, p5 E CO, p6 F button
DEAL = (
    "d dh p1 2s3s",
    "d dh p2 4d5d",
    "d dh p3 AsAc",
    "d dh p4 KsKc",
    "d dh p5 QhQd",
    "d dh p6 JhJd",
)


def _hand(*actions: str, site: str = "pokerstars", day: int = 1) -> phh.HandHistory:
    lines = ", ".join(f'"{a}"' for a in (*DEAL, *actions))
    when = f"year = 2024\nmonth = 3\nday = {day}\n"
    return phh.loads(f'{HEADER}{when}_site = "{site}"\nactions = [{lines}]\n')


H1 = _hand(
    "p3 f",  # C: no steal chance (UTG)
    "p4 f",  # D: no steal chance (HJ)
    "p5 cbr 6",  # E: steal chance, steal; VPIP, PFR
    "p6 f",  # F: 3-bet chance, no; no steal chance (E is in)
    "p1 cbr 20",  # A: 3-bet chance, 3-bet; fold to steal chance, no fold
    "p2 f",  # B: 4-bet chance, no (facing the 3-bet: no fold to steal chance)
    "p5 cc",  # E: 4-bet chance, no; fold to 3-bet chance, no fold
    "d db 2h7d9c",
    "p1 cc",  # A (the preflop raiser) checks: c-bet flop chance, no c-bet
    "p5 cbr 10",  # E bets: not a c-bet (aggression: E bet)
    "p1 cbr 30",  # A check-raises: check-raise chance, check-raise
    "p5 cc",  # E calls
    "d db Jc",  # no turn c-bet chance: nobody c-bet the flop
    "p1 cbr 40",  # A bets
    "p5 f",  # E folds: A +52, E -50, B -2
)
H2 = _hand(
    "p3 cbr 6",  # C opens from UTG: no steal chance
    "p4 cc",  # D: 3-bet chance, no
    "p5 f",  # E: 3-bet chance, no
    "p6 f",  # F: 3-bet chance, no
    "p1 f",  # A: 3-bet chance, no (not a steal: no fold to steal chance)
    "p2 cc",  # B: 3-bet chance, no; VPIP
    "d db 2h7d9c",
    "p2 cc",  # B checks
    "p3 cbr 10",  # C: c-bet flop chance, c-bet
    "p4 cc",  # D: fold to flop c-bet chance, no
    "p2 f",  # B: fold to flop c-bet chance, fold; check-raise chance, no
    "d db Jc",
    "p3 cbr 20",  # C: c-bet turn chance (c-bet the flop), c-bet
    "p4 cbr 60",  # D: fold to turn c-bet chance, no (a raise)
    "p3 cc",  # C calls the raise: no fold to c-bet chance (C made it)
    "d db 3s",
    "p3 cc",
    "p4 cc",
    "p3 sm AsAc",
    "p4 sm KsKc",  # C wins at showdown: C +83, D -76, B -6, A -1
)
H3 = _hand(
    "p3 f",
    "p4 f",
    "p5 f",  # E: steal chance, no
    "p6 cbr 5",  # F: steal chance, steal
    "p1 f",  # A: fold to steal chance, fold; 3-bet chance, no
    "p2 f",  # B: fold to steal chance, fold; 3-bet chance, no: F +3, A -1, B -2
    site="ggpoker",
    day=2,
)
H4 = _hand(
    "p3 cbr 6",  # C opens
    "p4 cbr 18",  # D: 3-bet chance, 3-bet
    "p5 f",  # E: 4-bet chance, no
    "p6 f",  # F: 4-bet chance, no
    "p1 f",  # A: 4-bet chance, no
    "p2 f",  # B: 4-bet chance, no
    "p3 f",  # C: fold to 3-bet chance, fold; 4-bet chance, no: D +9, C -6, A -1, B -2
    site="ggpoker",
    day=3,
)
H5 = _hand(
    "p3 cbr 6",  # C opens
    "p4 cbr 18",  # D: 3-bet chance, 3-bet
    "p5 cbr 50",  # E: 4-bet chance, 4-bet
    "p6 f",  # facing a 4-bet: no chance of any rate below (F, A, B, C, D)
    "p1 f",
    "p2 f",
    "p3 f",  # C faces a 4-bet, not a 3-bet: no fold to 3-bet chance
    "p4 f",  # E +27, C -6, D -18, A -1, B -2
    day=4,
)
HANDS = (H1, H2, H3, H4, H5)

# per player: rate -> (count, chances), counted from the comments above
WANT = {
    "A": {
        "vpip": (1, 5), "pfr": (1, 5), "three_bet": (1, 3), "four_bet": (0, 1),
        "fold_to_three_bet": (0, 0), "steal": (0, 0), "fold_to_steal": (1, 2),
        "cbet_flop": (0, 1), "cbet_turn": (0, 0), "fold_to_cbet_flop": (0, 0),
        "fold_to_cbet_turn": (0, 0), "check_raise": (1, 1), "went_to_showdown": (0, 1),
        "won_at_showdown": (0, 0), "won_when_saw_flop": (1, 1),
    },
    "B": {
        "vpip": (1, 5), "pfr": (0, 5), "three_bet": (0, 2), "four_bet": (0, 2),
        "fold_to_three_bet": (0, 0), "steal": (0, 0), "fold_to_steal": (1, 1),
        "cbet_flop": (0, 0), "cbet_turn": (0, 0), "fold_to_cbet_flop": (1, 1),
        "fold_to_cbet_turn": (0, 0), "check_raise": (0, 1), "went_to_showdown": (0, 1),
        "won_at_showdown": (0, 0), "won_when_saw_flop": (0, 1),
    },
    "C": {
        "vpip": (3, 5), "pfr": (3, 5), "three_bet": (0, 0), "four_bet": (0, 1),
        "fold_to_three_bet": (1, 1), "steal": (0, 0), "fold_to_steal": (0, 0),
        "cbet_flop": (1, 1), "cbet_turn": (1, 1), "fold_to_cbet_flop": (0, 0),
        "fold_to_cbet_turn": (0, 0), "check_raise": (0, 0), "went_to_showdown": (1, 1),
        "won_at_showdown": (1, 1), "won_when_saw_flop": (1, 1),
    },
    "D": {
        "vpip": (3, 5), "pfr": (2, 5), "three_bet": (2, 3), "four_bet": (0, 0),
        "fold_to_three_bet": (0, 0), "steal": (0, 0), "fold_to_steal": (0, 0),
        "cbet_flop": (0, 0), "cbet_turn": (0, 0), "fold_to_cbet_flop": (0, 1),
        "fold_to_cbet_turn": (0, 1), "check_raise": (0, 0), "went_to_showdown": (1, 1),
        "won_at_showdown": (0, 1), "won_when_saw_flop": (0, 1),
    },
    "E": {
        "vpip": (2, 5), "pfr": (2, 5), "three_bet": (0, 1), "four_bet": (1, 3),
        "fold_to_three_bet": (0, 1), "steal": (1, 2), "fold_to_steal": (0, 0),
        "cbet_flop": (0, 0), "cbet_turn": (0, 0), "fold_to_cbet_flop": (0, 0),
        "fold_to_cbet_turn": (0, 0), "check_raise": (0, 0), "went_to_showdown": (0, 1),
        "won_at_showdown": (0, 0), "won_when_saw_flop": (0, 1),
    },
    "F": {
        "vpip": (1, 5), "pfr": (1, 5), "three_bet": (0, 2), "four_bet": (0, 1),
        "fold_to_three_bet": (0, 0), "steal": (1, 1), "fold_to_steal": (0, 0),
        "cbet_flop": (0, 0), "cbet_turn": (0, 0), "fold_to_cbet_flop": (0, 0),
        "fold_to_cbet_turn": (0, 0), "check_raise": (0, 0), "went_to_showdown": (0, 0),
        "won_at_showdown": (0, 0), "won_when_saw_flop": (0, 0),
    },
}  # fmt: skip
# (bets + raises, calls, folds) after preflop, net
AGGRESSION = {"A": (2, 0, 0), "B": (0, 0, 1), "C": (2, 1, 0), "D": (1, 1, 0), "E": (1, 1, 1)}
NET = {"A": 48, "B": -14, "C": 71, "D": -85, "E": -23, "F": 3}


def _summaries() -> list[HandSummary]:
    return [summarize(h) for h in HANDS]


def test_every_rate_counted_by_hand() -> None:
    stats = {p.name: p for p in player_stats(_summaries())}
    assert set(stats) == set(WANT)
    for name, want in WANT.items():
        got = {r: (getattr(stats[name], r).count, getattr(stats[name], r).chances) for r in RATES}
        assert got == want, name
        assert stats[name].hands == 5
        assert stats[name].net == NET[name]
        br, calls, folds = AGGRESSION.get(name, (0, 0, 0))
        p = stats[name]
        assert (p.bets_raises, p.calls, p.folds) == (br, calls, folds), name
    assert stats["A"].bb_per_100 == 480  # 48 chips = 24 big blinds in 5 hands
    assert stats["C"].aggression_factor == 2
    assert stats["E"].aggression_frequency == Rate(1, 3)


def _seats(blinds: tuple[int, ...]) -> phh.HandHistory:
    n = len(blinds)
    return dataclasses.replace(
        H1,
        starting_stacks=(200,) * n,
        antes=(0,) * n,
        blinds_or_straddles=blinds,
        players=None,
        actions=(),
    )


def test_positions() -> None:
    assert positions(H1) == ("SB", "BB", "UTG", "HJ", "CO", "BTN")
    nine = _seats((1, 2) + (0,) * 7)
    assert positions(nine) == ("SB", "BB", "UTG", "UTG+1", "UTG+2", "LJ", "HJ", "CO", "BTN")
    assert positions(_seats((2, 1))) == ("BB", "SB")  # PHH heads-up: p2 is the button
    assert positions(_seats((1, 2, 0))) == ("SB", "BB", "BTN")
    assert positions(_seats((1, 2, 0, 0, 0))) == ("SB", "BB", "HJ", "CO", "BTN")
    rows = player_stats(_summaries(), by_position=True)
    assert {(p.name, p.position) for p in rows} == {
        ("A", "SB"), ("B", "BB"), ("C", "UTG"), ("D", "HJ"), ("E", "CO"), ("F", "BTN"),
    }  # fmt: skip


def test_filters() -> None:
    summaries = _summaries()
    assert [s.site for s in summaries] == ["pokerstars"] * 2 + ["ggpoker"] * 2 + ["pokerstars"]
    gg = HandFilter(sites=frozenset({"GGPoker"}))
    assert gg.select(summaries) == summaries[2:4]
    days = HandFilter(since=datetime.date(2024, 3, 2), until=datetime.date(2024, 3, 3))
    assert days.select(summaries) == summaries[2:4]
    assert HandFilter(stakes=frozenset({parse_stakes("1/2")})).select(summaries) == summaries
    assert HandFilter(stakes=frozenset({parse_stakes("0.5/1")})).select(summaries) == []
    assert HandFilter(table_sizes=frozenset({2})).select(summaries) == []
    sb = {p.name: p for p in HandFilter(positions=frozenset({"SB"})).stats(summaries)}
    assert set(sb) == {"A"} and sb["A"].fold_to_steal == Rate(1, 2)
    with pytest.raises(CardlabError, match="stakes"):
        parse_stakes("1-2")
    with pytest.raises(CardlabError, match="YYYY-MM-DD"):
        parse_day("3/1/2024")
    with pytest.raises(CardlabError, match="unknown position"):
        parse_position("dealer")
    with pytest.raises(CardlabError, match="empty"):
        HandFilter(since=datetime.date(2024, 2, 1), until=datetime.date(2024, 1, 1))


def _random_summaries(seed: int, n: int) -> HandSummary:
    game = TableGame.create("standard52-holdem", blinds=(1, 2), betting=Betting.NO_LIMIT)
    history = to_history(_random_hand(game, n, seed))
    return summarize(history)


@settings(max_examples=25, deadline=None)
@given(
    seeds=st.lists(st.tuples(st.integers(0, 10**6), st.integers(2, 6)), min_size=1, max_size=6),
    sites=st.lists(st.sampled_from(["a", "b", "c"]), min_size=6, max_size=6),
)
def test_counts_within_chances_and_filters_partition(
    seeds: list[tuple[int, int]], sites: list[str]
) -> None:
    summaries = [
        dataclasses.replace(_random_summaries(seed, n), site=site)
        for (seed, n), site in zip(seeds, sites, strict=False)
    ]
    total = {p.name: p for p in player_stats(summaries)}
    for p in total.values():
        for r in RATES:
            rate = getattr(p, r)
            assert (
                0 <= rate.count <= rate.chances <= (p.hands if r != "check_raise" else 3 * p.hands)
            )
    # the sites, the table sizes and the positions each split the counts exactly
    for split in (
        [HandFilter(sites=frozenset({s})) for s in "abc"],
        [HandFilter(table_sizes=frozenset({k})) for k in range(2, 7)],
        [HandFilter(positions=frozenset({pos})) for pos in ("SB", "BB", "UTG", "HJ", "CO", "BTN")],
    ):
        added: dict[str, Counter[str]] = {}
        for f in split:
            for p in f.stats(summaries):
                c = added.setdefault(p.name, Counter())
                c["hands"] += p.hands
                for r in RATES:
                    c[r + "/"] += getattr(p, r).count
                    c[r] += getattr(p, r).chances
        for name, p in total.items():
            want = Counter({"hands": p.hands})
            for r in RATES:
                want[r + "/"] += getattr(p, r).count
                want[r] += getattr(p, r).chances
            assert +added[name] == +want, name


def test_real_hands_keep_counts_within_chances() -> None:
    summaries = []
    for path in sorted(DATA.glob("*.phh*")):
        for entry in phh.iter_file(path):
            if entry.history is None:
                continue
            try:
                summaries.append(summarize(entry.history))
            except CardlabError:
                continue  # a record cut short (test_history says which)
    assert len(summaries) >= 10
    for p in player_stats(summaries, by_position=True):
        for r in RATES:
            rate = getattr(p, r)
            assert 0 <= rate.count <= rate.chances


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_the_command_filters(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "hands.db"
    with Store.open(db) as store:
        store.add_hands([imported(replay(h)) for h in HANDS])
    code, out, err = _run(
        capsys, "history", "stats", "--db", str(db), "--format", "json", "--site", "ggpoker"
    )
    assert code == 0, err
    game = json.loads(out)["standard52-holdem"]
    assert game["hands"] == 2
    rows = {p["name"]: p for p in game["players"]}
    assert rows["A"]["fold_to_steal"] == {"count": 1, "chances": 1, "percent": 100.0}
    assert rows["D"]["three_bet"]["count"] == 1
    code, out, err = _run(
        capsys, "history", "stats", "--db", str(db), "--format", "csv", "--by-position",
        "--position", "btn", "--since", "2024-03-02",
    )  # fmt: skip
    assert code == 0, err
    lines = out.strip().splitlines()
    assert lines[0].startswith("game,player,position,hands,vpip,pfr,three_bet,four_bet,")
    assert lines[1].startswith("standard52-holdem,F,BTN,3,0.333333,0.333333,")
    code, out, err = _run(capsys, "history", "stats", "--db", str(db), "--stakes", "1:2")
    assert code == 2 and "SMALL/BIG" in err


def test_sessions() -> None:
    t = datetime.datetime(2024, 3, 1, 20, 0)
    minutes = [0, 10, 35, 120, 125]  # a pause of 25 minutes, then of 85: two sessions
    timed = [
        (t + datetime.timedelta(minutes=m), s) for m, s in zip(minutes, _summaries(), strict=True)
    ]
    got = sessions(list(reversed(timed)), "A")  # any order
    # A: +52, -1, -1 | -1, -1 chips at a 2-chip big blind
    m = datetime.timedelta(minutes=1)
    assert got == [
        Session(t, t + 35 * m, 3, Fraction(52 - 1 - 1, 2), Fraction(52 - 1 - 1, 2)),
        Session(t + 120 * m, t + 125 * m, 2, Fraction(-2, 2), Fraction(-2, 2)),
    ]
    assert sessions(timed, "nobody") == []


def test_the_session_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "hands.db"
    with Store.open(db) as store:
        store.add_hands([imported(replay(h)) for h in HANDS])
    png = tmp_path / "sessions.png"
    code, out, err = _run(
        capsys, "history", "stats", "--db", str(db), "--plot-sessions", str(png), "--player", "A"
    )
    assert code == 0, err
    assert f"wrote {png}" in out and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    code, out, err = _run(
        capsys, "history", "stats", "--db", str(db), "--plot-sessions", str(tmp_path / "x.jpg")
    )
    assert code == 2 and "name the file .png" in err
