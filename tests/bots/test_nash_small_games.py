"""The nash bot in the small games of cardlab.solve: it plays the CFR+ average strategy
(solved once, kept by code digest), reads the table's betting as the solver writes it,
falls back where the strategy does not apply, and beats a random bot in the arena."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cardlab.bots.arena import ArenaConfig, big_blind, run_arena, table_game
from cardlab.bots.nash import NashBot, betting_history
from cardlab.solve import get_game
from cardlab.solve import strategy as strategy_module
from cardlab.solve.small_table import small_table_game
from cardlab.solve.strategy import solved_strategy, strategy_key
from cardlab.table.actions import Action, apply
from cardlab.table.state import HandState
from cardlab.table.view import seat_view


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(strategy_module, "_MEMORY", {})
    return tmp_path


def test_kuhn_strategy_reaches_the_published_value_and_is_kept(cache: Path) -> None:
    first = solved_strategy(get_game("kuhn"), cache)
    assert not first.cached
    assert first.value == pytest.approx(-1 / 18, abs=2e-3)  # Kuhn's value, published
    assert first.exploitability_mbb <= 1.0
    assert len(first.table) == 12  # Kuhn's 12 information sets
    # Kuhn's equilibria: player 2 facing a bet folds the jack, calls the king
    assert first.at(1, "Js", "", "b") == pytest.approx({"fold": 1.0, "call": 0.0}, abs=0.01)
    assert first.at(1, "Ks", "", "b") == pytest.approx({"fold": 0.0, "call": 1.0}, abs=0.01)
    files = list((cache / "small-solve").glob("*.json"))
    assert [f.stem for f in files] == [strategy_key(get_game("kuhn"))]
    strategy_module._MEMORY.clear()
    again = solved_strategy(get_game("kuhn"), cache)
    assert again.cached and again.table == first.table


def test_the_betting_reads_as_the_solver_writes_it() -> None:
    game = small_table_game("leduc")
    hand = HandState(game, [40, 30], seed=2)
    apply(hand, Action.call())  # k
    apply(hand, Action.raise_to(2))  # b
    apply(hand, Action.raise_to(4))  # r
    apply(hand, Action.call())  # c, round 2
    apply(hand, Action.raise_to(4))  # b
    history, starts = betting_history(seat_view(hand, 1))
    assert history == "kbrc/b"
    assert starts == (40, 30)


def test_the_bot_plays_the_solved_probabilities(cache: Path) -> None:
    game = small_table_game("leduc")
    bot = NashBot(cache=cache)
    solved = solved_strategy(game.small, cache)
    seen = 0
    for seed in range(30):
        hand = HandState(game, [50, 50], seed=seed)
        rng = random.Random(seed)
        while not hand.is_over:
            view = seat_view(hand, hand.actor)
            reason, probs = bot._small_spot(view)
            assert probs is not None, reason
            order = {c: k for k, c in enumerate(game.small.cards)}
            mine = " ".join(str(c) for c in sorted(view.hole, key=order.__getitem__))
            history, _ = betting_history(view)
            board = " ".join(str(c) for c in view.board)
            assert probs == solved.at(view.position or 0, mine, board, history)
            apply(hand, bot.act(view, rng))
            assert bot.last_reason.startswith("CFR+ equilibrium: leduc, player")
            seen += 1
    assert seen > 60


def test_short_stacks_fall_back_to_the_equity_bot(cache: Path) -> None:
    game = small_table_game("leduc")
    hand = HandState(game, [5, 50], seed=1)
    view = seat_view(hand, 0)
    bot = NashBot(cache=cache)
    assert "do not cover every bet (13)" in bot.describe(view)
    bot.act(view, random.Random(0))
    assert bot.last_reason.startswith("plays as the equity bot")


def test_the_arena_plays_the_small_games_and_nash_beats_random(cache: Path) -> None:
    assert big_blind(table_game("leduc")) == 1  # results in chips (Leduc's unit)
    config = ArenaConfig("kuhn", ("nash", "random"), 2000, seed=5, duplicate=True)
    result = run_arena(config)
    nash = next(b for b in result.bots if b.name == "nash")
    low, _ = nash.ci95
    assert low > 0, (nash.bb_per_100, nash.ci95)
    with pytest.raises(ValueError, match="two players"):
        ArenaConfig("leduc", ("nash", "equity", "random"), 10)
