"""Charts of Omaha and Stud starting hands: the classes of
:mod:`cardlab.analysis.classes_multi`, each played all-in against random opponents.

**Omaha**: the four hole cards against opponents' random four, the board dealt.
**Stud**: the first three cards; the player's other four cards and every opponent's
seven are dealt at random (no folding: a showdown of the seventh street).

**Sampled** (the default): like the Hold'em sampled chart (:mod:`cardlab.analysis.chart`)
in rounds, each class sampled until its standard error is at most the target. Where the
rules do not see the suits apart (standard52, ``suit_tiebreak=off``) every hand of a
class has the same equity, so one hand stands for the class; otherwise each of its
hands gets the same number of deals (the class figure is the mean over its hands). As
the classes are many (standard52 Omaha: 16,432) a task deals for a batch of classes,
about :data:`TASK_DEALS` showdowns; class ``i``'s deals in round ``r`` come from
``SeedSequence((seed, i, r, hand))`` with ``i`` its place among *all* the game's
classes, so a class gets the same figure in a restricted chart and on any number of
workers.

**Exact** (small decks): each hand's equity as a Fraction, when the showdowns fit in
:data:`EXACT_BUDGET`: Omaha by :func:`cardlab.poker.equity.exact_equity`; Stud (heads-up)
by scoring every seven-card set of the cards left once with the batch evaluator and
pairing every completion of the player's hand with every opponent hand sharing no card.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cardlab.analysis.chart_result import (
    Chart,
    ClassEquity,
    Tally,
    game_text,
    more_deals,
    sampled_result,
)
from cardlab.analysis.classes_multi import multi_hand_classes, starting_cards
from cardlab.errors import GameError
from cardlab.poker.classes import HandClass
from cardlab.poker.games import Game
from cardlab.tasks import Progress, run_tasks, task_rng

TASK_DEALS = 200_000  # showdowns a sampled task deals (about 0.3 s of Omaha on one core)
TASK_CLASSES = 256  # classes a task deals for, at most
EXACT_BUDGET = 50_000_000  # showdowns an automatic exact Omaha/Stud chart may take
EXACT_LIMIT = 10**11  # showdowns a forced exact chart (--exact) may take
_MAX_ROUNDS = 8
_VARIANCE = 0.2  # a typical all-in hand's variance of its share, to size the first round
_MIN_DEALS = 64


def chart_cards(game: Game) -> int:
    """The starting cards of a chart of ``game``: Hold'em 2, Omaha 4, Stud 3."""
    b = game.base
    if b.draws or (b.board_cards > 0 and b.hole_used is None and b.hole_cards != 2):
        raise GameError(
            f"charts are for Hold'em, Omaha and Stud starting hands; {game.name} has none"
        )
    return starting_cards(b.hole_cards, b.board_cards)


def game_classes(game: Game) -> tuple[HandClass, ...]:
    """Every class of starting hands of ``game`` (any base game with charts)."""
    return multi_hand_classes(game.rules, chart_cards(game))


def default_target_se(game: Game) -> float:
    """The standard error a sampled chart aims at unless told: 0.002; Omaha 0.005 (its
    16,432 standard52 classes at 0.002 would take an hour on two cores)."""
    return 0.005 if chart_cards(game) == 4 else 0.002


def _stands_for(game: Game, c: HandClass) -> tuple[tuple[Any, ...], ...]:
    """The hands of a class that are dealt: one where the suits are a symmetry of the
    rules, else all of them."""
    return c.combos[:1] if not game.rules.suit_tiebreak else c.combos


def exact_showdowns(game: Game, opponents: int, classes: tuple[HandClass, ...]) -> int:
    """Showdowns an exact chart of ``classes`` deals."""
    n, b = len(game.deck), game.base
    k = chart_cards(game)
    left = n - k
    per_hand = 1
    if b.board_cards == 0:  # stud: the player's other cards first
        per_hand *= math.comb(left, b.hole_cards - k)
        left -= b.hole_cards - k
    for _ in range(opponents):
        per_hand *= math.comb(max(left, 0), b.hole_cards)
        left -= b.hole_cards
    per_hand *= math.comb(max(left, 0), b.board_cards)
    return per_hand * sum(len(_stands_for(game, c)) for c in classes)


# --- tasks -------------------------------------------------------------------------------


