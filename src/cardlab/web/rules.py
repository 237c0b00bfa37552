"""The rules of Mixwell Poker for the page, drawn from one deck: its suits and ranks, the
straights (the ZAT ring), the hands in their derived order with an example of each, where
the partial compounds go, and the tie-break steps with a pair of hands for each.

Every example is found and judged by the library (:mod:`cardlab.poker.examples`), every
count comes from :func:`~cardlab.poker.frequencies.five_card_table`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from cardlab.decks import Wrap
from cardlab.poker.examples import (
    compound_examples,
    example_hands,
    straight_examples,
    tie_break_examples,
)
from cardlab.poker.frequencies import five_card_table
from cardlab.web.hands import STEP_NAMES, card_payload, rules_for, value_payload
from cardlab.web.payload import chance

WRAP_TEXT = {
    Wrap.RING: "a ring: ZAT is rank 0 and 13 at once, so 12-ZAT-1 connect",
    Wrap.LINE: "a line: no ZAT, so the ranks do not wrap around",
    Wrap.ACE_LOW: "the ace is high, and low in A-2-3-4-5",
}


@lru_cache(maxsize=16)
def rules_page(deck: str) -> dict[str, Any]:
    """Everything the rules page shows for one built-in deck."""
    rules = rules_for(deck)
    table = five_card_table(rules)
    examples = example_hands(rules)
    compounds = compound_examples(rules)
    counts = {row.category: row for row in table.rows}
    strongest_first = list(reversed(rules.suit_order))
    return {
        "deck": rules.deck.name,
        "rules": rules.name,
        "description": rules.deck.description,
        "size": len(rules.deck),
        "combinations": table.combinations,
        "mixwell": rules.mixwell_possible,
        "mixwell_suits": [s.symbol for s in rules.mixwell_suits],
        "suits": [
            {
                "key": s.key,
                "symbol": s.symbol,
                "name": s.name,
                "role": s.role.value,
                "cards": len(rules.deck.cards_of(suit=s)),
            }
            for s in rules.deck.suits
        ],
        "ranks": [str(r) for r in rules.deck.ranks],
        "wrap": rules.deck.wrap.value,
        "wrap_text": WRAP_TEXT[rules.deck.wrap],
        "straights": [
            {"cards": [card_payload(c) for c in v.cards], "description": v.describe()}
            for v in straight_examples(rules)
        ],
        "hands": [
            {
                "order": counts[c].order,
                "id": c.value,
                "en": c.english,
                "ja": c.japanese,
                "count": counts[c].count,
                "rarity": round(counts[c].rarity, 4),
                "example": value_payload(v),
            }
            | chance(counts[c].probability)
            for c, v in examples.items()
        ],
        "compounds": [
            {
                "with": a.base.category.english,
                "count": a.count,
                "primary": a.primary.english,
                "secondary": a.secondary.english,
                "mixwell_count": a.mixwell_count,
                "base_count": a.base_count,
                "example": value_payload(compounds[a.primary, a.secondary])
                if (a.primary, a.secondary) in compounds
                else None,
            }
            for a in table.assignments
        ],
        "suit_tiebreak": rules.suit_tiebreak,
        "secondary_step": rules.secondary_step,
        "suit_order": [s.symbol for s in strongest_first] if rules.suit_tiebreak else [],
        "tie_breaks": [
            {
                "step": t.step,
                "text": STEP_NAMES[t.step],
                "hands": [value_payload(v) for v in t.hands],
                "winner": None if t.winner is None else t.winner + 1,
            }
            for t in tie_break_examples(rules)
        ],
    }
