"""How a hand is played, as data: the betting structure, the forced bets and the streets.

A :class:`TableGame` is a :class:`~cardlab.poker.games.Game` (deck + rule set + base
game) together with :class:`Stakes`: the betting structure (no-limit, pot-limit,
fixed-limit), the blinds and straddles, the antes, the bring-in and the bet sizes.
Mixwell poker fixes only the hands; the betting and the progression of each base game
are the usual casino ones (spec section 6), so the defaults are:

=========  ===========  =============================================================
base game  betting      forced bets
=========  ===========  =============================================================
Hold'em    no-limit     small and big blind; minimum bet one big blind
Omaha      pot-limit    small and big blind; minimum bet one big blind
Stud       fixed-limit  an ante from every seat and a bring-in; small bet on third and
                        fourth street, big bet from fifth street
Draw       fixed-limit  small and big blind; small bet before the draw, big bet after
=========  ===========  =============================================================

>>> from cardlab.table.structure import TableGame
>>> g = TableGame.create("fesca78-holdem", blinds=(1, 2))
>>> g.stakes
Stakes(betting=Betting.NO_LIMIT, blinds=(1, 2), small_bet=2)
>>> g.streets[1].name, g.streets[1].board
('flop', 3)

Positions follow the convention of pokerkit and the PHH format: position 0 is the
first seat left of the button (the small blind), the last position is the button.
Heads-up, the button posts the small blind and acts first before the flop (so with two
players position 1, the button, posts the small blind).
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from cardlab.errors import GameError
from cardlab.poker.games import Game, get_game

MAX_SEATS = 10


class Betting(enum.Enum):
    """The betting structure: how much a player may bet or raise."""

    NO_LIMIT = "no-limit"
    POT_LIMIT = "pot-limit"
    FIXED_LIMIT = "fixed-limit"

    def __repr__(self) -> str:
        return f"Betting.{self.name}"

    @classmethod
    def parse(cls, text: str | Betting) -> Betting:
        if isinstance(text, Betting):
            return text
        key = text.strip().lower().replace("_", "-").replace(" ", "-")
        aliases = {"nl": "no-limit", "pl": "pot-limit", "fl": "fixed-limit", "limit": "fixed-limit"}
        key = aliases.get(key, key)
        for b in cls:
            if b.value == key:
                return b
        raise GameError(
            f"unknown betting structure {text!r} (expected no-limit, pot-limit or fixed-limit)"
        )


class Opening(enum.Enum):
    """Who opens a betting round."""

    POSITION = "position"  # first player after the blinds (pre-flop) or the button
    LOW_CARD = "low-card"  # stud third street: the lowest up-card brings in
    HIGH_HAND = "high-hand"  # stud later streets: the best showing partial hand


@dataclass(frozen=True, slots=True)
class Street:
    """One street: the cards dealt, then a betting round.

    ``hole``: one entry per hole card dealt to each player, True when dealt face up;
    ``board``: board cards dealt; ``draw``: players discard and draw before betting;
    ``big``: fixed-limit bets are the big bet on this street.
    """

    name: str
    hole: tuple[bool, ...] = ()
    board: int = 0
    draw: bool = False
    opening: Opening = Opening.POSITION
    big: bool = False


_HOLDEM_STREETS = (
    ("pre-flop", 0, False),
    ("flop", 3, False),
    ("turn", 1, True),
    ("river", 1, True),
)


def base_streets(base_key: str, hole_cards: int) -> tuple[Street, ...]:
    """The streets of a base game, the usual casino progression."""
    if base_key in ("holdem", "omaha"):
        first = Street("pre-flop", hole=(False,) * hole_cards)
        rest = tuple(Street(n, board=b, big=big) for n, b, big in _HOLDEM_STREETS[1:])
        return (first, *rest)
    if base_key == "stud":
        return (
            Street("third street", hole=(False, False, True), opening=Opening.LOW_CARD),
            Street("fourth street", hole=(True,), opening=Opening.HIGH_HAND),
            Street("fifth street", hole=(True,), opening=Opening.HIGH_HAND, big=True),
            Street("sixth street", hole=(True,), opening=Opening.HIGH_HAND, big=True),
            Street("seventh street", hole=(False,), opening=Opening.HIGH_HAND, big=True),
        )
    if base_key == "draw":
        return (
            Street("before the draw", hole=(False,) * hole_cards),
            Street("after the draw", draw=True, big=True),
        )
    raise GameError(f"no betting progression for the base game {base_key!r}")


@dataclass(frozen=True, slots=True)
class Stakes:
    """The betting structure and forced bets of a game.

    ``blinds``: by position, small blind first (straddles follow the big blind; a
    negative entry is a *post*, see :meth:`with_posts`);
    ``ante``: paid by every seat; ``antes``: more antes by position (``(0, 2)`` with
    blinds ``(1, 2)`` is a big-blind ante); ``small_bet``: the minimum bet (no-limit and
    pot-limit) or the small bet (fixed-limit); ``big_bet``: fixed-limit's big bet
    (0: twice the small bet); ``max_raises``: bets and raises allowed per round
    (None: unlimited; fixed-limit defaults to 4, the cap of pokerkit and most casinos);
    ``ante_trimming``: antes count towards side pots like bets (False: antes are
    dead money in the main pot).
    """

    betting: Betting
    blinds: tuple[int, ...] = ()
    ante: int = 0
    antes: tuple[int, ...] = ()
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0
    max_raises: int | None = None
    ante_trimming: bool = False

    def __post_init__(self) -> None:
        for name in ("ante", "bring_in", "small_bet", "big_bet"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise GameError(f"{name.replace('_', ' ')} must be a whole number >= 0: {value!r}")
        if any(not isinstance(v, int) or isinstance(v, bool) for v in self.blinds):
            raise GameError(f"blinds must be whole numbers, got {self.blinds!r}")
        if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in self.antes):
            raise GameError(f"antes must be whole numbers >= 0, got {self.antes!r}")
        if self.small_bet <= 0:
            raise GameError(f"the minimum bet must be positive, got {self.small_bet}")
        if self.max_raises is not None and self.max_raises < 1:
            raise GameError(f"max raises must be at least 1, got {self.max_raises}")
        if self.bring_in and self.bring_in >= self.small_bet:
            raise GameError(
                f"the bring-in ({self.bring_in}) must be less than the small bet ({self.small_bet})"
            )
        if self.bring_in and any(self.blinds):
            raise GameError("a game has a bring-in or blinds, not both")
        if not any(self.blinds) and not self.ante and not any(self.antes) and not self.bring_in:
            raise GameError("a game needs a forced bet: blinds, antes or a bring-in")

    def __repr__(self) -> str:
        parts = [f"betting={self.betting!r}"]
        for f in dataclasses.fields(self):
            if f.name == "betting":
                continue
            value = getattr(self, f.name)
            if value != f.default:
                parts.append(f"{f.name}={value!r}")
        return f"Stakes({', '.join(parts)})"

    @property
    def big(self) -> int:
        """Fixed-limit's big bet."""
        return self.big_bet or 2 * self.small_bet

    @property
    def raise_cap(self) -> int | None:
        if self.max_raises is not None:
            return self.max_raises
        return 4 if self.betting is Betting.FIXED_LIMIT else None

    def blinds_for(self, players: int) -> list[int]:
        """The blind each position posts; heads-up the button (position 1) posts the
        small blind and position 0 the big blind."""
        return _spread(self.blinds, players)

    def with_posts(self, positions: Collection[int], players: int) -> Stakes:
        """These stakes for a hand of ``players`` in which the players at ``positions``
        each *post* a big blind to be dealt in at once (people new to a running table).
        A post is a negative entry of ``blinds``, as pokerkit's ``blinds_or_straddles``
        writes it: the chips are the poster's live bet (they may check if nobody raises)
        but do not change who acts first. A position with a blind already posts that."""
        big = max(self.blinds[:2], default=0)
        if big <= 0 or players < 3:
            raise GameError(
                f"a post needs a big blind and three or more players: blinds {self.blinds}, "
                f"{players} players"
            )
        values = list(self.blinds[:players]) + [0] * max(0, players - len(self.blinds))
        for p in positions:
            if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < players:
                raise GameError(f"a post is at a position from 0 to {players - 1}, got {p!r}")
            if values[p] == 0:
                values[p] = -big
        return dataclasses.replace(self, blinds=tuple(values))

    def antes_for(self, players: int) -> list[int]:
        """The ante each position posts (heads-up reversed like the blinds)."""
        extra = _spread(self.antes, players)
        return [self.ante + a for a in extra]

    def describe(self) -> str:
        parts = [self.betting.value]
        if any(self.blinds):
            parts.append("blinds " + "/".join(map(str, self.blinds)))
        if self.ante:
            parts.append(f"ante {self.ante}")
        if any(self.antes):
            parts.append("antes " + "/".join(map(str, self.antes)))
        if self.bring_in:
            parts.append(f"bring-in {self.bring_in}")
        if self.betting is Betting.FIXED_LIMIT:
            parts.append(f"bets {self.small_bet}/{self.big}")
        else:
            parts.append(f"min bet {self.small_bet}")
        return ", ".join(parts)


