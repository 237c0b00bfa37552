"""Exact equity counted by classes (boards by rank multiset, opponent hands by rank pair)
against the plain enumeration that deals and scores every board.

The plain path (``equity._COUNT_BY_CLASS = False``: the compiled loops of
``_kernels/showdowns.py``, held to the reference evaluator by test_equity_exact.py) is
the independent value: the class counters share only the hash look-ups with it.
"""

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.poker import equity as equity_module
from cardlab.poker.equity import EquityResult, enumerates, exact_equity, reference_equity
from cardlab.poker.games import Game, get_game

HOLDEM = get_game("standard52-holdem")


def _plain(game: Game, hands: list[str], board: str = "", dead: str = "") -> EquityResult:
    equity_module._COUNT_BY_CLASS = False
    try:
        return exact_equity(game, hands, board=board, dead=dead, max_seconds=None)
    finally:
        equity_module._COUNT_BY_CLASS = True


@pytest.mark.parametrize(
    ("game", "options", "hands", "board", "dead"),
    [
        ("standard52-holdem", {}, ["As Ah", "Ks Kh"], "", ""),  # 1,712,304 boards
        ("standard52-holdem", {}, ["As Ks", "Qh Jh", "7c 8c"], "2c 7d 9h", ""),
        ("standard52-holdem", {}, ["Ah Kh", "Qs Qd"], "2h 7h", "Th"),
        ("standard52-holdem", {}, ["5c 4c", "AA,KQs"], "2c 3d", ""),  # a range
        ("fesca78-holdem", {}, ["木1 火1", "水12 金12"], "木5 土9", ""),
        ("fesca78-holdem", {}, ["木1 木2", "陰陽12 太極", "土3 金4"], "木5 火6 土7", ""),
        ("fesca78-holdem", {"suit_tiebreak": "off"}, ["木1 火1", "水12 金12"], "木5 火6", ""),
        ("fesca78-holdem", {"mixwell": "off"}, ["木1 火1", "水12 金12"], "木5 火6", ""),
        ("fesca78-holdem", {"compound": "base"}, ["木Z 火Z", "水1 金2"], "木3 火4", ""),
        ("fesca60-holdem", {}, ["木1 火1", "水12 金12"], "木5 火6", ""),
        ("fesca42-holdem", {}, ["木1 火1", "水2 金2", "陰陽3 太極"], "木5", ""),
        ("tesca54-holdem", {}, ["木1 火1", "水12 陰陽12"], "木5", ""),  # no Mixwell: 3 elements
        ("tesca54-holdem", {"suit_tiebreak": "off"}, ["木1 火1", "水12 陰陽12"], "火5", ""),
    ],
)
def test_fixed_hands_by_class_equal_plain(
    game: str, options: dict[str, str], hands: list[str], board: str, dead: str
) -> None:
    g = get_game(game, **options)
    fast = exact_equity(g, hands, board=board, dead=dead)
    assert fast == _plain(g, hands, board, dead)


def test_fixed_hands_by_class_equal_reference() -> None:
    g = get_game("fesca78-holdem")
    hands = ["木1 火1", "水12 金12"]
    board = "木5 火6 土7 金8"
    assert exact_equity(g, hands, board=board) == reference_equity(g, hands, board=board)


@pytest.mark.parametrize(
    ("game", "options", "hands", "board", "dead"),
    [
        ("standard52-holdem", {}, ["As Ah", "random"], "2c 7d 9h", ""),
        ("standard52-holdem", {}, ["random", "7h 8h"], "2h 3h 9h", ""),  # hero second
        ("standard52-holdem", {}, ["As Ks", "??"], "2s 7s 9h", "Qs"),
        ("standard52-holdem", {}, ["2c 2d", "random"], "2h 3h 9h Th", ""),
        ("standard52-holdem", {}, ["Ah 8h", "random"], "2h 3h 9h Th 4h", ""),  # board flush
        (
            "fesca78-holdem",
            {"mixwell": "off", "suit_tiebreak": "off"},
            ["木1 火1", "random"],
            "木5 火6 土7",
            "",
        ),
        ("tesca54-holdem", {"suit_tiebreak": "off"}, ["木1 木2", "random"], "木5 火6 水7", ""),
        (
            "fesca42-holdem",
            {"mixwell": "off", "suit_tiebreak": "off"},
            ["木1 火1", "random"],
            "木5",
            "",
        ),
    ],
)
def test_hand_against_random_by_class_equals_plain(
    game: str, options: dict[str, str], hands: list[str], board: str, dead: str
) -> None:
    g = get_game(game, **options)
    assert enumerates(g, hands, board, dead)
    fast = exact_equity(g, hands, board=board, dead=dead)
    assert fast == _plain(g, hands, board, dead)


def test_aces_against_a_random_hand_preflop_exactly() -> None:
    r = exact_equity(HOLDEM, ["As Ac", "random"])
    assert r.exact
    assert r.deals == 1225 * 1_712_304  # every opponent hand, then every board
    # AA v a random hand: 85.20% (PokerStove / Equilab), 0.52% split
    assert round(float(r.players[0].equity), 4) == 0.8520
    assert r.players[0].equity + r.players[1].equity == 1
    assert r.players[0].tie == r.players[1].tie
    assert r.players[0].win == r.players[1].lose


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_deals_by_class_equal_plain(data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(["standard52-holdem", "fesca78-holdem", "tesca54-holdem"]))
    g = get_game(name)
    cards = data.draw(st.permutations(g.deck.cards))
    players = data.draw(st.integers(2, 3))
    random_hand = players == 2 and data.draw(st.booleans())
    on_board = data.draw(st.integers(4 if random_hand else 3, 5))
    hands = [" ".join(map(str, cards[2 * p : 2 * p + 2])) for p in range(players)]
    if random_hand:
        hands[1] = "random"
    board = " ".join(map(str, cards[2 * players : 2 * players + on_board]))
    fast = exact_equity(g, hands, board=board)
    assert fast == _plain(g, hands, board)
    assert sum(Fraction(p.equity) for p in fast.players) == 1


def test_cli_counts_a_hand_against_a_random_hand_exactly() -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "cardlab",
            "equity",
            "As Ac",
            "random",
            "--exact",
            "--format",
            "json",
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["exact"] and out["deals"] == 2_097_572_400
    aces, rival = out["players"]
    assert rival["cards"] == "random"
    assert Fraction(aces["equity"]) + Fraction(rival["equity"]) == 1
    assert round(float(Fraction(aces["equity"])), 4) == 0.8520
