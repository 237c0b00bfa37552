"""Monte Carlo equity, ranges, split-pot rates, draw advice and the commands."""

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from cardlab.errors import CardlabError
from cardlab.poker.draw import best_draw, reference_keep
from cardlab.poker.equity import exact_equity, sample_equity, tie_rate
from cardlab.poker.games import get_game
from cardlab.poker.ranges import parse_range

HOLDEM = get_game("standard52-holdem")


@pytest.mark.parametrize(
    ("game", "hands", "board"),
    [
        ("standard52-holdem", ["As Ac", "Kd Kh"], "2c 7d 9h"),
        ("fesca78-holdem", ["木1 火1", "水12 金12"], "木5 火6 土7"),
        ("fesca60-omaha", ["木1 火1 土2 金3", "水12 金12 木11 火10"], "木5 火6 土7 金8"),
    ],
)
def test_sampled_within_four_standard_errors(game: str, hands: list[str], board: str) -> None:
    g = get_game(game)
    exact = exact_equity(g, hands, board=board)
    sampled = sample_equity(g, hands, board=board, samples=200_000, rng=11)
    for e, s in zip(exact.players, sampled.players, strict=True):
        assert s.equity_se is not None and s.equity_se > 0
        assert abs(float(e.equity) - float(s.equity)) <= 4 * s.equity_se
        assert s.win_se is not None
        assert abs(float(e.win) - float(s.win)) <= 4 * s.win_se + 1e-12


def test_same_seed_same_result_and_target_se_stops_early() -> None:
    a = sample_equity(HOLDEM, ["As Ac", "7d 8d"], samples=100_000, rng=3)
    b = sample_equity(HOLDEM, ["As Ac", "7d 8d"], samples=100_000, rng=3)
    assert a == b
    c = sample_equity(HOLDEM, ["As Ac", "7d 8d"], samples=10_000_000, rng=3, target_se=0.002)
    assert c.deals < 10_000_000
    assert all(p.equity_se is not None and p.equity_se <= 0.002 for p in c.players)


def test_stud_with_hands_still_to_come() -> None:
    g = get_game("fesca54-stud")
    r = sample_equity(g, ["木1 火1 土1", "水8 金8 木8"], samples=50_000, rng=1)
    assert abs(sum(float(p.equity) for p in r.players) - 1) < 1e-9
    with pytest.raises(CardlabError, match="use sampling"):
        exact_equity(g, ["木1 火1 土1", "水8 金8 木8"])


def test_range_notation() -> None:
    def n(text: str) -> int:
        return len(parse_range(text, HOLDEM).combos)

    assert n("QQ+") == 18
    assert n("AKs") == 4 and n("AKo") == 12 and n("AK") == 16
    assert n("A2s+") == 12 * 4
    assert n("T9s-65s") == 5 * 4
    assert n("KTs-K7s") == 4 * 4
    assert n("22-55") == 4 * 6
    assert n("QQ+, AKs, AsKs") == 22
    for bad in ("", "QQ-", "AKx", "AKs-QJo", "ZZ", "QQs"):
        with pytest.raises(CardlabError):
            parse_range(bad, HOLDEM)
    with pytest.raises(CardlabError, match="standard52"):
        parse_range("QQ+", get_game("fesca78-holdem"))


def test_range_equity_counts_every_combination_once() -> None:
    ranged = exact_equity(HOLDEM, ["AsAc, AhAd", "Kd Kh"], board="2c 7d 9h Ts")
    one = exact_equity(HOLDEM, ["As Ac", "Kd Kh"], board="2c 7d 9h Ts")
    two = exact_equity(HOLDEM, ["Ah Ad", "Kd Kh"], board="2c 7d 9h Ts")
    average = (one.players[0].equity + two.players[0].equity) / 2
    assert ranged.players[0].equity == average


def test_tie_rates_suits_settle_pots() -> None:
    rate = tie_rate(get_game("fesca42-holdem"), samples=40_000, rng=2)
    assert rate.with_suits < rate.without_suits
    assert rate.with_suits_se > 0


