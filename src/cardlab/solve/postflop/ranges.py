"""Weighted ranges of two-card hands on any deck.

A range is comma-separated items, each optionally followed by ``:weight`` (a fraction
of the hand's combinations, 0 to 1; 1 when left out):

* on the standard deck, the usual notation of :mod:`cardlab.poker.ranges` (``AA:0.25``,
  ``KQs+``, ``A5s-A2s:0.5``, ``AsKd``);
* on every deck, the deck's class names of :mod:`cardlab.poker.classes`
  (``Z-Z``, ``12-9s``, ``Z陰陽-9`` on FESCA decks; ``AKs`` on the standard deck), a pair
  class with ``+`` for that pair and every higher one (``11-11+``), two cards
  (``木12 火3``, or in ASCII ``M12 F3``), and ``any`` for every hand.

A hand named twice takes the weight given last; a weight of 0 takes it out.

>>> from cardlab.poker.games import get_game
>>> r = parse_weighted_range("AA:0.25, KK", get_game("standard52-holdem"))
>>> len(r), r.weight_of("As Ah"), r.weight_of("Ks Kh")
(12, 0.25, 1.0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from cardlab.cards import Card
from cardlab.errors import CardError, GameError
from cardlab.poker.classes import HandClass, hand_classes
from cardlab.poker.games import HOLDEM, Game
from cardlab.poker.ranges import parse_range, supports_ranges
from cardlab.poker.rules import RuleSet

_WEIGHT = re.compile(r"^(.*?):\s*([0-9]*\.?[0-9]+)$")


@dataclass(frozen=True)
class WeightedRange:
    """Two-card hands with weights in (0, 1]; ``text`` is how it was written."""

    text: str
    combos: tuple[tuple[Card, Card], ...]
    weights: tuple[float, ...]

    def __len__(self) -> int:
        return len(self.combos)

    def __str__(self) -> str:
        return self.text

    def weight_of(self, hand: str | tuple[Card, Card], game: Game | None = None) -> float:
        """The weight of one hand (0 if the range does not hold it)."""
        if isinstance(hand, str):
            from cardlab.cards import parse_cards

            cards = parse_cards(hand)
        else:
            cards = hand
        key = frozenset(cards)
        for combo, weight in zip(self.combos, self.weights, strict=True):
            if frozenset(combo) == key:
                return weight
        return 0.0


@lru_cache(maxsize=16)
def _classes(rules: RuleSet) -> dict[str, HandClass]:
    return {c.name.upper(): c for c in hand_classes(rules)}


def parse_weighted_range(text: str, game: Game) -> WeightedRange:
    """The hands and weights ``text`` names; bad notation is one error naming the item."""
    if game.base != HOLDEM:
        raise GameError(f"postflop ranges are two-card Hold'em hands, not {game.base.name}")
    if not isinstance(text, str) or not text.strip():
        raise GameError(f"empty range {text!r}")
    weights: dict[tuple[Card, Card], float] = {}
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            raise GameError(f"empty item in range {text!r}")
        weight = 1.0
        match = _WEIGHT.match(item)
        if match:
            item, weight = match.group(1).strip(), float(match.group(2))
            if not 0 <= weight <= 1:
                raise GameError(f"a weight is 0 to 1, got {raw.strip()!r} in {text!r}")
        for combo in _item(item, game, text):
            key = _ordered(combo, game)
            weights.pop(key, None)
            if weight > 0:
                weights[key] = weight
    if not weights:
        raise GameError(f"range {text!r} holds no hand")
    combos = tuple(sorted(weights, key=lambda c: (game.deck.code(c[0]), game.deck.code(c[1]))))
    return WeightedRange(" ".join(text.split()), combos, tuple(weights[c] for c in combos))


def _ordered(combo: tuple[Card, ...], game: Game) -> tuple[Card, Card]:
    a, b = combo
    return (a, b) if game.deck.code(a) < game.deck.code(b) else (b, a)


def _item(item: str, game: Game, text: str) -> list[tuple[Card, ...]]:
    if item.lower() in ("any", "*", "all"):
        return [c for cls in hand_classes(game.rules) for c in cls.combos]
    try:
        cards = game.deck.parse_cards(item, count=2)
        return [(cards[0], cards[1])]
    except CardError:
        pass
    classes = _classes(game.rules)
    token = item.replace(" ", "").upper()
    if token in classes:
        return list(classes[token].combos)
    if token.endswith("+") and token[:-1] in classes and classes[token[:-1]].pair:
        base = classes[token[:-1]]
        return [
            c
            for cls in classes.values()
            if cls.pair and cls.high >= base.high and _same_kind(cls, base)
            for c in cls.combos
        ]
    if supports_ranges(game):
        try:
            return list(parse_range(item, game).combos)
        except GameError:
            pass
    examples = (
        "AA:0.25, KQs+, A5s-A2s, AsKd"
        if supports_ranges(game)
        else f"{next(iter(classes.values())).name}, two cards, any"
    )
    raise GameError(
        f"malformed range item {item!r} in {text!r} on {game.deck.name} (expected hand "
        f"classes or cards with optional weights, e.g. {examples})"
    )


def _same_kind(a: HandClass, b: HandClass) -> bool:
    """Pairs of the same suit shape (a lone suit's pair apart from the element pairs)."""
    return len(a.combos) == len(b.combos)
