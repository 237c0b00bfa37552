"""The flops of a deck up to its suits, and one spot solved on many of them.

**Flop classes.** Two suits are *interchangeable* for a spot when swapping them
everywhere changes no showdown and no range: they hold the same ranks, have the same
role and both count towards Mixwell or both do not
(:func:`cardlab.analysis.classes.suit_groups`), the rules break no tie by suit (FESCA's
default suit tie-breaks keep every suit apart), and each range gives a hand and its
swapped twin the same weight (:func:`interchangeable_suits`). A *flop class* is an
orbit of three-card boards under every permutation of interchangeable suits; its
*weight* is the number of boards in it, so the weights add up to C(n, 3).

Counting (:func:`flop_classes`; the tests compare it with every permutation applied to
every board): a flop uses ``u`` suits of a group of ``g`` interchangeable ones, at most
three in all. Its images are the relabellings of those suits into their group, one to
one: ``g! / (g - u)!`` per group, and each image is reached by as many relabellings as
map the flop onto itself (its automorphisms), so the class has
``prod(g! / (g - u)!) / automorphisms`` boards. Its representative relabels the used
suits onto each group's strongest ones and is the least such image written high card
first (``AsKh2s``, not ``AcKd2c``): every class is found once among the flops of a deck
cut down to three suits a group. The standard deck's 22,100 flops make the published
1,755 classes, and so do FESCA78's 76,076 when its six suits are permuted freely (the
deck alone, :func:`deck_suit_groups`: a flop uses at most three suits, so any group of
three or more gives the same classes); 5,252 when 陰陽 stands apart from the five Mixwell
suits (its rules without suit tie-breaks); 76,076 under its default rules.

**Selections** (:class:`FlopSelection`, text as on the command line): ``all``;
``sample:N[:SEED]``, N classes drawn at random (seed 0 by default), each weighted by its
class; ``rep:N``, N representative flops (:func:`representative_flops`), each standing
for a run of classes of about equal weight; or flops listed, ``QsJh2h,AhKd7c``, each
weighted by its class.

**Solving** (:func:`solve_flops`): the spot template with each flop as its board, one
task per flop, in this process or on a Dask cluster (``client``, one solver thread per
task by default), the :class:`FlopRecord` of each flop yielded as it is done.
:class:`FlopLog` keeps them in a file as they arrive (JSON lines or CSV), so that an
interrupted run resumes and skips the flops already done. :func:`summarize` weights the
records by their flops' weights.
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
import itertools
import json
import math
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from cardlab.cards import Card, Notation, Suit, format_cards
from cardlab.decks import Deck
from cardlab.errors import CardlabError, GameError
from cardlab.poker.rules import RuleSet
from cardlab.solve.postflop.ranges import WeightedRange, parse_weighted_range
from cardlab.solve.postflop.spot import Spot

SuitGroups = tuple[tuple[Suit, ...], ...]
"""Suits split into groups of interchangeable ones, each group in the deck's order."""

Flop3 = tuple[Card, Card, Card]


@dataclass(frozen=True, slots=True)
class Flop:
    """Three board cards and how many flops of the deck they stand for."""

    cards: Flop3
    weight: int

    def __str__(self) -> str:
        return flop_text(self.cards)


def flop_text(cards: Iterable[Card]) -> str:
    """A flop as one word where the deck writes cards that way (``QsJh2h``), else with
    spaces (``木1 火3 太極``); ``Deck.parse_cards`` reads either back."""
    cards = tuple(cards)
    compact = all(c.suit.notation is Notation.RANK_FIRST and len(c.rank.key) == 1 for c in cards)
    return "".join(map(str, cards)) if compact else format_cards(cards)


# --- which suits are interchangeable -------------------------------------------------


def deck_suit_groups(deck: Deck) -> SuitGroups:
    """The deck's own symmetry: suits grouped by the ranks they hold."""
    groups: dict[frozenset[object], list[Suit]] = {}
    for s in deck.suits:
        groups.setdefault(frozenset(c.rank for c in deck.cards_of(suit=s)), []).append(s)
    return tuple(tuple(g) for g in groups.values())


