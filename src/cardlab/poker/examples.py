"""Example hands drawn from a deck: one of every hand it can make, its straights, and a
pair of hands for each tie-break step (the rules page shows them).

Nothing here is typed in: a small deterministic search builds candidate hands from the
deck's own ranks and suits (rank patterns from five of a kind down to five different
ranks, the deck's straights, and for each a flush, a Mixwell and a plain choice of
suits), and the reference evaluator (:func:`~cardlab.poker.hands.evaluate`) says what
each one is; :func:`~cardlab.poker.hands.compare` says which step decides a pair.

>>> from cardlab.poker import RuleSet
>>> from cardlab.poker.categories import Category
>>> examples = example_hands(RuleSet.for_deck("FESCA78"))
>>> examples[Category.MIXWELL_FIVE_OF_A_KIND].describe()
'Mixwell five of a kind, 7s — 水7 金7 土7 火7 木7'
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from cardlab.cards import Card, Rank, Suit
from cardlab.errors import CardlabError
from cardlab.poker._counting import per_rules
from cardlab.poker.categories import Category
from cardlab.poker.hands import DecidedBy, HandValue, compare, evaluate
from cardlab.poker.order import hand_order
from cardlab.poker.rules import RuleSet

# rank multiplicities of five cards, five of a kind first
_PATTERNS = ((5,), (4, 1), (3, 2), (3, 1, 1), (2, 2, 1), (2, 1, 1, 1), (1, 1, 1, 1, 1))
_CHOICES = 40  # rank choices tried per pattern (the search stops once all are found)


@dataclass(frozen=True, slots=True)
class TieBreak:
    """Two hands whose comparison is decided at ``step``; ``winner`` is 0 or 1 (or
    ``None`` when they tie)."""

    step: DecidedBy
    hands: tuple[HandValue, HandValue]
    winner: int | None


def example_hands(rules: RuleSet) -> dict[Category, HandValue]:
    """One hand of every category of ``rules``, strongest category first; a hand
    without a secondary hand where the category has one."""
    found = _search(rules)
    out: dict[Category, HandValue] = {}
    for category in hand_order(rules).categories:
        plain = found.get((category, None))
        if plain is None:
            plain = next((v for (c, _), v in found.items() if c is category), None)
        if plain is None:  # pragma: no cover - the tests check every built-in deck
            raise CardlabError(f"no example of {category.english} found in {rules.deck.name}")
        out[category] = plain
    return out


def compound_examples(rules: RuleSet) -> dict[tuple[Category, Category], HandValue]:
    """A hand of every (primary, secondary) pair: Mixwell + pair and the like."""
    return {(c, s): v for (c, s), v in _search(rules).items() if s is not None}


def straight_examples(rules: RuleSet) -> list[HandValue]:
    """A hand of each of the deck's straights, strongest first (13 on a ring of ZAT and
    1..12: the ZAT straights too)."""
    out = []
    for mask in reversed(rules.straights):
        ranks = [r for i, r in enumerate(rules.deck.ranks) if mask >> i & 1]
        value = next(iter(_valued(rules, _plain(rules, ranks))), None)
        if value is None:  # pragma: no cover - every rank has a card in the built-in decks
            raise CardlabError(f"no cards for the straight {ranks} in {rules.deck.name}")
        out.append(value)
    return out


def tie_break_examples(rules: RuleSet) -> list[TieBreak]:
    """For each step that can decide in ``rules``, a pair of hands it decides."""
    found = _search(rules)
    values = [v for pair in _search_two(rules).values() for v in pair]
    out: list[TieBreak] = []
    categories = hand_order(rules).categories
    # category: the rarest hand most people would not expect above the next one
    mixwell = Category.MIXWELL
    at = categories.index(mixwell) if mixwell in categories else max(len(categories) - 4, 0)
    pair = (found.get((categories[at], None)), found.get((categories[at + 1], None)))
    candidates: list[tuple[HandValue, HandValue]] = []
    if pair[0] is not None and pair[1] is not None:
        candidates.append((pair[0], pair[1]))
    # same hand, other ranks (step ranks); same ranks, other suits (suits, or a tie)
    # common hands first: the search found the rare ones first
    values.reverse()
    candidates += [(a, b) for a, b in itertools.combinations(values, 2) if a.category == b.category]
    candidates += list(itertools.islice(_suit_variants(rules, values[-12:]), 200))
    for step in ("category", "secondary", "ranks", "suits", "tie"):
        for a, b in candidates:
            winners, decided = compare([a, b])
            if decided == step and (step != "tie" or set(a.cards) != set(b.cards)):
                winner = winners[0] if len(winners) == 1 else None
                out.append(TieBreak(step, (a, b), winner))
                break
    return out


# --- the search -------------------------------------------------------------------


Key = tuple[Category, Category | None]


def _search(rules: RuleSet) -> dict[Key, HandValue]:
    """The first hand found of every (category, secondary) the deck can make."""
    return {key: values[0] for key, values in _search_two(rules).items()}


@per_rules
def _search_two(rules: RuleSet) -> dict[Key, list[HandValue]]:
    """The first two hands (of different ranks) found of every (category, secondary)."""
    order = hand_order(rules)
    wanted: set[Key] = {(c, None) for c in order.categories}
    wanted |= {(a.primary, a.secondary) for a in order.assignments}
    found: dict[Key, list[HandValue]] = {}
    for value in _valued(rules, _candidates(rules)):
        got = found.setdefault((value.category, value.secondary), [])
        ranks = [c.rank for c in value.cards]
        if len(got) < 2 and all([c.rank for c in v.cards] != ranks for v in got):
            got.append(value)
        # a category with only compound hands has no (category, None): stop on the rest
        have = {c for c, _ in found}
        if all(len(found.get(k, ())) == 2 or (k[1] is None and k[0] in have) for k in wanted):
            break
    return found


def _valued(rules: RuleSet, hands: Iterator[list[Card]]) -> Iterator[HandValue]:
    for cards in hands:
        yield evaluate(cards, rules)


def _preferred_ranks(rules: RuleSet) -> list[Rank]:
    """The deck's ranks, middle ones first (examples read better with 7s than with 1s)."""
    ranks = list(rules.deck.ranks)
    middle = (len(ranks) - 1) / 2
    return sorted(ranks, key=lambda r: (abs(ranks.index(r) - middle), -ranks.index(r)))


