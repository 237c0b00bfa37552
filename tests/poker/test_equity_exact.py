"""Exact equity: the compiled enumeration against the reference, and the laws."""

from fractions import Fraction

import pytest

from cardlab.errors import CardlabError
from cardlab.poker.equity import exact_equity, reference_equity
from cardlab.poker.games import get_game


@pytest.mark.parametrize(
    ("game", "hands", "board"),
    [
        ("standard52-holdem", ["As Ac", "Kd Kh"], "2c 7d 9h Ks"),
        ("standard52-holdem", ["As Ks", "Qh Qd", "7c 8c"], "2c 7d 9h Tc"),
        ("fesca78-holdem", ["木1 火1", "水12 金12"], "木5 火6 土7 金8"),
        ("fesca60-omaha", ["木1 火1 土2 金3", "水12 金12 木11 火10"], "木5 火6 土7 金8"),
        ("fesca42-holdem", ["木1 火1", "水2 金2", "陰陽3 太極"], "木5 火6 土Z 金4"),
    ],
)
def test_exact_equals_reference(game: str, hands: list[str], board: str) -> None:
    g = get_game(game)
    fast = exact_equity(g, hands, board=board)
    slow = reference_equity(g, hands, board=board)
    assert fast.players == slow.players
    assert fast.deals == slow.deals
    assert sum(p.equity for p in fast.players) == 1
    for p in fast.players:
        assert p.win + p.tie + p.lose == 1


def test_swapping_players_swaps_results() -> None:
    g = get_game("fesca54-holdem")
    a = exact_equity(g, ["木1 火1", "水8 金8"], board="木5 火6 土7")
    b = exact_equity(g, ["水8 金8", "木1 火1"], board="木5 火6 土7")
    assert a.players[0].equity == b.players[1].equity
    assert a.players[1].win == b.players[0].win


def test_dead_cards_leave_the_deck() -> None:
    g = get_game("standard52-holdem")
    r = exact_equity(g, ["As Ac", "Kd Kh"], board="2c 7d 9h", dead="Ks")
    assert r.deals == 44 * 43 // 2  # C(44, 2): the turn and river without the dead king
    assert r.players[1].equity == Fraction(1, 1) - r.players[0].equity


@pytest.mark.parametrize(
    ("hands", "board", "dead", "message"),
    [
        (["As Ac", "As Kh"], "", "", "As is dealt"),
        (["As Ac", "Kd Kh"], "Ac 2d 3d", "", "Ac"),
        (["As Ac", "Kd Kh"], "", "Kd", "Kd"),
        (["As Ac", "Kd"], "", "", "player 2 must hold 2 cards"),
        (["As Ac", "Kd Kh"], "2c 3c 4c 5c 6c 7c", "", "at most 5"),
        (["As Ac", "ZZ+"], "", "", "malformed range item"),
        (["As Ac", ""], "", "", "empty range"),
    ],
)
def test_bad_input_is_refused(hands: list[str], board: str, dead: str, message: str) -> None:
    with pytest.raises(CardlabError, match=message):
        exact_equity(get_game("standard52-holdem"), hands, board=board, dead=dead)


@pytest.mark.parametrize(
    ("game", "options", "hands", "board"),
    [
        # compound=mixwell: the hashed kernel is not exact, the plain subsets are used
        (
            "fesca65-holdem",
            {"compound": "mixwell", "order": "classic"},
            ["木1 火1", "水2 金2"],
            "木5 火6 土7",
        ),
        ("fesca78-stud", {}, ["木1 火1 土1 金2 水3 木4 火5", "水8 金8 木8 火9 土10 金11 水12"], ""),
        ("fesca78-draw", {}, ["木1 火1 土1 金2 水3", "水8 金8 木8 火9 土10"], ""),
    ],
)
def test_every_kernel_path_equals_reference(
    game: str, options: dict[str, str], hands: list[str], board: str
) -> None:
    g = get_game(game, **options)
    fast = exact_equity(g, hands, board=board)
    assert fast == reference_equity(g, hands, board=board)
