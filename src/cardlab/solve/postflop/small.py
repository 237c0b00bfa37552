"""Kuhn, Leduc and the other one-card games of :mod:`cardlab.solve.games` on the
postflop engine: the same betting tree, the same arrays and the same DCFR walks.

A small game deals one private card to each player and, before each betting round after
the first, one public card; its rounds are fixed-limit (a bet of ``bet`` chips, raises
of ``bet`` more, at most ``cap`` bets and raises). It becomes a postflop spot with an
empty board:

* the tree is :class:`~cardlab.solve.postflop.tree.ActionTree`'s, with constant sizes:
  bets ``{bet}c`` and raises ``{bet}c{cap - 1}r`` each round (``Nr`` allows N raises
  after the first bet: ``cap`` bets and raises in all), a starting
  pot of both antes and a stack no bet reaches before the caps do;
* a hand is one card (its second card is the deck size, a card no one holds); each card
  of the game is one hand of weight 1 for each player, so a pair of hands is a deal;
* chance deals one of the game's cards neither player holds: ``1 / (K - d - 2)`` for
  the ``d``-th public card of ``K`` cards in play;
* a showdown ranks the private card with the public cards by
  :func:`cardlab.solve.hands.hand_key` (the order :mod:`cardlab.solve`'s CFR+ uses).

So the expected values the solver reports are chips from the pot: player 1's value in
the game (what it wins or loses, ante included) is OOP's EV less the ante. The walks are
:class:`~cardlab.solve.postflop.solver.Solver`'s: discounted CFR with the same
discounting, alternating updates, exact best responses.

>>> from cardlab.solve import get_game
>>> result = solve_small(get_game("kuhn"), 2000, target=1e-4)
>>> round(result.value, 3), result.exploitability <= 1e-4
(-0.056, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from cardlab.cards import Card
from cardlab.errors import GameError
from cardlab.solve.games import PokerGame
from cardlab.solve.hands import hand_key
from cardlab.solve.postflop import _kernels as k
from cardlab.solve.postflop.game import Hands, PostflopGame
from cardlab.solve.postflop.sizes import StreetSizes, parse_sizes
from cardlab.solve.postflop.solver import Solver
from cardlab.solve.postflop.tree import CHANCE, DECISION, MAX_ROUNDS, ActionTree, TreeConfig

Floats = npt.NDArray[np.float64]


def small_tree_config(game: PokerGame) -> TreeConfig:
    """The betting of ``game`` in the postflop tree's terms (see the module text)."""
    sizes = []
    for r in game.rounds:
        bets = f"{r.bet}c" if r.cap >= 1 else ""
        raises = f"{r.bet}c{r.cap - 1}r" if r.cap >= 2 else ""
        street = StreetSizes(parse_sizes(bets), parse_sizes(raises, raise_sizes=True))
        sizes.append((street, street))
    most = sum(r.bet * r.cap for r in game.rounds)
    return TreeConfig(2 * game.ante, most + 1, len(game.rounds), tuple(sizes))


