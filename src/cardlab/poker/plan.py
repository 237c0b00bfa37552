"""The kernel plan: which compiled method answers a game's showdowns, and what it reads.

The poker layer (:mod:`cardlab.poker.equity`, the charts, the report) never opens the
private kernel wing (:mod:`cardlab.poker._kernels`) to decide anything: it asks
``KernelPlan.for_game(game)``, built once per game and process, which holds

- ``method``: how a player's key is found (:class:`KeyMethod`: the hashed best five of
  k, the hashed Omaha 2 + 3, or the plain best of every allowed five where the hash is
  not exact for the rule set - the choice :func:`cardlab.poker.batch.method_for` makes);
- ``arrays`` and ``scalars``: the two values every key kernel takes, one named tuple of
  arrays (:class:`~cardlab.poker._kernels.bundle.KernelArrays`) and one of numbers
  (:class:`~cardlab.poker._kernels.bundle.KernelScalars`, ``method`` among them);
- which exact counters apply (``counts_by_rank``: fixed hands counted by rank class;
  ``vs_random``: a hand against a random hand counted by class) and a conservative
  rate for estimating the work before it starts (``keys_per_second``);
- the kernels a piece of work runs, to check in numba's disk cache before a first run
  (:meth:`KernelPlan.exact_kernels`, :func:`sampling_kernels`, ...). The look-ups'
  builder (``hashed.fill_rank_keys``) is in none of these lists: look-ups are kept on
  disk, so it runs only for a deck's first look-ups, and listing it made every later
  run announce a compile that never came.

Building a plan builds the rule set's look-ups and imports numba; asking which method
applies without building anything: :func:`key_method`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cardlab.poker._kernels.bundle import KernelArrays, KernelScalars
    from cardlab.poker.games import Game

Kernel = Any  # a numba dispatcher

# player keys per second on one core of each method in the exact loops, rounded down
# from benchmarks/equity.py (the largest decks): for estimates before the work, not promises
_KEYS_PER_SECOND = {0: 1_000_000, 1: 20_000_000, 2: 2_000_000}


class KeyMethod(IntEnum):
    """How a player's key is found (``KernelScalars.method`` in compiled code)."""

    SUBSETS = 0  # the plain best of every allowed five (:func:`~._kernels.five.key5`)
    HASHED = 1  # the hashed best five of k (:func:`~._kernels.hashed.hand_key`)
    OMAHA = 2  # the hashed Omaha 2 + 3 (:func:`~._kernels.omaha.omaha_key`)


def key_method(game: Game) -> KeyMethod:
    """The key method of a game's showdowns: hashed where the batch evaluator's hash
    path is exact for the rule set (Omaha's 2 + 3 only for four hole cards and five
    board cards), else the plain subsets."""
    from cardlab.poker.batch import method_for

    base = game.base
    k = base.hole_cards + base.board_cards
    omaha = base.hole_used is not None  # exactly so many hole cards: the omaha kernel's 2 + 3
    fast = method_for(game.rules, k, "omaha" if omaha else "best") == "hashed" and (
        not omaha or (base.hole_cards, base.board_cards, base.hole_used) == (4, 5, 2)
    )
    if not fast:
        return KeyMethod.SUBSETS
    return KeyMethod.OMAHA if omaha else KeyMethod.HASHED


@dataclass(frozen=True, eq=False)
class KernelPlan:
    """One game's compiled method and the arrays and numbers its kernels read."""

    game: Game
    method: KeyMethod
    arrays: KernelArrays
    scalars: KernelScalars

    @classmethod
    def for_game(cls, game: Game) -> KernelPlan:
        """The plan of ``game``, built once per process (look-ups included)."""
        return _plan(game)

    @property
    def counts_by_rank(self) -> bool:
        """Exact showdowns of fixed hands are counted by rank multisets, most boards
        not dealt (:mod:`~._kernels.by_rank`): the hash path."""
        return self.method is KeyMethod.HASHED

    @property
    def vs_random(self) -> bool:
        """A hand against a random hand is counted by classes
        (:mod:`~._kernels.vs_random`): Hold'em shape (two hole cards, five board cards,
        best five of seven) on the hash path, suits deciding nothing but flushes."""
        base = self.game.base
        return (
            (base.hole_cards, base.board_cards, base.hole_used) == (2, 5, None)
            and self.method is KeyMethod.HASHED
            and not self.scalars.suits_count
            and not self.scalars.mixwell
        )

    @property
    def keys_per_second(self) -> float:
        """A conservative rate of the exact loops for this method, in player keys a
        second on one core (to estimate the work before it starts)."""
        return float(_KEYS_PER_SECOND[int(self.method)])

    def exact_kernels(self) -> tuple[Kernel, ...]:
        """The kernels an exact equity of this game may run."""
        from cardlab.poker._kernels import by_rank, showdowns, vs_random

        kernels: list[Kernel] = [showdowns.exact_units]
        if self.counts_by_rank:
            kernels.append(by_rank.exact_by_rank)
        if self.vs_random:
            kernels.append(vs_random.hand_vs_random)
        return tuple(kernels)

    def chart_kernels(self, exact: bool) -> tuple[Kernel, ...]:
        """The kernels a heads-up chart of this game runs: the class counter of a hand
        against a random hand, else the batch evaluator over every board (exact), or
        sampling."""
        from cardlab.poker._kernels import hashed_batch, vs_random

        if not exact:
            return sampling_kernels()
        if self.vs_random:
            return (vs_random.hand_vs_random,)
        return (hashed_batch.best_hashed,)


