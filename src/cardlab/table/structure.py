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
import functools
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from cardlab.cards import Card
from cardlab.decks import BUILTIN_DECKS, Deck, builtin_name
from cardlab.decks.loading import deck_from_toml
from cardlab.errors import GameError
from cardlab.poker.games import BASE_GAMES, Game, get_game
from cardlab.poker.lowball import LowRule
from cardlab.poker.rules import RuleSet

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
    HIGH_CARD = "high-card"  # razz third street: the highest up-card (ace-to-five order)
    LOW_HAND = "low-hand"  # razz later streets: the best (lowest) showing partial hand


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


_DRAW_NAMES = ("first draw", "second draw", "third draw")


@functools.lru_cache(maxsize=64)
def base_streets(
    base_key: str, hole_cards: int, *, draws: int = 1, low: bool = False
) -> tuple[Street, ...]:
    """The streets of a base game, the usual casino progression (``draws``: how many
    draws a draw game has; ``low``: stud played for low, razz's openers)."""
    if base_key in ("holdem", "omaha"):
        first = Street("pre-flop", hole=(False,) * hole_cards)
        rest = tuple(Street(n, board=b, big=big) for n, b, big in _HOLDEM_STREETS[1:])
        return (first, *rest)
    if base_key == "stud":
        bring_in = Opening.HIGH_CARD if low else Opening.LOW_CARD
        opens = Opening.LOW_HAND if low else Opening.HIGH_HAND
        return (
            Street("third street", hole=(False, False, True), opening=bring_in),
            Street("fourth street", hole=(True,), opening=opens),
            Street("fifth street", hole=(True,), opening=opens, big=True),
            Street("sixth street", hole=(True,), opening=opens, big=True),
            Street("seventh street", hole=(False,), opening=opens, big=True),
        )
    if base_key == "draw" and draws == 1:
        return (
            Street("before the draw", hole=(False,) * hole_cards),
            Street("after the draw", draw=True, big=True),
        )
    if base_key == "draw" and 1 < draws <= len(_DRAW_NAMES):
        # triple draw: the small bet before the draw and after the first, then the big
        first = Street("before the draws", hole=(False,) * hole_cards)
        later = [Street(_DRAW_NAMES[k], draw=True, big=2 * k >= draws - 1) for k in range(draws)]
        return (first, *later)
    raise GameError(f"no betting progression for the base game {base_key!r} ({draws} draws)")


@dataclass(frozen=True, slots=True)
class Variant:
    """How a base game's deal is played out: who wins a pot, how many cards and draws.

    ``high``: the rule set's high hand wins (a share of) each pot; ``low``: a low rule
    (:class:`~cardlab.poker.lowball.LowRule`) wins (a share of) it. With both, each pot
    is split in two, the odd chip to the high half; a half nobody in the pot qualifies
    for goes to the other (a scoop). ``hole_cards`` and ``draws`` change the base
    game's dealing (badugi: four cards, three draws); ``betting``: its usual betting.
    ``phh``: the PHH variant code for each betting structure.
    """

    key: str
    name: str
    base: str
    betting: Betting
    high: bool = True
    low: LowRule | None = None
    hole_cards: int | None = None
    draws: int = 1
    phh: tuple[tuple[Betting, str], ...] = ()

    def __repr__(self) -> str:
        return f"VARIANTS[{self.key!r}]"

    @property
    def hands(self) -> tuple[LowRule | None, ...]:
        """The hands that share each pot, high (None) first."""
        return ((None,) if self.high else ()) + ((self.low,) if self.low else ())

    @property
    def low_stud(self) -> bool:
        """Stud played for low only (razz): the highest up-card brings in."""
        return self.base == "stud" and not self.high

    def code(self, betting: Betting, deck: Deck) -> str:
        """The PHH variant code of this variant with ``betting`` on ``deck``."""
        codes = dict(self.phh)
        if self.key == "holdem" and deck.name == SHORT_DECK.name:
            codes = {Betting.NO_LIMIT: "NS"}
        if betting not in codes:
            raise GameError(f"PHH has no variant code for {betting.value} {self.name}")
        return codes[betting]


