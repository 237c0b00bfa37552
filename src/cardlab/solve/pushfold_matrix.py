"""The class matrix of heads-up all-in pre-flop: for every two classes of starting hands
of a Hold'em deck, how many deals oppose them and how often the first wins.

The classes are those of the charts (:func:`cardlab.poker.classes.hand_classes`: the
hole cards up to the deck's interchangeable suits, ``AKs`` on standard52, ``12-9s`` on
FESCA), so a class has one name on every deck and in every tool.

**Deals.** Two hands are dealt together when they share no card. ``deals[i, j]`` is the
number of ordered pairs (a hand of class ``i``, a hand of class ``j``) that share no
card: an integer, counted from the incidence of hands and cards (two hands clash when
their incidence rows meet), summed over the classes. Each row sums to the class's hands
times the hands left beside one of them, ``count_i * C(n - 2, 2)``.

**Equity.** ``equity[i, j]`` is the share of the pot that class ``i`` wins all in against
class ``j``, averaged over those deals and every board (a tie gives half), so
``equity[i, j] + equity[j, i] = 1`` and a class against itself is exactly 1/2.

- *Exact* (small decks): every board is dealt once (one per orbit of the
  interchangeable suits when the rules do not see suits apart, weighted by the orbit, as
  the exact charts do: :mod:`cardlab.analysis.chart`); for each board every two-card
  hand left is scored by the batch evaluator and every card-disjoint pair of them
  compared, the wins and ties summed by class pair as integers. Tasks: the boards by
  their two lowest cards.
- *Sampled* (every other deck): for each pair of classes, ``ceil(1 / (4 se^2))`` random
  deals: a card-disjoint pair of hands drawn uniformly among the pair's deals, then a
  board from the cards left. A share lies in [0, 1], so its variance is at most 1/4 and
  the standard error of every pair's equity is at most ``se``; the observed standard
  errors are kept too. Tasks: one row of the matrix (a class against every class after
  it), its draws from ``SeedSequence((seed, row))``, so a matrix is the same on any
  number of workers.

Either way the tasks run through :func:`cardlab.tasks.run_tasks` (here or on a
Dask cluster, each finished task kept in the task cache), and the whole matrix is kept
on disk keyed by the digest of this code, the deck and rules and the standard error
(:func:`class_matrix` with ``cache``), so the second run of a deck is instant.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from cardlab._sources import code_digest
from cardlab.errors import GameError
from cardlab.poker.classes import (
    HandClass,
    count_hand_classes,
    hand_classes,
    orbit_weights,
    suit_permutations,
)
from cardlab.poker.games import Game, game_text
from cardlab.tasks import Progress, run_tasks, task_rng

EXACT_BUDGET = 400_000_000
"""Hand-against-hand comparisons an exact matrix may take (boards times hands left
squared); more and the matrix is sampled."""
DEFAULT_SE = 0.01
_BATCH = 3_000_000  # comparisons (exact) or deals (sampled) held in memory at once

Array = np.ndarray[Any, Any]


@dataclass(frozen=True, eq=False)
class ClassMatrix:
    """Every class pair's card-disjoint deals and all-in equity on one deck and rules.

    ``names[i]`` and ``hands[i]`` (its number of hands) describe class ``i``;
    ``deals`` (int64) and ``equity`` (float) are ``K x K``; ``se`` is the largest
    observed standard error of an equity (0 when ``exact``); ``target_se`` the bound
    the sampling was sized for (None when exact); ``shipped``: the standard52 matrix
    that comes with cardlab (:func:`standard52_matrix`)."""

    game: str
    names: tuple[str, ...]
    hands: tuple[int, ...]
    deals: Array = field(repr=False)
    equity: Array = field(repr=False)
    exact: bool
    se: float = 0.0
    target_se: float | None = None
    shipped: bool = False  # the standard52 matrix that comes with cardlab

    def index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            some = ", ".join(self.names[:3])
            raise GameError(
                f"no starting-hand class {name!r} on {self.game} (e.g. {some})"
            ) from None

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "names": list(self.names),
            "hands": list(self.hands),
            "exact": self.exact,
            "se": self.se,
            "target_se": self.target_se,
            "deals": self.deals.tolist(),
            "equity": self.equity.tolist(),  # floats round-trip exactly in JSON
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClassMatrix:
        return cls(
            data["game"],
            tuple(data["names"]),
            tuple(data["hands"]),
            np.array(data["deals"], np.int64),
            np.array(data["equity"], np.float64),
            bool(data["exact"]),
            float(data["se"]),
            data["target_se"],
        )


def check_holdem(game: Game) -> None:
    """Push/fold needs two hole cards, a five-card board and any five of seven."""
    b = game.base
    if not (b.hole_cards == 2 and b.board_cards == 5 and b.hole_used is None):
        raise GameError(
            f"push/fold is solved for Hold'em games (two hole cards, five on the board), "
            f"not {game.key!r}"
        )
    if len(game.deck) < 9:
        raise GameError(f"the {game.deck.name} deck has too few cards for two hands and a board")


def _codes(game: Game, classes: tuple[HandClass, ...]) -> tuple[Array, Array]:
    """Every hand as two card codes, and its class index."""
    deck = game.deck
    rows, owner = [], []
    for k, c in enumerate(classes):
        for x, y in c.combos:
            rows.append(sorted((deck.code(x), deck.code(y))))
            owner.append(k)
    return np.array(rows, np.int64).reshape(-1, 2), np.array(owner, np.int64)


def class_deals(game: Game, classes: tuple[HandClass, ...] | None = None) -> Array:
    """``deals[i, j]``: ordered pairs of card-disjoint hands of classes ``i`` and ``j``."""
    classes = hand_classes(game.rules) if classes is None else classes
    codes, owner = _codes(game, classes)
    n, k = len(game.deck), len(classes)
    incidence = np.zeros((len(codes), n), np.int64)
    np.put_along_axis(incidence, codes, 1, axis=1)
    onehot = np.zeros((len(codes), k), np.int64)
    onehot[np.arange(len(codes)), owner] = 1
    per_class = onehot.T @ incidence  # (K, n): hands of each class holding each card
    # clashing pairs = pairs sharing a card (each shares at most one card with another
    # hand unless it is the same hand, which shares two)
    shared = per_class @ per_class.T  # sum over cards of hands-of-i x hands-of-j holding it
    same = np.diag(np.array([c.count for c in classes], np.int64))  # a hand with itself: 2
    hands = np.array([c.count for c in classes], np.int64)
    out: Array = np.outer(hands, hands) - (shared - same)
    return out


def _solo_weights(game: Game, boards: Array) -> Array:
    n = len(game.deck)
    if game.rules.suit_tiebreak:
        return np.ones(len(boards), np.int64)
    return orbit_weights(boards, suit_permutations(game.rules), n)


def exact_work(game: Game) -> int:
    """Comparisons an exact matrix takes: boards (one per orbit where the suits are a
    symmetry of the rules) times the hands left beside each, squared."""
    n = len(game.deck)
    group = 1 if game.rules.suit_tiebreak else len(suit_permutations(game.rules))
    return math.comb(n, 5) // group * math.comb(n - 5, 2) ** 2


@dataclass(frozen=True)
class ExactPairsTask:
    """Every board whose two lowest cards are ``first`` < ``second``: for each ordered
    class pair, the pot shares won in half pots and the showdowns (flat ``K*K`` lists)."""

    game: Game
    first: int
    second: int

    def key(self) -> str:
        return f"pushfold-exact|{game_text(self.game)}|first={self.first},{self.second}"

    def run(self) -> dict[str, list[int]]:
        from cardlab.poker.batch import evaluate_batch

        game = self.game
        n = len(game.deck)
        classes = hand_classes(game.rules)
        k = len(classes)
        class_of = np.full((n, n), -1, np.int64)
        codes, owner = _codes(game, classes)
        class_of[codes[:, 0], codes[:, 1]] = owner
        class_of[codes[:, 1], codes[:, 0]] = owner
        top = np.array(list(itertools.combinations(range(self.second + 1, n), 3)), np.int64)
        if len(top) == 0:
            return {"half": [0] * (k * k), "showdowns": [0] * (k * k)}
        boards = np.concatenate([np.tile([self.first, self.second], (len(top), 1)), top], axis=1)
        weight = _solo_weights(game, boards)
        boards, weight = boards[weight > 0], weight[weight > 0]
        m = n - 5
        pairs = np.array(list(itertools.combinations(range(m), 2)), np.int64)
        pa, pb = pairs[:, 0], pairs[:, 1]
        h = len(pairs)
        clash = (
            (pa[:, None] == pa[None, :])
            | (pa[:, None] == pb[None, :])
            | (pb[:, None] == pa[None, :])
            | (pb[:, None] == pb[None, :])
        )
        ii, jj = np.nonzero(~clash)
        half = np.zeros(k * k, np.int64)
        shows = np.zeros(k * k, np.int64)
        everything = np.arange(n)
        batch = max(1, _BATCH // max(len(ii), 1))
        for lo in range(0, len(boards), batch):
            chunk, w = boards[lo : lo + batch], weight[lo : lo + batch]
            used = np.zeros((len(chunk), n), bool)
            np.put_along_axis(used, chunk, True, axis=1)
            rest = np.array([everything[~u] for u in used], np.int64)
            rows = np.concatenate(
                [
                    rest[:, pa][:, :, None],
                    rest[:, pb][:, :, None],
                    np.repeat(chunk[:, None, :], h, 1),
                ],
                axis=2,
            ).reshape(-1, 7)
            keys = evaluate_batch(rows.astype(np.uint8), game.rules, check=False).reshape(-1, h)
            cls = class_of[rest[:, pa], rest[:, pb]]  # (boards, h)
            score = 1 + np.sign(keys[:, ii] - keys[:, jj])  # 2 win, 1 tie, 0 loss
            index = cls[:, ii] * k + cls[:, jj]
            ww = np.broadcast_to(w[:, None], index.shape)
            half += np.bincount(index.ravel(), (score * ww).ravel(), k * k).astype(np.int64)
            shows += np.bincount(index.ravel(), ww.ravel(), k * k).astype(np.int64)
        return {"half": half.tolist(), "showdowns": shows.tolist()}


def _exact(game: Game, client: Any, cache: Path | None, progress: Progress | None) -> Array:
    n = len(game.deck)
    tasks = [ExactPairsTask(game, a, b) for a, b in itertools.combinations(range(n - 3), 2)]
    results = run_tasks(tasks, client=client, cache=cache, progress=progress)
    half = np.sum([np.array(r["half"], np.int64) for r in results], axis=0)
    shows = np.sum([np.array(r["showdowns"], np.int64) for r in results], axis=0)
    k = math.isqrt(len(half))
    with np.errstate(invalid="ignore", divide="ignore"):
        equity: Array = np.where(shows > 0, half / (2.0 * np.maximum(shows, 1)), 0.5)
    return equity.reshape(k, k)


@dataclass(frozen=True)
class SampledRowTask:
    """Class ``row`` against each class ``j >= row``: ``samples`` random deals each;
    per ``j`` [deals, half pots won, sum of squared half pots]."""

    game: Game
    row: int
    samples: int
    seed: int

    def key(self) -> str:
        return (
            f"pushfold-sampled|{game_text(self.game)}|row={self.row}|samples={self.samples}"
            f"|seed={self.seed}"
        )

    def run(self) -> list[list[int]]:
        from cardlab.poker.batch import evaluate_batch

        game = self.game
        n = len(game.deck)
        classes = hand_classes(game.rules)
        codes, owner = _codes(game, classes)
        mine = codes[owner == self.row]
        rng = task_rng(self.seed, self.row)
        # every class after this one: its card-disjoint deals with this class, as
        # (hand of this class, hand of that class) listed one class after another
        firsts, seconds, sizes = [], [], []
        for j in range(self.row + 1, len(classes)):
            theirs = codes[owner == j]
            a, b = np.nonzero(~_clashes(mine, theirs))
            firsts.append(mine[a])
            seconds.append(theirs[b])
            sizes.append(len(a))
        out: list[list[int]] = [[0, 0, 0]]  # a class against itself is 1/2 exactly
        if not sizes:
            return out
        size = np.array(sizes, np.int64)
        first, second = np.concatenate(firsts), np.concatenate(seconds)
        offset = np.concatenate([[0], np.cumsum(size)[:-1]])
        live = np.flatnonzero(size > 0)
        # deals in class order: the class of each deal, then a uniform deal of its list
        # (each batch of that list made as it is drawn: whole, it is live x samples)
        deals = len(live) * self.samples
        total = np.zeros(len(sizes), np.int64)
        squares = np.zeros(len(sizes), np.int64)
        step = _BATCH // 4
        for lo in range(0, deals, step):
            cls = live[np.arange(lo, min(lo + step, deals), dtype=np.int64) // self.samples]
            pick = offset[cls] + rng.integers(0, size[cls])
            hole = np.concatenate([first[pick], second[pick]], axis=1)
            board = _draw_boards(hole, n, rng)
            one = np.concatenate([hole[:, :2], board], axis=1).astype(np.uint8)
            two = np.concatenate([hole[:, 2:], board], axis=1).astype(np.uint8)
            score = 1 + np.sign(
                evaluate_batch(one, game.rules, check=False)
                - evaluate_batch(two, game.rules, check=False)
            )
            total += np.bincount(cls, score, len(sizes)).astype(np.int64)
            squares += np.bincount(cls, score * score, len(sizes)).astype(np.int64)
        for j, d in enumerate(sizes):
            out.append([self.samples, int(total[j]), int(squares[j])] if d else [0, 0, 0])
        return out


def _clashes(x: Array, y: Array) -> Array:
    """``[a, b]``: hand ``x[a]`` shares a card with hand ``y[b]``."""
    return (x[:, None, :, None] == y[None, :, None, :]).any(axis=(2, 3))  # type: ignore[no-any-return]


def _draw_boards(hole: Array, n: int, rng: np.random.Generator) -> Array:
    """Five distinct cards for each row, none of the row's hole cards, uniformly: each
    new card is a uniform index among the cards not yet used, moved past the used ones
    (taken in increasing order)."""
    used = np.sort(hole, axis=1)
    out = np.empty((len(hole), 5), np.int64)
    for t in range(5):
        r = rng.integers(0, n - used.shape[1], len(hole))
        for col in range(used.shape[1]):
            r += r >= used[:, col]
        out[:, t] = r
        used = np.sort(np.concatenate([used, r[:, None]], axis=1), axis=1)
    return out


def samples_for(se: float) -> int:
    """Deals per class pair that bound its equity's standard error by ``se``."""
    return math.ceil(min(0.25 / se / se, 1e30))  # no underflow of se**2


