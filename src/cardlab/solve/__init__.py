"""Equilibrium strategies of small poker games on any deck, by CFR+.

>>> from cardlab.solve import get_game, solve
>>> solution = solve(get_game("kuhn"), 500)
>>> round(solution.value, 3), solution.exploitability < 1e-3
(-0.056, True)
"""

from cardlab.solve.bestresponse import Exploitability, best_response, exploitability
from cardlab.solve.cfr import CFRPlus, InfoSet, Solution, solve
from cardlab.solve.games import BUILTIN_GAMES, PokerGame, Round, get_game, load_game
from cardlab.solve.tree import PublicTree

__all__ = [
    "BUILTIN_GAMES",
    "CFRPlus",
    "Exploitability",
    "InfoSet",
    "PokerGame",
    "PublicTree",
    "Round",
    "Solution",
    "best_response",
    "exploitability",
    "get_game",
    "load_game",
    "solve",
]
