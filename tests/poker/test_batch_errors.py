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
