"""``cardlab poker table --hand-size 6|7`` and ``--game omaha``: count and render.

The ``poker table`` command calls :func:`show_table`; this module counts the table
with :mod:`cardlab.poker.tables7` (a rich progress bar on stderr when it is a
terminal) and writes it as text, JSON or CSV.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from cardlab import render
from cardlab.cli._common import emit, emit_json
from cardlab.errors import GameError
from cardlab.poker.rules import RuleSet
from cardlab.poker.tables7 import (
    OMAHA_SAMPLES,
    SevenTable,
    best_of_table,
    omaha_table,
)
from cardlab.poker.tables7 import (
    Progress as ProgressCallback,
)

GAMES = ("holdem", "stud", "omaha")


def count_table(
    rules: RuleSet,
    *,
    hand_size: int = 7,
    game: str = "holdem",
    samples: int = OMAHA_SAMPLES,
    seed: int = 0,
    exact: bool | None = None,
    show_progress: bool | None = None,
) -> SevenTable:
    """The best-of-``hand_size`` table (Hold'em and Stud alike), or Omaha's; a progress
    bar on stderr when ``show_progress`` (default: stderr is a terminal)."""
    if game not in GAMES:
        raise GameError(f"unknown game {game!r} (games: {', '.join(GAMES)})")
    if show_progress is None:
        show_progress = sys.stderr.isatty()
    with _progress_bar(show_progress, rules, game, hand_size) as progress:
        if game == "omaha":
            return omaha_table(rules, samples=samples, seed=seed, exact=exact, progress=progress)
        return best_of_table(rules, hand_size, progress=progress)


def show_table(
    rules: RuleSet,
    fmt: str,
    *,
    hand_size: int = 7,
    game: str = "holdem",
    samples: int = OMAHA_SAMPLES,
    seed: int = 0,
    exact: bool | None = None,
) -> None:
    """Count the table and write it to stdout in ``fmt`` (text, json or csv)."""
    table = count_table(
        rules, hand_size=hand_size, game=game, samples=samples, seed=seed, exact=exact
    )
    if fmt == "json":
        emit_json(table.as_dict())
    elif fmt == "csv":
        emit(render.to_csv(CSV_HEADER, csv_rows(table)))
    else:
        emit(title(table))
        render.console().print(text_table(table))
        emit(footer(table))


CSV_HEADER = (
    "order",
    "id",
    "hand",
    "five_card_count",
    "count",
    "total",
    "probability",
    "exact",
    "std_error",
    "inverted_over",
)


def csv_rows(table: SevenTable) -> list[tuple[object, ...]]:
    return [
        (
            r.order,
            r.category.value,
            r.category.english,
            r.five_card_count,
            r.count,
            r.total,
            r.probability,
            "yes" if r.exact else "no",
            f"{r.std_error:.3g}",
            " ".join(c.value for c in r.inverted_over),
        )
        for r in table.rows
    ]


def title(table: SevenTable) -> str:
    what = (
        "Omaha (2 of 4 hole + 3 of 5 board)"
        if table.game == "omaha"
        else f"best five of {table.hand_size} cards"
    )
    how = (
        f"sampled: {table.samples:,} deals, seed {table.seed}"
        if table.method == "sampled"
        else f"exact, {table.method}"
    )
    return f"{table.rules.name}: {what}, {table.hands:,} hands ({how})"


def text_table(table: SevenTable) -> Table:
    sampled = table.method == "sampled"
    header = [
        "#",
        "hand",
        "5-card count",
        "samples" if sampled else "count",
        "probability",
    ]
    if sampled:
        header.append("± std. error")
    header.append("more frequent than weaker")
    rows = []
    for r in table.rows:
        row = [
            str(r.order),
            r.category.english,
            f"{r.five_card_count:,}",
            f"{r.count:,}",
            render.percent(r.probability),
        ]
        if sampled:
            row.append(render.percent(r.std_error))
        row.append(", ".join(c.english for c in r.inverted_over) or "")
        rows.append(row)
    justify = ["right", "left", "right", "right", "right"] + (["right"] if sampled else [])
    return render.text_table(header, rows, justify=[*justify, "left"])


def footer(table: SevenTable) -> str:
    lines = []
    if table.inversions:
        lines.append(
            f"{len(table.inversions)} inversion(s): a stronger hand is the best five more "
            "often than a weaker one (order from the five-card deal):"
        )
        lines += [f"  {a.english} > {b.english}" for a, b in table.inversions]
    else:
        lines.append("no inversions: the order of frequencies follows the five-card order")
    if table.method == "sampled":
        lines.append(
            "figures are sampled (an exact count is not feasible here); ± is one standard error"
        )
    return "\n".join(lines)


@contextmanager
def _progress_bar(
    enabled: bool, rules: RuleSet, game: str, hand_size: int
) -> Iterator[ProgressCallback | None]:
    if not enabled:
        yield None
        return
    label = "Omaha" if game == "omaha" else f"best of {hand_size}"
    columns = (
        TextColumn(f"{rules.deck.name} {label}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("count", total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update
