"""The rule set: a deck plus every option the rules leave open, as data.

Each option is documented with its default and where that default comes from: [src]
the publisher states it, [choice] our reading where the published rules are silent
(see ``../shared/spec/fesca-mixwell.md``). ``str(rules)`` prints them all, and
:meth:`RuleSet.with_options` changes them by name, e.g. for ``--compare-options``.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any

from cardlab.cards import Suit
from cardlab.decks import Deck, Wrap, get_deck
from cardlab.decks.deck import MAX_RANKS, MAX_SUITS
from cardlab.errors import RuleError


class Compound(enum.Enum):
    """Which hand a partial compound (Mixwell + pair, two pair, trips, quads) belongs to."""

    RARER = "rarer"  # [src] whichever of the two is rarer
    MIXWELL = "mixwell"  # always Mixwell, the base hand secondary
    BASE = "base"  # always the base hand, Mixwell secondary


class OrderSource(enum.Enum):
    """Where the order of categories comes from."""

    RARITY = "rarity"  # [src] rarer is stronger, from exact five-card counts
    CLASSIC = "classic"  # classic poker precedence (Category's listing order)


@dataclass(frozen=True, slots=True)
class OptionInfo:
    name: str
    default: str
    source: str
    doc: str


@dataclass(frozen=True)
class RuleSet:
    """A deck and the options of Mixwell (or classic) poker played with it."""

    deck: Deck
    mixwell: bool
    mixwell_suits: tuple[Suit, ...]
    compound: Compound = Compound.RARER
    order: OrderSource = OrderSource.RARITY
    no_hand_lowest: bool = True
    secondary_step: bool = True
    suit_tiebreak: bool = True
    suit_order: tuple[Suit, ...] = ()
    wrap: Wrap = Wrap.RING
    _straights: tuple[int, ...] = field(init=False, repr=False, compare=False, hash=False)
    _hash: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not self.suit_order:
            object.__setattr__(self, "suit_order", self.deck.suits)
        if sorted(s.key for s in self.suit_order) != sorted(s.key for s in self.deck.suits):
            given = " ".join(s.key for s in self.suit_order)
            raise RuleError(f"suit_order must list each suit of {self.deck.name} once: {given!r}")
        for s in self.mixwell_suits:
            if s not in self.deck.suits:
                raise RuleError(f"mixwell suit {s} is not a suit of {self.deck.name}")
        if len(set(self.mixwell_suits)) != len(self.mixwell_suits):
            raise RuleError("mixwell_suits lists a suit twice")
        if len(self.deck.ranks) > MAX_RANKS or len(self.deck.suits) > MAX_SUITS:
            raise RuleError(
                f"{self.deck.name}: at most {MAX_RANKS} ranks and {MAX_SUITS} suits are supported"
            )
        object.__setattr__(self, "_straights", _straight_masks(len(self.deck.ranks), self.wrap))
        fields = tuple(getattr(self, name) for name in OPTIONS)
        object.__setattr__(self, "_hash", hash((self.deck, fields)))

    def __hash__(self) -> int:
        # rule sets key the caches of every evaluator: hash once
        return self._hash

    @classmethod
    def for_deck(cls, deck: str | Deck, **options: Any) -> RuleSet:
        """The default rule set of a deck, with any options changed by name."""
        d = get_deck(deck)
        classic = all(s.role.value == "plain" for s in d.suits)
        elements = d.element_suits
        base = cls(
            deck=d,
            mixwell=len(elements) >= 5,
            mixwell_suits=elements,
            suit_tiebreak=not classic,
            wrap=d.wrap,
        )
        return base.with_options(**options) if options else base

    # --- derived rule data ----------------------------------------------------

    @property
    def straights(self) -> tuple[int, ...]:
        """The straights as bit masks over rank indexes (bit i = ``deck.ranks[i]``),
        weakest first: a straight's height is its position here plus one."""
        return self._straights

    @property
    def mixwell_possible(self) -> bool:
        """True when five cards of different Mixwell suits can be drawn."""
        return self.mixwell and len(self.mixwell_suits) >= 5

    def suit_strength(self, suit: Suit) -> int:
        """1 for the weakest suit, up to the number of suits (0 if suits do not count)."""
        if not self.suit_tiebreak:
            return 0
        return self.suit_order.index(suit) + 1

    @property
    def name(self) -> str:
        kind = "Mixwell" if self.mixwell_possible else "classic"
        return f"{self.deck.name} {kind} poker"

    # --- options by name --------------------------------------------------------

    def with_options(self, **options: Any) -> RuleSet:
        """A copy with options changed; values may be given as text (``"off"``, ``"base"``)."""
        changes: dict[str, Any] = {}
        for name, value in options.items():
            key = name.replace("-", "_")
            if key not in OPTIONS:
                raise RuleError(f"unknown rule option {name!r} (options: {', '.join(OPTIONS)})")
            changes[key] = _coerce(self.deck, key, value)
        return dataclasses.replace(self, **changes)

    def options(self) -> list[tuple[OptionInfo, str]]:
        """Every option with its current value as text."""
        return [(info, _format(getattr(self, name))) for name, info in OPTIONS.items()]

    def defaults(self) -> dict[str, str]:
        """Each option's default for this deck, as text ("none" for an empty list):
        standard52's suit order is its own, not FESCA's."""
        base = RuleSet.for_deck(self.deck)
        return {name: _format(getattr(base, name)) or "none" for name in OPTIONS}

    def __str__(self) -> str:
        lines = [self.name]
        defaults = self.defaults()
        for info, value in self.options():
            default = defaults[info.name]
            lines.append(f"  {info.name} = {value or 'none'}  ({info.source}; default {default})")
        return "\n".join(lines)


