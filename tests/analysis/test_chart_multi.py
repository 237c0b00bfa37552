"""Omaha and Stud charts: exact ones against the plain reference evaluator on small
decks, sampled ones within their error of the exact ones, standard52 figures against a
published simulation and an independent sampler built on the batch evaluator."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from cardlab.analysis.chart import chart
from cardlab.analysis.chart_multi import chart_cards, exact_showdowns, game_classes
from cardlab.analysis.classes_multi import class_by_name
from cardlab.decks import deck_from_toml
from cardlab.errors import GameError
from cardlab.poker import RuleSet
from cardlab.poker.batch import evaluate_batch
from cardlab.poker.equity import exact_equity, reference_equity
from cardlab.poker.games import BASE_GAMES, Game, get_game
from cardlab.poker.showdown import player_keys

# 14 cards: the fewest that deal heads-up Omaha (4 + 4 + 5) and Stud (7 + 7)
DUO14 = 'name = "duo14"\nsuits = ["h", "s"]\nranks = ["8", "9", "T", "J", "Q", "K", "A"]'
# FESCA-like: five element suits and 陰陽, suit tie-breaks on (no symmetry of the rules)
TINY18 = 'name = "tiny18"\nsuits = ["M", "K", "D", "G", "S", "Y"]\nranks = ["1", "2", "Z"]'


def game_of(toml: str, base: str, **options: str) -> Game:
    return Game(RuleSet.for_deck(deck_from_toml(toml), **options), BASE_GAMES[base])


def test_chart_cards_of_each_base_game() -> None:
    assert chart_cards(get_game("standard52-holdem")) == 2
    assert chart_cards(get_game("standard52-omaha")) == 4
    assert chart_cards(get_game("fesca78-stud")) == 3
    with pytest.raises(GameError, match="Hold'em, Omaha and Stud"):
        chart_cards(get_game("standard52-draw"))
    with pytest.raises(GameError, match="Hold'em, Omaha and Stud"):
        chart(get_game("fesca60-draw"))


def test_exact_omaha_chart_is_the_reference_evaluators() -> None:
    game = game_of(DUO14, "omaha")
    classes = game_classes(game)
    some = classes[:: len(classes) // 2]
    c = chart(game, exact=True, classes=some)
    assert c.exact and len(c.classes) == len(some)
    for row in c.classes:
        # every opponent hand and board, scored by the reference evaluator, for another
        # hand of the class than the one the chart dealt
        r = reference_equity(game, [row.hand.combos[-1], "random"])
        assert row.equity == r.players[0].equity, row.hand.name


def test_exact_stud_chart_is_the_reference_evaluators() -> None:
    game = game_of(DUO14, "stud")
    classes = game_classes(game)
    some = classes[:: len(classes) // 4]
    c = chart(game, exact=True, classes=some)
    assert c.exact and len(c.classes) == len(some)
    for row in c.classes:
        hand = row.hand.combos[-1]
        rest = [x for x in game.deck.cards if x not in hand]
        # every seven cards from the rest, scored once by the reference evaluator
        key = {s: player_keys(game, [s])[0] for s in itertools.combinations(rest, 7)}
        twice = deals = 0
        for extra in itertools.combinations(rest, 4):
            mine = player_keys(game, [(*hand, *extra)])[0]
            for theirs, k in key.items():
                if not set(theirs) & set(extra):
                    twice += 2 * (mine > k) + (mine == k)
                    deals += 1
        assert row.equity == Fraction(twice, 2 * deals), row.hand.name
        assert row.deals == deals


@pytest.mark.parametrize("base", ["omaha", "stud"])
def test_sampled_chart_is_within_its_error_of_the_exact_one(base: str) -> None:
    game = game_of(DUO14, base)
    exact = chart(game, exact=True)
    assert exact.exact and len(exact.classes) == len(game_classes(game))
    sampled = chart(game, exact=False, target_se=0.01, seed=5)
    assert not sampled.exact and len(sampled.classes) == len(exact.classes)
    for row in sampled.classes:
        truth = float(exact.equity_of(row.hand.name).equity)
        assert row.se is not None and row.se <= 0.01
        if row.se == 0:  # a hand that always wins or always loses
            assert row.equity == truth
        else:
            assert abs(row.equity - truth) < 4.5 * row.se, row.hand.name
    again = chart(game, exact=False, target_se=0.01, seed=5)
    assert again.classes == sampled.classes


def test_with_suit_tie_breaks_a_class_is_the_mean_of_its_hands() -> None:
    game = game_of(TINY18, "omaha")  # 陰陽 alone, tie-breaks on: hands of a class differ
    classes = game_classes(game)
    some = class_by_name(classes, ["Za-Z陰陽-2a-1陰陽", "Za-2a-2陰陽-1a"])
    assert all(c.count > 1 for c in some)
    exact = chart(game, exact=True, classes=some)
    for row in exact.classes:
        hands = [exact_equity(game, [h, "random"]).players[0].equity for h in row.hand.combos]
        assert row.equity == sum(hands, Fraction(0)) / len(hands)
        assert len(set(hands)) > 1  # the suits do break ties here
    sampled = chart(game, exact=False, classes=some, target_se=0.005, seed=2)
    for row in sampled.classes:
        assert row.se is not None
        assert abs(row.equity - float(exact.equity_of(row.hand.name).equity)) < 4.5 * row.se


def test_a_restricted_chart_keeps_each_class_figure() -> None:
    game = game_of(DUO14, "omaha")
    classes = game_classes(game)
    full = chart(game, exact=False, target_se=0.02, seed=1)
    part = chart(game, exact=False, target_se=0.02, seed=1, classes=classes[3:6])
    for row in part.classes:
        assert row == full.equity_of(row.hand.name)


def independent_sample(game: Game, hand: str, deals: int, seed: int) -> tuple[float, float]:
    """Equity of ``hand`` against one random hand from numpy deals and the batch
    evaluator (not the Monte Carlo kernel the charts use): mean and standard error."""
    deck = game.deck
    mine = np.array(deck.codes(deck.parse_cards(hand)), np.int64)
    rest = np.array([c for c in range(len(deck)) if c not in set(mine.tolist())], np.int64)
    rng = np.random.default_rng(seed)
    b = game.base
    need = 2 * b.hole_cards - len(mine) + b.board_cards
    dealt = rest[np.argsort(rng.random((deals, len(rest))), axis=1)[:, :need]]
    if b.board_cards:  # omaha: my four, the opponent's four, the board
        board = dealt[:, b.hole_cards :]
        me = np.concatenate([np.repeat(mine[None], deals, 0), board], axis=1)
        them = np.concatenate([dealt[:, : b.hole_cards], board], axis=1)
        kind = "omaha"
    else:  # stud: my three and four more, the opponent's seven
        me = np.concatenate([np.repeat(mine[None], deals, 0), dealt[:, :4]], axis=1)
        them = dealt[:, 4:]
        kind = "best"
    a = evaluate_batch(me.astype(np.uint8), game.rules, game=kind)  # type: ignore[call-overload]
    o = evaluate_batch(them.astype(np.uint8), game.rules, game=kind)  # type: ignore[call-overload]
    share = (a > o) + 0.5 * (a == o)
    return float(share.mean()), float(share.std() / np.sqrt(deals))


def test_standard52_omaha_matches_a_published_simulation_and_an_independent_one() -> None:
    game = get_game("standard52-omaha")
    some = class_by_name(game_classes(game), ["AaAbKaKb", "7a6b3c2d"])
    c = chart(game, exact=False, target_se=0.004, seed=3, classes=some)
    # A-K-A-K double-suited against one random hand wins 70.7% (Michael Cappelletti,
    # "El Supremo", Card Player, 2004-07-30, from Mike Caro's Poker Probe simulations;
    # ties, which a win count leaves out, are about 0.2% here)
    aakk = c.equity_of("AaAbKaKb")
    assert aakk.se is not None
    assert abs(aakk.equity - 0.707) < 4 * aakk.se + 0.005
    for row in c.classes:
        assert row.se is not None
        text = " ".join(x.ascii for x in row.hand.combos[0])
        mean, se = independent_sample(game, text, 20_000, seed=11)
        assert abs(row.equity - mean) < 4.5 * (row.se**2 + se**2) ** 0.5, row.hand.name


def test_standard52_stud_matches_an_independent_sample() -> None:
    game = get_game("standard52-stud")
    some = class_by_name(game_classes(game), ["AaAbAc", "AaKaQa", "7a3b2c"])
    c = chart(game, exact=False, target_se=0.004, seed=3, classes=some)
    for row in c.classes:
        assert row.se is not None
        text = " ".join(x.ascii for x in row.hand.combos[0])
        mean, se = independent_sample(game, text, 20_000, seed=12)
        assert abs(row.equity - mean) < 4.5 * (row.se**2 + se**2) ** 0.5, row.hand.name
    # rolled-up aces win far more often than the worst three cards
    assert c.classes[0].hand.name == "AaAbAc" and c.classes[-1].hand.name == "7a3b2c"


def test_exact_cost_and_refusals() -> None:
    omaha = get_game("standard52-omaha")
    aakk = class_by_name(game_classes(omaha), ["AaAbKaKb"])
    # one hand stands for the class (no suit tie-breaks): C(48,4) x C(44,5) showdowns
    assert exact_showdowns(omaha, 1, aakk) == 194_580 * 1_086_008
    with pytest.raises(GameError, match="sample it"):
        chart(get_game("standard52-stud"), exact=True)
    with pytest.raises(GameError, match="opponents"):
        chart(omaha, 10)
