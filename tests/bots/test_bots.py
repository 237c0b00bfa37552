"""The bots: legal, deterministic, and sensible where the right move is known."""

from __future__ import annotations

import functools
import itertools
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.bots import get_bot
from cardlab.bots.arena import play_hand, table_game
from cardlab.bots.equity import EquityBot, known_cards
from cardlab.cards import Card
from cardlab.errors import GameError
from cardlab.poker.batch import evaluate_batch
from cardlab.poker.categories import Category
from cardlab.poker.games import Game, get_game
from cardlab.poker.hands import evaluate
from cardlab.table.actions import Action, Kind
from cardlab.table.state import HandState, Legal, Phase
from cardlab.table.view import seat_view

GAMES = [f"{d}-{b}" for b in ("holdem", "omaha", "stud", "draw") for d in ("standard52", "fesca78")]


@pytest.mark.parametrize("game", GAMES)
def test_every_bot_plays_legal_hands_to_the_end(game: str) -> None:
    g = table_game(game)
    bots = [get_bot(n) for n in ("equity", "random", "station", "pushfold")]
    for seed in range(3):
        hand = play_hand(g, bots, [200] * 4, seed)  # apply() refuses an illegal action
        assert hand.result is not None
        assert sum(hand.result.finishing_stacks) == 800


@settings(max_examples=15, deadline=None)
@given(st.sampled_from(GAMES), st.integers(0, 2**32), st.integers(2, 4))
def test_same_seed_same_hand(game: str, seed: int, seats: int) -> None:
    g = table_game(game)
    a = play_hand(g, [get_bot("equity")] + [get_bot("random")] * (seats - 1), [100] * seats, seed)
    b = play_hand(g, [get_bot("equity")] + [get_bot("random")] * (seats - 1), [100] * seats, seed)
    assert [str(e) for e in a.history] == [str(e) for e in b.history]


def test_unknown_bot() -> None:
    with pytest.raises(GameError, match="unknown bot 'nobody'"):
        get_bot("nobody")


def test_equity_decisions_follow_the_odds() -> None:
    hand = HandState(table_game("standard52-holdem"), [200, 200], seed=1)
    hand.bet_or_raise_to(20)  # the button raises; the big blind faces 18 more into 22
    view = seat_view(hand, hand.actor)
    legal = view.legal
    assert legal is not None and legal.call == 18
    bot, rng = EquityBot(), random.Random(0)
    assert bot.decide(view, legal, 0.05, rng) == Action.fold()  # pot odds 18/40
    assert bot.decide(view, legal, 0.50, rng) == Action.call()
    assert bot.decide(view, legal, 0.95, rng).kind is Kind.RAISE
    check = Legal(legal.player, Phase.BET, fold=True, call=0, raise_min=4, raise_max=200)
    assert bot.decide(view, check, 0.1, rng) == Action.call()  # a check, never a fold


def test_stud_up_cards_are_the_opponents_known_cards() -> None:
    hand = HandState(table_game("fesca78-stud"), [100, 100, 100], seed=3)
    view = seat_view(hand, hand.actor)
    hands, dead = known_cards(view)
    assert hands[0] == list(view.hole)
    for p, h in zip(view.live_opponents, hands[1:], strict=True):
        assert h == list(hand.up_cards(p)) and len(h) == 1  # third street: one up-card
    assert dead == []


def test_draw_keeps_the_exact_best_keep() -> None:
    game = table_game("standard52-draw")
    g = get_game("standard52-draw")
    checked = 0
    for seed in range(60):
        hand = HandState(game, [100, 100], seed=seed)
        while hand.phase is not Phase.DRAW and not hand.is_over:
            hand.check_or_call()
        if hand.is_over:
            continue
        view = seat_view(hand, hand.actor)
        if evaluate(view.hole, g.rules).category is not Category.ONE_PAIR:
            continue
        action = EquityBot().act(view, random.Random(1))
        kept = set(view.hole) - set(action.cards)
        # every draw of every keep enumerated, each final hand ranked among all 2,598,960
        keeps = [k for size in (5, 4, 3, 2) for k in itertools.combinations(view.hole, size)]
        plain = max(keeps, key=lambda k: (Fraction(*reference_mean(g, k, view.hole)), len(k)))
        assert kept == set(plain)
        pair = [c for c in view.hole if sum(d.rank == c.rank for d in view.hole) == 2]
        assert set(pair) <= kept
        checked += 1
        if checked == 2:
            break
    assert checked == 2


@functools.cache
def _every_key(g: Game) -> np.ndarray:
    codes = [g.deck.code(c) for c in g.deck.cards]
    return np.sort(evaluate_batch(np.array(list(itertools.combinations(codes, 5))), g.rules))


def reference_mean(g: Game, keep: tuple[Card, ...], hole: tuple[Card, ...]) -> tuple[int, int]:
    """The mean strength of the hand after drawing to ``keep``, by enumerating the draws
    through the batch evaluator and ranking each among every five-card hand."""
    deck = g.deck
    every = _every_key(g)
    rest = [deck.code(c) for c in deck.cards if c not in hole]
    rows = np.array(
        [[*(deck.code(c) for c in keep), *x] for x in itertools.combinations(rest, 5 - len(keep))],
        np.int64,
    )
    keys = evaluate_batch(rows, g.rules)
    score = np.searchsorted(every, keys, "left") + np.searchsorted(every, keys, "right") - 1
    return int(score.sum()), len(rows) * 2 * (len(every) - 1)


@pytest.mark.parametrize("game", GAMES)
def test_equity_bots_fill_the_largest_table(game: str) -> None:
    # eight Stud players on 52 cards need a shared card; the estimate must still deal
    g = table_game(game)
    hand = play_hand(g, [get_bot("equity")] * g.max_seats, [100] * g.max_seats, 5)
    assert hand.result is not None
