"""A node's range as the deck's grid of hand classes, coloured by action.

Each class's strategy is the mean of its hands' strategies weighted by each hand's reach
times the opponent's mass it does not block (the weights of :mod:`.solution`). Classes
with no hand reaching the node are left blank. The grid is the familiar square chart
(:func:`cardlab.poker.classes.class_grid`): pairs on the diagonal, suited above,
offsuit below; on decks with a lone suit (FESCA's 陰陽) its classes in the range are
listed apart, below the square, n to a row.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from cardlab.poker.classes import class_grid, hand_classes

if TYPE_CHECKING:
    from cardlab.solve.postflop.solution import Node

# check / call green, fold blue, bets red, darker as they grow
PASSIVE, FOLD_COLOUR = "#3a9b4a", "#3d6fb6"
AGGRESSIVE = ("#f0a35e", "#e4683f", "#c93a32", "#8e1b24", "#5c0f1a")


def action_colours(actions: tuple[str, ...]) -> dict[str, str]:
    bets = [a for a in actions if a[0] in "bra"]
    out = {a: PASSIVE for a in actions if a in ("k", "c")}
    out |= {a: FOLD_COLOUR for a in actions if a == "f"}
    for i, a in enumerate(bets):
        step = 0 if len(bets) == 1 else round(i * (len(AGGRESSIVE) - 1) / (len(bets) - 1))
        out[a] = AGGRESSIVE[step]
    return out


def class_strategies(node: Node) -> dict[str, tuple[float, np.ndarray[Any, Any]]]:
    """Per class name: (weight, frequencies of the node's actions)."""
    tree = node.solution.game.tree.nodes[node.a]
    p = tree.player if node.kind == "decision" else 0
    game = node.solution.game
    sigma = node.strategy() if node.kind == "decision" else np.ones((1, len(game.hands[p])))
    mass = node._mass(p)
    weights = node.reach[p] * mass
    name_of = {frozenset(c): cls.name for cls in hand_classes(game.game.rules) for c in cls.combos}
    sums: dict[str, list[Any]] = {}
    for h, cards in enumerate(game.hands[p].cards):
        w = float(weights[h])
        if w <= 0:
            continue
        entry = sums.setdefault(name_of[frozenset(cards)], [0.0, np.zeros(sigma.shape[0])])
        entry[0] += w
        entry[1] += w * sigma[:, h]
    return {name: (w, f / w) for name, (w, f) in sums.items()}


def outside(
    node: Node,
    places: dict[str, tuple[int, int]],
    strategies: dict[str, tuple[float, np.ndarray[Any, Any]]],
) -> list[str]:
    """The classes of the node's range that have no cell of the square (a lone suit's,
    :func:`~cardlab.poker.classes.class_grid`), in the deck's class order."""
    order = [c.name for c in hand_classes(node.solution.game.game.rules)]
    return [name for name in order if name in strategies and name not in places]


def _cell(name: str, strategies: dict[str, Any], actions: tuple[str, ...], colours: Any) -> Any:
    from rich.text import Text

    if name not in strategies:
        return Text(name, style="dim")
    action = actions[int(np.argmax(strategies[name][1]))]
    return Text(name, style=f"bold white on {colours[action]}")


def text_grid(node: Node) -> Any:
    """A rich table of the grid, each class on the colour of its most frequent action."""
    from rich.table import Table
    from rich.text import Text

    if node.kind != "decision":
        return None
    deck = node.solution.game.game.deck
    classes = hand_classes(node.solution.game.game.rules)
    places = class_grid(classes, deck)
    strategies = class_strategies(node)
    colours = action_colours(node.actions)
    n = len(deck.ranks)
    cells = [[Text("") for _ in range(n)] for _ in range(n)]
    for name, (row, col) in places.items():
        cells[row][col] = _cell(name, strategies, node.actions, colours)
    table = Table(show_header=False, box=None, padding=(0, 1))
    for _ in range(n):
        table.add_column(justify="center", no_wrap=True)
    for cells_of_row in cells:
        table.add_row(*cells_of_row)
    apart = outside(node, places, strategies)
    if apart:  # a lone suit's classes in the range (FESCA's 陰陽), n to a row
        table.add_row(*[Text("") for _ in range(n)])
        for i in range(0, len(apart), n):
            line = [_cell(name, strategies, node.actions, colours) for name in apart[i : i + n]]
            table.add_row(*line, *[Text("") for _ in range(n - len(line))])
    legend = Text("  ".join(f"■ {a}" for a in node.actions))
    for i, a in enumerate(node.actions):
        start = sum(len(f"■ {b}") + 2 for b in node.actions[:i])
        legend.stylize(colours[a], start, start + 1)
    table.caption = legend
    table.title = "the range, each class coloured by its most frequent action"
    return table


def draw_grid(node: Node, path: str | Path) -> None:
    """The grid as a PNG: every class cell split into its actions' frequencies."""
    from cardlab._matplotlib import pyplot
    from cardlab.errors import GameError

    if node.kind != "decision":
        raise GameError("a range grid is drawn at a decision (give --node LINE)")
    plt = pyplot()
    deck = node.solution.game.game.deck
    classes = hand_classes(node.solution.game.game.rules)
    places = class_grid(classes, deck)
    strategies = class_strategies(node)
    colours = action_colours(node.actions)
    n = len(deck.ranks)
    apart = outside(node, places, strategies)
    extra = (len(apart) + n - 1) // n + (1 if apart else 0)  # a blank row, then n a row
    where = dict(places)
    where |= {name: (n + 1 + i // n, i % n) for i, name in enumerate(apart)}
    size = max(6.0, 0.5 * n)
    fig, ax = plt.subplots(figsize=(size, size * (n + extra) / n + 0.6))
    for name, (row, col) in where.items():
        y = n - 1 - row
        if name in strategies:
            left = 0.0
            for a, f in zip(node.actions, strategies[name][1], strict=True):
                ax.add_patch(plt.Rectangle((col + left, y), f, 1, color=colours[a], lw=0))
                left += f
        ax.add_patch(plt.Rectangle((col, y), 1, 1, fill=False, ec="#999999", lw=0.5))
        ax.text(col + 0.5, y + 0.5, name, ha="center", va="center", fontsize=max(4, 9 - n // 4))
    ax.set_xlim(0, n)
    ax.set_ylim(-extra, n)
    ax.set_aspect("equal")
    ax.axis("off")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[a]) for a in node.actions]
    from cardlab.solve.postflop.tree import action_name

    ax.legend(
        handles,
        [action_name(a) for a in node.actions],
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        ncol=min(len(handles), 5),
        frameon=False,
    )
    line = " ".join(node.line) or "the root"
    ax.set_title(f"{(node.player or '').upper()} at {line}, board {' '.join(map(str, node.board))}")
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