def sampled_seconds(game: Game, se: float) -> float:
    """About how long a sampled matrix to the standard error ``se`` takes on this
    machine: :func:`samples_for` deals for each pair of distinct classes."""
    from cardlab.poker.equity import sampling_seconds

    k = count_hand_classes(game.rules)
    return sampling_seconds(game, k * (k - 1) // 2 * samples_for(se))


def _sampled(
    game: Game, k: int, se: float, seed: int, client: Any, cache: Path | None, p: Progress | None
) -> tuple[Array, float]:
    samples = samples_for(se)
    tasks = [SampledRowTask(game, i, samples, seed) for i in range(k)]
    results = run_tasks(tasks, client=client, cache=cache, progress=p)
    equity = np.full((k, k), 0.5)
    worst = 0.0
    for i, rows in enumerate(results):
        for j, (d, s, q) in enumerate(rows, start=i):
            if d == 0:
                continue
            mean = s / (2 * d)
            var = max(q / (4 * d) - mean * mean, 0.0)
            worst = max(worst, math.sqrt(var / d))
            equity[i, j], equity[j, i] = mean, 1 - mean
    return equity, worst


def matrix_key(game: Game, se: float | None, seed: int) -> str:
    """The disk-cache name of a matrix: the code that builds it, the deck and rules,
    the sampling asked for."""
    method = "exact" if se is None else f"se={se!r},seed={seed}"
    text = f"{code_digest(__name__)}|{game_text(game)}|{method}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def class_matrix(
    game: Game,
    *,
    se: float | None = None,
    exact: bool | None = None,
    seed: int = 0,
    client: Any = None,
    cache: Path | str | None = None,
    progress: Progress | None = None,
) -> ClassMatrix:
    """The class matrix of ``game``'s deck and rules.

    ``exact``: None decides by the work (:data:`EXACT_BUDGET`); ``se``: the standard
    error bound of a sampled matrix (default :data:`DEFAULT_SE`). ``cache``: a
    directory for finished tasks and whole matrices."""
    check_holdem(game)
    if se is not None and not 0 < se < 0.5:
        raise GameError(f"the standard error of an equity is between 0 and 0.5, got {se!r}")
    if exact is None:
        exact = exact_work(game) <= EXACT_BUDGET
    folder = Path(cache) if cache is not None else None
    target = None if exact else (se if se is not None else DEFAULT_SE)
    path = folder / "pushfold" / f"{matrix_key(game, target, seed)}.json" if folder else None
    if path is not None and path.is_file():
        try:
            return ClassMatrix.from_dict(json.loads(path.read_text()))
        except (OSError, ValueError, KeyError):
            pass  # a damaged file is computed again
    classes = hand_classes(game.rules)
    deals = class_deals(game, classes)
    if target is None:
        equity, worst = _exact(game, client, folder, progress), 0.0
    else:
        equity, worst = _sampled(game, len(classes), target, seed, client, folder, progress)
    matrix = ClassMatrix(
        game.key,
        tuple(c.name for c in classes),
        tuple(c.count for c in classes),
        deals,
        equity,
        target is None,
        worst,
        target,
    )
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(matrix.as_dict(), ensure_ascii=False))
        tmp.replace(path)
    return matrix


