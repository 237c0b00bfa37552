"""The push/fold equilibrium against published figures and its own definition."""

from __future__ import annotations

import numpy as np
import pytest

from cardlab.bots.pushfold import _table, equilibrium, hand_class, stored
from cardlab.cards import parse_cards


def test_hand_classes() -> None:
    assert hand_class(parse_cards("As Ah")) == "AA"
    assert hand_class(parse_cards("Kd As")) == "AKo"
    assert hand_class(parse_cards("9c Tc")) == "T9s"
    names, eq, pairs = _table()
    assert len(names) == 169 and len(set(names)) == 169
    # card removal counted exactly: AA against AA has 6 * 1 disjoint deals, AKs-AKs 4 * 3
    i, j = names.index("AA"), names.index("AKs")
    assert pairs[i, i] == 6 and pairs[j, j] == 12
    # total: 1326 * 1225 ordered deals of two disjoint hands
    assert pairs.sum() == 1326 * 1225
    assert abs(eq[i, names.index("KK")] - 0.82) < 0.01  # AA over KK: 82% (published)


def test_ten_big_blinds_matches_the_published_ranges() -> None:
    # Nash push/fold at 10 big blinds (e.g. HoldemResources): the small blind pushes
    # about 58% of hands and the big blind calls about 37%
    names, _, w = _table()
    share = w.sum(axis=1) / w.sum()
    e = equilibrium(10.0)
    push = sum(share[k] * e.push[n] for k, n in enumerate(names))
    call = sum(share[k] * e.call[n] for k, n in enumerate(names))
    assert abs(push - 0.58) < 0.02 and abs(call - 0.37) < 0.02
    assert e.push["AA"] > 0.99 and e.call["AA"] > 0.99 and e.push["72o"] < 0.01
    assert e.exploitability < 0.01  # best responses gain under 0.01 big blinds a hand


def test_stored_equilibria_are_the_computed_ones() -> None:
    a, b = stored(7.5), equilibrium(7.5)
    assert a.push == pytest.approx(b.push, abs=1e-3) and a.call == pytest.approx(b.call, abs=1e-3)
    assert np.isfinite(b.sb_value)
