"""Starting hands ordered by equity, and ranges carried between decks by share."""

from __future__ import annotations

import itertools
import math

import pytest

from cardlab.analysis import deck_postflop
from cardlab.analysis.hand_order import HandOrder, hand_order, range_by_share
from cardlab.decks import deck_from_toml
from cardlab.errors import GameError
from cardlab.poker import RuleSet
from cardlab.poker.classes import hand_classes
from cardlab.poker.equity import exact_equity
from cardlab.poker.games import Game, get_game
from cardlab.solve.postflop import parse_weighted_range

TINY18 = 'name = "tiny18"\nsuits = ["M", "K", "D", "G", "S", "Y"]\nranks = ["1", "2", "Z"]'


def brute_share(text: str, game: Game) -> float:
    """Every two-card hand of the deck, one by one, with its weight in the range."""
    r = parse_weighted_range(text, game)
    weight = {frozenset(c): w for c, w in zip(r.combos, r.weights, strict=True)}
    hands = list(itertools.combinations(game.deck.cards, 2))
    return sum(weight.get(frozenset(h), 0.0) for h in hands) / len(hands)


@pytest.mark.parametrize("text", [deck_postflop.IP_RANGE, deck_postflop.OOP_RANGE, "AA:0.25,KQs"])
def test_a_range_keeps_its_share_on_fesca78(text: str) -> None:
    standard, fesca = get_game("standard52-holdem"), get_game("fesca78-holdem")
    carried = deck_postflop.deck_range(text, fesca)
    # the weights are written with four decimals: each class is off by at most 5e-5
    assert brute_share(carried, fesca) == pytest.approx(brute_share(text, standard), abs=5e-5)


def test_the_top_of_one_order_is_the_top_of_the_other() -> None:
    reference = hand_order(get_game("standard52-holdem"))
    order = hand_order(get_game("fesca78-holdem"))
    top = {name: 1.0 for name in reference.names[:20]}
    share = sum(reference.hands[:20]) / sum(reference.hands)
    chosen = range_by_share(top, reference, order)
    names = list(chosen)
    assert names == list(order.names[: len(names)])  # a prefix of the deck's order
    assert all(w == 1.0 for w in list(chosen.values())[:-1])
    held = sum(m * chosen.get(n, 0.0) for n, m in zip(order.names, order.hands, strict=True))
    assert held / sum(order.hands) == pytest.approx(share, abs=5e-5)


def test_a_band_below_the_top_stays_below_it() -> None:
    """A range without the strongest 5% holds none of the deck's strongest 5%."""
    reference = hand_order(get_game("standard52-holdem"))
    order = hand_order(get_game("fesca78-holdem"))
    intervals = reference.intervals()
    band = {n: 1.0 for n, (lo, hi) in intervals.items() if lo >= 0.05 and hi <= 0.2}
    chosen = range_by_share(band, reference, order)
    start = min(intervals[n][0] for n in band)
    for name, (_, hi) in order.intervals().items():
        if hi <= start:
            assert name not in chosen


def test_the_order_is_the_exact_equity_order_on_a_small_deck() -> None:
    """Against the exact equity engine, hand by hand, on an 18-card FESCA-like deck."""
    rules = RuleSet.for_deck(deck_from_toml(TINY18))
    game = Game(rules, get_game("fesca78-holdem").base)
    order = hand_order(game, deals=40_000)
    exact = {}
    for cls in hand_classes(rules):
        shares = [exact_equity(game, [h, "random"]).players[0].equity for h in cls.combos]
        exact[cls.name] = float(sum(shares) / len(shares))
    sampled = dict(zip(order.names, order.equity, strict=True))
    assert set(sampled) == set(exact)
    for name, value in exact.items():
        assert sampled[name] == pytest.approx(value, abs=5 * order.se)
    for a, b in itertools.pairwise(order.names):  # strongest first, but for the noise
        assert exact[a] > exact[b] - 10 * order.se


def test_bad_input_is_one_clear_error() -> None:
    order = HandOrder("x", ("A", "B"), (1, 1), (0.6, 0.4), 100)
    with pytest.raises(GameError, match="no class 'C'"):
        range_by_share({"C": 1.0}, order, order)
    with pytest.raises(GameError, match="deals"):
        hand_order(get_game("standard52-holdem"), deals=0)
    assert math.isclose(order.se, 0.05)
