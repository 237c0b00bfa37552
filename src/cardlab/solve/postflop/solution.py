"""A solved spot: its figures, any node by its line, saving and loading, node locking.

Values are in chips, from a player's point of view when the spot began: what it takes
from the pot less what it puts in after that point (so OOP's and IP's EVs add up to the
pot less the rake). A hand's EV and equity at a node are per deal of the opponent's
hands that reach the node and share no card with it; a range's figures weight each hand
by its own reach times that opponent mass (the established solvers' convention).
*Equity* is the share of the pot a hand wins if the remaining cards were dealt with no
more betting, against the opponent's range at the node.

A node is named by its line: the actions from the root and the cards dealt, separated
by spaces (``"b94 c Kh"``: OOP bets 94, IP calls, the turn is the K of hearts). Actions
are the tree's labels: ``k`` check (also ``x``), ``c`` call, ``f`` fold, ``b94`` a bet
of 94, ``r300`` a raise to 300, ``a910`` all in (also ``a``).
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cardlab.cards import Card, format_cards
from cardlab.errors import GameError
from cardlab.solve.postflop import _kernels as k
from cardlab.solve.postflop._loop import walk_loop
from cardlab.solve.postflop.game import PostflopGame
from cardlab.solve.postflop.solver import SCHEDULES, Progress, Solver, Values
from cardlab.solve.postflop.spot import Spot
from cardlab.solve.postflop.tree import (
    CHANCE,
    DECISION,
    FOLD,
    PLAYERS,
    SHOWDOWN,
    ActionTree,
    action_name,
)

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
FORMAT = "cardlab-postflop-solution"
FORMAT_VERSION = 2  # 2: suit isomorphism (mirrored deals are not stored)
_NO_CACHE = (np.zeros((1, 1)), False, np.zeros(3))
KINDS = {DECISION: "decision", CHANCE: "chance", FOLD: "fold", SHOWDOWN: "showdown"}


@dataclass(frozen=True)
class HandRow:
    """One hand at a node: its reach, the acting player's strategy, EV and equity."""

    cards: tuple[Card, ...]  # two (one in a one-card game)
    weight: float  # the hand's reach (its range weight times the strategy so far)
    strategy: tuple[float, ...]  # one per action (empty where the hand's player does not act)
    ev: float
    equity: float

    def as_dict(self, actions: tuple[str, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {
            "hand": format_cards(self.cards),
            "weight": self.weight,
            "ev": self.ev,
            "equity": self.equity,
        }
        if self.strategy:
            out["strategy"] = dict(zip(actions, self.strategy, strict=True))
        return out


class Node:
    """One node of a solved game: (betting node, cards dealt), with both reaches.

    With suit isomorphism a node after a mirrored card is read from the node it mirrors
    (its *frame*): ``frame`` maps each player's hand to the hand it is there, ``cards``
    each card code to the card it is there; values and strategies are mapped back."""

    def __init__(
        self,
        solution: PostflopSolution,
        a: int,
        deal: int,
        dealt: tuple[Card, ...],
        reach: tuple[Floats, Floats],
        line: tuple[str, ...],
        frame: tuple[Ints, Ints] | None = None,
        cards: Ints | None = None,
    ) -> None:
        self.solution = solution
        self.a = a
        self.deal = deal  # the deal walked (in the frame)
        self.dealt = dealt
        self.reach = reach
        self.line = line
        hands = solution.game.hands
        self.frame = frame or (np.arange(len(hands[0])), np.arange(len(hands[1])))
        self.cards = cards if cards is not None else np.arange(len(solution.game.game.deck))
        self._tree = solution.game.tree.nodes[a]

    def _in_frame(self, p: int, values: Floats) -> Floats:
        """Per hand of ``p`` (its own order) → per hand of the frame."""
        out = np.empty_like(values)
        out[self.frame[p]] = values
        return out

    def _storage(self) -> int:
        return self.solution.game.storage_base(self.a, self.deal)

    @property
    def kind(self) -> str:
        return KINDS[self._tree.kind]

    @property
    def player(self) -> str | None:
        """Who acts ("oop" or "ip") at a decision, who folded at a fold."""
        return PLAYERS[self._tree.player] if self._tree.player >= 0 else None

    @property
    def actions(self) -> tuple[str, ...]:
        return tuple(self._tree.actions) if self._tree.kind == DECISION else ()

    @property
    def board(self) -> tuple[Card, ...]:
        return self.solution.game.board + self.dealt

    @property
    def pot(self) -> int:
        return self.solution.spot.pot + sum(self._tree.committed)

    def strategy(self) -> Floats:
        """The acting player's average strategy, [action, hand]."""
        if self._tree.kind != DECISION:
            raise GameError(f"the node {' '.join(self.line) or 'root'} is not a decision")
        g = self.solution.solver.g
        p = self._tree.player
        n_h = len(self.solution.game.hands[p])
        sigma = np.empty((len(self._tree.children), n_h))
        k.node_strategy(g, k.AVERAGE, self._storage(), sigma.shape[0], n_h, sigma, np.empty(n_h))
        return sigma[:, self.frame[p]]

    def _mass(self, p: int) -> Floats:
        """Per hand of ``p``: the opponent's reach it shares no card with."""
        out = np.empty(len(self.reach[p]))
        g = self.solution.solver.g
        k.fold_values(g, p, self.reach[1 - p], 1.0, out, k.scratch(g))
        return out

    def hand_values(self, p: int) -> tuple[Floats, Floats]:
        """EV and equity of each of ``p``'s hands (NaN where no deal reaches it)."""
        solver = self.solution.solver
        g = solver.g
        mass = self._mass(p)
        reach_p, reach_o = (
            self._in_frame(p, self.reach[p]),
            self._in_frame(1 - p, self.reach[1 - p]),
        )
        cfv = np.empty(len(mass))
        walk_loop(g, self.a, self.deal, k.AVERAGE, p, reach_p, reach_o, cfv, *_NO_CACHE)
        eq = np.empty(len(mass))
        eg = self.solution.equity_arrays(self._tree.round)
        walk_loop(eg, 0, self.deal, k.AVERAGE, p, reach_p, reach_o, eq, *_NO_CACHE)
        cfv, eq = cfv[self.frame[p]], eq[self.frame[p]]
        with np.errstate(invalid="ignore", divide="ignore"):
            ok = mass > 1e-12
            ev = np.where(ok, cfv / np.where(ok, mass, 1), np.nan)
            equity = np.where(ok, eq / np.where(ok, mass, 1), np.nan)
        return ev, equity

    def summary(self, p: int) -> tuple[float, float]:
        """``p``'s range EV and equity at this node (hands weighted by reach × mass)."""
        ev, equity = self.hand_values(p)
        w = self.reach[p] * self._mass(p)
        total = w.sum()
        if total <= 0:
            return float("nan"), float("nan")
        return float(np.nansum(ev * w) / total), float(np.nansum(equity * w) / total)

    def frequencies(self) -> tuple[float, ...]:
        """How often the acting player takes each action (its hands weighted by reach ×
        the opponent mass)."""
        sigma = self.strategy()
        p = self._tree.player
        w = self.reach[p] * self._mass(p)
        total = w.sum()
        return tuple(float(x) for x in (sigma @ w / total if total > 0 else sigma.mean(axis=1)))

    def hands(self, p: int | None = None) -> list[HandRow]:
        """Every hand of ``p`` (default: the acting player, else OOP) that reaches here."""
        if p is None:
            p = self._tree.player if self._tree.kind == DECISION else 0
        ev, equity = self.hand_values(p)
        sigma = self.strategy() if self._tree.kind == DECISION and self._tree.player == p else None
        board = set(self.board)
        out = []
        for h, cards in enumerate(self.solution.game.hands[p].cards):
            if self.reach[p][h] <= 0 or board & set(cards):
                continue
            strategy = tuple(float(x) for x in sigma[:, h]) if sigma is not None else ()
            out.append(
                HandRow(cards, float(self.reach[p][h]), strategy, float(ev[h]), float(equity[h]))
            )
        return out

    def child(self, token: str) -> Node:
        """The node after one action or dealt card."""
        sol = self.solution
        tree = self._tree
        if tree.kind == DECISION:
            label = _action(token, self.actions)
            i = self.actions.index(label)
            p = tree.player
            reach = [self.reach[0], self.reach[1]]
            reach[p] = reach[p] * self.strategy()[i]
            return Node(
                sol,
                tree.children[i],
                self.deal,
                self.dealt,
                (reach[0], reach[1]),
                (*self.line, label),
                self.frame,
                self.cards,
            )
        if tree.kind == CHANCE:
            game = sol.game
            card = game.game.deck.parse_cards(token, count=1)[0]
            left = [int(c) for c in game.avail]
            dealt_codes = [game.game.deck.code(c) for c in self.dealt]
            code = game.game.deck.code(card)
            if code not in left or code in dealt_codes:
                raise GameError(f"{card} cannot be dealt here: it is on the board")
            # the card in the frame, and the deal walked for it there
            framed = [int(self.cards[c]) for c in dealt_codes]
            remaining = [c for c in left if c not in framed]
            j = remaining.index(int(self.cards[code]))
            frame, cards = self.frame, self.cards
            ib = int(game.arrays.iso_base[tree.round]) + self.deal * len(remaining)
            rep = int(game.iso_rep[ib + j])
            if rep >= 0:  # mirrored: read the card it mirrors, through the swap
                swap = game.swaps[int(game.iso_swap[ib + j])]
                frame = (swap.hands[0][frame[0]], swap.hands[1][frame[1]])
                cards = swap.cards[cards]
                j = rep
            masked = tuple(
                np.where((hands.codes == code).any(axis=1), 0.0, r)
                for hands, r in zip(game.hands, self.reach, strict=True)
            )
            return Node(
                sol,
                tree.children[0],
                self.deal * len(remaining) + j,
                (*self.dealt, card),
                (masked[0], masked[1]),
                (*self.line, format_cards([card])),
                frame,
                cards,
            )
        raise GameError(f"the hand is over at {' '.join(self.line)!r}: nothing follows")

    def as_dict(self, *, hands: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "line": " ".join(self.line),
            "kind": self.kind,
            "board": format_cards(self.board),
            "pot": self.pot,
        }
        for p, name in enumerate(PLAYERS):
            ev, equity = self.summary(p)
            out.setdefault("ev", {})[name] = ev
            out.setdefault("equity", {})[name] = equity
        if self._tree.kind == DECISION:
            out["player"] = self.player
            out["actions"] = [
                {"action": a, "name": action_name(a), "frequency": f}
                for a, f in zip(self.actions, self.frequencies(), strict=True)
            ]
        if hands:
            out["hands"] = [row.as_dict(self.actions) for row in self.hands()]
        return out


class PostflopSolution:
    """A spot and the solver's state on it: measured, browsable, saved, resumed."""

    def __init__(
        self,
        spot: Spot,
        solver: Solver,
        *,
        seconds: float = 0.0,
        exploitability: float = float("nan"),
        interrupted: bool = False,
    ) -> None:
        self.spot = spot
        self.solver = solver
        self.game = solver.game
        self.seconds = seconds
        self.exploitability = exploitability
        self.interrupted = interrupted
        self._equity_arrays: dict[int, k.Arrays] = {}
        self._ev: Values | None = None
        self._equity: Values | None = None

    @property
    def iterations(self) -> int:
        return self.solver.iterations

    @property
    def exploitability_pot_percent(self) -> float:
        return 100 * self.exploitability / self.spot.pot

    # --- root figures ----------------------------------------------------------------

    def ev(self) -> Values:
        if self._ev is None:
            self._ev = self.solver.expected_values()
        return self._ev

    def equity(self) -> Values:
        if self._equity is None:
            root = self.root()
            self._equity = Values(root.summary(0)[1], root.summary(1)[1])
        return self._equity

    def root(self) -> Node:
        w = tuple(h.weights.copy() for h in self.game.hands)
        return Node(self, 0, 0, (), (w[0], w[1]), ())

    def node(self, line: str) -> Node:
        """The node at ``line`` (see the module's docstring); the root for ``""``."""
        if not isinstance(line, str):
            raise GameError(f"a line is text like 'b94 c Kh', got {line!r}")
        node = self.root()
        for token in _tokens(line):
            node = node.child(token)
        return node

    def equity_arrays(self, level: int) -> k.Arrays:
        """The walk's arrays of a tree with no betting from ``level`` on: chance nodes,
        then a showdown worth 1 (so a walk gives each hand's equity times its mass)."""
        if level not in self._equity_arrays:
            g = self.solver.g
            last = self.game.levels
            n = last - level + 1
            kinds = np.array([k.CHANCE] * (n - 1) + [k.SHOWDOWN], np.int8)
            self._equity_arrays[level] = g._replace(
                kind=kinds,
                player=np.full(n, -1, np.int8),
                child_start=np.arange(n, dtype=np.int32),
                n_child=np.array([1] * (n - 1) + [0], np.int32),
                children=np.arange(1, n + 1, dtype=np.int64),
                level=np.arange(level, last + 1, dtype=np.int32),
                offset=np.zeros(n, np.int64),
                stride=np.zeros(n, np.int64),
                put_in=np.zeros((n, 2)),
                slot=np.full(n, -1, np.int32),
                starting_pot=1.0,
                rake_rate=0.0,
                rake_cap=0.0,
            )
        return self._equity_arrays[level]

    # --- node locking ----------------------------------------------------------------

    def lock(self, line: str, strategy: dict[str, float] | Floats) -> None:
        """Fix the strategy at the decision ``line``: the same frequencies for every hand
        (a dict action -> frequency) or a [action, hand] array; later solving plays it
        there and adapts the rest."""
        node = self.node(line)
        if node._tree.kind != DECISION:
            raise GameError(f"only a decision can be locked, not {line!r}")
        n_act = len(node.actions)
        n_h = len(self.game.hands[node._tree.player])
        if isinstance(strategy, dict):
            unknown = set(strategy) - set(node.actions)
            if unknown:
                raise GameError(
                    f"no action {sorted(unknown)[0]!r} at {line!r} "
                    f"(actions: {', '.join(node.actions)})"
                )
            row = np.array([float(strategy.get(a, 0.0)) for a in node.actions])
            values = np.repeat(row[:, None], n_h, axis=1)
        else:
            values = np.asarray(strategy, np.float64)
        if (
            values.shape != (n_act, n_h)
            or (values < 0).any()
            or not np.allclose(values.sum(axis=0), 1.0, atol=1e-6)
        ):
            raise GameError(
                f"a locked strategy at {line!r} needs frequencies of "
                f"{', '.join(node.actions)} that add up to 1"
            )
        values = _symmetric(self.game, node, values, line)
        g = self.solver.g
        base = node._storage()
        entries = {
            int(b): g.lock_values[int(s) : int(s) + n]
            for b, s, n in zip(g.lock_base, g.lock_start, _lengths(g), strict=True)
        }
        entries[base] = values.reshape(-1)
        order = sorted(entries)
        starts = np.cumsum([0] + [len(entries[b]) for b in order[:-1]]).astype(np.int64)
        self.solver.g = g._replace(
            lock_base=np.array(order, np.int64),
            lock_start=starts,
            lock_values=np.concatenate([entries[b] for b in order]).astype(np.float64),
        )
        self._ev = self._equity = None

    # --- saving ----------------------------------------------------------------------

    def as_dict(self, *, node: Node | None = None) -> dict[str, Any]:
        root = node or self.root()
        out: dict[str, Any] = {
            "spot": self.spot.as_dict(),
            "ev": self.ev().as_dict(),
            "equity": self.equity().as_dict(),
            "exploitability": {
                "chips": self.exploitability,
                "pot_percent": self.exploitability_pot_percent,
            },
            "iterations": self.iterations,
            "seconds": self.seconds,
            "memory_bytes": self.game.memory_bytes,
            "interrupted": self.interrupted,
            "tree": self.game.config.as_dict(),
        }
        if root._tree.kind == DECISION:
            out["actions"] = [
                {"action": a, "name": action_name(a), "frequency": f}
                for a, f in zip(root.actions, root.frequencies(), strict=True)
            ]
        return out

    def save(self, path: str | Path) -> None:
        """The solution (spot, strategy sums, regrets, locks, figures) as one ``.npz``."""
        g = self.solver.g
        meta = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "spot": self.spot.as_dict(),
            "iterations": self.iterations,
            "seconds": self.seconds,
            "exploitability": self.exploitability,
            "compressed": self.game.compressed,
            "schedule": self.solver.schedule,
        }
        with open(path, "wb") as f:
            np.savez(
                f,
                meta=np.array(json.dumps(meta)),
                regrets=g.regrets,
                strategy=g.strategy,
                regret_scale=g.regret_scale,
                strategy_scale=g.strategy_scale,
                lock_base=g.lock_base,
                lock_start=g.lock_start,
                lock_values=g.lock_values,
            )

    @classmethod
    def load(cls, path: str | Path, *, threads: int | None = None) -> PostflopSolution:
        try:
            data = np.load(path, allow_pickle=False)
            meta = json.loads(str(data["meta"]))
        except (OSError, ValueError, KeyError) as error:
            raise GameError(f"{path}: not a saved postflop solution ({error})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise GameError(f"{path}: not a saved postflop solution")
        if meta.get("version") != FORMAT_VERSION:
            raise GameError(
                f"{path}: solution format {meta.get('version')}, this cardlab "
                f"reads {FORMAT_VERSION}"
            )
        spot = Spot.from_dict(meta["spot"])
        compressed = meta.get("compressed", False) is True
        # saved before the schedule was recorded: trained by "smooth", resumed by it
        schedule = meta.get("schedule", "smooth")
        if schedule not in SCHEDULES:
            raise GameError(f"{path}: unknown DCFR schedule {schedule!r}")
        solver = Solver(spot.game_arrays(compressed=compressed), threads=threads, schedule=schedule)
        g = solver.g
        for name in ("regrets", "strategy", "regret_scale", "strategy_scale"):
            if name not in data:
                if name.endswith("_scale") and not compressed:
                    continue  # saved before compressed storage existed
                raise GameError(f"{path}: no {name} in it")
            stored, into = data[name], getattr(g, name)
            if stored.shape != into.shape or stored.dtype != into.dtype:
                raise GameError(f"{path}: its arrays do not fit its spot")
            into[:] = stored
        solver.g = solver.g._replace(
            lock_base=data["lock_base"].astype(np.int64),
            lock_start=data["lock_start"].astype(np.int64),
            lock_values=data["lock_values"].astype(np.float64),
        )
        solver.iterations = int(meta["iterations"])
        return cls(
            spot,
            solver,
            seconds=float(meta["seconds"]),
            exploitability=float(meta["exploitability"]),
        )

    # --- solving more ----------------------------------------------------------------

    def resume(
        self,
        iterations: int,
        *,
        target: float | None = None,
        every: int = 10,
        progress: Progress | None = None,
    ) -> PostflopSolution:
        start = time.perf_counter()
        self.exploitability, self.interrupted = self.solver.run(
            iterations, target=target, every=every, progress=progress
        )
        self.seconds += time.perf_counter() - start
        self._ev = self._equity = None
        return self


def _symmetric(game: PostflopGame, node: Node, values: Floats, line: str) -> Floats:
    """A locked strategy [action, hand] in the node's frame, refused where suit
    isomorphism would play it on a mirrored node too and it does not mirror there."""
    framed = np.empty_like(values)
    framed[:, node.frame[node._tree.player]] = values
    if node._tree.round == game.levels:
        return framed  # no card follows: nothing is mirrored after it
    board = {int(node.cards[game.game.deck.code(c)]) for c in node.board}
    for swap in game.swaps:
        if {int(swap.cards[c]) for c in board} != board:
            continue
        mirrored = framed[:, swap.hands[node._tree.player]]
        if not np.allclose(mirrored, framed, atol=1e-9):
            raise GameError(
                f"the strategy locked at {line!r} is not the same for hands that differ "
                f"only by the suits {swap.suits[0]} and {swap.suits[1]}, which this spot "
                "solves as one (suit isomorphism): lock it the same for both, or solve "
                "with isomorphism off"
            )
    return framed


def check_line(spot: Spot, line: str) -> None:
    """Refuse a ``line`` (as :meth:`PostflopSolution.node` reads it) that leads nowhere in
    ``spot``'s betting tree, with the same words, before anything is built or solved."""
    if not isinstance(line, str):
        raise GameError(f"a line is text like 'b94 c Kh', got {line!r}")
    tree = ActionTree(spot.tree_config())
    deck = spot.holdem().deck
    dealt = {deck.code(c) for c in spot.board_cards()}
    node, walked = tree.nodes[0], []
    for token in _tokens(line):
        if node.kind == DECISION:
            label = _action(token, tuple(node.actions))
            node = tree.nodes[node.children[node.actions.index(label)]]
            walked.append(label)
        elif node.kind == CHANCE:
            card = deck.parse_cards(token, count=1)[0]
            if deck.code(card) in dealt:
                raise GameError(f"{card} cannot be dealt here: it is on the board")
            dealt.add(deck.code(card))
            node = tree.nodes[node.children[0]]
            walked.append(format_cards([card]))
        else:
            raise GameError(f"the hand is over at {' '.join(walked)!r}: nothing follows")


def _lengths(g: k.Arrays) -> list[int]:
    starts = [int(s) for s in g.lock_start] + [len(g.lock_values)]
    return [b - a for a, b in itertools.pairwise(starts)]


def _tokens(line: str) -> list[str]:
    """Actions and cards of a line; ``/`` between streets is allowed and ignored; a
    board written as one word (``Kh7c``) is split into cards where it is not an action."""
    return [t for t in line.replace("/", " ").replace(",", " ").split() if t]


def _action(token: str, actions: tuple[str, ...]) -> str:
    t = token.strip().lower()
    t = {"x": "k", "check": "k", "call": "c", "fold": "f"}.get(t, t)
    if t in actions:
        return t
    if t in ("a", "allin", "all-in"):
        for a in actions:
            if a.startswith("a"):
                return a
    raise GameError(f"no action {token!r} here (actions: {', '.join(actions)})")


def solve(
    spot: Spot,
    iterations: int = 1000,
    *,
    target: float | None = 0.5,
    every: int = 10,
    threads: int | None = None,
    max_memory: int | None = None,
    progress: Progress | None = None,
    schedule: str = "auto",
) -> PostflopSolution:
    """Solve ``spot`` by DCFR until ``iterations`` or until the exploitability is at most
    ``target`` % of the pot (None: run every iteration); ``schedule``: the DCFR
    discounts (:mod:`cardlab.solve.postflop.solver`)."""
    game = spot.game_arrays(max_memory=max_memory)
    solver = Solver(game, threads=threads, schedule=schedule)
    return PostflopSolution(spot, solver).resume(
        iterations, target=target, every=every, progress=progress
    )
