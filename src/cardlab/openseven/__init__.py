"""Open Seven (Open-N): play it, solve every deal, and know the odds exactly.

>>> from cardlab.openseven import Game, solve, chances
>>> solve("2 3 1 5 7 4 6").solutions
52
>>> str(chances(7, "optimal").overall)
'13/49'

Modules: :mod:`~cardlab.openseven.game` (rules, moves, states), :mod:`.solver` (one
arrangement), :mod:`.graph` (the class graph and its counting), :mod:`.models`
(exact chances per player model), :mod:`.analysis` (distributions, sweeps, exports,
Monte Carlo), :mod:`.reference` (plain brute force for checking).
"""

from cardlab.openseven.analysis import Distribution, distribution, simulate, sweep
from cardlab.openseven.game import (
    Call,
    Game,
    Move,
    OpenSevenError,
    Side,
    Start,
    State,
    View,
    format_arrangement,
    parse_arrangement,
    parse_move,
)
from cardlab.openseven.models import Chances, Model, chances, hints, odds
from cardlab.openseven.solver import Solved, StartCount, solve, winning_lines

__all__ = [
    "Call",
    "Chances",
    "Distribution",
    "Game",
    "Model",
    "Move",
    "OpenSevenError",
    "Side",
    "Solved",
    "Start",
    "StartCount",
    "State",
    "View",
    "chances",
    "distribution",
    "format_arrangement",
    "hints",
    "odds",
    "parse_arrangement",
    "parse_move",
    "simulate",
    "solve",
    "sweep",
    "winning_lines",
]
