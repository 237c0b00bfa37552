"""The Omaha kernel's two ways (the best-per-pair look-up, and the 60 choices looked up one
by one where the look-up does not fit) both give the reference evaluator's keys: on
standard52, FESCA78 (suits break ties, Mixwells), its options, and the small user decks
of tests/data/decks; on random hands and on hands dealt to make flushes and Mixwells."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from cardlab.cards import Card
from cardlab.poker import RuleSet
from cardlab.poker._kernels import omaha, omaha_lookup
from cardlab.poker._kernels.bundle import OMAHA, key_lookups
from cardlab.poker._kernels.rule_arrays import left_out, subsets
from cardlab.poker.batch import evaluate_batch, hash_lookups, kernel_lookups, method_for
from cardlab.poker.hands import evaluate
from cardlab.poker.keys import SUITS_MASK

DECKS = sorted((Path(__file__).parent.parent / "data" / "decks").glob("*.toml"))
NAMED = ["standard52", "FESCA78", "FESCA60", "FESCA42", "TESCA54"]


def reference_keys(rules: RuleSet, rows: np.ndarray) -> list[int]:
    """The best of the 60 choices of two hole and three board cards, each evaluated."""
    cards = rules.deck.cards
    out = []
    for row in rows.tolist():
        hand = [cards[c] for c in row]
        out.append(
            max(
                evaluate([*hole, *board], rules).key
                for hole in itertools.combinations(hand[:4], 2)
                for board in itertools.combinations(hand[4:], 3)
            )
        )
    return out


def random_rows(n_cards: int, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, n_cards)), axis=1)[:, :9].astype(np.int64)


def suited_rows(rules: RuleSet, n: int, seed: int) -> np.ndarray:
    """Rows drawn from few suits (flushes) or one card of each suit first (Mixwells)."""
    rng = np.random.default_rng(seed)
    suits = np.array([rules.deck.suits.index(c.suit) for c in rules.deck.cards])
    rows = np.empty((n, 9), np.int64)
    for i in range(n):
        if i % 2:  # two suits only: flushes in the hole and on the board
            chosen = rng.choice(len(rules.deck.suits), 2, replace=False)
            pool = np.flatnonzero(np.isin(suits, chosen))
        else:
            pool = np.arange(len(rules.deck))
        if len(pool) < 9:
            pool = np.arange(len(rules.deck))
        rows[i] = rng.permutation(pool)[:9]
    return rows


def kernel_keys(rules: RuleSet, rows: np.ndarray, *, lookup: bool) -> list[int]:
    """The Omaha kernel's keys, with the best-per-pair look-up or with the 60 choices."""
    lookups = kernel_lookups(rules)
    h = hash_lookups(rules, 5)
    assert h is not None
    extra = omaha_lookup.omaha_lookups(lookups, h) if lookup else None
    if lookup:
        assert extra is not None
    arrays, scalars = key_lookups(OMAHA, lookups, h, subsets(9, omaha=True), left_out(5), extra)
    out = np.empty(len(rows), np.int64)
    omaha.best_omaha(np.ascontiguousarray(rows), arrays, scalars, out)
    return out.tolist()


def plain_keys(rules: RuleSet, rows: np.ndarray) -> list[int]:
    keys = evaluate_batch(rows, rules, game="omaha", method="subsets")
    return keys.tolist()  # type: ignore[no-any-return]


def rule_sets() -> list[tuple[str, RuleSet]]:
    named = [(deck, RuleSet.for_deck(deck)) for deck in NAMED]
    options = [
        ("FESCA78 suits equal", RuleSet.for_deck("FESCA78", suit_tiebreak=False)),
        ("FESCA78 no Mixwell", RuleSet.for_deck("FESCA78", mixwell=False)),
    ]
    users = [(path.stem, RuleSet.for_deck(str(path))) for path in DECKS]
    return named + options + users


CASES = rule_sets()


