"""The DCFR discounts of the postflop solver (:func:`cardlab.solve.postflop.solver.discounts`)
against values worked by hand from the schedules' definitions (the solver module's
docstring), around the restarts at powers of 4 too."""

from __future__ import annotations

import math

import pytest

from cardlab.errors import GameError
from cardlab.solve.postflop import Solver, Spot
from cardlab.solve.postflop.solver import discounts, last_power_of_4


def test_last_power_of_4() -> None:
    pairs = [(0, 0), (1, 1), (2, 1), (3, 1), (4, 4), (15, 4), (16, 16), (63, 16), (64, 64)]
    pairs += [(255, 64), (256, 256), (1023, 256), (1024, 1024)]
    assert [last_power_of_4(n) for n, _ in pairs] == [p for _, p in pairs]
    with pytest.raises(ValueError):
        last_power_of_4(-1)


# iteration t (from 1): (positive regret factor, negative, strategy-sum factor), by hand:
# n = t - 1, s = max(n - 1, 0), a = s^1.5 / (s^1.5 + 1), b = 1/2,
# u = n - (the largest power of 4 at most n), g = (u / (u + 1))^3
RESTART = {
    1: (0.0, 0.5, 0.0),  # n = 0: nothing kept (there is nothing yet)
    2: (0.0, 0.5, 0.0),  # n = 1, a power of 4: the average restarts
    3: (1 / 2, 0.5, 1 / 8),  # s = 1; u = 1
    4: (2 * math.sqrt(2) / (2 * math.sqrt(2) + 1), 0.5, 8 / 27),  # s = 2; u = 2
    5: (3 * math.sqrt(3) / (3 * math.sqrt(3) + 1), 0.5, 0.0),  # n = 4: restart
    6: (8 / 9, 0.5, 1 / 8),  # s = 4: 8 / (8 + 1); u = 1
    16: (14**1.5 / (14**1.5 + 1), 0.5, (11 / 12) ** 3),  # n = 15, s = 14; u = 11
    17: (15**1.5 / (15**1.5 + 1), 0.5, 0.0),  # n = 16: restart
    18: (64 / 65, 0.5, 1 / 8),  # s = 16: 64 / 65; u = 1
    65: (63**1.5 / (63**1.5 + 1), 0.5, 0.0),  # n = 64: restart
    66: (64**1.5 / (64**1.5 + 1), 0.5, 1 / 8),
    257: (255**1.5 / (255**1.5 + 1), 0.5, 0.0),  # n = 256: restart
    256: (254**1.5 / (254**1.5 + 1), 0.5, (191 / 192) ** 3),  # n = 255: u = 191
}

# a = t^1.5 / (t^1.5 + 1), b = t^0.5 / (t^0.5 + 1), g = ((t - 1) / t)^3
SMOOTH = {
    1: (1 / 2, 1 / 2, 0.0),
    4: (8 / 9, 2 / 3, 27 / 64),
    9: (27 / 28, 3 / 4, (8 / 9) ** 3),
    16: (64 / 65, 4 / 5, (15 / 16) ** 3),
}


@pytest.mark.parametrize("t", sorted(RESTART))
def test_restart_schedule_by_hand(t: int) -> None:
    assert tuple(discounts(t)) == pytest.approx(RESTART[t], rel=1e-12, abs=0)
    assert tuple(discounts(t, "restart")) == tuple(discounts(t))  # the default


@pytest.mark.parametrize("t", sorted(SMOOTH))
def test_smooth_schedule_by_hand(t: int) -> None:
    assert tuple(discounts(t, "smooth")) == pytest.approx(SMOOTH[t], rel=1e-12, abs=0)


def test_the_restarts_are_exactly_at_powers_of_4() -> None:
    restarts = [t for t in range(1, 1100) if discounts(t)[2] == 0.0]
    assert restarts == [1, 2, 5, 17, 65, 257, 1025]
    assert all(discounts(t, "smooth")[2] > 0 for t in range(2, 300))


def test_auto_is_restart_on_the_flop_and_smooth_later() -> None:
    for board, schedule in [("Qs Jh 2h", "restart"), ("Qs Jh 2h 3c", "smooth")]:
        spot = Spot("standard52-holdem", board, "AA,KQs", "KK,JTs", 100, 200, bets="a", raises="")
        assert Solver(spot.game_arrays(), threads=1).schedule == schedule
        assert Solver(spot.game_arrays(), threads=1, schedule="smooth").schedule == "smooth"


def test_a_schedule_that_is_not_one_is_refused() -> None:
    with pytest.raises(GameError, match="schedule"):
        discounts(3, "linear")
    with pytest.raises(GameError, match="schedule"):
        discounts(3, "auto")  # a solver's choice, not a schedule
    with pytest.raises(ValueError):
        discounts(0)
    spot = Spot("standard52-holdem", "Ks Td 7c 4h 2s", "AA", "KQ", 100, 100, bets="a", raises="")
    with pytest.raises(GameError, match="schedule"):
        Solver(spot.game_arrays(), schedule="dcfr+")