def counts_vs_random(game: Game) -> bool:
    """Whether a hand against a random hand of ``game`` is counted by classes
    (:attr:`KernelPlan.vs_random`); a game of another shape answers without building
    its plan."""
    base = game.base
    if (base.hole_cards, base.board_cards, base.hole_used) != (2, 5, None):
        return False
    return KernelPlan.for_game(game).vs_random


@lru_cache(maxsize=64)
def _plan(game: Game) -> KernelPlan:
    import numpy as np

    from cardlab.poker._kernels.bundle import key_lookups
    from cardlab.poker._kernels.rule_arrays import left_out
    from cardlab.poker.batch import hash_lookups, kernel_lookups, omaha_lookups

    base = game.base
    method = key_method(game)
    omaha = base.hole_used is not None
    k = base.hole_cards + base.board_cards
    lookups = kernel_lookups(game.rules)
    h = hash_lookups(game.rules, 5 if omaha else k) if method is not KeyMethod.SUBSETS else None
    if method is not KeyMethod.SUBSETS and h is None:  # pragma: no cover - method_for checked
        method = KeyMethod.SUBSETS
    choices = np.array(base.five_card_choices(base.hole_cards, base.board_cards), np.int64)
    extra = omaha_lookups(game.rules) if method is KeyMethod.OMAHA and h is not None else None
    arrays, scalars = key_lookups(method, lookups, h, choices, left_out(5 if omaha else k), extra)
    return KernelPlan(game, method, arrays, scalars)


def exact_kernels() -> tuple[Kernel, ...]:
    """Every kernel exact equity may run, whatever the game."""
    from cardlab.poker._kernels import by_rank, showdowns, vs_random

    return (showdowns.exact_units, by_rank.exact_by_rank, vs_random.hand_vs_random)


def sampling_kernels() -> tuple[Kernel, ...]:
    """The kernels Monte Carlo equity may run, whatever the game."""
    from cardlab.poker._kernels import sampling

    return sampling.LOOPS


def bot_kernels() -> tuple[Kernel, ...]:
    """The sampling loop the bots' equities run: their hands against random ones,
    dealt."""
    from cardlab.poker._kernels import sampling

    return (sampling.dealt_loop,)


def report_kernels() -> tuple[Kernel, ...]:
    """The kernels every deck report runs: its frequency tables and the dealt samples (of
    ties with and without suit tie-breaks). The general loops (ranges, Omaha, subsets)
    run only for the decks and games that need them, so they are left out: a report
    that needs none of them must not announce a compile on every run."""
    from cardlab.poker._kernels import sampling, tables7_count

    return (
        tables7_count.count_patterns,
        sampling.plain_loop,
        sampling.dealt_loop,
    )


def compiled_here(kernels: tuple[Kernel, ...]) -> int:
    """How many signatures of ``kernels`` this process compiled rather than loaded
    from numba's disk cache (numba's own count of cache misses)."""
    total = 0
    for kernel in kernels:
        stats = getattr(kernel, "stats", None)
        misses = getattr(stats, "cache_misses", None)
        if misses:
            total += sum(misses.values())
    return total


def in_disk_cache(kernels: tuple[Kernel, ...]) -> bool:
    """Whether numba's disk cache holds compiled code of every one of ``kernels`` that
    matches its current source (False: the next call compiles, which takes a while)."""
    from cardlab.poker._kernels.warm import in_disk_cache as cached

    return cached(*kernels)
