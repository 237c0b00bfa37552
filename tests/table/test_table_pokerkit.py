"""Differential tests: cardlab's table engine against pokerkit, step by step.

Thousands of seeded random hands of no-limit and fixed-limit Hold'em, pot-limit Omaha,
fixed-limit seven-card stud and fixed-limit five-card draw, 2 to 9 players, with
antes, big-blind antes, straddles, short stacks (all-ins and side pots) and ante
trimming: at every decision the same actor, the same amounts to call and the same
range to bet or raise, the same pots, bets and stacks; at the end the same stacks.

Every other variant of the PHH specification pokerkit plays is checked the same way,
on fewer hands each: short-deck Hold'em (NS), Omaha and Stud hi-lo eight or better
(FO/8, F7S/8), razz (FR), deuce-to-seven single and triple draw (N2L1D, F2L3D) and
badugi (FB).
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


# variant: hands played (Omaha hi-lo showdowns are slow in pokerkit)
PHH_VARIANTS = {"NS": 60, "FO/8": 30, "F7S/8": 60, "FR": 60, "N2L1D": 60, "F2L3D": 50, "FB": 50}
SPLIT_GAMES = ("FO/8", "F7S/8")


@pytest.mark.parametrize("variant", PHH_VARIANTS)
def test_every_variant_of_pokerkit_agrees_with_pokerkit(variant: str) -> None:
    decisions = showdowns = side_pots = low_halves = scoops = 0
    for seed in range(PHH_VARIANTS[variant]):
        setup = random_setup(random.Random(seed), variant)
        ours, _, d = play(setup, seed)
        assert ours.result is not None
        decisions += d
        showdowns += ours.result.showdown
        side_pots += any(a.pot > 0 for a in ours.result.awards)
        shares = {p.hand for p in ours.result.pots}
        low_halves += "eight-or-better" in shares
        scoops += ours.result.showdown and shares == {"high"}
    # the sample really exercises what it claims to
    assert decisions > 8 * PHH_VARIANTS[variant]
    assert showdowns > 5 and side_pots > 3
    if variant in SPLIT_GAMES:
        assert low_halves > 3 and scoops > 3


@pytest.mark.slow
@pytest.mark.parametrize("variant", [*VARIANTS, *PHH_VARIANTS])
def test_many_more_hands_agree_with_pokerkit(variant: str) -> None:
    for seed in range(400, 2400):
        play(random_setup(random.Random(seed), variant), seed)
