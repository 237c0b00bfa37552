"""The keys of a few hands in plain Python: what a table's showdown scores.

:func:`cardlab.poker.batch.evaluate_batch` scores millions of hands a second in
compiled kernels, but a new process first loads their machine code (about a second),
and a showdown scores a handful of hands. This module gives the same keys with no
compiled code: the best key of every choice of five cards (the definition of
:func:`cardlab.poker.hands.best_hand`, and of the kernels' ``"subsets"`` method), each
five scored as :mod:`cardlab.poker.hands` scores it, by looking its ranks up:

- the cards are sorted once by rank, then suit order, highest first, so every choice of
  five comes out sorted the same way and its ranks are a ready key;
- per rank multiset (filled the first time it is met) the key without suits of its
  three forms (plain, a flush, a Mixwell), and the order of significance of its cards
  (bigger groups first, then higher ranks; a straight from its top card down);
- the suits' tie-break fields, when the rules have one, from that order.

The one costly input is the hand order (:func:`cardlab.poker.order.hand_order`,
a tenth of a second or more); its shape table is kept on disk, keyed by the digest of
this module's code and what it imports (:mod:`cardlab._sources`) and by the rule set,
so a new process reads it in well under a millisecond. The tests hold these keys equal
to the kernels' and to the reference evaluator's on random hands of several decks.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cardlab._sources import PACKAGE, closure_digest
from cardlab.poker._counting import Shape, per_rules, suit_masks
from cardlab.poker.categories import BaseHand, Category
from cardlab.poker.keys import PRIMARY_SHIFT, RANK_SHIFTS, SECONDARY_SHIFT, SUIT_SHIFTS
from cardlab.poker.rules import OPTIONS, RuleSet

_PATTERNS: dict[tuple[int, ...], BaseHand] = {
    (5,): BaseHand.FIVE_OF_A_KIND,
    (4, 1): BaseHand.FOUR_OF_A_KIND,
    (3, 2): BaseHand.FULL_HOUSE,
    (3, 1, 1): BaseHand.THREE_OF_A_KIND,
    (2, 2, 1): BaseHand.TWO_PAIR,
    (2, 1, 1, 1): BaseHand.ONE_PAIR,
}

# one form of a rank multiset: the key without its suit fields, and the places (in the
# sorted five) of the cards in significance order
_Form = tuple[int, tuple[int, ...]]
# a rank multiset's forms: plain, flush, Mixwell (None: that shape cannot occur)
_Forms = tuple[_Form | None, _Form | None, _Form | None]


@dataclass(frozen=True, slots=True)
class _Scorer:
    """What scoring cards of one rule set needs, by card code (its index in the deck)."""

    rank: tuple[int, ...]  # rank index
    suit_bit: tuple[int, ...]  # 1 << suit index
    mix_bit: tuple[int, ...]  # 1 << suit index for a Mixwell suit, else 0
    strength: tuple[int, ...]  # suit strength (all 0 when suits break no tie)
    order: tuple[int, ...]  # sort key: rank index, then place in the suit order
    tiebreak: bool
    mixwell: bool
    shapes: dict[Shape, tuple[Category, int, int]]  # the hand order's shape table
    heights: dict[int, int]  # straight rank mask -> its height (1-based)
    n_ranks: int
    forms: dict[tuple[int, ...], _Forms]  # rank multiset (highest first) -> its forms

    def sorted_codes(self, codes: Sequence[int]) -> list[int]:
        """The codes from the highest card down (rank, then suit order)."""
        return sorted(codes, key=self.order.__getitem__, reverse=True)

    def five(self, five: Sequence[int]) -> int:
        """The key of five codes sorted by :meth:`sorted_codes`."""
        a, b, c, d, e = five
        rank = self.rank
        ranks = (rank[a], rank[b], rank[c], rank[d], rank[e])
        forms = self.forms.get(ranks)
        if forms is None:
            forms = self.forms[ranks] = self._forms(ranks)
        suit_bit = self.suit_bit
        suits = suit_bit[a] | suit_bit[b] | suit_bit[c] | suit_bit[d] | suit_bit[e]
        if suits & (suits - 1) == 0:
            form = forms[1]
        elif self.mixwell and suits.bit_count() == 5:
            mix_bit = self.mix_bit
            mixed = mix_bit[a] | mix_bit[b] | mix_bit[c] | mix_bit[d] | mix_bit[e]
            form = forms[2] if mixed.bit_count() == 5 else forms[0]
        else:
            form = forms[0]
        assert form is not None  # the shape occurs: these five cards make it
        key, places = form
        if self.tiebreak:
            strength = self.strength
            for shift, place in zip(SUIT_SHIFTS, places, strict=True):
                key |= strength[five[place]] << shift
        return key

    def best(self, codes: Sequence[int]) -> int:
        """The best key of any five of ``codes``."""
        score = self.five
        return max(score(f) for f in itertools.combinations(self.sorted_codes(codes), 5))

    def worst(self, codes: Sequence[int]) -> int:
        """The lowest key of any five of ``codes`` (deuce-to-seven's best low)."""
        score = self.five
        return min(score(f) for f in itertools.combinations(self.sorted_codes(codes), 5))

    def best_split(self, hole: Sequence[int], board: Sequence[int], hole_used: int) -> int:
        """The best key of exactly ``hole_used`` of ``hole`` and the rest from ``board``
        (Omaha: two and three)."""
        score, order = self.five, self.order.__getitem__
        best = 0
        for own in itertools.combinations(hole, hole_used):
            for shared in itertools.combinations(board, 5 - hole_used):
                key = score(sorted(own + shared, key=order, reverse=True))
                if key > best:
                    best = key
        return best

    def _forms(self, ranks: tuple[int, ...]) -> _Forms:
        counts = Counter(ranks)
        if len(counts) < 5:
            base = _PATTERNS[tuple(sorted(counts.values(), reverse=True))]
            return (
                self._form((base, False), ranks, counts),
                None,
                self._form((base, True), ranks, counts),
            )
        mask = sum(1 << r for r in ranks)
        straight = mask in self.heights
        flush = BaseHand.STRAIGHT_FLUSH if straight else BaseHand.FLUSH
        rest = BaseHand.STRAIGHT if straight else BaseHand.HIGH_CARD
        return (
            self._form((rest, False), ranks, counts),
            self._form((flush, False), ranks, counts),
            self._form((rest, True), ranks, counts),
        )

    def _form(self, shape: Shape, ranks: tuple[int, ...], counts: Counter[int]) -> _Form | None:
        found = self.shapes.get(shape)
        if found is None:
            return None
        category, primary, secondary = found
        key = primary << PRIMARY_SHIFT | secondary << SECONDARY_SHIFT
        if category.is_straight:
            mask = sum(1 << r for r in ranks)
            run = _straight_run(mask, self.n_ranks)
            places = tuple(sorted(range(5), key=lambda p: run.index(ranks[p])))
            return key | self.heights[mask] << RANK_SHIFTS[0], places
        # the five are sorted by rank, then suit, highest first: a stable sort by group
        # size gives the order of significance (bigger groups, higher ranks, stronger suits)
        places = tuple(sorted(range(5), key=lambda p: -counts[ranks[p]]))
        for shift, place in zip(RANK_SHIFTS, places, strict=True):
            key |= (ranks[place] + 1) << shift
        return key, places


def _straight_run(mask: int, n_ranks: int) -> tuple[int, ...]:
    """The rank indexes of a straight from its top card down (a ring deck's straight
    through ZAT wraps), as :mod:`cardlab.poker.hands` reads it."""
    ranks = [r for r in range(n_ranks) if mask >> r & 1]
    tops = [r for r in ranks if not mask >> ((r + 1) % n_ranks) & 1]
    top = tops[0] if tops else max(ranks)
    return tuple((top - i) % n_ranks for i in range(5))


@per_rules
def scorer(rules: RuleSet) -> _Scorer:
    """The scorer of ``rules`` (built once per process; its hand order from disk)."""
    deck = rules.deck
    _, mix = suit_masks(rules)
    suit_index = {s.key: i for i, s in enumerate(deck.suits)}
    rank_index = {r.key: i for i, r in enumerate(deck.ranks)}
    place = {s.key: i for i, s in enumerate(rules.suit_order)}
    rank, suit_bit, mix_bit, strength, order = [], [], [], [], []
    for card in deck.cards:
        r, s = rank_index[card.rank.key], suit_index[card.suit.key]
        rank.append(r)
        suit_bit.append(1 << s)
        mix_bit.append(1 << s if mix >> s & 1 else 0)
        strength.append(rules.suit_strength(card.suit))
        order.append(r * 64 + place[card.suit.key])
    return _Scorer(
        rank=tuple(rank),
        suit_bit=tuple(suit_bit),
        mix_bit=tuple(mix_bit),
        strength=tuple(strength),
        order=tuple(order),
        tiebreak=any(strength),
        mixwell=bool(mix),
        shapes=shape_table(rules),
        heights={mask: k + 1 for k, mask in enumerate(rules.straights)},
        n_ranks=len(deck.ranks),
        forms={},
    )


# --- the hand order's shape table, kept on disk ------------------------------------


def shape_table(rules: RuleSet) -> dict[Shape, tuple[Category, int, int]]:
    """:attr:`HandOrder.shape_table <cardlab.poker.order.HandOrder.shape_table>` of
    ``rules``: from the disk cache when this code has written it before, else derived
    (and written)."""
    path = cache_path(rules)
    try:
        return _decode(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        pass
    from cardlab.poker.order import hand_order

    table = dict(hand_order(rules).shape_table)
    _save(path, _encode(table))
    return table


def cache_path(rules: RuleSet) -> Path:
    """Where the shape table of ``rules`` is kept between processes: keyed by the code
    that derives it and by the deck and every rule option."""
    import platformdirs

    deck = rules.deck
    options = {name: _text(getattr(rules, name)) for name in OPTIONS}
    text = json.dumps({"deck": deck.definition(), "options": options}, sort_keys=True)
    name = hashlib.sha256(text.encode()).hexdigest()[:32]
    return Path(platformdirs.user_cache_dir("cardlab")) / "shapes" / _code() / f"{name}.json"


def _text(value: Any) -> Any:
    if isinstance(value, tuple):
        return [getattr(v, "key", str(v)) for v in value]
    return value if isinstance(value, bool | int | str) else str(getattr(value, "value", value))


class _Sources(dict[Path, bytes]):
    """The package's sources, each read when first asked for (the digest of one
    module's closure reads a dozen files, not the whole package)."""

    def __missing__(self, path: Path) -> bytes:
        text = self[path] = path.read_bytes()
        return text


@cache
def _code() -> str:
    """The digest of this module and the cardlab modules it imports (the hand order's
    derivation among them)."""
    return closure_digest(PACKAGE, [Path(__file__).resolve()], _Sources())


def _encode(table: dict[Shape, tuple[Category, int, int]]) -> list[list[Any]]:
    return [[b.value, m, c.value, p, s] for (b, m), (c, p, s) in table.items()]


def _decode(rows: list[list[Any]]) -> dict[Shape, tuple[Category, int, int]]:
    return {(BaseHand(b), bool(m)): (Category(c), int(p), int(s)) for b, m, c, p, s in rows}


def _save(path: Path, rows: list[list[Any]]) -> None:
    """Write to a new file, then move it into place in one step (no reader sees half)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(rows), encoding="utf-8")
        os.replace(partial, path)
    except OSError:  # no writable cache: derive it again next time
        pass
