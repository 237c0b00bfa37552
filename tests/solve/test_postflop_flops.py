"""``cardlab solve flops``: flop classes against a brute force over every permutation of
suits, one flop's result against the spot solved directly, the texture figures against
a hand computation, the results file (resume, a changed spot refused), a real local Dask
cluster against the run in this process, and the command's bad input."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from _cli import assert_answer_or_one_line, run_cli
from cardlab.cards import Card
from cardlab.errors import GameError
from cardlab.poker.games import get_game
from cardlab.solve.postflop import Spot, solve
from cardlab.solve.postflop.flops import (
    FlopClass,
    FlopResult,
    FlopsSpot,
    flop_classes,
    interchangeable_suits,
    run_flops,
    select_flops,
    solve_flop,
    texture,
)

STANDARD = "standard52-holdem"


def brute_force_orbits(game_name: str) -> Counter[frozenset[Card]]:
    """Each raw flop canonicalised by every one of the 24 permutations of the four suits
    (the least image by the cards' text): orbit -> number of raw flops in it."""
    deck = get_game(game_name).deck
    perms = [dict(zip(deck.suits, p, strict=True)) for p in itertools.permutations(deck.suits)]
    counts: Counter[frozenset[Card]] = Counter()
    for flop in itertools.combinations(deck.cards, 3):
        images = [frozenset(Card(p[c.suit], c.rank) for c in flop) for p in perms]
        counts[min(images, key=lambda f: sorted(str(c) for c in f))] += 1
    return counts


def test_standard_flop_classes_are_the_orbits_of_the_24_suit_permutations() -> None:
    game = get_game(STANDARD)
    classes = flop_classes(game)
    orbits = brute_force_orbits(STANDARD)
    assert len(orbits) == len(classes) == 1755
    assert sum(orbits.values()) == sum(c.weight for c in classes) == 22100
    # each class is one orbit, with that orbit's size as its weight
    deck = game.deck
    perms = [dict(zip(deck.suits, p, strict=True)) for p in itertools.permutations(deck.suits)]
    by_flop = {}
    for orbit, n in orbits.items():
        by_flop[orbit] = n
    for c in classes:
        images = [frozenset(Card(p[x.suit], x.rank) for x in c.cards) for p in perms]
        key = min(images, key=lambda f: sorted(str(x) for x in f))
        assert by_flop.pop(key) == c.weight, c
    assert not by_flop
    assert Counter(c.weight for c in classes) == {4: 13 + 286, 12: 156 + 858 + 156, 24: 286}


def test_suits_the_rules_rank_are_never_merged() -> None:
    # FESCA's default rules break ties by suit: no swap keeps every showdown, so no flops
    # merge (the solver's own check agrees: tests/solve/test_postflop_isomorphism.py)
    for name in ("fesca42-holdem", "tesca52-holdem"):
        game = get_game(name)
        classes = flop_classes(game)
        assert len(classes) == math.comb(len(game.deck), 3)
        assert {c.weight for c in classes} == {1}
    # without the suit tie-breaks the five element suits are interchangeable, 陰陽 apart
    loose = get_game("fesca42-holdem", suit_tiebreak="off")
    assert [len(g) for g in interchangeable_suits(loose)] == [5, 1]
    classes = flop_classes(loose)
    assert sum(c.weight for c in classes) == math.comb(42, 3) and len(classes) < 11480


def test_a_range_that_favours_a_suit_splits_its_group() -> None:
    game = get_game(STANDARD)
    spot = FlopsSpot(Spot(STANDARD, "", "AA,AcKc", "KK", 100, 100, bets="a", raises=""))
    groups = interchangeable_suits(game, spot.ranges())
    assert sorted("".join(s.key for s in g) for g in groups) == ["c", "dhs"]
    classes = spot.classes()
    assert sum(c.weight for c in classes) == 22100 and len(classes) > 1755


def test_a_sample_is_seeded_and_grows_by_extension() -> None:
    classes = flop_classes(get_game(STANDARD))
    a, b = select_flops(classes, 10, 3), select_flops(classes, 10, 3)
    assert a == b and len(set(a)) == 10
    assert set(a) <= set(select_flops(classes, 30, 3))
    assert select_flops(classes, 10, 4) != a
    with pytest.raises(GameError, match="1,755 flop classes"):
        select_flops(classes, 1756)


def test_textures_on_two_decks() -> None:
    std = get_game(STANDARD)
    t = texture(std.deck.parse_cards("As 2s 3s"), std)  # the wheel: A-2-3 fit one straight
    assert (t.suits, t.pairing, t.connected, t.high) == ("monotone", "unpaired", "connected", "A")
    t = texture(std.deck.parse_cards("Kd Kh 7c"), std)
    assert (t.suits, t.pairing, t.connected, t.high) == ("rainbow", "paired", "disconnected", "K")
    t = texture(std.deck.parse_cards("Qd Jd 2c"), std)
    assert (t.suits, t.connected) == ("two-tone", "semi-connected")
    # FESCA78: 13 ranks in a ring, Z next to 1
    fesca = get_game("fesca78-holdem")
    ranks = [r.key for r in fesca.deck.ranks]
    cards = fesca.deck.parse_cards(f"M{ranks[-1]} K{ranks[0]} D{ranks[1]}")
    t = texture(cards, fesca)
    assert (t.suits, t.connected, t.high) == ("rainbow", "connected", ranks[-1])
