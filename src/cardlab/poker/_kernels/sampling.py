"""Monte Carlo showdowns behind :func:`cardlab.poker.equity.sample_equity` (private).

A call deals ``trials`` random showdowns in each of several blocks, one generator per
block seeded from the caller's numpy ``Generator``: the same seed gives the same result
whatever the number of threads. The generator is SplitMix64 (every one of its 64 bits
passes BigCrush); a draw in ``0 .. n-1`` is Lemire's multiply-shift with its rejection
step on 32 bits of an output (:func:`_below`; the dealt loop: 16 bits, four draws an
output, :func:`_draw`), so every card and combo is picked with exactly equal
probability (no modulo bias).

Two loops, the same statistics (each trial is an independent uniform deal):

- :func:`_dealt_block`, when every player holds one known combo (some of its cards may
  be dealt at random) and the hash path applies: the cards not in play sit in one array
  and each trial deals the random cards by a partial Fisher-Yates shuffle of it (a
  uniform draw without replacement whatever order the array was left in), so there is no
  rejection and nothing to reset. Each player's known cards are summed once per block; a
  trial adds each dealt card's hash digits as it is dealt (the board's once, for every
  player), never reading the dealt cards back from the array it just shuffled (a load
  behind stores to computed places stalls the pipeline: twice slower). The keys are
  settled lazily: a player's plain rank lookup bounds its key (suits only fill the key's
  lowest 20 bits, a flush or a Mixwell can only raise it), and the suits and the
  flush/Mixwell choice are worked out only for players the bounds leave in contention (a
  player ahead of everyone's bounds wins whatever its suits or flushes). The cards of a
  player's row are written only for that flush/Mixwell look.
- :func:`_ranges_block` for everything else (ranges, the subset and Omaha paths): a
  combo picked per player (the whole pick again if two share a card), the other cards
  dealt with a per-card check against the cards in play.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, prange

from cardlab.poker._kernels.bundle import (
    HASHED,
    OMAHA,
    KernelArrays,
    KernelScalars,
    omaha_arrays,
    rare_arrays,
)
from cardlab.poker._kernels.hashed import hash_masks, plan_suits, raise_rare_from, rare
from cardlab.poker._kernels.omaha import PARTS_ROWS, omaha_key_of
from cardlab.poker._kernels.showdowns import key_of
from cardlab.poker._kernels.tally import SHARE_UNIT, SHARES, tally
from cardlab.poker.keys import SUITS_MASK

Array = Any  # numpy arrays typed loosely: numba-compiled code

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_LOW32 = (1 << 32) - 1
_UNSETTLED = np.int64(1) << 62  # above every key: the bound of a key still to be raised


@njit(cache=True, inline="always")
def _mix(state: Any) -> tuple[Any, Any]:
    """SplitMix64: (the next state, 64 random bits)."""
    state = state + _GOLDEN
    z = state
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def _scale(bits: Any, n: int, state: Any) -> tuple[int, Any]:
    """(a uniform integer in 0 .. n-1, the state) from 32 random ``bits``: Lemire's
    multiply-shift, drawing again in the rare case (probability < n / 2**32) that the
    low half of the product falls in the few values that would bias it."""
    product = bits * n
    low = product & _LOW32
    if low < n:
        floor = (_LOW32 + 1 - n) % n
        while low < floor:
            state, z = _mix(state)
            product = np.int64(z >> np.uint64(32)) * n
            low = product & _LOW32
    return product >> 32, state


@njit(cache=True, inline="always")
def _below(state: Any, n: int) -> tuple[int, Any]:
    """(a uniform integer in 0 .. n-1, the state), one draw."""
    state, z = _mix(state)
    return _scale(np.int64(z >> np.uint64(32)), n, state)


@njit(cache=True, parallel=True)
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
) -> Array:  # pragma: no cover - compiled
    """Tallies of ``trials`` random deals in each of ``len(seeds)`` blocks.

    ``combos``: players x combos x hole cards, -1 for a hole card dealt at random;
    each trial picks one combo per player uniformly among those sharing no card (a
    player with ``n_combos`` 1 holds its one combo). ``board``: the board, -1 for a
    card dealt at random. ``base_used``: 1 for cards out of play (dead cards, known
    board cards). Returns 4 x players (sole wins, shared wins, pot shares in
    SHARE_UNIT, shares squared) and a trailing count of rejected combo picks in
    ``[4, 0]``. ``general``: the general loop even where the dealt one applies (the
    tests hold the two to the same answers).
    """
    players = combos.shape[0]
    blocks = seeds.shape[0]
    dealt = sc.method == HASHED and not general and deck_size <= 0xFFFF  # 16-bit draws
    for p in range(players):
        dealt = dealt and n_combos[p] == 1
    parts = np.zeros((blocks, 5, players), np.int64)
    for b in prange(blocks):
        if dealt:
            _dealt_block(combos, board, base_used, deck_size, arr, sc, seeds[b], trials, parts[b])
        else:
            _ranges_block(
                combos, n_combos, board, base_used, deck_size, arr, sc, seeds[b], trials, parts[b]
            )
    tallies = np.zeros((5, players), np.int64)
    for b in range(blocks):
        tallies += parts[b]
    return tallies


@njit(cache=True, inline="always")
def _draw(state: Any, buf: Any, left: int, n: int) -> tuple[Any, Any, Any, int]:
    """(a uniform integer in 0 .. n-1 (n <= 2**16), the state, the buffer, its draws
    left): Lemire's multiply-shift on the next 16 bits of the buffer ``buf`` (four draws
    per generator output, refilled when ``left`` is 0), drawing again in the rare case
    (probability < n / 2**16) that the low half of the product falls in the few values
    that would bias it."""
    if left == 0:
        state, buf = _mix(state)
        left = 4
    product = np.int64(buf & np.uint64(0xFFFF)) * n
    buf = buf >> np.uint64(16)
    left -= 1
    low = product & 0xFFFF
    if low < n:
        floor = (0x10000 - n) % n
        while low < floor:
            if left == 0:
                state, buf = _mix(state)
                left = 4
            product = np.int64(buf & np.uint64(0xFFFF)) * n
            buf = buf >> np.uint64(16)
            left -= 1
            low = product & 0xFFFF
    return product >> 16, state, buf, left


@njit(cache=True)
def _dealt_block(
    combos: Array,
    board: Array,
    base_used: Array,
    deck_size: int,
    arr: KernelArrays,
    sc: KernelScalars,
    seed: int,
    trials: int,
    part: Array,
) -> None:  # pragma: no cover - compiled
    """One block of :func:`monte_carlo` when every player holds one combo, on the hash
    path: its tallies into ``part`` (5 x players).

    A function of its own, not inlined in the parallel loop: the arrays of ``arr`` are
    taken out once per block and the loop reads them as plain locals (read out of ``arr``
    on every deal, each counts a reference on an array the other threads count on too)."""
    players, _, h = combos.shape
    nb = board.shape[0]
    width = h + nb
    per_card = arr.per_card
    lo_index = arr.lo_index
    hi_index = arr.hi_index
    rank_keys = arr.rank_keys
    n_lo_bits = sc.n_lo_bits
    suit_shift = sc.suit_shift
    suits_count = sc.suits_count
    mixwell = sc.mixwell
    lo_mask, hi_mask = hash_masks(n_lo_bits, suit_shift)
    flush_add = sc.flush_test << suit_shift
    flush_bits = ((sc.flush_test // 3) << 3) << suit_shift
    ra = rare_arrays(arr)
    rows, known, live, n_live, starts, slots = _dealt_setup(
        combos, board, base_used, deck_size, arr
    )
    n_board = starts[0]
    m = starts[players]
    digit = per_card[:, 0].copy()
    board0 = per_card[:, 1].copy()
    board1 = per_card[:, 2].copy()
    known0 = known[:, 0].copy()
    known1 = known[:, 1].copy()
    known2 = known[:, 2].copy()
    suit_plan = arr.suit_plan
    top_suits = arr.top_suits
    suits = SUITS_MASK if suits_count else 0
    plain = np.empty(players, np.int64)
    places = np.empty(players, np.int64)  # of the plain keys in rank_keys (and suit_plan)
    sums = np.empty((players, 4), np.int64)
    lo = np.empty(players, np.int64)
    hi = np.empty(players, np.int64)
    mix_of = np.zeros(16, np.int64)
    out = np.zeros((4, players), np.int64)  # the block's own (no cache lines shared)
    state = np.uint64(seed)
    buf = np.uint64(0)
    left = 0
    for _ in range(trials):
        # partial Fisher-Yates: the board's cards to live[:n_board], summed as dealt
        board_sum = 0
        board_w0 = 0
        board_w1 = 0
        for i in range(n_board):
            r, state, buf, left = _draw(state, buf, left, n_live - i)
            c = live[i + r]
            live[i + r] = live[i]
            live[i] = c
            board_sum += digit[c]
            if suits_count:
                board_w0 |= board0[c]
                board_w1 |= board1[c]
        top = -1
        first = 0
        n_top = 0  # players holding the top plain key
        rare_any = False
        for p in range(players):
            total = known0[p] + board_sum
            w0 = known1[p] | board_w0
            w1 = known2[p] | board_w1
            for i in range(starts[p], starts[p + 1]):  # the player's own dealt cards
                r, state, buf, left = _draw(state, buf, left, n_live - i)
                c = live[i + r]
                live[i + r] = live[i]
                live[i] = c
                total += digit[c]
                if suits_count:
                    w0 |= board0[c]
                    w1 |= board1[c]
            place = hi_index[total >> n_lo_bits & hi_mask] + lo_index[total & lo_mask]
            key = rank_keys[place]
            plain[p] = key
            places[p] = place
            if key > top:
                top = key
                first = p
                n_top = 1
            elif key == top:
                n_top += 1
            sums[p, 0] = total
            sums[p, 1] = w0
            sums[p, 2] = w1
            is_rare = (total + flush_add) & flush_bits != 0
            if mixwell and not is_rare:
                is_rare = rare(total >> suit_shift, sc)
            sums[p, 3] = is_rare
            rare_any |= is_rare
        if not (rare_any or suits_count):  # the plain keys are the keys: settled
            if n_top == 1:
                out[0, first] += 1
                out[2, first] += SHARE_UNIT
                out[3, first] += SHARE_UNIT * SHARE_UNIT
            else:
                share = SHARES[n_top]
                for p in range(first, players):
                    if plain[p] == top:
                        out[1, p] += 1
                        out[2, p] += share
                        out[3, p] += share * share
            continue
        # most other deals are settled by the plain keys' bounds alone
        contenders = 0
        first = 0
        for p in range(players):
            if sums[p, 3] or plain[p] | suits >= top:
                if contenders == 0:
                    first = p
                contenders += 1
        if contenders > 1:
            # bounds of each key: [plain, plain + suits], unbounded for a possible
            # flush or Mixwell; work out one key at a time, the open one with the
            # highest bound first, until the winners are known. Written out here, not
            # called: an array bound to a function's argument counts a reference on
            # it (an atomic operation), and these are many arrays on every deal
            for p in range(players):
                lo[p] = plain[p]
                hi[p] = _UNSETTLED if sums[p, 3] else plain[p] | suits
            while True:
                top = lo[0]
                for p in range(1, players):
                    top = max(top, lo[p])
                contenders = 0
                pick = -1
                for p in range(players):
                    if hi[p] >= top:
                        if contenders == 0:
                            first = p
                        contenders += 1
                        if hi[p] != lo[p] and (
                            pick < 0 or hi[p] > hi[pick] or (hi[p] == hi[pick] and lo[p] < lo[pick])
                        ):
                            pick = p
                if contenders == 1 or pick < 0:
                    break
                key = plain[pick]
                if suits_count:
                    key |= plan_suits(
                        suit_plan[places[pick]], sums[pick, 1], sums[pick, 2], top_suits
                    )
                if sums[pick, 3]:  # a flush or a Mixwell may raise it: the cards are needed
                    for i in range(m):
                        column = slots[i, pick]
                        if column >= 0:
                            rows[pick, column] = live[i]
                    key = raise_rare_from(
                        rows[pick],
                        width,
                        sums[pick, 0],
                        sums[pick, 1],
                        sums[pick, 2],
                        mix_of,
                        key,
                        arr,
                        sc,
                        ra,
                    )
                lo[pick] = key
                hi[pick] = key
        if contenders == 1:
            out[0, first] += 1
            out[2, first] += SHARE_UNIT
            out[3, first] += SHARE_UNIT * SHARE_UNIT
        else:  # every contender's key is known and equal: they share the pot
            share = SHARES[contenders]
            for p in range(first, players):
                if hi[p] >= top:
                    out[1, p] += 1
                    out[2, p] += share
                    out[3, p] += share * share
    part[:4] = out


@njit(cache=True)
def _dealt_setup(
    combos: Array, board: Array, base_used: Array, deck_size: int, arr: KernelArrays
) -> tuple[Array, Array, Array, int, Array, Array]:  # pragma: no cover - compiled
    """What :func:`_dealt_block` deals from: the players' rows (-1 where a card is
    dealt), the known cards' hash-digit sums and suit boards (players x 3), the cards
    out of play ``live[:n_live]``, where each player's own dealt cards start among the
    dealt ones (``starts[0]``: the board's count, ``starts[players]``: all of them) and,
    per dealt card, its column in each row (-1: not in that row)."""
    players, _, h = combos.shape
    nb = board.shape[0]
    width = h + nb
    per_card = arr.per_card
    # the cards out of play, the rows' known cards and their sums
    in_play = base_used.copy()
    rows = np.zeros((players, width), np.int64)
    known = np.zeros((players, 3), np.int64)  # hash-digit sum, suit boards w0, w1
    for p in range(players):
        for j in range(width):
            c = combos[p, 0, j] if j < h else board[j - h]
            rows[p, j] = c
            if c >= 0:
                in_play[c] = 1
                known[p, 0] += per_card[c, 0]
                known[p, 1] |= per_card[c, 1]
                known[p, 2] |= per_card[c, 2]
    live = np.empty(deck_size, np.int64)
    n_live = 0
    for c in range(deck_size):
        if not in_play[c]:
            live[n_live] = c
            n_live += 1
    # the dealt cards: first the board's (every player's), then each player's own
    n_board = 0
    for j in range(nb):
        n_board += board[j] < 0
    starts = np.zeros(players + 1, np.int64)  # player p's own: dealt[starts[p]:starts[p+1]]
    starts[0] = n_board
    for p in range(players):
        starts[p + 1] = starts[p]
        for j in range(h):
            starts[p + 1] += combos[p, 0, j] < 0
    m = starts[players]
    slots = np.full((max(m, 1), players), -1, np.int64)  # dealt card -> column of each row
    i = 0
    for j in range(nb):
        if board[j] < 0:
            for p in range(players):
                slots[i, p] = h + j
            i += 1
    for p in range(players):
        for j in range(h):
            if combos[p, 0, j] < 0:
                slots[i, p] = j
                i += 1
    return rows, known, live, n_live, starts, slots


@njit(cache=True)
def _ranges_block(
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
    """One block of :func:`monte_carlo` in general (ranges, any key method): its tallies
    into ``part`` (5 x players), as :func:`_dealt_block`."""
    players, _, h = combos.shape
    nb = board.shape[0]
    hashed = sc.method == HASHED
    omaha = sc.method == OMAHA
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
                pick, state = _below(state, n_combos[p])
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
        board_sum = 0  # the board's hash digits and suit boards, summed once
        board_w0 = 0
        board_w1 = 0
        for j in range(nb):
            c = board[j]
            if c < 0:
                c, state = _below(state, deck_size)
                while used[c] == stamp or base_used[c]:
                    c, state = _below(state, deck_size)
                used[c] = stamp
            for p in range(players):
                dealt[p, h + j] = c
            if hashed:
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
                    c, state = _below(state, deck_size)
                    while used[c] == stamp or base_used[c]:
                        c, state = _below(state, deck_size)
                    used[c] = stamp
                    dealt[p, j] = c
                if hashed:
                    total += per_card[c, 0]
                    w0 |= per_card[c, 1]
                    w1 |= per_card[c, 2]
            if omaha:  # the arrays taken out of arr once: each read counts a reference
                keys[p] = omaha_key_of(dealt[p], scratch, sc, oa)
                continue
            if not hashed:
                keys[p] = key_of(dealt[p], mix_of, scratch, arr, sc)
                continue
            place = hi_index[total >> n_lo_bits & hi_mask] + lo_index[total & lo_mask]
            key = rank_keys[place]
            if suits_count:
                key |= plan_suits(suit_plan[place], w0, w1, top_suits)
            if rare(total >> suit_shift, sc):
                key = raise_rare_from(dealt[p], h + nb, total, w0, w1, mix_of, key, arr, sc, ra)
            keys[p] = key
        tally(keys, 1, out)
        done += 1
    part[:4] = out
    part[4, 0] = rejected
