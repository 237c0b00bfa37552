"""A table: named seats with stacks, a button that moves, hand after hand.

A hand's positions start left of the button: position 0 is the first occupied seat
after the button (the small blind), the last position is the button (heads-up the
button is position 1 and posts the small blind). Seats with no chips sit out. The
button moves to the next seat with chips after every hand (a simple moving button;
card rooms' dead-button rules are not modelled). Each hand's seed is derived from the
table's seed and the hand number, so a table replays exactly.

>>> from cardlab.table import TableGame
>>> t = Session(TableGame.create("fesca78-holdem"), ["ann", "bob", "cy"], [100] * 3, seed=1)
>>> hand = t.new_hand()
>>> t.seat_of(hand.actor), t.button
(2, 2)
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from cardlab.errors import GameError
from cardlab.table.dealing import Dealer
from cardlab.table.state import HandState
from cardlab.table.structure import Stakes, TableGame


@dataclass
class Seat:
    name: str
    stack: int


class Session:
    """Seats, stacks and the button of a table over many hands."""

    def __init__(
        self,
        game: TableGame,
        names: Sequence[str],
        stacks: Sequence[int] | int,
        *,
        seed: int = 0,
        button: int | None = None,
    ) -> None:
        n = len(names)
        game.check_seats(n)
        values = [stacks] * n if isinstance(stacks, int) else list(stacks)
        if len(values) != n:
            raise GameError(f"{n} seats but {len(values)} stacks")
        for v in values:
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise GameError(f"stacks must be positive whole numbers, got {v!r}")
        self.game = game
        self.seats = [Seat(str(name), v) for name, v in zip(names, values, strict=True)]
        self.seed = seed
        self.button = (n - 1) if button is None else button % n
        self.hands_played = 0
        self.hand: HandState | None = None
        self._order: list[int] = []

    @property
    def active(self) -> list[int]:
        """Seats with chips, in seat order."""
        return [i for i, s in enumerate(self.seats) if s.stack > 0]

    def can_deal(self) -> bool:
        return len(self.active) >= 2

    def hand_seed(self, number: int) -> int:
        return random.Random(f"cardlab table {self.seed} hand {number}").getrandbits(63)

    def next_order(self, sitting_out: Collection[int] = ()) -> list[int]:
        """The seats of the next hand by position: the seats with chips (but
        ``sitting_out``) from the first left of the button round to the button."""
        n = len(self.seats)
        after = [(self.button + k) % n for k in range(1, n + 1)]
        return [s for s in after if self.seats[s].stack > 0 and s not in sitting_out]

    def new_hand(
        self,
        *,
        dealer: Dealer | None = None,
        order: Sequence[int] | None = None,
        posts: Collection[int] = (),
        stakes: Stakes | None = None,
        bomb_pot: bool = False,
        boards: int = 1,
        runs: int = 1,
        **state_options: str,
    ) -> HandState:
        """Deal the next hand (the previous one must be over). ``dealer``: the hand's
        fairly shuffled cards (else the table's seed shuffles); ``order``: the seats by
        position (else :meth:`next_order`); ``posts``: the positions that post a big
        blind to come in at once (:meth:`~cardlab.table.structure.Stakes.with_posts`);
        ``stakes``: this hand's own forced bets (home rules, :mod:`cardlab.table.house`:
        a straddle, a bomb pot's antes, missed blinds), ``bomb_pot``: its first betting
        round is checked through, ``boards``: 2 for a double board, ``runs``: the most
        times the board may be run when all are all in (1 with two boards)."""
        if self.hand is not None and not self.hand.is_over:
            raise GameError("the current hand is not over")
        seats = self.next_order() if order is None else list(order)
        if len(seats) < 2:
            raise GameError("fewer than two seats have chips: the table is over")
        if any(self.seats[s].stack <= 0 for s in seats) or len(set(seats)) != len(seats):
            raise GameError(f"a hand's seats must be distinct seats with chips: {seats}")
        game = self.game
        if stakes is not None:
            game = dataclasses.replace(game, stakes=stakes)
        if posts:
            game = dataclasses.replace(game, stakes=game.stakes.with_posts(posts, len(seats)))
        self._order = seats
        stacks = [self.seats[s].stack for s in self._order]
        self.hand = HandState(
            game,
            stacks,
            seed=self.hand_seed(self.hands_played),
            dealer=dealer,
            bomb_pot=bomb_pot,
            boards=boards,
            runs=runs,
            **state_options,
        )
        return self.hand

    @property
    def order(self) -> list[int]:
        """The current (or last) hand's seats by position."""
        return list(self._order)

    def seat_of(self, position: int | None) -> int | None:
        """The seat at a position of the current hand."""
        return None if position is None else self._order[position]

    def position_of(self, seat: int) -> int | None:
        """The current hand's position of a seat (None: not in the hand)."""
        return self._order.index(seat) if seat in self._order else None

    def names(self) -> list[str]:
        """The current hand's players by position."""
        return [self.seats[s].name for s in self._order]

    def end_hand(self) -> None:
        """Pay out the finished hand to the seats and move the button."""
        hand = self.hand
        if hand is None or hand.result is None:
            raise GameError("no finished hand to end")
        for position, seat in enumerate(self._order):
            self.seats[seat].stack = hand.result.finishing_stacks[position]
        self.hands_played += 1
        n = len(self.seats)
        nxt = [(self.button + k) % n for k in range(1, n + 1)]
        self.button = next((s for s in nxt if self.seats[s].stack > 0), self.button)
