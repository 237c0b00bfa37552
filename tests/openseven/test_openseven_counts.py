"""The fast counts agree with plain brute force for every N <= 8, and with the formulas."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from math import factorial

import pytest

from cardlab.openseven import analysis, graph, models, reference, solver
from cardlab.openseven.game import OpenSevenError


@pytest.mark.parametrize("n", range(1, 9))
def test_fast_methods_agree_with_brute_force(n: int) -> None:
    census = reference.census(n)
    dist = analysis.distribution(n)
    assert dict(dist.by_solutions) == census.distribution
    assert dist.arrangements == factorial(n)
    assert dist.winnable == graph.winnable_count(n)
    for name, per_start in census.chances.items():
        assert models.chances(n, name).per_start == tuple(per_start), name
    for values, counts in census.per_arrangement.items():
        solved = solver.solve(values)
        assert [(s.solutions, s.lines) for s in solved.per_start] == counts


@pytest.mark.parametrize("n", range(1, 8))
def test_optimal_agrees_with_expectimax_over_views(n: int) -> None:
    assert reference.optimal_chances(n) == list(models.chances(n, "optimal").per_start)


def test_optimal_agrees_with_expectimax_over_views_8() -> None:
    # Relabelling the classes (positions and values alike) maps the rules to themselves,
    # so every start of N = 8 is a relabelled start 1 (docs/open-seven.md, "Symmetries").
    fast = models.chances(8, "optimal").per_start
    assert reference.optimal_chances(8, starts=1) == [fast[0]]
    assert len(set(fast)) == 1


def test_the_classic_distribution() -> None:
    dist = analysis.distribution(7)
    assert dist.by_solutions == ((52, 96), (39, 384), (26, 1152), (13, 1920), (0, 1488))
    assert dist.winnable == 3552
    assert dist.lost_at_once == 1488


@pytest.mark.parametrize("n", range(1, 14))
def test_distribution_totals_follow_the_formulas(n: int) -> None:
    circuits = graph.circuit_distribution(n)
    assert sum(circuits.values()) == factorial(n)
    assert factorial(n) - circuits.get(0, 0) == graph.winnable_count(n)
    assert sum(t * a for t, a in circuits.items()) == graph.total_lines(n)
    assert max(circuits) <= 2 ** (graph.class_count(n) - 1)


def test_winnable_counts_by_the_exponential_formula() -> None:
    known = [1, 2, 4, 20, 80, 592, 3552, 33888, 271104, 3134208]
    assert [graph.winnable_count(n) for n in range(1, 11)] == known


def test_arborescences_of_a_disconnected_table_is_zero() -> None:
    assert graph.arborescences([[2, 0], [0, 2]]) == 0
    assert graph.arborescences([[1, 1], [1, 1]]) == 1
    assert graph.arborescences([[0, 2], [2, 0]]) == 2


def test_export_rows_match_the_solver() -> None:
    text = b"".join(analysis.export_csv(5)).decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 120
    for row in rows:
        solved = solver.solve(row["arrangement"])
        assert int(row["solutions"]) == solved.solutions
        assert int(row["lines"]) == solved.lines
        for s in solved.per_start:
            assert int(row[f"start{s.position}_solutions"]) == s.solutions
            assert int(row[f"start{s.position}_lines"]) == s.lines


def test_limits_are_errors() -> None:
    with pytest.raises(OpenSevenError, match="15"):
        analysis.distribution(15)
    with pytest.raises(OpenSevenError, match="12"):
        next(analysis.export_csv(12))


def test_hand_analysis_figures() -> None:
    figures = analysis.hand_analysis_figures(7)
    assert figures.per_start == (Fraction(1, 4),) * 3 + (Fraction(1, 8),) + (Fraction(1, 4),) * 3
    assert figures.overall == Fraction(13, 56)
    blind = models.chances(7, "blind")
    assert figures.per_start == tuple(7 * x for x in blind.per_start)


def test_odd_rows_come_from_even_rows() -> None:
    """docs section 2: smoothing the middle class, W(2m+1) = 2m W(2m)."""
    for m in range(1, 27):
        assert graph.winnable_count(2 * m + 1) == 2 * m * graph.winnable_count(2 * m)


@pytest.mark.parametrize("n", [2, 4, 6, 8, 10])
def test_compiled_table_kernel_matches_the_plain_enumeration(n: int) -> None:
    import numpy as np

    from cardlab.openseven import _kernels

    histogram = _kernels.circuit_histogram(np.array(graph.class_sizes(n), dtype=np.int64))
    compiled = {int(t): int(a) for t, a in enumerate(histogram) if a}
    assert compiled == graph.plain_circuit_distribution(n)


@pytest.mark.parametrize("n", [2, 6, 10])
def test_kernel_parts_by_first_row_sum_to_the_plain_enumeration(n: int) -> None:
    """The parts run in turn (for progress and Ctrl-C) add up to the whole count."""
    import numpy as np

    from cardlab.openseven import _kernels

    sizes = np.array(graph.class_sizes(n), dtype=np.int64)
    parts = [
        _kernels.circuit_histogram_part(sizes, c) for c in range(_kernels.first_row_choices(sizes))
    ]
    summed = sum(parts[1:], parts[0])
    assert {int(t): int(a) for t, a in enumerate(summed) if a} == graph.plain_circuit_distribution(
        n
    )
