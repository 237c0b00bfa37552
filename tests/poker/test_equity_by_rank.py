"""The by-rank counter's part B (boards whose suit counts allow a flush or a Mixwell),
counted per suit vector with each player's Mixwell choices found once per vector,
against the plain enumeration that deals and scores every board, and against the
reference evaluator on small deals.

The plain path (``equity._COUNT_BY_CLASS = False``) shares only the hash look-ups with
the counter; the reference evaluator (:func:`~cardlab.poker.equity.reference_equity`)
shares nothing. FESCA42 and FESCA54 keep preflop deals small (501,942 and 2,118,760
boards) while holding everything FESCA78 has: six suits, Mixwell, suits breaking ties.
"""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.poker import equity as equity_module
from cardlab.poker.equity import EquityResult, exact_equity, reference_equity
from cardlab.poker.games import Game, get_game


def _plain(game: Game, hands: list[str], board: str = "") -> EquityResult:
    equity_module._COUNT_BY_CLASS = False
    try:
        return exact_equity(game, hands, board=board, max_seconds=None)
    finally:
        equity_module._COUNT_BY_CLASS = True


@pytest.mark.parametrize(
    ("game", "options", "hands"),
    [
        ("fesca42-holdem", {}, ["木1 火1", "水6 金6"]),  # pairs, four Mixwell suits held
        ("fesca42-holdem", {}, ["木1 木2", "木3 火4"]),  # shared suit: 木 flushes
        ("fesca42-holdem", {}, ["木1 火1", "土1 金1"]),  # shared ranks: suits break ties
        ("fesca42-holdem", {}, ["木Z 水Z", "土Z 金Z"]),  # shared ZAT ranks, one suit apart
        ("fesca42-holdem", {}, ["陰陽3 太極", "木5 水5"]),  # 陰陽 never in a Mixwell
        ("fesca42-holdem", {}, ["土2 土3", "陰陽2 陰陽3"]),  # the same ranks, flush suits
        ("fesca42-holdem", {"suit_tiebreak": "off"}, ["木1 火1", "土1 金1"]),  # split pots
        ("fesca42-holdem", {"compound": "base"}, ["木1 火2", "土3 金4"]),
        ("fesca42-holdem", {"mixwell": "off"}, ["木1 木2", "木3 火4"]),  # flushes only
        ("fesca54-holdem", {}, ["木1 火1", "水8 金8"]),
        ("fesca54-holdem", {}, ["金Z 水Z", "木2 火3"]),
    ],
)
def test_preflop_by_rank_equals_plain(game: str, options: dict[str, str], hands: list[str]) -> None:
    g = get_game(game, **options)
    fast = exact_equity(g, hands)
    assert fast == _plain(g, hands)
    assert sum(Fraction(p.equity) for p in fast.players) == 1


@pytest.mark.parametrize(
    ("game", "hands"),
    [
        ("fesca42-holdem", ["木1 火1", "水6 金6"]),
        ("standard52-holdem", ["As Ah", "Ks Kh"]),
        ("standard52-holdem", ["7c 2d", "random"]),  # the hand against a random hand
    ],
)
def test_any_number_of_workers_counts_the_same(
    game: str, hands: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the workers take units of work in turn (which one takes which varies from run to
    # run); more workers than threads, one, or two: the plain enumeration's tallies
    g = get_game(game)
    expected = _plain(g, hands) if "random" not in hands else None
    seen = set()
    for workers in (1, 2, 7):
        monkeypatch.setattr(equity_module, "_cores", lambda w=workers: w)
        result = exact_equity(g, hands)
        seen.add(result)
        if expected is not None:
            assert result == expected
    assert len(seen) == 1


def test_fesca78_preflop_by_rank_equals_plain() -> None:
    # issue 12's case: 16,108,764 boards, a third of them where suits allow a Mixwell
    g = get_game("fesca78-holdem")
    hands = ["木1 火1", "水12 金12"]
    fast = exact_equity(g, hands)
    assert fast == _plain(g, hands)
    assert fast.players[0].equity == Fraction(3154323, 10739176)


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["木1 火1", "水6 金6", "土2 陰陽2"], ""),  # three players: the general loop
        (["木1 火1", "水6 金6", "土2 陰陽2"], "木4"),
        (["木1 木2", "木3 木4", "木5 火6"], "木6 土1"),  # two players may flush 木
        (["木1 火1", "水6 金6"], "土3"),  # one card on the board: four dealt
        (["木1 火1", "水6 金6"], "土3 陰陽4 木5"),  # two dealt: the last slot alone
    ],
)
def test_boards_by_rank_equal_plain(hands: list[str], board: str) -> None:
    g = get_game("fesca42-holdem")
    assert exact_equity(g, hands, board=board) == _plain(g, hands, board)


@pytest.mark.parametrize(
    ("game", "hands", "board"),
    [
        ("fesca42-holdem", ["木1 火1", "土1 金1"], "水2 陰陽3 木4"),  # ties by suit
        ("fesca42-holdem", ["木1 木2", "水3 水4"], "木5 水6 土Z"),  # flushes both ways
        ("fesca54-holdem", ["木1 火2", "金3 水4"], "土5 陰陽6 火7"),
    ],
)
def test_by_rank_equals_reference(game: str, hands: list[str], board: str) -> None:
    g = get_game(game)
    assert exact_equity(g, hands, board=board) == reference_equity(g, hands, board=board)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_preflop_by_rank_equals_plain(data: st.DataObject) -> None:
    g = get_game("fesca42-holdem", **data.draw(st.sampled_from([{}, {"suit_tiebreak": "off"}])))
    cards = data.draw(st.permutations(g.deck.cards))
    players = data.draw(st.integers(2, 3))
    on_board = data.draw(st.integers(0, 2)) if players == 2 else 2
    hands = [" ".join(map(str, cards[2 * p : 2 * p + 2])) for p in range(players)]
    board = " ".join(map(str, cards[2 * players : 2 * players + on_board]))
    assert exact_equity(g, hands, board=board) == _plain(g, hands, board)