def test_draw_matches_reference_and_ranks_keeps() -> None:
    game = get_game("fesca42-draw")
    hand = game.deck.parse_cards("木1 火1 土3 金5 水6")
    advice = best_draw(game, hand, goal="three_of_a_kind")
    assert len(advice.keeps) == 32
    probs = [k.probability for k in advice.keeps]
    assert probs == sorted(probs, reverse=True)
    rest = [c for c in game.deck.cards if c not in hand]
    from cardlab.poker.draw import _goal_threshold  # the same threshold, checked plainly

    threshold = _goal_threshold(game, "three_of_a_kind", advice.value)[0]
    checked = [k for k in advice.keeps if len(k.kept) >= 4]
    checked.append(next(k for k in advice.keeps if len(k.kept) == 3))
    for keep in checked:
        assert (keep.hits, keep.draws) == reference_keep(game, keep.kept, rest, threshold)
    pair_keep = next(k for k in advice.keeps if set(k.kept) == set(hand[:2]))
    assert pair_keep.probability > Fraction(0)


def test_draw_refuses_bad_requests() -> None:
    game = get_game("tesca54-draw")
    with pytest.raises(CardlabError, match="unknown hand"):
        best_draw(game, "木7 火7 水2 陰陽9 木11", goal="royal")
    with pytest.raises(CardlabError, match="both hands"):
        best_draw(game, "木7 火7 水2 陰陽9 木11", beat="木7 火8 水3 陰陽10 木12")
    with pytest.raises(CardlabError, match="no draw"):
        best_draw(get_game("fesca78-holdem"), "木7 火7 水2 陰陽9 木11")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardlab", *args], capture_output=True, text=True, check=False
    )


def test_cli_equity_json() -> None:
    result = run("equity", "As Ac", "Kd Kh", "--board", "2c 7d 9h Ts", "--format", "json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["exact"] is True and data["game"] == "Texas Hold'em"
    assert [p["cards"] for p in data["players"]] == ["As Ac", "Kd Kh"]
    assert sum(Fraction(p["equity"]) for p in data["players"]) == 1
    sampled = run(
        "equity", "As Ac", "Kd Kh", "--samples", "20000", "--seed", "1", "--format", "json"
    )
    players = json.loads(sampled.stdout)["players"]
    assert isinstance(players[0]["equity"], float) and players[0]["equity_se"] > 0


def test_cli_showdown_draw_ties() -> None:
    show = run(
        "showdown", "--game", "standard52-holdem", "--board", "2c 7d 9h Ks 3s", "As Ac", "Kd Kh"
    )
    assert show.returncode == 0 and "seat 2 wins" in show.stdout
    draw = run("draw", "--game", "tesca54-draw", "木7 火7 水2 陰陽9 木11", "--format", "json")
    assert json.loads(draw.stdout)["keeps"][0]["keep"] == "木7 火7"
    strong = run(
        "draw", "-g", "standard52-draw", "--strength", "Ah Ad 7c 4s 2h", "--format", "json"
    )
    best = json.loads(strong.stdout)["keeps"][0]
    assert best["keep"] == "Ah Ad" and 0 < Fraction(best["strength"]) < 1
    ties = run("ties", "--game", "fesca42-holdem", "--samples", "2000", "--format", "json")
    assert json.loads(ties.stdout)["games"][0]["key"] == "fesca42-holdem"


@pytest.mark.parametrize(
    "args",
    [
        ("equity", "As Ac", "As Kd"),
        ("equity", "As Ac", "QQ-"),
        ("equity", "As Ac", "Kd Kh", "--exact", "--samples", "10"),
        ("showdown", "--game", "fesca99-holdem", "As Ac", "Kd Kh"),
        ("showdown", "--board", "木1 火1 土1", "木2 火2", "木3 火3"),
        ("draw", "木7 火7 水2 陰陽9"),
        ("draw", "--strength", "木7 火7 水2 陰陽9"),
        ("draw", "--strength", "--goal", "flush", "木7 火7 水2 陰陽9 木11"),
        ("draw", "--strength", "--dead", "木7", "木7 火7 水2 陰陽9 木11"),
    ],
)
def test_cli_bad_input_one_line_exit_2(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stderr.startswith("cardlab: error:")
    assert result.stderr.strip().count("\n") == 0
