"""The report's comparison of decks by push/fold: how much of each deck is pushed and
called heads-up at 5, 10 and 15 big blinds, and which starting hands change most.

For every deck of the report (its default rules; the compared rule variants are left
out: each would need a class matrix of its own) Hold'em push/fold is solved
(:mod:`cardlab.solve.pushfold`) on the deck's class matrix
(:mod:`cardlab.solve.pushfold_matrix`: standard52's shipped one, the others sampled to a
standard error of 0.01 and kept in the cache, the matrices ``cardlab solve pushfold``
and the ``nash`` bot use). Per deck:

- the share of all hands the small blind pushes and the big blind calls at
  :data:`STACKS` big blinds, with each solve's exploitability;
- each class's **push bound** and **call bound**: the highest stack of the chart (1 to 25
  big blinds by halves) at which it pushes (calls) with probability at least 1/2, as
  :func:`cardlab.solve.pushfold.pushfold_chart` gives them (25: at every stack of the
  chart, "25+").

**Matching classes across decks.** A class of a deck is matched to the standard52 class
that *looks the same* (:func:`match_classes`): the same kind -- a pair, two cards of one
suit (suited), two of different suits (offsuit) -- and the same two places on the rank
ladder. A rank's place is its position from the bottom of the deck's ranks as a
fraction, ``index / (ranks - 1)`` (0 the lowest rank, 1 the highest: the ace of
standard52, FESCA's ZAT); it is matched to the standard52 rank nearest that place
(``round(place * 12)``, halves up). On a deck of 13 ranks this is the same rank index:
ZAT-12 offsuit is AKo, 1-1 is 22. Only classes of the deck's main group of
interchangeable suits are matched (the largest group: FESCA's five element suits);
a class with a card of another group (FESCA's 陰陽 card) looks like nothing on
standard52, and is counted as unmatched. A suited or offsuit class whose two ranks
land on the same standard52 rank (a deck of more than 13 ranks) is unmatched too.

The classes whose push bound moves most are those with the largest
``|bound on the deck - bound of the matched standard52 class|``; a bound of 25 is
"25 or more", so a move from or to 25 is at least what it says.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from cardlab.analysis.chart import game_text
from cardlab.poker.classes import HandClass, hand_classes, suit_groups
from cardlab.poker.games import BASE_GAMES, Game
from cardlab.poker.rules import RuleSet

STACKS = (5.0, 10.0, 15.0)
"""The stacks (big blinds) whose push and call shares the report gives."""
REFERENCE = "standard52"
MOVES_LISTED = 12  # the classes listed per deck, by how far their push bound moves
MATRIX_SE = 0.01  # the default of `cardlab solve pushfold` and the nash bot: one cache


@dataclass(frozen=True, slots=True)
class Shape:
    """What a class looks like whatever the deck: its kind and the places of its two
    ranks on the deck's rank ladder (0 the lowest rank, 1 the highest)."""

    kind: str  # "pair", "suited" or "offsuit"
    high: Fraction
    low: Fraction


def class_shapes(rules: RuleSet) -> dict[str, Shape | None]:
    """Each class of ``rules``' deck (by name) and its shape; None for a class with a
    card outside the deck's main group of interchangeable suits."""
    groups = suit_groups(rules)
    sizes = [len(g) for g in groups]
    main = set(groups[sizes.index(max(sizes))])  # the first of the largest groups
    top = max(1, len(rules.deck.ranks) - 1)
    out: dict[str, Shape | None] = {}
    for c in hand_classes(rules):
        x, y = c.combos[0]
        if x.suit not in main or y.suit not in main:
            out[c.name] = None
            continue
        out[c.name] = Shape(_kind(c), Fraction(c.high, top), Fraction(c.low, top))
    return out


def _kind(c: HandClass) -> str:
    return "pair" if c.pair else "suited" if c.suited else "offsuit"


def _nearest(place: Fraction, top: int) -> int:
    return math.floor(place * top + Fraction(1, 2))


def match_classes(rules: RuleSet, reference: RuleSet) -> dict[str, str | None]:
    """Each class of ``rules``' deck and the class of ``reference``'s deck it is matched
    with (None: unmatched); see the module text."""
    top = max(1, len(reference.deck.ranks) - 1)
    theirs: dict[tuple[str, int, int], str] = {}
    for name, shape in class_shapes(reference).items():
        if shape is not None:
            key = (shape.kind, _nearest(shape.high, top), _nearest(shape.low, top))
            theirs[key] = name
    out: dict[str, str | None] = {}
    for name, shape in class_shapes(rules).items():
        if shape is None:
            out[name] = None
            continue
        hi, lo = _nearest(shape.high, top), _nearest(shape.low, top)
        if (shape.kind == "pair") != (hi == lo):
            out[name] = None
            continue
        out[name] = theirs.get((shape.kind, hi, lo))
    return out