OPTIONS: dict[str, OptionInfo] = {
    o.name: o
    for o in (
        OptionInfo(
            "mixwell",
            "on where the deck has 5 element suits",
            "[src]",
            "Mixwell (five different element suits) is a hand.",
        ),
        OptionInfo(
            "mixwell_suits",
            "the element suits 木 火 土 金 水",
            "[choice]",
            "Suits that count towards Mixwell; 陰陽 does not.",
        ),
        OptionInfo(
            "compound",
            "rarer",
            "[src]",
            "Mixwell + pair/two pair/trips/quads belongs to the rarer of the two "
            "(rarer), always to Mixwell (mixwell), or always to the base hand (base).",
        ),
        OptionInfo(
            "order",
            "rarity",
            "[src]",
            "Order categories by exact five-card rarity (rarity) or classic precedence (classic).",
        ),
        OptionInfo(
            "no_hand_lowest",
            "on",
            "[choice]",
            "No hand is always the lowest hand, even where rarer than one pair; off ranks it "
            "by rarity alone.",
        ),
        OptionInfo(
            "secondary_step",
            "on",
            "[choice]",
            "Tie-break step 1: within a primary hand, a secondary hand wins, stronger first.",
        ),
        OptionInfo(
            "suit_tiebreak",
            "on for FESCA decks, off for standard52",
            "[choice]",
            "Tie-break step 4: equal ranks are settled card by card by suit strength.",
        ),
        OptionInfo(
            "suit_order",
            "木 < 火 < 土 < 金 < 水 < 陰陽",
            "[choice]",
            "Suit strength, weakest first (generating order, 陰陽 above every element).",
        ),
        OptionInfo(
            "wrap",
            "the deck's (ring for ZAT decks, ace-low for standard52)",
            "[src]",
            "How ranks connect in straights: ring (ZAT joins top to 1), line, or ace-low.",
        ),
    )
}

_TRUE = {"on", "true", "yes", "1"}
_FALSE = {"off", "false", "no", "0"}


def _coerce(deck: Deck, key: str, value: Any) -> Any:
    current = {
        "mixwell": bool,
        "no_hand_lowest": bool,
        "secondary_step": bool,
        "suit_tiebreak": bool,
    }
    if key in current:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise RuleError(f"option {key} takes on or off, not {value!r}")
    enums: dict[str, type[enum.Enum]] = {"compound": Compound, "order": OrderSource, "wrap": Wrap}
    if key in enums:
        kind = enums[key]
        if isinstance(value, kind):
            return value
        try:
            return kind(str(value).strip().lower())
        except ValueError:
            allowed = ", ".join(str(m.value) for m in kind)
            raise RuleError(f"option {key} takes one of {allowed}, not {value!r}") from None
    # suit lists: "M K D G S" / "木火土金水" / a sequence of suits
    if isinstance(value, tuple | list):
        return tuple(s if isinstance(s, Suit) else _deck_suit(deck, str(s)) for s in value)
    text = str(value).strip()
    parts = text.replace(",", " ").split()
    if len(parts) == 1 and len(parts[0]) > 1 and all(ch in _SYMBOLS for ch in parts[0]):
        parts = _split_symbols(parts[0])
    return tuple(_deck_suit(deck, p) for p in parts)


_SYMBOLS = set("木火土金水陰陽")


def _split_symbols(text: str) -> list[str]:
    out, i = [], 0
    while i < len(text):
        if text.startswith("陰陽", i):
            out.append("陰陽")
            i += 2
        else:
            out.append(text[i])
            i += 1
    return out


def _deck_suit(deck: Deck, text: str) -> Suit:
    for s in deck.suits:
        if text in (s.key, s.symbol, s.name, s.name.lower()):
            return s
    raise RuleError(f"{text!r} is not a suit of {deck.name}")


def _format(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, tuple):
        return " ".join(str(v) for v in value)
    return str(value)


def _straight_masks(n_ranks: int, wrap: Wrap) -> tuple[int, ...]:
    """Rank-index masks of the straights, weakest first.

    The sequence of ranks a straight is read from: RING puts the top four ranks below
    the lowest (so (9,10,11,12,Z) is highest and (10,11,12,Z,1) lowest, spec section 5
    step 3); ACE_LOW puts the top rank below the lowest; LINE is the ranks alone.
    """
    if n_ranks < 5:
        return ()
    ranks = list(range(n_ranks))
    if wrap is Wrap.RING:
        seq = ranks[-4:] + ranks
    elif wrap is Wrap.ACE_LOW:
        seq = ranks[-1:] + ranks
    else:
        seq = ranks
    masks = [sum(1 << r for r in seq[i : i + 5]) for i in range(len(seq) - 4)]
    # a ring of exactly five ranks reads its one straight five ways (ace-low over five
    # ranks two): it is one straight, at its highest reading
    return tuple(m for i, m in enumerate(masks) if m not in masks[i + 1 :])