def _candidates(rules: RuleSet) -> Iterator[list[Card]]:
    """Hands to try: each rank pattern with a few rank choices, then the straights; each
    with a flush, a Mixwell and a plain choice of suits where the cards exist."""
    ranks = _preferred_ranks(rules)
    n = len(ranks)
    for pattern in _PATTERNS:
        groups = len(pattern)
        # every rank leads a group once (a deck may make a hand only with its ZATs), then
        # the other choices, nearest ranks first
        leading = [tuple(ranks[(s + i) % n] for i in range(groups)) for s in range(n)]
        others: Iterator[tuple[Rank, ...]] = itertools.permutations(ranks, groups)
        if groups == 5:
            others = itertools.combinations(ranks, 5)
        for chosen in itertools.chain(leading, itertools.islice(others, _CHOICES)):
            hand_ranks = [r for r, m in zip(chosen, pattern, strict=True) for _ in range(m)]
            yield from _suitings(rules, hand_ranks)
    for mask in rules.straights:
        yield from _suitings(rules, [r for i, r in enumerate(rules.deck.ranks) if mask >> i & 1])


def _suitings(rules: RuleSet, ranks: Sequence[Rank]) -> Iterator[list[Card]]:
    deck = rules.deck
    for suit in deck.suits:  # flushes
        cards = [_card(rules, r, suit) for r in ranks]
        if all(cards) and len(set(ranks)) == 5:
            yield [c for c in cards if c]
    mixwell = rules.mixwell_suits if rules.mixwell_possible else ()
    for suits in itertools.permutations(mixwell, 5):  # Mixwells
        cards = [_card(rules, r, s) for r, s in zip(ranks, suits, strict=True)]
        if all(cards):
            yield [c for c in cards if c]
            break
    yield from _plain(rules, ranks)


def _plain(rules: RuleSet, ranks: Sequence[Rank]) -> Iterator[list[Card]]:
    """The first choice of suits (in the deck's order) that is neither a flush nor five
    different Mixwell suits, if any."""
    mixwell = set(rules.mixwell_suits) if rules.mixwell_possible else set()
    options = [[c for s in rules.deck.suits if (c := _card(rules, r, s))] for r in ranks]

    def pick(i: int, chosen: list[Card]) -> Iterator[list[Card]]:
        if i == len(ranks):
            suits = {c.suit for c in chosen}
            if len(suits) > 1 and not (len(suits) == 5 and suits <= mixwell):
                yield chosen
            return
        for card in options[i]:
            if card not in chosen:
                yield from pick(i + 1, [*chosen, card])

    yield from itertools.islice(pick(0, []), 1)


def _card(rules: RuleSet, rank: Rank, suit: Suit) -> Card | None:
    return _cards_by(rules).get((rank.key, suit.key))


@per_rules
def _cards_by(rules: RuleSet) -> dict[tuple[str, str], Card]:
    return {(c.rank.key, c.suit.key): c for c in rules.deck.cards}


def _suit_variants(
    rules: RuleSet, values: Sequence[HandValue]
) -> Iterator[tuple[HandValue, HandValue]]:
    """Each hand beside the same hand with one card of another suit (same ranks)."""
    for value in values:
        for i, card in enumerate(value.cards):
            for suit in rules.deck.suits:
                other = _card(rules, card.rank, suit)
                if other is None or other in value.cards:
                    continue
                cards = [*value.cards[:i], other, *value.cards[i + 1 :]]
                yield value, evaluate(cards, rules)


__all__ = [
    "TieBreak",
    "compound_examples",
    "example_hands",
    "straight_examples",
    "tie_break_examples",
]