_L = LowRule
VARIANTS: dict[str, Variant] = {
    v.key: v
    for v in (
        Variant(
            "holdem",
            "Texas Hold'em",
            "holdem",
            Betting.NO_LIMIT,
            phh=((Betting.NO_LIMIT, "NT"), (Betting.FIXED_LIMIT, "FT"), (Betting.POT_LIMIT, "PT")),
        ),
        Variant(
            "omaha",
            "Omaha",
            "omaha",
            Betting.POT_LIMIT,
            phh=((Betting.POT_LIMIT, "PO"), (Betting.NO_LIMIT, "NO"), (Betting.FIXED_LIMIT, "FO")),
        ),
        Variant(
            "stud",
            "Seven-card Stud",
            "stud",
            Betting.FIXED_LIMIT,
            phh=(
                (Betting.FIXED_LIMIT, "F7S"),
                (Betting.NO_LIMIT, "N7S"),
                (Betting.POT_LIMIT, "P7S"),
            ),
        ),
        Variant(
            "draw",
            "Draw",
            "draw",
            Betting.FIXED_LIMIT,
            phh=(
                (Betting.FIXED_LIMIT, "F5CD"),
                (Betting.NO_LIMIT, "N5CD"),
                (Betting.POT_LIMIT, "P5CD"),
            ),
        ),
        Variant(
            "omaha8",
            "Omaha Hi-Lo eight or better",
            "omaha",
            Betting.FIXED_LIMIT,
            low=_L.EIGHT_OR_BETTER,
            phh=(
                (Betting.FIXED_LIMIT, "FO/8"),
                (Betting.POT_LIMIT, "PO/8"),
                (Betting.NO_LIMIT, "NO/8"),
            ),
        ),
        Variant(
            "stud8",
            "Seven-card Stud Hi-Lo eight or better",
            "stud",
            Betting.FIXED_LIMIT,
            low=_L.EIGHT_OR_BETTER,
            phh=((Betting.FIXED_LIMIT, "F7S/8"),),
        ),
        Variant(
            "razz",
            "Razz",
            "stud",
            Betting.FIXED_LIMIT,
            high=False,
            low=_L.ACE_TO_FIVE,
            phh=((Betting.FIXED_LIMIT, "FR"),),
        ),
        Variant(
            "27-single-draw",
            "Deuce-to-Seven Single Draw",
            "draw",
            Betting.NO_LIMIT,
            high=False,
            low=_L.DEUCE_TO_SEVEN,
            phh=((Betting.NO_LIMIT, "N2L1D"),),
        ),
        Variant(
            "27-triple-draw",
            "Deuce-to-Seven Triple Draw",
            "draw",
            Betting.FIXED_LIMIT,
            high=False,
            low=_L.DEUCE_TO_SEVEN,
            draws=3,
            phh=((Betting.FIXED_LIMIT, "F2L3D"),),
        ),
        Variant(
            "badugi",
            "Badugi",
            "draw",
            Betting.FIXED_LIMIT,
            high=False,
            low=_L.BADUGI,
            hole_cards=4,
            draws=3,
            phh=((Betting.FIXED_LIMIT, "FB"),),
        ),
    )
}
"""The variants by key; a table game is named ``<deck>-<variant>`` (``standard52-razz``,
``fesca78-badugi``, ``short36-holdem``)."""

SHORT_DECK = deck_from_toml(
    """
name = "short36"
description = "The short deck: 6-A in four suits (36 cards), ace high or in A-6-7-8-9"
suits = ["c", "d", "h", "s"]
ranks = ["6", "7", "8", "9", "T", "J", "Q", "K", "A"]
wrap = "ace-low"
""",
    source="short36",
)
"""Short-deck Hold'em's deck. Its hand order is derived like every deck's, by rarity:
a flush is rarer than a full house and a straight rarer than three of a kind, which is
pokerkit's (and the card rooms') short-deck order; A-6-7-8-9 is the lowest straight."""

PHH_VARIANTS: dict[str, tuple[Variant, Betting]] = {
    code: (v, b) for v in VARIANTS.values() for b, code in v.phh
} | {"NS": (VARIANTS["holdem"], Betting.NO_LIMIT)}
"""Each PHH variant code (the specification's and cardlab's own) -> variant, betting."""


