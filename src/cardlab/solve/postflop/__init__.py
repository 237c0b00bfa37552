"""How to play after the flop: a postflop solver for Hold'em on any deck.

Two players (OOP, IP), a board of 3, 4 or 5 cards, weighted ranges, a pot, a stack and a
betting tree in the established solvers' size grammar; discounted CFR finds the
equilibrium, an exact best response measures how far it is.

>>> from cardlab.solve.postflop import Spot, solve
>>> spot = Spot("standard52-holdem", "Ks Td 7c 4h 2s", "AA, KK, 98s", "KQ, QQ", 100, 100,
...             bets="a", raises="")
>>> solution = solve(spot, 300, target=0.1)
>>> solution.exploitability_pot_percent <= 0.1
True
>>> [a["action"] for a in solution.as_dict()["actions"]]
['k', 'a100']
"""

from cardlab.solve.postflop.game import PostflopGame
from cardlab.solve.postflop.ranges import WeightedRange, parse_weighted_range
from cardlab.solve.postflop.sizes import BetSize, parse_sizes
from cardlab.solve.postflop.solution import Node, PostflopSolution, solve
from cardlab.solve.postflop.solver import Solver, Values
from cardlab.solve.postflop.spot import Spot
from cardlab.solve.postflop.tree import ActionTree, TreeConfig

__all__ = [
    "ActionTree",
    "BetSize",
    "Node",
    "PostflopGame",
    "PostflopSolution",
    "Solver",
    "Spot",
    "TreeConfig",
    "Values",
    "WeightedRange",
    "parse_sizes",
    "parse_weighted_range",
    "solve",
]
