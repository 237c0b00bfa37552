"""Cards, suits and ranks: immutable values with one notation each way.

Every card has a canonical text form and an ASCII form, and both parse back:

============  ==============  ==========  ==================================
card          canonical       ASCII       also accepted
============  ==============  ==========  ==================================
Wood 7        ``木7``         ``M7``      ``m7``, ``木７``
Metal void    ``金Z``         ``GZ``      ``金空無``
Yin-Yang 3    ``陰陽3``       ``Y3``
Taikyoku      ``太極``        ``YZ``      ``陰陽Z``, ``陰陽空無``
ace of spades ``As``          ``As``      ``A♠``, ``as``, ``1s``, ``Ａｓ``
ten of hearts ``Th``          ``Th``      ``10h``
============  ==============  ==========  ==================================

FESCA suit letters are the initials of the traditional readings mo-ka-do-gon-sui
(``M K D G S``) and ``Y`` for 陰陽, in either case. Standard suits are lower-case
``s h d c``; ``1`` is the ace, so ``As 1s`` names one card twice. Full-width letters
and digits read as their ASCII forms.
Parsing a card does not need a deck; a :class:`~cardlab.decks.Deck` then checks that
the card belongs to it (:meth:`~cardlab.decks.Deck.parse_cards`).
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from cardlab.errors import CardError


class SuitRole(enum.Enum):
    """What a suit does in the rules: an element counts towards Mixwell."""

    ELEMENT = "element"
    EXTRA = "extra"
    PLAIN = "plain"


class Notation(enum.Enum):
    """How a suit's cards are written: kanji suit first, or rank first (``As``)."""

    SUIT_FIRST = "suit-first"
    RANK_FIRST = "rank-first"


@dataclass(frozen=True, slots=True)
class Suit:
    """A suit: its ASCII letter (the key), its symbol, English name and role."""

    key: str
    symbol: str
    name: str
    role: SuitRole
    notation: Notation = Notation.SUIT_FIRST
    void_name: str = ""  # the void card's own name in this suit, e.g. 太極

    def __str__(self) -> str:
        return self.symbol

    def __repr__(self) -> str:
        return f"Suit.parse({self.key!r})"

    def __hash__(self) -> int:
        # cheap: cards, decks and rule sets are hashed in hot paths (caches)
        return hash(self.key)

    @classmethod
    def parse(cls, text: str) -> Suit:
        """A known suit from its key, symbol or English name."""
        suit = _SUITS_BY_TEXT.get(text.strip()) or _SUITS_BY_TEXT.get(text.strip().lower())
        if suit is None:
            known = ", ".join(s.key for s in KNOWN_SUITS)
            raise CardError(f"unknown suit {text!r} (known: {known})")
        return suit


@dataclass(frozen=True, slots=True)
class Rank:
    """A rank: its key (``"7"``, ``"Z"``, ``"T"``), name and strength (higher wins).

    ``value`` is the strength used to compare ranks outside straights: ZAT is 13, the
    highest FESCA rank; the standard ace is 14.
    """

    key: str
    name: str
    value: int

    def __hash__(self) -> int:
        return hash((self.key, self.value))

    @property
    def is_void(self) -> bool:
        """True for ZAT, the void rank of FESCA decks."""
        return self.key == "Z"

    def __str__(self) -> str:
        return self.key

    def __repr__(self) -> str:
        return f"Rank.parse({self.key!r})"

    @classmethod
    def parse(cls, text: str) -> Rank:
        """A known rank from its key or an accepted alias (``10`` for ``T``, ``空無``)."""
        t = text.strip()
        rank = _RANKS_BY_TEXT.get(t) or _RANKS_BY_TEXT.get(t.upper())
        if rank is None:
            raise CardError(f"unknown rank {text!r} (expected 1-12 or Z, or 2-9 T J Q K A)")
        return rank


@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. ``str(card)`` is the canonical notation, ``card.ascii`` the ASCII one."""

    suit: Suit
    rank: Rank

    def __hash__(self) -> int:
        # cards key dicts and sets in every hot path: hash the two keys directly
        return hash((self.suit.key, self.rank.key))

    def __str__(self) -> str:
        if self.suit.notation is Notation.RANK_FIRST:
            return f"{self.rank.key}{self.suit.key}"
        if self.rank.is_void and self.suit.void_name:
            return self.suit.void_name
        return f"{self.suit.symbol}{self.rank.key}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def ascii(self) -> str:
        """The ASCII notation: ``M7``, ``YZ``, ``As``."""
        if self.suit.notation is Notation.RANK_FIRST:
            return f"{self.rank.key}{self.suit.key}"
        return f"{self.suit.key}{self.rank.key}"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card in any accepted notation (see the module's table)."""
        t = text.strip()
        card = _parse_card(t)
        if card is None:
            raise CardError(
                f"malformed card {text!r} (expected e.g. 木7, 金Z, 太極, M7, YZ or As, Td)"
            )
        return card