def interchangeable_suits(rules: RuleSet, ranges: Sequence[WeightedRange] = ()) -> SuitGroups:
    """The suits a spot on ``rules`` with ``ranges`` cannot tell apart (see the module's
    docstring). A range that favours one suit splits its group into the suits that
    transpositions keeping every range connect (each such block's permutations keep
    the ranges, so merging flops by them is always sound)."""
    from cardlab.analysis.classes import suit_groups

    if rules.suit_tiebreak:
        return tuple((s,) for s in rules.deck.suits)
    weights = [{frozenset(c): w for c, w in zip(r.combos, r.weights, strict=True)} for r in ranges]
    out: list[tuple[Suit, ...]] = []
    for group in suit_groups(rules):
        block = {s: i for i, s in enumerate(group)}  # suits joined by kept swaps
        for x, y in itertools.combinations(group, 2):
            if block[x] != block[y] and all(_swapped(w, x, y) == w for w in weights):
                old, new = block[y], block[x]
                block = {s: new if b == old else b for s, b in block.items()}
        for b in dict.fromkeys(block.values()):
            out.append(tuple(s for s in group if block[s] == b))
    return tuple(out)


def spot_suit_groups(spot: Spot) -> SuitGroups:
    """:func:`interchangeable_suits` of a spot's game and ranges."""
    game = spot.holdem()
    ranges = [parse_weighted_range(spot.oop, game), parse_weighted_range(spot.ip, game)]
    return interchangeable_suits(game.rules, ranges)


def _swapped(
    weights: dict[frozenset[Card], float], x: Suit, y: Suit
) -> dict[frozenset[Card], float]:
    def swap(c: Card) -> Card:
        return Card(y if c.suit == x else x if c.suit == y else c.suit, c.rank)

    return {frozenset(swap(c) for c in combo): w for combo, w in weights.items()}


# --- flop classes --------------------------------------------------------------------


class _Layout:
    """The integer view of a deck and its suit groups the counting works on."""

    def __init__(self, deck: Deck, groups: SuitGroups) -> None:
        listed = [s for g in groups for s in g]
        if sorted(s.key for s in listed) != sorted(s.key for s in deck.suits):
            raise GameError(
                f"suit groups must hold each suit of {deck.name} once, got "
                f"{' | '.join(' '.join(s.key for s in g) for g in groups)!r}"
            )
        self.deck = deck
        self.suit_index = {s: i for i, s in enumerate(deck.suits)}
        self.rank_index = {r: i for i, r in enumerate(deck.ranks)}
        self.group_of = {s: gi for gi, g in enumerate(groups) for s in g}
        # each group's suits strongest first: the suits representatives use
        self.targets = [sorted(g, key=lambda s: -self.suit_index[s]) for g in groups]
        self.sizes = [len(g) for g in groups]

    def key(self, cards: Iterable[Card]) -> tuple[tuple[int, int], ...]:
        """High card first; of equal ranks the stronger suit first."""
        return tuple(sorted((-self.rank_index[c.rank], -self.suit_index[c.suit]) for c in cards))

    def classify(self, cards: Sequence[Card]) -> tuple[Flop3, int]:
        """The representative of the class of ``cards`` and the class's weight."""
        used: dict[int, list[Suit]] = {}
        for c in cards:
            group = used.setdefault(self.group_of[c.suit], [])
            if c.suit not in group:
                group.append(c.suit)
        groups = sorted(used)
        best: tuple[tuple[int, int], ...] | None = None
        image_of_best: list[Card] = []
        hits = 0
        for orders in itertools.product(*(itertools.permutations(used[g]) for g in groups)):
            relabel = {
                s: self.targets[g][i]
                for g, order in zip(groups, orders, strict=True)
                for i, s in enumerate(order)
            }
            image = [Card(relabel[c.suit], c.rank) for c in cards]
            key = self.key(image)
            if best is None or key < best:
                best, image_of_best, hits = key, image, 1
            elif key == best:
                hits += 1
        images = math.prod(
            math.perm(self.sizes[g], len(used[g])) for g in groups
        )  # one-to-one relabellings of the used suits
        ordered = sorted(image_of_best, key=lambda c: self.key([c]))
        return (ordered[0], ordered[1], ordered[2]), images // hits