@dataclass(frozen=True)
class DeckPushFoldTask:
    """Push/fold on one deck's Hold'em: the shares at :data:`STACKS` and every class's
    push and call bound. ``cache``: where the class matrix is kept (it is computed
    before these tasks run, so a task reads it)."""

    game: Game
    stacks: tuple[float, ...]
    cache: str | None

    def key(self) -> str:
        stacks = ",".join(f"{s:g}" for s in self.stacks)
        return f"report-pushfold|{game_text(self.game)}|se={MATRIX_SE}|stacks={stacks}"

    def run(self) -> dict[str, Any]:
        return deck_figures(self.game, deck_matrix(self.game, self.cache), self.stacks)


def deck_figures(game: Game, matrix: Any, stacks: Sequence[float]) -> dict[str, Any]:
    """One deck's figures (see :class:`DeckPushFoldTask`) from its class matrix."""
    from cardlab.solve.pushfold import pushfold_chart, solve_pushfold

    rows = []
    for s in stacks:
        sol = solve_pushfold(matrix, s)
        rows.append(
            {
                "stack": s,
                "push_share": sol.push_share,
                "call_share": sol.call_share,
                "exploitability_mbb": sol.exploitability_mbb,
            }
        )
    chart = pushfold_chart(matrix)
    return {
        "deck": game.deck.name,
        "game": game.key,
        "classes": len(matrix.names),
        "matrix": {"exact": matrix.exact, "se": matrix.se, "shipped": matrix.shipped},
        "stacks": rows,
        "chart_worst_exploitability_mbb": chart.worst_exploitability * 1000,
        "names": list(matrix.names),
        "hands": list(matrix.hands),
        "push_bound": list(chart.push),
        "call_bound": list(chart.call),
    }


def holdem(rules: RuleSet) -> Game:
    return Game(rules, BASE_GAMES["holdem"])


def deck_matrix(game: Game, cache: str | Path | None, **how: Any) -> Any:
    """The class matrix the section uses: standard52's shipped one, else
    :func:`~cardlab.solve.pushfold_matrix.class_matrix` at the default standard error
    (``how``: its client and progress)."""
    from cardlab.solve.pushfold_matrix import class_matrix, shipped_matrix

    shipped = shipped_matrix(game)
    if shipped is not None:
        return shipped
    return class_matrix(game, se=MATRIX_SE, cache=cache, **how)


def build_section(
    decks: Sequence[RuleSet],
    *,
    client: Any = None,
    cache: Path | str | None = None,
    progress: Any = None,
    stacks: Sequence[float] = STACKS,
) -> dict[str, Any]:
    """The section's data: every deck's figures and each deck's moves against
    standard52 (computed too when the report leaves it out)."""
    from cardlab.poker.games import get_game
    from cardlab.tasks import run_tasks

    games = [holdem(r) for r in decks]
    reference = get_game(f"{REFERENCE}-holdem")
    if not any(g.deck.name.lower() == REFERENCE for g in games):
        games.append(reference)
    # the matrices first, on the cluster where there is one
    matrices = [deck_matrix(g, cache, client=client, progress=progress) for g in games]
    wanted = tuple(float(s) for s in stacks)
    if cache is None:
        results = [deck_figures(g, m, wanted) for g, m in zip(games, matrices, strict=True)]
    else:  # tasks run here, each reading its matrix back, their results kept
        tasks = [DeckPushFoldTask(g, wanted, str(cache)) for g in games]
        results = run_tasks(tasks, cache=cache)
    by_deck = {r["deck"]: r for r in results}
    ref = next(r for r in results if r["deck"].lower() == REFERENCE)
    comparisons = [
        compare(r, ref, match_classes(g.rules, reference.rules))
        for g, r in zip(games, results, strict=True)
        if r is not ref
    ]
    listed = [r.deck.name for r in decks]
    return {
        "stacks": [float(s) for s in stacks],
        "reference": ref["deck"],
        "decks": [dict(by_deck[name], reference_only=name not in listed) for name in by_deck],
        "moves": comparisons,
        "matching": MATCHING_TEXT,
    }


MATCHING_TEXT = (
    "A class is matched to the standard52 class of the same kind (pair, suited, offsuit) "
    "whose two ranks stand at the nearest places of the rank ladder (place = rank index / "
    "(ranks - 1), 0 the lowest rank, 1 the highest; on 13 ranks the same index: ZAT-12 "
    "offsuit is AKo). Classes with a card outside the deck's main group of "
    "interchangeable suits (FESCA's 陰陽) are not matched."
)


