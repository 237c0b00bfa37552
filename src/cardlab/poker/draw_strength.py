"""The exact best keep in five-card Draw, by the expected strength of the final hand.

The **strength** of a five-card hand is its chance to beat another five-card hand dealt
from the whole deck, ties counting half: ``(2 * below + equal) / (2 * (N - 1))`` over the
deck's N five-card hands, where ``below`` counts the hands whose key is lower and
``equal`` the other hands with the same key (suit tie-breaks included when the rules use
them). A keep's value is the mean strength of the five cards held after the draw, over
every replacement draw from the cards the player has not seen; the best keep maximises
it. This is the keep that wins most often against a hand that stands pat, the natural
exact target for a bot that cannot see the other hands.

Scoring all 32 keeps by enumeration costs every draw of every keep (21 million hands on
FESCA78 for each decision). Instead a :class:`DrawTable` holds, for every set S of up to
four cards, ``G[S]``: the sum of the strengths of all five-card hands of the deck that
contain S. Then, for the hand H, a keep K and the cards X the draw cannot bring (H's
other cards and the known dead cards), inclusion and exclusion gives the sum over the
draws exactly::

    sum over draws D from deck - H - dead of strength(K + D)
        = sum over T within X, |T| <= 5 - |K|, of (-1)^|T| * G[K + T]

(``G`` of a five-card set is its own strength.) All 32 keeps of a hand with no dead
cards take 3^5 = 243 look-ups. The table is built once per deck and rule set: every
five-card hand evaluated, ranked, and its strength spread to its subsets (about 10 s for
FESCA78's 21.9 million hands on one core, under a second for standard52), then kept on
disk in cardlab's cache directory; later processes load it in a fraction of a second.

>>> from cardlab.poker.games import get_game
>>> keeps = keep_strengths(get_game("standard52-draw"), "Ah Ad 7c 4s 2h")
>>> " ".join(map(str, keeps[0].kept))
'Ah Ad'
>>> keeps[0].strength > keeps[-1].strength
True
"""

from __future__ import annotations

import bisect
import contextlib
import hashlib
import itertools
import math
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from cardlab._sources import code_digest
from cardlab.cards import Card
from cardlab.errors import GameError, HandError
from cardlab.poker.batch import evaluate_batch
from cardlab.poker.games import Game
from cardlab.poker.hands import evaluate
from cardlab.poker.rules import RuleSet

CardsLike = str | Sequence[Card]

#: the largest deck whose table is built (C(n, 5) five-card hands must be evaluated)
MAX_HANDS = 60_000_000

Array = np.ndarray[Any, Any]


@dataclass(frozen=True, slots=True)
class StrengthKeep:
    """One keep: the cards kept and thrown, and the exact sum of the final hands'
    strengths over ``draws`` equally likely draws (each strength over ``scale``)."""

    kept: tuple[Card, ...]
    discarded: tuple[Card, ...]
    total: int
    draws: int
    scale: int

    @property
    def strength(self) -> Fraction:
        """The mean strength of the hand after this draw."""
        return Fraction(self.total, self.draws * self.scale)


@dataclass(frozen=True, eq=False)
class DrawTable:
    """For one rule set: the key of every five-card hand, sorted (for the strength of
    one hand), and the subset sums ``sums[j]`` (indexed by the colex rank of a j-card
    set of deck positions). Loaded from the disk cache the arrays are memory-mapped: a
    decision reads a few pages of them."""

    rules: RuleSet
    keys: Array  # every five-card key, ascending (equal keys repeated)
    sums: tuple[Array, ...]  # sums[0] .. sums[4]

    @property
    def hands(self) -> int:
        """N, the deck's five-card hands."""
        return len(self.keys)

    @property
    def scale(self) -> int:
        return 2 * (self.hands - 1)

    def score(self, key: int) -> int:
        """The strength of a five-card key, times :attr:`scale`: ``2 * below + equal``
        over the other hands."""
        below = int(np.searchsorted(self.keys, key, "left"))
        upto = int(np.searchsorted(self.keys, key, "right"))
        if upto == below:
            raise HandError(f"key {key} is not a five-card hand of {self.rules.deck.name}")
        return 2 * below + (upto - below) - 1


