"""Monte Carlo showdowns behind :func:`cardlab.poker.equity.sample_equity` (private).

A call deals ``trials`` random showdowns in each of several blocks, one generator per
block seeded from the caller's numpy ``Generator`` (:mod:`.draws`: SplitMix64 and
exactly uniform ranges): the same seed gives the same result whatever the number of
threads.

Three loops, the same statistics (each trial is an independent uniform deal):

- when every player holds one known combo (some of its cards may be dealt at random)
  and the hash path applies, the dealt loops of :mod:`.sampling_dealt`: a partial
  shuffle of the cards left, hash digits summed as the cards are dealt;
  :func:`~.sampling_dealt.plain_block` where suits never break ties and there is no
  Mixwell, :func:`~.sampling_dealt.dealt_block` otherwise;
- the general block for everything else (ranges, the subset and Omaha paths): a
  combo picked per player (the whole pick again if two share a card), the other cards
  dealt with a per-card check against the cards in play. One copy of it per key method
  (:func:`_ranges_block_of`), each with only its method's code: a range of standard52
  Hold'em compiles neither Omaha's key nor the subsets path.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from cardlab import _serial_first
from cardlab.poker._kernels.bundle import (
    HASHED,
    OMAHA,
    SUBSETS,
    KernelArrays,
    KernelScalars,
    omaha_arrays,
    rare_arrays,
)
from cardlab.poker._kernels.draws import below
from cardlab.poker._kernels.hashed import hash_masks, plan_suits, raise_rare_from, rare
from cardlab.poker._kernels.omaha import PARTS_ROWS, omaha_key_of, omaha_key_plain
from cardlab.poker._kernels.sampling_dealt import dealt_block, plain_block
from cardlab.poker._kernels.showdowns import subsets_key
from cardlab.poker._kernels.tally import store, tally

Array = Any  # numpy arrays typed loosely: numba-compiled code


def _called(kernel: Any) -> Any:
    """``kernel`` compiled as a function of its own, called rather than inlined."""
    return njit(cache=True)(getattr(kernel, "py_func", kernel))  # (a plain function: no JIT)


# The general loops call the key functions of Omaha, of the subsets path and of rare hands
# as functions: inlined (numba's ``inline="always"`` types each copy again) they made its
# compile 62 s of CPU, called 20 s; a call a player a deal is little beside their work.
_omaha_key = _called(omaha_key_of)
_omaha_key_plain = _called(omaha_key_plain)
OMAHA_PLAIN = -1  # the general block's key method of Omaha without Mixwells (omaha_key_plain)
_subsets_key = _called(subsets_key)
_raise_rare = _called(raise_rare_from)


def monte_carlo(
    combos: Array,
    n_combos: Array,
    board: Array,
    base_used: Array,
    deck_size: int,
    arr: KernelArrays,
    sc: KernelScalars,
    seeds: Array,
    trials: int,
    general: bool,
) -> Array:
    """Tallies of ``trials`` random deals in each of ``len(seeds)`` blocks.

    ``combos``: players x combos x hole cards, -1 for a hole card dealt at random;
    each trial picks one combo per player uniformly among those sharing no card (a
    player with ``n_combos`` 1 holds its one combo). ``board``: the board, -1 for a
    card dealt at random. ``base_used``: 1 for cards out of play (dead cards, known
    board cards). Returns 4 x players (sole wins, shared wins, pot shares in
    SHARE_UNIT, shares squared) and a trailing count of rejected combo picks in
    ``[4, 0]``. ``general``: the general loop even where the dealt one applies (the
    tests hold the two to the same answers).

    Plain Python that picks the loop, then runs that loop's compiled kernel: one kernel
    for all three loops compiled all three whatever the question (the general loop, with
    Omaha's and every key method's code, is most of it: 60 of 90 s on two busy cores),
    where a question runs one (``cardlab ties``: the plain and the dealt loop).
    """
    args = (combos, n_combos, board, base_used, deck_size, arr, sc, seeds, trials)
    loop = loop_for(n_combos, deck_size, sc, general, omaha_lookup=arr.omaha_best.shape[0] > 0)
    # a first run of a command: the loop's serial twin while the loop compiles (for later)
    return _serial_first.call(loop, _SERIAL[loop], args)


def loop_for(
    n_combos: Array, deck_size: int, sc: KernelScalars, general: bool, omaha_lookup: bool = True
) -> Any:
    """The compiled kernel of :func:`monte_carlo`'s loop for this deal: the plain dealt
    loop, the dealt loop, or the general one of the deal's key method (see the module's
    docstring). Omaha has two: ``omaha_loop`` where no Mixwell is possible and the Omaha
    look-ups fit (``omaha_lookup``: standard52, the Stud-like decks), without the code of
    either, ``omaha_mixwell_loop`` otherwise."""
    dealt = sc.method == HASHED and not general and deck_size <= 0xFFFF  # 16-bit draws
    dealt = dealt and all(int(n) == 1 for n in n_combos)
    if dealt and not sc.suits_count and not sc.mixwell:
        return plain_loop
    if dealt:
        return dealt_loop
    if sc.method == OMAHA:
        return omaha_loop if omaha_lookup and not sc.mixwell else omaha_mixwell_loop
    return ranges_loop if sc.method == HASHED else subsets_loop


# The three loops' kernels, alike but for the block function each calls: numba compiles a
# kernel with every function it calls, so one kernel per loop (a shared one taking the
# block function as an argument would be compiled again for each, under one cache entry).


@njit(cache=True, parallel=True)
def plain_loop(
    combos: Array,
    n_combos: Array,
    board: Array,
    base_used: Array,
    deck_size: int,
    arr: KernelArrays,
    sc: KernelScalars,
    seeds: Array,
    trials: int,
) -> Array:  # pragma: no cover - compiled
    """:func:`monte_carlo` by :func:`~.sampling_dealt.plain_block`, a block a thread."""
    parts = np.zeros((seeds.shape[0], 5, combos.shape[0]), np.int64)
    for b in prange(seeds.shape[0]):
        plain_block(combos, board, base_used, deck_size, arr, sc, seeds[b], trials, parts[b])
    return _summed(parts)


@njit(cache=True, parallel=True)
def dealt_loop(
    combos: Array,
    n_combos: Array,
    board: Array,
    base_used: Array,
    deck_size: int,
    arr: KernelArrays,
    sc: KernelScalars,
    seeds: Array,
    trials: int,
) -> Array:  # pragma: no cover - compiled
    """:func:`monte_carlo` by :func:`~.sampling_dealt.dealt_block`, a block a thread."""
    parts = np.zeros((seeds.shape[0], 5, combos.shape[0]), np.int64)
    for b in prange(seeds.shape[0]):
        dealt_block(combos, board, base_used, deck_size, arr, sc, seeds[b], trials, parts[b])
    return _summed(parts)


@njit(cache=True, parallel=True)
def ranges_loop(
    combos: Array,
    n_combos: Array,
    board: Array,
    base_used: Array,
    deck_size: int,
    arr: KernelArrays,
    sc: KernelScalars,
    seeds: Array,
    trials: int,
) -> Array:  # pragma: no cover - compiled
    """:func:`monte_carlo` by the general block with the hash path's keys, a block a thread."""
    parts = np.zeros((seeds.shape[0], 5, combos.shape[0]), np.int64)
    for b in prange(seeds.shape[0]):
        _hashed_block(
            combos, n_combos, board, base_used, deck_size, arr, sc, seeds[b], trials, parts[b]
        )
    return _summed(parts)


