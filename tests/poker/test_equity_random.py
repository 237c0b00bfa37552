"""Equity against random hands: the published AA figure, exact vs reference, seeds."""

import pytest

from cardlab.errors import CardlabError
from cardlab.poker.equity import equity, exact_equity, reference_equity, sample_equity
from cardlab.poker.games import get_game

HOLDEM = get_game("standard52-holdem")
# 34 cards out of play: 11 left after the river board and AA, C(11, 2) = 55 opponents
DEAD = (
    "2d 2h 2s 3c 3d 3h 3s 4c 4d 4h 4s 5c 5d 5h 6c 6d 6h 6s "
    "7c 7h 7s 8c 8d 8h 8s 9c 9d 9s Tc Td Th Ts Jc Jd"
)


def test_aces_against_one_random_hand_preflop() -> None:
    # AA v a random hand: 85.2% (PokerStove / Equilab, quoted widely)
    r = sample_equity(HOLDEM, ["As Ac", "random"], samples=400_000, rng=5)
    aces = r.players[0]
    assert aces.equity_se is not None and aces.equity_se < 0.001
    assert abs(float(aces.equity) - 0.852) <= 4 * aces.equity_se + 0.0005
    assert r.players[1].cards == "random"


def test_exact_random_hand_equals_reference() -> None:
    hands = ["As Ac", "??"]
    fast = exact_equity(HOLDEM, hands, board="2c 7d 9h 5s Kd", dead=DEAD)
    slow = reference_equity(HOLDEM, hands, board="2c 7d 9h 5s Kd", dead=DEAD)
    assert fast == slow
    assert fast.deals == 55


def test_equity_enumerates_when_cheap_and_samples_otherwise() -> None:
    river = equity(HOLDEM, ["As Ac", "random"], board="2c 7d 9h 5s Kd")
    assert river.exact and river.deals == 990
    preflop = equity(HOLDEM, ["As Ac", "random"], samples=20_000, rng=1)
    assert not preflop.exact
    with pytest.raises(CardlabError, match="use sampling"):
        exact_equity(HOLDEM, ["As Ac", "random", "random"])


def test_random_hands_seeded_and_within_error_of_exact() -> None:
    g = get_game("fesca78-holdem")
    hands = ["木1 火1", "random"]
    a = sample_equity(g, hands, board="木5 火6 土7 金8", samples=100_000, rng=9)
    b = sample_equity(g, hands, board="木5 火6 土7 金8", samples=100_000, rng=9)
    assert a == b
    exact = exact_equity(g, hands, board="木5 火6 土7 金8")
    for e, s in zip(exact.players, a.players, strict=True):
        assert s.equity_se is not None
        assert abs(float(e.equity) - float(s.equity)) <= 4 * s.equity_se
