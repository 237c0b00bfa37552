"""One postflop spot solved on every flop of a deck, up to the suits the spot cannot tell
apart.

**Which suits are interchangeable** (:func:`interchangeable_suits`): the solver merges two
suits on a board when swapping them changes no range and no showdown
(:class:`cardlab.solve.postflop.game.PostflopGame` checks that on the showdown tables).
For a whole deck the same decision reads: the suits of a group of
:func:`cardlab.poker.classes.suit_groups` (same ranks, same role, both in or both out
of Mixwell), *unless the rules break ties by suit* (FESCA's default: no swap keeps every
showdown, which is why the solver never merges a FESCA suit), and only the swaps under
which each range keeps its weights. :func:`solve_flop` checks, on every flop it solves,
that the solver's own showdown check finds every swap the grouping implies.

**Flop classes** (:func:`flop_classes`): the orbits of three-card boards under every
permutation of interchangeable suits. A class's *weight* is the number of boards in it,
so the weights add up to C(cards, 3); its representative is the orbit's member written
high card first with the strongest suits (``As Kh 2s``). Standard deck: 1,755 classes of
22,100 flops; on FESCA decks (suit tie-breaks) every flop is its own class.

**Textures** (:func:`texture`), read off the deck's own rules so that they mean the same
on any deck: suits (``monotone``, ``two-tone``, ``rainbow``), pairing (``unpaired``,
``paired``, ``trips``), connectedness (``connected``: the flop's three ranks lie in one
straight of the rules, so two hole cards can make it, wrap-around straights of a ring
included; ``semi-connected``: two of them do; ``disconnected``: no two do) and the high
card (the highest rank by the deck's order).

**One flop** (:func:`solve_flop`): the :class:`FlopsSpot`'s spot with the flop as its
board, solved by :func:`cardlab.solve.postflop.solve`, summed up as a :class:`FlopResult`.
**Many flops** (:func:`run_flops`): one task per flop, here or on a Dask cluster, each
result yielded as it is done; :mod:`cardlab.solve.postflop.flops_results` keeps them in a
file and sums them up by texture.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from cardlab.cards import Card, Suit, format_cards
from cardlab.errors import GameError
from cardlab.poker.classes import suit_groups
from cardlab.poker.games import Game
from cardlab.solve.postflop.ranges import WeightedRange, parse_weighted_range
from cardlab.solve.postflop.spot import Spot

SuitGroups = tuple[tuple[Suit, ...], ...]
Flop3 = tuple[Card, Card, Card]

# --- which suits a spot cannot tell apart --------------------------------------------


def interchangeable_suits(game: Game, ranges: Sequence[WeightedRange] = ()) -> SuitGroups:
    """The deck's suits in groups a spot on ``game`` with ``ranges`` cannot tell apart
    (see the module's docstring), each group in the deck's order. A range that favours a
    suit splits its group into the blocks that swaps keeping every range connect."""
    rules = game.rules
    if rules.suit_tiebreak:
        return tuple((s,) for s in rules.deck.suits)
    weights = [_by_hand(r) for r in ranges]
    out: list[tuple[Suit, ...]] = []
    for group in suit_groups(rules):
        block = {s: i for i, s in enumerate(group)}
        for x, y in itertools.combinations(group, 2):
            if block[x] != block[y] and all(_swapped(w, x, y) == w for w in weights):
                old, new = block[y], block[x]
                block = {s: new if b == old else b for s, b in block.items()}
        for b in dict.fromkeys(block.values()):
            out.append(tuple(s for s in group if block[s] == b))
    return tuple(out)


def _by_hand(r: WeightedRange) -> dict[frozenset[Card], float]:
    return {frozenset(c): w for c, w in zip(r.combos, r.weights, strict=True)}


def _swapped(
    weights: dict[frozenset[Card], float], x: Suit, y: Suit
) -> dict[frozenset[Card], float]:
    def swap(c: Card) -> Card:
        return Card(y if c.suit == x else x if c.suit == y else c.suit, c.rank)

    return {frozenset(swap(c) for c in hand): w for hand, w in weights.items()}


# --- flop classes --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FlopClass:
    """A flop and how many of the deck's flops it stands for."""

    cards: Flop3
    weight: int

    def __str__(self) -> str:
        return format_cards(self.cards)


class _Relabel:
    """The deck as suit and rank indexes, and the orbit of a flop under the groups."""

    def __init__(self, game: Game, groups: SuitGroups) -> None:
        deck = game.deck
        if sorted(s.key for g in groups for s in g) != sorted(s.key for s in deck.suits):
            raise GameError(f"suit groups must hold each suit of {deck.name} once")
        self.deck = deck
        self.suit = {s: i for i, s in enumerate(deck.suits)}
        self.rank = {r: i for i, r in enumerate(deck.ranks)}
        self.groups = groups
        self.group_of = {s: g for g, group in enumerate(groups) for s in group}

    def key(self, cards: Sequence[Card]) -> tuple[tuple[int, int], ...]:
        """High card first; of equal ranks the stronger (later) suit first."""
        return tuple(sorted((-self.rank[c.rank], -self.suit[c.suit]) for c in cards))

    def orbit(self, cards: Sequence[Card]) -> set[frozenset[Card]]:
        """Every image of ``cards`` under the permutations of interchangeable suits: the
        used suits of each group sent one to one into the group, every way."""
        used: dict[int, list[Suit]] = {}
        for c in cards:
            suits = used.setdefault(self.group_of[c.suit], [])
            if c.suit not in suits:
                suits.append(c.suit)
        keys = sorted(used)
        out = set()
        for images in itertools.product(
            *(itertools.permutations(self.groups[g], len(used[g])) for g in keys)
        ):
            relabel = {
                s: t
                for g, image in zip(keys, images, strict=True)
                for s, t in zip(used[g], image, strict=True)
            }
            out.add(frozenset(Card(relabel[c.suit], c.rank) for c in cards))
        return out

    def classify(self, cards: Sequence[Card]) -> tuple[set[frozenset[Card]], FlopClass]:
        orbit = self.orbit(cards)
        best = min((self.key(tuple(f)), f) for f in orbit)[1]
        ordered = sorted(best, key=lambda c: self.key((c,)))
        return orbit, FlopClass((ordered[0], ordered[1], ordered[2]), len(orbit))


def flop_classes(game: Game, groups: SuitGroups | None = None) -> tuple[FlopClass, ...]:
    """Every flop class of ``game``'s deck under permutations within ``groups`` (default:
    :func:`interchangeable_suits` of the game with no range), high card first."""
    relabel = _Relabel(game, groups if groups is not None else interchangeable_suits(game))
    seen: set[frozenset[Card]] = set()
    out = []
    for combo in itertools.combinations(game.deck.cards, 3):
        if frozenset(combo) in seen:
            continue
        orbit, cls = relabel.classify(combo)
        seen |= orbit
        out.append(cls)
    out.sort(key=lambda f: relabel.key(f.cards))
    return tuple(out)


def select_flops(
    classes: Sequence[FlopClass], count: int | None = None, seed: int = 0
) -> tuple[FlopClass, ...]:
    """All ``classes`` (``count`` None), or ``count`` of them drawn at random with
    ``seed``, in their order. A larger count with the same seed keeps the smaller one's
    flops (the draw is a prefix of one shuffle), so a run can be extended."""
    if count is None:
        return tuple(classes)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise GameError(f"the number of flops must be at least 1, got {count!r}")
    if count > len(classes):
        raise GameError(
            f"{count:,} flops asked for; this spot has {len(classes):,} flop classes "
            "(leave the number out for all)"
        )
    order = np.random.default_rng(seed).permutation(len(classes))[:count]
    return tuple(classes[int(i)] for i in sorted(order))


# --- textures ------------------------------------------------------------------------

SUITS = ("rainbow", "two-tone", "monotone")
PAIRING = ("unpaired", "paired", "trips")
CONNECTED = ("connected", "semi-connected", "disconnected")
DIMENSIONS = ("suits", "pairing", "connected", "high")


@dataclass(frozen=True, slots=True)
class Texture:
    """A flop's texture on its deck's rules (see the module's docstring)."""

    suits: str
    pairing: str
    connected: str
    high: str

    def value(self, dimension: str) -> str:
        return str(getattr(self, dimension))


def texture(cards: Sequence[Card], game: Game) -> Texture:
    """The texture of a three-card flop on ``game``'s rules."""
    deck, rules = game.deck, game.rules
    ranks = {deck.ranks.index(c.rank) for c in cards}
    mask = sum(1 << r for r in ranks)
    most = max((bin(mask & s).count("1") for s in rules.straights), default=0)
    connected = CONNECTED[0] if most >= 3 else CONNECTED[1] if most == 2 else CONNECTED[2]
    return Texture(
        SUITS[3 - len({c.suit for c in cards})],
        PAIRING[3 - len(ranks)],
        connected,
        deck.ranks[max(ranks)].key,
    )


# --- the spot, and one flop solved ---------------------------------------------------


@dataclass(frozen=True)
class FlopsSpot:
    """A spot without its board (its ``board`` is blanked: each flop takes its place) and
    how far to solve each flop: at most ``iterations`` of DCFR, stopping once the
    exploitability is at most ``target`` % of the pot (None: every iteration), measured
    every ``every`` iterations."""

    spot: Spot
    iterations: int = 1000
    target: float | None = 0.5
    every: int = 10

    def __post_init__(self) -> None:
        if not isinstance(self.spot, Spot):
            raise GameError(f"a flops spot is made of a Spot, got {self.spot!r}")
        object.__setattr__(self, "spot", dataclasses.replace(self.spot, board=""))
        for name in ("iterations", "every"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise GameError(f"{name} must be a whole number of at least 1, got {value!r}")
        t = self.target
        if t is not None and (
            isinstance(t, bool) or not isinstance(t, int | float) or not math.isfinite(t) or t < 0
        ):
            raise GameError(f"the target must be a percentage of the pot of 0 or more, got {t!r}")

    def on(self, flop: str) -> Spot:
        """The spot with ``flop`` as its board."""
        return dataclasses.replace(self.spot, board=flop)

    def game(self) -> Game:
        return self.spot.holdem()

    def ranges(self) -> tuple[WeightedRange, WeightedRange]:
        game = self.game()
        return parse_weighted_range(self.spot.oop, game), parse_weighted_range(self.spot.ip, game)

    def classes(self) -> tuple[FlopClass, ...]:
        """The flop classes of this spot: its deck under the suits its rules and ranges
        cannot tell apart."""
        game = self.game()
        return flop_classes(game, interchangeable_suits(game, self.ranges()))

    def check(self) -> None:
        """Refuse a spot that cannot be solved (game, ranges, sizes), before any flop."""
        game = self.game()
        self.ranges()
        flop = format_cards(game.deck.cards[:3])
        self.on(flop).tree_config()

    def as_dict(self) -> dict[str, Any]:
        """What decides every flop's result (the header of a results file)."""
        spot = {k: v for k, v in self.spot.as_dict().items() if k != "board"}
        return {
            "spot": spot,
            "iterations": self.iterations,
            "target": self.target,
            "every": self.every,
        }

    @classmethod
    def from_dict(cls, data: Any) -> FlopsSpot:
        if not isinstance(data, dict) or not isinstance(data.get("spot"), dict):
            raise GameError("a flops spot is a JSON object with a spot")
        spot = Spot.from_dict({**data["spot"], "board": ""})
        extra = set(data) - {"spot", "iterations", "target", "every"}
        if extra:
            raise GameError(f"unknown flops spot fields: {', '.join(sorted(extra))}")
        return cls(
            spot, data.get("iterations", 1000), data.get("target", 0.5), data.get("every", 10)
        )


@dataclass(frozen=True, slots=True)
class FlopResult:
    """The spot solved on one flop, at the root (see docs/postflop.md).

    ``actions``: OOP's root actions and how often it takes each (its hands weighted by
    range weight × the opponent hands they meet). ``ev``: each player's EV in chips, what
    it takes from the pot less what it puts in after the flop (the two add up to the pot
    less the rake). ``equity``: each player's share of the pot if the board were dealt
    out with no more betting. ``exploitability``: % of the pot. ``skipped``: why the flop
    was not solved (a range with no hand the flop leaves), else None."""

    flop: str
    weight: int
    pot: int
    actions: tuple[tuple[str, float], ...] = ()
    ev: tuple[float, float] = (math.nan, math.nan)
    equity: tuple[float, float] = (math.nan, math.nan)
    exploitability: float = math.nan
    iterations: int = 0
    seconds: float = 0.0
    skipped: str | None = None

    @property
    def bet(self) -> float:
        """How often OOP bets at the root, every size and all in together."""
        if self.skipped is not None:
            return math.nan
        return sum(f for a, f in self.actions if a[:1] in ("b", "r", "a"))

    @property
    def realisation(self) -> tuple[float, float]:
        """Equity realisation per player: EV / (equity × pot), the share of its equity's
        chips a player turns into EV (1: exactly its equity; NaN at no equity)."""
        return (
            _realised(self.ev[0], self.equity[0], self.pot),
            _realised(self.ev[1], self.equity[1], self.pot),
        )

    def as_dict(self) -> dict[str, Any]:
        return {
            "flop": self.flop,
            "weight": self.weight,
            "pot": self.pot,
            "actions": dict(self.actions),
            "bet": self.bet,
            "ev": {"oop": self.ev[0], "ip": self.ev[1]},
            "equity": {"oop": self.equity[0], "ip": self.equity[1]},
            "realisation": dict(zip(("oop", "ip"), self.realisation, strict=True)),
            "exploitability_pot_percent": self.exploitability,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "skipped": self.skipped,
        }

    @classmethod
    def from_dict(cls, data: Any) -> FlopResult:
        try:
            return cls(
                str(data["flop"]),
                int(data["weight"]),
                int(data["pot"]),
                tuple((str(a), float(f)) for a, f in data["actions"].items()),
                (_float(data["ev"]["oop"]), _float(data["ev"]["ip"])),
                (_float(data["equity"]["oop"]), _float(data["equity"]["ip"])),
                _float(data["exploitability_pot_percent"]),
                int(data["iterations"]),
                float(data["seconds"]),
                None if data["skipped"] is None else str(data["skipped"]),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise GameError(f"not a flop result: {error!r}") from None


def _realised(ev: float, equity: float, pot: int) -> float:
    return ev / (equity * pot) if equity > 0 and pot > 0 else math.nan


def _float(value: Any) -> float:
    return math.nan if value is None else float(value)


def solve_flop(
    config: FlopsSpot, flop: FlopClass | str, weight: int = 1, *, threads: int | None = None
) -> FlopResult:
    """``config``'s spot solved on ``flop`` (what one task runs). A flop that leaves a
    range no hand is reported as skipped."""
    from cardlab.solve.postflop.solution import solve

    if isinstance(flop, FlopClass):
        text, weight = str(flop), flop.weight
    else:
        text = flop
    spot = config.on(text)
    game = spot.holdem()
    board = set(spot.board_cards(game))
    ranges = config.ranges()
    for name, r in zip(("OOP", "IP"), ranges, strict=True):
        if all(board & set(hand) for hand in r.combos):
            reason = f"the {name} range has no hand the flop leaves"
            return FlopResult(text, weight, spot.pot, skipped=reason)
    start = time.perf_counter()
    solution = solve(
        spot, config.iterations, target=config.target, every=config.every, threads=threads
    )
    seconds = time.perf_counter() - start
    if spot.isomorphism:
        _check_swaps(game, ranges, tuple(board), {s.suits for s in solution.game.swaps})
    root = solution.root()
    actions = (
        tuple(zip(root.actions, root.frequencies(), strict=True)) if root.kind == "decision" else ()
    )
    ev, equity = solution.ev(), solution.equity()
    return FlopResult(
        text,
        weight,
        spot.pot,
        actions,
        (float(ev.oop), float(ev.ip)),
        (float(equity.oop), float(equity.ip)),
        float(solution.exploitability_pot_percent),
        solution.iterations,
        seconds,
    )


def _check_swaps(
    game: Game, ranges: Sequence[WeightedRange], board: Sequence[Card], found: set[str]
) -> None:
    """Every swap of two interchangeable suits that maps the flop onto itself must be one
    the solver found on its showdown tables: else the classes merged flops that differ."""
    cards = set(board)
    for group in interchangeable_suits(game, ranges):
        for x, y in itertools.combinations(group, 2):
            image = {
                Card(y if c.suit == x else x if c.suit == y else c.suit, c.rank) for c in cards
            }
            if image == cards and f"{x.key}{y.key}" not in found:
                raise GameError(
                    f"on {format_cards(board)} the solver tells suits {x.key} and {y.key} "
                    "apart, which the flop classes merged"
                )


# --- many flops ----------------------------------------------------------------------


def run_flops(
    config: FlopsSpot,
    flops: Sequence[FlopClass],
    *,
    client: Any = None,
    threads: int | None = None,
) -> Iterator[FlopResult]:
    """Each flop's result as it is done: one after another here (``client`` None, in the
    order given, ``threads`` solver threads: default every core), or one task per flop on
    the Dask cluster of ``client`` (in the order they finish, one thread per task unless
    ``threads`` says otherwise). Closing the iterator (Ctrl-C included) cancels the flops
    not yet done."""
    if client is None:
        for f in flops:
            yield solve_flop(config, f, threads=threads)
        return
    import distributed

    as_completed: Any = distributed.as_completed  # untyped in distributed
    futures = [
        client.submit(solve_flop, config, f, threads=threads or 1, pure=False) for f in flops
    ]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.cancel(futures)
