"""The replay's shortcuts against the engine's plain paths: the pots of a hand won
uncontested (showdown._lone_pots against pots.layer_pots) and dealing with the card
masks a replay remembers per token (HandState._deal_hole_masked / _deal_board_masked
against deal_hole / deal_board: the same hands, the same refusals)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.errors import HistoryError
from cardlab.table import TableGame, phh
from cardlab.table.history import replay
from cardlab.table.pots import layer_pots
from cardlab.table.showdown import _lone_pots


@st.composite
def lone_winner_chips(draw: st.DrawFn) -> tuple[list[int], list[int], list[int], int, bool]:
    """paid, bets, antes of a table with one player left (any amounts, so that every
    layering a hand cannot reach is covered too), the winner, ante trimming."""
    n = draw(st.integers(2, 9))
    antes = draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    bets = draw(st.lists(st.integers(0, 50), min_size=n, max_size=n))
    before = draw(st.lists(st.integers(0, 300), min_size=n, max_size=n))
    paid = [a + b + c for a, b, c in zip(antes, bets, before, strict=True)]
    return paid, bets, antes, draw(st.integers(0, n - 1)), draw(st.booleans())


@settings(max_examples=500, deadline=None)
@given(lone_winner_chips())
def test_lone_pots_are_the_layered_pots(
    chips: tuple[list[int], list[int], list[int], int, bool],
) -> None:
    paid, bets, antes, winner, trimming = chips
    alive = [i == winner for i in range(len(paid))]
    state = SimpleNamespace(
        paid=paid, bets=bets, antes=antes, stakes=SimpleNamespace(ante_trimming=trimming)
    )
    layered = layer_pots(paid, bets, antes, alive, ante_trimming=trimming)
    assert _lone_pots(state, winner) == [(p.amount, p.players) for p in layered]  # type: ignore[arg-type]


def test_lone_pots_of_a_side_pot_nobody_can_win() -> None:
    # p1 (the winner) put in 10, p2 40 and p3 100 (folded): 10 + 10 + 10 to p1, and
    # the 30 + 90 above p1's level to nobody
    state = SimpleNamespace(
        paid=[10, 40, 100],
        bets=[0, 0, 0],
        antes=[0, 0, 0],
        stakes=SimpleNamespace(ante_trimming=False),
    )
    assert _lone_pots(state, 0) == [(30, (0,)), (120, ())]  # type: ignore[arg-type]


HEADS_UP = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = [{deals}, "p2 cc", "p1 cc", "d db {flop}", "p1 cc", "p2 cc", "d db {turn}",
  "p1 cc", "p2 cc", "d db {river}", "p1 cc", "p2 cc"]
"""


def _text(deals: str, flop: str = "Jc8d2s", turn: str = "3h", river: str = "4c") -> str:
    return HEADS_UP.format(deals=deals, flop=flop, turn=turn, river=river)


def test_masked_deals_give_the_plain_engines_hand() -> None:
    text = _text('"d dh p1 AsKs", "d dh p2 QhQd"')
    r = replay(phh.loads(text))
    # the same hand dealt by the engine's public methods
    from cardlab.table.state import HandState

    game = TableGame.create("standard52-holdem", blinds=(1, 2))
    hand = HandState(game, [200, 200], deal="manual", showdown="manual")
    deck = game.game.deck
    hand.deal_hole(0, deck.parse_cards("AsKs"))
    hand.deal_hole(1, deck.parse_cards("QhQd"))
    hand.check_or_call()
    hand.check_or_call()
    for board in ("Jc8d2s", "3h", "4c"):
        hand.deal_board(deck.parse_cards(board))
        hand.check_or_call()
        hand.check_or_call()
    hand.finish_showdown()
    assert [str(e) for e in r.hand.history] == [str(e) for e in hand.history]
    assert r.hand.stacks == hand.stacks == [198, 202]


@pytest.mark.parametrize(
    ("deals", "board", "message"),
    [
        (
            '"d dh p1 AsKs", "d dh p2 AsQd"',
            {},
            "actions\\[1\\] 'd dh p2 AsQd': card As is already dealt",
        ),
        ('"d dh p1 AsKs", "d dh p2 QhQd"', {"turn": "Ks"}, "'d db Ks': card Ks is already dealt"),
        ('"d dh p1 AsKs", "d dh p1 QhQd"', {}, "'d dh p1 QhQd': no hole cards are due to p1"),
        ('"d dh p1 AsKsQs", "d dh p2 QhQd"', {}, "p1 is due 2 cards, got 3"),
    ],
)
def test_masked_deals_refuse_as_the_plain_ones(
    deals: str, board: dict[str, str], message: str
) -> None:
    with pytest.raises(HistoryError, match=message):
        replay(phh.loads(_text(deals, **board)))
