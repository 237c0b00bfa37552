"""Bad input to the batch API: a clear error, never a silently wrong key."""

from __future__ import annotations

import numpy as np
import pytest

from cardlab.errors import CardError, HandError
from cardlab.poker import RuleSet
from cardlab.poker.batch import evaluate_batch

RULES = RuleSet.for_deck("standard52")


def test_wrong_dtype() -> None:
    with pytest.raises(HandError, match="integer array"):
        evaluate_batch(np.zeros((2, 7), np.float64), RULES)


@pytest.mark.parametrize("shape", [(7,), (2, 4), (2, 8), (1, 2, 7)])
def test_wrong_shape(shape: tuple[int, ...]) -> None:
    with pytest.raises(HandError):
        evaluate_batch(np.zeros(shape, np.int64), RULES)


def test_omaha_needs_nine() -> None:
    with pytest.raises(HandError, match="Omaha"):
        evaluate_batch(np.arange(7).reshape(1, 7), RULES, game="omaha")


def test_unknown_game_and_method() -> None:
    with pytest.raises(HandError, match="game"):
        evaluate_batch(np.arange(7).reshape(1, 7), RULES, game="razz")  # type: ignore[arg-type]
    with pytest.raises(HandError, match="method"):
        evaluate_batch(np.arange(7).reshape(1, 7), RULES, method="fast")  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [52, -1, 200])
def test_code_outside_deck(bad: int) -> None:
    rows = np.tile(np.arange(7), (3, 1))
    rows[2, 4] = bad
    with pytest.raises(CardError, match=f"code {bad} in row 2"):
        evaluate_batch(rows, RULES)


def test_repeated_card() -> None:
    rows = np.tile(np.arange(7), (3, 1))
    rows[1, 6] = 0
    with pytest.raises(CardError, match=r"card 2c \(code 0\) is repeated in row 1"):
        evaluate_batch(rows, RULES)


def test_repeated_card_in_a_big_deck() -> None:
    rules = RuleSet.for_deck("FESCA78")
    rows = np.tile(np.arange(70, 77), (2, 1))
    rows[1, 3] = 72
    with pytest.raises(CardError, match="is repeated in row 1"):
        evaluate_batch(rows, rules)


def test_empty_batch() -> None:
    assert evaluate_batch(np.zeros((0, 7), np.int64), RULES).shape == (0,)


@pytest.mark.parametrize(
    "out",
    [
        np.zeros(3, np.int32),  # wrong dtype
        np.zeros(4, np.int64),  # wrong length
        np.zeros((3, 1), np.int64),  # wrong shape
        np.zeros(6, np.int64)[::2],  # not contiguous
        [0, 0, 0],  # not an array
    ],
)
def test_out_must_fit(out: object) -> None:
    rows = np.array([[0, 1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12, 13], [0, 13, 26, 39, 1, 2, 3]])
    with pytest.raises(HandError, match="out must be"):
        evaluate_batch(rows, RULES, out=out)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "deck,game,k",
    [
        ("standard52", "best", 7),
        ("FESCA78", "best", 7),
        ("FESCA78", "omaha", 9),
        ("standard52", "best", 5),
    ],
)
def test_out_receives_the_same_keys(deck: str, game: str, k: int) -> None:
    rules = RuleSet.for_deck(deck)
    rng = np.random.default_rng(3)
    rows = np.argsort(rng.random((500, len(rules.deck))), axis=1)[:, :k].astype(np.uint8)
    out = np.full(500, -1, np.int64)
    again = evaluate_batch(rows, rules, game=game, out=out)  # type: ignore[arg-type]
    assert again is out
    assert np.array_equal(out, evaluate_batch(rows, rules, game=game))  # type: ignore[arg-type]


def test_the_check_of_a_few_rows_answers_as_the_kernel() -> None:
    """A few rows are checked in Python (a parallel kernel's start costs milliseconds):
    the same first bad row, column and problem as the kernel, on rows with codes outside
    the deck and repeated cards at random places."""
    from cardlab.poker._kernels.five import first_bad
    from cardlab.poker.batch import _first_bad_few

    rng = np.random.default_rng(5)
    for _ in range(300):
        rows = np.argsort(rng.random((int(rng.integers(1, 6)), 52)), axis=1)[:, :7]
        for _ in range(int(rng.integers(0, 3))):
            i, j = int(rng.integers(len(rows))), int(rng.integers(7))
            rows[i, j] = rng.choice([-1, 52, 60, int(rows[i, (j + 1) % 7])])
        rows = rows.astype(np.int64)
        expected = tuple(int(x) for x in first_bad(rows, 52))
        got = _first_bad_few(rows, 52)
        assert got == expected or (expected[0] == got[0] == -1), (rows.tolist(), got, expected)
