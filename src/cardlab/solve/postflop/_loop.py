"""The postflop walk as a loop, and the threads' tasks that run it (numba).

:func:`cardlab.solve.postflop._kernels.walk` is recursive, and a recursive call in
numba is dear: it passes every array of the walk's :class:`~._kernels.Arrays`
(hundreds of machine words) through the full calling convention, never inlined, about
0.15 µs a node, a quarter of a training iteration on the turn. :func:`walk_loop` visits
the same nodes in the same order and computes the same numbers in the same order (the
results are the same to the bit: tests compare them with :func:`~._kernels.walk`), with
an explicit stack of frames in place of the recursion: a frame is a node, the deal, the
next child or card to visit, and where its values, its two reaches and its scratch lie
in the one scratch array, laid out as the recursive walk lays them out.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types
from numba.extending import overload

from cardlab._sharing import borrowed, fetch_add
from cardlab.solve.postflop._kernels import (
    AVERAGE,
    BEST,
    CFR,
    CHANCE,
    FOLD,
    SHOWDOWN,
    Arrays,
    _jit,
    _mask,
    deal_card,
    fold_values,
    locked,
    showdown_values,
    showdown_zero_sum,
    stack_size,
    update,
)

__all__ = ["chance_tasks", "frames", "gather_tasks", "task_stack_size", "walk_loop"]

# a frame's columns: node, deal, next child (-1: not entered), where the node's values,
# the walker's reach, the opponent's reach and the node's scratch start in the stack,
# the lock index of a decision node
_NODE, _DEAL, _NEXT, _OUT, _RP, _RO, _TOP, _LOCK = range(8)


def frames(g: Arrays) -> Any:
    """The frame stack of :func:`_loop` for any walk of ``g``'s tree (a path is at most
    every node)."""
    return np.empty((g.kind.shape[0] + 1, 8), np.int64)


@_jit
def walk_loop(
    g: Arrays,
    a: Any,
    k: Any,
    mode: Any,
    p: Any,
    reach_p: Any,
    reach_o: Any,
    out: Any,
    cache: Any,
    use_cache: bool,
    disc: Any,
) -> int:
    """:func:`cardlab.solve.postflop._kernels.walk`, the same values into ``out``, as a
    loop."""
    n_p, n_o = reach_p.shape[0], reach_o.shape[0]
    n = max(n_p, n_o)
    stack = np.empty(stack_size(g, np.int64(a), n) + 2 * n_p + n_o, reach_p.dtype)
    stack[:n_p] = reach_p
    stack[n_p : n_p + n_o] = reach_o
    fr = np.empty((g.kind.shape[0] + 1, 8), np.int64)
    start = 2 * n_p + n_o
    # every array borrowed (no reference counts): the caller holds g, cache and disc,
    # and stack is read again below, so it outlives the walk
    _loop(
        borrowed(g),
        np.int64(a),
        np.int64(k),
        mode,
        p,
        borrowed(cache),
        use_cache,
        borrowed(disc),
        borrowed(stack),
        fr,
        np.int64(0),
        np.int64(n_p),
        np.int64(n_p + n_o),
        np.int64(start),
    )
    out[:] = stack[n_p + n_o : start]
    return 0


@_jit
def _loop(
    g: Arrays,
    root: Any,
    root_k: Any,
    mode: Any,
    p: Any,
    cache: Any,
    use_cache: bool,
    disc: Any,
    stack: Any,
    fr: Any,
    root_rp: Any,
    root_ro: Any,
    root_out: Any,
    root_top: Any,
) -> None:
    """The walk of :func:`cardlab.solve.postflop._kernels._walk` from ``(root,
    root_k)``: the reaches and the values of a node are ``stack`` slices at the offsets
    its frame keeps (the root's given), its scratch from the frame's top."""
    n_p = g.cards0.shape[0] if p == 0 else g.cards1.shape[0]
    n_o = g.cards1.shape[0] if p == 0 else g.cards0.shape[0]
    cards_p = g.cards0 if p == 0 else g.cards1
    cards_o = g.cards1 if p == 0 else g.cards0
    perm = g.perm0 if p == 0 else g.perm1
    f = stack.dtype.type  # the walk's precision, every scalar too
    zero = f(0.0)
    d = 0
    fr[0, _NODE] = root
    fr[0, _DEAL] = root_k
    fr[0, _NEXT] = -1
    fr[0, _OUT] = root_out
    fr[0, _RP] = root_rp
    fr[0, _RO] = root_ro
    fr[0, _TOP] = root_top
    while d >= 0:
        a = fr[d, _NODE]
        k = fr[d, _DEAL]
        nxt = fr[d, _NEXT]
        top = fr[d, _TOP]
        rp = fr[d, _RP]
        ro = fr[d, _RO]
        out = stack[fr[d, _OUT] : fr[d, _OUT] + n_p]
        reach_o = stack[ro : ro + n_o]
        kind = g.kind[a]
        if kind in (FOLD, SHOWDOWN):  # as _kernels._walk, inline (a call of a
            # function taking ``g`` passes all of it: 25% of an iteration)
            put_p = g.put_in[a, p]
            pot = g.starting_pot + g.put_in[a, 0] + g.put_in[a, 1]
            rake = min(pot * g.rake_rate, g.rake_cap)
            work = stack[top : top + 2 * (g.n_cards + 2)]
            offset = 0.5 * g.starting_pot if rake == 0.0 and mode != AVERAGE else 0.0
            if kind == FOLD:
                payoff = -put_p if g.player[a] == p else pot - rake - put_p
                fold_values(g, p, reach_o, payoff - offset, out, work)
            elif offset > 0.0:
                showdown_zero_sum(g, p, g.board_of_deal[k], reach_o, 0.5 * pot, out, work)
            else:
                net = pot - rake
                board = g.board_of_deal[k]
                showdown_values(
                    g, p, board, reach_o, net - put_p, 0.5 * net - put_p, -put_p, out, work
                )
            d -= 1
            continue
        reach_p = stack[rp : rp + n_p]
        if kind == CHANCE:
            if use_cache and g.slot[a] >= 0:
                out[:] = cache[g.slot[a]]
                d -= 1
                continue
            level = g.level[a]
            n_k = g.avail.shape[0] - level
            factor = f(g.chance_factor[level])
            ib = g.iso_base[level] + k * n_k
            sub_p = stack[top : top + n_p]
            sub_o = stack[top + n_p : top + n_p + n_o]
            at = top + n_p + n_o  # the values of each card
            values = stack[at : at + n_k * n_p].reshape((n_k, n_p))
            if nxt < 0:
                out[:] = 0.0
                j = 0
            else:  # card nxt walked: its values added
                card = deal_card(g, level, k, nxt)
                for h in range(n_p):
                    if cards_p[h, 0] != card and cards_p[h, 1] != card:
                        out[h] += factor * values[nxt, h]
                j = nxt + 1
            while j < n_k:
                if g.iso_rep[ib + j] >= 0:
                    j += 1
                    continue
                card = deal_card(g, level, k, j)
                if _mask(cards_o, reach_o, card, sub_o) <= 0.0 and mode != CFR:
                    values[j] = 0.0
                    j += 1
                    continue
                if mode == CFR:  # the walker's reach: only the update reads it
                    _mask(cards_p, reach_p, card, sub_p)
                break
            if j < n_k:
                fr[d, _NEXT] = j
                d += 1
                fr[d, _NODE] = g.children[g.child_start[a]]
                fr[d, _DEAL] = k * n_k + j
                fr[d, _NEXT] = -1
                fr[d, _OUT] = at + j * n_p
                fr[d, _RP] = top
                fr[d, _RO] = top + n_p
                fr[d, _TOP] = at + n_k * n_p
                continue
            for j in range(n_k):
                r = g.iso_rep[ib + j]
                if r < 0:
                    continue
                card = deal_card(g, level, k, j)
                swap = perm[g.iso_swap[ib + j]]
                for h in range(n_p):
                    if cards_p[h, 0] != card and cards_p[h, 1] != card:
                        out[h] += factor * values[r, swap[h]]
            d -= 1
            continue
        # a decision: [action, hand] arrays kept flat (a reshape is a call)
        start = g.child_start[a]
        n_act = np.int64(g.n_child[a])
        actor = g.player[a]
        n_actor = n_p if actor == p else n_o
        deal = g.deal_slot[g.deal_base[g.level[a]] + k]
        base = g.offset[a] + deal * g.stride[a]
        size = n_act * n_actor
        sigma = stack[top : top + size]
        top2 = top + size
        if nxt < 0 and (actor != p or mode != BEST):  # a best response plays none
            work = stack[top2 : top2 + n_actor]
            li = locked(g, base) if g.lock_base.shape[0] > 0 else -1
            fr[d, _LOCK] = li
            if li >= 0:
                sigma[:] = g.lock_values[g.lock_start[li] : g.lock_start[li] + size]
            elif mode == CFR:
                _regret_matching(g.regrets[base : base + size], n_act, sigma, work)
            else:
                _regret_matching(g.strategy[base : base + size], n_act, sigma, work)
        if actor != p:
            sub_o = stack[top2 : top2 + n_actor]
            at = top2 + n_actor  # the values of the action walked
            if nxt < 0:
                out[:] = 0.0
                i = 0
            else:
                values1 = stack[at : at + n_p]
                for h in range(n_p):
                    out[h] += values1[h]
                i = nxt + 1
            while i < n_act:
                total = zero
                row = sigma[i * n_actor : (i + 1) * n_actor]
                for h in range(n_actor):
                    sub_o[h] = reach_o[h] * row[h]
                    total += sub_o[h]
                if total <= 0.0 and mode != CFR:
                    i += 1
                    continue  # worth 0 (in CFR mode still walked: see _kernels)
                break
            if i < n_act:
                fr[d, _NEXT] = i
                d += 1
                fr[d, _NODE] = g.children[start + i]
                fr[d, _DEAL] = k
                fr[d, _NEXT] = -1
                fr[d, _OUT] = at
                fr[d, _RP] = rp
                fr[d, _RO] = top2
                fr[d, _TOP] = at + n_p
                continue
            d -= 1
            continue
        values = stack[top2 : top2 + n_act * n_p]
        at = top2 + n_act * n_p  # the walker's reach after the action walked
        i = nxt + 1
        if i < n_act:
            if mode == CFR:  # the walker's reach, which only the update reads
                sub_p = stack[at : at + n_p]
                row = sigma[i * n_p : (i + 1) * n_p]
                for h in range(n_p):
                    sub_p[h] = reach_p[h] * row[h]
            fr[d, _NEXT] = i
            d += 1
            fr[d, _NODE] = g.children[start + i]
            fr[d, _DEAL] = k
            fr[d, _NEXT] = -1
            fr[d, _OUT] = top2 + i * n_p
            fr[d, _RP] = at
            fr[d, _RO] = ro
            fr[d, _TOP] = at + n_p
            continue
        # row by row (an index a loop counts from 0 is never negative: no wrap-around
        # test, the loops vectorise), each hand's sum in the order of the actions
        if mode == BEST:
            out[:] = values[:n_p]
            for i in range(1, n_act):
                row = values[i * n_p : (i + 1) * n_p]
                for h in range(n_p):
                    if row[h] > out[h]:
                        out[h] = row[h]
        else:
            out[:] = zero
            for i in range(n_act):
                row = values[i * n_p : (i + 1) * n_p]
                weights = sigma[i * n_p : (i + 1) * n_p]
                for h in range(n_p):
                    out[h] += weights[h] * row[h]
            if mode == CFR and fr[d, _LOCK] < 0:
                _store_update(g, a, deal, base, n_act, n_p, disc, reach_p, sigma, values, out)
        d -= 1


@_jit
def _regret_matching(stored: Any, n_act: Any, sigma: Any, work: Any) -> None:
    """:func:`cardlab.solve.postflop._kernels.normalised` on flat ``[action, hand]``
    arrays, row by row: the same numbers in the same order."""
    n_h = stored.shape[0] // n_act
    f = sigma.dtype.type
    zero = f(0.0)
    total = work[:n_h]
    total[:] = zero
    for a in range(n_act):
        row = stored[a * n_h : (a + 1) * n_h]
        weights = sigma[a * n_h : (a + 1) * n_h]
        for h in range(n_h):
            r = max(f(row[h]), zero)
            weights[h] = r
            total[h] += r
    uniform = f(1.0) / f(n_act)
    for h in range(n_h):
        total[h] = f(1.0) / total[h] if total[h] > zero else zero
    for a in range(n_act):
        weights = sigma[a * n_h : (a + 1) * n_h]
        for h in range(n_h):
            t = total[h]
            weights[h] = weights[h] * t if t > 0 else uniform


def _store_update(
    g: Arrays,
    a: Any,
    deal: Any,
    base: Any,
    n_act: Any,
    n_p: Any,
    disc: Any,
    reach_p: Any,
    sigma: Any,
    values: Any,
    out: Any,
) -> None:
    """The DCFR update of decision ``a`` at ``deal`` (its storage from ``base``) into
    the storage, float32 (:func:`_update`) or compressed (16-bit numbers:
    :func:`cardlab.solve.postflop._kernels.update`). Compiled, the storage's type picks
    the one (:func:`_store_update_typed`): a walk compiles only its storage's update."""
    if g.regret_scale.shape[0] == 0:  # float32
        _plain_update(g, a, deal, base, n_act, n_p, disc, reach_p, sigma, values, out)
    else:
        _compressed_update(g, a, deal, base, n_act, n_p, disc, reach_p, sigma, values, out)


def _plain_update(
    g: Any,
    a: Any,
    deal: Any,
    base: Any,
    n_act: Any,
    n_p: Any,
    disc: Any,
    reach_p: Any,
    sigma: Any,
    values: Any,
    out: Any,
) -> None:
    size = n_act * n_p
    _update(
        g.regrets[base : base + size],
        g.strategy[base : base + size],
        disc,
        reach_p,
        sigma,
        values,
        out,
    )


def _compressed_update(
    g: Any,
    a: Any,
    deal: Any,
    base: Any,
    n_act: Any,
    n_p: Any,
    disc: Any,
    reach_p: Any,
    sigma: Any,
    values: Any,
    out: Any,
) -> None:
    shape = (n_act, n_p)
    block = g.block0[a] + deal
    update(g, base, block, disc, reach_p, sigma.reshape(shape), values.reshape(shape), out)


@overload(_store_update)
def _store_update_typed(
    g: Any,
    a: Any,
    deal: Any,
    base: Any,
    n_act: Any,
    n_p: Any,
    disc: Any,
    reach_p: Any,
    sigma: Any,
    values: Any,
    out: Any,
) -> Any:
    """:func:`_store_update` chosen by type when compiling: compressed storage holds
    integers (int16 regrets), float32 storage floats."""
    regrets = g.types[g.fields.index("regrets")]
    if isinstance(regrets.dtype, types.Integer):
        return _compressed_update
    return _plain_update


@_jit
def _update(
    regrets: Any, sums: Any, disc: Any, reach_p: Any, sigma: Any, values: Any, out: Any
) -> None:
    """:func:`cardlab.solve.postflop._kernels.update` of float32 storage on flat
    ``[action, hand]`` arrays (``regrets`` and ``sums``: the node's own), row by row."""
    n_p = out.shape[0]
    n_act = values.shape[0] // n_p
    f = values.dtype.type  # the walk's precision
    positive, negative, keep = f(disc[0]), f(disc[1]), f(disc[2])
    for i in range(n_act):
        r_row = regrets[i * n_p : (i + 1) * n_p]
        s_row = sums[i * n_p : (i + 1) * n_p]
        v_row = values[i * n_p : (i + 1) * n_p]
        w_row = sigma[i * n_p : (i + 1) * n_p]
        for h in range(n_p):
            r = r_row[h]
            r_row[h] = r * (positive if r > 0 else negative) + (v_row[h] - out[h])
            s_row[h] = s_row[h] * keep + reach_p[h] * w_row[h]


@_jit
def chance_tasks(
    g: Arrays,
    task_node: Any,
    task_card: Any,
    counter: Any,
    mode: int,
    p: int,
    slots_p: Any,
    slots_o: Any,
    results: Any,
    disc: Any,
    scratch: Any,
    fr: Any,
) -> None:
    """Phase 2: first-street chance nodes' children, one card each, largest first,
    each taken by the next free thread from the shared ``counter`` (int64 [1], from 0).
    The caller runs one call per thread (the GIL is released; a shared counter rather
    than ``prange``'s equal shares, the tasks' sizes being far apart). ``scratch``: this
    thread's own, :func:`task_stack_size` long; ``fr``: its frames (:func:`frames`)."""
    n_tasks = task_node.shape[0]
    empty = np.zeros((1, 1), scratch.dtype)
    g = borrowed(g)  # no reference counts on the shared arrays for the threads to share
    disc = borrowed(disc)
    stack = borrowed(scratch)  # nor on this thread's own scratch
    n_p = slots_p.shape[1]
    n_o = slots_o.shape[1]
    sub_p = stack[:n_p]  # the root's reaches and values, then the walk's scratch
    sub_o = stack[n_p : n_p + n_o]
    values = stack[n_p + n_o : 2 * n_p + n_o]
    cards_p = g.cards0 if p == 0 else g.cards1
    cards_o = g.cards1 if p == 0 else g.cards0
    factor = g.chance_factor[0]
    # no cache, as a bool known only at run time: a literal False would type (and
    # compile) _loop once more, beside the one walk_loop uses
    no_cache = n_tasks < 0
    while True:
        i = fetch_add(counter, 1)
        if i >= n_tasks:
            break
        a = task_node[i]
        j = task_card[i]
        s = g.slot[a]
        card = g.avail[j]
        out = borrowed(results[i])
        out[:] = 0.0
        if _mask(cards_o, slots_o[s], card, sub_o) <= 0.0 and mode != CFR:
            continue
        if mode == CFR:  # the walker's reach: only the update reads it
            _mask(cards_p, slots_p[s], card, sub_p)
        _loop(
            g,
            g.children[g.child_start[a]],
            np.int64(j),
            mode,
            p,
            empty,
            no_cache,
            disc,
            stack,
            fr,
            np.int64(0),
            np.int64(n_p),
            np.int64(n_p + n_o),
            np.int64(2 * n_p + n_o),
        )
        for h in range(n_p):
            if cards_p[h, 0] == card or cards_p[h, 1] == card:
                out[h] = 0.0
            else:
                out[h] = values[h] * factor


def task_stack_size(g: Arrays, task_node: Any, n: int) -> int:
    """The scratch :func:`chance_tasks` needs: each player's reach and the values at a
    task's root, then the deepest of the tasks' subtrees, with at most ``n`` hands a
    player."""
    deepest = 0
    for a in {int(x) for x in task_node}:
        deepest = max(deepest, int(stack_size(g, np.int64(g.children[g.child_start[a]]), n)))
    return deepest + 3 * n


@_jit
def gather_tasks(
    results: Any, slot: Any, to: Any, task: Any, swap: Any, perm: Any, cache: Any
) -> None:
    """Each first-street chance node's values: the sum of its cards' tasks, a mirrored
    card adding its walked card's values with the hands swapped (``perm[swap]``)."""
    cache[:] = 0.0
    n_h = cache.shape[1]
    for i in range(slot.shape[0]):
        row = cache[slot[i]]
        values = results[i]
        for h in range(n_h):
            row[h] += values[h]
    for m in range(to.shape[0]):
        row = cache[to[m]]
        values = results[task[m]]
        order = perm[swap[m]]
        for h in range(n_h):
            row[h] += values[order[h]]