def compare(
    deck: dict[str, Any], ref: dict[str, Any], matching: dict[str, str | None]
) -> dict[str, Any]:
    """The classes of ``deck`` whose push bound differs most from their matched
    standard52 class's (at most :data:`MOVES_LISTED`), with the counts matched."""
    ref_push = dict(zip(ref["names"], ref["push_bound"], strict=True))
    ref_call = dict(zip(ref["names"], ref["call_bound"], strict=True))
    rows = []
    for name, push, call in zip(deck["names"], deck["push_bound"], deck["call_bound"], strict=True):
        other = matching.get(name)
        if other is None:
            continue
        rows.append(
            {
                "class": name,
                "reference_class": other,
                "reference_push": ref_push[other],
                "push": push,
                "push_move": push - ref_push[other],
                "reference_call": ref_call[other],
                "call": call,
                "call_move": call - ref_call[other],
            }
        )
    order = {n: k for k, n in enumerate(deck["names"])}
    rows.sort(key=lambda r: (-abs(r["push_move"]), -abs(r["call_move"]), order[r["class"]]))
    matched = len(rows)
    return {
        "deck": deck["deck"],
        "reference": ref["deck"],
        "matched": matched,
        "unmatched": len(deck["names"]) - matched,
        "mean_push_move": sum(r["push_move"] for r in rows) / matched if matched else 0.0,
        "moves": rows[:MOVES_LISTED],
    }


def bound_text(bound: float) -> str:
    """A push or call bound as the charts write it: ``25+``, ``-`` (never), ``7.5``."""
    from cardlab.solve.pushfold import MAX_STACK

    if bound >= MAX_STACK:
        return f"{MAX_STACK:g}+"
    return "-" if bound <= 0 else f"{bound:g}"


def share_rows(section: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """The shares table: headers and one row per deck (percentages)."""
    headers = ["deck"]
    for s in section["stacks"]:
        headers += [f"{s:g} bb push", f"{s:g} bb call"]
    headers.append("largest exploitability (mbb/hand)")
    rows = []
    for d in section["decks"]:
        name = d["deck"] + (" (reference)" if d.get("reference_only") else "")
        row = [name]
        for r in d["stacks"]:
            row += [f"{r['push_share']:.1%}", f"{r['call_share']:.1%}"]
        worst = max(
            [r["exploitability_mbb"] for r in d["stacks"]] + [d["chart_worst_exploitability_mbb"]]
        )
        row.append(f"{worst:.3f}")
        rows.append(row)
    return headers, rows


MOVE_HEADERS = ["class", "standard52 class", "push bound there", "here", "move",
                "call bound there", "here", "move"]  # fmt: skip


def move_rows(comparison: dict[str, Any]) -> list[list[str]]:
    """The rows of one deck's moves (bounds in big blinds)."""
    return [
        [
            m["class"],
            m["reference_class"],
            bound_text(m["reference_push"]),
            bound_text(m["push"]),
            f"{m['push_move']:+g}",
            bound_text(m["reference_call"]),
            bound_text(m["call"]),
            f"{m['call_move']:+g}",
        ]
        for m in comparison["moves"]
    ]


def section_text(section: dict[str, Any]) -> str:
    """The section as plain text (``cardlab report`` without ``--format json``)."""
    lines = ["heads-up push/fold across decks: the share of hands pushed and called"]
    headers, rows = share_rows(section)
    lines.append(_plain_table(headers, rows))
    for c in section["moves"]:
        lines.append("")
        lines.append(
            f"{c['deck']} against {c['reference']}: the push bounds (big blinds) that move most "
            f"({c['matched']} classes matched, {c['unmatched']} not; mean move "
            f"{c['mean_push_move']:+.2f})"
        )
        lines.append(_plain_table(MOVE_HEADERS, move_rows(c)))
    lines.append("")
    lines.append("matching: " + section["matching"])
    return "\n".join(lines)


def _plain_table(headers: list[str], rows: list[list[str]]) -> str:
    """Columns padded to their widths: the first left-aligned, the others right."""
    widths = [max([len(h)] + [len(r[k]) for r in rows]) for k, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        padded = (
            c.ljust(w) if k == 0 else c.rjust(w)
            for k, (c, w) in enumerate(zip(cells, widths, strict=True))
        )
        return "  ".join(padded).rstrip()

    return "\n".join([line(headers), *(line(r) for r in rows)])