def phh_variant(code: str, deck: Deck) -> tuple[str, Betting]:
    """The game key (``<deck>-<variant>``) and betting of a PHH variant code played on
    ``deck`` (NS: the short deck, which it names itself)."""
    if code not in PHH_VARIANTS:
        known = ", ".join(sorted(PHH_VARIANTS))
        raise GameError(f"variant {code!r} is not played by cardlab (known: {known})")
    variant, betting = PHH_VARIANTS[code]
    if code == "NS":
        if deck.name.lower() not in ("standard52", SHORT_DECK.name):
            raise GameError(
                f"variant 'NS' (short-deck Hold'em) is played on the 36-card short deck "
                f"(6 to A); it has no meaning on the {deck.name} deck"
            )
        return f"{SHORT_DECK.name}-holdem", betting
    return f"{deck.name.lower()}-{variant.key}", betting


def phh_game(code: str, deck: Deck, given: object = None) -> tuple[str | Game, Variant, Betting]:
    """What a PHH hand of variant ``code`` on ``deck`` is played with: the game (a key,
    or a :class:`Game` for a user's deck), the variant and the betting. ``given``: the
    hand's ``_game`` field (cardlab's), which must deal like the variant."""
    key, betting = phh_variant(code, deck)
    variant = PHH_VARIANTS[code][0]
    if builtin_name(deck) is None:  # a user's deck, from its definition in _deck
        return Game(RuleSet.for_deck(deck), BASE_GAMES[variant.base]), variant, betting
    if isinstance(given, str) and given.strip():
        game, _ = table_game_of(given)
        if game.base.key != variant.base:
            raise GameError(f"_game {given!r} does not match variant {code!r}")
        return given, variant, betting
    return key, variant, betting


def phh_code(game: TableGame) -> str:
    """The PHH variant code of a table game (its variant and betting)."""
    return game.variant.code(game.stakes.betting, game.game.deck)


def split_game_key(name: str) -> tuple[str, Variant]:
    """``"fesca78-razz"`` -> (``"fesca78-stud"``, the razz variant): the registry game
    that deals the cards and the variant that plays them."""
    text = name.strip()
    lowered = text.lower()
    for key in sorted(VARIANTS, key=len, reverse=True):
        if lowered.endswith("-" + key):
            deck = text[: -len(key) - 1]
            variant = VARIANTS[key]
            return f"{deck}-{variant.base}", variant
    raise GameError(
        f"unknown game {text!r} (expected <deck>-<variant>, e.g. standard52-razz, "
        f"fesca78-holdem, short36-holdem; variants: {', '.join(VARIANTS)})"
    )


def table_game_names() -> tuple[str, ...]:
    """Every table game of the built-in decks: each deck with each variant (the base
    games and the low and split games on the deck's own order), and short-deck Hold'em."""
    names = [f"{deck.lower()}-{key}" for deck in BUILTIN_DECKS for key in VARIANTS]
    return (*names, f"{SHORT_DECK.name}-holdem")