@dataclass(frozen=True)
class SampledClassesTask:
    """For each class ``indexes[i]`` and each of its hands ``hands[i]``: ``deals[i]``
    random showdowns against ``opponents`` random hands, as [deals, sum of equity, sum of
    squares]."""

    game: Game
    indexes: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    deals: tuple[int, ...]
    opponents: int
    seed: int
    round: int

    def key(self) -> str:
        parts = ";".join(
            f"{i}:{','.join(h)}:{d}"
            for i, h, d in zip(self.indexes, self.hands, self.deals, strict=True)
        )
        return (
            f"sampled-multi-chart|{game_text(self.game)}|opponents={self.opponents}"
            f"|seed={self.seed}|round={self.round}|{parts}"
        )

    def run(self) -> list[list[list[float]]]:
        from cardlab.poker.equity import RANDOM, sample_equity

        out = []
        for index, hands, deals in zip(self.indexes, self.hands, self.deals, strict=True):
            rows = []
            for j, hand in enumerate(hands):
                r = sample_equity(
                    self.game,
                    [hand] + [RANDOM] * self.opponents,
                    samples=deals,
                    rng=task_rng(self.seed, index, self.round, j),
                )
                p = r.players[0]
                n, eq, se = r.deals, float(p.equity), float(p.equity_se or 0.0)
                rows.append([n, eq * n, (se * se * n + eq * eq) * n])
            out.append(rows)
        return out


@dataclass(frozen=True)
class ExactClassesTask:
    """The exact equity of each hand of ``hands`` against ``opponents`` random hands,
    summed per class: [numerator, denominator] strings of the sum, and showdowns."""

    game: Game
    hands: tuple[tuple[str, ...], ...]
    opponents: int

    def key(self) -> str:
        listed = ";".join(",".join(h) for h in self.hands)
        return f"exact-multi-chart|{game_text(self.game)}|opponents={self.opponents}|{listed}"

    def run(self) -> list[list[str]]:
        out = []
        for hands in self.hands:
            total, deals = Fraction(0), 0
            for hand in hands:
                eq, n = _exact_hand(self.game, hand, self.opponents)
                total += eq
                deals += n
            out.append([str(total.numerator), str(total.denominator), str(deals)])
        return out


def _exact_hand(game: Game, hand: str, opponents: int) -> tuple[Fraction, int]:
    """One starting hand's exact equity and showdowns."""
    from cardlab.poker.equity import RANDOM, exact_equity

    cards = game.deck.parse_cards(hand)
    if game.base.board_cards == 0:
        return _stud_exact(game, cards)
    r = exact_equity(game, [cards, *[RANDOM] * opponents], max_seconds=None)
    return Fraction(r.players[0].equity), r.deals


def _stud_exact(game: Game, cards: tuple[Any, ...]) -> tuple[Fraction, int]:
    """Stud, heads-up: every way to deal the player's other cards against every seven
    cards of the opponent from the rest. Each seven-card set of the cards left is scored
    once by the batch evaluator; a deal pairs two sets sharing no card."""
    import numpy as np

    from cardlab.poker.batch import evaluate_batch

    deck = game.deck
    if len(deck) > 62:  # cards as bits of an int64; such decks are far beyond the budget
        raise GameError(f"exact Stud charts take decks of at most 62 cards, not {len(deck)}")
    h = game.base.hole_cards
    held = set(deck.codes(cards))
    rest = [c for c in range(len(deck)) if c not in held]
    sets = np.array(list(itertools.combinations(rest, h)), np.int64)
    bits = (np.int64(1) << sets).sum(axis=1)
    theirs = evaluate_batch(sets.astype(np.uint8), game.rules, check=False)
    extra = np.array(list(itertools.combinations(rest, h - len(cards))), np.int64)
    mine_rows = np.concatenate([np.repeat([sorted(held)], len(extra), axis=0), extra], axis=1)
    mine = evaluate_batch(mine_rows.astype(np.uint8), game.rules, check=False)
    extra_bits = (np.int64(1) << extra).sum(axis=1)
    twice = deals = 0
    for key, used in zip(mine.tolist(), extra_bits.tolist(), strict=True):
        free = (bits & used) == 0
        twice += 2 * int((key > theirs[free]).sum()) + int((key == theirs[free]).sum())
        deals += int(free.sum())
    return Fraction(twice, 2 * deals), deals


# --- the charts --------------------------------------------------------------------------


