"""The push/fold class matrix: deals counted by brute force, equities by exact_equity."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from cardlab.errors import GameError
from cardlab.poker.classes import hand_classes
from cardlab.poker.equity import exact_equity
from cardlab.poker.games import Game, get_game
from cardlab.solve import pushfold_matrix
from cardlab.solve.pushfold_matrix import (
    class_deals,
    class_matrix,
    samples_for,
    standard52_matrix,
)

DECKS = Path(__file__).parent.parent / "data" / "decks"


@pytest.fixture(scope="module")
def duo14() -> Game:
    return get_game(f"{DECKS / 'duo14.toml'}-holdem")


def _brute_deals(game: Game) -> np.ndarray:
    classes = hand_classes(game.rules)
    owner = {frozenset(h): k for k, c in enumerate(classes) for h in c.combos}
    hands = list(itertools.combinations(game.deck.cards, 2))
    out = np.zeros((len(classes), len(classes)), np.int64)
    for a in hands:
        for b in hands:
            if not set(a) & set(b):
                out[owner[frozenset(a)], owner[frozenset(b)]] += 1
    return out


@pytest.mark.parametrize("deck", ["duo14", "short24", "lone30"])
def test_deals_are_the_brute_force_count(deck: str) -> None:
    game = get_game(f"{DECKS / (deck + '.toml')}-holdem")
    deals = class_deals(game)
    assert (deals == _brute_deals(game)).all()
    n = len(game.deck)
    assert deals.sum() == math.comb(n, 2) * math.comb(n - 2, 2)
    assert (deals == deals.T).all()


def test_standard52_deals_and_shipped_matrix() -> None:
    m = standard52_matrix()
    i, j, k = m.index("AA"), m.index("AKs"), m.index("KK")
    # AA against AA: 6 hands, 1 left beside each; AKs-AKs 4 * 3; AA-AKs 6 * 2
    assert m.deals[i, i] == 6 and m.deals[j, j] == 12 and m.deals[i, j] == 12
    assert m.deals.sum() == 1326 * 1225
    assert m.equity[i, k] == pytest.approx(0.82, abs=0.01)  # AA over KK: 82% (published)
    assert len(m.names) == 169 and m.se < 0.004


def _reference_equity(game: Game, a: str, b: str) -> Fraction:
    """The mean over the classes' card-disjoint deals of exact_equity's Fraction."""
    classes = {c.name: c for c in hand_classes(game.rules)}
    total, count = Fraction(0), 0
    for x in classes[a].combos:
        for y in classes[b].combos:
            if set(x) & set(y):
                continue
            r = exact_equity(game, [list(x), list(y)])
            total += r.players[0].equity
            count += 1
    return total / count


@pytest.mark.parametrize("tiebreak", ["off", "on"])
def test_exact_matrix_is_exact_equity_per_deal(duo14: Game, tiebreak: str) -> None:
    game = duo14.with_options(suit_tiebreak=tiebreak)
    m = class_matrix(game, exact=True)
    assert m.exact and m.se == 0.0
    for a, b in [("AA", "KK"), ("AKs", "QJo"), ("T9o", "88"), ("AKo", "AQs")]:
        want = _reference_equity(game, a, b)
        assert m.equity[m.index(a), m.index(b)] == pytest.approx(float(want), abs=1e-12)
    assert np.allclose(m.equity + m.equity.T, 1.0)
    assert np.allclose(np.diag(m.equity), 0.5)


def test_one_board_per_orbit_gives_every_board(
    duo14: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    orbits = class_matrix(duo14, exact=True)
    monkeypatch.setattr(pushfold_matrix, "_solo_weights", lambda g, b: np.ones(len(b), np.int64))
    every = class_matrix(duo14, exact=True)
    assert np.allclose(orbits.equity, every.equity, atol=1e-12)


def test_sampled_matrix_within_its_standard_error(duo14: Game) -> None:
    exact = class_matrix(duo14, exact=True)
    sampled = class_matrix(duo14, exact=False, se=0.02, seed=3)
    assert sampled.target_se == 0.02 and 0 < sampled.se <= 0.02
    assert samples_for(0.02) == 625
    off = np.abs(sampled.equity - exact.equity)
    assert off.max() < 5 * 0.02  # 1,176 pairs: none beyond five standard errors
    assert off.mean() < 0.02  # and most well inside one
    again = class_matrix(duo14, exact=False, se=0.02, seed=3)
    assert (again.equity == sampled.equity).all()  # seeded


def test_whole_matrix_cached_on_disk(duo14: Game, tmp_path: Path) -> None:
    first = class_matrix(duo14, exact=True, cache=tmp_path)
    files = list((tmp_path / "pushfold").glob("*.json"))
    assert len(files) == 1
    second = pushfold_matrix.cached_matrix(duo14, exact=True, cache=tmp_path)
    assert second is not None and np.allclose(second.equity, first.equity)
    assert (second.deals == first.deals).all() and second.names == first.names


def test_bad_input() -> None:
    with pytest.raises(GameError, match="Hold'em"):
        class_matrix(get_game("standard52-omaha"))
    with pytest.raises(GameError, match="standard error"):
        class_matrix(get_game(f"{DECKS / 'duo14.toml'}-holdem"), exact=False, se=0.0)


@pytest.mark.slow
def test_a_dask_cluster_gives_the_in_process_matrix(duo14: Game) -> None:
    distributed = pytest.importorskip("distributed")
    here = class_matrix(duo14, exact=False, se=0.05, seed=7)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        there = class_matrix(duo14, exact=False, se=0.05, seed=7, client=client)
        exact = class_matrix(duo14, exact=True, client=client)
    assert (here.equity == there.equity).all() and here.se == there.se
    assert np.allclose(exact.equity, class_matrix(duo14, exact=True).equity, atol=1e-12)
