"""Mixwell hands for the page: the decks, one hand's value, a comparison, the hand table."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from cardlab.cards import Card
from cardlab.decks import BUILTIN_DECKS, Deck, get_deck
from cardlab.errors import DeckError, HandError
from cardlab.poker.frequencies import five_card_table
from cardlab.poker.hands import HandValue, compare, evaluate
from cardlab.poker.rules import RuleSet
from cardlab.web.payload import chance

MAX_COMPARED = 10

STEP_NAMES = {
    "category": "the hand category",
    "secondary": "the secondary hand",
    "ranks": "the ranks",
    "suits": "the suits",
    "tie": "nothing: the hands tie and split",
}


def builtin_deck(name: str) -> Deck:
    """A built-in deck; the page does not read deck files from the server's disk."""
    if name.strip().lower() not in {n.lower() for n in BUILTIN_DECKS}:
        raise DeckError(f"unknown deck {name!r} (built in: {', '.join(BUILTIN_DECKS)})")
    return get_deck(name)


@lru_cache(maxsize=32)
def rules_for(name: str) -> RuleSet:
    return RuleSet.for_deck(builtin_deck(name))


def card_name(card: Card) -> str:
    """The card in words, for screen readers: ``"木7 (Wood 7)"``, ``"As (ace of spades)"``."""
    if card.suit.role.value == "plain":
        return f"{card} ({card.rank.name} of {card.suit.name})"
    return f"{card} ({card.suit.name} {card.rank.name})"


def card_payload(card: Card) -> dict[str, str]:
    return {
        "text": str(card),
        "name": card_name(card),
        "ascii": card.ascii,
        "suit": card.suit.key,
        "symbol": card.suit.symbol,
        "rank": card.rank.key,
    }


def decks() -> list[dict[str, Any]]:
    """Every built-in deck with its cards laid out by suit (the card picker)."""
    out = []
    for name in BUILTIN_DECKS:
        deck = get_deck(name)
        out.append(
            {
                "name": deck.name,
                "description": deck.description,
                "size": len(deck),
                "rows": [
                    {
                        "suit": suit.key,
                        "symbol": suit.symbol,
                        "name": suit.name,
                        "cards": [card_payload(c) if c else None for c in cards],
                    }
                    for suit, cards in deck.grid()
                ],
            }
        )
    return out


def value_payload(value: HandValue) -> dict[str, Any]:
    out = value.as_dict()
    out["cards"] = [card_payload(c) for c in value.cards]
    out["category"] = {
        "id": value.category.value,
        "en": value.category.english,
        "ja": value.category.japanese,
    }
    second = value.secondary
    out["secondary"] = (
        {"id": second.value, "en": second.english, "ja": second.japanese} if second else None
    )
    out["description_ja"] = value.describe("ja")
    return out


def evaluate_hand(deck: str, cards: str) -> dict[str, Any]:
    rules = rules_for(deck)
    return {"deck": rules.deck.name, "rules": rules.name} | value_payload(evaluate(cards, rules))


def compare_hands(deck: str, hands: Sequence[str]) -> dict[str, Any]:
    rules = rules_for(deck)
    if not 2 <= len(hands) <= MAX_COMPARED:
        raise HandError(f"compare 2 to {MAX_COMPARED} hands, got {len(hands)}")
    values = [evaluate(text, rules) for text in hands]
    winners, step = compare(values)
    return {
        "deck": rules.deck.name,
        "hands": [value_payload(v) for v in values],
        "winners": [i + 1 for i in winners],
        "decided_by": step,
        "decided_by_text": STEP_NAMES[step],
    }


def hand_table(deck: str) -> dict[str, Any]:
    table = five_card_table(rules_for(deck))
    return {
        "deck": table.rules.deck.name,
        "rules": table.rules.name,
        "combinations": table.combinations,
        "rows": [
            {
                "order": row.order,
                "id": row.category.value,
                "en": row.category.english,
                "ja": row.category.japanese,
                "count": row.count,
                "rarity": round(row.rarity, 4),
            }
            | chance(row.probability)
            for row in table.rows
        ],
    }
