"""The small games of cardlab.solve at the table (cardlab.solve.small_table): Kuhn's payoffs
for every deal and betting line against the rules written out by hand, Leduc's bet
sizes and cap, the hand order (pairs, and FESCA's suits), and the exact equity."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from cardlab.errors import GameError
from cardlab.solve.small_table import (
    SmallTableGame,
    is_small_game,
    small_equity,
    small_game_key,
    small_table_game,
)
from cardlab.table.actions import Action, apply, legal_actions
from cardlab.table.state import HandState

KUHN_LINES = {  # betting (player 1 first) -> (showdown?, chips the loser pays)
    "kk": (True, 1),
    "kbf": (False, 1),
    "kbc": (True, 2),
    "bf": (False, 1),
    "bc": (True, 2),
}


def _play(hand: HandState, line: str) -> None:
    for letter in line:
        legal = hand.legal()
        if letter in "kc":
            apply(hand, Action.call())
        elif letter == "f":
            apply(hand, Action.fold())
        else:
            assert legal.raise_min is not None
            apply(hand, Action.raise_to(legal.raise_min))


@pytest.mark.parametrize("line", sorted(KUHN_LINES))
def test_kuhn_pays_as_its_rules_say_for_every_deal(line: str) -> None:
    game = small_table_game("kuhn")
    rank = {"J": 0, "Q": 1, "K": 2}
    for one, two in itertools.permutations(game.small.cards, 2):
        hand = HandState(game, [10, 10], deal="manual")
        hand.deal_hole(0, [one])
        hand.deal_hole(1, [two])
        _play(hand, line)
        assert hand.is_over and hand.result is not None
        showdown, stake = KUHN_LINES[line]
        if showdown:
            first_wins = rank[one.rank.key] > rank[two.rank.key]
        else:  # the player who folded loses
            first_wins = line.endswith("f") and len(line) % 2 == 0
        expected = (stake, -stake) if first_wins else (-stake, stake)
        assert hand.result.winnings == expected, (one, two, line)


def test_kuhn_is_played_as_the_solver_plays_it() -> None:
    game = small_table_game("kuhn")
    assert game.key == "kuhn" and game.max_seats == 2
    assert game.name == "Kuhn poker (standard52) (fixed-limit, ante 1, bets 1, cap 1)"
    assert [str(c) for c in game.game.deck.cards] == ["Js", "Qs", "Ks"]
    hand = HandState(game, [10, 10], seed=1)
    assert hand.actor == 0  # player 1 opens
    assert hand.total_pot == 2  # the antes
    legal = hand.legal()
    assert legal.call == 0 and legal.raise_min == 1 and not legal.fold
    apply(hand, Action.raise_to(1))
    legal = hand.legal()
    assert legal.raise_min is None  # the cap of one bet
    with pytest.raises(GameError, match="two players"):
        game.check_seats(3)


def test_leduc_bets_two_then_four_with_a_cap_of_two() -> None:
    game = small_table_game("leduc")
    hand = HandState(game, [50, 50], seed=7)
    assert hand.legal().raise_min == 2
    apply(hand, Action.raise_to(2))
    assert hand.legal().raise_min == 4  # a raise of 2 more
    apply(hand, Action.raise_to(4))
    legal = hand.legal()
    assert legal.raise_min is None and legal.call == 2  # capped: call or fold
    apply(hand, Action.call())
    assert len(hand.board) == 1 and hand.actor == 0  # round 2: player 1 first again
    assert hand.legal().raise_min == 4
    apply(hand, Action.raise_to(4))
    apply(hand, Action.raise_to(8))
    assert hand.legal().raise_min is None
    apply(hand, Action.call())
    assert hand.result is not None
    assert sorted(hand.result.winnings) in ([-13, 13], [0, 0])  # ante 1 + 4 + 8


def _showdown(name: str, one: str, two: str, board: str) -> HandState:
    game = small_table_game(name)
    deck = game.game.deck
    hand = HandState(game, [50, 50], deal="manual")
    hand.deal_hole(0, [deck.card(one)])
    hand.deal_hole(1, [deck.card(two)])
    _play(hand, "kk")
    hand.deal_board([deck.card(board)])
    _play(hand, "kk")
    assert hand.result is not None
    return hand


def test_leduc_ranks_a_pair_over_a_higher_card_and_splits_equal_ranks() -> None:
    hand = _showdown("leduc", "Js", "Ks", "Jh")
    assert hand.result is not None
    assert hand.result.winnings == (1, -1) and hand.result.decided_by == "one pair"
    hand = _showdown("leduc", "Ks", "Kh", "Qs")
    assert hand.result is not None
    assert hand.result.winnings == (0, 0) and hand.result.decided_by == "tie"
    hand = _showdown("leduc", "Qs", "Ks", "Jh")
    assert hand.result is not None
    assert hand.result.winnings == (-1, 1) and hand.result.decided_by == "ranks"


def test_leduc_on_fesca_breaks_ties_by_suit() -> None:
    # docs/solve.md: with board 木12, 水11 beats 木11 (水 is the stronger suit)
    hand = _showdown("leduc-fesca", "木11", "水11", "木12")
    assert hand.result is not None
    assert hand.result.winnings == (-1, 1) and hand.result.decided_by == "suits"
    assert hand.result.as_dict()["hands"][0]["best_five"] is None


def test_exact_equity_against_a_random_hand() -> None:
    kuhn = small_table_game("kuhn")
    j, q, k = kuhn.small.cards
    assert [small_equity(kuhn, [c], []) for c in (j, q, k)] == [0, Fraction(1, 2), 1]
    leduc = small_table_game("leduc")
    deck = leduc.game.deck
    # Js with Kh on the board: Jh ties, Qs Qh beat it, Ks makes a pair: 1/2 of 1 in 4
    assert small_equity(leduc, [deck.card("Js")], [deck.card("Kh")]) == Fraction(1, 8)
    assert small_equity(leduc, [deck.card("Ks")], [deck.card("Kh")]) == 1


def test_random_hands_end_with_every_chip_accounted_for() -> None:
    for name in ("kuhn", "leduc", "leduc-fesca"):
        game = small_table_game(name)
        for seed in range(40):
            hand = HandState(game, [30, 30], seed=seed)
            rng = random.Random(seed)
            while not hand.is_over:
                apply(hand, rng.choice(legal_actions(hand)))
            assert hand.result is not None
            assert sum(hand.result.winnings) == 0


def test_names_and_refusals() -> None:
    assert is_small_game("kuhn") and is_small_game("Leduc@FESCA78")
    assert not is_small_game("standard52-holdem")
    assert small_game_key("leduc", "FESCA78") == "leduc@FESCA78"
    assert small_game_key("fesca78-holdem") is None
    on_fesca = small_table_game("leduc@FESCA78")
    assert isinstance(on_fesca, SmallTableGame)
    assert len(on_fesca.game.deck.cards) == 6 and on_fesca.key == "leduc@FESCA78"
    with pytest.raises(GameError, match="unknown deck 'nodeck'"):
        small_table_game("kuhn@nodeck")


def test_a_game_the_table_cannot_bet_is_refused() -> None:
    from cardlab.solve.games import game_from_toml
    from cardlab.solve.small_table import table_game_for

    text = """
name = "Three sizes"
deck = "standard52"
ranks = ["J", "Q", "K", "A"]
suits = ["s", "h"]
[[rounds]]
public = 0
bet = 1
cap = 1
[[rounds]]
public = 1
bet = 2
cap = 1
[[rounds]]
public = 1
bet = 3
cap = 1
"""
    with pytest.raises(GameError, match="two bet sizes"):
        table_game_for(game_from_toml(text), "three")
