"""The end of a hand: who wins each pot, with which five cards, and why.

Each pot goes to the best hand among the players still in it (the rule set's order
and tie-breaks, :mod:`cardlab.poker.hands`); equal keys split, the odd chips to the
first winner left of the button (:func:`cardlab.table.pots.split`). A pot whose every
contender mucked goes to the best hand still in the hand, so no chip is ever lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numba
import numpy as np

from cardlab.cards import Card, format_cards
from cardlab.errors import ActionError
from cardlab.poker.batch import evaluate_batch
from cardlab.poker.hands import HandValue, deciding_step
from cardlab.poker.showdown import best_five
from cardlab.table.events import Award
from cardlab.table.pots import layer_pots, split

if TYPE_CHECKING:
    from cardlab.table.state import HandState


@dataclass(frozen=True, slots=True)
class PotResult:
    """A pot as it stood before it was paid: its chips, who could win it, who had the
    best hand for it, and the tie-break step that decided it ("uncontested" when one
    player was left, "tie" when it split)."""

    amount: int
    players: tuple[int, ...]
    winners: tuple[int, ...]
    decided_by: str


@dataclass(frozen=True)
class HandResult:
    """How a hand ended: the awards, the stacks, and the hands that were shown."""

    starting_stacks: tuple[int, ...]
    finishing_stacks: tuple[int, ...]
    awards: tuple[Award, ...]
    showdown: bool
    shown: dict[int, tuple[Card, ...]]  # position -> hole cards, for those at showdown
    board: tuple[Card, ...]
    pots: tuple[PotResult, ...]  # the main pot and side pots, each decided on its own
    _state: HandState = field(repr=False, compare=False)

    @property
    def winnings(self) -> tuple[int, ...]:
        return tuple(
            f - s for f, s in zip(self.finishing_stacks, self.starting_stacks, strict=True)
        )

    @property
    def decided_by(self) -> str:
        """How the main pot was decided: a tie-break step, "tie" or "uncontested"."""
        return self.awards[0].decided_by if self.awards else "uncontested"

    def best_hands(self) -> dict[int, HandValue]:
        """Each shown player's best five (the reference evaluator; for display)."""
        game = self._state.game.game
        return {p: best_five(game, *_own_and_board(self._state, p)) for p in self.shown}

    def as_dict(self) -> dict[str, Any]:
        best = self.best_hands() if self.showdown else {}
        return {
            "starting_stacks": list(self.starting_stacks),
            "finishing_stacks": list(self.finishing_stacks),
            "winnings": list(self.winnings),
            "board": format_cards(self.board),
            "showdown": self.showdown,
            "decided_by": self.decided_by,
            "pots": [
                {
                    "pot": a.pot,
                    "winners": [p + 1 for p in a.players],
                    "amounts": list(a.amounts),
                    "decided_by": a.decided_by,
                }
                for a in self.awards
            ],
            "hands": [
                {
                    "player": p + 1,
                    "cards": format_cards(cards),
                    "best_five": format_cards(best[p].cards) if p in best else None,
                    "description": best[p].describe() if p in best else None,
                }
                for p, cards in sorted(self.shown.items())
            ],
        }


def _own_and_board(state: HandState, p: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    own = tuple(c for c in state.hole[p] if c is not None)
    return own, tuple(state.board)


def showdown_keys(state: HandState, players: Sequence[int]) -> dict[int, int]:
    """The best key of each of ``players`` (complete, known hands)."""
    deck = state.game.game.deck
    omaha = state.game.game.base.hole_used is not None
    rows = []
    for p in players:
        if any(c is None for c in state.hole[p]):
            raise ActionError(f"p{p + 1}'s cards are unknown at the showdown")
        own, board = _own_and_board(state, p)
        rows.append([deck.code(c) for c in own + board])
    if not rows:
        return {}
    width = {len(r) for r in rows}
    if len(width) != 1 or not 5 <= width.pop() <= (9 if omaha else 7):
        raise ActionError("a showdown needs complete hands")
    # a handful of rows: one thread (waking a thread pool costs more than the work)
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        keys = evaluate_batch(
            np.array(rows, dtype=np.uint8),
            state.rules,
            game="omaha" if omaha else "best",
            check=False,
        )
    finally:
        numba.set_num_threads(threads)
    return {p: int(k) for p, k in zip(players, keys, strict=True)}


def settle_pots(state: HandState) -> HandResult:
    """Award every pot of a finished hand (the state's bets are collected)."""
    alive = state.in_hand()
    pots = state.pots()
    awards: list[Award] = []
    layers: list[PotResult] = []
    shown: dict[int, tuple[Card, ...]] = {}
    if len(alive) == 1:
        for k, pot in enumerate(pots):
            awards.append(Award(k, (alive[0],), (pot.amount,), "uncontested"))
            layers.append(PotResult(pot.amount, pot.players, (alive[0],), "uncontested"))
    else:
        keys = showdown_keys(state, alive)
        shown = {p: _own_and_board(state, p)[0] for p in alive}
        # how each pot of the full layering is decided (who beat whom, by which step)
        steps: list[tuple[tuple[int, ...], str]] = []
        for pot in pots:
            rivals = [p for p in pot.players if p in keys] or alive
            best = max(keys[p] for p in rivals)
            winners = tuple(p for p in rivals if keys[p] == best)
            others = [keys[p] for p in rivals if keys[p] != best]
            if len(rivals) == 1:
                step = "uncontested"
            elif len(winners) > 1:
                step = "tie"
            else:
                step = deciding_step(best, max(others))
            steps.append((winners, step))
            layers.append(PotResult(pot.amount, pot.players, winners, step))
        # hands that can win no pot are out (pokerkit's "hand killing"); the layers of
        # the players left merge, so odd chips are split once per merged pot
        can_win = {p for winners, _ in steps for p in winners}
        contending = [state.alive[i] and i in can_win for i in range(state.players)]
        merged = layer_pots(
            state.paid,
            state.bets,
            state.antes,
            contending,
            ante_trimming=state.stakes.ante_trimming,
        )
        for k, pot in enumerate(merged):
            contenders = [p for p in pot.players if p in keys] or alive
            best = max(keys[p] for p in contenders)
            winners = tuple(p for p in contenders if keys[p] == best)
            decided = next((d for w, d in steps if w == winners), "uncontested")
            awards.append(Award(k, winners, tuple(split(pot.amount, winners)), decided))
    finishing = list(state.stacks)
    for a in awards:
        for p, amount in zip(a.players, a.amounts, strict=True):
            finishing[p] += amount
    return HandResult(
        starting_stacks=state.starting_stacks,
        finishing_stacks=tuple(finishing),
        awards=tuple(awards),
        showdown=len(alive) > 1,
        shown=shown,
        board=tuple(state.board),
        pots=tuple(layers),
        _state=state,
    )