def cached_matrix(
    game: Game,
    *,
    se: float | None = None,
    exact: bool | None = None,
    seed: int = 0,
    cache: Path | str,
) -> ClassMatrix | None:
    """The matrix :func:`class_matrix` would return, if it is in the disk cache."""
    if exact is None:
        exact = exact_work(game) <= EXACT_BUDGET
    target = None if exact else (se if se is not None else DEFAULT_SE)
    path = Path(cache) / "pushfold" / f"{matrix_key(game, target, seed)}.json"
    try:
        return ClassMatrix.from_dict(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError):
        return None


def standard52_matrix() -> ClassMatrix:
    """The standard52 Hold'em matrix cardlab ships (``bots/data/preflop169.json``:
    20,000 sampled showdowns a class pair, standard error under 0.004), in the order
    and naming of :func:`~cardlab.poker.classes.hand_classes`; its deals are counted
    here again (the shipped counts agree)."""
    from importlib import resources

    from cardlab.poker.games import get_game

    game = get_game("standard52-holdem")
    data = json.loads(resources.files("cardlab.bots").joinpath("data/preflop169.json").read_text())
    classes = hand_classes(game.rules)
    order = [data["classes"].index(c.name) for c in classes]
    equity = np.array(data["equity"], np.float64)[np.ix_(order, order)]
    samples = int(data["samples"])
    return ClassMatrix(
        game.key,
        tuple(c.name for c in classes),
        tuple(c.count for c in classes),
        class_deals(game, classes),
        equity,
        False,
        math.sqrt(0.25 / samples),
        math.sqrt(0.25 / samples),
        shipped=True,
    )


def shipped_matrix(game: Game) -> ClassMatrix | None:
    """The shipped matrix when ``game`` is standard52 Hold'em with its default rules
    (:func:`standard52_matrix`), else None."""
    from cardlab.poker.games import get_game

    if game.key != "standard52-holdem" or game.rules != get_game("standard52-holdem").rules:
        return None
    return standard52_matrix()