def flop_classes(deck: Deck, groups: SuitGroups | None = None) -> tuple[Flop, ...]:
    """Every flop class of ``deck`` under permutations within ``groups`` (default: the
    deck's own, :func:`deck_suit_groups`), high card first."""
    layout = _Layout(deck, groups if groups is not None else deck_suit_groups(deck))
    first = {s for t in layout.targets for s in t[:3]}
    cards = [c for c in deck.cards if c.suit in first]
    out = []
    for combo in itertools.combinations(cards, 3):
        representative, weight = layout.classify(combo)
        if set(representative) == set(combo):
            out.append(Flop(representative, weight))
    out.sort(key=lambda f: layout.key(f.cards))
    return tuple(out)


def flop_class(cards: Sequence[Card], deck: Deck, groups: SuitGroups | None = None) -> Flop:
    """The class of one flop: its representative and weight."""
    if len(cards) != 3 or len(set(cards)) != 3:
        raise GameError(f"a flop is three different cards, got {format_cards(cards)!r}")
    layout = _Layout(deck, groups if groups is not None else deck_suit_groups(deck))
    representative, weight = layout.classify(cards)
    return Flop(representative, weight)


def flop_texture(cards: Sequence[Card]) -> str:
    """``rainbow``, ``two-tone`` or ``monotone``, with ``paired``/``trips`` before it."""
    suits = len({c.suit for c in cards})
    ranks = len({c.rank for c in cards})
    tone = {1: "monotone", 2: "two-tone"}.get(suits, "rainbow")
    pairing = {1: "trips ", 2: "paired "}.get(ranks, "")
    return pairing + tone


# --- selections ----------------------------------------------------------------------

SelectionKind = Literal["all", "sample", "rep", "list"]
_NUMBER = re.compile(r"[0-9]{1,9}")
SELECTION_HELP = "all, sample:N[:SEED], rep:N, or flops such as 'QsJh2h,AhKd7c'"


@dataclass(frozen=True, slots=True)
class FlopSelection:
    """Which flops to solve, as the command line writes it (see the module's docstring)."""

    kind: SelectionKind
    count: int = 0
    seed: int = 0
    listed: tuple[str, ...] = ()

    @classmethod
    def parse(cls, text: str) -> FlopSelection:
        if not isinstance(text, str) or not text.strip():
            raise GameError(f"flops must be {SELECTION_HELP}, got {text!r}")
        t = text.strip()
        head, colon, rest = t.partition(":")
        head = head.strip().lower()
        if head == "all" and not colon:
            return cls("all")
        if head in ("sample", "rep") and colon:
            parts = [p.strip() for p in rest.split(":")]
            if not 1 <= len(parts) <= (2 if head == "sample" else 1) or not all(
                _NUMBER.fullmatch(p) for p in parts
            ):
                form = "sample:N[:SEED]" if head == "sample" else "rep:N"
                raise GameError(f"flops {head} is {form} with whole numbers, got {text!r}")
            count = int(parts[0])
            if count < 1:
                raise GameError(f"flops {head} needs at least 1 flop, got {text!r}")
            if head == "rep":
                return cls("rep", count)
            return cls("sample", count, int(parts[1]) if len(parts) == 2 else 0)
        if ":" in t:
            raise GameError(f"flops must be {SELECTION_HELP}, got {text!r}")
        items = tuple(" ".join(item.split()) for item in t.split(","))
        if any(not item for item in items):
            raise GameError(f"empty flop in {text!r} (flops are separated by commas)")
        return cls("list", listed=items)

    def __str__(self) -> str:
        if self.kind == "sample":
            return f"sample:{self.count}:{self.seed}"
        if self.kind == "rep":
            return f"rep:{self.count}"
        return "all" if self.kind == "all" else ",".join(self.listed)

    def flops(self, deck: Deck, groups: SuitGroups | None = None) -> tuple[Flop, ...]:
        """The flops selected, each with the number of the deck's flops it stands for."""
        if self.kind == "list":
            return self._listed(deck, groups)
        classes = flop_classes(deck, groups)
        if self.kind == "all":
            return classes
        if self.count > len(classes):
            raise GameError(
                f"flops {self} asks for {self.count:,} flops; {deck.name} has "
                f"{len(classes):,} here (use all)"
            )
        if self.kind == "sample":
            rng = np.random.default_rng(self.seed)
            picked = sorted(int(i) for i in rng.choice(len(classes), self.count, replace=False))
            return tuple(classes[i] for i in picked)
        return representative_flops(classes, self.count)

    def _listed(self, deck: Deck, groups: SuitGroups | None) -> tuple[Flop, ...]:
        out: list[Flop] = []
        seen: dict[Flop3, str] = {}
        for item in self.listed:
            cards = deck.parse_cards(item)
            if len(cards) != 3:
                raise GameError(f"a flop is 3 cards, got {len(cards)} in {item!r}")
            cls = flop_class(cards, deck, groups)
            if cls.cards in seen:
                raise GameError(
                    f"flops {seen[cls.cards]!r} and {item!r} are the same flop up to suits"
                )
            seen[cls.cards] = item
            out.append(Flop((cards[0], cards[1], cards[2]), cls.weight))
        return tuple(out)


