"""A played hand's push/fold decisions next to the push/fold equilibrium: what the coach
of a web table says after each hand (:mod:`cardlab.web.table_coach`).

**Which decisions.** A hand dealt heads-up of a No-Limit Hold'em game (two hole cards, a
five-card board, any deck) with blinds, whose effective stack (the smaller starting
stack) is 1 to 25 big blinds: the small blind's first decision when it folds or moves
in (a raise to at least the effective stack: the big blind is all in or the small blind
is), and the big blind's answer to that all-in (call or fold). A limp or a smaller raise
is not a push/fold decision, and the big blind's decisions after one are not either.

**The model** is :mod:`cardlab.solve.pushfold`'s: both stacks the effective stack ``S``
big blinds before posting, antes ``A`` big blinds; the equilibrium of the deck at that
stack (:func:`~cardlab.solve.pushfold.solve_pushfold` on the deck's class matrix).

**The EV of each move**, in big blinds from before the blinds, against an opponent who
plays the equilibrium, for the player's class ``i`` (``w``: the deals of two classes,
``e``: the all-in equity, ``c``/``p``: the equilibrium's call/push probabilities):

- the small blind folds: ``-(1/2 + A)``; pushes:
  ``sum_j w[i,j] (c_j (2 S e[i,j] - S) + (1 - c_j)(1 + A)) / sum_j w[i,j]``;
- the big blind folds: ``-(1 + A)``; calls: ``sum_k w[k,i] p_k (S - 2 S e[k,i]) /
  sum_k w[k,i] p_k`` (the small blinds that push, weighted by their deals).

**EV lost** is the best move's EV less the EV of the move made: 0 for the best move (and
for either move of a class the equilibrium mixes, which is indifferent up to the
solve's precision).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from cardlab.cards import Card
from cardlab.errors import GameError
from cardlab.poker.classes import hand_classes
from cardlab.poker.games import Game
from cardlab.solve.pushfold import MAX_STACK, PushFoldSolution
from cardlab.solve.pushfold_matrix import ClassMatrix, check_holdem
from cardlab.table import events as ev
from cardlab.table.state import HandState
from cardlab.table.structure import Betting

__all__ = ["Decision", "Spot", "class_index", "move_values", "pushfold_spots", "review"]


@dataclass(frozen=True, slots=True)
class Spot:
    """A push/fold decision of a played hand: the player (position), ``role`` ("small
    blind" or "big blind"), the effective stack and ante in big blinds, the hole cards
    and the move made ("push", "fold" or "call")."""

    player: int
    role: str
    stack: float
    ante: float
    cards: tuple[Card, ...]
    played: str


@dataclass(frozen=True, slots=True)
class Decision:
    """A :class:`Spot` judged: the class, the equilibrium's probability of the
    aggressive move (push or call), each move's EV and the EV lost, in big blinds."""

    spot: Spot
    hand_class: str
    equilibrium: float
    values: dict[str, float]
    ev_lost: float

    @property
    def best(self) -> str:
        return max(self.values, key=lambda move: self.values[move])

    def as_dict(self) -> dict[str, Any]:
        return {
            "role": self.spot.role,
            "stack_bb": round(self.spot.stack, 2),
            "ante_bb": round(self.spot.ante, 3),
            "cards": " ".join(str(c) for c in self.spot.cards),
            "class": self.hand_class,
            "played": self.spot.played,
            "best": self.best,
            "equilibrium": round(self.equilibrium, 4),
            "ev": {k: round(v, 4) for k, v in self.values.items()},
            "ev_lost": round(self.ev_lost, 4),
        }


def pushfold_spots(hand: HandState) -> tuple[list[Spot], str | None]:
    """The push/fold decisions of a finished ``hand`` (see the module documentation),
    and why there are none when the hand has no place for them (None: it has, though
    a player may have made none)."""
    game = hand.game
    try:
        check_holdem(game.game)
    except GameError as error:
        return [], str(error)
    if hand.players != 2:
        return [], "push/fold is played heads-up: this hand was dealt to more than two"
    if game.stakes.betting is not Betting.NO_LIMIT:
        return [], "push/fold is No-Limit: this table plays " + game.stakes.betting.value
    blinds = [e for e in hand.history if isinstance(e, ev.PostBlind)]
    if len(blinds) != 2:
        return [], "push/fold needs a small and a big blind"
    small, big = sorted(blinds, key=lambda e: (e.amount, e.player))
    unit = big.amount
    if unit <= 0:
        return [], "push/fold needs a big blind"
    antes = [e.amount for e in hand.history if isinstance(e, ev.PostAnte)]
    ante = max(antes, default=0) / unit
    effective = min(hand.starting_stacks)
    stack = effective / unit
    if not 1 + ante <= stack <= MAX_STACK:
        return [], f"the effective stack is {stack:g} big blinds: push/fold is 1 to 25"
    spots: list[Spot] = []
    pushed = False
    for event in _first_round(hand):
        if not isinstance(event, ev.Fold | ev.CheckCall | ev.CompleteBetRaiseTo):
            continue
        cards = tuple(c for c in hand.hole[event.player] if c is not None)
        if event.player == small.player and not pushed:
            if isinstance(event, ev.CompleteBetRaiseTo) and event.amount >= effective - ante * unit:
                spots.append(Spot(event.player, "small blind", stack, ante, cards, "push"))
                pushed = True
                continue
            if isinstance(event, ev.Fold):
                spots.append(Spot(event.player, "small blind", stack, ante, cards, "fold"))
            break  # a limp or a smaller raise: no push/fold decision follows
        if event.player == big.player and pushed:
            move = "fold" if isinstance(event, ev.Fold) else "call"
            if isinstance(event, ev.CompleteBetRaiseTo):
                break
            spots.append(Spot(event.player, "big blind", stack, ante, cards, move))
            break
    return spots, None


def _first_round(hand: HandState) -> list[ev.Event]:
    out: list[ev.Event] = []
    for event in hand.history:
        if isinstance(event, ev.NewStreet) and event.index >= 1:
            break
        out.append(event)
    return out


def class_index(game: Game, matrix: ClassMatrix, cards: tuple[Card, ...]) -> int:
    """The index in ``matrix`` of the class of two hole cards."""
    wanted = frozenset(cards)
    for hand_class in hand_classes(game.rules):
        if any(frozenset(combo) == wanted for combo in hand_class.combos):
            return matrix.index(hand_class.name)
    raise GameError(f"no starting-hand class holds {' '.join(map(str, cards))} on {game.key}")


def move_values(
    matrix: ClassMatrix, solution: PushFoldSolution, index: int, role: str
) -> dict[str, float]:
    """Each move's EV for class ``index`` in ``role`` (see the module documentation)."""
    s, a = solution.rules.stack, solution.rules.ante
    w = matrix.deals.astype(np.float64)
    e = matrix.equity
    if role == "small blind":
        row = w[index]
        called = 2 * s * e[index] - s
        c = solution.call
        push = float((row * (c * called + (1 - c) * (1 + a))).sum() / row.sum())
        return {"push": push, "fold": -(0.5 + a)}
    reach = w[:, index] * solution.push
    total = float(reach.sum())
    call = float((reach * (s - 2 * s * e[:, index])).sum() / total) if total > 0 else 0.0
    return {"call": call, "fold": -(1 + a)}


def review(game: Game, matrix: ClassMatrix, solution: PushFoldSolution, spot: Spot) -> Decision:
    """Judge ``spot`` against ``solution`` (solved on ``matrix`` at the spot's stack)."""
    index = class_index(game, matrix, spot.cards)
    values = move_values(matrix, solution, index, spot.role)
    aggressive = solution.push if spot.role == "small blind" else solution.call
    lost = max(values.values()) - values[spot.played]
    return Decision(spot, matrix.names[index], float(aggressive[index]), values, lost)
