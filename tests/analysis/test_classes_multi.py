"""Classes of three and four starting cards: counts against published figures and an
independent count (Burnside's lemma), orbits, and names."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pytest

from cardlab.analysis.classes_multi import _Namer, class_by_name, multi_hand_classes
from cardlab.errors import GameError
from cardlab.poker import RuleSet
from cardlab.poker.classes import suit_permutations

DECKS = Path(__file__).resolve().parents[1] / "data" / "decks"


def burnside(rules: RuleSet, k: int) -> int:
    """Orbits of k-card hands under the suit permutations, counted without listing them:
    the mean over the permutations of the hands each one leaves unchanged. A hand is
    unchanged when it is a union of whole cycles of the permutation (of the cards), so
    their number is the x**k coefficient of the product of (1 + x**len) over cycles."""
    perms = suit_permutations(rules)
    total = 0
    for p in perms:
        seen = [False] * len(p)
        poly = [1] + [0] * k
        for start in range(len(p)):
            if seen[start]:
                continue
            length, c = 0, start
            while not seen[c]:
                seen[c] = True
                c = int(p[c])
                length += 1
            poly = [poly[i] + (poly[i - length] if i >= length else 0) for i in range(k + 1)]
        total += poly[k]
    assert total % len(perms) == 0
    return total // len(perms)


def test_standard52_counts_are_the_published_ones() -> None:
    rules = RuleSet.for_deck("standard52")
    # Omaha: 16,432 starting hands up to suits of 270,725 (therx.com, "Comparing Starting
    # Hands in Hold'em and Omaha"); Stud: 1,755 of 22,100 (studhighlow.com, "Starting
    # Hands Probabilities for Seven-Card Stud")
    four, three = multi_hand_classes(rules, 4), multi_hand_classes(rules, 3)
    assert len(four) == 16_432 == burnside(rules, 4)
    assert len(three) == 1_755 == burnside(rules, 3)
    assert sum(c.count for c in four) == 270_725
    assert sum(c.count for c in three) == 22_100
    counts = {c.name: c.count for c in four}
    # AAKK double-suited: two suits of the four, each holding an ace and a king
    assert counts["AaAbKaKb"] == math.comb(4, 2)
    assert counts["AaAbAcAd"] == 1
    assert counts["AaKaQaJa"] == 4 and counts["AaKbQcJd"] == 24
    stud = {c.name: c.count for c in three}
    assert stud["AaAbAc"] == 4 and stud["AaKaQa"] == 4 and stud["AaKbQc"] == 24
    assert stud["AaAbKa"] == 12 and stud["AaAbKc"] == 12
    assert four[0].name == "AaAbAcAd" and three[-1].name == "2a2b2c"


@pytest.mark.parametrize(
    ("deck", "k"),
    [("FESCA78", 3), ("TESCA54", 3), ("FESCA60", 3), (str(DECKS / "lone30.toml"), 4)],
)
def test_class_counts_match_burnside_on_other_decks(deck: str, k: int) -> None:
    rules = RuleSet.for_deck(deck)
    classes = multi_hand_classes(rules, k)
    assert len(classes) == burnside(rules, k)
    hands = [frozenset(h) for c in classes for h in c.combos]
    assert len(hands) == len(set(hands)) == math.comb(len(rules.deck), k)
    assert len({c.name for c in classes}) == len(classes)


def test_a_class_is_one_orbit_and_its_hands_share_the_name() -> None:
    rules = RuleSet.for_deck("FESCA78")
    deck = rules.deck
    perms = suit_permutations(rules)
    namer = _Namer(rules)
    classes = multi_hand_classes(rules, 3)
    for c in classes[::397]:
        first = [deck.code(x) for x in c.combos[0]]
        orbit = {tuple(sorted(int(p[x]) for x in first)) for p in perms}
        assert {tuple(sorted(deck.code(x) for x in h)) for h in c.combos} == orbit
        assert {namer.name(h) for h in c.combos} == {c.name}
    # 陰陽 stands alone: it keeps its symbol, the element suits are letters
    counts = {c.name: c.count for c in classes}
    assert counts["Za-Zb-Z陰陽"] == math.comb(5, 2)
    assert counts["Za-12a-11a"] == 5 and counts["Za-12b-11c"] == 5 * 4 * 3


def test_names_find_classes_and_unknown_names_are_refused() -> None:
    rules = RuleSet.for_deck("standard52")
    classes = multi_hand_classes(rules, 3)
    assert [c.name for c in class_by_name(classes, ["KaKbKc", "AaKaQa"])] == ["KaKbKc", "AaKaQa"]
    with pytest.raises(GameError, match="'AKQ'"):
        class_by_name(classes, ["AKQ"])
    with pytest.raises(GameError, match="2, 3 or 4"):
        multi_hand_classes(rules, 5)
    assert len(multi_hand_classes(rules, 2)) == 169


def test_suit_letters_follow_the_cards_from_the_highest_rank() -> None:
    rules = RuleSet.for_deck("standard52")
    namer = _Namer(rules)
    deck = rules.deck
    hand = tuple(deck.parse_cards("Kh Ah Ks As"))
    assert namer.name(hand) == "AaAbKaKb"
    hand = tuple(deck.parse_cards("2c 9d 9c Ts"))
    assert namer.name(hand) == "Ta9b9c2b"  # not Ta9b9c2c: the club nine comes first
    # every order of the same cards gives the same name
    names = {namer.name(tuple(p)) for p in itertools.permutations(hand)}
    assert len(names) == 1
    rng = np.random.default_rng(0)
    perms = suit_permutations(rules)
    codes = rng.choice(52, 4, replace=False)
    images = {namer.name(tuple(deck.cards[int(p[c])] for c in codes)) for p in perms}
    assert len(images) == 1


def test_decks_too_big_to_enumerate_are_refused() -> None:
    from cardlab.decks import deck_from_toml

    suits = ", ".join(f'{{key = "S{i}"}}' for i in range(9))
    wide = deck_from_toml(f'name = "wide"\nsuits = [{suits}]\nranks = ["1", "2", "3", "4"]')
    with pytest.raises(GameError, match="suit permutations"):
        multi_hand_classes(RuleSet.for_deck(wide), 4)
