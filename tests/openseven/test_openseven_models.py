"""Exact chances: the count chains against the derived closed forms, hints, Monte Carlo."""

from __future__ import annotations

import random
from fractions import Fraction
from math import factorial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.openseven import analysis, graph, models
from cardlab.openseven.game import Call, Game, OpenSevenError, Side, Start
from cardlab.openseven.models import Model


@pytest.mark.parametrize("n", [*range(1, 22), 52])
def test_chains_match_the_closed_forms(n: int) -> None:
    """Sighted = optimal = 2/N (pair) or 1/N (middle); blind = that / 2^floor(N/2)."""
    for model in (Model.SIGHTED_RANDOM, Model.OPTIMAL, Model.BLIND):
        assert models.chances(n, model) == models.closed_form(n, model)
    overall = models.chances(n, Model.OPTIMAL).overall
    assert overall == (Fraction(2 * n - 1, n * n) if n % 2 else Fraction(2, n))


def test_the_classic_odds() -> None:
    found = models.odds(7)
    assert found[Model.OPTIMAL].per_start == tuple(Fraction(d, 7) for d in (2, 2, 2, 1, 2, 2, 2))
    assert found[Model.OPTIMAL].overall == Fraction(13, 49)
    assert found[Model.SIGHTED_RANDOM] == found[Model.OPTIMAL]
    assert found[Model.BLIND].overall == Fraction(13, 392)
    assert found[Model.PERFECT_INFORMATION].overall == Fraction(74, 105)


def test_perfect_information_is_the_winnable_share() -> None:
    for n in range(1, 53):
        share = models.chances(n, Model.PERFECT_INFORMATION)
        assert share.per_start == (Fraction(graph.winnable_count(n), factorial(n)),) * n
    assert models.closed_form(7, Model.PERFECT_INFORMATION) is None


@pytest.mark.parametrize(
    ("text", "model"),
    [
        ("sighted_random", Model.SIGHTED_RANDOM),
        ("Sighted-Random", Model.SIGHTED_RANDOM),
        ("perfect information", Model.PERFECT_INFORMATION),
        ("blind", Model.BLIND),
        ("optimal", Model.OPTIMAL),
    ],
)
def test_model_names(text: str, model: Model) -> None:
    assert Model.parse(text) is model
    assert Model.parse(str(model)) is model


def test_unknown_model() -> None:
    with pytest.raises(OpenSevenError, match="'lucky'"):
        Model.parse("lucky")
    with pytest.raises(OpenSevenError, match="61"):
        models.chances(61, "optimal")


def test_hints_at_the_start_are_the_per_start_chances() -> None:
    state = Game(7).deal(3)
    hints = models.hints(state)
    assert hints == {Start(p): models.chances(7, "optimal").per_start[p - 1] for p in range(1, 8)}


@given(st.integers(2, 9).flatmap(lambda n: st.permutations(range(1, n + 1))), st.randoms())
@settings(max_examples=80, deadline=None)
def test_hints_mid_game(values: list[int], rng: random.Random) -> None:
    """Left and right are worth the same; the chance is (unseen values of the start's
    class) / (unseen values), as the docs derive."""
    n = len(values)
    state = Game(n).new(values).apply(str(rng.randrange(1, n + 1)))
    while not state.is_over:
        hints = models.hints(state)
        assert len(set(hints.values())) == 1
        start_class = graph.class_of(n, state.turned[0])
        seen = {state.arrangement[p - 1] for p in state.turned}
        unseen = [v for v in range(1, n + 1) if v not in seen]
        mine = [v for v in unseen if graph.class_of(n, v) == start_class]
        assert next(iter(hints.values())) == Fraction(len(mine), len(unseen))
        moves = state.legal_moves()
        state = state.apply(moves[rng.randrange(len(moves))])


def test_hints_are_not_for_perfect_information() -> None:
    with pytest.raises(OpenSevenError):
        models.hints(Game(3).deal(1), "perfect_information")


def test_blind_call_hints() -> None:
    state = Game(5).new("1 2 3 4 5").apply("5")  # one face-down named card
    assert set(models.hints(state, "blind")) == {Call(Side.RIGHT)}


@pytest.mark.parametrize("model", list(Model))
def test_simulation_is_seeded_and_near_the_exact_value(model: Model) -> None:
    first = analysis.simulate(7, 4000, model, seed=11)
    again = analysis.simulate(7, 4000, model, rng=random.Random(11))
    assert first == again
    assert abs(first.estimate - float(first.exact)) < 5 * max(first.standard_error, 1e-3)
    assert first.exact == models.chances(7, model).overall


@pytest.mark.parametrize("model", list(Model))
def test_fast_simulation_plays_like_the_game_object(model: Model) -> None:
    for n in (1, 2, 3, 7, 8):
        a, b = random.Random(5), random.Random(5)
        slow = [analysis.play_once(Game(n).deal(rng=a), model, a) for _ in range(200)]
        fast = []
        for _ in range(200):
            values = list(range(1, n + 1))
            b.shuffle(values)
            fast.append(analysis._play_fast(values, model, b))
        assert slow == fast


def test_simulation_progress_and_errors() -> None:
    seen: list[int] = []
    analysis.simulate(5, 1000, "blind", seed=1, progress=seen.append)
    assert sum(seen) == 1000
    with pytest.raises(OpenSevenError, match="0"):
        analysis.simulate(5, 0, "blind")


def test_sweep_rows() -> None:
    rows = analysis.sweep(8)
    assert [r.cards for r in rows] == list(range(1, 9))
    assert rows[6].winnable == 3552
    assert rows[6].mean_solutions == Fraction(74880, 5040)
    assert rows[6].overall[Model.OPTIMAL] == Fraction(13, 49)