class BringIn(enum.Enum):
    """Stud: who brings in on third street ([choice] for decks no rule book covers)."""

    LOW_CARD = "low-card"  # lowest up-card by rank; ties by the rule set's suit order
    HIGH_CARD = "high-card"  # highest up-card (as in razz-like games)


class StudOpener(enum.Enum):
    """Stud: who acts first from fourth street on ([choice])."""

    BEST_SHOWING = "best-showing"  # best partial hand of the up-cards; ties: position
    BEST_SHOWING_SUITS = "best-showing-suits"  # ties broken by the suit order instead


@dataclass(frozen=True, slots=True)
class StudOptions:
    """The choices stud needs on a FESCA deck (documented in docs/table.md)."""

    bring_in: BringIn = BringIn.LOW_CARD
    opener: StudOpener = StudOpener.BEST_SHOWING


STUD_OPTIONS: dict[str, tuple[str, str, str]] = {
    # name: (default, source, doc)
    "stud_bring_in": (
        "low-card",
        "choice",
        "who brings in: the lowest up-card (ties: the rule set's suit order, weakest suit "
        "brings in) or high-card",
    ),
    "stud_opener": (
        "best-showing",
        "choice",
        "who opens fourth to seventh street: the best partial hand of up-cards (ties: "
        "position) or best-showing-suits (ties: the suit of the highest card)",
    ),
}


