"""The :class:`Deck` value: which cards exist, and how ranks connect in straights."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cardlab.cards import Card, Rank, Suit, SuitRole, _parse_card, _tokens, normalize
from cardlab.errors import CardError, DeckError

MAX_SUITS = 15  # the evaluators pack suits and ranks into fixed-width keys
MAX_RANKS = 31


class Wrap(enum.Enum):
    """How the ranks connect at the ends, for straights.

    ``LINE``: lowest to highest only (FESCA60). ``ACE_LOW``: the top rank also plays
    below the lowest (A-2-3-4-5 in the standard deck). ``RING``: the ranks form a ring
    (ZAT joins the top rank to 1 in FESCA decks).
    """

    LINE = "line"
    ACE_LOW = "ace-low"
    RING = "ring"


@dataclass(frozen=True, slots=True)
class Deck:
    """A deck: its suits (weakest first), ranks (lowest first), wrap, and cards.

    ``cards`` fixes each card's integer code (its index), which the fast evaluators use.
    """

    name: str
    suits: tuple[Suit, ...]
    ranks: tuple[Rank, ...]
    wrap: Wrap
    cards: tuple[Card, ...]
    description: str = ""
    _index: dict[Card, int] = field(init=False, repr=False, compare=False, hash=False)
    _by_text: dict[str, Card] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not self.cards:
            raise DeckError(f"deck {self.name!r} has no cards")
        if len(self.suits) > MAX_SUITS or len(self.ranks) > MAX_RANKS:
            raise DeckError(
                f"deck {self.name!r}: at most {MAX_RANKS} ranks and {MAX_SUITS} suits, "
                f"got {len(self.ranks)} ranks and {len(self.suits)} suits"
            )
        index: dict[Card, int] = {}
        for i, card in enumerate(self.cards):
            if card in index:
                raise DeckError(f"deck {self.name!r} lists {card} twice")
            if card.suit not in self.suits or card.rank not in self.ranks:
                raise DeckError(f"deck {self.name!r}: card {card} is not of its suits and ranks")
            index[card] = i
        if len({s.key for s in self.suits}) != len(self.suits):
            raise DeckError(f"deck {self.name!r} has two suits with the same key")
        if len({r.value for r in self.ranks}) != len(self.ranks):
            raise DeckError(f"deck {self.name!r} has two ranks with the same value")
        if list(self.ranks) != sorted(self.ranks, key=lambda r: r.value):
            raise DeckError(f"deck {self.name!r}: ranks must be listed lowest first")
        by_text: dict[str, Card] = {}
        for card in self.cards:
            s, r = card.suit, card.rank
            for text in (str(card), card.ascii, f"{s.symbol}{r.key}", f"{s.key}{r.key}"):
                by_text.setdefault(text, card)
        object.__setattr__(self, "_index", index)
        object.__setattr__(self, "_by_text", by_text)

    def __hash__(self) -> int:
        # equal decks have equal names; hashing every card would make rule-set caches slow
        return hash(self.name)

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, card: object) -> bool:
        return card in self._index

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"get_deck({self.name!r})"

    def definition(self) -> dict[str, Any]:
        """The deck as the data of a deck file: every suit and rank written out as a
        table, so that :func:`~cardlab.decks.loading.deck_from_data` gives the same deck
        back without knowing any suit or rank (a hand history carries a user's deck
        this way)."""
        suits_full = [s for s in self.suits if all(Card(s, r) in self._index for r in self.ranks)]
        data: dict[str, Any] = {"name": self.name}
        if self.description:
            data["description"] = self.description
        data["suits"] = [
            {
                "key": s.key,
                "symbol": s.symbol,
                "name": s.name,
                "role": s.role.value,
                "notation": s.notation.value,
            }
            | ({"void_name": s.void_name} if s.void_name else {})
            for s in self.suits
        ]
        data["ranks"] = [{"key": r.key, "name": r.name, "value": r.value} for r in self.ranks]
        data["wrap"] = self.wrap.value
        data["full_suits"] = [s.key for s in suits_full]
        extra = [c for c in self.cards if c.suit not in suits_full]
        if extra:
            data["extra_cards"] = [f"{c.suit.key}{c.rank.key}" for c in extra]
        return data

    # --- cards and codes -----------------------------------------------------

    def code(self, card: Card) -> int:
        """The card's integer code in this deck (its index in ``cards``)."""
        try:
            return self._index[card]
        except KeyError:
            raise CardError(f"card {card} is not in the {self.name} deck") from None

    def card(self, text: str) -> Card:
        """One card of this deck from its text."""
        t = normalize(text.strip())
        card = self._by_text.get(t)
        if card is None:
            parsed = _parse_card(t)
            if parsed is None:
                raise CardError(f"malformed card {text!r} (e.g. {self.cards[0]}, {self.cards[-1]})")
            card = parsed
            if card not in self._index:
                raise CardError(f"card {t!r} is not in the {self.name} deck")
        return card

    def parse_cards(
        self, text: str | Card | Iterable[str | Card], *, count: int | None = None
    ) -> tuple[Card, ...]:
        """Cards of this deck from text or values; refuses unknown cards and duplicates.

        ``count``, if given, is the exact number of cards required.
        """
        cards: list[Card] = []
        written: list[str] = []
        items: Iterable[str | Card] = [text] if isinstance(text, str | Card) else text
        for item in items:
            if isinstance(item, Card):
                if item not in self._index:
                    raise CardError(f"card {item} is not in the {self.name} deck")
                cards.append(item)
                written.append(str(item))
            else:
                for tok in _tokens(item):
                    cards.append(self.card(tok))
                    written.append(tok)
        seen: dict[Card, str] = {}
        for card, tok in zip(cards, written, strict=True):
            if card in seen:
                same = {seen[card], tok} - {str(card)}
                alias = f" ({', '.join(repr(t) for t in sorted(same))} is {card})" if same else ""
                raise CardError(f"card {card} is given twice{alias}")
            seen[card] = tok
        if count is not None and len(cards) != count:
            listed = " ".join(map(str, cards)) or "nothing"
            raise CardError(f"expected {count} cards, got {len(cards)}: {listed!r}")
        return tuple(cards)

    def codes(self, cards: Iterable[Card]) -> tuple[int, ...]:
        return tuple(self.code(c) for c in cards)

    # --- structure -----------------------------------------------------------

    @property
    def element_suits(self) -> tuple[Suit, ...]:
        """The suits that count towards Mixwell, in the deck's order."""
        return tuple(s for s in self.suits if s.role is SuitRole.ELEMENT)

    def cards_of(self, *, suit: Suit | None = None, rank: Rank | None = None) -> tuple[Card, ...]:
        return tuple(
            c
            for c in self.cards
            if (suit is None or c.suit == suit) and (rank is None or c.rank == rank)
        )

    def grid(self) -> list[tuple[Suit, list[Card | None]]]:
        """Rows of the deck by suit, one column per rank (None where a card is absent)."""
        return [
            (s, [Card(s, r) if Card(s, r) in self._index else None for r in self.ranks])
            for s in self.suits
        ]
