"""The public tree of a small poker game, laid out as arrays for vectorised CFR.

Every action of these games is public, so a player's information set is a *public
node* (the betting so far and the public cards) together with the player's private
hand. The tree built here has one node per public history; the private hands live in
the second axis of every array the solver keeps (``[node, hand]``), so one numpy
operation handles all hands of all nodes of a depth at once.

Chance is folded into the leaves: every deal of private and public cards that
shares no card is equally likely, so a leaf's value for hand ``h`` against the
opponent's reach ``π(o)`` is ``w_b · Σ_o M_b[h, o] π(o)``, where ``w_b`` is the
probability of one such deal up to board ``b`` and ``M_b`` is 0 for hands that
share a card with each other or with the board. At a fold ``M_b`` is that 0/1 mask
times the chips lost; at a showdown it is the mask times the sign of the hand
comparison (+1, 0, -1), an antisymmetric matrix, times the chips each put in.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from cardlab.solve.games import PokerGame
from cardlab.solve.hands import hand_key

FOLD, CHECK, CALL, BET, RAISE = "f", "k", "c", "b", "r"
ACTION_NAMES = {FOLD: "fold", CHECK: "check", CALL: "call", BET: "bet", RAISE: "raise"}
MAX_ACTIONS = 3

DECISION, CHANCE, FOLDED, SHOWDOWN = 0, 1, 2, 3

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass
class Node:
    """One public history: who acts (or chance, or the end) and what was put in."""

    kind: int
    player: int  # the player to act, or the one who folded; -1 otherwise
    parent: int
    action: int  # index of this node among its parent's children
    depth: int
    board: int  # board id: the public cards dealt so far
    committed: tuple[int, int]
    history: str  # betting so far, rounds separated by "/"
    actions: list[str] = field(default_factory=list)
    children: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class Level:
    """Nodes of one depth, with what the passes over the tree need about them."""

    child: Ints  # nodes of this depth
    parent: Ints
    # per player: (children, parent decision index, action index) of that player's moves
    moves: tuple[tuple[Ints, Ints, Ints], tuple[Ints, Ints, Ints]]
    decisions: tuple[Ints, Ints]  # per player: decision indexes at this depth
    chances: Ints  # chance node ids at this depth
    chance_children: Ints  # [chance node, outcome] node ids (padded with the dummy)


class PublicTree:
    """The game's public tree, its private hands, and the leaf matrices."""

    def __init__(self, game: PokerGame) -> None:
        self.game = game
        n, k = len(game.cards), game.private
        self.hands: tuple[tuple[int, ...], ...] = tuple(itertools.combinations(range(n), k))
        self.boards: list[tuple[int, ...]] = [()]
        self._board_ids: dict[tuple[int, ...], int] = {(): 0}
        self.board_weight: list[float] = [1.0 / (math.comb(n, k) * math.comb(n - k, k))]
        self.nodes: list[Node] = []
        self._build()
        self._index()
        self._matrices()

    # --- building -------------------------------------------------------------

    def _add(self, node: Node) -> int:
        self.nodes.append(node)
        if node.parent >= 0:
            self.nodes[node.parent].children.append(len(self.nodes) - 1)
        return len(self.nodes) - 1

    def _board(self, cards: tuple[int, ...], weight: float) -> int:
        if cards not in self._board_ids:
            self._board_ids[cards] = len(self.boards)
            self.boards.append(cards)
            self.board_weight.append(weight)
        return self._board_ids[cards]

    def _build(self) -> None:
        a = self.game.ante
        self._start_round(0, 0, (a, a), "", parent=-1, action=0, depth=0)

    def _start_round(
        self,
        r: int,
        board: int,
        c: tuple[int, int],
        hist: str,
        parent: int,
        action: int,
        depth: int,
    ) -> None:
        m = self.game.rounds[r].public
        if m == 0:
            self._bet(r, board, c, hist, 0, 0, parent, action, depth)
            return
        node = self._add(Node(CHANCE, -1, parent, action, depth, board, c, hist))
        dealt = self.boards[board]
        left = [i for i in range(len(self.game.cards)) if i not in dealt]
        weight = self.board_weight[board] / math.comb(len(left) - 2 * self.game.private, m)
        for i, cards in enumerate(itertools.combinations(left, m)):
            child = self._board(dealt + cards, weight)
            self._bet(r, child, c, hist, 0, 0, node, i, depth + 1)

    def _bet(
        self,
        r: int,
        board: int,
        c: tuple[int, int],
        hist: str,
        player: int,
        raises: int,
        parent: int,
        action: int,
        depth: int,
    ) -> None:
        rnd = self.game.rounds[r]
        facing = c[player] < c[1 - player]
        acts = [FOLD, CALL] if facing else [CHECK]
        if raises < rnd.cap:
            acts.append(RAISE if facing else BET)
        node = self._add(Node(DECISION, player, parent, action, depth, board, c, hist, acts))
        last_round = r == len(self.game.rounds) - 1
        for i, act in enumerate(acts):
            h = hist + act
            if act == FOLD:
                self._add(Node(FOLDED, player, node, i, depth + 1, board, c, h))
            elif act == CALL or (act == CHECK and player == 1):
                even = (max(c), max(c))
                if last_round:
                    self._add(Node(SHOWDOWN, -1, node, i, depth + 1, board, even, h))
                else:
                    self._start_round(r + 1, board, even, h + "/", node, i, depth + 1)
            elif act == CHECK:
                self._bet(r, board, c, h, 1, raises, node, i, depth + 1)
            else:
                put = list(c)
                put[player] = c[1 - player] + rnd.bet
                self._bet(r, board, (put[0], put[1]), h, 1 - player, raises + 1, node, i, depth + 1)

    # --- arrays ---------------------------------------------------------------

    def _index(self) -> None:
        nodes = self.nodes
        self.n_nodes = len(nodes)
        dummy = self.n_nodes  # a zero row the padded children point to
        # player 1's decisions first, then player 2's: each player's are one slice
        self.decision_nodes: Ints = np.array(
            sorted(
                (i for i, x in enumerate(nodes) if x.kind == DECISION),
                key=lambda i: (nodes[i].player, i),
            ),
            dtype=np.int64,
        )
        first = sum(1 for x in nodes if x.kind == DECISION and x.player == 0)
        self.decisions_of = (slice(0, first), slice(first, len(self.decision_nodes)))
        dec_of = {int(v): d for d, v in enumerate(self.decision_nodes)}
        self.decision_player: Ints = np.array(
            [nodes[v].player for v in self.decision_nodes], dtype=np.int64
        )
        self.decision_children: Ints = np.full((len(self.decision_nodes), MAX_ACTIONS), dummy)
        self.legal = np.zeros((len(self.decision_nodes), MAX_ACTIONS), dtype=bool)
        for d, v in enumerate(self.decision_nodes):
            ch = nodes[v].children
            self.decision_children[d, : len(ch)] = ch
            self.legal[d, : len(ch)] = True
        chance = [i for i, x in enumerate(nodes) if x.kind == CHANCE]
        width = max((len(nodes[i].children) for i in chance), default=1)
        self.levels: list[Level] = []
        by_depth: list[list[int]] = [[] for _ in range(max(x.depth for x in nodes) + 1)]
        for i, x in enumerate(nodes):
            by_depth[x.depth].append(i)
        for ids in by_depth:
            moves = []
            for p in (0, 1):
                mine = [
                    i
                    for i in ids
                    if nodes[i].parent in dec_of and nodes[nodes[i].parent].player == p
                ]
                moves.append(
                    (
                        np.array(mine, dtype=np.int64),
                        np.array([dec_of[nodes[i].parent] for i in mine], dtype=np.int64),
                        np.array([nodes[i].action for i in mine], dtype=np.int64),
                    )
                )
            decs = [
                np.array(
                    [dec_of[i] for i in ids if nodes[i].kind == DECISION and nodes[i].player == p],
                    dtype=np.int64,
                )
                for p in (0, 1)
            ]
            chances = [i for i in ids if nodes[i].kind == CHANCE]
            children = np.full((len(chances), width), dummy, dtype=np.int64)
            for row, i in enumerate(chances):
                children[row, : len(nodes[i].children)] = nodes[i].children
            self.levels.append(
                Level(
                    child=np.array(ids, dtype=np.int64),
                    parent=np.array([nodes[i].parent for i in ids], dtype=np.int64),
                    moves=(moves[0], moves[1]),
                    decisions=(decs[0], decs[1]),
                    chances=np.array(chances, dtype=np.int64),
                    chance_children=children,
                )
            )

    def _matrices(self) -> None:
        """Per board: the leaf groups and their ``[hand, hand]`` matrices."""
        game, nodes = self.game, self.nodes
        n_cards = len(game.cards)
        incidence = np.zeros((len(self.hands), n_cards), dtype=np.int64)
        for h, cards in enumerate(self.hands):
            incidence[h, list(cards)] = 1
        self.incidence = incidence
        disjoint = (incidence @ incidence.T) == 0
        self.hand_valid = np.zeros((len(self.boards), len(self.hands)), dtype=bool)
        self.folds: list[tuple[Ints, Floats]] = []  # per board: leaves, chips (player 0 view)
        self.fold_loser: list[Ints] = []
        self.showdowns: list[tuple[Ints, Floats]] = []
        self.compat: list[Floats] = []
        self.sign: list[Floats] = []
        leaves: dict[tuple[int, int], list[int]] = {}
        for i, x in enumerate(nodes):
            if x.kind in (FOLDED, SHOWDOWN):
                leaves.setdefault((x.kind, x.board), []).append(i)
        for b, board in enumerate(self.boards):
            on_board = np.zeros(n_cards, dtype=np.int64)
            on_board[list(board)] = 1
            valid = (incidence @ on_board) == 0
            self.hand_valid[b] = valid
            mask = disjoint & valid[:, None] & valid[None, :]
            self.compat.append(mask * self.board_weight[b])
            fold_ids = leaves.get((FOLDED, b), [])
            self.folds.append(
                (
                    np.array(fold_ids, dtype=np.int64),
                    np.array([nodes[i].committed[nodes[i].player] for i in fold_ids], dtype=float),
                )
            )
            self.fold_loser.append(np.array([nodes[i].player for i in fold_ids], dtype=np.int64))
            show_ids = leaves.get((SHOWDOWN, b), [])
            self.showdowns.append(
                (
                    np.array(show_ids, dtype=np.int64),
                    np.array([nodes[i].committed[0] for i in show_ids], dtype=float),
                )
            )
            if show_ids:
                keys = [
                    hand_key([game.cards[c] for c in (*self.hands[h], *board)], game.rules)
                    if valid[h]
                    else ()
                    for h in range(len(self.hands))
                ]
                order = {key: i for i, key in enumerate(sorted(set(keys)))}
                strength = np.array([order[key] for key in keys], dtype=np.int64)
                sign = np.sign(strength[:, None] - strength[None, :]).astype(float)
                self.sign.append(sign * self.compat[b])
            else:
                self.sign.append(np.zeros((0, 0)))

    # --- labels ---------------------------------------------------------------

    def hand_text(self, hand: int) -> str:
        return " ".join(str(self.game.cards[c]) for c in self.hands[hand])

    def board_text(self, board: int) -> str:
        return " ".join(str(self.game.cards[c]) for c in self.boards[board])
