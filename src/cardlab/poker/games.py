"""Base games as data: which cards a player holds, which are shared, which five play.

Mixwell Poker defines only the hands; dealing comes from a base game (spec section 6).
A :class:`Game` is a deck's rule set together with a :class:`BaseGame`, named like the
publisher names them, "FESCA78 Mixwell Texas Hold'em", and looked up by a short key:

>>> from cardlab.poker.games import get_game
>>> game = get_game("fesca78-holdem")
>>> game.name, game.base.hole_cards, game.base.board_cards
("FESCA78 Mixwell Texas Hold'em", 2, 5)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardlab.cards import Card, SuitRole
from cardlab.decks import BUILTIN_DECKS, Deck, get_deck
from cardlab.errors import DeckError, GameError, HandError
from cardlab.poker.rules import RuleSet

MAX_PLAYERS = 10


@dataclass(frozen=True, slots=True)
class BaseGame:
    """How cards are dealt and which of them make a player's five.

    ``hole_used``/``board_used``: the exact number of hole and board cards a five must
    use (Omaha: 2 and 3); ``None`` means any five of all the player's cards.
    """

    key: str
    name: str
    hole_cards: int
    board_cards: int
    hole_used: int | None = None
    board_used: int | None = None
    draws: int = 0

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"BASE_GAMES[{self.key!r}]"

    @property
    def has_board(self) -> bool:
        return self.board_cards > 0

    def five_card_choices(self, hole: int, board: int) -> list[tuple[int, ...]]:
        """Every allowed five as indexes into ``hole cards + board cards``.

        ``hole``/``board`` are how many of each the player has (a complete deal has
        ``hole_cards`` and ``board_cards``).
        """
        if self.hole_used is None:
            return list(itertools.combinations(range(hole + board), 5))
        board_used = self.board_used if self.board_used is not None else 5 - self.hole_used
        return [
            h + tuple(hole + b for b in bb)
            for h in itertools.combinations(range(hole), self.hole_used)
            for bb in itertools.combinations(range(board), board_used)
        ]


HOLDEM = BaseGame("holdem", "Texas Hold'em", hole_cards=2, board_cards=5)
OMAHA = BaseGame("omaha", "Omaha", hole_cards=4, board_cards=5, hole_used=2, board_used=3)
STUD = BaseGame("stud", "Seven-card Stud", hole_cards=7, board_cards=0)
DRAW = BaseGame("draw", "Draw", hole_cards=5, board_cards=0, draws=1)
BASE_GAMES: dict[str, BaseGame] = {g.key: g for g in (HOLDEM, OMAHA, STUD, DRAW)}


@dataclass(frozen=True)
class Game:
    """A deck's rule set played with a base game's dealing."""

    rules: RuleSet
    base: BaseGame

    @property
    def deck(self) -> Deck:
        return self.rules.deck

    @property
    def key(self) -> str:
        """The registry name, e.g. ``fesca78-holdem``."""
        return f"{self.deck.name.lower()}-{self.base.key}"

    @property
    def name(self) -> str:
        """The display name: deck + "Mixwell" + base game; the base game alone for
        a deck of plain suits (standard52: "Texas Hold'em")."""
        if all(s.role is SuitRole.PLAIN for s in self.deck.suits):
            return self.base.name
        return f"{self.deck.name} Mixwell {self.base.name}"

    @property
    def max_players(self) -> int:
        """How many players the deck can deal to (at most :data:`MAX_PLAYERS`)."""
        fit = (len(self.deck) - self.base.board_cards) // self.base.hole_cards
        return min(MAX_PLAYERS, fit)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"get_game({self.key!r})"

    def with_options(self, **options: Any) -> Game:
        """The same game under changed rule options (see :mod:`cardlab.poker.rules`)."""
        return Game(self.rules.with_options(**options), self.base)

    # --- checking a deal ----------------------------------------------------------

    def check_players(self, players: int) -> None:
        """Refuse a number of players the deck cannot deal to, saying how many it can (or
        how many cards two players need, where the deck is smaller)."""
        if self.max_players < 2:
            need = 2 * self.base.hole_cards + self.base.board_cards
            raise GameError(
                f"{self.name} needs at least {need} cards for two players; "
                f"the {self.deck.name} deck has {len(self.deck)}"
            )
        if isinstance(players, bool) or not isinstance(players, int):
            raise GameError(f"players must be a whole number, got {players!r}")
        if not 2 <= players <= self.max_players:
            raise GameError(
                f"{self.name} takes 2 to {self.max_players} players with this deck, got {players}"
            )

    def check_deal(
        self,
        hands: Sequence[Sequence[Card] | None],
        board: Sequence[Card] = (),
        dead: Sequence[Card] = (),
        *,
        complete: bool = True,
        partial_hands: bool = False,
    ) -> None:
        """Refuse an impossible deal: wrong counts, repeated cards, too many players.

        ``complete``: the board must be full (a showdown); otherwise it may be partial.
        ``partial_hands``: players may hold fewer hole cards than the game deals
        (stud equity from a street before the seventh card). A hand given as None
        is a range, whose hands the caller checks.
        """
        n = len(hands)
        self.check_players(n)
        need = self.base.hole_cards
        for i, hand in enumerate(hands, 1):
            if hand is None:
                continue
            ok = len(hand) <= need if partial_hands else len(hand) == need
            if not ok or not hand:
                listed = " ".join(map(str, hand)) or "nothing"
                raise HandError(
                    f"player {i} must hold {need} cards in {self.base.name}, "
                    f"got {len(hand)}: {listed!r}"
                )
        if not self.base.has_board and board:
            raise GameError(f"{self.base.name} has no board, got {len(board)} board cards")
        if complete and len(board) != self.base.board_cards:
            raise GameError(
                f"a {self.base.name} showdown needs {self.base.board_cards} board cards, "
                f"got {len(board)}"
            )
        if len(board) > self.base.board_cards:
            raise GameError(
                f"a {self.base.name} board has at most {self.base.board_cards} cards, "
                f"got {len(board)}"
            )
        seen: dict[Card, str] = {}
        places = [(f"player {i}", h) for i, h in enumerate(hands, 1) if h is not None]
        places += [("the board", board), ("the dead cards", dead)]
        for place, cards in places:
            for card in cards:
                if card not in self.deck:
                    raise GameError(f"card {card} ({place}) is not in the {self.deck.name} deck")
                if card in seen:
                    where = "twice" if seen[card] == place else f"in {seen[card]} and {place}"
                    raise GameError(f"card {card} is dealt {where}")
                seen[card] = place
        missing = sum(need - len(h or ()) for h in hands) + self.base.board_cards - len(board)
        if len(seen) + missing > len(self.deck):
            raise GameError(f"the {self.deck.name} deck has too few cards left for this deal")


def game_names() -> tuple[str, ...]:
    """Every built-in game key: each built-in deck with each base game."""
    return tuple(f"{d.lower()}-{b}" for d in BUILTIN_DECKS for b in BASE_GAMES)


_cache: dict[str, Game] = {}


def get_game(name: str | Game, **options: Any) -> Game:
    """A game by key, ``<deck>-<base game>`` (``fesca78-holdem``, ``tesca54-draw``,
    ``standard52-holdem``); the deck may also be a deck file (``my.toml-omaha``).
    Rule options are changed by name (``suit_tiebreak="off"``)."""
    if isinstance(name, Game):
        return name.with_options(**options) if options else name
    text = name.strip()
    deck_name, sep, base_key = text.rpartition("-")
    base = BASE_GAMES.get(base_key.lower())
    if not sep or base is None:
        raise GameError(_unknown(text))
    cache_key = f"{deck_name.lower()}-{base.key}"
    game = _cache.get(cache_key)
    if game is None:
        try:
            deck = get_deck(deck_name)
        except DeckError:
            if deck_name.endswith(".toml") or "/" in deck_name:
                raise  # a deck file's own problem: say it
            raise GameError(_unknown(text)) from None
        game = Game(RuleSet.for_deck(deck), base)
        _cache[cache_key] = game
    return game.with_options(**options) if options else game


def _unknown(text: str) -> str:
    examples = ", ".join(
        ("fesca78-holdem", "fesca60-omaha", "tesca54-draw", "standard52-holdem", "fesca42-stud")
    )
    return (
        f"unknown game {text!r} (expected <deck>-<holdem|omaha|stud|draw>, e.g. {examples}; "
        f"decks: {', '.join(BUILTIN_DECKS)})"
    )


def game_text(game: Game) -> str:
    """Everything about a game that decides a result: deck cards, rule options, dealing."""
    deck = game.deck
    options = ";".join(f"{info.name}={value}" for info, value in game.rules.options())
    cards = " ".join(c.ascii for c in deck.cards)
    return f"{deck.name}[{cards}]|{deck.wrap.value}|{options}|{game.base.key}"