@njit(cache=True, parallel=True)
def omaha_loop(
    combos: Array,
    n_combos: Array,
    board: Array,
    base_used: Array,
    deck_size: int,
    arr: KernelArrays,
    sc: KernelScalars,
    seeds: Array,
    trials: int,
) -> Array:  # pragma: no cover - compiled
    """:func:`monte_carlo` by the general block with Omaha's keys where no Mixwell is
    possible and the Omaha look-ups fit (:data:`~.omaha.omaha_key_plain`), a block a
    thread."""
    parts = np.zeros((seeds.shape[0], 5, combos.shape[0]), np.int64)
    for b in prange(seeds.shape[0]):
        _omaha_plain_block(
            combos, n_combos, board, base_used, deck_size, arr, sc, seeds[b], trials, parts[b]
        )
    return _summed(parts)


@njit(cache=True, parallel=True)
def omaha_mixwell_loop(
    combos: Array,
    n_combos: Array,
    board: Array,
    base_used: Array,
    deck_size: int,
    arr: KernelArrays,
    sc: KernelScalars,
    seeds: Array,
    trials: int,
) -> Array:  # pragma: no cover - compiled
    """:func:`monte_carlo` by the general block with Omaha's keys, Mixwells and all, a
    block a thread."""
    parts = np.zeros((seeds.shape[0], 5, combos.shape[0]), np.int64)
    for b in prange(seeds.shape[0]):
        _omaha_block(
            combos, n_combos, board, base_used, deck_size, arr, sc, seeds[b], trials, parts[b]
        )
    return _summed(parts)


@njit(cache=True, parallel=True)
def subsets_loop(
    combos: Array,
    n_combos: Array,
    board: Array,
    base_used: Array,
    deck_size: int,
    arr: KernelArrays,
    sc: KernelScalars,
    seeds: Array,
    trials: int,
) -> Array:  # pragma: no cover - compiled
    """:func:`monte_carlo` by the general block with the subsets path's keys, a block a thread."""
    parts = np.zeros((seeds.shape[0], 5, combos.shape[0]), np.int64)
    for b in prange(seeds.shape[0]):
        _subsets_block(
            combos, n_combos, board, base_used, deck_size, arr, sc, seeds[b], trials, parts[b]
        )
    return _summed(parts)


LOOPS = (plain_loop, dealt_loop, ranges_loop, omaha_loop, omaha_mixwell_loop, subsets_loop)
_SERIAL = {loop: _serial_first.twin(loop) for loop in LOOPS}  # (cardlab._serial_first)


