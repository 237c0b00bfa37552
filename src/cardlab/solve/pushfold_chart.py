"""The classic push/fold grid of a deck, as text and as a PNG: for each class of starting
hands, the highest stack (big blinds) at which the small blind pushes it and at which the
big blind calls an all-in with it (:class:`~cardlab.solve.pushfold.PushFoldChart`).

The square is the one of the equity charts (:func:`cardlab.poker.classes.class_grid`):
the deck's ranks high first along both sides, pairs on the diagonal, suited hands above
it, offsuit below. Classes that do not fit the square (those with a card of a suit that
stands alone, FESCA's 陰陽) are listed under it.
"""

from __future__ import annotations

import io
import textwrap

import numpy as np

from cardlab.poker.classes import class_grid, hand_classes
from cardlab.poker.games import Game
from cardlab.solve.pushfold import MAX_STACK, PushFoldChart


def bound_text(bound: float, gap: bool = False) -> str:
    """``25+`` (every stack of the chart), ``-`` (none), else the stack: ``7.5``; a
    ``*`` after it when the class folds at some smaller stack (a gap)."""
    mark = "*" if gap else ""
    if bound >= MAX_STACK:
        return f"{MAX_STACK:g}+{mark}"
    return "-" if bound <= 0 else f"{bound:g}{mark}"


def _layout(
    game: Game, chart: PushFoldChart
) -> tuple[list[str], dict[str, tuple[int, int]], list[str]]:
    """The rank labels (high first), each class's cell, the classes outside the square."""
    deck = game.deck
    grid = class_grid(hand_classes(game.rules), deck)  # one class a cell; the rest listed
    ranks = [r.key for r in reversed(deck.ranks)]
    outside = [n for n in chart.names if n not in grid]
    return ranks, grid, outside


def chart_text(game: Game, chart: PushFoldChart) -> str:
    """Both grids as text (pusher, then caller), with the classes outside them listed."""
    ranks, grid, outside = _layout(game, chart)
    width = max(6, *(len(r) + 1 for r in ranks))
    parts = []
    for title, bounds, gaps in (
        ("small blind pushes", chart.push, chart.push_gap),
        ("big blind calls", chart.call, chart.call_gap),
    ):
        by_name = {n: bound_text(b, g) for n, b, g in zip(chart.names, bounds, gaps, strict=True)}
        cells = [["" for _ in ranks] for _ in ranks]
        for name, (y, x) in grid.items():
            cells[y][x] = by_name[name]
        lines = [
            f"{title} up to (big blinds; suited above the diagonal, offsuit below; "
            "*: folds at a smaller stack)"
        ]
        lines.append(" " * width + "".join(r.rjust(width) for r in ranks))
        for r, line in zip(ranks, cells, strict=True):
            lines.append(r.rjust(width) + "".join(c.rjust(width) for c in line))
        if outside:
            listed = ", ".join(f"{n} {by_name[n]}" for n in outside)
            lines += textwrap.wrap(
                listed, 96, initial_indent="  others: ", subsequent_indent=" " * 10
            )
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def chart_png(game: Game, chart: PushFoldChart, *, dpi: int = 110) -> bytes:
    """The two grids side by side as a PNG (darker: played deeper)."""
    from cardlab._matplotlib import pyplot

    plt = pyplot()
    ranks, grid, outside = _layout(game, chart)
    n = len(ranks)
    size = max(5.0, 0.42 * n)
    fig, axes = plt.subplots(1, 2, figsize=(2 * size + 1, size + 1.2), dpi=dpi)
    for ax, title, bounds, gaps in (
        (axes[0], "small blind pushes up to", chart.push, chart.push_gap),
        (axes[1], "big blind calls up to", chart.call, chart.call_gap),
    ):
        by_name = dict(zip(chart.names, bounds, strict=True))
        gap = dict(zip(chart.names, gaps, strict=True))
        values = np.full((n, n), np.nan)
        for name, (row, col) in grid.items():
            values[row, col] = by_name[name]
        ax.imshow(values, cmap="YlGn", vmin=0, vmax=MAX_STACK)
        for name, (row, col) in grid.items():
            v = by_name[name]
            ax.text(
                col,
                row,
                f"{name}\n{bound_text(v, gap[name])}",
                ha="center",
                va="center",
                fontsize=max(4.0, 7.0 * 13 / max(n, 13)),
                color="white" if v > 0.6 * MAX_STACK else "black",
            )
        ax.set_xticks(range(n), ranks)
        ax.set_yticks(range(n), ranks)
        ax.set_title(f"{title} (big blinds)")
    ante = f", ante {chart.ante:g}" if chart.ante else ""
    note = f"; {len(outside)} classes with a lone suit listed in the text chart" if outside else ""
    fig.suptitle(f"{game.key}: heads-up push/fold{ante}{note}")
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png")
    plt.close(fig)
    return out.getvalue()
