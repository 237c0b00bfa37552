"""Low hands and badugi on any deck: what wins the low half of a split pot, razz,
deuce-to-seven lowball and badugi (docs/low-games.md is the specification).

Every low order is derived from the deck's own order, so each of them means the
familiar thing on standard52 (and agrees with pokerkit, see the tests) and something
that follows from the deck on a FESCA or TESCA deck:

- **Ace-to-five** (:attr:`LowRule.ACE_TO_FIVE`, razz). The *low order* of the ranks is
  the deck's order with the rank that wraps below the lowest (the ace of standard52,
  ZAT of a ring deck) moved to the bottom: A-2-...-K, or Z-1-...-12. Straights,
  flushes and Mixwell do not count; fewer repeated ranks are better (no pair, one pair,
  two pair, three of a kind, full house, four, five of a kind), then the ranks from the
  most repeated and highest down, the lower the better. Suits never break a tie.
- **Eight or better** (:attr:`LowRule.EIGHT_OR_BETTER`): an ace-to-five hand of five
  different ranks, all among the eight lowest of the low order (A-8; Z-7 on a FESCA
  deck; on a deck of eight ranks or fewer any five different ranks qualify). A hand
  with no such five has no low.
- **Deuce-to-seven** (:attr:`LowRule.DEUCE_TO_SEVEN`): the deck's high order
  (:mod:`cardlab.poker.order`, its tie-breaks included) reversed: the worst high hand
  is the best low, with the top rank high only (a deck whose ace also plays low, as
  standard52's, makes no A-2-3-4-5 straight here). On standard52, 7-5-4-3-2 offsuit is
  the nut low and A-2-3-4-5 is ace-high, as pokerkit plays it.
- **Badugi** (:attr:`LowRule.BADUGI`): the largest set of a player's cards with
  different suits and different ranks; more cards beat fewer, then the lower highest
  card in the ace-to-five order, and so on down.

A *key* is comparable within one rule, and a higher key is a better hand for that rule
(so a pot goes to ``max``); ``None`` is no hand (no qualifying low).

>>> from cardlab.decks import get_deck
>>> deck = get_deck("standard52")
>>> best_low(deck.parse_cards("Ah 2c 3d 4s 6h Kd Kc"), LowRule.EIGHT_OR_BETTER, deck)
(0, -6, -4, -3, -2, -1)
>>> best_low(deck.parse_cards("9h 2c 3d 4s 6h Kd Kc"), LowRule.EIGHT_OR_BETTER, deck) is None
True
>>> describe_low(deck.parse_cards("Ah 2c 3d 4s 6h Kd Kc"), LowRule.ACE_TO_FIVE, deck)
'6-4-3-2-A'
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from cardlab.cards import Card
from cardlab.decks import Deck, Wrap
from cardlab.errors import HandError
from cardlab.poker._few_hands import scorer
from cardlab.poker.hands import evaluate
from cardlab.poker.rules import RuleSet

QUALIFIER_RANKS = 8
"""Eight or better: a low's five ranks are among this many lowest of the low order."""

LowKey = tuple[int, ...]

# ace-to-five: the repeated ranks of five cards, best first
_SHAPES = {
    (1, 1, 1, 1, 1): 0,  # no pair
    (2, 1, 1, 1): 1,
    (2, 2, 1): 2,
    (3, 1, 1): 3,
    (3, 2): 4,
    (4, 1): 5,
    (5,): 6,  # five of a kind (FESCA decks)
}


class LowRule(enum.Enum):
    """How a low hand (or badugi) is read; see the module documentation."""

    ACE_TO_FIVE = "ace-to-five"
    EIGHT_OR_BETTER = "eight-or-better"
    DEUCE_TO_SEVEN = "deuce-to-seven"
    BADUGI = "badugi"

    def __repr__(self) -> str:
        return f"LowRule.{self.name}"


@lru_cache(maxsize=32)
def low_order(deck: Deck) -> tuple[str, ...]:
    """The rank keys of ``deck`` from the lowest to the highest in the ace-to-five
    order: the wrapping rank (standard52's ace, ZAT) first, then the deck's order."""
    keys = tuple(r.key for r in deck.ranks)
    if deck.wrap is Wrap.LINE:
        return keys
    return keys[-1:] + keys[:-1]


@lru_cache(maxsize=32)
def _low_values(deck: Deck) -> dict[str, int]:
    return {key: i + 1 for i, key in enumerate(low_order(deck))}


def _values(cards: Sequence[Card], deck: Deck) -> tuple[int, ...]:
    values = _low_values(deck)
    try:
        return tuple(sorted((values[c.rank.key] for c in cards), reverse=True))
    except KeyError as e:
        raise HandError(f"rank {e.args[0]!r} is not a rank of the {deck.name} deck") from None


@lru_cache(maxsize=4096)
def _ace_to_five(values: tuple[int, ...]) -> LowKey:
    """Five low values (highest first) as a key, higher better."""
    counts = Counter(values)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = _SHAPES[tuple(m for _, m in groups)]
    return (-shape, *(-v for v, _ in groups))


