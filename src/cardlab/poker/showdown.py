"""Settle a showdown: each player's best five, the winners, the split and why.

>>> from cardlab.poker.games import get_game
>>> s = settle(get_game("standard52-holdem"), ["As Ac", "Kd Kh"], board="2c 7d 9h Ks 3s")
>>> s.winners, s.decided_by
((1,), 'category')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cardlab.cards import Card, format_cards
from cardlab.poker.games import Game
from cardlab.poker.hands import DecidedBy, HandValue, best_hand, compare, evaluate

CardsLike = str | Sequence[Card]


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One player at the showdown: hole cards, best five (as a value) and pot share."""

    seat: int  # 0-based
    hole: tuple[Card, ...]
    value: HandValue
    share: Fraction

    @property
    def best_five(self) -> tuple[Card, ...]:
        """The five cards that play, in significance order."""
        return self.value.cards

    @property
    def wins(self) -> bool:
        return self.share > 0


@dataclass(frozen=True, slots=True)
class Showdown:
    """The result: players in seat order, the winners' seats, and the step of the
    tie-break rules that decided it (``"tie"`` when the pot is split)."""

    game: Game
    board: tuple[Card, ...]
    players: tuple[PlayerHand, ...]
    winners: tuple[int, ...]
    decided_by: DecidedBy

    @property
    def split(self) -> bool:
        return len(self.winners) > 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "board": format_cards(self.board),
            "winners": [w + 1 for w in self.winners],
            "split": self.split,
            "decided_by": self.decided_by,
            "players": [
                {
                    "seat": p.seat + 1,
                    "hole": format_cards(p.hole),
                    "best_five": format_cards(p.best_five),
                    "hand": p.value.category.value,
                    "secondary": p.value.secondary.value if p.value.secondary else None,
                    "description": p.value.describe(),
                    "key": p.value.key,
                    "share": p.share,
                }
                for p in self.players
            ],
        }


def best_five(game: Game, hole: Sequence[Card], board: Sequence[Card] = ()) -> HandValue:
    """A player's best hand under the game's rule of which cards play (reference)."""
    rules = game.rules
    base = game.base
    if base.hole_used is None:
        cards = (*hole, *board)
        return evaluate(cards, rules) if len(cards) == 5 else best_hand(cards, rules)
    cards = (*hole, *board)
    choices = base.five_card_choices(len(hole), len(board))
    return max(evaluate([cards[i] for i in choice], rules) for choice in choices)


def player_keys(
    game: Game, hands: Sequence[Sequence[Card]], board: Sequence[Card] = ()
) -> list[int]:
    """Every player's best key (reference evaluator; no checks)."""
    return [best_five(game, hole, board).key for hole in hands]


def settle(
    game: Game,
    hands: Sequence[CardsLike],
    board: CardsLike = (),
    dead: CardsLike = (),
) -> Showdown:
    """The showdown of 2..10 players' complete hands (and the full board, if any).

    Refuses repeated cards among players, board and dead cards, a wrong number of
    hole cards or board cards, and more players than the deck can deal to.
    """
    deck = game.deck
    holes = [deck.parse_cards(h) for h in hands]
    b = deck.parse_cards(board) if board else ()
    d = deck.parse_cards(dead) if dead else ()
    game.check_deal(holes, b, d, complete=True)
    values = [best_five(game, hole, b) for hole in holes]
    winners, decided_by = compare(values)
    share = Fraction(1, len(winners))
    players = tuple(
        PlayerHand(i, hole, value, share if i in winners else Fraction(0))
        for i, (hole, value) in enumerate(zip(holes, values, strict=True))
    )
    return Showdown(game, b, players, tuple(winners), decided_by)
