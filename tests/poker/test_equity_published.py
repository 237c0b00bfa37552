"""Exact standard52 Hold'em equities against figures published by established calculators.

Each figure is compared within the rounding it was published with. Sources:

- GNU poker-eval's ``hcmp2`` (exact counts of wins, losses and ties over all 1,712,304
  boards), as printed in https://brainwagon.org/2005/04/09/texas-holdem-trivia
- Upswing Poker, "What Are The Odds of Winning with Pocket Aces?" (win percentages to
  two decimals), https://upswingpoker.com/odds-of-winning-pocket-aces/
- Equilab/PokerStove figures quoted on the PokerStrategy forum (whole percents),
  https://www.pokerstrategy.com/forum/thread.php?threadid=188543
- the coin flip "pair ahead about 52 to 48 against overcards", FlopTurnRiver forum,
  https://www.flopturnriver.com/pokerforum/printthread.php?page=1&pp=75&t=92975
- the "rule of 4 and 2" for draws, http://www.nutzpoker.net/outs/
"""

from fractions import Fraction

import pytest

from cardlab.poker.equity import exact_equity
from cardlab.poker.games import get_game

HOLDEM = get_game("standard52-holdem")
BOARDS = 1_712_304  # C(48, 5): every preflop runout heads-up


@pytest.mark.parametrize(
    ("hero", "villain", "wins", "losses", "ties"),
    [
        # GNU poker-eval hcmp2 (brainwagon.org): exact counts
        ("Ad Ac", "Kh Ks", 1_388_072, 317_694, 6_538),
        ("Ad Ac", "Td 9d", 1_338_249, 367_143, 6_912),
        ("Ad Ac", "Qc Jh", 1_450_987, 254_763, 6_554),
    ],
)
def test_preflop_counts_equal_poker_eval(
    hero: str, villain: str, wins: int, losses: int, ties: int
) -> None:
    r = exact_equity(HOLDEM, [hero, villain])
    assert r.deals == BOARDS
    a, b = r.players
    assert (a.win * BOARDS, a.lose * BOARDS, a.tie * BOARDS) == (wins, losses, ties)
    assert (b.win * BOARDS, b.lose * BOARDS) == (losses, wins)
    assert a.equity == Fraction(2 * wins + ties, 2 * BOARDS)


@pytest.mark.parametrize(
    ("hero", "villain", "published", "places", "of"),
    [
        # Upswing Poker: AA's chance to win, two decimals
        ("As Ah", "Ks Kh", 82.36, 2, "win"),  # both hands in the same two suits
        ("Ac Ad", "8h 7h", 76.83, 2, "win"),  # suited connector sharing no suit
        # Equilab/PokerStove via PokerStrategy: AKs vs QQ with no shared suit, 46 %
        ("As Ks", "Qh Qd", 46, 0, "equity"),
    ],
)
def test_preflop_percentages_match_calculators(
    hero: str, villain: str, published: float, places: int, of: str
) -> None:
    r = exact_equity(HOLDEM, [hero, villain])
    value = getattr(r.players[0], of) * 100
    assert round(float(value), places) == published


def test_coin_flip_pair_against_two_overcards() -> None:
    # 22 vs AKo: "about 52 to 48" (FlopTurnRiver); exact here
    r = exact_equity(HOLDEM, ["2c 2s", "Ah Ks"])
    pair, overcards = r.players
    assert abs(float(pair.equity) - 0.52) < 0.01
    assert pair.equity > overcards.equity
    assert pair.equity + overcards.equity == 1


def test_turn_two_outer() -> None:
    # set of kings against aces with one card to come: the aces have the two other aces
    # among 44 unseen cards (counting outs, as every calculator's turn figure does)
    r = exact_equity(HOLDEM, ["As Ac", "Kd Kh"], board="2c 7d 9h Ks")
    assert r.deals == 44
    assert r.players[0].equity == Fraction(2, 44)
    assert r.players[0].tie == 0


def test_flop_flush_draw_against_overpair() -> None:
    # a bare flush draw (9 outs, no pair or straight outs) against kings, two cards to
    # come: the "rule of 4" (http://www.nutzpoker.net/outs/) gives 9 x 4 = 36 %
    r = exact_equity(HOLDEM, ["7h 3h", "Kc Kd"], board="Qh 8h 2s")
    assert r.deals == 990  # C(45, 2)
    assert abs(float(r.players[0].equity) - 0.36) < 0.01
