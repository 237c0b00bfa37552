"""The exact best keep in Draw by expected strength: subset sums against brute force."""

import bisect
import contextlib
import itertools
import math
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.errors import CardlabError, GameError
from cardlab.poker.batch import evaluate_batch
from cardlab.poker.draw_strength import (
    _rank,
    build_table,
    draw_table,
    keep_strengths,
    reference_strength,
)
from cardlab.poker.games import get_game

DECKS = Path(__file__).parent.parent / "data" / "decks"
SMALL = (f"{DECKS / 'short24.toml'}-draw", f"{DECKS / 'line30.toml'}-draw")


@pytest.mark.parametrize("name", [SMALL[0], pytest.param(SMALL[1], marks=pytest.mark.slow)])
def test_every_keep_equals_the_reference_on_small_decks(name: str) -> None:
    game = get_game(name)
    rng = random.Random(5)
    table = build_table(game.rules)
    for _ in range(1):
        cards = rng.sample(list(game.deck.cards), 7)
        hand, dead = cards[:5], cards[5:7]
        keeps = keep_strengths(game, hand, dead=dead, table=table)
        assert len(keeps) == 32
        unseen = [c for c in game.deck.cards if c not in cards]
        for keep in keeps:
            if len(keep.kept) < 2 and len(game.deck) > 24:
                continue  # long by the plain way; the smaller deck checks these
            total, draws, scale = reference_strength(game, keep.kept, unseen)
            assert (keep.total, keep.draws, keep.scale) == (total, draws, scale)


def test_subset_sums_equal_direct_sums_on_a_small_deck() -> None:
    game = get_game(SMALL[0])  # short24
    table = build_table(game.rules)
    n = len(game.deck)
    cards = game.deck.cards
    keys = [
        int(k)
        for k in evaluate_batch(
            [[game.deck.code(c) for c in h] for h in itertools.combinations(cards, 5)], game.rules
        )
    ]
    sorted_keys = sorted(keys)
    scores = {}
    for h, key in zip(itertools.combinations(range(n), 5), keys, strict=True):
        below = bisect.bisect_left(sorted_keys, key)
        equal = bisect.bisect_right(sorted_keys, key) - below
        scores[h] = 2 * below + equal - 1
    for size in range(5):
        for s in random.Random(size).sample(
            list(itertools.combinations(range(n), size)), 20 if size else 1
        ):
            direct = sum(v for h, v in scores.items() if set(s) <= set(h))
            assert int(table.sums[size][_rank(s)]) == direct


@pytest.mark.parametrize("name", ["standard52-draw", "tesca54-draw"])
def test_keeps_equal_plain_enumeration_of_the_draws(name: str) -> None:
    """Every draw of a keep enumerated and scored through the fast evaluator: the same
    totals as the subset sums (inclusion and exclusion) give."""
    game = get_game(name)
    table = draw_table(game.rules, cache=False)
    rng = random.Random(11)
    cards = rng.sample(list(game.deck.cards), 6)
    hand, dead = cards[:5], cards[5:]
    keeps = {k.kept: k for k in keep_strengths(game, hand, dead=dead, table=table)}
    unseen = [game.deck.code(c) for c in game.deck.cards if c not in cards]
    for size in (5, 4, 3):
        for kept in itertools.combinations(hand, size):
            rows = [
                [*(game.deck.code(c) for c in kept), *extra]
                for extra in itertools.combinations(unseen, 5 - size)
            ]
            keys = evaluate_batch(np.array(rows, np.int64), game.rules)
            below = np.searchsorted(table.keys, keys, "left")
            upto = np.searchsorted(table.keys, keys, "right")
            assert (upto > below).all()
            total = int((2 * below + (upto - below) - 1).sum())
            assert keeps[kept].total == total
            assert keeps[kept].draws == math.comb(len(unseen), 5 - size)


def test_pairs_are_kept_and_made_hands_stand_pat() -> None:
    game = get_game("standard52-draw")
    best = keep_strengths(game, "Ah Ad 7c 4s 2h")[0]
    assert set(best.kept) == set(game.deck.parse_cards("Ah Ad"))
    flush = keep_strengths(game, "Ah 9h 7h 4h 2h")[0]
    assert len(flush.kept) == 5
    # four to a royal flush: two ways to a straight flush, more to a flush or straight
    four = keep_strengths(game, "Kh Qh Jh Th 2c")[0]
    assert set(four.kept) == set(game.deck.parse_cards("Kh Qh Jh Th"))
    assert Fraction(0) < four.strength < Fraction(1)


def test_fesca_table_counts_every_hand() -> None:
    game = get_game("tesca54-draw")
    table = draw_table(game.rules)
    assert table.hands == math.comb(54, 5)
    # the empty set's sum: each hand beats every other hand once or loses to it, ties half
    assert int(table.sums[0][0]) == table.hands * (table.hands - 1)


def test_bad_hands_are_refused() -> None:
    game = get_game("standard52-draw")
    with pytest.raises(CardlabError):
        keep_strengths(game, "Ah Ad 7c 4s")
    with pytest.raises(CardlabError):
        keep_strengths(game, "Ah Ad 7c 4s 2h", dead="Ah")
    with pytest.raises(GameError):
        keep_strengths(get_game("standard52-holdem"), "Ah Ad 7c 4s 2h")


@settings(max_examples=30, deadline=None)
@given(st.text(max_size=30))
def test_any_text_is_a_keep_or_one_clear_error(text: str) -> None:
    with contextlib.suppress(CardlabError):
        keep_strengths(get_game("standard52-draw"), text)
