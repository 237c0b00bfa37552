"""Monte Carlo's dealt loops (private): every player holds one known combo (some of its
cards may be dealt at random) and the hash path applies.

The cards not in play sit in one array and each trial deals the random cards by a
partial Fisher-Yates shuffle of it (a uniform draw without replacement whatever order
the array was left in), so there is no rejection and nothing to reset. Each player's
known cards are summed once per block; a trial adds each dealt card's hash digits as
it is dealt (the board's once, for every player), never reading the dealt cards back
from the array it just shuffled (a load behind stores to computed places stalls the
pipeline: twice slower).

- :func:`plain_block` where suits never break ties and there is no Mixwell (the
  standard deck's rules): a key is the plain rank key unless the suit counts allow a
  flush, worked out on the spot from the flush suit's rank bits; a full board's five
  cards come from one generator output (:func:`~.draws.draw5`). Everything rare is
  written in the loop, in a few lines: the general loop's machinery for suits and
  Mixwells, or a call taking the named arrays, made the whole loop half as fast
  (standard52 AsAh v KsKh: 20 M showdowns a second against 42 M, same process).
- :func:`dealt_block` otherwise: the keys are settled lazily: a player's plain rank
  lookup bounds its key (suits only fill the key's lowest 20 bits, a flush or a Mixwell
  can only raise it), and the suits and the flush/Mixwell choice are worked out only for
  players the bounds leave in contention (a player ahead of everyone's bounds wins
  whatever its suits or flushes). The cards of a player's row are written only for that
  flush/Mixwell look.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from cardlab._sharing import borrowed
from cardlab.poker._kernels.bundle import KernelArrays, KernelScalars, rare_arrays
from cardlab.poker._kernels.draws import draw5, draw5_floors, draw16
from cardlab.poker._kernels.hashed import hash_masks, plan_suits, raise_rare_from, rare
from cardlab.poker._kernels.tally import SHARE_UNIT, SHARES, store, tally_top
from cardlab.poker.keys import SUITS_MASK

Array = Any  # numpy arrays typed loosely: numba-compiled code

_UNSETTLED = np.int64(1) << 62  # above every key: the bound of a key still to be raised


@njit(cache=True)
def dealt_block(
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
    """One block of :func:`~.sampling.monte_carlo` when every player holds one combo, on the hash
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
    rows, known, live, n_live, starts, slots = dealt_setup(combos, board, base_used, deck_size, arr)
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
    plain_view = borrowed(plain)  # for the call that settles a pot (see tally_top)
    out_view = borrowed(out)
    state = np.uint64(seed)
    buf = np.uint64(0)
    left = 0
    for _ in range(trials):
        # partial Fisher-Yates: the board's cards to live[:n_board], summed as dealt
        board_sum = 0
        board_w0 = 0
        board_w1 = 0
        for i in range(n_board):
            r, state, buf, left = draw16(state, buf, left, n_live - i)
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
                r, state, buf, left = draw16(state, buf, left, n_live - i)
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
            tally_top(plain_view, top, first, n_top, out_view)
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
    store(out, part)