def representative_flops(classes: Sequence[Flop], n: int) -> tuple[Flop, ...]:
    """``n`` flops standing for all ``classes``: the classes ordered by texture
    (:func:`flop_texture`), then as given, cut into runs of about equal weight; each run
    is stood for by the class at its middle (by weight), with the run's weight. So every
    texture gets about its share of the flops, and within it the high cards theirs.
    Returned in the order of ``classes``."""
    if not 1 <= n <= len(classes):
        raise GameError(f"representative flops: 1 to {len(classes)}, got {n}")
    order = sorted(range(len(classes)), key=lambda i: (_texture_place(classes[i].cards), i))
    weights = np.array([classes[i].weight for i in order], np.float64)
    ends = np.cumsum(weights)
    total = float(ends[-1])
    cuts = [0]
    for j in range(1, n):
        at = int(np.searchsorted(ends - weights, j * total / n, side="left"))
        cuts.append(min(max(at, cuts[-1] + 1), len(order) - (n - j)))
    cuts.append(len(order))
    chosen = []
    for a, b in itertools.pairwise(cuts):
        middle = (ends[a] - weights[a] + ends[b - 1]) / 2
        at = min(a + int(np.searchsorted(ends[a:b], middle, side="left")), b - 1)
        chosen.append((order[at], int(weights[a:b].sum())))
    chosen.sort()
    return tuple(Flop(classes[i].cards, w) for i, w in chosen)


_TEXTURES = [
    f"{p}{t}" for p in ("", "paired ", "trips ") for t in ("rainbow", "two-tone", "monotone")
]


def _texture_place(cards: Sequence[Card]) -> int:
    return _TEXTURES.index(flop_texture(cards))


# --- one flop's figures --------------------------------------------------------------

Frequencies = tuple[tuple[str, float], ...]


