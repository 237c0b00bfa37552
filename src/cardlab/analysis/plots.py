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

from cardlab.analysis.chart import Chart
from cardlab.analysis.classes import suit_groups


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


def pyplot() -> Any:
    """matplotlib's pyplot without a screen, with a CJK font as fallback for the suits
    (陰陽, 木...) where one is installed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    names = {f.name for f in font_manager.fontManager.ttflist}
    cjk = [n for n in ("Noto Sans CJK JP", "Noto Serif CJK JP", "IPAGothic") if n in names]
    plt.rcParams["font.family"] = ["DejaVu Sans", *cjk]
    return plt


def chart_png(chart: Chart, *, dpi: int = 110) -> bytes:
    """The chart's heat maps as one PNG image (Omaha and Stud: :func:`curve_png`)."""
    if len(chart.classes[0].hand.combos[0]) != 2:
        return curve_png(chart, dpi=dpi)
    plt = pyplot()

    deck = chart.game.deck
    groups = suit_groups(chart.game.rules)
    panels = _panels(chart)
    n = len(deck.ranks)
    labels = [r.key for r in reversed(deck.ranks)]
    lo = min(float(c.equity) for c in chart.classes)
    hi = max(float(c.equity) for c in chart.classes)
    cols = min(len(panels), 2)
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(
        rows, cols, figsize=(6.4 * cols, 6.0 * rows), squeeze=False, constrained_layout=True
    )
    image: Any = None
    for ax, ((gx, gy), cells) in zip(axes.flat, sorted(panels.items()), strict=False):
        grid = np.full((n, n), np.nan)
        for r, c, name, eq in cells:
            grid[r, c] = eq
            ax.text(c, r, f"{name}\n{eq * 100:.1f}", ha="center", va="center", fontsize=5.5)
        image = ax.imshow(grid, cmap="RdYlGn", vmin=lo, vmax=hi)
        ax.set_xticks(range(n), labels)
        ax.set_yticks(range(n), labels)
        sx = "".join(s.symbol for s in groups[gx])
        sy = "".join(s.symbol for s in groups[gy])
        title = f"suits {sx}" if gx == gy else f"{sx} with {sy}"
        ax.set_title(title, fontsize=9)
    for ax in list(axes.flat)[len(panels) :]:
        ax.axis("off")
    how = "exact" if chart.exact else f"sampled, standard error <= {chart.target_se}"
    fig.suptitle(
        f"{chart.game.name}: equity against {chart.opponents} random "
        f"{'hand' if chart.opponents == 1 else 'hands'} ({how})",
        fontsize=11,
    )
    if image is not None:
        fig.colorbar(image, ax=axes.ravel().tolist(), shrink=0.6, label="equity")
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
