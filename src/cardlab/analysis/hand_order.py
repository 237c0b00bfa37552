"""A deck's starting hands in order of strength, and ranges carried between decks by
their share of that order.

**The order** (:func:`hand_order`): every class of two hole cards
(:func:`cardlab.poker.classes.hand_classes`) by its all-in equity against one random
hand, strongest first, each sampled with the same number of deals: a hand of the class
drawn uniformly, then the opponent's two cards and a five-card board drawn uniformly
from the cards left, both hands scored by the deck's own rules (Mixwell and suit
tie-breaks included), a tie worth half. The same seed gives the same order.

**A range by share** (:func:`range_by_share`): lay each deck's hands end to end in its
order, so that a class of ``m`` hands among ``N`` covers an interval of length
``m / N`` of [0, 1], strongest at 0. A range of the reference deck covers a part of
[0, 1]: each class's interval, at the class's mean weight. The range on the other
deck takes each of its classes with the weight that part has on average over the class's
own interval. A range of the top x% stays the top x%, a calling range that leaves out
the strongest hands still leaves out the same share of them, and the share of the
deck's starting hands the range holds (weights counted) is the reference range's
exactly, but for the four decimals its weights are written with.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from cardlab.errors import GameError
from cardlab.poker.batch import evaluate_batch
from cardlab.poker.classes import hand_classes
from cardlab.poker.games import Game

DEALS = 10_000
"""Deals sampled for each class: a standard error under 0.005 of an equity."""


@dataclass(frozen=True)
class HandOrder:
    """A deck's classes, strongest first: names, hands each and sampled equities."""

    game: str
    names: tuple[str, ...]
    hands: tuple[int, ...]
    equity: tuple[float, ...]
    deals: int  # per class

    @property
    def se(self) -> float:
        """A bound on each equity's standard error (a share in [0, 1])."""
        return math.sqrt(0.25 / self.deals)

    def intervals(self) -> dict[str, tuple[float, float]]:
        """Each class's interval of [0, 1] (see the module text)."""
        total = sum(self.hands)
        out, start = {}, 0
        for name, m in zip(self.names, self.hands, strict=True):
            out[name] = (start / total, (start + m) / total)
            start += m
        return out


def hand_order(game: Game, *, deals: int = DEALS, seed: int = 0) -> HandOrder:
    """``game``'s classes by sampled equity against one random hand (module text)."""
    if game.base.hole_cards != 2 or game.base.board_cards != 5:
        raise GameError(f"a hand order is of Hold'em games, not {game.name}")
    if isinstance(deals, bool) or not 1 <= deals <= 10_000_000:
        raise GameError(f"deals must be 1 to 10,000,000, got {deals!r}")
    return _order(game, deals, seed)


@lru_cache(maxsize=8)
def _order(game: Game, deals: int, seed: int) -> HandOrder:
    deck = game.deck
    n = len(deck)
    rng = np.random.default_rng([seed, n])
    rows = []
    for cls in hand_classes(game.rules):
        combos = np.array([[deck.code(a), deck.code(b)] for a, b in cls.combos], np.int64)
        hero = combos[rng.integers(len(combos), size=deals)]
        keys = rng.random((deals, n))
        keys[np.arange(deals)[:, None], hero] = 2.0  # never drawn: the hero holds them
        rest = np.argpartition(keys, 7, axis=1)[:, :7]
        board = rest[:, 2:]
        mine = evaluate_batch(np.hstack([hero, board]).astype(np.uint8), game.rules, check=False)
        theirs = evaluate_batch(rest.astype(np.uint8), game.rules, check=False)
        equity = float(np.mean((mine > theirs) + 0.5 * (mine == theirs)))
        rows.append((equity, cls.name, cls.count))
    rows.sort(key=lambda r: -r[0])  # stable: equal equities keep the classes' order
    return HandOrder(
        game.key,
        tuple(r[1] for r in rows),
        tuple(r[2] for r in rows),
        tuple(r[0] for r in rows),
        deals,
    )


def range_by_share(
    weights: dict[str, float], reference: HandOrder, order: HandOrder
) -> dict[str, float]:
    """The classes of ``order``'s deck, with their weights, that cover the same share of
    its order as ``weights`` (a mean weight per class of ``reference``'s deck) covers of
    ``reference`` (see the module text). Weights are rounded to four decimals; classes
    of weight 0 are left out."""
    unknown = set(weights) - set(reference.names)
    if unknown:
        raise GameError(f"no class {sorted(unknown)[0]!r} on {reference.game}")
    cuts = []  # the reference range as pieces (start, end, weight) of [0, 1]
    for name, (lo, hi) in reference.intervals().items():
        w = weights.get(name, 0.0)
        if w > 0:
            cuts.append((lo, hi, w))
    out = {}
    for name, (lo, hi) in order.intervals().items():
        covered = sum(max(0.0, min(hi, b) - max(lo, a)) * w for a, b, w in cuts)
        weight = round(covered / (hi - lo), 4)
        if weight > 0:
            out[name] = min(weight, 1.0)
    return out
