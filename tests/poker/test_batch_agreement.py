"""The batch kernels give exactly the reference evaluator's keys, on random hands of
every built-in deck, for five cards, best five of six and seven, and Omaha."""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
import pytest

from cardlab.decks import BUILTIN_DECKS
from cardlab.errors import CardError, HandError
from cardlab.poker import RuleSet
from cardlab.poker.batch import (
    best_keys,
    evaluate_batch,
    hash_lookups,
    kernel_lookups,
    method_for,
)
from cardlab.poker.hands import best_hand, evaluate
from cardlab.poker.rules import Compound, OrderSource

N_HANDS = 150


def random_rows(n_cards: int, k: int, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, n_cards)), axis=1)[:, :k].astype(np.int64)


def reference_keys(rules: RuleSet, rows: np.ndarray, game: str) -> list[int]:
    cards = rules.deck.cards
    out = []
    for row in rows.tolist():
        hand = [cards[c] for c in row]
        if game == "omaha":
            out.append(
                max(
                    evaluate([*hole, *board], rules).key
                    for hole in itertools.combinations(hand[:4], 2)
                    for board in itertools.combinations(hand[4:], 3)
                )
            )
        elif len(hand) == 5:
            out.append(evaluate(hand, rules).key)
        else:
            out.append(best_hand(hand, rules).key)
    return out


@cache
def rules_for(deck: str) -> RuleSet:
    return RuleSet.for_deck(deck)


METHODS = ("subsets", "direct", "hashed", "auto")


def methods(rules: RuleSet, k: int, game: str) -> list[str]:
    lookups = kernel_lookups(rules)
    if game == "omaha":
        return [
            "subsets",
            "auto",
            *(["hashed"] if method_for(rules, 9, "omaha") == "hashed" else []),
        ]
    out = ["subsets", "auto"]
    if lookups.direct_ok:
        out.append("direct")
        if hash_lookups(rules, k) is not None:
            out.append("hashed")
    return out


@pytest.mark.parametrize("deck", BUILTIN_DECKS)
@pytest.mark.parametrize(("k", "game"), [(5, "best"), (6, "best"), (7, "best"), (9, "omaha")])
def test_batch_keys_equal_reference(deck: str, k: int, game: str) -> None:
    rules = rules_for(deck)
    rows = random_rows(len(rules.deck), k, N_HANDS, seed=hash((deck, k)) % 2**32)
    expected = reference_keys(rules, rows, game)
    for method in methods(rules, k, game):
        keys = evaluate_batch(rows, rules, game=game, method=method)  # type: ignore[arg-type]
        assert keys.dtype == np.int64
        assert keys.tolist() == expected, (deck, k, method)


@pytest.mark.parametrize(
    "options",
    [
        {"compound": Compound.MIXWELL},
        {"compound": Compound.BASE, "secondary_step": False},
        {"order": OrderSource.CLASSIC},
        {"suit_tiebreak": False},
        {"no_hand_lowest": False},
        {"mixwell": False},
    ],
)
@pytest.mark.parametrize("deck", ["FESCA78", "FESCA60", "TESCA54"])
def test_batch_keys_equal_reference_under_options(deck: str, options: dict[str, object]) -> None:
    rules = RuleSet.for_deck(deck, **options)
    rows = random_rows(len(rules.deck), 7, 120, seed=7)
    expected = reference_keys(rules, rows, "best")
    for method in methods(rules, 7, "best"):
        keys = evaluate_batch(rows, rules, method=method)  # type: ignore[arg-type]
        assert keys.tolist() == expected, (deck, options, method)


def test_row_order_and_dtype_do_not_matter() -> None:
    rules = rules_for("FESCA78")
    rows = random_rows(78, 7, 500, seed=3)
    keys = evaluate_batch(rows, rules)
    shuffled = np.random.default_rng(4).permuted(rows, axis=1)
    assert (evaluate_batch(shuffled, rules) == keys).all()
    assert (evaluate_batch(rows.astype(np.uint8), rules) == keys).all()
    assert (evaluate_batch(rows.astype(np.int16), rules) == keys).all()


def test_categories_match_reference() -> None:
    rules = rules_for("FESCA78")
    rows = random_rows(78, 7, 200, seed=5)
    _, ids, categories = evaluate_batch(rows, rules, categories=True)
    for row, i in zip(rows.tolist(), ids.tolist(), strict=True):
        assert categories[i] is best_hand([rules.deck.cards[c] for c in row], rules).category


def test_auto_method_is_reported() -> None:
    assert method_for(rules_for("standard52"), 7) in METHODS
    assert method_for(rules_for("FESCA78"), 9, "omaha") == "hashed"