@pytest.mark.parametrize(("name", "rules"), CASES, ids=[name for name, _ in CASES])
def test_both_ways_equal_the_reference(name: str, rules: RuleSet) -> None:
    assert method_for(rules, 9, "omaha") == "hashed", name
    rows = np.concatenate(
        [random_rows(len(rules.deck), 150, seed=1), suited_rows(rules, 150, seed=2)]
    )
    expected = reference_keys(rules, rows)
    assert kernel_keys(rules, rows, lookup=True) == expected, name
    assert kernel_keys(rules, rows, lookup=False) == expected, name
    keys = evaluate_batch(rows, rules, game="omaha")  # the batch API takes the look-up
    assert keys.tolist() == expected, name


@pytest.mark.parametrize(("name", "rules"), CASES, ids=[name for name, _ in CASES])
def test_the_lookup_equals_the_plain_kernel_on_many_hands(name: str, rules: RuleSet) -> None:
    rows = np.concatenate(
        [random_rows(len(rules.deck), 10_000, seed=3), suited_rows(rules, 2_000, seed=4)]
    )
    fast = np.array(kernel_keys(rules, rows, lookup=True))
    plain = np.array(plain_keys(rules, rows))
    bad = np.flatnonzero(fast != plain)
    assert not len(bad), (name, rows[bad[:3]].tolist())


def test_the_best_per_pair_is_the_best_of_the_triples() -> None:
    # an entry of the look-up against the five-card keys of its ten triples
    rules = RuleSet.for_deck("standard52")
    h = hash_lookups(rules, 5)
    assert h is not None
    per_pair = omaha_lookup.omaha_lookups(kernel_lookups(rules), h)
    assert per_pair is not None
    assert per_pair.best.shape == (6175, 91)  # boards of five ranks x pairs of ranks
    keys = per_pair.keys[:, 0]
    assert (np.diff(keys) > 0).all()
    rng = np.random.default_rng(5)
    cards = rules.deck.cards
    for row in random_rows(52, 200, seed=6).tolist():
        board = row[4:]
        total = sum(int(h.per_card[c, 0]) for c in board)
        mask = (1 << h.suit_shift) - 1
        lo = (1 << h.n_lo_bits) - 1
        place = int(h.hi_index[(total & mask) >> h.n_lo_bits]) + int(h.lo_index[total & lo])
        a, b = (int(x) for x in rng.choice(row[:4], 2, replace=False))
        flushless = max(
            _plain_key(rules, [cards[a], cards[b], *(cards[c] for c in triple)])
            for triple in itertools.combinations(board, 3)
        )
        assert keys[per_pair.best[place, per_pair.pair_of[a, b]]] == flushless


def _plain_key(rules: RuleSet, hand: list[Card]) -> int:
    """The key of five cards' ranks alone: the same ranks dealt in suits that make
    neither a flush nor a repeated card, suits cleared."""
    by_text = {(c.rank, c.suit): c for c in rules.deck.cards}
    for suits in itertools.product(rules.deck.suits, repeat=5):
        plain = [by_text[card.rank, suit] for card, suit in zip(hand, suits, strict=True)]
        if len(set(plain)) == 5 and len(set(suits)) > 1:
            return evaluate(plain, rules).key & ~SUITS_MASK
    raise AssertionError(hand)


def test_too_big_a_lookup_falls_back_to_the_choices(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = RuleSet.for_deck("FESCA60")
    h = hash_lookups(rules, 5)
    assert h is not None
    monkeypatch.setattr(omaha_lookup, "MAX_LOOKUP", 1000)
    omaha_lookup.omaha_lookups.cache_clear()
    try:
        assert omaha_lookup.omaha_lookups(kernel_lookups(rules), h) is None
        rows = random_rows(60, 300, seed=7)
        keys = evaluate_batch(rows, rules, game="omaha")
        assert keys.tolist() == reference_keys(rules, rows)
    finally:
        omaha_lookup.omaha_lookups.cache_clear()
