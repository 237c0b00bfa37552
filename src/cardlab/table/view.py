"""What one seat may know of a hand: a frozen value with every hidden card left out.

Bots, the terminal table and the web table see a hand only through :func:`seat_view`,
so no one learns a card dealt face down to somebody else, a card still in the deck, or
the seed; a hand shown at the showdown (the shows come one by one) or by the winner
of an uncontested pot after the hand is public; mucked and folded hands never are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardlab.cards import Card, format_cards
from cardlab.table import events as ev
from cardlab.table.pots import Pot
from cardlab.table.state import HandState, Legal, Phase
from cardlab.table.structure import TableGame


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One position as the viewer sees it; ``cards`` has None for a hidden card."""

    position: int
    stack: int
    bet: int
    in_hand: bool
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]

    @property
    def all_in(self) -> bool:
        return self.in_hand and self.stack == 0


@dataclass(frozen=True, slots=True)
class SeatView:
    """The hand seen from ``position`` (None: a spectator, who sees no hole cards)."""

    game: TableGame
    position: int | None
    phase: Phase
    street: str
    street_index: int
    actor: int | None
    board: tuple[Card, ...]
    players: tuple[PlayerView, ...]
    pots: tuple[Pot, ...]
    total_pot: int
    legal: Legal | None  # what the viewer may do, when it is their turn
    history: tuple[ev.Event, ...]
    over: bool

    @property
    def me(self) -> PlayerView | None:
        return None if self.position is None else self.players[self.position]

    @property
    def hole(self) -> tuple[Card, ...]:
        """The viewer's own cards."""
        me = self.me
        return () if me is None else tuple(c for c in me.cards if c is not None)

    @property
    def to_call(self) -> int:
        return 0 if self.legal is None or self.legal.call is None else self.legal.call

    @property
    def live_opponents(self) -> list[int]:
        return [p.position for p in self.players if p.in_hand and p.position != self.position]

    def as_dict(self) -> dict[str, Any]:
        legal = self.legal
        return {
            "game": self.game.game.key,
            "position": None if self.position is None else self.position + 1,
            "phase": self.phase.value,
            "street": self.street,
            "actor": None if self.actor is None else self.actor + 1,
            "board": format_cards(self.board),
            "pots": [
                {"amount": p.amount, "players": [i + 1 for i in p.players]} for p in self.pots
            ],
            "total_pot": self.total_pot,
            "players": [
                {
                    "position": p.position + 1,
                    "stack": p.stack,
                    "bet": p.bet,
                    "in_hand": p.in_hand,
                    "cards": ["??" if c is None else str(c) for c in p.cards],
                    "up": list(p.up),
                }
                for p in self.players
            ],
            "legal": None
            if legal is None
            else {
                "fold": legal.fold,
                "call": legal.call,
                "bring_in": legal.bring_in,
                "raise_min": legal.raise_min,
                "raise_max": legal.raise_max,
                "complete": legal.complete,
                "discard": legal.discard,
                "phase": legal.phase.value,
            },
            "over": self.over,
        }


def _visible(hand: HandState, viewer: int | None, owner: int, k: int) -> bool:
    if viewer == owner or hand.up[owner][k]:
        return True
    return hand.has_shown(owner)  # at the showdown, or by an uncontested winner after it


def masked(event: ev.Event, viewer: int | None, hand: HandState) -> ev.Event:
    """``event`` with what ``viewer`` may not see replaced by None."""
    if isinstance(event, ev.DealHole) and event.player != viewer:
        if hand.has_shown(event.player):
            return event
        cards = tuple(c if up else None for c, up in zip(event.cards, event.up, strict=True))
        return ev.DealHole.played(event.player, cards, event.up)  # its token hides them too
    if isinstance(event, ev.StandPatDiscard) and event.player != viewer:
        return ev.StandPatDiscard.played(event.player, (None,) * len(event.cards))
    return event


def seat_view(hand: HandState, position: int | None) -> SeatView:
    """The hand as ``position`` sees it (None: a spectator)."""
    players = []
    for i in range(hand.players):
        cards = tuple(
            c if _visible(hand, position, i, k) else None for k, c in enumerate(hand.hole[i])
        )
        players.append(
            PlayerView(i, hand.stacks[i], hand.bets[i], hand.alive[i], cards, tuple(hand.up[i]))
        )
    legal = hand.legal() if hand.actor is not None and hand.actor == position else None
    return SeatView(
        game=hand.game,
        position=position,
        phase=hand.phase,
        street=hand.street_name,
        street_index=hand.street_index,
        actor=hand.actor,
        board=tuple(hand.board),
        players=tuple(players),
        pots=tuple(hand.pots()),
        total_pot=hand.total_pot,
        legal=legal,
        history=tuple(masked(e, position, hand) for e in hand.history),
        over=hand.is_over,
    )
