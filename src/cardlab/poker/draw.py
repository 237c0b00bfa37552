"""Five-card Draw: which cards to keep, by the exact chance of reaching a goal.

For a five-card hand every one of the 32 keeps (stand pat ... discard all) is scored
over every replacement draw from the cards left (the deck less the hand, dead cards
and, when beating a known hand, that hand's cards): the exact probability that the
new five reach the goal. The goal is "category X or better" or "beat this hand".

>>> from cardlab.poker.games import get_game
>>> advice = best_draw(get_game("tesca54-draw"), "木7 火7 水2 陰陽9 木11", goal="three_of_a_kind")
>>> advice.best.kept
(Card.parse('木7'), Card.parse('火7'))
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from cardlab.cards import Card, format_cards
from cardlab.errors import GameError, HandError
from cardlab.poker._kernels import showdowns as _k
from cardlab.poker.batch import kernel_lookups
from cardlab.poker.categories import Category
from cardlab.poker.games import Game
from cardlab.poker.hands import HandValue, evaluate
from cardlab.poker.keys import PRIMARY_SHIFT
from cardlab.poker.order import hand_order

CardsLike = str | Sequence[Card]

COMPILE_SECONDS = 20  # the draw kernels, compiled on a first run (2-core machine)


@dataclass(frozen=True, slots=True)
class Keep:
    """One way to draw: the cards kept, the chance of the goal, and the counts."""

    kept: tuple[Card, ...]
    discarded: tuple[Card, ...]
    hits: int
    draws: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.hits, self.draws)


@dataclass(frozen=True, slots=True)
class DrawAdvice:
    """Every keep, best first (ties: fewer cards drawn first)."""

    game: Game
    hand: tuple[Card, ...]
    value: HandValue
    goal: str
    keeps: tuple[Keep, ...]

    @property
    def best(self) -> Keep:
        return self.keeps[0]

    def as_dict(self, top: int | None = None) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "hand": format_cards(self.hand),
            "hand_value": self.value.describe(),
            "goal": self.goal,
            "keeps": [
                {
                    "keep": format_cards(k.kept),
                    "discard": format_cards(k.discarded),
                    "probability": k.probability,
                    "hits": k.hits,
                    "draws": k.draws,
                }
                for k in self.keeps[:top]
            ],
        }


def _goal_threshold(game: Game, goal: str | Category | None, value: HandValue) -> tuple[int, str]:
    order = hand_order(game.rules)
    if goal is None:
        stronger = [
            c for c in order.categories if order.strength(c) > order.strength(value.category)
        ]
        if not stronger:
            raise GameError(f"{value.describe()} cannot improve: give a goal or a hand to beat")
        category = stronger[-1]
    elif isinstance(goal, Category):
        category = goal
    else:
        text = goal.strip().lower().replace(" ", "_").replace("-", "_")
        found = [c for c in Category if text in (c.value, c.english.lower().replace(" ", "_"))]
        if not found:
            known = ", ".join(c.value for c in order.categories)
            raise GameError(f"unknown hand {goal!r} (hands of {game.deck.name}: {known})")
        category = found[0]
    strength = order.strength(category)
    return strength << PRIMARY_SHIFT, f"{category.english} or better"


def best_draw(
    game: Game,
    hand: CardsLike,
    *,
    goal: str | Category | None = None,
    beat: CardsLike | None = None,
    dead: CardsLike = (),
) -> DrawAdvice:
    """Score all 32 keeps of ``hand`` against the goal; the best keep first.

    ``goal``: a category (id or English name): reach it or better. ``beat``: a
    five-card hand to beat (strictly). Neither: improve to the next category up.
    """
    if game.base.draws < 1:
        raise GameError(f"{game.name} has no draw")
    deck = game.deck
    cards = deck.parse_cards(hand, count=5)
    value = evaluate(cards, game.rules)
    out_of_play = deck.parse_cards(dead) if dead else ()
    clash = set(cards) & set(out_of_play)
    if clash:
        raise HandError(f"card {sorted(clash, key=deck.code)[0]} is both held and dead")
    out = set(cards) | set(out_of_play)
    if beat is not None:
        if goal is not None:
            raise GameError("give either a goal or a hand to beat, not both")
        rival = deck.parse_cards(beat, count=5)
        clash = out & set(rival)
        if clash:
            raise HandError(f"card {sorted(clash, key=deck.code)[0]} is in both hands")
        out |= set(rival)
        rival_value = evaluate(rival, game.rules)
        threshold, text = rival_value.key + 1, f"beat {rival_value.describe()}"
    else:
        threshold, text = _goal_threshold(game, goal, value)
    rest = np.array([deck.code(c) for c in deck.cards if c not in out], np.int64)
    lookups = kernel_lookups(game.rules)
    keeps = []
    for size in range(5, -1, -1):
        for kept in itertools.combinations(cards, size):
            n_draw = 5 - size
            if n_draw > len(rest):
                continue
            codes = np.zeros(5, np.int64)
            codes[:size] = deck.codes(kept)
            hits, draws = _k.draw_outcomes(
                codes[:size].copy(),
                rest,
                n_draw,
                threshold,
                lookups.cards,
                lookups.shapes,
                lookups.straights,
                lookups.heights,
            )
            discarded = tuple(c for c in cards if c not in kept)
            keeps.append(Keep(kept, discarded, int(hits), int(draws)))
    keeps.sort(key=lambda k: (-k.probability, len(k.discarded)))
    return DrawAdvice(game, cards, value, text, tuple(keeps))


def reference_keep(
    game: Game, kept: Sequence[Card], rest: Sequence[Card], threshold: int
) -> tuple[int, int]:
    """(hits, draws) for one keep, the plain way: every draw through the reference
    evaluator. For the tests."""
    hits = draws = 0
    for extra in itertools.combinations(rest, 5 - len(kept)):
        draws += 1
        if evaluate((*kept, *extra), game.rules).key >= threshold:
            hits += 1
    return hits, draws
