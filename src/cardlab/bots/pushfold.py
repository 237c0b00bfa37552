"""The ``pushfold`` bot: the heads-up push-or-fold equilibrium for short stacks.

With ``S`` big blinds or fewer behind, heads-up No-Limit Hold'em is close to a game with
two moves each: the small blind (the button) moves all in or folds; the big blind,
facing the all-in, calls or folds. This game is solved here exactly up to the pre-flop
equities: over the 169 classes of standard52 starting hands (``AA``, ``AKs``, ``AKo``
...) with the number of card-disjoint deals of each pair of classes (card removal)
counted exactly and each pair's all-in equity sampled by cardlab's Monte Carlo
(``data/preflop169.json``, built by ``benchmarks/preflop_matrix.py``, 20,000
showdowns a pair: standard error under 0.004).

The equilibrium is found by fictitious play: each side answers the other's average
strategy with its best response (a class pushes or calls when that is worth more in
chips than folding), and the averages converge to a Nash equilibrium of the two-move
game (zero-sum, so fictitious play converges; 3,000 rounds leave an exploitability
under 0.01 big blinds a hand). The bot plays the equilibrium's mixed strategy with the
``rng`` it is given.

Everywhere else (more than two players, deeper stacks, after the flop, other decks or
games, a raise that is not all in) it plays as the :mod:`equity <cardlab.bots.equity>`
bot. Its gain against ``equity`` is measured in the arena (``docs/bots.md``).
"""

from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np

from cardlab.bots.equity import EquityBot
from cardlab.cards import Card
from cardlab.errors import GameError
from cardlab.table.actions import Action
from cardlab.table.state import Phase
from cardlab.table.view import SeatView

RANKS = "AKQJT98765432"
MAX_STACK_BB = 15.0
ROUNDS = 3000


