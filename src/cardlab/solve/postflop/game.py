"""A postflop spot with its cards: the hands, the deals, the showdown tables, the memory.

The game tree is the betting tree (:mod:`cardlab.solve.postflop.tree`) with every chance
node branching over every card the deck has left. It is never built: a node of it is an
abstract betting node ``a`` and a *deal index* ``k``, the cards chance dealt so far in
the order of ``avail`` (the cards not on the board): no card dealt is ``k = 0``; one card
is its index ``j`` in ``avail``; two cards (a turn, then a river) are
``k = j_turn * (K - 1) + j_river``, where ``j_river`` counts the cards left after the
turn. A decision node's storage (regrets and strategy sums, ``[action, hand]``) for deal
``k`` starts at ``offset[a] + slot(k) * stride[a]``, ``slot`` numbering the deals that
are kept.

Suit isomorphism: a swap of two suits that maps the board onto itself, each range onto
itself (weights included) and every showdown onto one of the same outcome (checked on
the showdown tables themselves, so a deck whose rules rank suits, such as FESCA's suit
tie-breaks, keeps its suits apart) makes the subtree after a card the mirror image of
the subtree after its swapped card. Of each such pair only the card of the lower suit
is walked (and stored); the other's values are the first's with the hands swapped. On
the flop QsJh2h, diamonds mirror clubs: 1,429 of 2,352 turn-river deals are walked.

Chance: for one pair of hands (h, o), every card neither holds nor the board shows is
equally likely, so the card dealt at level ``d`` (cards dealt before) has probability
``1 / (K - d - 4)`` (two-card hands), the same for every pair: the chance factor.

Showdowns: for each final board, each player's hands sorted by strength (the keys of
cardlab's evaluator on the deck's own rules: Mixwell and suit tie-breaks included), so
a showdown is two sweeps with per-card sums for card removal
(:func:`cardlab.solve.postflop._kernels.showdown_values`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from cardlab.cards import Card, format_cards
from cardlab.errors import GameError
from cardlab.poker.batch import evaluate_batch
from cardlab.poker.games import HOLDEM, Game
from cardlab.solve.postflop import _kernels as k
from cardlab.solve.postflop.ranges import WeightedRange
from cardlab.solve.postflop.tree import CHANCE, DECISION, ActionTree, TreeConfig

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Hands:
    """One player's hands (those the board does not block) and their weights."""

    cards: tuple[tuple[Card, ...], ...]  # two cards (one in a one-card game, :mod:`.small`)
    codes: npt.NDArray[np.int32]  # [hand, 2]
    weights: npt.NDArray[np.float64]

    def __len__(self) -> int:
        return len(self.cards)


@dataclass(frozen=True)
class Swap:
    """Two suits exchanged: the image of every card code, of every card left to deal (by
    its index in ``avail``) and of each player's hands (by index)."""

    suits: str
    cards: npt.NDArray[np.int64]
    avail: npt.NDArray[np.int64]
    hands: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]


def _hand_images(hands: Hands, cards: npt.NDArray[np.int64]) -> npt.NDArray[np.int64] | None:
    """Each hand's index after the swap ``cards``, or None if a hand's image is not in
    the range with the same weight."""
    index = {frozenset((int(a), int(b))): i for i, (a, b) in enumerate(hands.codes)}
    out = np.empty(len(hands), np.int64)
    for i, (a, b) in enumerate(hands.codes):
        j = index.get(frozenset((int(cards[a]), int(cards[b]))))
        if j is None or hands.weights[j] != hands.weights[i]:
            return None
        out[i] = j
    return out


