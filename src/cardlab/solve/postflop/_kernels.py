"""The compiled walks of the postflop solver (numba), vectorised over hands.

One walk visits the betting tree for one player ``p`` with the reach of both players
and writes, for each of ``p``'s hands, its counterfactual value: the chips it ends with
(relative to its stack when the spot began), summed over the opponent's hands weighted
by their reach and by the chance of the cards dealt. Modes:

* ``CFR``: both play the current strategy (regret matching on the regrets); ``p``'s
  regrets and average strategy are updated by discounted CFR on the way back up;
* ``BEST``: ``p`` best-responds (the best action for each hand), the opponent plays its
  average strategy;
* ``AVERAGE``: both play their average strategy (expected values).

A subtree the opponent never reaches is worth 0 to ``p``; the value walks skip it, but
CFR walks it still: ``p``'s average strategy there must keep following its current one
(a line the opponent stopped playing, such as a raise it no longer makes, would keep
the average of the first iterations, and a best response would find it: folding the
nuts half the time to the raise never made).

A node of the walk is an abstract betting node ``a`` and a deal index ``k`` (which cards
chance dealt, :mod:`cardlab.solve.postflop.game`): its storage is at
``offset[a] + slot(k) * stride[a]``, ``[action, hand]``, so the tree with its cards is
never built; a card whose subtree mirrors another's under a swap of suits is not walked:
its values are the other's with the hands swapped. Terminal values take O(n) per node
after the hands were sorted once per board (:func:`showdown_values`), with where each
hand's weaker and no stronger opponent hands end looked up, not compared; card removal
is per-card sums of the opponent's reach.

**Precision**: a walk computes in the precision of the reaches, values and scratch it is
given, its scalars too (``out.dtype.type``: a float64 scalar in a float32 loop would
convert every number and halve the hands a vector instruction takes). The solver trains
(``CFR``) in float32, as the peer does, and measures (``BEST``, ``AVERAGE``) in float64,
so that exploitabilities match other engines' to 1e-9.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numba as nb
import numpy as np

from cardlab._sharing import borrowed

CFR, BEST, AVERAGE = 0, 1, 2
DECISION, CHANCE, FOLD, SHOWDOWN = 0, 1, 2, 3

# Hot paths are compiled once and cached on disk; fastmath lets sums vectorise.
_jit = nb.njit(cache=True, nogil=True, fastmath=True)


class Arrays(NamedTuple):
    """What a walk reads (and the two storage arrays it writes in CFR mode)."""

    kind: Any  # int8 [node]
    player: Any  # int8 [node]
    child_start: Any  # int32 [node]: first child in ``children``
    n_child: Any  # int32 [node]
    children: Any  # int64 (every index a walk passes on is int64: a cached recursive
    # function called with another integer type crashes, numba issue 6713)
    level: Any  # int32 [node]: cards dealt by chance before the node
    offset: Any  # int64 [node]: storage of a decision node (deal 0)
    stride: Any  # int64 [node]: storage of one deal of it (actions x hands)
    put_in: Any  # float64 [node, 2]: chips each player put in since the spot began
    slot: Any  # int32 [node]: a first-street chance node's slot in the cache, else -1
    starting_pot: float
    rake_rate: float
    rake_cap: float
    cards0: Any  # uint32 [hand, 2] of OOP (a missing second card is the deck size)
    cards1: Any  # uint32 [hand, 2] of IP (a missing second card is the deck size + 1)
    same0: Any  # int32 [hand]: IP's index of the same hand, or -1
    same1: Any  # int32 [hand]: OOP's index of the same hand, or -1
    avail: Any  # int32 [K]: the cards not on the board, in code order
    chance_factor: Any  # float64 [level]: the chance of one card dealt at that level
    board_of_deal: Any  # int32 [deal]: the final board's row in the showdown tables
    rank0: Any  # int32 [board, hand]: OOP's hands' strengths (-1: blocked by the board)
    rank1: Any
    sorted0: Any  # uint16 or uint32 [board, hand, 3]: OOP's hands by strength, weakest
    # first: (hand, its first card, its second card), side by side for the sweeps
    sorted1: Any
    below0: Any  # int32 [board, hand]: per hand of sorted0, IP's hands (in sorted1) weaker
    upto0: Any  # int32 [board, hand]: ... and those no stronger
    below1: Any  # the same for IP's hands against OOP's
    upto1: Any
    valid0: Any  # int32 [board]: where OOP's hands the board leaves start in sorted0
    valid1: Any
    n_cards: int  # the deck size
    deal_base: Any  # int64 [level]: where a level's deals start in deal_slot
    deal_slot: Any  # int64: a deal's slot in the storage (-1: mirrored, never walked)
    iso_base: Any  # int64 [level]: where a chance node's cards start in iso_rep
    iso_rep: Any  # int64: per chance node (by deal) and card: -1 (walked) or the
    # card whose subtree mirrors this one's (suit isomorphism)
    iso_swap: Any  # int64: the swap between them
    perm0: Any  # uint32 [swap, hand]: OOP's hands under each swap
    perm1: Any
    regrets: Any  # float32 storage (compressed: int16, times the block's scale / 32767)
    strategy: Any  # float32 storage: the average strategy's sums (compressed: uint16,
    # times the block's scale / 65535)
    block0: Any  # int64 [node]: a decision node's first block (one block a kept deal)
    regret_scale: Any  # float32 [block]: compressed: the largest |regret| of the block
    strategy_scale: Any  # float32 [block]: compressed: the largest strategy sum
    lock_base: Any  # int64, sorted: storage starts of locked nodes (node locking)
    lock_start: Any  # int64: where each locked node's strategy starts in lock_values
    lock_values: Any  # float64: [action, hand] strategies of the locked nodes


def scratch(g: Arrays) -> Any:
    """Scratch for :func:`fold_values` and :func:`showdown_values` called on their own."""
    return np.empty(2 * (g.n_cards + 2))


@_jit
def locked(g: Arrays, base: Any) -> Any:
    """The index of the locked node whose storage starts at ``base``, or -1."""
    n = g.lock_base.shape[0]
    if n == 0:
        return -1
    i = np.searchsorted(g.lock_base, base)
    if i < n and g.lock_base[i] == base:
        return i
    return -1


@_jit
def node_strategy(
    g: Arrays, mode: Any, base: Any, n_act: Any, n_h: Any, sigma: Any, work: Any
) -> Any:
    """The strategy a walk plays at a node: a locked node's own, else the current one
    (regret matching) in CFR mode, else the average. Returns the lock index or -1.
    ``work``: scratch of at least ``n_h``."""
    li = locked(g, base)
    shape = (np.int64(n_act), np.int64(n_h))
    if li >= 0:
        start = g.lock_start[li]
        for a in range(n_act):
            for h in range(n_h):
                sigma[a, h] = g.lock_values[start + a * n_h + h]
    elif mode == CFR:
        normalised(g.regrets[base : base + n_act * n_h].reshape(shape), sigma, work)
    else:
        normalised(g.strategy[base : base + n_act * n_h].reshape(shape), sigma, work)
    return li


@_jit
def normalised(stored: Any, sigma: Any, work: Any) -> None:
    """``stored`` ([action, hand]) as a strategy, into ``sigma``: each action in
    proportion to its positive part, uniform where none is positive. On the regrets it
    is regret matching, on the strategy sums (never negative) the average strategy; a
    compressed block's scale is the same for all its numbers, so it needs none. Loops
    over hands innermost, on 2-d views (indices a loop counts from 0 need no check for
    a negative index: the loops vectorise)."""
    n_act, n_h = stored.shape
    f = sigma.dtype.type  # the walk's precision (float32 in training), every scalar too
    zero = f(0.0)
    total = work[:n_h]
    total[:] = zero
    for a in range(n_act):
        for h in range(n_h):
            r = max(f(stored[a, h]), zero)
            sigma[a, h] = r
            total[h] += r
    uniform = f(1.0) / f(n_act)
    for h in range(n_h):
        total[h] = f(1.0) / total[h] if total[h] > zero else zero
    for a in range(n_act):
        for h in range(n_h):
            t = total[h]
            sigma[a, h] = sigma[a, h] * t if t > 0 else uniform


@_jit
def deal_card(g: Arrays, level: Any, k: Any, j: Any) -> Any:
    """The ``j``-th card left to deal at ``level`` after the deal ``k``."""
    if level == 0:
        return g.avail[j]
    turn = k  # level 1: k is the index of the first card dealt
    if level >= 2:
        turn = k // (g.avail.shape[0] - 1)
    r = j if j < turn else j + 1
    return g.avail[r]


@_jit
def _mask(cards: Any, reach: Any, card: int, out: Any) -> Any:
    """``reach`` with the hands holding ``card`` set to 0, into ``out``; its sum
    (in ``out``'s precision)."""
    f = out.dtype.type
    total = f(0.0)
    for h in range(reach.shape[0]):
        if cards[h, 0] == card or cards[h, 1] == card:
            out[h] = f(0.0)
        else:
            r = f(reach[h])
            out[h] = r
            total += r
    return total


@_jit
def fold_values(g: Arrays, p: int, reach_o: Any, payoff: float, out: Any, work: Any) -> None:
    """Each of ``p``'s hands: ``payoff`` times the opponent's reach it does not block.
    ``work``: scratch of at least the deck size + 2."""
    cards_p = g.cards0 if p == 0 else g.cards1
    cards_o = g.cards1 if p == 0 else g.cards0
    same = g.same0 if p == 0 else g.same1
    f = out.dtype.type
    pay = f(payoff)
    per_card = work[: g.n_cards + 2]
    per_card[:] = f(0.0)
    total = f(0.0)
    for o in range(reach_o.shape[0]):
        r = reach_o[o]
        total += r
        per_card[cards_o[o, 0]] += r
        per_card[cards_o[o, 1]] += r
    for h in range(out.shape[0]):
        mass = total - per_card[cards_p[h, 0]] - per_card[cards_p[h, 1]]
        if same[h] >= 0:
            mass += reach_o[same[h]]
        out[h] = pay * mass


@_jit
def showdown_values(
    g: Arrays,
    p: Any,
    board: Any,
    reach_o: Any,
    win: Any,
    tie: Any,
    lose: Any,
    out: Any,
    work: Any,
) -> None:
    """Each of ``p``'s hands at a showdown on ``board``: the opponent's reach it beats,
    ties and loses to (card removal by per-card sums), times the payoffs. O(n): one sweep,
    weakest first, with a pointer past the weaker hands and one past the no stronger.

    For a hand h holding cards c1, c2 and a set S of the opponent's hands, the reach of
    those sharing no card with h is ``sum(S) - S[c1] - S[c2] + r(h)``, where ``S[c]`` sums
    the hands holding card c and ``r(h)`` is the opponent's own h, if in S (it holds both
    cards, so it was taken off twice)."""
    if p == 0:
        same, hands_p = g.same0, g.sorted0[board]
        hands_o = g.sorted1[board]
        weaker, no_stronger = g.below0[board], g.upto0[board]
        first, first_o = g.valid0[board], g.valid1[board]
    else:
        same, hands_p = g.same1, g.sorted1[board]
        hands_o = g.sorted0[board]
        weaker, no_stronger = g.below1[board], g.upto1[board]
        first, first_o = g.valid1[board], g.valid0[board]
    n_p, n_o = hands_p.shape[0], hands_o.shape[0]
    m = g.n_cards + 2  # ``work``: scratch of at least twice that
    below = work[:m]  # per card: the reach of the weaker hands
    upto = work[m : 2 * m]  # per card: the reach of the hands no stronger
    f = out.dtype.type  # the walk's precision, every scalar too
    zero = f(0.0)
    below[:] = zero
    upto[:] = zero
    sum_below = zero
    sum_upto = zero
    lt = first_o
    le = first_o
    for i in range(first):
        out[hands_p[i, 0]] = zero
    gain_win = f(win - lose)
    gain_tie = f(tie - lose)
    lose_f = f(lose)
    for i in range(first, n_p):
        end = weaker[i]
        while lt < end:
            r = reach_o[hands_o[lt, 0]]
            sum_below += r
            below[hands_o[lt, 1]] += r
            below[hands_o[lt, 2]] += r
            lt += 1
        end = no_stronger[i]
        while le < end:
            r = reach_o[hands_o[le, 0]]
            sum_upto += r
            upto[hands_o[le, 1]] += r
            upto[hands_o[le, 2]] += r
            le += 1
        c1, c2 = hands_p[i, 1], hands_p[i, 2]
        h = hands_p[i, 0]
        twin = reach_o[same[h]] if same[h] >= 0 else zero
        wins = sum_below - below[c1] - below[c2]
        ties = sum_upto - upto[c1] - upto[c2] + twin - wins
        out[h] = gain_win * wins + gain_tie * ties
    if lose == 0.0:
        return
    while le < n_o:  # every valid hand: the totals
        r = reach_o[hands_o[le, 0]]
        sum_upto += r
        upto[hands_o[le, 1]] += r
        upto[hands_o[le, 2]] += r
        le += 1
    for i in range(first, n_p):
        h = hands_p[i, 0]
        twin = reach_o[same[h]] if same[h] >= 0 else zero
        out[h] += lose_f * (sum_upto - upto[hands_p[i, 1]] - upto[hands_p[i, 2]] + twin)


@_jit
def showdown_zero_sum(
    g: Arrays, p: Any, board: Any, reach_o: Any, half_pot: Any, out: Any, work: Any
) -> None:
    """:func:`showdown_values` less the starting pot's half per opponent hand, where no
    rake is taken: each hand wins ``half_pot`` from the opponent's weaker hands and loses
    it to the stronger, a tie is worth 0. Two sweeps, weakest first for the wins and
    strongest first for the losses, adding every opponent hand, of no reach too (a test
    to skip those mispredicts where reaches of 0 and not are mixed: 12% of an
    iteration, and adding 0 changes no sum). The starting pot's half is a constant of
    every hand pair, the same at every action (:func:`_walk` uses these where only
    differences of values count)."""
    if p == 0:
        hands_p = g.sorted0[board]
        hands_o = g.sorted1[board]
        weaker, no_stronger = g.below0[board], g.upto0[board]
        first, first_o = g.valid0[board], g.valid1[board]
    else:
        hands_p = g.sorted1[board]
        hands_o = g.sorted0[board]
        weaker, no_stronger = g.below1[board], g.upto1[board]
        first, first_o = g.valid1[board], g.valid0[board]
    n_p, n_o = hands_p.shape[0], hands_o.shape[0]
    f = out.dtype.type  # the walk's precision, every scalar too
    zero = f(0.0)
    half = f(half_pot)
    passed_by_card = work[: g.n_cards + 2]  # the reach of the opponent's hands passed
    passed_by_card[:] = zero
    for i in range(first):
        out[hands_p[i, 0]] = zero
    passed = zero
    o = first_o
    for i in range(first, n_p):  # wins: the weaker hands
        end = weaker[i]
        while o < end:
            r = reach_o[hands_o[o, 0]]
            passed += r
            passed_by_card[hands_o[o, 1]] += r
            passed_by_card[hands_o[o, 2]] += r
            o += 1
        c1, c2 = hands_p[i, 1], hands_p[i, 2]
        out[hands_p[i, 0]] = half * (passed - passed_by_card[c1] - passed_by_card[c2])
    passed_by_card[:] = zero
    passed = zero
    o = n_o
    for i in range(n_p - 1, first - 1, -1):  # losses: the stronger hands
        end = no_stronger[i]
        while o > end:
            o -= 1
            r = reach_o[hands_o[o, 0]]
            passed += r
            passed_by_card[hands_o[o, 1]] += r
            passed_by_card[hands_o[o, 2]] += r
        c1, c2 = hands_p[i, 1], hands_p[i, 2]
        out[hands_p[i, 0]] -= half * (passed - passed_by_card[c1] - passed_by_card[c2])


def zero_sum_offset(g: Arrays, mode: int) -> float:
    """What :func:`walk` leaves out of each hand pair's value in ``mode`` (chips): the
    starting pot's half in CFR and best-response walks when no rake is taken, else 0."""
    no_rake = g.rake_rate == 0.0 or g.rake_cap == 0.0
    return 0.5 * float(g.starting_pot) if no_rake and mode != AVERAGE else 0.0


@_jit
def stack_size(g: Arrays, a: Any, n: Any) -> Any:
    """The scratch :func:`_walk` takes below node ``a`` on its deepest path, with at most
    ``n`` hands a player (what each node carves out of the stack, summed down the path)."""
    kind = g.kind[a]
    if kind in (FOLD, SHOWDOWN):
        return 2 * (g.n_cards + 2)
    if kind == CHANCE:
        own = (2 + g.avail.shape[0] - g.level[a]) * n
        return own + stack_size(g, g.children[g.child_start[a]], n)
    deepest = 0
    for i in range(g.n_child[a]):
        deepest = max(deepest, stack_size(g, g.children[g.child_start[a] + i], n))
    return (2 * g.n_child[a] + 2) * n + deepest


@_jit
def walk(
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
    """The counterfactual values of ``p``'s hands at node ``(a, k)``, into ``out`` (see
    :func:`_walk`), every array read without reference counts (numba counts one, an
    atomic add, each time an array enters a call or a slice is taken of it: dozens per
    node of the walk, a tenth of its time, the scratch included)."""
    n = max(reach_p.shape[0], reach_o.shape[0])
    stack = np.empty(stack_size(g, np.int64(a), n), reach_p.dtype)
    return _walk_borrowed(g, a, k, mode, p, reach_p, reach_o, out, cache, use_cache, disc, stack)


@_jit
def _walk_borrowed(
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
    stack: Any,
) -> int:
    """:func:`_walk` from the root of a walk, every array borrowed (the caller holds
    them: a borrowed view of an array made here could outlive it)."""
    return _walk(
        borrowed(g),
        np.int64(a),
        np.int64(k),
        mode,
        p,
        borrowed(reach_p),
        borrowed(reach_o),
        borrowed(out),
        borrowed(cache),
        use_cache,
        borrowed(disc),
        borrowed(stack),
        np.int64(0),
    )


@_jit
def _walk(
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
    stack: Any,
    top: Any,
) -> int:
    """The counterfactual values of ``p``'s hands at node ``(a, k)``, into ``out``.

    ``disc``: (positive regret factor, negative regret factor, strategy-sum factor) of
    this iteration, for CFR mode. ``cache``: values of first-street chance nodes already
    computed (phase 2 of :func:`iterate`), read when ``use_cache``. ``stack[top:]``: the
    scratch this node and those below it take their temporaries from (no allocation in
    the walk), at least :func:`stack_size`."""
    kind = g.kind[a]
    n_p = out.shape[0]
    n_o = reach_o.shape[0]
    if kind in (FOLD, SHOWDOWN):
        put_p = g.put_in[a, p]
        pot = g.starting_pot + g.put_in[a, 0] + g.put_in[a, 1]
        rake = min(pot * g.rake_rate, g.rake_cap)
        work = stack[top : top + 2 * (g.n_cards + 2)]
        # CFR and best responses compare values of actions only: with no rake, they
        # take them less the starting pot's half per hand pair (see zero_sum_offset)
        offset = 0.5 * g.starting_pot if rake == 0.0 and mode != AVERAGE else 0.0
        if kind == FOLD:
            payoff = -put_p if g.player[a] == p else pot - rake - put_p
            fold_values(g, p, reach_o, payoff - offset, out, work)
        elif offset > 0.0:
            showdown_zero_sum(g, p, g.board_of_deal[k], reach_o, 0.5 * pot, out, work)
        else:
            net = pot - rake
            board = g.board_of_deal[k]
            showdown_values(g, p, board, reach_o, net - put_p, 0.5 * net - put_p, -put_p, out, work)
        return 0
    if kind == CHANCE:
        if use_cache and g.slot[a] >= 0:
            out[:] = cache[g.slot[a]]
            return 0
        level = g.level[a]
        child = g.children[g.child_start[a]]
        n_k = g.avail.shape[0] - level
        factor = out.dtype.type(g.chance_factor[level])
        cards_p = g.cards0 if p == 0 else g.cards1
        cards_o = g.cards1 if p == 0 else g.cards0
        perm = g.perm0 if p == 0 else g.perm1
        ib = g.iso_base[level] + k * n_k
        sub_p = stack[top : top + n_p]
        sub_o = stack[top + n_p : top + n_p + n_o]
        below = top + n_p + n_o + n_k * n_p
        values = stack[top + n_p + n_o : below].reshape((n_k, n_p))
        out[:] = 0.0
        for j in range(n_k):
            if g.iso_rep[ib + j] >= 0:
                continue
            card = deal_card(g, level, k, j)
            if _mask(cards_o, reach_o, card, sub_o) <= 0.0 and mode != CFR:
                values[j] = 0.0
                continue
            _mask(cards_p, reach_p, card, sub_p)
            _walk(
                g,
                child,
                k * n_k + j,
                mode,
                p,
                sub_p,
                sub_o,
                values[j],
                cache,
                use_cache,
                disc,
                stack,
                below,
            )
            for h in range(n_p):
                if cards_p[h, 0] != card and cards_p[h, 1] != card:
                    out[h] += factor * values[j, h]
        for j in range(n_k):
            r = g.iso_rep[ib + j]
            if r < 0:
                continue
            card = deal_card(g, level, k, j)
            swap = perm[g.iso_swap[ib + j]]
            for h in range(n_p):
                if cards_p[h, 0] != card and cards_p[h, 1] != card:
                    out[h] += factor * values[r, swap[h]]
        return 0
    # a decision
    start = g.child_start[a]
    n_act = np.int64(g.n_child[a])
    actor = g.player[a]
    n_actor = n_p if actor == p else n_o
    deal = g.deal_slot[g.deal_base[g.level[a]] + k]
    base = g.offset[a] + deal * g.stride[a]
    sigma = stack[top : top + n_act * n_actor].reshape((n_act, n_actor))
    top2 = top + n_act * n_actor
    li = node_strategy(g, mode, base, n_act, n_actor, sigma, stack[top2 : top2 + n_actor])
    if actor != p:
        sub_o = stack[top2 : top2 + n_actor]
        values1 = stack[top2 + n_actor : top2 + n_actor + n_p]
        below = top2 + n_actor + n_p
        out[:] = 0.0
        for i in range(n_act):
            total = out.dtype.type(0.0)
            for h in range(n_actor):
                sub_o[h] = reach_o[h] * sigma[i, h]
                total += sub_o[h]
            if total <= 0.0 and mode != CFR:
                continue  # worth 0 (in CFR mode still walked: see below)
            _walk(
                g,
                g.children[start + i],
                k,
                mode,
                p,
                reach_p,
                sub_o,
                values1,
                cache,
                use_cache,
                disc,
                stack,
                below,
            )
            for h in range(n_p):
                out[h] += values1[h]
        return 0
    values = stack[top2 : top2 + n_act * n_p].reshape((n_act, n_p))
    sub_p = stack[top2 + n_act * n_p : top2 + n_act * n_p + n_p]
    below = top2 + n_act * n_p + n_p
    for i in range(n_act):
        if mode == BEST:
            sub_p[:] = reach_p
        else:
            for h in range(n_p):
                sub_p[h] = reach_p[h] * sigma[i, h]
        _walk(
            g,
            g.children[start + i],
            k,
            mode,
            p,
            sub_p,
            reach_o,
            values[i],
            cache,
            use_cache,
            disc,
            stack,
            below,
        )
    if mode == BEST:
        for h in range(n_p):
            best = values[0, h]
            for i in range(1, n_act):
                if values[i, h] > best:
                    best = values[i, h]
            out[h] = best
        return 0
    for h in range(n_p):
        v = out.dtype.type(0.0)
        for i in range(n_act):
            v += sigma[i, h] * values[i, h]
        out[h] = v
    if mode == CFR and li < 0:
        update(g, base, g.block0[a] + deal, disc, reach_p, sigma, values, out)
    return 0


@_jit
def update(
    g: Arrays, base: Any, block: Any, disc: Any, reach_p: Any, sigma: Any, values: Any, out: Any
) -> None:
    """The DCFR update of one node and deal (its storage from ``base``, its ``block``):
    regrets discounted, plus each action's value less the node's; strategy sums
    discounted, plus the strategy weighted by the player's reach. Compressed, ``values``
    and ``sigma`` ([action, hand]) are overwritten with the new regrets and sums."""
    f = values.dtype.type  # the walk's precision
    positive, negative, keep = f(disc[0]), f(disc[1]), f(disc[2])
    n_act, n_p = values.shape
    regrets = g.regrets[base : base + n_act * n_p].reshape((n_act, n_p))
    sums = g.strategy[base : base + n_act * n_p].reshape((n_act, n_p))
    if g.regret_scale.shape[0] == 0:  # float32
        for i in range(n_act):
            for h in range(n_p):
                r = regrets[i, h]
                regrets[i, h] = r * (positive if r > 0 else negative) + (values[i, h] - out[h])
                sums[i, h] = sums[i, h] * keep + reach_p[h] * sigma[i, h]
        return
    # compressed: the numbers are steps of the block's scale, decoded, updated as in
    # float32, then encoded again
    r_step = g.regret_scale[block] / 32767.0
    s_step = g.strategy_scale[block] / 65535.0
    r_top = 0.0
    s_top = 0.0
    for i in range(n_act):
        for h in range(n_p):
            r = regrets[i, h] * r_step
            r = r * (positive if r > 0 else negative) + (values[i, h] - out[h])
            values[i, h] = r
            r_top = max(r_top, abs(r))
            x = sums[i, h] * s_step * keep + reach_p[h] * sigma[i, h]
            sigma[i, h] = x
            s_top = max(s_top, x)
    # encoded again, rounded to the nearest step, on the new largest magnitude as the
    # block's scale (regret matching and the average strategy need no scale)
    g.regret_scale[block] = r_top
    g.strategy_scale[block] = s_top
    r_to = 32767.0 / r_top if r_top > 0 else 0.0
    s_to = 65535.0 / s_top if s_top > 0 else 0.0
    for i in range(n_act):
        for h in range(n_p):
            regrets[i, h] = np.int16(round(values[i, h] * r_to))
            sums[i, h] = np.uint16(round(sigma[i, h] * s_to))


@_jit
def slot_reaches(
    g: Arrays, a: int, mode: int, p: int, reach_p: Any, reach_o: Any, slots_p: Any, slots_o: Any
) -> None:
    """Walk the first street only and keep the reach of both players at each of its
    chance nodes (phase 1 of an iteration): the strategies are those ``walk`` uses."""
    kind = g.kind[a]
    if kind == CHANCE:
        s = g.slot[a]
        if s >= 0:
            slots_p[s] = reach_p
            slots_o[s] = reach_o
        return
    if kind != DECISION:
        return
    start = g.child_start[a]
    n_act = np.int64(g.n_child[a])  # int64, as a node view's call: one node_strategy
    actor = g.player[a]
    n_actor = reach_p.shape[0] if actor == p else reach_o.shape[0]
    sigma = np.empty((n_act, n_actor))
    node_strategy(g, mode, g.offset[a], n_act, n_actor, sigma, np.empty(n_actor))
    for i in range(n_act):
        child = g.children[start + i]
        if actor == p:
            sub = reach_p.copy() if mode == BEST else reach_p * sigma[i]
            slot_reaches(g, child, mode, p, sub, reach_o, slots_p, slots_o)
        else:
            slot_reaches(g, child, mode, p, reach_p, reach_o * sigma[i], slots_p, slots_o)
