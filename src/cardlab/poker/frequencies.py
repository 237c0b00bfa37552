"""Exact five-card frequency tables: every category with its order, count, probability
and rarity, and where each partial compound went.

Best-of-6/7 and Omaha tables are in :mod:`cardlab.poker.tables7`.

>>> from cardlab.poker import RuleSet
>>> table = five_card_table(RuleSet.for_deck("standard52"))
>>> table.combinations, table.rows[0].category.value, table.rows[0].count
(2598960, 'straight_flush', 40)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cardlab import render
from cardlab.poker._counting import multiset_shapes
from cardlab.poker.categories import Category
from cardlab.poker.order import Assignment, hand_order
from cardlab.poker.rules import RuleSet


@dataclass(frozen=True, slots=True)
class TableRow:
    """One category of a table: its place in the order (1 = strongest) and frequency."""

    order: int
    category: Category
    count: int
    probability: Fraction

    @property
    def rarity(self) -> float:
        """-log10 P."""
        return render.rarity(self.probability)

    def as_dict(self) -> dict[str, Any]:
        return {
            "order": self.order,
            "id": self.category.value,
            "count": self.count,
            "probability": self.probability,
            "rarity": round(self.rarity, 6),
        }


@dataclass(frozen=True, eq=False)
class HandTable:
    """The exact five-card table of a rule set, strongest category first."""

    rules: RuleSet
    hand_size: int
    combinations: int
    rows: tuple[TableRow, ...]
    assignments: tuple[Assignment, ...]
    iterations: int
    distinct_values: int

    def row(self, category: Category) -> TableRow | None:
        for r in self.rows:
            if r.category is category:
                return r
        return None

    def as_dict(self) -> dict[str, Any]:
        """The ``poker table`` JSON."""
        return {
            "deck": self.rules.deck.name,
            "cards": len(self.rules.deck),
            "hand_size": self.hand_size,
            "combinations": self.combinations,
            "hands": [r.as_dict() for r in self.rows],
            "partial_compounds": [
                {
                    "with": a.base.value,
                    "count": a.count,
                    "assigned_to": a.primary.value,
                    "secondary": a.secondary.value,
                    "mixwell_count": a.mixwell_count,
                    "base_count": a.base_count,
                }
                for a in self.assignments
            ],
            "fixed_point_iterations": self.iterations,
            "distinct_values": self.distinct_values,
            "options": {info.name: value for info, value in self.rules.options()},
        }


def five_card_table(rules: RuleSet) -> HandTable:
    """The exact five-card table (combinatorial: milliseconds even for FESCA78)."""
    order = hand_order(rules)
    total = order.combinations
    rows = tuple(
        TableRow(i, c, order.counts[c], Fraction(order.counts[c], total))
        for i, c in enumerate(order.categories, 1)
    )
    return HandTable(
        rules=rules,
        hand_size=5,
        combinations=total,
        rows=rows,
        assignments=order.assignments,
        iterations=order.iterations,
        distinct_values=distinct_values(rules),
    )


def distinct_values(rules: RuleSet) -> int:
    """How many different hand values (keys) five cards can have.

    With suits breaking ties every hand is its own value, so this is C(n, 5); without,
    it is the number of (rank multiset, category, secondary) that occur — 7,462 for
    classic poker.
    """
    order = hand_order(rules)
    if rules.suit_tiebreak:
        return order.combinations
    table = order.shape_table
    return sum(
        len({table[shape][1:] for shape, n in shapes.items() if n})
        for _, shapes in multiset_shapes(rules)
    )
