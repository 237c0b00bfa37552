"""The nash bot: legal hands on standard52 and FESCA, the equilibrium where it applies,
the equity bot elsewhere (and it says which)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardlab.bots import get_bot
from cardlab.bots import nash as nash_module
from cardlab.bots.arena import ArenaConfig, play_hand, run_arena, table_game
from cardlab.bots.nash import NashBot
from cardlab.poker.classes import hand_classes
from cardlab.poker.games import Game
from cardlab.solve.pushfold import solve_pushfold
from cardlab.solve.pushfold_matrix import ClassMatrix, class_matrix, standard52_matrix
from cardlab.table.actions import Kind
from cardlab.table.state import HandState
from cardlab.table.view import seat_view


@pytest.fixture
def quick_matrices(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Decks other than standard52 get a coarse sampled matrix, kept in ``tmp_path``."""

    def matrix(game: Game, se: float, cache: Path | None) -> ClassMatrix:
        if game.key == "standard52-holdem":
            return standard52_matrix()
        return class_matrix(game, se=0.05, cache=tmp_path)

    monkeypatch.setattr(nash_module, "deck_matrix", matrix)


@pytest.mark.parametrize("game", ["standard52-holdem", "fesca42-holdem"])
def test_plays_legal_hands_in_the_arena(game: str, quick_matrices: None) -> None:
    assert isinstance(get_bot("nash"), NashBot)
    g = table_game(game)
    bots = [get_bot("nash"), get_bot("equity")]
    for seed in range(12):
        hand = play_hand(g, bots, [20, 20], seed)  # 10 big blinds; apply() refuses illegal
        assert hand.result is not None and sum(hand.result.finishing_stacks) == 40
    first = HandState(g, [20, 20], seed=0)
    assert bots[0].describe(seat_view(first, first.actor)) == (
        f"push/fold equilibrium: {game}, 10 big blinds"
    )
    result = run_arena(ArenaConfig(game, ("nash", "equity"), 8, stack=16, duplicate=True))
    assert {b.name for b in result.bots} == {"nash", "equity"}


def test_pushes_and_calls_with_the_equilibrium() -> None:
    g = table_game("standard52-holdem")
    solution = solve_pushfold(standard52_matrix(), 10, target=1e-4)
    names = {frozenset(h): c.name for c in hand_classes(g.game.rules) for h in c.combos}
    bot = NashBot()
    checked = 0
    for seed in range(40):
        hand = HandState(g, [20, 20], seed=seed)
        view = seat_view(hand, hand.actor)
        p = solution.push_of(names[frozenset(view.hole)])
        action = bot.act(view, random.Random(seed))
        assert "push/fold equilibrium" in bot.last_reason and "10 big blinds" in bot.last_reason
        if p > 0.999:
            assert (
                action.kind is Kind.RAISE and view.legal and action.amount == view.legal.raise_max
            )
            checked += 1
        elif p < 0.001:
            assert action.kind is Kind.FOLD
            checked += 1
    assert checked > 30


def test_falls_back_to_the_equity_bot_and_says_why() -> None:
    bot = NashBot()
    deep = HandState(table_game("standard52-holdem"), [400, 400], seed=1)
    view = seat_view(deep, deep.actor)
    assert bot.describe(view) == (
        "plays as the equity bot: 200 big blinds deep, above its bound of 25"
    )
    bot.act(view, random.Random(0))
    assert bot.last_reason.startswith("plays as the equity bot: 200 big blinds deep")
    three = HandState(table_game("standard52-holdem"), [20, 20, 20], seed=1)
    assert "3 players" in bot.describe(seat_view(three, three.actor))
    omaha = HandState(table_game("standard52-omaha"), [20, 20], seed=1)
    assert "not a Hold'em game" in bot.describe(seat_view(omaha, omaha.actor))
