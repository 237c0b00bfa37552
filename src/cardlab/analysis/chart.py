"""Starting-hand charts: the all-in equity of every class of hole cards against
1..9 opponents holding random hands.

**Exact** (heads-up Hold'em-style games): every board is dealt once and, for that
board, every pair of hole cards from the rest is scored (the batch evaluator), then each
hand's wins and ties against every other hand sharing no card are counted by ranks
(:mod:`cardlab.analysis._showdowns`). One pass over the boards answers all classes at
once. Where the rules do not see the suits apart (the standard deck; FESCA decks with
``suit_tiebreak=off``), only one board of each orbit under the interchangeable suits is
dealt, weighted by the orbit: a class's total is the same over every board of an orbit.
The boards are split by their two lowest cards into independent tasks.

**Sampled** (more opponents, big decks with suit tie-breaks; Omaha and Stud charts are
in :mod:`cardlab.analysis.chart_multi`): each hand of a class is played against random
opponents by :func:`cardlab.poker.equity.sample_equity` with the same number of deals
(a stratified mean, so the class figure is the mean over its hands), in rounds: each
round's tasks are the classes whose standard error is still above the target, with as
many deals as the last figures say they need. A task's deals come from
``SeedSequence((seed, class, round, hand))``: the same seed gives the same chart on any
number of workers.

>>> from cardlab.poker.games import get_game
>>> c = chart(get_game("standard52-holdem"), target_se=0.02, exact=False)  # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from cardlab.analysis.chart_result import Chart as Chart  # re-exported: the chart's values
from cardlab.analysis.chart_result import ClassEquity as ClassEquity
from cardlab.analysis.chart_result import Tally, more_deals, sampled_result
from cardlab.analysis.chart_result import game_text as game_text
from cardlab.errors import GameError
from cardlab.poker.classes import HandClass, hand_classes, orbit_weights, suit_permutations
from cardlab.poker.games import Game
from cardlab.tasks import Progress, run_tasks, task_rng

MAX_OPPONENTS = 9
EXACT_BUDGET = 1_000_000_000  # five-card-of-seven evaluations an automatic exact chart may take
_BOARD_BATCH = 256
_MAX_ROUNDS = 8


# --- exact -----------------------------------------------------------------------------


def exact_supported(game: Game, opponents: int) -> bool:
    """Exact charts: one opponent, two hole cards, a five-card board, any five of seven."""
    b = game.base
    return opponents == 1 and b.hole_cards == 2 and b.board_cards == 5 and b.hole_used is None


def kernels_compiled(game: Game, opponents: int, exact: bool | None) -> bool:
    """Whether the compiled kernels a chart of ``game`` runs are in numba's disk cache
    (their first use compiles them, about a minute): the exact count by class, the
    exact count of every board, or sampling."""
    from cardlab.poker.plan import KernelPlan, in_disk_cache

    exact_chart = exact_supported(game, opponents) if exact is None else exact
    return in_disk_cache(KernelPlan.for_game(game).chart_kernels(exact_chart))


def _symmetric(game: Game) -> bool:
    """The interchangeable suits are a symmetry of the rules (no suit tie-breaks)."""
    return not game.rules.suit_tiebreak


def exact_work(game: Game) -> int:
    """Evaluations an exact heads-up chart takes: boards (one per orbit when the suits are
    a symmetry of the rules) times the two-card hands left beside each."""
    n = len(game.deck)
    group = len(suit_permutations(game.rules)) if _symmetric(game) else 1
    return math.comb(n, 5) // group * math.comb(n - 5, 2)


@dataclass(frozen=True)
class ExactBoardsTask:
    """Every board whose two lowest cards have codes ``first`` < ``second``: wins, ties
    and showdowns of each pair of hole cards against every other, as flat
    upper-triangle lists."""

    game: Game
    first: int
    second: int

    def key(self) -> str:
        return f"exact-chart|{game_text(self.game)}|first={self.first},{self.second}"

    def run(self) -> dict[str, list[int]]:
        from cardlab.analysis import _showdowns
        from cardlab.poker.batch import evaluate_batch

        rules = self.game.rules
        n = len(rules.deck)
        perms = suit_permutations(rules) if _symmetric(self.game) else np.arange(n)[None, :]
        rest_of = np.array(list(itertools.combinations(range(self.second + 1, n), 3)), np.int64)
        low = np.array([[self.first, self.second]] * len(rest_of), np.int64).reshape(-1, 2)
        boards = np.concatenate([low, rest_of.reshape(-1, 3)], axis=1)
        weight = orbit_weights(boards, perms, n)
        keep = weight > 0
        boards, weight = boards[keep], weight[keep]
        m = n - 5
        pairs = np.array(list(itertools.combinations(range(m), 2)), np.int64)
        pa, pb = pairs[:, 0].copy(), pairs[:, 1].copy()
        win = np.zeros((n, n), np.int64)
        tie = np.zeros((n, n), np.int64)
        deals = np.zeros((n, n), np.int64)
        everything = np.arange(n)
        for lo in range(0, len(boards), _BOARD_BATCH):
            chunk = boards[lo : lo + _BOARD_BATCH]
            used = np.zeros((len(chunk), n), bool)
            np.put_along_axis(used, chunk, True, axis=1)
            rest = np.array([everything[~u] for u in used], np.int64)
            rows = np.concatenate(
                [
                    rest[:, pa][:, :, None],
                    rest[:, pb][:, :, None],
                    np.repeat(chunk[:, None, :], len(pairs), axis=1),
                ],
                axis=2,
            ).reshape(-1, 7)
            keys = evaluate_batch(rows.astype(np.uint8), rules, check=False)
            _showdowns.count_boards(
                keys.reshape(len(chunk), len(pairs)),
                rest,
                weight[lo : lo + _BOARD_BATCH],
                pa,
                pb,
                win,
                tie,
                deals,
            )
        upper = np.triu_indices(n, 1)
        return {
            "win": win[upper].tolist(),
            "tie": tie[upper].tolist(),
            "deals": deals[upper].tolist(),
        }


@dataclass(frozen=True, eq=False)
class ExactClassTask:
    """One class's exact equity against a random hand: its first hand counted by
    :func:`cardlab.poker.equity.exact_equity` (the class counter; every hand of a class
    is the image of the first under a symmetry of the deck, so they share it)."""

    game: Game
    index: int
    hand: str

    def key(self) -> str:
        return f"exact-class|{game_text(self.game)}|{self.hand}"

    def run(self) -> list[int]:
        from cardlab.poker.equity import exact_equity

        result = exact_equity(self.game, [self.hand, "random"])
        equity = Fraction(result.players[0].equity)  # exact: a Fraction already
        return [equity.numerator, equity.denominator, result.deals]


def _by_class(game: Game) -> bool:
    """Whether the per-class counter applies (standard52 and decks where suits only
    make flushes): then each class is counted on its own, much faster than every board."""
    from cardlab.poker.plan import counts_vs_random

    return counts_vs_random(game)


def _exact_chart_by_class(
    game: Game, classes: tuple[HandClass, ...], client: Any, cache: Any, progress: Progress | None
) -> Chart:
    texts = [" ".join(c.ascii for c in k.combos[0]) for k in classes]
    tasks = [ExactClassTask(game, i, t) for i, t in enumerate(texts)]
    results = run_tasks(tasks, client=client, cache=cache, progress=progress)
    rows = [
        ClassEquity(k, Fraction(num, den), None, deals * k.count)
        for k, (num, den, deals) in zip(classes, results, strict=True)
    ]
    rows.sort(key=lambda r: (-r.equity, r.hand.name))
    return Chart(game, 1, True, tuple(rows), tasks=len(tasks))


def _exact_chart(
    game: Game, classes: tuple[HandClass, ...], client: Any, cache: Any, progress: Progress | None
) -> Chart:
    if _by_class(game):
        return _exact_chart_by_class(game, classes, client, cache, progress)
    return _exact_chart_by_boards(game, classes, client, cache, progress)


def _exact_chart_by_boards(
    game: Game, classes: tuple[HandClass, ...], client: Any, cache: Any, progress: Progress | None
) -> Chart:
    """Every board once, each pair of hole cards against every other."""
    n = len(game.deck)
    tasks = [ExactBoardsTask(game, a, b) for a, b in itertools.combinations(range(n - 3), 2)]
    results = run_tasks(tasks, client=client, cache=cache, progress=progress)
    win = np.zeros((n, n), object)
    tie = np.zeros((n, n), object)
    deals = np.zeros((n, n), object)
    upper = np.triu_indices(n, 1)
    for r in results:
        win[upper] += np.array(r["win"], object)
        tie[upper] += np.array(r["tie"], object)
        deals[upper] += np.array(r["deals"], object)
    deck = game.deck
    rows = []
    for c in classes:
        w = t = d = 0
        for x, y in c.combos:
            a, b = sorted((deck.code(x), deck.code(y)))
            w, t, d = w + win[a, b], t + tie[a, b], d + deals[a, b]
        rows.append(ClassEquity(c, Fraction(2 * int(w) + int(t), 2 * int(d)), None, int(d)))
    rows.sort(key=lambda r: (-r.equity, r.hand.name))
    return Chart(game, 1, True, tuple(rows), tasks=len(tasks))


# --- sampled ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SampledClassTask:
    """``deals`` random showdowns for each hand of one class against ``opponents``
    random hands: per hand [deals, sum of equity, sum of squares]."""

    game: Game
    index: int
    combos: tuple[str, ...]
    opponents: int
    deals: int
    seed: int
    round: int

    def key(self) -> str:
        return (
            f"sampled-chart|{game_text(self.game)}|class={self.index}:{','.join(self.combos)}"
            f"|opponents={self.opponents}|deals={self.deals}|seed={self.seed}|round={self.round}"
        )

    def run(self) -> list[list[float]]:
        from cardlab.poker.equity import RANDOM, sample_equity

        out = []
        for j, hand in enumerate(self.combos):
            r = sample_equity(
                self.game,
                [hand] + [RANDOM] * self.opponents,
                samples=self.deals,
                rng=task_rng(self.seed, self.index, self.round, j),
            )
            p = r.players[0]
            n, eq, se = r.deals, float(p.equity), float(p.equity_se or 0.0)
            out.append([n, eq * n, (se * se * n + eq * eq) * n])
        return out


def _sampled_chart(
    game: Game,
    classes: tuple[HandClass, ...],
    opponents: int,
    target_se: float,
    seed: int,
    client: Any,
    cache: Any,
    progress: Progress | None,
) -> Chart:
    texts = [tuple(" ".join(c.ascii for c in hand) for hand in k.combos) for k in classes]
    tally = [Tally(k.count, [0.0] * k.count, [0.0] * k.count, [0.0] * k.count) for k in classes]
    # a first round sized for the variance of a typical all-in hand (about 0.15)
    per_hand = [max(2_000, math.ceil(0.15 / target_se**2 / k.count)) for k in classes]
    todo = list(range(len(classes)))
    done_before = total_before = 0
    n_tasks = 0
    for rnd in range(_MAX_ROUNDS):
        tasks = [
            SampledClassTask(game, i, texts[i], opponents, per_hand[i], seed, rnd) for i in todo
        ]

        def step(done: int, total: int, base: int = done_before, tb: int = total_before) -> None:
            if progress is not None:
                progress(base + done, tb + total)

        results = run_tasks(tasks, client=client, cache=cache, progress=step)
        n_tasks += len(tasks)
        done_before += len(tasks)
        total_before += len(tasks)
        for i, rows in zip(todo, results, strict=True):
            tally[i].add(rows)
        todo = more_deals(tally, per_hand, target_se, 1_000)
        if not todo:
            break
    return sampled_result(game, opponents, classes, tally, seed, target_se, n_tasks)


# --- the entry point -------------------------------------------------------------------


def chart(
    game: Game,
    opponents: int = 1,
    *,
    exact: bool | None = None,
    target_se: float | None = None,
    seed: int = 0,
    client: Any = None,
    cache: Any = None,
    progress: Progress | None = None,
    classes: tuple[HandClass, ...] | None = None,
) -> Chart:
    """The chart of ``game`` against ``opponents`` random hands.

    ``exact=None``: exact when supported (:func:`exact_supported`) and within
    :data:`EXACT_BUDGET` evaluations, else sampled to standard error ``target_se``
    (default :func:`~cardlab.analysis.chart_multi.default_target_se`). Omaha and Stud
    games are charted by :mod:`cardlab.analysis.chart_multi`.
    ``client``/``cache``: see :func:`cardlab.tasks.run_tasks`. ``classes``
    restricts the chart to some classes (exact Hold'em charts by boards count all at
    once and keep those; by class, only those are counted).
    """
    if isinstance(opponents, bool) or not 1 <= opponents <= MAX_OPPONENTS:
        raise GameError(f"opponents must be 1 to {MAX_OPPONENTS}, got {opponents!r}")
    game.check_players(opponents + 1)
    from cardlab.analysis import chart_multi

    if target_se is None:
        target_se = chart_multi.default_target_se(game)
    if not target_se > 0 or not math.isfinite(target_se):
        raise GameError(f"the target standard error must be a positive number, got {target_se}")
    if chart_multi.chart_cards(game) != 2:
        return chart_multi.multi_chart(
            game,
            opponents,
            exact=exact,
            target_se=target_se,
            seed=seed,
            client=client,
            cache=cache,
            progress=progress,
            classes=classes,
        )
    every = hand_classes(game.rules)
    chosen = classes if classes is not None else every
    if exact is None:
        exact = exact_supported(game, opponents) and exact_work(game) <= EXACT_BUDGET
    if exact:
        if not exact_supported(game, opponents):
            raise GameError(
                "exact charts are heads-up (one opponent) in Hold'em games; "
                f"{game.name} against {opponents} needs sampling (--se)"
            )
        if classes is not None and _by_class(game):  # each class counted on its own
            return _exact_chart_by_class(game, classes, client, cache, progress)
        full = _exact_chart(game, every, client, cache, progress)
        if classes is None:
            return full
        names = {c.name for c in classes}
        kept = tuple(r for r in full.classes if r.hand.name in names)
        return dataclasses.replace(full, classes=kept)
    return _sampled_chart(game, chosen, opponents, target_se, seed, client, cache, progress)
