"""What the study page's worker processes run: check a spot, solve it, read a node.

These functions run in processes of their own (:mod:`cardlab.web.study` starts them with
``spawn``), never on the web server's event loop: building a spot's showdown tables and
running DCFR take seconds of CPU. They talk to the server only through their arguments,
their return values and a job's folder:

- ``progress.json``: what the solve has done (written whole, then renamed into place, so
  a reader never sees half of it);
- ``cancel``: its existence asks the solve to stop after the iteration in progress;
- ``solution.npz``: the finished (or stopped) solution, :meth:`PostflopSolution.save`.

Every value returned is plain JSON-ready data; NaN (a player no deal reaches) is None.
"""

from __future__ import annotations

import json
import math
import os
from collections import OrderedDict
from pathlib import Path
from typing import Any

from cardlab.errors import CardlabError

PROGRESS = "progress.json"
CANCEL = "cancel"
SOLUTION = "solution.npz"
LOADED = 2  # solutions a browsing process keeps loaded (each at most the memory limit)
_loaded: OrderedDict[str, Any] = OrderedDict()


class Cancelled(KeyboardInterrupt):
    """Raised in the progress callback to stop a run: the solver stops cleanly on a
    KeyboardInterrupt after the iteration in progress (as Ctrl-C does in the CLI)."""


def check_spot(spot_data: dict[str, Any], max_memory: int) -> tuple[str | None, int]:
    """(None, the memory the spot needs) or (why it is refused, 0): the library's own
    checks, then its memory estimate against ``max_memory``."""
    from cardlab.solve.postflop import Spot

    try:
        game = Spot(**spot_data).game_arrays(max_memory=max_memory)
    except CardlabError as error:
        return str(error), 0
    except Exception as error:  # a value the library did not foresee: still a refusal
        return f"the spot cannot be solved: {type(error).__name__}: {error}", 0
    return None, int(game.memory_bytes)


def run_solve(
    spot_data: dict[str, Any],
    iterations: int,
    target: float | None,
    max_memory: int,
    folder: str,
) -> dict[str, Any]:
    """Solve the spot, saving progress and then the solution in ``folder``; returns the
    run's figures."""
    from cardlab.solve.postflop import PostflopSolution, Solver, Spot

    where = Path(folder)
    spot = Spot(**spot_data)
    _write(where, {"state": "building", "done": 0, "total": iterations, "exploitability": None})
    solution = PostflopSolution(spot, Solver(spot.game_arrays(max_memory=max_memory), threads=1))
    last: list[float | None] = [None]

    def progress(done: int, total: int, measured: float | None) -> None:
        if measured is not None:
            last[0] = measured
        _write(where, {"state": "solving", "done": done, "total": total, "exploitability": last[0]})
        if (where / CANCEL).exists():
            raise Cancelled

    solution.resume(iterations, target=target, progress=progress)
    solution.save(where / SOLUTION)
    return {
        "iterations": solution.iterations,
        "exploitability": _number(solution.exploitability_pot_percent),
        "seconds": solution.seconds,
        "stopped": solution.interrupted,
        "memory_bytes": solution.game.memory_bytes,
    }


def read_progress(folder: str) -> dict[str, Any] | None:
    try:
        data = json.loads((Path(folder) / PROGRESS).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def node_view(folder: str, line: str) -> dict[str, Any]:
    """The node at ``line`` of the solution saved in ``folder``: Node.as_dict with its
    hands, the cards that can come at a chance node, and the range grid."""
    from cardlab.poker.classes import class_grid, hand_classes
    from cardlab.solve.postflop.grid import action_colours, class_strategies
    from cardlab.web.hands import card_payload

    solution = _solution(str(Path(folder) / SOLUTION))
    node = solution.node(line)
    data: dict[str, Any] = _clean(node.as_dict(hands=True))
    data["line"] = " ".join(node.line)
    deck = solution.game.game.deck
    data["board_cards"] = [card_payload(c) for c in node.board]
    data["root"] = _clean(
        {
            "ev": solution.ev().as_dict(),
            "equity": solution.equity().as_dict(),
            "exploitability": solution.exploitability_pot_percent,
            "iterations": solution.iterations,
            "game": solution.game.game.name,
        }
    )
    if node.kind == "chance":
        on_board = set(node.board)
        data["cards"] = [card_payload(c) for c in deck.cards if c not in on_board]
    if node.kind == "decision":
        colours = action_colours(node.actions)
        data["colours"] = [colours[a] for a in node.actions]
        classes = hand_classes(solution.game.game.rules)
        places = class_grid(classes, deck)
        strategies = class_strategies(node)
        cells = []
        for name, place in places.items():  # one class a cell
            weight, freq = strategies.get(name, (0.0, None))
            cells.append(_cell(name, *place, weight, freq))
        on_grid = {c["name"] for c in cells}
        for name, (weight, freq) in strategies.items():
            if name not in on_grid:  # a lone suit's classes (FESCA's 陰陽): listed apart
                cells.append(_cell(name, None, None, weight, freq))
        data["grid"] = {"size": len(deck.ranks), "cells": cells}
    return data


def _cell(name: str, row: int | None, col: int | None, weight: float, freq: Any) -> Any:
    strategy = None if freq is None else [float(f) for f in freq]
    return {"name": name, "row": row, "col": col, "weight": float(weight), "strategy": strategy}


def _solution(path: str) -> Any:
    """The saved solution at ``path``, loaded once per process (the last few kept)."""
    from cardlab.solve.postflop import PostflopSolution

    if path in _loaded:
        _loaded.move_to_end(path)
        return _loaded[path]
    if not os.path.exists(path):
        raise CardlabError("this solve has no solution to browse (cancelled before it began?)")
    solution = PostflopSolution.load(path, threads=1)
    _loaded[path] = solution
    while len(_loaded) > LOADED:
        _loaded.popitem(last=False)
    return solution


def forget(path: str) -> None:
    _loaded.pop(path, None)


def _write(folder: Path, data: dict[str, Any]) -> None:
    temporary = folder / (PROGRESS + ".tmp")
    temporary.write_text(json.dumps(data), encoding="utf-8")
    os.replace(temporary, folder / PROGRESS)


def _number(x: float) -> float | None:
    return None if not math.isfinite(x) else float(x)


def _clean(value: Any) -> Any:
    """NaN and infinities as None (JSON has no NaN), recursively."""
    if isinstance(value, float):
        return _number(value)
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value