@njit(cache=True)
def dealt_setup(
    combos: Array, board: Array, base_used: Array, deck_size: int, arr: KernelArrays
) -> tuple[Array, Array, Array, int, Array, Array]:  # pragma: no cover - compiled
    """What :func:`dealt_block` deals from: the players' rows (-1 where a card is
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
def plain_block(
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
    """:func:`dealt_block` where suits never break ties and there is no Mixwell (the
    standard deck's rules): a player's key is its plain rank key unless its suit counts
    allow a flush, so every key is found at once, in one pass, and the five cards of a
    full board are drawn from one random number (:func:`~.draws.draw5`)."""
    players, _, h = combos.shape
    nb = board.shape[0]
    width = h + nb
    per_card = arr.per_card
    lo_index = arr.lo_index
    hi_index = arr.hi_index
    rank_keys = arr.rank_keys
    n_lo_bits = sc.n_lo_bits
    lo_mask, hi_mask = hash_masks(n_lo_bits, sc.suit_shift)
    flush_add = sc.flush_test << sc.suit_shift
    flush_bits = ((sc.flush_test // 3) << 3) << sc.suit_shift
    rows, known, live, n_live, starts, _ = dealt_setup(combos, board, base_used, deck_size, arr)
    n_board = starts[0]
    m = starts[players]
    digit = per_card[:, 0].copy()
    known0 = known[:, 0].copy()
    keys = np.empty(players, np.int64)
    suit_of = per_card[:, 4].copy()
    rank_bit = per_card[:, 5].copy()
    flush_keys = arr.flush_keys
    suit_strength = arr.suit_strength
    n_suits = suit_strength.shape[0]
    suit_shift = sc.suit_shift
    known_ranks = np.zeros((players, n_suits), np.int64)  # rank bits of the known cards
    for p in range(players):
        for j in range(width):
            c = rows[p, j]
            if c >= 0:
                known_ranks[p, suit_of[c]] |= rank_bit[c]
    out = np.zeros((4, players), np.int64)  # the block's own (no cache lines shared)
    keys_view = borrowed(keys)  # for the call that settles a pot (see tally_top)
    out_view = borrowed(out)
    five = n_board == 5 and m == 5  # every dealt card on the board, five of them
    floor3, floor2 = draw5_floors(n_live) if five else (0, 0)
    state = np.uint64(seed)
    buf = np.uint64(0)
    left = 0
    for _ in range(trials):
        board_sum = 0
        if five:
            d0, d1, d2, d3, d4, state = draw5(state, n_live, floor3, floor2)
            c = live[d0]
            live[d0] = live[0]
            live[0] = c
            board_sum += digit[c]
            c = live[1 + d1]
            live[1 + d1] = live[1]
            live[1] = c
            board_sum += digit[c]
            c = live[2 + d2]
            live[2 + d2] = live[2]
            live[2] = c
            board_sum += digit[c]
            c = live[3 + d3]
            live[3 + d3] = live[3]
            live[3] = c
            board_sum += digit[c]
            c = live[4 + d4]
            live[4 + d4] = live[4]
            live[4] = c
            board_sum += digit[c]
        else:
            for i in range(n_board):
                r, state, buf, left = draw16(state, buf, left, n_live - i)
                c = live[i + r]
                live[i + r] = live[i]
                live[i] = c
                board_sum += digit[c]
        top = -1
        first = 0
        n_top = 0  # players holding the top key
        for p in range(players):
            total = known0[p] + board_sum
            for i in range(starts[p], starts[p + 1]):  # the player's own dealt cards
                r, state, buf, left = draw16(state, buf, left, n_live - i)
                c = live[i + r]
                live[i + r] = live[i]
                live[i] = c
                total += digit[c]
            key = rank_keys[hi_index[total >> n_lo_bits & hi_mask] + lo_index[total & lo_mask]]
            if (total + flush_add) & flush_bits != 0:  # five of a suit: the best flush
                suits = total >> suit_shift
                for u in range(n_suits):
                    if (suits >> (4 * u) & 15) >= 5:
                        ranks = known_ranks[p, u]
                        for i in range(n_board):
                            c = live[i]
                            if suit_of[c] == u:
                                ranks |= rank_bit[c]
                        for i in range(starts[p], starts[p + 1]):
                            c = live[i]
                            if suit_of[c] == u:
                                ranks |= rank_bit[c]
                        key = max(key, flush_keys[ranks] | suit_strength[u] * 0x11111)
            keys[p] = key
            if key > top:
                top = key
                first = p
                n_top = 1
            elif key == top:
                n_top += 1
        tally_top(keys_view, top, first, n_top, out_view)
    store(out, part)  # (the owner, used after the views: it outlives them)
