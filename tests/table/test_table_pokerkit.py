"""Differential tests: cardlab's table engine against pokerkit, step by step.

Thousands of seeded random hands of no-limit and fixed-limit Hold'em, pot-limit Omaha,
fixed-limit seven-card stud and fixed-limit five-card draw, 2 to 9 players, with
antes, big-blind antes, straddles, short stacks (all-ins and side pots) and ante
trimming: at every decision the same actor, the same amounts to call and the same
range to bet or raise, the same pots, bets and stacks; at the end the same stacks.
"""

from __future__ import annotations

import random
import warnings

import pytest
from pokerkit_driver import play, random_setup

VARIANTS = ["NT", "FT", "PO", "F7S", "FD"]


@pytest.fixture(autouse=True)
def _quiet() -> None:
    warnings.simplefilter("ignore")  # pokerkit warns about burn cards it did not deal


@pytest.mark.parametrize("variant", VARIANTS)
def test_random_hands_agree_with_pokerkit(variant: str) -> None:
    decisions = 0
    all_ins = 0
    side_pots = 0
    for seed in range(400):
        setup = random_setup(random.Random(seed), variant)
        ours, _, d = play(setup, seed)
        decisions += d
        all_ins += any(s == 0 for s in ours.stacks) or ours.stacks != list(setup.stacks)
        side_pots += any(a.pot > 0 for a in ours.result.awards) if ours.result else 0
    # the sample really exercises what it claims to
    assert decisions > 1500
    assert side_pots > 10


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_many_more_hands_agree_with_pokerkit(variant: str) -> None:
    for seed in range(400, 2400):
        play(random_setup(random.Random(seed), variant), seed)