def parse_cards(text: str | Card | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards from a string (space/comma separated, or run together like ``AsKd``),
    a card, or an iterable of either. Does not check a deck or duplicates."""
    if isinstance(text, Card):
        return (text,)
    if isinstance(text, str):
        return tuple(Card.parse(token) for token in _tokens(text))
    out: list[Card] = []
    for item in text:
        out.extend(parse_cards(item))
    return tuple(out)


def format_cards(cards: Iterable[Card], *, ascii: bool = False) -> str:
    """Cards as space-separated text; ``parse_cards`` reads it back."""
    return " ".join(c.ascii if ascii else str(c) for c in cards)


# --- the known suits and ranks ---------------------------------------------------

_E, _X, _P = SuitRole.ELEMENT, SuitRole.EXTRA, SuitRole.PLAIN
_RF = Notation.RANK_FIRST

WOOD = Suit("M", "木", "Wood", _E)
FIRE = Suit("K", "火", "Fire", _E)
EARTH = Suit("D", "土", "Earth", _E)
METAL = Suit("G", "金", "Metal", _E)
WATER = Suit("S", "水", "Water", _E)
YINYANG = Suit("Y", "陰陽", "Yin-Yang", _X, void_name="太極")
CLUBS = Suit("c", "♣", "clubs", _P, _RF)
DIAMONDS = Suit("d", "♦", "diamonds", _P, _RF)
HEARTS = Suit("h", "♥", "hearts", _P, _RF)
SPADES = Suit("s", "♠", "spades", _P, _RF)

ELEMENT_SUITS = (WOOD, FIRE, EARTH, METAL, WATER)  # generating (相生) order
KNOWN_SUITS = (*ELEMENT_SUITS, YINYANG, CLUBS, DIAMONDS, HEARTS, SPADES)

FESCA_RANKS = (*tuple(Rank(str(v), str(v), v) for v in range(1, 13)), Rank("Z", "ZAT", 13))
_STANDARD_NAMES = {"T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
STANDARD_RANKS = tuple(Rank(str(v), str(v), v) for v in range(2, 10)) + tuple(
    Rank(k, _STANDARD_NAMES[k], v) for k, v in zip("TJQKA", range(10, 15), strict=True)
)

_SUITS_BY_TEXT: dict[str, Suit] = {}
for _s in KNOWN_SUITS:
    for _alias in (_s.key, _s.symbol, _s.name, _s.name.lower()):
        _SUITS_BY_TEXT.setdefault(_alias, _s)

_RANKS_BY_TEXT: dict[str, Rank] = {}
for _r in FESCA_RANKS:
    _RANKS_BY_TEXT[_r.key] = _r
_RANKS_BY_TEXT["空無"] = FESCA_RANKS[-1]

# Standard ranks are looked up separately: "2".."9" are shared keys with FESCA ranks
# but different values (a standard 9 is value 9 too; only the deck tells them apart).
_STANDARD_BY_TEXT = {r.key: r for r in STANDARD_RANKS} | {"10": STANDARD_RANKS[8]}
_STANDARD_BY_TEXT["1"] = STANDARD_RANKS[-1]  # ace written as 1

_FESCA_SUIT_TEXT = "|".join(
    sorted((re.escape(a) for s in (*ELEMENT_SUITS, YINYANG) for a in (s.symbol, s.key)), key=len)[
        ::-1
    ]
)
_FESCA_RE = re.compile(rf"^({_FESCA_SUIT_TEXT}|[mkdgsy])(1[0-2]|[1-9]|Z|z|空無)$")
_STANDARD_RE = re.compile(r"^(10|[2-9TJQKAtjqka1])([shdc♠♥♦♣])$")
_SPECIAL = {"太極": Card(YINYANG, FESCA_RANKS[-1])}
_STANDARD_SUIT = {"s": SPADES, "h": HEARTS, "d": DIAMONDS, "c": CLUBS}
_STANDARD_SUIT |= {s.symbol: s for s in (SPADES, HEARTS, DIAMONDS, CLUBS)}


def normalize(text: str) -> str:
    """Full-width letters and digits as ASCII (``木７`` -> ``木7``, ``Ａｓ`` -> ``As``)."""
    return unicodedata.normalize("NFKC", text) if not text.isascii() else text


def _parse_card(t: str) -> Card | None:
    t = normalize(t)
    if t in _SPECIAL:
        return _SPECIAL[t]
    m = _FESCA_RE.match(t)
    if m:
        suit = _SUITS_BY_TEXT[m.group(1) if len(m.group(1)) > 1 else m.group(1).upper()]
        rank_text = m.group(2).upper() if m.group(2) != "空無" else "Z"
        return Card(suit, _RANKS_BY_TEXT[rank_text])
    m = _STANDARD_RE.match(t)
    if m:
        return Card(_STANDARD_SUIT[m.group(2)], _STANDARD_BY_TEXT[m.group(1).upper()])
    return None


_SPLIT_RE = re.compile(r"[\s,;]+")
_RUN_RE = re.compile(r"(?:10|[2-9TJQKAtjqka])[shdc♠♥♦♣]")


def _tokens(text: str) -> list[str]:
    tokens: list[str] = []
    for chunk in _SPLIT_RE.split(text.strip()):
        if not chunk:
            continue
        # "AsKd" run together: split when the whole chunk is standard cards
        if len(chunk) > 3 and _RUN_RE.sub("", chunk) == "" and _parse_card(chunk) is None:
            tokens.extend(_RUN_RE.findall(chunk))
        else:
            tokens.append(chunk)
    return tokens
