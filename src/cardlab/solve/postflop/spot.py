"""A postflop spot as a user writes it: game, board, ranges, pot, stacks, sizes.

A :class:`Spot` is plain data (it is what a saved solution records, and what the CLI and
the study page fill in); :meth:`Spot.game` turns it into the arrays the solver walks.
Sizes are given for every street and both players, then overridden per street
(``streets={"turn": {"bets": "75%"}}``) and per player and street
(``players={"oop": {"river": {"bets": "50%"}}}``).

>>> spot = Spot("standard52-holdem", "Td9d6h Qc", "AA,KK", "QQ,JJ", 200, 900, bets="60%")
>>> spot.tree_config().sizes[0][0].bets
(BetSize('60%'),)
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

from cardlab.cards import Card
from cardlab.errors import GameError
from cardlab.poker.games import Game, get_game
from cardlab.solve.postflop.game import PostflopGame
from cardlab.solve.postflop.ranges import parse_weighted_range
from cardlab.solve.postflop.sizes import StreetSizes, parse_sizes
from cardlab.solve.postflop.tree import PLAYERS, STREETS, TreeConfig

SIZE_KINDS = ("bets", "raises")


@dataclass(frozen=True)
class Spot:
    """Everything a solve needs, in the user's notation."""

    game: str
    board: str
    oop: str
    ip: str
    pot: int
    stack: int
    bets: str = "50%"
    raises: str = "60%"
    streets: dict[str, dict[str, str]] = field(default_factory=dict)
    players: dict[str, dict[str, dict[str, str]]] = field(default_factory=dict)
    turn_donk: str | None = None
    river_donk: str | None = None
    add_allin: float = 0.0
    force_allin: float = 0.0
    merging: float = 0.0
    rake_rate: float = 0.0
    rake_cap: float = 0.0
    isomorphism: bool = True  # walk one of each pair of suit-mirrored cards

    # --- reading it ------------------------------------------------------------------

    def holdem(self) -> Game:
        game = get_game(self.game)
        if game.base.key != "holdem":
            raise GameError(f"the postflop solver plays Hold'em games, not {game.key}")
        return game

    def board_cards(self, game: Game | None = None) -> tuple[Card, ...]:
        game = game or self.holdem()
        if not isinstance(self.board, str):
            raise GameError(f"the board must be text like 'Td9d6h Qc', got {self.board!r}")
        cards = game.deck.parse_cards(self.board)
        if not 3 <= len(cards) <= 5:
            raise GameError(
                f"a postflop board has 3, 4 or 5 cards, got {len(cards)}: {self.board!r}"
            )
        return cards

    def first_street(self) -> int:
        """0 flop, 1 turn, 2 river."""
        return len(self.board_cards()) - 3

    def sizes_for(self, street: str, player: str, kind: str) -> str:
        text = self.players.get(player, {}).get(street, {}).get(kind)
        if text is None:
            text = self.streets.get(street, {}).get(kind)
        if text is None:
            text = self.bets if kind == "bets" else self.raises
        return text

    def tree_config(self) -> TreeConfig:
        self._check_keys()
        first = self.first_street()
        rounds = 3 - first
        sizes = []
        for r in range(rounds):
            street = STREETS[first + r]
            sizes.append(
                tuple(
                    StreetSizes(
                        parse_sizes(self.sizes_for(street, pl, "bets")),
                        parse_sizes(self.sizes_for(street, pl, "raises"), raise_sizes=True),
                    )
                    for pl in PLAYERS
                )
            )
        donks = {"turn": self.turn_donk, "river": self.river_donk}
        donk = tuple(
            None if (d := donks.get(STREETS[first + r])) is None else parse_sizes(d, donk=True)
            for r in range(rounds)
        )
        for name in ("add_allin", "force_allin", "merging", "rake_rate", "rake_cap"):
            value = getattr(self, name)
            if (
                isinstance(value, bool)
                or not isinstance(value, int | float)
                or not math.isfinite(value)
            ):
                raise GameError(f"{name.replace('_', ' ')} must be a number, got {value!r}")
        return TreeConfig(
            self.pot,
            self.stack,
            rounds,
            tuple((a, b) for a, b in sizes),
            donk,
            rake_rate=float(self.rake_rate),
            rake_cap=float(self.rake_cap),
            add_allin=float(self.add_allin),
            force_allin=float(self.force_allin),
            merging=float(self.merging),
            first_round_name=first,
        )

    def _check_keys(self) -> None:
        for street, kinds in self.streets.items():
            if street not in STREETS:
                raise GameError(f"unknown street {street!r} (expected one of {', '.join(STREETS)})")
            for kind in kinds:
                if kind not in SIZE_KINDS:
                    raise GameError(f"unknown size kind {kind!r} (expected bets or raises)")
        for player, streets in self.players.items():
            if player not in PLAYERS:
                raise GameError(f"unknown player {player!r} (expected oop or ip)")
            self_streets = Spot(**{**asdict(self), "players": {}, "streets": streets})
            self_streets._check_keys()

    def game_arrays(
        self, *, max_memory: int | None = None, compressed: bool = False
    ) -> PostflopGame:
        """The game the solver walks (refused, with the estimate, past ``max_memory``);
        ``compressed``: its regrets and strategy sums kept in 16 bits."""
        game = self.holdem()
        board = self.board_cards(game)
        ranges = (parse_weighted_range(self.oop, game), parse_weighted_range(self.ip, game))
        if not isinstance(self.isomorphism, bool):
            raise GameError(f"isomorphism is true or false, got {self.isomorphism!r}")
        return PostflopGame(
            game,
            board,
            ranges,
            self.tree_config(),
            max_memory=max_memory,
            isomorphism=self.isomorphism,
            compressed=compressed,
        )

    # --- writing it ------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Spot:
        if not isinstance(data, dict):
            raise GameError("a spot is a JSON object")
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise GameError(f"unknown spot fields: {', '.join(sorted(unknown))}")
        try:
            return cls(**data)
        except TypeError as error:
            raise GameError(f"a spot needs game, board, oop, ip, pot and stack: {error}") from None