class PostflopGame:
    """Two ranges on a board with a betting tree: the arrays the solver walks."""

    hole_cards = 2  # a hand's cards (one-card games: :mod:`.small`)

    def __init__(
        self,
        game: Game,
        board: tuple[Card, ...],
        ranges: tuple[WeightedRange, WeightedRange],
        config: TreeConfig,
        *,
        max_memory: int | None = None,
        isomorphism: bool = True,
        compressed: bool = False,
    ) -> None:
        if game.base != HOLDEM:
            raise GameError(f"the postflop solver plays Hold'em games, not {game.base.name}")
        if not 3 <= len(board) <= 5:
            raise GameError(f"a postflop board has 3, 4 or 5 cards, got {len(board)}")
        if len(set(board)) != len(board):
            raise GameError(f"a card is twice on the board {format_cards(board)!r}")
        deck = game.deck
        for card in board:
            deck.code(card)  # not in the deck: one error naming it
        if config.rounds != 6 - len(board):
            raise GameError(
                f"a board of {len(board)} cards leaves {6 - len(board)} betting rounds, "
                f"the tree has {config.rounds}"
            )
        self.game = game
        self.compressed = compressed
        self.board = board
        self.config = config
        self.tree = ActionTree(config)
        self.ranges = ranges
        on_board = {deck.code(c) for c in board}
        self.avail = np.array([i for i in range(len(deck)) if i not in on_board], np.int32)
        self.hands = tuple(self._hands(r, on_board) for r in ranges)
        for p, h in enumerate(self.hands):
            if not len(h):
                raise GameError(f"the {('OOP', 'IP')[p]} range has no hand the board leaves")
        self.levels = config.rounds - 1  # cards chance deals before the river
        K = len(self.avail)
        self.deals = [1, K, K * (K - 1)][: self.levels + 1]  # every deal, kept or mirrored
        self.deck_size = len(deck)
        self._prepare(max_memory, isomorphism)

    def _prepare(self, max_memory: int | None, isomorphism: bool) -> None:
        """The showdown tables, the deals walked, the memory (refused past
        ``max_memory``) and the arrays, once the hands and the tree are known."""
        self.tables = self.showdown_tables()
        self.swaps = self._swaps(self.tables[4]) if isomorphism else []
        self._isomorphic_deals()
        self.memory_bytes = self.estimate_memory()
        if max_memory is not None and self.memory_bytes > max_memory:
            raise GameError(
                f"this spot needs about {_size(self.memory_bytes)} of memory, more than the "
                f"{_size(max_memory)} allowed: use fewer bet sizes, narrower ranges or a "
                "later street"
            )
        self.arrays = self._arrays()

    # --- sizes -----------------------------------------------------------------------

    def _storage_layout(self) -> tuple[Ints, Ints, Ints, int, int]:
        """Per node: where its storage starts, the length of one deal of it, its first
        block (one block a deal: the scale of its compressed numbers); the storage's
        length and the number of blocks."""
        offset = np.zeros(len(self.tree), np.int64)
        stride = np.zeros(len(self.tree), np.int64)
        block0 = np.zeros(len(self.tree), np.int64)
        total = blocks = 0
        for i, node in enumerate(self.tree.nodes):
            if node.kind != DECISION:
                continue
            offset[i] = total
            stride[i] = len(node.children) * len(self.hands[node.player])
            total += self.kept_deals[node.round] * int(stride[i])
            block0[i] = blocks
            blocks += self.kept_deals[node.round]
        return offset, stride, block0, total, blocks

    def estimate_memory(self) -> int:
        """Bytes the solver holds: regrets and strategy sums (float32, or 16-bit numbers
        with a float32 scale per block when compressed) and the showdown tables, counted
        before anything of that size is allocated."""
        _, _, _, total, blocks = self._storage_layout()
        tables = self.table_bytes()
        if self.compressed:
            return 2 * (2 * total + 4 * blocks) + tables
        return 2 * 4 * total + tables

    def table_bytes(self) -> int:
        """Bytes of the showdown tables: per player its hands in strength order with their
        cards (three 16-bit numbers a hand, or 32-bit), their ranks and the two bounds per
        hand; the ranks by hand."""
        o0, r0, o1, r1, ranks = self.tables
        width = 2 if _narrow(max(o0.shape[1], o1.shape[1]), self.deck_size + 2) else 4
        per_player = (o.size * 3 * width + r.nbytes * 3 for o, r in ((o0, r0), (o1, r1)))
        return ranks.nbytes + sum(per_player)

    # --- building --------------------------------------------------------------------

    def _hands(self, r: WeightedRange, on_board: set[int]) -> Hands:
        deck = self.game.deck
        kept = [
            (c, w)
            for c, w in zip(r.combos, r.weights, strict=True)
            if deck.code(c[0]) not in on_board and deck.code(c[1]) not in on_board
        ]
        codes = np.array([[deck.code(a), deck.code(b)] for (a, b), _ in kept], np.int32)
        return Hands(
            tuple(c for c, _ in kept),
            codes.reshape(-1, 2),
            np.array([w for _, w in kept], np.float64),
        )

    def final_boards(self) -> npt.NDArray[np.int32]:
        """Every final board's card codes [board, 5] and, per final deal, its board row."""
        K = len(self.avail)
        base = np.array([self.game.deck.code(c) for c in self.board], np.int32)
        if self.levels == 0:
            return base.reshape(1, -1)
        if self.levels == 1:
            return np.column_stack([np.repeat(base[None, :], K, 0), self.avail])
        i, j = np.triu_indices(K, 1)
        return np.column_stack([np.repeat(base[None, :], len(i), 0), self.avail[i], self.avail[j]])

    def board_of_deal(self) -> npt.NDArray[np.int32]:
        K = len(self.avail)
        if self.levels < 2:
            return np.arange([1, K][self.levels], dtype=np.int32)
        k = np.arange(K * (K - 1))
        turn, j = k // (K - 1), k % (K - 1)
        river = np.where(j < turn, j, j + 1)
        lo, hi = np.minimum(turn, river), np.maximum(turn, river)
        # row of (lo, hi) in np.triu_indices(K, 1) order
        rows: npt.NDArray[np.int32] = (lo * (2 * K - lo - 1) // 2 + (hi - lo - 1)).astype(np.int32)
        return rows

    def showdown_tables(self) -> tuple[npt.NDArray[np.int32], ...]:
        """Per player: hands sorted by strength per final board, and their dense ranks
        (-1 for a hand the board blocks), ranks shared by both players' hands; last, the
        ranks by hand [board, OOP's hands then IP's]."""
        boards = self.final_boards()
        n_b = len(boards)
        both = np.concatenate(self.showdown_keys(boards), axis=1)
        ranks = np.empty_like(both, dtype=np.int32)
        for b in range(n_b):
            uniq, inverse = np.unique(both[b], return_inverse=True)
            ranks[b] = inverse - (1 if uniq[0] == -1 else 0)
            ranks[b][both[b] == -1] = -1
        n0 = len(self.hands[0])
        out = []
        for r in (ranks[:, :n0], ranks[:, n0:]):
            order = np.argsort(r, axis=1, kind="stable").astype(np.int32)
            out += [order, np.take_along_axis(r, order, axis=1).astype(np.int32)]
        return (*out, ranks)

    def showdown_bounds(self) -> tuple[npt.NDArray[np.int32], ...]:  # six arrays
        """Per final board and hand in strength order, where the opponent's weaker hands
        and its no stronger hands end in its strength order (OOP's, then IP's); where
        each player's hands the board leaves start."""
        _, r0, _, r1, _ = self.tables
        out: list[npt.NDArray[np.int32]] = []
        for mine, theirs in ((r0, r1), (r1, r0)):
            below = np.empty_like(mine)
            upto = np.empty_like(mine)
            for b in range(len(mine)):
                below[b] = np.searchsorted(theirs[b], mine[b], side="left")
                upto[b] = np.searchsorted(theirs[b], mine[b], side="right")
            out += [below, upto]
        valid = [(r < 0).sum(axis=1).astype(np.int32) for r in (r0, r1)]
        return (*out, *valid)

    def showdown_keys(self, boards: npt.NDArray[np.int32]) -> list[npt.NDArray[np.int64]]:
        """Per player, each hand's strength on each final board [board, hand] (higher
        wins; -1: the board holds one of its cards), by cardlab's evaluator."""
        n_b = len(boards)
        keys = []
        for hands in self.hands:
            n = len(hands)
            rows = np.empty((n_b, n, 7), np.uint8)
            rows[:, :, :2] = hands.codes[None, :, :]
            rows[:, :, 2:] = boards[:, None, :]
            blocked = (hands.codes[None, :, :, None] == boards[:, None, None, :]).any(axis=(2, 3))
            flat = rows.reshape(-1, 7).copy()
            flat[blocked.reshape(-1)] = np.arange(7, dtype=np.uint8)  # any 7 distinct cards
            key = evaluate_batch(flat, self.game.rules, check=False).reshape(n_b, n)
            key[blocked] = -1
            keys.append(key.astype(np.int64))
        return keys

    def _swaps(self, ranks: npt.NDArray[np.int32]) -> list[Swap]:
        """The swaps of two suits under which the spot is the same game (see the
        module's docstring): board, ranges with their weights, and showdowns."""
        deck = self.game.deck
        K = len(self.avail)
        where = {int(c): i for i, c in enumerate(self.avail)}
        board = {deck.code(c) for c in self.board}
        boards = self.final_boards()
        found = []
        for x, y in itertools.combinations(deck.suits, 2):
            cards = np.empty(len(deck), np.int64)
            ok = True
            for i, card in enumerate(deck.cards):
                suit = y if card.suit == x else x if card.suit == y else card.suit
                image = Card(suit, card.rank)
                if image not in deck:
                    ok = False
                    break
                cards[i] = deck.code(image)
            if not ok or {int(cards[c]) for c in board} != board:
                continue
            h0, h1 = (_hand_images(h, cards) for h in self.hands)
            if h0 is None or h1 is None:
                continue
            # the showdown tables: board b and hand h rank as swap(b) and swap(h)
            moved = np.array([where[int(cards[c])] for c in self.avail], np.int64)
            if self.levels == 0:
                rows = np.zeros(1, np.int64)
            elif self.levels == 1:
                rows = moved
            else:
                first, second = np.triu_indices(K, 1)
                lo = np.minimum(moved[first], moved[second])
                hi = np.maximum(moved[first], moved[second])
                rows = lo * (2 * K - lo - 1) // 2 + (hi - lo - 1)
            assert len(rows) == len(boards)
            columns = np.concatenate([h0, h1 + len(self.hands[0])])
            if not np.array_equal(ranks[rows][:, columns], ranks):
                continue
            found.append(Swap(f"{x.key}{y.key}", cards, moved, (h0, h1)))
        return found

    def _isomorphic_deals(self) -> None:
        """Which deals are walked: per chance node and card, -1 (walked) or the card
        whose subtree mirrors it and the swap between them; the kept deals' slots."""
        K = len(self.avail)
        size = K + K * (K - 1)
        self.iso_rep = np.full(size, -1, np.int64)
        self.iso_swap = np.zeros(size, np.int64)

        def mirror(base: int, cards: list[int], swaps: list[int]) -> None:
            for j, c in enumerate(cards):
                best, via = c, -1
                for t in swaps:
                    image = int(self.swaps[t].avail[c])
                    if image < best:
                        best, via = image, t
                if via >= 0:
                    self.iso_rep[base + j] = cards.index(best)
                    self.iso_swap[base + j] = via

        everything = list(range(K))
        mirror(0, everything, list(range(len(self.swaps))))
        if self.levels >= 2:
            for turn in range(K):
                fixing = [t for t, s in enumerate(self.swaps) if int(s.avail[turn]) == turn]
                mirror(K + turn * (K - 1), [c for c in everything if c != turn], fixing)
        self.deal_base = np.array([0, 1, 1 + K], np.int64)
        self.deal_slot = np.full(1 + size, -1, np.int64)
        self.deal_slot[0] = 0
        self.kept_deals = [1]
        if self.levels >= 1:
            kept = self.iso_rep[:K] < 0
            self.deal_slot[1 : 1 + K][kept] = np.arange(int(kept.sum()))
            self.kept_deals.append(int(kept.sum()))
        if self.levels >= 2:
            both = (self.iso_rep[K:] < 0) & np.repeat(self.iso_rep[:K] < 0, K - 1)
            self.deal_slot[1 + K :][both] = np.arange(int(both.sum()))
            self.kept_deals.append(int(both.sum()))

    def storage_base(self, a: int, deal: int) -> int:
        """Where node ``a``'s storage for the (kept) deal ``deal`` starts."""
        g = self.arrays
        slot = int(self.deal_slot[int(self.deal_base[self.tree.nodes[a].round]) + deal])
        if slot < 0:
            raise ValueError(f"deal {deal} of node {a} mirrors another: it has no storage")
        return int(g.offset[a]) + slot * int(g.stride[a])

    def _arrays(self) -> k.Arrays:
        tree = self.tree
        n = len(tree)
        kind = np.array([x.kind for x in tree.nodes], np.int8)
        player = np.array([x.player for x in tree.nodes], np.int8)
        n_child = np.array([len(x.children) for x in tree.nodes], np.int32)
        child_start = np.zeros(n, np.int32)
        children: list[int] = []
        for i, x in enumerate(tree.nodes):
            child_start[i] = len(children)
            children += x.children
        level = np.array([x.round for x in tree.nodes], np.int32)
        offset, stride, block0, self.storage_size, self.blocks = self._storage_layout()
        put_in = np.array([x.committed for x in tree.nodes], np.float64)
        slot = np.full(n, -1, np.int32)
        self.slots = [i for i, x in enumerate(tree.nodes) if x.kind == CHANCE and x.round == 0]
        for s, i in enumerate(self.slots):
            slot[i] = s
        K = len(self.avail)
        n_cards = self.deck_size
        # the tables a walk indexes with numbers it loads are unsigned: numba adds a
        # negative index's wrap-around to every load through a signed one (a third of
        # a showdown's time)
        c0 = self.hands[0].codes.astype(np.uint32)
        c1 = self.hands[1].codes.astype(np.uint32)
        index1 = {(int(a), int(b)): i for i, (a, b) in enumerate(c1)}
        same0 = np.array([index1.get((int(a), int(b)), -1) for a, b in c0], np.int32)
        index0 = {(int(a), int(b)): i for i, (a, b) in enumerate(c0)}
        same1 = np.array([index0.get((int(a), int(b)), -1) for a, b in c1], np.int32)
        held = 2 * self.hole_cards  # by the two players
        factor = np.array([1.0 / (K - d - held) for d in range(max(self.levels, 1))], np.float64)
        n_swaps = max(len(self.swaps), 1)
        perms = [np.tile(np.arange(len(h), dtype=np.uint32), (n_swaps, 1)) for h in self.hands]
        for t, swap in enumerate(self.swaps):
            perms[0][t], perms[1][t] = swap.hands
        o0, r0, o1, r1, _ = self.tables
        s0, s1 = (_by_strength(o, c) for o, c in ((o0, c0), (o1, c1)))
        below0, upto0, below1, upto1, valid0, valid1 = self.showdown_bounds()
        c = self.config
        return k.Arrays(
            kind,
            player,
            child_start,
            n_child,
            np.array(children, np.int64),
            level,
            offset,
            stride,
            put_in,
            slot,
            float(c.starting_pot),
            float(c.rake_rate),
            float(c.rake_cap) if c.rake_rate else 0.0,
            c0,
            c1,
            same0,
            same1,
            self.avail,
            factor,
            self.board_of_deal(),
            r0,
            r1,
            s0,
            s1,
            below0,
            upto0,
            below1,
            upto1,
            valid0,
            valid1,
            n_cards,
            self.deal_base,
            self.deal_slot,
            np.array([0, K], np.int64),
            self.iso_rep,
            self.iso_swap,
            perms[0],
            perms[1],
            np.zeros(0, np.float32),  # the storage is a solver's own
            np.zeros(0, np.float32),
            block0,
            np.zeros(0, np.float32),
            np.zeros(0, np.float32),
            np.zeros(0, np.int64),  # no node locked
            np.zeros(0, np.int64),
            np.zeros(0, np.float64),
        )

    # --- what the answers need -------------------------------------------------------

    def pair_mass(self) -> float:
        """Σ w(h) w(o) over the pairs of hands that share no card: the normaliser of
        every per-deal value."""
        values = np.empty(len(self.hands[0]))
        k.fold_values(self.arrays, 0, self.hands[1].weights, 1.0, values, k.scratch(self.arrays))
        return float(values @ self.hands[0].weights)


def _by_strength(
    order: npt.NDArray[np.int32], codes: npt.NDArray[np.uint32]
) -> npt.NDArray[np.uint16] | npt.NDArray[np.uint32]:
    """Per board, a player's hands by strength: (hand, first card, second card) side by
    side, as the showdown sweeps read them; uint16 where every number fits."""
    out = np.empty((*order.shape, 3), np.uint32)
    out[:, :, 0] = order
    out[:, :, 1:] = codes[order]
    return out.astype(np.uint16) if _narrow(order.shape[1], int(codes.max(initial=0)) + 1) else out


def _narrow(n_hands: int, n_cards: int) -> bool:
    """Whether the showdown tables' hands and cards fit 16-bit numbers."""
    return max(n_hands, n_cards) <= 2**16


def _size(n: int) -> str:
    return f"{n / 2**30:.2f} GiB" if n >= 2**30 else f"{n / 2**20:.1f} MiB"
