"""Hold'em hand ranges in the usual notation, for the standard deck.

=============  ===============================================
``QQ``         the six pairs of queens
``QQ+``        QQ, KK, AA
``22-55``      22, 33, 44, 55
``AKs``        ace-king suited (4 hands); ``AKo`` offsuit (12); ``AK`` both (16)
``A2s+``       A2s, A3s, ... AKs (the kicker up to just below the ace)
``KTs-K7s``    KTs, K9s, K8s, K7s (the kicker runs, the top card stays)
``T9s-65s``    T9s, 98s, 87s, 76s, 65s (both cards step down together)
``AsKd``       one hand, by its cards
=============  ===============================================

Items are separated by commas; a hand listed twice counts once.

>>> from cardlab.poker.games import get_game
>>> len(parse_range("QQ+, AKs", get_game("standard52-holdem")).combos)
22
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from cardlab.cards import Card
from cardlab.errors import CardError, GameError
from cardlab.poker.games import HOLDEM, Game

RANK_KEYS = "23456789TJQKA"
_ITEM = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([SO]?)(\+?)$")
_SPAN = re.compile(r"^([2-9TJQKA])([2-9TJQKA])([SO]?)-([2-9TJQKA])([2-9TJQKA])([SO]?)$")


@dataclass(frozen=True, slots=True)
class Range:
    """A set of two-card hands; ``text`` is how it was written."""

    text: str
    combos: tuple[tuple[Card, Card], ...]

    def __len__(self) -> int:
        return len(self.combos)

    def __str__(self) -> str:
        return self.text


def supports_ranges(game: Game) -> bool:
    """Ranges are written for Hold'em with the standard deck."""
    return game.base == HOLDEM and game.deck.name == "standard52"


def parse_range(text: str, game: Game) -> Range:
    """The hands ``text`` names (see the module's table); bad notation is an error."""
    if not supports_ranges(game):
        raise GameError(f"ranges are for standard52 Hold'em, not {game.name}: {text!r}")
    items = [t.strip() for t in text.split(",")]
    if not any(items):
        raise GameError(f"empty range {text!r}")
    combos: dict[tuple[Card, Card], None] = {}
    for item in items:
        if not item:
            raise GameError(f"empty item in range {text!r}")
        for combo in _item_combos(item, game, text):
            combos.setdefault(combo, None)
    return Range(" ".join(text.split()), tuple(combos))


def _item_combos(item: str, game: Game, text: str) -> list[tuple[Card, Card]]:
    deck = game.deck
    try:
        cards = deck.parse_cards(item, count=2)
        return [(cards[0], cards[1])]
    except CardError:
        pass
    token = item.replace(" ", "").upper()
    m = _ITEM.match(token)
    if m:
        hi, lo, kind, plus = m.groups()
        a, b = RANK_KEYS.index(hi), RANK_KEYS.index(lo)
        if a == b:
            if kind:
                raise GameError(f"a pair is neither suited nor offsuit: {item!r} in {text!r}")
            pairs = range(a, 13) if plus else [a]
            return [c for r in pairs for c in _pair(_rank_key(r), game)]
        if a < b:
            a, b = b, a
        kickers = range(b, a) if plus else [b]
        return [c for k in kickers for c in _two(a, k, kind, game)]
    m = _SPAN.match(token)
    if m:
        h1, l1, k1, h2, l2, k2 = m.groups()
        a1, b1 = RANK_KEYS.index(h1), RANK_KEYS.index(l1)
        a2, b2 = RANK_KEYS.index(h2), RANK_KEYS.index(l2)
        if k1 != k2:
            raise GameError(f"both ends of {item!r} must be suited, offsuit or neither")
        if a1 == b1 and a2 == b2 and not k1:
            lo, hi = sorted((a1, a2))
            return [c for r in range(lo, hi + 1) for c in _pair(_rank_key(r), game)]
        if a1 < b1:
            a1, b1 = b1, a1
        if a2 < b2:
            a2, b2 = b2, a2
        if a1 != b1 and a2 != b2:
            if a1 == a2:  # KTs-K7s: the kicker runs
                lo, hi = sorted((b1, b2))
                if hi < a1:
                    return [c for k in range(lo, hi + 1) for c in _two(a1, k, k1, game)]
            elif a1 - b1 == a2 - b2:  # T9s-65s: both step together
                lo, hi = sorted((b1, b2))
                gap = a1 - b1
                return [c for k in range(lo, hi + 1) for c in _two(k + gap, k, k1, game)]
    raise GameError(
        f"malformed range item {item!r} in {text!r} "
        "(expected e.g. QQ+, 22-55, AKs, AKo, A2s+, KTs-K7s, T9s-65s or AsKd)"
    )


def _rank_key(index: int) -> str:
    return RANK_KEYS[index]


def _pair(rank: str, game: Game) -> list[tuple[Card, Card]]:
    cards = [c for c in game.deck.cards if c.rank.key == rank]
    return [(a, b) for a, b in itertools.combinations(cards, 2)]


def _two(hi: int, lo: int, kind: str, game: Game) -> list[tuple[Card, Card]]:
    highs = [c for c in game.deck.cards if c.rank.key == RANK_KEYS[hi]]
    lows = [c for c in game.deck.cards if c.rank.key == RANK_KEYS[lo]]
    out = []
    for a in highs:
        for b in lows:
            suited = a.suit == b.suit
            if (kind == "S" and not suited) or (kind == "O" and suited):
                continue
            out.append((a, b))
    return out