def table_game_of(name: str | Game, **options: Any) -> tuple[Game, Variant]:
    """The game (deck, rules, base game) and variant a table game key names."""
    if isinstance(name, Game):
        return get_game(name, **options), VARIANTS[name.base.key]
    key, variant = split_game_key(name)
    deck_name = key.rpartition("-")[0]
    if deck_name.lower() == SHORT_DECK.name:
        rules = RuleSet.for_deck(SHORT_DECK, **options)
        return Game(rules, BASE_GAMES[variant.base]), variant
    game = get_game(key, **options)
    if variant.base != game.base.key:
        raise GameError(f"unknown game {name!r}: {variant.name} is not {game.base.name}")
    return game, variant


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
    """A game and its stakes: everything needed to deal and bet a hand.

    ``variant``: how the deal is played out (razz, hi-lo, badugi...); None: the base
    game played for high, as the deck's rules rank hands.
    """

    game: Game
    stakes: Stakes
    stud: StudOptions = StudOptions()
    variant: Variant = None  # type: ignore[assignment]  # None: set from the base game

    own_order: ClassVar[bool] = False
    """True for a game that ranks its hands itself (:meth:`hand_key`): the small games
    of :mod:`cardlab.solve` at the table (:mod:`cardlab.solve.small_table`). Every other game
    is ranked by the poker evaluator (:mod:`cardlab.table.showdown`)."""

    def hand_key(self, own: Sequence[Card], board: Sequence[Card]) -> int:
        """A showdown key (higher wins, equal splits) of a game with :attr:`own_order`."""
        raise GameError(f"{self.title} ranks hands with the poker evaluator")

    def decided_by(self, best: int, other: int) -> str:
        """What told two :meth:`hand_key` keys apart (a game with :attr:`own_order`)."""
        raise GameError(f"{self.title} ranks hands with the poker evaluator")

    def __post_init__(self) -> None:
        if self.variant is None:
            object.__setattr__(self, "variant", VARIANTS[self.game.base.key])
        if self.variant.base != self.game.base.key:
            raise GameError(
                f"{self.variant.name} is played with {self.variant.base}, not {self.game.base.name}"
            )

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
        variant: str | Variant | None = None,
        **rule_options: Any,
    ) -> TableGame:
        """A game with the usual casino stakes for its base game, each overridable.

        Defaults: Hold'em no-limit with blinds 1/2; Omaha pot-limit, blinds 1/2; Stud
        fixed-limit with ante 1, bring-in 1, bets 2/4; Draw fixed-limit, blinds 1/2,
        bets 2/4. A variant's own betting comes first (razz, Omaha hi-lo, triple draw
        and badugi: fixed-limit; deuce-to-seven single draw: no-limit). ``variant``
        (a key of :data:`VARIANTS`) plays the game's deal as that variant.
        """
        g, named = table_game_of(game, **rule_options)
        variant = _variant(variant) if variant is not None else named
        base = g.base.key
        b = Betting.parse(betting) if betting is not None else variant.betting
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
        return cls(g, stakes, stud, variant)

    @property
    def hole_cards(self) -> int:
        """Hole cards each player holds (the variant's, else the base game's)."""
        return self.variant.hole_cards or self.game.base.hole_cards

    @functools.cached_property
    def streets(self) -> tuple[Street, ...]:
        v = self.variant
        return base_streets(v.base, self.hole_cards, draws=v.draws, low=v.low_stud)

    @functools.cached_property
    def draws_after(self) -> tuple[bool, ...]:
        """For each street, whether a later street has a draw."""
        streets = self.streets
        return tuple(any(s.draw for s in streets[k + 1 :]) for k in range(len(streets)))

    @property
    def key(self) -> str:
        """The table game's key, ``<deck>-<variant>`` (``standard52-razz``)."""
        return f"{self.game.deck.name.lower()}-{self.variant.key}"

    @property
    def title(self) -> str:
        """The game's display name with its variant (no stakes)."""
        if self.game.deck.name == SHORT_DECK.name:
            return f"Short-deck {self.variant.name}"
        if self.variant.key == self.game.base.key:
            return self.game.name
        plain = self.game.name == self.game.base.name
        return self.variant.name if plain else f"{self.game.deck.name} {self.variant.name}"

    @property
    def name(self) -> str:
        return f"{self.title} ({self.stakes.describe()})"

    @functools.cached_property
    def max_seats(self) -> int:
        """At most 10, and no more than the deck can deal to (draws reshuffle)."""
        base = self.game.base
        fit = (len(self.game.deck) - base.board_cards) // self.hole_cards
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
            need = 2 * 6 + 1 if base.key == "stud" else 2 * self.hole_cards + base.board_cards
            raise GameError(
                f"{self.title} needs at least {need} cards for two players; the "
                f"{self.game.deck.name} deck has {len(self.game.deck)}"
            )
        if not 2 <= seats <= self.max_seats:
            raise GameError(
                f"{self.title} seats 2 to {self.max_seats} players with the "
                f"{self.game.deck.name} deck, got {seats}"
            )


def _variant(value: str | Variant) -> Variant:
    if isinstance(value, Variant):
        return value
    if value not in VARIANTS:
        raise GameError(f"unknown variant {value!r} (expected one of {', '.join(VARIANTS)})")
    return VARIANTS[value]


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