def test_best_keys_per_player() -> None:
    rules = rules_for("standard52")
    deals = random_rows(52, 2 * 3 + 5, 50, seed=11)
    hole = deals[:, :6].reshape(50, 3, 2)
    board = deals[:, 6:]
    keys = best_keys(hole, board, rules)
    assert keys.shape == (50, 3)
    for p in range(3):
        rows = np.concatenate([hole[:, p], board], axis=1)
        assert (keys[:, p] == evaluate_batch(rows, rules)).all()


def test_best_keys_refuses_a_card_dealt_twice() -> None:
    rules = rules_for("standard52")
    hole = np.array([[[0, 1], [2, 1]]])
    with pytest.raises(CardError, match="repeated"):
        best_keys(hole, np.array([[10, 11, 12, 13, 14]]), rules)


def test_orders_the_fast_paths_do_not_cover_fall_back_to_subsets() -> None:
    # compound=mixwell puts Mixwell + four of a kind below a plain four of a kind in
    # FESCA78, which the direct and hashed paths cannot see: auto must not use them.
    rules = RuleSet.for_deck("FESCA78", compound=Compound.MIXWELL)
    assert method_for(rules, 7) == "subsets"
    with pytest.raises(HandError, match="not exact"):
        evaluate_batch(random_rows(78, 7, 3, seed=1), rules, method="hashed")
    assert method_for(rules_for("FESCA78"), 7) == "hashed"
    assert method_for(rules_for("standard52"), 5) == "hashed"


def _fast_equals_plain(deck: str, k: int, game: str, n: int, rules: RuleSet | None = None) -> None:
    """The fastest kernel ("auto") against the plain subset kernel, which scores every
    five-card choice the reference's way (and equals the reference above)."""
    rules = rules or rules_for(deck)
    for start in range(0, n, 100_000):  # in parts: the shuffles take memory
        seed = hash((deck, k, start)) % 2**32
        rows = random_rows(len(rules.deck), k, min(100_000, n - start), seed).astype(np.uint8)
        fast = evaluate_batch(rows, rules, game=game, check=False)  # type: ignore[arg-type]
        plain = evaluate_batch(
            rows,
            rules,
            game=game,  # type: ignore[arg-type]
            method="subsets",
            check=False,
        )
        bad = np.flatnonzero(fast != plain)
        assert not len(bad), (deck, k, rows[bad[:3]].tolist())


@pytest.mark.parametrize("deck", BUILTIN_DECKS)
@pytest.mark.parametrize(("k", "game"), [(7, "best"), (9, "omaha")])
def test_fast_path_equals_plain_kernel(deck: str, k: int, game: str) -> None:
    _fast_equals_plain(deck, k, game, 20_000)


@pytest.mark.slow
@pytest.mark.parametrize("deck", BUILTIN_DECKS)
@pytest.mark.parametrize(("k", "game"), [(5, "best"), (6, "best"), (7, "best"), (9, "omaha")])
def test_fast_path_equals_plain_kernel_on_a_million_hands(deck: str, k: int, game: str) -> None:
    _fast_equals_plain(deck, k, game, 1_000_000)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("deck", "options"),
    [
        ("FESCA78", {"suit_tiebreak": False}),
        ("FESCA65", {"no_hand_lowest": False}),
        ("FESCA60", {"mixwell": False}),
        ("TESCA54", {"order": OrderSource.CLASSIC}),
    ],
)
@pytest.mark.parametrize(("k", "game"), [(7, "best"), (9, "omaha")])
def test_fast_path_equals_plain_kernel_under_options_on_a_million_hands(
    deck: str, options: dict[str, object], k: int, game: str
) -> None:
    rules = RuleSet.for_deck(deck, **options)
    _fast_equals_plain(deck, k, game, 1_000_000, rules)


@pytest.mark.parametrize(
    ("caps", "k"), [([4] * 7, 7), ([6] * 6, 7), ([4, 1, 4, 2], 5), ([2] * 5, 3)]
)
def test_rank_weights_keep_every_count_vector_apart(caps: list[int], k: int) -> None:
    from cardlab.poker._kernels.hashed import rank_weights

    weights = rank_weights(caps, k).tolist()
    vectors = [v for v in itertools.product(*(range(c + 1) for c in caps)) if sum(v) <= k]
    sums = {sum(c * w for c, w in zip(v, weights, strict=True)) for v in vectors}
    assert len(sums) == len(vectors)  # a perfect hash of the count vectors
    # and denser than base-(cap + 1) digits, which the look-ups used before
    assert max(sums) < (max(caps) + 1) ** len(caps)
