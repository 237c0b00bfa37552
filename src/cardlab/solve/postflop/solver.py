"""Discounted CFR on a postflop game, every core used, with an exact best response.

**The variant**: discounted CFR (DCFR, Brown and Sandholm, "Solving Imperfect-Information
Games via Discounted Regret Minimization", AAAI 2019) with alternating updates: on
iteration t (counted from 1) OOP's regrets are updated, then IP's against OOP's new
strategy. Before t's regrets are added, positive cumulative regrets are multiplied by
a_t, negative ones by b_t, and the strategy sums (each iteration's strategy weighted by
the player's own reach) by g_t. Two schedules (``Solver(..., schedule=...)``; the
default, ``"auto"``, is ``"restart"`` for a spot that starts on the flop and
``"smooth"`` for one on the turn or river or a small game, the faster of the two where
measured: below):

* ``"restart"`` (on the flop): a_t = s^1.5 / (s^1.5 + 1) with s = max(t - 2, 0),
  b_t = 1/2 and g_t = (u / (u + 1))^3 with u = t - 1 - P, where P is the largest
  power of 4 at most t - 1 (0 for t = 1): the paper's DCFR with alpha = 1.5 and
  beta = 0 (t^0 / (t^0 + 1) = 1/2, its recommended values) and gamma = 3, counted as
  b-inary/postflop-solver counts it (its ``DiscountParams``: iterations from 0 and
  alpha on the iteration before), and the average restarted, as that solver does, on
  iterations 1, 2, 5, 17, 65, 257, ... (its 0, 1, 4, 16, 64, 256): the strategy sum
  is set to that iteration's strategy, and the average forgets the early iterations,
  whose strategies are the worst. The exploitability jumps for a few tens of
  iterations after a restart (on iteration 257 most visibly), then falls below where
  it was.
* ``"smooth"``: a_t = t^1.5 / (t^1.5 + 1), b_t = t^0.5 / (t^0.5 + 1), g_t =
  ((t - 1) / t)^3 (alpha = 1.5, beta = 0.5, gamma = 3 on t; no restart; on the turn
  and river): cardlab's only schedule before. Its exploitability falls without jumps.

Why: on PioSOLVER's 3betpotFAST preset (a flop) "restart" reaches 0.1% of the pot in
about the iterations postflop-solver needs (180) where "smooth" needed 210 to 230; most
of the gain is b_t = 1/2 (an action whose regret went negative comes back sooner once
it pays again), the rest the later alpha and the restarts. On the turn example
"smooth" is faster (0.5% of the pot in 90 iterations against 100 to 110) and converges
more surely: with "restart" the exploitability rose from 0.10% to 0.3% between
iterations 220 and 250 there (docs/postflop.md gives the figures).

The average strategy is weighted by the player's own reach, as the paper's is;
postflop-solver sums the strategies unweighted (it carries no own reach). Run by
cardlab both ways with the "restart" schedule, the weighted average reached 0.1% of a
small flop spot in 200 iterations, the unweighted one in 210.

**Threads**: an iteration walks the first street once to get both players' reach at
each of its chance nodes, then solves every (chance node, card) subtree as a task on
the threads (largest tasks first, each thread taking the next one left), then walks the
first street again with those values to update its regrets. A spot on the river is one
walk.

**Exploitability**: each player's best response against the other's average strategy
is computed exactly (the best action per hand at every node, all cards dealt); the
exploitability is the mean of what the two best responders gain over the strategy's own
values, in chips per hand pair (hand pairs weighted by the ranges' weights, pairs that
share a card left out), and in % of the starting pot. postflop-solver's
``compute_exploitability`` is the same quantity (the mean of its two best-response
values less the current ones, per its ``num_combinations``), computed in float32; here
the measuring walks are float64.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cardlab.errors import GameError
from cardlab.solve.postflop import _kernels as k
from cardlab.solve.postflop import _loop
from cardlab.solve.postflop.game import PostflopGame
from cardlab.solve.postflop.tree import DECISION

SCHEDULES = ("auto", "restart", "smooth")
MAX_ITERATIONS = 100_000
Floats = npt.NDArray[np.float64]
# progress(iterations done, iterations at most, exploitability in % of the pot if measured)
Progress = Callable[[int, int, float | None], None]


@dataclass(frozen=True)
class Values:
    """Per player (OOP, IP): a root value in chips per hand pair."""

    oop: float
    ip: float

    def as_dict(self) -> dict[str, float]:
        return {"oop": self.oop, "ip": self.ip}


def last_power_of_4(n: int) -> int:
    """The largest power of 4 at most ``n`` (0 for 0)."""
    if n < 0:
        raise ValueError(f"n must be at least 0, got {n}")
    return 0 if n == 0 else 1 << ((n.bit_length() - 1) & ~1)


def discounts(t: int, schedule: str = "restart") -> Floats:
    """(positive regret factor, negative regret factor, strategy-sum factor) of
    iteration ``t`` (from 1) of ``schedule`` (the module's docstring)."""
    if t < 1:
        raise ValueError(f"iterations count from 1, got {t}")
    if schedule == "smooth":
        ta, tb = t**1.5, t**0.5
        return np.array([ta / (ta + 1), tb / (tb + 1), ((t - 1) / t) ** 3], np.float64)
    if schedule != "restart":
        raise GameError(f"the schedule is restart or smooth, got {schedule!r}")
    n = t - 1  # postflop-solver's count, from 0
    ta = max(n - 1, 0) ** 1.5
    u = n - last_power_of_4(n)
    return np.array([ta / (ta + 1), 0.5, (u / (u + 1)) ** 3], np.float64)


def storage(size: int, dtype: type[np.number[Any]]) -> npt.NDArray[Any]:
    """``size`` zeros of ``dtype`` in pages of their own (an anonymous map, as C's
    ``calloc`` gives a large block), not numpy's: numpy asks Linux for huge pages for
    any large array, and where the kernel compacts memory to find them at the first
    write (``transparent_hugepage/defrag`` set to ``madvise``, as on this machine) the
    first iteration of the 3bet preset took 10 CPU seconds instead of 2 (the kernel
    clearing and compacting pages), and the later ones were no faster for them."""
    n_bytes = size * np.dtype(dtype).itemsize
    if n_bytes == 0:
        return np.zeros(size, dtype)
    return np.frombuffer(mmap.mmap(-1, n_bytes), dtype)


class Solver:
    """Runs DCFR iterations on a game and measures its strategy."""

    # the precision of the training (CFR) walks' reaches and values; the measuring walks
    # are float64 (a test that two solves are the same to 1e-9 trains in float64 too)
    training: type[np.floating[Any]] = np.float32

    def __init__(
        self, game: PostflopGame, *, threads: int | None = None, schedule: str = "auto"
    ) -> None:
        if schedule not in SCHEDULES:
            raise GameError(f"the schedule is one of {', '.join(SCHEDULES)}, got {schedule!r}")
        self.game = game
        if schedule == "auto":  # a flop spot: three betting rounds
            schedule = "restart" if game.config.rounds >= 3 else "smooth"
        self.schedule = schedule
        size = game.storage_size
        if game.compressed:  # 16-bit numbers, a float32 scale per block
            self.g = game.arrays._replace(
                regrets=storage(size, np.int16),
                strategy=storage(size, np.uint16),
                regret_scale=np.zeros(game.blocks, np.float32),
                strategy_scale=np.zeros(game.blocks, np.float32),
            )
        else:
            self.g = game.arrays._replace(
                regrets=storage(size, np.float32), strategy=storage(size, np.float32)
            )
        self.iterations = 0
        most = max(os.cpu_count() or 1, 1) * 4
        if threads is not None and not 1 <= threads <= most:
            raise GameError(f"threads must be 1 to {most} on this machine, got {threads}")
        self.threads = threads or most
        self.mass = game.pair_mass()
        if self.mass <= 0:
            raise GameError("the two ranges share every card: no deal is possible")
        self._tasks = self._task_list()
        self._frames = [_loop.frames(self.g) for _ in range(self.threads)]
        self._pool = ThreadPoolExecutor(self.threads) if self.threads > 1 else None

    def _task_list(
        self,
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int32]]:
        tree = self.game.tree
        size = np.zeros(len(tree), np.int64)
        for i in range(len(tree) - 1, -1, -1):  # children come after their parent
            node = tree.nodes[i]
            own = len(node.children) if node.kind == DECISION else 1
            size[i] = own + sum(int(size[c]) for c in node.children)
        K = len(self.game.avail)
        rep = self.game.iso_rep[:K]
        tasks = [(int(size[a]), a, j) for a in self.game.slots for j in range(K) if rep[j] < 0]
        tasks.sort(key=lambda t: -t[0])
        nodes = np.array([a for _, a, _ in tasks], np.int64)
        cards = np.array([j for _, _, j in tasks], np.int64)
        slots = np.array([self.g.slot[a] for a in nodes], np.int32)
        # a mirrored card adds its walked card's values with the hands swapped
        task_of = {(a, j): i for i, (_, a, j) in enumerate(tasks)}
        mirrored = [
            (int(self.g.slot[a]), task_of[a, int(rep[j])], int(self.game.iso_swap[j]))
            for a in self.game.slots
            for j in range(K)
            if rep[j] >= 0
        ]
        columns = tuple(zip(*mirrored, strict=True)) or ((), (), ())
        self._mirrored = tuple(np.array(m, np.int64).reshape(-1) for m in columns)
        n = max(len(h) for h in self.game.hands)
        self._scratch_size = _loop.task_stack_size(self.g, nodes, n)
        self._scratch: dict[type[np.floating[Any]], list[npt.NDArray[np.floating]]] = {}
        return nodes, cards, slots

    def scratch(self, dtype: type[np.floating[Any]]) -> list[npt.NDArray[np.floating]]:
        """Each thread's scratch for the walks in ``dtype`` (made once)."""
        if dtype not in self._scratch:
            size = self._scratch_size
            self._scratch[dtype] = [np.empty(size, dtype) for _ in range(self.threads)]
        return self._scratch[dtype]

    # --- one walk from the root, threaded over the first street's chance nodes -------

    def root_values(self, mode: int, p: int, disc: Floats | None = None) -> Floats:
        """Player ``p``'s counterfactual value of each hand at the root. The CFR walks
        (training) keep reaches and values in float32, the measuring walks in float64."""
        g = self.g
        hands = self.game.hands
        dtype: type[np.floating[Any]] = self.training if mode == k.CFR else np.float64
        w_p = hands[p].weights.astype(dtype)
        w_o = hands[1 - p].weights.astype(dtype)
        out = np.zeros(len(w_p), dtype)
        disc = disc if disc is not None else np.zeros(3)
        slots = self.game.slots
        if not slots:
            _loop.walk_loop(g, 0, 0, mode, p, w_p, w_o, out, np.zeros((1, 1), dtype), False, disc)
            return out.astype(np.float64, copy=False)
        slots_p = np.zeros((len(slots), len(w_p)))
        slots_o = np.zeros((len(slots), len(w_o)))
        k.slot_reaches(g, 0, mode, p, hands[p].weights, hands[1 - p].weights, slots_p, slots_o)
        node, card, slot = self._tasks
        results = np.zeros((len(node), len(w_p)), dtype)
        scratch = self.scratch(dtype)
        counter = np.zeros(1, np.int64)

        def run(first: int) -> None:
            _loop.chance_tasks(
                g,
                node,
                card,
                counter,
                mode,
                p,
                slots_p,
                slots_o,
                results,
                disc,
                scratch[first],
                self._frames[first],
            )

        if self._pool is None:
            run(0)
        else:
            list(self._pool.map(run, range(self.threads)))
        cache = np.empty((len(slots), len(w_p)), dtype)
        to, task, swap = self._mirrored
        _loop.gather_tasks(results, slot, to, task, swap, (g.perm0, g.perm1)[p], cache)
        _loop.walk_loop(g, 0, 0, mode, p, w_p, w_o, out, cache, True, disc)
        return out.astype(np.float64, copy=False)

    def iterate(self) -> None:
        """One DCFR iteration: OOP's update, then IP's."""
        self.iterations += 1
        disc = discounts(self.iterations, self.schedule)
        for p in (0, 1):
            self.root_values(k.CFR, p, disc)

    # --- measuring -------------------------------------------------------------------

    def value(self, mode: int, p: int) -> float:
        """Player ``p``'s value (chips per hand pair) with ``mode``'s strategies."""
        out = self.root_values(mode, p)
        offset = k.zero_sum_offset(self.g, mode)
        return float(out @ self.game.hands[p].weights) / self.mass + offset

    def expected_values(self) -> Values:
        """Each player's expected chips (from the pot, less what it puts in after the
        spot began) when both play the average strategy."""
        return Values(self.value(k.AVERAGE, 0), self.value(k.AVERAGE, 1))

    def best_response_values(self) -> Values:
        return Values(self.value(k.BEST, 0), self.value(k.BEST, 1))

    def exploitability(self, ev: Values | None = None) -> float:
        """The mean gain of the two best responders over the average strategy, in
        chips. Without rake the two expected values add up to the pot, which spares
        their walks."""
        br = self.best_response_values()
        if ev is None:
            if self.game.config.rake_rate == 0:
                return (br.oop + br.ip - self.game.config.starting_pot) / 2
            ev = self.expected_values()
        return ((br.oop - ev.oop) + (br.ip - ev.ip)) / 2

    def run(
        self,
        iterations: int,
        *,
        target: float | None = None,
        every: int = 10,
        progress: Progress | None = None,
    ) -> tuple[float, bool]:
        """Iterate until ``iterations`` or until the exploitability is at most
        ``target`` (% of the starting pot), measured every ``every`` iterations and at
        the end. Ctrl-C stops after the iteration in progress. Returns the last
        exploitability (chips) and whether the run was interrupted."""
        if (
            isinstance(iterations, bool)
            or not isinstance(iterations, int)
            or not 1 <= iterations <= MAX_ITERATIONS
        ):
            raise GameError(f"iterations must be 1 to {MAX_ITERATIONS:,}, got {iterations!r}")
        if target is not None and not 0 < target < 1000:
            raise GameError(f"the target is a percentage of the pot above 0, got {target}")
        pot = self.game.config.starting_pot
        exploitability = float("nan")
        interrupted = False
        done = 0
        try:
            while done < iterations:
                self.iterate()
                done += 1
                measured: float | None = None
                if done % every == 0 or done == iterations:
                    exploitability = self.exploitability()
                    measured = 100 * exploitability / pot
                if progress:
                    progress(done, iterations, measured)
                if measured is not None and target is not None and measured <= target:
                    break
        except KeyboardInterrupt:
            interrupted = True
        if done and (interrupted or done % every):
            exploitability = self.exploitability()
        return exploitability, interrupted
