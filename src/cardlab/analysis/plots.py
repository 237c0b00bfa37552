"""Pictures of charts and tables, as PNG bytes (matplotlib, no screen needed).

A chart is drawn as heat maps of equity over the two ranks, one panel per kind of
suits: in the standard deck the familiar 13x13 square (pairs on the diagonal, suited
hands above it, offsuit below); in FESCA decks that square for the element suits, then
a square for hands with one 陰陽 card (row: the element card's rank, column: the 陰陽 card's)
and one for two 陰陽 cards. A user deck with more groups of interchangeable suits gets
a panel for each pair of groups.
"""

from __future__ import annotations

import io
import math
from typing import Any

import numpy as np

from cardlab._matplotlib import pyplot as pyplot
from cardlab.analysis.chart import Chart
from cardlab.poker.classes import suit_groups


def _panels(chart: Chart) -> dict[tuple[int, int], list[tuple[int, int, str, float]]]:
    deck = chart.game.deck
    groups = suit_groups(chart.game.rules)
    group_of = {s: i for i, g in enumerate(groups) for s in g}
    top = len(deck.ranks) - 1
    panels: dict[tuple[int, int], list[tuple[int, int, str, float]]] = {}
    for row in chart.classes:
        x, y = row.hand.combos[0]
        gx, gy = group_of[x.suit], group_of[y.suit]
        rx, ry = deck.ranks.index(x.rank), deck.ranks.index(y.rank)
        if (gx, rx) > (gy, ry):
            gx, gy, rx, ry = gy, gx, ry, rx
        if gx == gy and len(groups[gx]) > 1:
            hi, lo = max(rx, ry), min(rx, ry)
            cell = (top - hi, top - lo) if x.suit == y.suit or hi == lo else (top - lo, top - hi)
        else:
            cell = (top - rx, top - ry)
        panels.setdefault((gx, gy), []).append((*cell, row.hand.name, float(row.equity)))
    return panels


LABEL_POINTS = 8.0  # the cell labels' size the figure is laid out for (12 px at 110 dpi)
MAX_LABEL_POINTS = 10.0
_FILL = 0.86  # of a cell's width and height a label may take


def _cell_label(name: str, equity: float) -> str:
    """A cell's label: the class name over its equity; a name joined by ``-`` (FESCA:
    ``Z陰陽-12陰陽``) is broken after each ``-``, so labels stay about square like the
    cells."""
    lines = name.replace("-", "-\n")
    return f"{lines}\n{equity * 100:.1f}"


def _label_extent(labels: list[str], dpi: int) -> tuple[float, float]:
    """The widest and the tallest of ``labels`` at 10 points, in points (measured with
    the fonts the figure draws with, CJK fallback included)."""
    plt = pyplot()
    fig = plt.figure(figsize=(2, 2), dpi=dpi)
    renderer = fig.canvas.get_renderer()
    width = height = 0.0
    for text in set(labels):
        box = fig.text(0, 0, text, fontsize=10, ha="center", va="center", linespacing=1.1)
        extent = box.get_window_extent(renderer)
        width, height = max(width, extent.width), max(height, extent.height)
        box.remove()
    plt.close(fig)
    return width * 72 / dpi, height * 72 / dpi