@dataclass(frozen=True, slots=True)
class FlopRecord:
    """The solved spot on one flop: EVs (chips) and equities of OOP and IP at the root,
    the exploitability reached (% of the pot), OOP's root frequencies, and IP's after a
    check (empty where OOP cannot check)."""

    flop: str
    weight: int
    ev: tuple[float, float]
    equity: tuple[float, float]
    exploitability: float
    iterations: int
    seconds: float
    actions: Frequencies
    after_check: Frequencies = ()

    @property
    def bet(self) -> float:
        """How often OOP bets (any size, all in included) at the root."""
        return _betting(self.actions)

    @property
    def ip_bet(self) -> float:
        """How often IP bets after a check (NaN where there is no check)."""
        return _betting(self.after_check) if self.after_check else float("nan")

    def as_dict(self) -> dict[str, Any]:
        return {
            "flop": self.flop,
            "weight": self.weight,
            "ev": {"oop": self.ev[0], "ip": self.ev[1]},
            "equity": {"oop": self.equity[0], "ip": self.equity[1]},
            "exploitability_pot_percent": self.exploitability,
            "iterations": self.iterations,
            "seconds": self.seconds,
            "oop": dict(self.actions),
            "ip_after_check": dict(self.after_check),
        }

    @classmethod
    def from_dict(cls, data: Any) -> FlopRecord:
        try:
            return cls(
                str(data["flop"]),
                int(data["weight"]),
                (float(data["ev"]["oop"]), float(data["ev"]["ip"])),
                (float(data["equity"]["oop"]), float(data["equity"]["ip"])),
                float(data["exploitability_pot_percent"]),
                int(data["iterations"]),
                float(data["seconds"]),
                tuple((str(a), float(f)) for a, f in data["oop"].items()),
                tuple((str(a), float(f)) for a, f in data.get("ip_after_check", {}).items()),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise GameError(f"not a flop record: {error!r}") from None


def _betting(actions: Frequencies) -> float:
    return sum(f for a, f in actions if a[0] in "bra")


def solve_flop(
    template: Spot,
    flop: str,
    weight: int,
    *,
    iterations: int,
    target: float | None,
    every: int = 10,
    threads: int | None = None,
    after_check: bool = True,
) -> FlopRecord:
    """``template`` solved with ``flop`` as its board (what one task runs)."""
    from cardlab.solve.postflop.solution import solve

    spot = dataclasses.replace(template, board=flop)
    try:
        solution = solve(spot, iterations, target=target, every=every, threads=threads)
    except CardlabError as error:
        raise GameError(f"flop {flop}: {error}") from None
    root = solution.root()
    ev, equity = solution.ev(), solution.equity()
    check: Frequencies = ()
    if after_check and root.kind == "decision" and "k" in root.actions:
        node = root.child("k")
        if node.kind == "decision":
            check = tuple(zip(node.actions, node.frequencies(), strict=True))
    actions = tuple(zip(root.actions, root.frequencies(), strict=True)) if root.actions else ()
    return FlopRecord(
        flop,
        weight,
        (float(ev.oop), float(ev.ip)),
        (float(equity.oop), float(equity.ip)),
        float(solution.exploitability_pot_percent),
        solution.iterations,
        float(solution.seconds),
        actions,
        check,
    )


def check_template(template: Spot, flop: Flop) -> None:
    """Refuse a template that cannot be solved (a bad game, range or size), before any
    task starts: its tree and ranges on ``flop``."""
    spot = dataclasses.replace(template, board=str(flop))
    spot.tree_config()
    spot_suit_groups(spot)


def solve_flops(
    template: Spot,
    flops: Sequence[Flop],
    *,
    iterations: int,
    target: float | None = 0.5,
    every: int = 10,
    threads: int | None = None,
    after_check: bool = True,
    client: Any = None,
) -> Iterator[FlopRecord]:
    """The record of each flop as it is done: one after another here (``client`` None,
    in order), or each flop a task on the Dask cluster of ``client`` (in the order they
    finish). ``threads``: solver threads per flop (default: 1 on a cluster, one task per
    core; every core here). Closing the iterator cancels the flops not yet done."""
    if client is None:
        for f in flops:
            yield solve_flop(
                template,
                str(f),
                f.weight,
                iterations=iterations,
                target=target,
                every=every,
                threads=threads,
                after_check=after_check,
            )
        return
    import distributed

    as_completed: Any = distributed.as_completed  # untyped in distributed
    futures = [
        client.submit(
            solve_flop,
            template,
            str(f),
            f.weight,
            iterations=iterations,
            target=target,
            every=every,
            threads=1 if threads is None else threads,
            after_check=after_check,
            pure=False,
        )
        for f in flops
    ]
    try:
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.cancel(futures)


# --- the figures over many flops -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class FlopSummary:
    """Records averaged with their flops' weights (``weight``: the flops they stand for)."""

    flops: int
    weight: int
    ev: tuple[float, float]
    equity: tuple[float, float]
    exploitability: float
    actions: Frequencies
    after_check: Frequencies
    seconds: float

    @property
    def bet(self) -> float:
        return _betting(self.actions)

    @property
    def ip_bet(self) -> float:
        return _betting(self.after_check) if self.after_check else float("nan")

    def as_dict(self) -> dict[str, Any]:
        return {
            "flops": self.flops,
            "weight": self.weight,
            "ev": {"oop": self.ev[0], "ip": self.ev[1]},
            "equity": {"oop": self.equity[0], "ip": self.equity[1]},
            "exploitability_pot_percent": self.exploitability,
            "oop": dict(self.actions),
            "ip_after_check": dict(self.after_check),
            "seconds": self.seconds,
        }


def summarize(records: Sequence[FlopRecord]) -> FlopSummary:
    if not records:
        raise GameError("no flop records to summarize")
    w = np.array([r.weight for r in records], np.float64)

    def mean(values: Iterable[float]) -> float:
        return float(np.dot(w, np.fromiter(values, np.float64, len(records))) / w.sum())

    def frequencies(rows: list[Frequencies]) -> Frequencies:
        names = [a for a, _ in rows[0]] if rows and all(rows) else []
        if any([a for a, _ in r] != names for r in rows):
            return ()  # flops of different trees: no one set of actions to average
        return tuple((a, mean(dict(r)[a] for r in rows)) for a in names)

    return FlopSummary(
        len(records),
        int(w.sum()),
        (mean(r.ev[0] for r in records), mean(r.ev[1] for r in records)),
        (mean(r.equity[0] for r in records), mean(r.equity[1] for r in records)),
        mean(r.exploitability for r in records),
        frequencies([r.actions for r in records]),
        frequencies([r.after_check for r in records]),
        float(sum(r.seconds for r in records)),
    )


def betting_by(records: Sequence[FlopRecord], deck: Deck, by: str) -> list[tuple[str, int, float]]:
    """(group, weight, OOP's weighted bet frequency) per flop high card (``by="high"``,
    highest first) or texture (``by="texture"``)."""
    if by not in ("high", "texture"):
        raise GameError(f"flops are grouped by high or texture, not {by!r}")
    order = {r: i for i, r in enumerate(deck.ranks)}
    groups: dict[str, list[FlopRecord]] = {}
    place: dict[str, int] = {}
    for r in records:
        cards = deck.parse_cards(r.flop)
        if by == "high":
            high = max(cards, key=lambda c: order[c.rank]).rank
            label, where = high.key, -order[high]
        else:
            label = flop_texture(cards)
            where = _TEXTURES.index(label)
        groups.setdefault(label, []).append(r)
        place[label] = where
    out = []
    for label in sorted(groups, key=lambda g: (place[g], g)):
        rows = groups[label]
        weight = sum(r.weight for r in rows)
        out.append((label, weight, sum(r.weight * r.bet for r in rows) / weight))
    return out


def draw_betting(records: Sequence[FlopRecord], deck: Deck, path: str | Path, title: str) -> None:
    """A PNG of OOP's bet frequency by the flop's high card and by its texture."""
    from cardlab.analysis.plots import pyplot

    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), constrained_layout=True)
    for ax, by, what in zip(axes, ("high", "texture"), ("high card", "texture"), strict=True):
        rows = betting_by(records, deck, by)
        labels = [label for label, _, _ in rows]
        ax.bar(range(len(rows)), [100 * b for _, _, b in rows], color="tab:red", alpha=0.8)
        ax.set_xticks(range(len(rows)), labels, rotation=0 if by == "high" else 30, ha="center")
        ax.set_ylim(0, 100)
        ax.set_ylabel("OOP bets (% of hands)")
        ax.set_xlabel(f"flop {what}")
        ax.grid(axis="y", alpha=0.3)
        for i, (_, weight, b) in enumerate(rows):
            ax.text(i, 100 * b + 1, f"{weight:,}", ha="center", fontsize=7, color="#555555")
    fig.suptitle(f"{title} (bars: weighted by flops; numbers: flops of the deck)", fontsize=10)
    fig.savefig(path, dpi=110)
    plt.close(fig)


