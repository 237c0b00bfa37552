"""The order of hands, derived exactly from the deck (spec section 4).

Rarer is stronger: :func:`hand_order` counts every five-card shape over the deck
(:mod:`cardlab.poker._counting`), assigns each partial compound (Mixwell + pair, two
pair, trips or quads) to the rarer of its two hands, recounts, and repeats until the
assignment no longer changes (a fixed point; a cycle is an error). Categories are then
sorted by count, rarest first; equal counts fall back to the listing order of
:class:`Category` (classic precedence), and no hand is put last unless the rule set's
``no_hand_lowest`` is off.

>>> from cardlab.poker import RuleSet
>>> order = hand_order(RuleSet.for_deck("FESCA78"))
>>> order.assigned(BaseHand.THREE_OF_A_KIND)
<Category.MIXWELL: 'mixwell'>
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import comb

from cardlab.errors import RuleError
from cardlab.poker._counting import Shape, count_shapes, per_rules
from cardlab.poker.categories import COMPLETE_COMPOUNDS, PARTIAL_COMPOUNDS, BaseHand, Category
from cardlab.poker.rules import Compound, OrderSource, RuleSet

_LISTING = {c: i for i, c in enumerate(Category)}


@dataclass(frozen=True, slots=True)
class Assignment:
    """Where one partial compound went: Mixwell together with ``base``.

    ``primary`` is the category the hands count as, ``secondary`` the other hand;
    ``mixwell_count`` and ``base_count`` are the two categories' counts at the fixed
    point (the comparison that decided it).
    """

    base: BaseHand
    count: int
    primary: Category
    secondary: Category
    mixwell_count: int
    base_count: int


@dataclass(frozen=True, eq=False)
class HandOrder:
    """The derived order of a rule set's categories, and the tables built from it.

    - ``categories``: the categories that can occur, strongest first.
    - ``counts``: five-card count of each category (ints, summing to C(n, 5)).
    - ``shape_counts``: five-card count of each shape ``(BaseHand, is_mixwell)``.
    - ``shape_table``: shape -> ``(category, primary strength, secondary strength)``,
      secondary 0 if none; the one table every evaluator uses. Only shapes that can
      occur in the deck are listed.
    - ``assignments``: the partial compounds that occur and where they went.
    - ``iterations``: recounts until the assignment stayed the same (the last one
      confirms it); 0 when ``compound`` forces it or there is no partial compound.
    """

    rules: RuleSet
    categories: tuple[Category, ...]
    counts: Mapping[Category, int]
    shape_counts: Mapping[Shape, int]
    shape_table: Mapping[Shape, tuple[Category, int, int]]
    assignments: tuple[Assignment, ...]
    iterations: int
    _strength: Mapping[Category, int]

    @property
    def combinations(self) -> int:
        """C(n, 5): the number of five-card hands of the deck."""
        return comb(len(self.rules.deck), 5)

    def strength(self, category: Category) -> int:
        """1 for the weakest category, up to ``len(categories)`` for the strongest."""
        try:
            return self._strength[category]
        except KeyError:
            raise RuleError(
                f"{category.english!r} cannot occur in {self.rules.name}"
                f" (hands: {', '.join(c.value for c in self.categories)})"
            ) from None

    def assigned(self, base: BaseHand) -> Category | None:
        """The primary category of Mixwell + ``base`` (None if it cannot occur)."""
        for a in self.assignments:
            if a.base is base:
                return a.primary
        return None

    def __str__(self) -> str:
        return " > ".join(c.english for c in self.categories)


@per_rules
def hand_order(rules: RuleSet) -> HandOrder:
    """The derived order of ``rules`` (cached per rule set)."""
    shapes = count_shapes(rules)
    partials = [p for p in PARTIAL_COMPOUNDS if shapes.get((p, True), 0)]
    to_mixwell, iterations = _resolve(shapes, partials, rules.compound)
    counts = _category_counts(shapes, to_mixwell)
    occurring = [c for c in Category if counts.get(c, 0)]
    # A hand that is only ever a secondary hand (possible when compound=mixwell forces
    # it) still needs a strength for tie-break step 1: it is ranked where its hands
    # would put it, and the strengths of ``categories`` then skip its number.
    ghosts = {p.category: shapes[p, True] for p in partials if not counts.get(p.category)}
    to_base = [p for p in partials if not to_mixwell[p]]
    if to_base and not counts.get(Category.MIXWELL):
        # compound=base where plain Mixwell cannot occur: Mixwell is only a secondary
        ghosts[Category.MIXWELL] = sum(shapes[p, True] for p in to_base)
    ranked = _ranked(occurring + list(ghosts), {**counts, **ghosts}, rules)
    strength = {c: len(ranked) - i for i, c in enumerate(ranked)}
    categories = tuple(c for c in ranked if c in occurring)

    def second(category: Category) -> int:
        return strength[category] if rules.secondary_step else 0

    table: dict[Shape, tuple[Category, int, int]] = {}
    for shape in shapes:
        base, mixwell = shape
        if not mixwell:
            cat = base.category
            table[shape] = (cat, strength[cat], 0)
        elif base in COMPLETE_COMPOUNDS:
            cat = COMPLETE_COMPOUNDS[base]
            table[shape] = (cat, strength[cat], 0)
        elif base is BaseHand.HIGH_CARD:
            table[shape] = (Category.MIXWELL, strength[Category.MIXWELL], 0)
        elif to_mixwell[base]:
            table[shape] = (Category.MIXWELL, strength[Category.MIXWELL], second(base.category))
        else:
            table[shape] = (base.category, strength[base.category], second(Category.MIXWELL))
    assignments = tuple(
        Assignment(
            base=p,
            count=shapes[p, True],
            primary=Category.MIXWELL if to_mixwell[p] else p.category,
            secondary=p.category if to_mixwell[p] else Category.MIXWELL,
            mixwell_count=counts.get(Category.MIXWELL, 0),
            base_count=counts.get(p.category, 0),
        )
        for p in partials
    )
    return HandOrder(
        rules=rules,
        categories=categories,
        counts={c: counts[c] for c in categories},
        shape_counts=dict(shapes),
        shape_table=table,
        assignments=assignments,
        iterations=iterations,
        _strength=strength,
    )


def _category_counts(
    shapes: Mapping[Shape, int], to_mixwell: Mapping[BaseHand, bool]
) -> dict[Category, int]:
    """Category counts when each partial compound goes where ``to_mixwell`` says."""
    counts: dict[Category, int] = {}
    for (base, mixwell), n in shapes.items():
        if not mixwell:
            cat = base.category
        elif base in COMPLETE_COMPOUNDS:
            cat = COMPLETE_COMPOUNDS[base]
        elif base is BaseHand.HIGH_CARD or to_mixwell[base]:
            cat = Category.MIXWELL
        else:
            cat = base.category
        counts[cat] = counts.get(cat, 0) + n
    return counts


def _stronger(a: Category, count_a: int, b: Category, count_b: int) -> bool:
    """True if ``a`` ranks above ``b``: rarer, or as rare and listed first."""
    return (count_a, _LISTING[a]) < (count_b, _LISTING[b])


def _resolve(
    shapes: Mapping[Shape, int], partials: list[BaseHand], compound: Compound
) -> tuple[dict[BaseHand, bool], int]:
    """The partial-compound assignment (True: to Mixwell) and the passes it took."""
    if not partials:
        return {}, 0
    if compound is Compound.MIXWELL:
        return dict.fromkeys(partials, True), 0
    if compound is Compound.BASE:
        return dict.fromkeys(partials, False), 0
    # Start from the plain hands alone: plain Mixwell against the plain base hand.
    plain_mixwell = shapes.get((BaseHand.HIGH_CARD, True), 0)
    assign = {
        p: _stronger(Category.MIXWELL, plain_mixwell, p.category, shapes.get((p, False), 0))
        for p in partials
    }
    seen = [assign]
    for iteration in range(1, 2 ** len(partials) + 2):
        counts = _category_counts(shapes, assign)
        mixwell = counts.get(Category.MIXWELL, 0)
        new = {
            p: _stronger(Category.MIXWELL, mixwell, p.category, counts.get(p.category, 0))
            for p in partials
        }
        if new == assign:
            return assign, iteration
        if new in seen:
            cycle = " -> ".join(_describe(a) for a in [*seen[seen.index(new) :], new])
            raise RuleError(f"the partial-compound assignment has no fixed point: {cycle}")
        seen.append(new)
        assign = new
    raise RuleError("the partial-compound assignment did not settle")  # unreachable


def _describe(assign: Mapping[BaseHand, bool]) -> str:
    to_mixwell = [p.value for p, m in assign.items() if m]
    return "{mixwell: " + (", ".join(to_mixwell) or "none") + "}"


def _ranked(
    categories: list[Category], counts: Mapping[Category, int], rules: RuleSet
) -> list[Category]:
    """Categories strongest first, per the rule set's order source."""
    if rules.order is OrderSource.CLASSIC:
        return sorted(categories, key=_LISTING.__getitem__)
    ranked = sorted(categories, key=lambda c: (counts.get(c, 0), _LISTING[c]))
    if rules.no_hand_lowest and Category.HIGH_CARD in ranked:
        ranked.remove(Category.HIGH_CARD)
        ranked.append(Category.HIGH_CARD)
    return ranked