def _batches(todo: list[int], deals_of: list[int]) -> list[list[int]]:
    """Classes grouped into tasks of about TASK_DEALS showdowns each."""
    out: list[list[int]] = []
    size = 0
    for i in todo:
        if not out or size + deals_of[i] > TASK_DEALS or len(out[-1]) >= TASK_CLASSES:
            out.append([])
            size = 0
        out[-1].append(i)
        size += deals_of[i]
    return out


def multi_chart(
    game: Game,
    opponents: int,
    *,
    exact: bool | None,
    target_se: float,
    seed: int,
    client: Any,
    cache: Any,
    progress: Progress | None,
    classes: tuple[HandClass, ...] | None,
) -> Chart:
    """The chart of an Omaha or Stud game (see :func:`cardlab.analysis.chart.chart`)."""
    every = game_classes(game)
    chosen = classes if classes is not None else every
    heads_up = opponents == 1 or game.base.board_cards > 0
    if exact is None:
        exact = heads_up and exact_showdowns(game, opponents, chosen) <= EXACT_BUDGET
    elif exact and not heads_up:
        raise GameError(f"exact Stud charts are heads-up; against {opponents}: sample (--se)")
    elif exact and exact_showdowns(game, opponents, chosen) > EXACT_LIMIT:
        raise GameError(
            f"an exact {game.name} chart would deal "
            f"{exact_showdowns(game, opponents, chosen):,} showdowns (at most {EXACT_LIMIT:,}): "
            "sample it (--se)"
        )
    if exact:
        return _exact(game, opponents, chosen, client, cache, progress)
    place = {c.name: i for i, c in enumerate(every)}
    return _sampled(game, opponents, chosen, place, target_se, seed, client, cache, progress)


def _texts(game: Game, c: HandClass) -> tuple[str, ...]:
    return tuple(" ".join(x.ascii for x in hand) for hand in _stands_for(game, c))


def _exact(
    game: Game,
    opponents: int,
    classes: tuple[HandClass, ...],
    client: Any,
    cache: Any,
    progress: Progress | None,
) -> Chart:
    per_task = max(1, len(classes) // 64)
    groups = [classes[i : i + per_task] for i in range(0, len(classes), per_task)]
    tasks = [ExactClassesTask(game, tuple(_texts(game, c) for c in g), opponents) for g in groups]
    results = run_tasks(tasks, client=client, cache=cache, progress=progress)
    rows = []
    for g, result in zip(groups, results, strict=True):
        for c, (num, den, deals) in zip(g, result, strict=True):
            hands = len(_stands_for(game, c))
            rows.append(ClassEquity(c, Fraction(int(num), int(den)) / hands, None, int(deals)))
    rows.sort(key=lambda r: (-r.equity, r.hand.name))
    return Chart(game, opponents, True, tuple(rows), tasks=len(tasks))


def _sampled(
    game: Game,
    opponents: int,
    classes: tuple[HandClass, ...],
    place: dict[str, int],
    target_se: float,
    seed: int,
    client: Any,
    cache: Any,
    progress: Progress | None,
) -> Chart:
    texts = [_texts(game, c) for c in classes]
    tally = [Tally(len(t), [0.0] * len(t), [0.0] * len(t), [0.0] * len(t)) for t in texts]
    per_hand = [max(_MIN_DEALS, math.ceil(_VARIANCE / target_se**2 / len(t))) for t in texts]
    todo = list(range(len(classes)))
    done_before = n_tasks = 0
    for rnd in range(_MAX_ROUNDS):
        batches = _batches(todo, [per_hand[i] * len(texts[i]) for i in range(len(classes))])
        tasks = [
            SampledClassesTask(
                game,
                tuple(place[classes[i].name] for i in b),
                tuple(texts[i] for i in b),
                tuple(per_hand[i] for i in b),
                opponents,
                seed,
                rnd,
            )
            for b in batches
        ]

        def step(done: int, total: int, base: int = done_before) -> None:
            if progress is not None:
                progress(base + done, base + total)

        results = run_tasks(tasks, client=client, cache=cache, progress=step)
        n_tasks += len(tasks)
        done_before += len(tasks)
        for b, result in zip(batches, results, strict=True):
            for i, rows in zip(b, result, strict=True):
                tally[i].add(rows)
        todo = more_deals(tally, per_hand, target_se, _MIN_DEALS)
        if not todo:
            break
    return sampled_result(game, opponents, classes, tally, seed, target_se, n_tasks)
