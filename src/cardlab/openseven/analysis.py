"""Whole-game answers: distributions, sweeps over N, exports and Monte Carlo play."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from math import factorial

from cardlab import budget
from cardlab.openseven.game import Call, OpenSevenError, Start, State, check_cards
from cardlab.openseven.graph import (
    TABLE_MAX_CARDS,
    circuit_distribution,
    eulerian_circuits,
    solutions_factor,
    solutions_per_line,
    total_lines,
    winnable_count,
)
from cardlab.openseven.models import ODDS_MAX_CARDS, Chances, Model, chances, closed_form

EXPORT_MAX_CARDS = 11


@dataclass(frozen=True, slots=True)
class Distribution:
    """How many arrangements have each number of solutions (call-string convention)."""

    cards: int
    by_solutions: tuple[tuple[int, int], ...]  # (solutions, arrangements), most first

    @property
    def arrangements(self) -> int:
        return sum(a for _, a in self.by_solutions)

    @property
    def winnable(self) -> int:
        return sum(a for s, a in self.by_solutions if s)

    @property
    def lost_at_once(self) -> int:
        """Arrangements with no solution: lost whatever the player does."""
        return self.arrangements - self.winnable


def distribution(cards: int, progress: Callable[[int, int], None] | None = None) -> Distribution:
    """The exact distribution for N = ``cards`` (N <= 14), by counting class tables;
    ``progress(done, total)`` follows the count where it takes a while."""
    check_cards(cards, high=TABLE_MAX_CARDS, what="a distribution")
    factor = solutions_factor(cards)
    found = circuit_distribution(cards, progress)
    return Distribution(
        cards, tuple((t * factor, a) for t, a in sorted(found.items(), reverse=True))
    )


def hand_analysis_figures(cards: int) -> Chances:
    """The computation behind the published "25% / 12.5% / 23%" for N = 7.

    For each start: all solutions (call strings) over all N! arrangements, divided by
    (N-1)! arrangements x 2^(N-1) call strings. The right denominator is N! x 2^(N-1)
    (that gives the blind caller's chance); dropping the factor N is the slip, so these
    figures are N x the blind caller's chance, and not a probability for N > 2.
    """
    check_cards(cards, high=ODDS_MAX_CARDS, what="the hand-analysis figures")
    denominator = factorial(cards - 1) * 2 ** (cards - 1)
    return Chances(
        tuple(
            Fraction(total_lines(cards) * solutions_per_line(cards, p), denominator)
            for p in range(1, cards + 1)
        )
    )


@dataclass(frozen=True, slots=True)
class SweepRow:
    """The figures for one N of a sweep."""

    cards: int
    arrangements: int
    winnable: int
    mean_solutions: Fraction  # per arrangement, all starts
    mean_lines: Fraction
    overall: dict[Model, Fraction]


def sweep(max_cards: int, progress: Callable[[int, int], None] | None = None) -> list[SweepRow]:
    """Counts and every model's overall chance for N = 1..``max_cards``;
    ``progress(done, total)`` after each N (weighted by N^2, the work of a row)."""
    check_cards(max_cards, high=ODDS_MAX_CARDS, what="a sweep")
    rows = []
    total = sum(n * n for n in range(1, max_cards + 1))
    done = 0
    for n in range(1, max_cards + 1):
        if progress is not None:
            progress(done, total)
        done += n * n
        arrangements = factorial(n)
        lines = total_lines(n) * n
        solutions = sum(total_lines(n) * solutions_per_line(n, p) for p in range(1, n + 1))
        rows.append(
            SweepRow(
                n,
                arrangements,
                winnable_count(n),
                Fraction(solutions, arrangements),
                Fraction(lines, arrangements),
                {model: chances(n, model).overall for model in Model},
            )
        )
    return rows


def export_header(cards: int) -> list[str]:
    """The CSV columns of :func:`export_csv`."""
    per_start = [f"start{p}_{what}" for p in range(1, cards + 1) for what in ("solutions", "lines")]
    return ["arrangement", "solutions", "lines", *per_start]


def export_csv(cards: int, chunk: int = 1 << 16) -> Iterator[bytes]:
    """Every arrangement in lexicographic order as CSV bytes, header first.

    Columns: ``arrangement`` (values left to right), ``solutions``, ``lines``, then
    solutions and lines from each start 1..N. Streams in chunks (N <= 11).
    """
    import numpy as np

    from cardlab.openseven import _kernels

    check_cards(cards, high=EXPORT_MAX_CARDS, what="an export")
    n = cards
    factors = np.array([solutions_per_line(n, p) for p in range(1, n + 1)], dtype=np.int64)
    yield (",".join(export_header(n)) + "\n").encode()
    total = factorial(n)
    for begin in range(0, total, chunk):
        yield _kernels.export_csv_chunk(n, begin, min(chunk, total - begin), factors).tobytes()


@dataclass(frozen=True, slots=True)
class Estimate:
    """A Monte Carlo estimate beside the exact value."""

    model: Model
    cards: int
    games: int
    wins: int
    exact: Fraction

    @property
    def estimate(self) -> float:
        return self.wins / self.games

    @property
    def standard_error(self) -> float:
        p = self.estimate
        return math.sqrt(p * (1 - p) / self.games)


def play_once(state: State, model: Model, rng: random.Random) -> bool:
    """Play one deal with ``model``, the start chosen uniformly at random."""
    n = state.game.cards
    start = rng.randrange(1, n + 1)
    if model is Model.PERFECT_INFORMATION:
        # Sees every card: wins exactly when some line exists (all starts alike).
        return eulerian_circuits(state.arrangement) > 0
    state = state.apply(Start(start))
    while not state.is_over:
        moves = state.legal_moves()
        if model is Model.BLIND:
            last = state.last or 0
            if last != n + 1 - last and len(moves) == 1 and rng.random() < 0.5:
                return False  # called the face-up card
            move = moves[0] if len(moves) == 1 else moves[rng.randrange(2)]
        elif model is Model.SIGHTED_RANDOM:
            move = moves[rng.randrange(len(moves))]
        else:  # optimal: every option has the same chance (the docs prove it)
            move = moves[0]
        assert isinstance(move, Call)
        state = state.apply(move)
    return state.is_won


def _play_fast(values: list[int], model: Model, rng: random.Random) -> bool:
    """:func:`play_once` on plain lists (same random draws, same result), for speed."""
    n = len(values)
    start = rng.randrange(1, n + 1)
    if model is Model.PERFECT_INFORMATION:
        return eulerian_circuits(values) > 0
    up = [False] * (n + 2)
    up[start] = True
    last = values[start - 1]
    for _ in range(n - 1):
        left, right = last, n + 1 - last
        moves = [p for p in (left, right) if not up[p]]  # the middle: two calls, one card
        if not moves:
            return False
        if model is Model.BLIND:
            if left != right and len(moves) == 1 and rng.random() < 0.5:
                return False
            target = moves[0] if len(moves) == 1 else moves[rng.randrange(2)]
        elif model is Model.SIGHTED_RANDOM:
            target = moves[rng.randrange(len(moves))]
        else:
            target = moves[0]
        up[target] = True
        last = values[target - 1]
    return True


_SIMULATED_CARDS_PER_SECOND = 300_000  # cards dealt and played, rounded down (N=7: 440,000)


def check_simulation(cards: int, games: int) -> None:
    """Raise unless N and the number of games suit :func:`simulate`: a run estimated to
    take longer than :data:`cardlab.budget.LIMIT_SECONDS` is refused."""
    check_cards(cards, high=ODDS_MAX_CARDS, what="a simulation")
    if games < 1:
        raise OpenSevenError(f"number of games must be at least 1: {games!r}")
    budget.check(
        f"simulating {games:,} games of Open-{cards}",
        budget.seconds_for(games * cards, _SIMULATED_CARDS_PER_SECOND),
        "ask for fewer games (100,000 give a standard error below 0.002; the exact chance "
        "is printed beside the estimate anyway)",
    )


def simulate(
    cards: int,
    games: int,
    model: Model | str,
    *,
    seed: int | None = None,
    rng: random.Random | None = None,
    progress: Callable[[int], None] | None = None,
) -> Estimate:
    """Play ``games`` random deals; ``progress(k)`` is called after every k games."""
    model = Model.parse(model)
    check_simulation(cards, games)
    generator = rng if rng is not None else random.Random(seed)
    wins = 0
    step = max(1, games // 200)
    for k in range(games):
        values = list(range(1, cards + 1))
        generator.shuffle(values)  # the same draws as Game.deal
        wins += _play_fast(values, model, generator)
        if progress is not None and ((k + 1) % step == 0 or k + 1 == games):
            progress(step if (k + 1) % step == 0 else (k + 1) % step)
    exact = closed_form(cards, model) or chances(cards, model)
    return Estimate(model, cards, games, wins, Chances(exact.per_start).overall)
