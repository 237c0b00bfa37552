"""Starting-hand classes: counts from first principles, names, and real symmetry."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pytest

from cardlab.decks import deck_from_toml
from cardlab.poker import RuleSet
from cardlab.poker.classes import class_grid, hand_classes, suit_groups, suit_permutations
from cardlab.poker.equity import exact_equity
from cardlab.poker.games import Game, get_game

TINY18 = 'name = "tiny18"\nsuits = ["M", "K", "D", "G", "S", "Y"]\nranks = ["1", "2", "Z"]'
DECKS = Path(__file__).resolve().parents[1] / "data" / "decks"


def test_standard_deck_has_the_169_classes() -> None:
    classes = hand_classes(RuleSet.for_deck("standard52"))
    assert len(classes) == 169
    counts = {c.name: c.count for c in classes}
    assert counts["AA"] == 6 and counts["AKs"] == 4 and counts["AKo"] == 12
    assert sum(n == 6 for n in counts.values()) == 13
    assert sum(n == 4 for n in counts.values()) == 78
    assert sum(n == 12 for n in counts.values()) == 78
    assert sum(counts.values()) == math.comb(52, 2)
    assert len(suit_permutations(RuleSet.for_deck("standard52"))) == 24
    grid = class_grid(classes, RuleSet.for_deck("standard52").deck)
    assert grid["AA"] == (0, 0) and grid["AKs"] == (0, 1) and grid["AKo"] == (1, 0)
    assert len(set(grid.values())) == 169


def test_fesca78_classes_keep_the_yin_yang_suit_apart() -> None:
    rules = RuleSet.for_deck("FESCA78")
    groups = suit_groups(rules)
    assert sorted(len(g) for g in groups) == [1, 5]
    classes = hand_classes(rules)
    # 13 ranks: pairs of two elements or with 陰陽 (2 kinds); two ranks: suited element,
    # offsuit elements, 陰陽 on the high card, on the low card, both 陰陽 (5 kinds)
    assert len(classes) == 13 * 2 + math.comb(13, 2) * 5
    counts = {c.name: c.count for c in classes}
    assert counts["Z-Z"] == 10 and counts["Z-Z陰陽"] == 5
    assert counts["Z-12s"] == 5 and counts["Z-12o"] == 20
    assert counts["Z陰陽-12"] == 5 and counts["Z-12陰陽"] == 5 and counts["Z陰陽-12陰陽"] == 1
    assert sum(counts.values()) == math.comb(78, 2)
    assert len({c.name for c in classes}) == len(classes)


def test_classes_partition_every_deck_and_names_are_unique() -> None:
    for name in ("TESCA54", "FESCA60", str(DECKS / "lone32.toml")):
        rules = RuleSet.for_deck(name)
        classes = hand_classes(rules)
        hands = [frozenset(h) for c in classes for h in c.combos]
        assert len(hands) == len(set(hands)) == math.comb(len(rules.deck), 2)
        assert len({c.name for c in classes}) == len(classes)


def test_a_class_is_exactly_equivalent_when_suits_do_not_break_ties() -> None:
    # without suit tie-breaks the element suits are a symmetry of the rules: every hand
    # of a class has the same exact equity (checked by the equity engine, hand by hand)
    rules = RuleSet.for_deck(deck_from_toml(TINY18), suit_tiebreak="off")
    game = Game(rules, get_game("fesca78-holdem").base)
    suited = next(c for c in hand_classes(rules) if c.name.endswith("s"))
    equities = {exact_equity(game, [h, "random"]).players[0].equity for h in suited.combos}
    assert len(equities) == 1


def test_suit_tie_breaks_make_hands_of_a_class_differ() -> None:
    rules = RuleSet.for_deck(deck_from_toml(TINY18))
    game = Game(rules, get_game("fesca78-holdem").base)
    pair = next(c for c in hand_classes(rules) if c.pair)
    weakest, strongest = pair.combos[0], pair.combos[-1]
    a = exact_equity(game, [weakest, "random"]).players[0].equity
    b = exact_equity(game, [strongest, "random"]).players[0].equity
    assert a != b


def test_permutations_map_the_deck_onto_itself() -> None:
    rules = RuleSet.for_deck("FESCA78")
    perms = suit_permutations(rules)
    assert len(perms) == 120
    assert (perms[0] == list(range(78))).all()
    for p in perms[::17]:
        assert sorted(p.tolist()) == list(range(78))
        for code, image in itertools.islice(enumerate(p), 0, 78, 7):
            assert rules.deck.cards[int(image)].rank == rules.deck.cards[code].rank


@pytest.mark.parametrize(
    "deck", ["standard52", "FESCA78", "FESCA60", "TESCA54", "short24", "lone30"]
)
def test_the_class_count_is_the_number_of_classes(deck: str) -> None:
    """The count an estimate takes (orbits of two-card hands, no classes made) against
    the classes themselves."""
    from cardlab.poker.classes import count_hand_classes

    decks = Path(__file__).resolve().parents[1] / "data" / "decks"
    name = str(decks / f"{deck}.toml") if deck in ("short24", "lone30") else deck
    rules = RuleSet.for_deck(name)
    assert count_hand_classes(rules) == len(hand_classes(rules))


def test_the_grid_puts_one_class_in_a_cell_on_every_deck() -> None:
    """A pair with FESCA's 陰陽 (``Z-Z陰陽``) once took its element pair's cell, so a
    grid showed one of the two; now each cell holds one class, and the lone suit's
    classes are left to be listed apart."""
    from cardlab.decks import BUILTIN_DECKS

    for name in BUILTIN_DECKS:
        rules = RuleSet.for_deck(name)
        classes = hand_classes(rules)
        grid = class_grid(classes, rules.deck)
        assert len(set(grid.values())) == len(grid), name
        n = len(rules.deck.ranks)
        assert all(0 <= r < n and 0 <= c < n for r, c in grid.values()), name
    rules = RuleSet.for_deck("FESCA78")
    grid = class_grid(hand_classes(rules), rules.deck)
    assert grid["Z-Z"] == (0, 0) and grid["Z-12s"] == (0, 1) and grid["Z-12o"] == (1, 0)
    assert "Z-Z陰陽" not in grid and "Z陰陽-12" not in grid
    assert len(grid) == 13 * 13  # every cell of the square, each once
