"""The batch kernels equal the reference evaluator on the small user decks of
tests/data/decks too: rings of exactly five ranks (one straight, read five ways), lines,
decks with a lone suit."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cardlab.poker import RuleSet
from cardlab.poker.batch import evaluate_batch, hash_lookups, kernel_lookups
from cardlab.poker.hands import best_hand, evaluate

DECKS = sorted((Path(__file__).parent.parent / "data" / "decks").glob("*.toml"))


@pytest.mark.parametrize("path", DECKS, ids=lambda p: p.stem)
@pytest.mark.parametrize("k", [5, 7])
def test_user_decks_agree_with_the_reference(path: Path, k: int) -> None:
    rules = RuleSet.for_deck(str(path))
    rng = np.random.default_rng(k)
    rows = np.argsort(rng.random((300, len(rules.deck))), axis=1)[:, :k].astype(np.int64)
    cards = rules.deck.cards
    expected = [
        (evaluate if k == 5 else best_hand)([cards[c] for c in row], rules).key
        for row in rows.tolist()
    ]
    methods = ["subsets", "auto"]
    if kernel_lookups(rules).direct_ok:
        methods.append("direct")
        if hash_lookups(rules, k) is not None:
            methods.append("hashed")
    for method in methods:
        codes = np.array([[rules.deck.code(cards[c]) for c in row] for row in rows.tolist()])
        keys = evaluate_batch(codes, rules, method=method)  # type: ignore[arg-type]
        assert keys.tolist() == expected, (path.stem, k, method)


def test_a_ring_of_five_ranks_has_one_straight() -> None:
    rules = RuleSet.for_deck(str(DECKS[0].parent / "ring25.toml"))
    assert len(rules.straights) == 1