def chart_figure(chart: Chart, *, dpi: int = 110) -> Any:
    """The heat maps of a two-card chart as a matplotlib figure, laid out (drawn once):
    each cell's label is sized to the cell, at least :data:`LABEL_POINTS` where the
    figure is made big enough for that."""
    plt = pyplot()

    deck = chart.game.deck
    groups = suit_groups(chart.game.rules)
    panels = _panels(chart)
    n = len(deck.ranks)
    labels = [r.key for r in reversed(deck.ranks)]
    lo = min(float(c.equity) for c in chart.classes)
    hi = max(float(c.equity) for c in chart.classes)
    texts = {
        key: [(r, c, _cell_label(name, eq)) for r, c, name, eq in cells]
        for key, cells in panels.items()
    }
    width10, height10 = _label_extent([t for cells in texts.values() for *_, t in cells], dpi)
    # a cell big enough for the widest label at LABEL_POINTS, a panel of n cells
    cell = max(width10, height10) * LABEL_POINTS / 10 / _FILL
    side = max(5.2, n * cell / 72)
    cols = min(len(panels), 2)
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(
        rows,
        cols,
        figsize=((side + 1.2) * cols, (side + 0.9) * rows),
        squeeze=False,
        constrained_layout=True,
        dpi=dpi,
    )
    image: Any = None
    placed = []
    for ax, ((gx, gy), cells) in zip(axes.flat, sorted(texts.items()), strict=False):
        grid = np.full((n, n), np.nan)
        for r, c, _, eq in panels[(gx, gy)]:
            grid[r, c] = eq
        for r, c, text in cells:
            placed.append(
                (ax, ax.text(c, r, text, ha="center", va="center", linespacing=1.1, fontsize=1))
            )
        image = ax.imshow(grid, cmap="RdYlGn", vmin=lo, vmax=hi)
        ax.set_xticks(range(n), labels)
        ax.set_yticks(range(n), labels)
        sx = "".join(s.symbol for s in groups[gx])
        sy = "".join(s.symbol for s in groups[gy])
        title = f"suits {sx}" if gx == gy else f"{sx} with {sy}"
        ax.set_title(title, fontsize=10)
    for ax in list(axes.flat)[len(panels) :]:
        ax.axis("off")
    how = "exact" if chart.exact else f"sampled, standard error <= {chart.target_se}"
    fig.suptitle(
        f"{chart.game.name}: equity against {chart.opponents} random "
        f"{'hand' if chart.opponents == 1 else 'hands'} ({how})",
        fontsize=12,
    )
    if image is not None:
        fig.colorbar(image, ax=axes.ravel().tolist(), shrink=0.6, label="equity")
    # lay out (without drawing), then size the labels to the cells as they come out
    fig.get_layout_engine().execute(fig)
    axes.flat[0].apply_aspect()
    box = axes.flat[0].get_window_extent()
    cell_px = min(box.width, box.height) / n
    size = min(MAX_LABEL_POINTS, cell_px * 72 / dpi * _FILL / max(width10, height10) * 10)
    for _, text in placed:
        text.set_fontsize(size)
    # the text as drawn in the figure may come out a little wider than measured alone
    renderer = fig.canvas.get_renderer()
    widest = max(
        max(t.get_window_extent(renderer).width, t.get_window_extent(renderer).height)
        for _, t in placed
    )
    if widest > cell_px * _FILL:
        for _, text in placed:
            text.set_fontsize(size * cell_px * _FILL / widest)
    return fig


def chart_png(chart: Chart, *, dpi: int = 110) -> bytes:
    """The chart's heat maps as one PNG image (Omaha and Stud: :func:`curve_png`)."""
    if len(chart.classes[0].hand.combos[0]) != 2:
        return curve_png(chart, dpi=dpi)
    plt = pyplot()
    fig = chart_figure(chart, dpi=dpi)
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=dpi)
    plt.close(fig)
    return out.getvalue()


def _title(chart: Chart) -> str:
    how = "exact" if chart.exact else f"sampled, standard error <= {chart.target_se}"
    who = "hand" if chart.opponents == 1 else "hands"
    return f"{chart.game.name}: equity against {chart.opponents} random {who} ({how})"


def curve_png(chart: Chart, *, dpi: int = 110, listed: int = 20) -> bytes:
    """A chart of many classes (Omaha, Stud) as one PNG: the equities sorted, strongest
    first, with a band of two standard errors either side (sampled charts) and the share
    of hands at or above each place; beside it the ``listed`` best classes and the
    ``listed // 2`` worst, by name with their equity."""
    plt = pyplot()

    rows = chart.classes
    eq = np.array([float(r.equity) for r in rows])
    se = np.array([r.se or 0.0 for r in rows])
    combos = np.array([r.hand.count for r in rows], float)
    share = np.cumsum(combos) / combos.sum() * 100  # hands at or above each class
    fig, (ax, text) = plt.subplots(
        1, 2, figsize=(12, 6), gridspec_kw={"width_ratios": [2, 1]}, constrained_layout=True
    )
    ax.plot(share, eq * 100, color="tab:blue", lw=1.2, label="class equity")
    if not chart.exact:
        ax.fill_between(
            share, (eq - 2 * se) * 100, (eq + 2 * se) * 100, color="tab:blue", alpha=0.25,
            label="± 2 standard errors",
        )  # fmt: skip
    ax.set_xlabel("share of starting hands at or above the class (%)")
    ax.set_ylabel("equity (%)")
    ax.grid(alpha=0.3)
    ax.legend(loc="upper right", fontsize=8)
    ax.set_title(f"{len(rows):,} classes, {int(combos.sum()):,} hands", fontsize=9)
    best = [f"{i:>5}  {r.hand.name:<18} {float(r.equity) * 100:6.2f}" for i, r in
            enumerate(rows[:listed], 1)]  # fmt: skip
    worst_from = max(len(rows) - listed // 2, listed)
    worst = [f"{i:>5}  {r.hand.name:<18} {float(r.equity) * 100:6.2f}" for i, r in
             enumerate(rows[worst_from:], worst_from + 1)]  # fmt: skip
    lines = ["    #  class               equity %", *best]
    if worst:
        lines += ["  ...", *worst]
    text.axis("off")
    text.text(0, 1, "\n".join(lines), va="top", ha="left", family="monospace", fontsize=7.5)
    fig.suptitle(_title(chart), fontsize=11)
    out = io.BytesIO()
    fig.savefig(out, format="png", dpi=dpi)
    plt.close(fig)
    return out.getvalue()