class SmallGame(PostflopGame):
    """A one-card game of :mod:`cardlab.solve.games` as the arrays the postflop solver
    walks (see the module text)."""

    hole_cards = 1

    def __init__(
        self, game: PokerGame, *, max_memory: int | None = None, compressed: bool = False
    ) -> None:
        public = [r.public for r in game.rounds]
        if game.private != 1 or public[0] != 0 or any(p != 1 for p in public[1:]):
            raise GameError(
                f"the postflop engine plays games of one private card and one public card "
                f"before each round after the first; {game.name} deals {game.private} "
                f"private and {public} public"
            )
        if len(game.rounds) > MAX_ROUNDS:
            raise GameError(f"the postflop engine plays at most {MAX_ROUNDS} rounds")
        if game.ante < 1:
            raise GameError(f"the postflop engine needs an ante of at least 1, {game.name} has 0")
        self.small = game
        self.compressed = compressed
        self.board: tuple[Card, ...] = ()
        self.config = small_tree_config(game)
        self.tree = ActionTree(self.config)
        deck = game.deck
        codes = np.array([deck.code(c) for c in game.cards], np.int32)
        self.avail = np.sort(codes)
        n = len(deck)
        self.hands = tuple(
            Hands(
                tuple((c,) for c in game.cards),
                np.column_stack([codes, np.full(len(codes), n + p, np.int32)]),
                np.ones(len(codes)),
            )
            for p in (0, 1)
        )
        self.levels = self.config.rounds - 1
        K = len(self.avail)
        self.deals = [1, K, K * (K - 1)][: self.levels + 1]
        self.deck_size = n
        self._prepare(max_memory, isomorphism=False)

    def showdown_keys(self, boards: npt.NDArray[np.int32]) -> list[npt.NDArray[np.int64]]:
        """Each private card's strength with each final board's public cards (-1: the
        board holds it), as dense integers of :func:`~cardlab.solve.hands.hand_key`."""
        deck, rules = self.small.deck, self.small.rules
        cards = [deck.cards[int(c)] for c in self.hands[0].codes[:, 0]]
        keys: dict[tuple[int, ...], int] = {}
        raw = []
        for board in boards:
            public = [deck.cards[int(c)] for c in board]
            row = [None if c in public else hand_key([c, *public], rules) for c in cards]
            raw.append(row)
            keys.update((key, 0) for key in row if key is not None)
        dense = {key: i for i, key in enumerate(sorted(keys))}
        table = np.array([[-1 if x is None else dense[x] for x in row] for row in raw], np.int64)
        return [table.reshape(len(boards), len(cards))] * 2

    def deal_of(self, public: Sequence[Card]) -> int:
        """The deal index of the public cards dealt so far, in order."""
        codes = [self.small.deck.code(c) for c in public]
        left = [int(c) for c in self.avail]
        deal = 0
        for code in codes:
            deal = deal * len(left) + left.index(code)
            left.remove(code)
        return deal


@dataclass(frozen=True)
class SmallSolution:
    """A small game solved on the postflop engine."""

    game: SmallGame
    solver: Solver
    exploitability: float  # chips per deal: the mean gain of the two best responses
    interrupted: bool = False

    @property
    def iterations(self) -> int:
        return self.solver.iterations

    @property
    def value(self) -> float:
        """Player 1's expected chips per deal (the ante included) in the average
        strategy."""
        return self.solver.expected_values().oop - self.game.small.ante

    def strategy(self, node: int, deal: int) -> Floats:
        """The average strategy ``[action, hand]`` at betting node ``node`` after the
        public cards of deal index ``deal`` (:meth:`SmallGame.deal_of`)."""
        tree = self.game.tree.nodes[node]
        if tree.kind != DECISION:
            raise GameError(f"node {node} is not a decision")
        n_h = len(self.game.hands[tree.player])
        sigma = np.empty((len(tree.children), n_h))
        base = self.game.storage_base(node, deal)
        g = self.solver.g
        k.node_strategy(g, k.AVERAGE, base, sigma.shape[0], n_h, sigma, np.empty(n_h))
        return sigma

    def walk(self, actions: Sequence[str | Card]) -> tuple[int, int]:
        """(betting node, deal index) after ``actions`` from the root: the labels of the
        tree's actions (``k``, ``b2``, ``c``, ...) and the public cards, in order."""
        nodes = self.game.tree.nodes
        a, public = 0, []
        for item in actions:
            node = nodes[a]
            if node.kind == CHANCE:
                if not isinstance(item, Card):
                    raise GameError(f"a public card is dealt here, got {item!r}")
                public.append(item)
                a = node.children[0]
            elif node.kind == DECISION and item in node.actions:
                a = node.children[node.actions.index(str(item))]
            else:
                raise GameError(f"no action {item!r} at {self.game.tree.describe(a)!r}")
        return a, self.game.deal_of(public)


def solve_small(
    game: PokerGame,
    iterations: int,
    *,
    target: float | None = None,
    threads: int | None = None,
) -> SmallSolution:
    """Discounted CFR on ``game`` for ``iterations``, or until the exploitability is at
    most ``target`` chips per deal (measured every 10 iterations)."""
    if target is not None and not target > 0:
        raise GameError(f"the target exploitability must be above 0 chips, got {target}")
    spot = SmallGame(game)
    solver = Solver(spot, threads=threads)
    pot = spot.config.starting_pot
    percent = None if target is None else 100 * target / pot
    chips, interrupted = solver.run(iterations, target=percent)
    return SmallSolution(spot, solver, chips, interrupted)