# --- building the table -----------------------------------------------------------------


def _kernels() -> Any:
    from cardlab.poker._kernels import draw_sums

    return draw_sums


def _fingerprint(rules: RuleSet) -> str:
    deck = rules.deck
    options = ";".join(f"{info.name}={value}" for info, value in rules.options())
    cards = " ".join(c.ascii for c in deck.cards)
    code = code_digest(__name__)  # the code that builds the table: a change rebuilds it
    text = f"cardlab {code} draw-strength\n{deck.name}[{cards}]|{deck.wrap.value}|{options}"
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def cache_path(rules: RuleSet) -> Path:
    """Where the table of ``rules`` is kept between processes."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("cardlab")) / "draw" / _fingerprint(rules)


def table_size(rules: RuleSet) -> int:
    """The number of five-card hands the table of ``rules`` evaluates (GameError when
    the deck is too small or too big for a table)."""
    n = len(rules.deck)
    if n < 5:
        raise GameError(f"{rules.deck.name} has {n} cards: a Draw hand needs five")
    hands = math.comb(n, 5)
    if hands > MAX_HANDS:
        raise GameError(
            f"{rules.deck.name} has {hands:,} five-card hands: too many for the exact "
            f"draw table (at most {MAX_HANDS:,})"
        )
    return hands


def build_table(rules: RuleSet) -> DrawTable:
    """Evaluate every five-card hand of the deck and spread the strengths to subsets."""
    table_size(rules)
    n = len(rules.deck)
    k = _kernels()
    codes = np.array([rules.deck.code(c) for c in rules.deck.cards], np.int64)
    binom = k.binomials(n)
    rows = k.colex_hands(n, codes.astype(np.uint8) if codes.max() < 256 else codes, binom)
    keys = evaluate_batch(rows, rules, check=False)
    del rows
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    below = np.searchsorted(ordered, keys, "left")
    upto = np.searchsorted(ordered, keys, "right")
    upper = 2 * below + (upto - below) - 1  # each hand's score, by colex rank
    del below, upto, order, keys
    sums: list[Array] = [np.zeros(0, np.int64)] * 5
    for size in range(4, -1, -1):
        sums[size] = k.spread(upper, n, size + 1, binom) // (5 - size)
        upper = sums[size]
    return DrawTable(rules, ordered, tuple(sums))


_FILES = ("keys", "s0", "s1", "s2", "s3", "s4")


def _load(path: Path, rules: RuleSet) -> DrawTable | None:
    try:
        arrays = [np.load(path / f"{name}.npy", mmap_mode="r") for name in _FILES]
    except (OSError, ValueError):
        return None
    n = len(rules.deck)
    sizes = [math.comb(n, 5), *(math.comb(n, j) for j in range(5))]
    if [len(a) for a in arrays] != sizes or any(a.dtype != np.int64 for a in arrays):
        return None
    return DrawTable(rules, arrays[0], tuple(arrays[1:]))


def _save(path: Path, table: DrawTable) -> None:
    """Write the arrays to a new directory, then move it into place in one step."""
    partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    partial.mkdir(parents=True, exist_ok=True)
    for name, array in zip(_FILES, (table.keys, *table.sums), strict=True):
        np.save(partial / f"{name}.npy", np.ascontiguousarray(array, np.int64))
    try:
        partial.rename(path)
    except OSError:  # another process got there first
        shutil.rmtree(partial, ignore_errors=True)


@lru_cache(maxsize=8)
def draw_table(rules: RuleSet, *, cache: bool = True) -> DrawTable:
    """The table of ``rules``: from this process, from the disk cache, or built (and
    then saved; a cache that cannot be written is skipped)."""
    path = cache_path(rules) if cache else None
    if path is not None and path.is_dir():
        loaded = _load(path, rules)
        if loaded is not None:
            return loaded
    table = build_table(rules)
    if path is not None:
        with contextlib.suppress(OSError):  # a cache that cannot be written: skipped
            _save(path, table)
    return table


# --- scoring keeps ------------------------------------------------------------------------


def _rank(positions: Sequence[int]) -> int:
    """The colex rank of a set of deck positions."""
    return sum(math.comb(p, i + 1) for i, p in enumerate(sorted(positions)))


def keep_strengths(
    game: Game, hand: CardsLike, *, dead: CardsLike = (), table: DrawTable | None = None
) -> tuple[StrengthKeep, ...]:
    """All 32 keeps of a five-card ``hand``, the best first (ties: fewer cards drawn
    first), each with its exact mean strength after the draw. ``dead``: cards known to
    be out of the draw (earlier discards)."""
    if game.base.draws < 1:
        raise GameError(f"{game.name} has no draw")
    deck = game.deck
    cards = deck.parse_cards(hand, count=5)
    out = deck.parse_cards(dead) if dead else ()
    clash = set(cards) & set(out)
    if clash:
        raise HandError(f"card {sorted(clash, key=deck.code)[0]} is both held and dead")
    if len(set(out)) != len(out):
        raise HandError("a dead card is listed twice")
    table = table if table is not None else draw_table(game.rules)
    position = {c: i for i, c in enumerate(deck.cards)}
    unseen = len(deck) - 5 - len(out)
    scores: dict[tuple[int, ...], int] = {}

    def score(five: tuple[int, ...]) -> int:
        if five not in scores:
            codes = np.array([[deck.code(deck.cards[i]) for i in five]], np.int64)
            scores[five] = table.score(int(evaluate_batch(codes, game.rules, check=False)[0]))
        return scores[five]

    keeps = []
    held = [position[c] for c in cards]
    gone = [position[c] for c in out]
    for size in range(5, -1, -1):
        n_draw = 5 - size
        if n_draw > unseen:
            continue
        for kept_idx in itertools.combinations(range(5), size):
            kept = [held[i] for i in kept_idx]
            barred = [held[i] for i in range(5) if i not in kept_idx] + gone
            total = 0
            for t in range(n_draw + 1):
                sign = -1 if t % 2 else 1
                for extra in itertools.combinations(barred, t):
                    s = tuple(sorted((*kept, *extra)))
                    if len(s) == 5:
                        total += sign * score(s)
                    else:
                        total += sign * int(table.sums[len(s)][_rank(s)])
            keeps.append(
                StrengthKeep(
                    tuple(cards[i] for i in kept_idx),
                    tuple(cards[i] for i in range(5) if i not in kept_idx),
                    total,
                    math.comb(unseen, n_draw),
                    table.scale,
                )
            )
    keeps.sort(key=lambda k: (-k.strength, len(k.discarded)))
    return tuple(keeps)


def warm(game: Game) -> None:
    """Load the table of ``game`` and score one hand, so that the next decision pays
    neither (the evaluator's look-ups for five cards are built on first use)."""
    keep_strengths(game, game.deck.cards[:5])


def reference_strength(
    game: Game, kept: Sequence[Card], unseen: Sequence[Card]
) -> tuple[int, int, int]:
    """(total, draws, scale) for one keep, the plain way: every five-card hand of the
    deck through the reference evaluator, then every draw from ``unseen``. For the
    tests (small decks)."""
    every = sorted(evaluate(h, game.rules).key for h in itertools.combinations(game.deck.cards, 5))
    total = draws = 0
    for extra in itertools.combinations(unseen, 5 - len(kept)):
        key = evaluate((*kept, *extra), game.rules).key
        draws += 1
        below, upto = bisect.bisect_left(every, key), bisect.bisect_right(every, key)
        total += 2 * below + (upto - below) - 1
    return total, draws, 2 * (len(every) - 1)