@lru_cache(maxsize=4096)
def _best_ace_to_five(values: tuple[int, ...], qualify: int | None) -> LowKey | None:
    best: LowKey | None = None
    for five in itertools.combinations(values, 5):
        if qualify is not None and (len(set(five)) < 5 or five[0] > qualify):
            continue
        key = _ace_to_five(five)
        if best is None or key > best:
            best = key
    return best


def _badugi(cards: Sequence[Card], deck: Deck) -> LowKey:
    values = _low_values(deck)
    best: LowKey = ()
    for size in range(len(cards), 0, -1):
        for group in itertools.combinations(cards, size):
            if len({c.suit for c in group}) < size or len({c.rank for c in group}) < size:
                continue
            ranks = sorted((values[c.rank.key] for c in group), reverse=True)
            key = (size, *(-v for v in ranks))
            if key > best:
                best = key
        if best:
            return best
    raise HandError("a badugi needs at least one card")


def low_key(
    cards: Sequence[Card], rule: LowRule, deck: Deck, rules: RuleSet | None = None
) -> LowKey | None:
    """The key of exactly these cards (five; badugi: one to four) under ``rule``."""
    if rule is LowRule.BADUGI:
        if not 1 <= len(cards) <= 4:
            raise HandError(f"a badugi hand is one to four cards, got {len(cards)}")
        return _badugi(cards, deck)
    if len(cards) != 5:
        raise HandError(f"a low hand is exactly five cards, got {len(cards)}")
    if rule is LowRule.DEUCE_TO_SEVEN:
        if rules is None:
            raise HandError("deuce-to-seven reverses a rule set's high order: give the rules")
        return (-evaluate(cards, deuce_rules(rules)).key,)
    values = _values(cards, deck)
    return _best_ace_to_five(values, _qualifier(rule))


@lru_cache(maxsize=32)
def deuce_rules(rules: RuleSet) -> RuleSet:
    """The high order deuce-to-seven reverses: ``rules`` with the top rank high only (a
    deck whose ace also plays low straightens A-2-3-4-5 in high poker, not here)."""
    if rules.wrap is Wrap.ACE_LOW:
        return rules.with_options(wrap="line")
    return rules


def _qualifier(rule: LowRule) -> int | None:
    return QUALIFIER_RANKS if rule is LowRule.EIGHT_OR_BETTER else None


def best_low(
    cards: Sequence[Card],
    rule: LowRule,
    deck: Deck,
    rules: RuleSet | None = None,
    *,
    board: Sequence[Card] = (),
    hole_used: int | None = None,
) -> LowKey | None:
    """The best key a player makes under ``rule`` from their ``cards`` and the
    ``board``: any five of them, or exactly ``hole_used`` hole cards and the rest from
    the board (Omaha: 2 and 3). Badugi takes the player's cards alone."""
    if rule is LowRule.BADUGI:
        return _badugi(cards, deck)
    if hole_used is None:
        every = tuple(cards) + tuple(board)
        if len(every) < 5:
            raise HandError(f"a low hand needs five cards, got {len(every)}")
        if rule is LowRule.DEUCE_TO_SEVEN:
            if rules is not None and (rules.deck is deck or rules.deck == deck):
                codes = [deck.code(c) for c in every]
                if len(set(codes)) == len(codes):  # else the reference says which twice
                    return (-scorer(deuce_rules(rules)).worst(codes),)  # the plain fast path
            return max(_deuce(five, deck, rules) for five in itertools.combinations(every, 5))
        return _best_ace_to_five(_values(every, deck), _qualifier(rule))
    best: LowKey | None = None
    for own in itertools.combinations(cards, hole_used):
        for shared in itertools.combinations(board, 5 - hole_used):
            key = low_key(own + shared, rule, deck, rules)
            if key is not None and (best is None or key > best):
                best = key
    return best


def _deuce(five: Sequence[Card], deck: Deck, rules: RuleSet | None) -> LowKey:
    key = low_key(five, LowRule.DEUCE_TO_SEVEN, deck, rules)
    assert key is not None  # deuce-to-seven always has a hand
    return key


def describe_low(
    cards: Sequence[Card], rule: LowRule, deck: Deck, rules: RuleSet | None = None
) -> str:
    """The ranks of the best low (or badugi) from these cards, highest first, as
    ``8-6-4-2-A``; "no low" when nothing qualifies."""
    if rule is LowRule.DEUCE_TO_SEVEN:
        if rules is None:
            raise HandError("deuce-to-seven reverses a rule set's high order: give the rules")
        fives = itertools.combinations(cards, 5)
        high = deuce_rules(rules)
        worst = min((evaluate(f, high) for f in fives), key=lambda v: v.key)
        return f"{worst.describe()} ({'-'.join(c.rank.key for c in worst.cards)})"
    key = best_low(cards, rule, deck, rules)
    if key is None:
        return "no low"
    order = low_order(deck)
    ranks = "-".join(order[-v - 1] for v in key[1:])
    if rule is LowRule.BADUGI:
        return f"{key[0]}-card badugi {ranks}"
    return ranks