@functools.cache
def _table() -> tuple[tuple[str, ...], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    text = resources.files("cardlab.bots").joinpath("data/preflop169.json").read_text()
    data = json.loads(text)
    return (
        tuple(data["classes"]),
        np.array(data["equity"], np.float64),
        np.array(data["pairs"], np.float64),
    )


def hand_class(cards: tuple[Card, ...] | list[Card]) -> str:
    """The starting-hand class of two standard52 cards: ``AA``, ``AKs``, ``T9o``."""
    if len(cards) != 2:
        raise GameError(f"a Hold'em starting hand has two cards, got {len(cards)}")
    texts = [str(c) for c in cards]
    a, b = sorted(texts, key=lambda t: RANKS.index(t[0]))
    if a[0] == b[0]:
        return a[0] + b[0]
    return a[0] + b[0] + ("s" if a[1] == b[1] else "o")


@dataclass(frozen=True, slots=True)
class Equilibrium:
    """Push (small blind) and call (big blind) probabilities by class, ``stack`` big
    blinds deep; ``values``: the small blind's and big blind's chips per hand, in big
    blinds, at equilibrium (from the posted blinds onwards)."""

    stack: float
    push: dict[str, float] = field(repr=False)
    call: dict[str, float] = field(repr=False)
    sb_value: float = 0.0
    exploitability: float = 0.0


def _values(
    p: np.ndarray[Any, Any], c: np.ndarray[Any, Any], s: float
) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Per class, in big blinds: the small blind's value of pushing and of folding
    against the call probabilities ``c``; the big blind's value of calling and of
    folding all-ins against the push probabilities ``p`` (each averaged over the
    other side's card-disjoint deals)."""
    _, eq, w = _table()
    called = 2 * s * eq - s  # the small blind's result when the all-in is called
    push = (w * (c[None, :] * called + (1 - c[None, :]))).sum(axis=1) / w.sum(axis=1)
    fold = np.full_like(push, -0.5)
    cols = w.sum(axis=0)
    when_sb_folds = 0.5 * (w * (1 - p[:, None])).sum(axis=0) / cols
    bb_call = (w * p[:, None] * -called).sum(axis=0) / cols + when_sb_folds
    bb_fold = (w * p[:, None] * -1.0).sum(axis=0) / cols + when_sb_folds
    return push, fold, bb_call, bb_fold


@functools.cache
def equilibrium(stack_bb: float) -> Equilibrium:
    """The push/fold equilibrium ``stack_bb`` big blinds deep (both stacks)."""
    if not 0 < stack_bb <= 100:
        raise GameError(f"a push/fold stack is between 0 and 100 big blinds, got {stack_bb!r}")
    names, _, w = _table()
    n = len(names)
    p = np.full(n, 0.5)
    c = np.full(n, 0.5)
    for t in range(1, ROUNDS + 1):
        push, fold, call, bb_fold = _values(p, c, stack_bb)
        p += ((push > fold).astype(np.float64) - p) / (t + 1)
        c += ((call > bb_fold).astype(np.float64) - c) / (t + 1)
    weights = w.sum(axis=1) / w.sum()  # the chance of each class (symmetric for both)
    push, fold, call, bb_fold = _values(p, c, stack_bb)
    sb = float((weights * (p * push + (1 - p) * fold)).sum())
    sb_best = float((weights * np.maximum(push, fold)).sum())
    bb_best = float((weights * np.maximum(call, bb_fold)).sum())
    return Equilibrium(
        stack_bb,
        dict(zip(names, p.round(4).tolist(), strict=True)),
        dict(zip(names, c.round(4).tolist(), strict=True)),
        sb,
        max((sb_best - sb) + (bb_best + sb), 0.0),
    )


STACKS = tuple(k / 2 for k in range(1, int(2 * MAX_STACK_BB) + 1))
"""The depths (every half big blind) whose equilibria are stored in ``data/pushfold.json``."""


@functools.cache
def _stored() -> dict[float, tuple[dict[str, float], dict[str, float]]]:
    text = resources.files("cardlab.bots").joinpath("data/pushfold.json").read_text()
    names = _table()[0]
    out = {}
    for row in json.loads(text)["equilibria"]:
        push = dict(zip(names, row["push"], strict=True))
        call = dict(zip(names, row["call"], strict=True))
        out[float(row["stack"])] = (push, call)
    return out


def stored(stack_bb: float) -> Equilibrium:
    """The equilibrium at a depth of :data:`STACKS` as stored (computing one takes
    a second and a half, too slow for a decision)."""
    push, call = _stored()[stack_bb]
    return Equilibrium(stack_bb, push, call)


def equilibria_json() -> str:
    """The text of ``data/pushfold.json`` (``benchmarks/preflop_matrix.py`` writes it)."""
    rows = []
    for s in STACKS:
        e = equilibrium(s)
        rows.append(
            {
                "stack": s,
                "sb_value": round(e.sb_value, 5),
                "exploitability": round(e.exploitability, 6),
                "push": list(e.push.values()),
                "call": list(e.call.values()),
            }
        )
    return json.dumps({"rounds": ROUNDS, "equilibria": rows}, separators=(",", ":")) + "\n"


@dataclass
class PushFoldBot:
    """See the module documentation."""

    max_stack_bb: float = MAX_STACK_BB
    fallback: EquityBot = field(default_factory=EquityBot)
    name: str = "pushfold"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        choice = self._push_fold(view, rng)
        return choice if choice is not None else self.fallback.act(view, rng)

    def _push_fold(self, view: SeatView, rng: random.Random) -> Action | None:
        legal = view.legal
        if (
            legal is None
            or legal.phase is not Phase.BET
            or view.game.game.key != "standard52-holdem"
            or len(view.players) != 2
            or view.street_index != 0
            or len(view.game.stakes.blinds) < 2
            or view.position is None
        ):
            return None
        bb = view.game.stakes.blinds[1]
        me, them = view.players[view.position], view.players[1 - view.position]
        stack_bb = min(me.stack + me.bet, them.stack + them.bet) / bb
        if stack_bb > self.max_stack_bb:
            return None
        eq = stored(max(round(stack_bb * 2) / 2, 0.5))
        cls = hand_class(view.hole)
        button = view.position == 1  # heads-up the button posts the small blind
        if button and them.bet == bb and me.bet < bb:  # first to act: push or fold
            if rng.random() < eq.push[cls] and legal.raise_max is not None:
                return Action.raise_to(legal.raise_max)
            return Action.fold()
        if not button and them.stack == 0 and legal.call:  # facing an all-in
            return Action.call() if rng.random() < eq.call[cls] else Action.fold()
        return None