@dataclass(frozen=True)
class TableGame:
    """A game and its stakes: everything needed to deal and bet a hand."""

    game: Game
    stakes: Stakes
    stud: StudOptions = StudOptions()

    @classmethod
    def create(
        cls,
        game: str | Game,
        *,
        betting: str | Betting | None = None,
        blinds: Sequence[int] | None = None,
        antes: int | Sequence[int] | None = None,
        bring_in: int | None = None,
        small_bet: int | None = None,
        big_bet: int | None = None,
        max_raises: int | None = None,
        ante_trimming: bool = False,
        stud_bring_in: str = "low-card",
        stud_opener: str = "best-showing",
        **rule_options: Any,
    ) -> TableGame:
        """A game with the usual casino stakes for its base game, each overridable.

        Defaults: Hold'em no-limit with blinds 1/2; Omaha pot-limit, blinds 1/2; Stud
        fixed-limit with ante 1, bring-in 1, bets 2/4; Draw fixed-limit, blinds 1/2,
        bets 2/4.
        """
        g = get_game(game, **rule_options)
        base = g.base.key
        default_betting = {
            "holdem": Betting.NO_LIMIT,
            "omaha": Betting.POT_LIMIT,
            "stud": Betting.FIXED_LIMIT,
            "draw": Betting.FIXED_LIMIT,
        }[base]
        b = Betting.parse(betting) if betting is not None else default_betting
        if base == "stud":
            bl: tuple[int, ...] = tuple(blinds) if blinds is not None else ()
            an, ante = _antes(antes, default=1)
            sb = small_bet if small_bet is not None else 2
            bi = bring_in if bring_in is not None else (0 if bl else max(1, sb // 2))
        else:
            bl = tuple(blinds) if blinds is not None else (1, 2)
            an, ante = _antes(antes, default=0)
            bi = bring_in or 0
            sb = small_bet if small_bet is not None else (max(bl) if any(bl) else 2)
        stakes = Stakes(
            betting=b,
            blinds=bl,
            ante=ante,
            antes=an,
            bring_in=bi,
            small_bet=sb,
            big_bet=big_bet or 0,
            max_raises=max_raises,
            ante_trimming=ante_trimming,
        )
        stud = StudOptions(_choice(BringIn, stud_bring_in), _choice(StudOpener, stud_opener))
        return cls(g, stakes, stud)

    @property
    def streets(self) -> tuple[Street, ...]:
        return base_streets(self.game.base.key, self.game.base.hole_cards)

    @property
    def name(self) -> str:
        return f"{self.game.name} ({self.stakes.describe()})"

    @property
    def max_seats(self) -> int:
        """At most 10, and no more than the deck can deal to (draws reshuffle)."""
        base = self.game.base
        fit = (len(self.game.deck) - base.board_cards) // base.hole_cards
        if base.key == "stud":
            # the usual rule: when the deck runs short on seventh street one card is
            # dealt face up to the board for everyone
            fit = (len(self.game.deck) - 1) // 6
        return min(MAX_SEATS, fit)

    def check_seats(self, seats: int) -> None:
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise GameError(f"seats must be a whole number, got {seats!r}")
        if self.max_seats < 2:
            base = self.game.base
            # Stud: six cards each, the seventh shared face up when the deck runs short
            need = 2 * 6 + 1 if base.key == "stud" else 2 * base.hole_cards + base.board_cards
            raise GameError(
                f"{self.game.name} needs at least {need} cards for two players; the "
                f"{self.game.deck.name} deck has {len(self.game.deck)}"
            )
        if not 2 <= seats <= self.max_seats:
            raise GameError(
                f"{self.game.name} seats 2 to {self.max_seats} players with the "
                f"{self.game.deck.name} deck, got {seats}"
            )


def _antes(value: int | Sequence[int] | None, *, default: int) -> tuple[tuple[int, ...], int]:
    """(per-position antes, ante for everyone)."""
    if value is None:
        return (), default
    if isinstance(value, int):
        return (), value
    return tuple(value), 0


def _spread(values: tuple[int, ...], players: int) -> list[int]:
    out = list(values[:players]) + [0] * max(0, players - len(values))
    if players == 2:
        out.reverse()
    return out


def _choice(kind: type[enum.Enum], text: str) -> Any:
    for member in kind:
        if member.value == text:
            return member
    known = ", ".join(m.value for m in kind)
    raise GameError(f"unknown {kind.__name__} option {text!r} (expected one of {known})")