@njit(cache=True)
def _summed(parts: Array) -> Array:  # pragma: no cover - compiled
    """The blocks' tallies added up (5 x players)."""
    tallies = np.zeros(parts.shape[1:], np.int64)
    for b in range(parts.shape[0]):
        tallies += parts[b]
    return tallies


def _ranges_block_of(method: int) -> Any:
    """The general block of one key ``method`` (``SUBSETS``, ``HASHED``, ``OMAHA`` or
    ``OMAHA_PLAIN``),
    compiled with that method's code only: numba drops the branches of the other methods
    before typing them (``method`` is a constant of the closure), so a range of a hashed
    game compiles neither Omaha's key function nor the subsets path's (21 and 7 of the
    general block's 47 s of CPU). Each method's copy has an entry of its own in numba's
    disk cache (the closure's constants are part of its key)."""

    @njit(cache=True)
    def block(
        combos: Array,
        n_combos: Array,
        board: Array,
        base_used: Array,
        deck_size: int,
        arr: KernelArrays,
        sc: KernelScalars,
        seed: int,
        trials: int,
        part: Array,
    ) -> None:  # pragma: no cover - compiled
        """One block of :func:`monte_carlo` in general (ranges, this key method): its
        tallies into ``part`` (5 x players), as the dealt loops."""
        players, _, h = combos.shape
        nb = board.shape[0]
        oa = omaha_arrays(arr)
        per_card = arr.per_card
        lo_index = arr.lo_index
        hi_index = arr.hi_index
        rank_keys = arr.rank_keys
        suit_plan = arr.suit_plan
        top_suits = arr.top_suits
        n_lo_bits = sc.n_lo_bits
        suit_shift = sc.suit_shift
        suits_count = sc.suits_count
        lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
        ra = rare_arrays(arr)
        state = np.uint64(seed)
        used = np.zeros(deck_size, np.int64)  # == stamp: in play this trial
        dealt = np.empty((players, h + nb), np.int64)
        keys = np.empty(players, np.int64)
        mix_of = np.zeros(16, np.int64)
        scratch = np.zeros((PARTS_ROWS, 5), np.int64)
        out = np.zeros((4, players), np.int64)  # the block's own (no cache lines shared)
        rejected = 0
        stamp = 0
        done = 0
        while done < trials:
            stamp += 1
            ok = True
            for p in range(players):
                pick = 0
                if n_combos[p] > 1:
                    pick, state = below(state, n_combos[p])
                for j in range(h):
                    c = combos[p, pick, j]
                    if c >= 0:
                        if used[c] == stamp or base_used[c]:
                            ok = False
                        used[c] = stamp
                    dealt[p, j] = c
            if not ok:
                rejected += 1
                continue
            # the board's hash digits and suit boards, summed once; not literal zeros: a
            # callee typed first with Literal[int](0) would be compiled twice (_raise_rare)
            board_sum = int(0)  # noqa: UP018, RUF046
            board_w0 = int(0)  # noqa: UP018, RUF046
            board_w1 = int(0)  # noqa: UP018, RUF046
            for j in range(nb):
                c = board[j]
                if c < 0:
                    c, state = below(state, deck_size)
                    while used[c] == stamp or base_used[c]:
                        c, state = below(state, deck_size)
                    used[c] = stamp
                for p in range(players):
                    dealt[p, h + j] = c
                if method == HASHED:  # (a constant: the other methods' copies drop this)
                    board_sum += per_card[c, 0]
                    board_w0 |= per_card[c, 1]
                    board_w1 |= per_card[c, 2]
            for p in range(players):
                total = board_sum
                w0 = board_w0
                w1 = board_w1
                for j in range(h):
                    c = dealt[p, j]
                    if c < 0:
                        c, state = below(state, deck_size)
                        while used[c] == stamp or base_used[c]:
                            c, state = below(state, deck_size)
                        used[c] = stamp
                        dealt[p, j] = c
                    if method == HASHED:
                        total += per_card[c, 0]
                        w0 |= per_card[c, 1]
                        w1 |= per_card[c, 2]
                if method == OMAHA:  # the arrays taken out of arr once: a read counts a reference
                    keys[p] = _omaha_key(dealt[p], scratch, sc, oa)
                    continue
                if method == OMAHA_PLAIN:
                    keys[p] = _omaha_key_plain(dealt[p], scratch, sc, oa)
                    continue
                if method == SUBSETS:
                    keys[p] = _subsets_key(dealt[p], arr)
                    continue
                place = hi_index[total >> n_lo_bits & hi_mask] + lo_index[total & lo_mask]
                key = rank_keys[place]
                if suits_count:
                    key |= plan_suits(suit_plan[place], w0, w1, top_suits)
                if rare(total >> suit_shift, sc):
                    key = _raise_rare(dealt[p], h + nb, total, w0, w1, mix_of, key, arr, sc, ra)
                keys[p] = key
            tally(keys, 1, out)
            done += 1
        store(out, part)
        part[4, 0] = rejected

    return block


_hashed_block = _ranges_block_of(HASHED)
_omaha_block = _ranges_block_of(OMAHA)
_omaha_plain_block = _ranges_block_of(OMAHA_PLAIN)
_subsets_block = _ranges_block_of(SUBSETS)