# --- the records in a file, as they arrive -------------------------------------------


def run_key(
    template: Spot, *, iterations: int, target: float | None, every: int, after_check: bool
) -> str:
    """What decides a run's records (everything but the board and the threads), short."""
    spot = {k: v for k, v in template.as_dict().items() if k != "board"}
    text = json.dumps([spot, iterations, target, every, after_check], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


FIXED_COLUMNS = (
    "flop",
    "weight",
    "ev_oop",
    "ev_ip",
    "equity_oop",
    "equity_ip",
    "exploitability_pot_percent",
    "iterations",
    "seconds",
)


def csv_header(record: FlopRecord) -> list[str]:
    return [
        *FIXED_COLUMNS,
        *(f"oop {a}" for a, _ in record.actions),
        *(f"ip after check {a}" for a, _ in record.after_check),
    ]


def csv_row(record: FlopRecord) -> list[str]:
    values: list[Any] = [
        record.flop,
        record.weight,
        *record.ev,
        *record.equity,
        record.exploitability,
        record.iterations,
        record.seconds,
        *(f for _, f in record.actions),
        *(f for _, f in record.after_check),
    ]
    return [repr(v) if isinstance(v, float) else str(v) for v in values]


def _from_csv(header: list[str], row: list[str]) -> FlopRecord:
    if len(row) != len(header):
        raise GameError(f"a flops CSV row has {len(row)} fields, its header {len(header)}")
    d = dict(zip(header, row, strict=True))
    return FlopRecord.from_dict(
        {
            "flop": d["flop"],
            "weight": d["weight"],
            "ev": {"oop": d["ev_oop"], "ip": d["ev_ip"]},
            "equity": {"oop": d["equity_oop"], "ip": d["equity_ip"]},
            "exploitability_pot_percent": d["exploitability_pot_percent"],
            "iterations": d["iterations"],
            "seconds": d["seconds"],
            "oop": {k[4:]: v for k, v in d.items() if k.startswith("oop ")},
            "ip_after_check": {k[15:]: v for k, v in d.items() if k.startswith("ip after check ")},
        }
    )


class FlopLog:
    """A run's records in a file, each appended as it arrives: JSON lines (``.jsonl``,
    each with the run's key) or CSV (``.csv``, the key in a ``run`` column). Reading it
    back refuses another run's records; a line cut short by an interruption is dropped
    (and cut from the file before the next record is appended)."""

    def __init__(self, path: str | Path, run: str) -> None:
        self.path = Path(path)
        self.run = run
        suffix = self.path.suffix.lower()
        if suffix not in (".jsonl", ".csv"):
            raise GameError(f"flop records go to a .jsonl or .csv file, not {str(path)!r}")
        self.csv = suffix == ".csv"
        self._header: list[str] | None = None
        self._good: int | None = None  # bytes of whole lines, once read

    def read(self) -> list[FlopRecord]:
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            self._good = 0
            return []
        except OSError as error:
            raise GameError(f"cannot read {str(self.path)!r}: {error.strerror}") from None
        self._good = data.rfind(b"\n") + 1
        text = data[: self._good].decode("utf-8", errors="replace")
        return self._csv_records(text) if self.csv else self._json_records(text)

    def _json_records(self, text: str) -> list[FlopRecord]:
        out = []
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except ValueError:
                raise GameError(f"{self.path}:{n}: not a JSON line") from None
            self._check_run(data.get("run") if isinstance(data, dict) else None, n)
            out.append(FlopRecord.from_dict(data))
        return out

    def _csv_records(self, text: str) -> list[FlopRecord]:
        rows = list(csv.reader(io.StringIO(text)))
        if not rows:
            return []
        header = rows[0]
        if tuple(header[: len(FIXED_COLUMNS)]) != FIXED_COLUMNS or header[-1:] != ["run"]:
            raise GameError(f"{self.path}: not a CSV of flop records (its header is {header})")
        self._header = header
        out = []
        for n, row in enumerate(rows[1:], 2):
            self._check_run(row[-1] if row else None, n)
            out.append(_from_csv(header[:-1], row[:-1]))
        return out

    def _check_run(self, run: object, line: int) -> None:
        if run != self.run:
            raise GameError(
                f"{self.path}:{line} holds flops of another spot or solve (run {run!r}, "
                f"this one is {self.run!r}): give another --out"
            )

    def append(self, record: FlopRecord) -> None:
        if self._good is None:
            self.read()  # checks the file is this run's, finds its whole lines
        assert self._good is not None
        with self.path.open("ab") as f:
            if f.tell() > self._good:
                f.truncate(self._good)  # a line cut short when the last run stopped
            if self.csv:
                buffer = io.StringIO()
                writer = csv.writer(buffer, lineterminator="\n")
                header = [*csv_header(record), "run"]
                if self._good == 0:
                    writer.writerow(header)
                    self._header = header
                elif self._header != header:
                    raise GameError(f"{self.path}: its columns are not this run's ({header})")
                writer.writerow([*csv_row(record), self.run])
                line = buffer.getvalue()
            else:
                line = json.dumps({**record.as_dict(), "run": self.run}, ensure_ascii=False) + "\n"
            data = line.encode("utf-8")
            f.write(data)
            f.flush()
            self._good += len(data)
