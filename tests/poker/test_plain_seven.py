"""The standard52 seven-card loop (poker/_kernels/plain_seven.py, vector_keys.py) gives
the keys of the plain evaluator: on every rank multiset and every flush, on random
hands of both input types and every row count modulo sixteen, and in pokerkit's order."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from cardlab.poker import RuleSet
from cardlab.poker.batch import _plain_seven, evaluate_batch
from cardlab.poker.hands import best_hand

RULES = RuleSet.for_deck("standard52")
DECK = RULES.deck


def code(text: str) -> int:
    return DECK.code(DECK.parse_cards(text)[0])


def rows_of(hands: list[str]) -> np.ndarray:
    return np.array([[code(c) for c in hand.split()] for hand in hands], np.uint8)


def agree(rows: np.ndarray) -> None:
    """The fast loop (uint8 and int64 codes) against the direct kernel, which finds the
    best five from rank and suit masks without the hash or the pair look-up."""
    direct = evaluate_batch(rows, RULES, method="direct")
    for typed in (rows.astype(np.uint8), rows.astype(np.int64)):
        fast = evaluate_batch(typed, RULES)
        bad = np.flatnonzero(fast != direct)
        assert not len(bad), rows[bad[:3]].tolist()


def test_the_loop_applies_to_standard52_only_where_ranks_and_flushes_decide() -> None:
    assert _plain_seven(RULES) is not None
    assert _plain_seven(RuleSet.for_deck("FESCA78")) is None  # suits break ties, Mixwell


def test_every_rank_multiset() -> None:
    """All 49,205 multisets of seven ranks (at most four of each), suits dealt in turn
    (so some rows hold flushes too)."""
    ranks = range(len(DECK.ranks))
    by_rank_suit = {(c.rank, c.suit): DECK.code(c) for c in DECK.cards}
    rank_values = list(DECK.ranks)
    suit_values = list(DECK.suits)
    rows = []
    for combo in itertools.combinations_with_replacement(ranks, 7):
        counts = np.bincount(combo, minlength=13)
        if counts.max() > 4:
            continue
        rows.append(
            [by_rank_suit[rank_values[r], suit_values[turn % 4]] for turn, r in enumerate(combo)]
        )
    assert len(rows) == 49_205
    agree(np.array(rows, np.uint8))


def test_every_flush_rank_set() -> None:
    """Every set of five, six or seven ranks of one suit, each completed with random
    cards of the other suits (a pair, trips or a straight beside the flush)."""
    rng = np.random.default_rng(35)
    clubs = [DECK.code(c) for c in DECK.cards if c.suit == DECK.suits[0]]
    others = np.array([DECK.code(c) for c in DECK.cards if c.suit != DECK.suits[0]])
    rows = []
    for size in (5, 6, 7):
        for suited in itertools.combinations(clubs, size):
            for _ in range(3 if size < 7 else 1):
                rest = rng.choice(others, 7 - size, replace=False).tolist()
                rows.append([*suited, *rest])
    agree(np.array(rows, np.uint8))


@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 4095, 4096, 4097, 40_003])
def test_random_hands_of_every_length(n: int) -> None:
    rng = np.random.default_rng(n)
    rows = np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)
    agree(rows)


def test_a_large_random_sample_against_the_plain_subset_kernel() -> None:
    rng = np.random.default_rng(7)
    rows = np.argsort(rng.random((300_000, 52)), axis=1)[:, :7].astype(np.uint8)
    fast = evaluate_batch(rows, RULES)
    plain = evaluate_batch(rows, RULES, method="subsets")
    assert np.array_equal(fast, plain)


EVERY_CATEGORY = {
    "straight flush": "9h Th Jh Qh Kh 2c 2d",
    "steel wheel": "Ah 2h 3h 4h 5h Kc Kd",
    "four of a kind": "7c 7d 7h 7s Ac 2d 3h",
    "full house from two trips": "8c 8d 8h 5c 5d 5h Ks",
    "full house": "Qc Qd Qh 4c 4d 9s 2h",
    "flush over trips": "As Ks Qs Js 9s Ah Ad",
    "flush of seven": "2d 4d 6d 8d Td Qd Ad",
    "straight": "5c 6d 7h 8s 9c Kd Kh",
    "wheel": "Ac 2d 3h 4s 5c Kd Qh",
    "three of a kind": "Jc Jd Jh 2s 5c 8d Kh",
    "two pair from three pairs": "Tc Td 6h 6s 3c 3d Ah",
    "one pair": "9c 9d 2h 5s 7c Jd Kh",
    "high card": "2c 4d 6h 8s Tc Qd Ah",
}


def test_every_category_equals_the_reference_evaluator() -> None:
    hands = list(EVERY_CATEGORY.values())
    keys = evaluate_batch(rows_of(hands), RULES)
    for hand, key in zip(hands, keys.tolist(), strict=True):
        assert key == best_hand(DECK.parse_cards(hand), RULES).key, hand
    rng = np.random.default_rng(3)
    rows = np.argsort(rng.random((3_000, 52)), axis=1)[:, :7].astype(np.uint8)
    keys = evaluate_batch(rows, RULES).tolist()
    for row, key in zip(rows.tolist(), keys, strict=True):
        assert key == best_hand([DECK.cards[c] for c in row], RULES).key


def test_the_order_equals_pokerkits() -> None:
    """An independent engine: sorting 4,000 random hands by pokerkit's hand value and by
    cardlab's key gives the same order and the same ties."""
    pokerkit = pytest.importorskip("pokerkit")
    rng = np.random.default_rng(11)
    rows = np.argsort(rng.random((4_000, 52)), axis=1)[:, :7].astype(np.uint8)
    keys = evaluate_batch(rows, RULES).tolist()
    text = [str(c) for c in DECK.cards]
    theirs = [
        pokerkit.StandardHighHand.from_game(
            "".join(text[c] for c in row[:2]), "".join(text[c] for c in row[2:])
        )
        for row in rows.tolist()
    ]
    order = sorted(range(len(rows)), key=lambda i: theirs[i])
    for a, b in itertools.pairwise(order):
        assert (theirs[a] < theirs[b]) == (keys[a] < keys[b]), (rows[a], rows[b])
        assert (theirs[a] == theirs[b]) == (keys[a] == keys[b]), (rows[a], rows[b])
