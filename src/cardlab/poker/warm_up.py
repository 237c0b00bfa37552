"""Small questions that run each kernel set of :data:`cardlab._prepare.SETS` once.

Running a question compiles its kernels (or loads them from numba's disk cache), for
every specialisation a later question meets: both sizes of hash index (standard52's and
FESCA78's look-ups differ in their integer widths), each exact route and sampling. The
answers are thrown away; :func:`cardlab._prepare.prepare` calls these under its lock.
"""

from __future__ import annotations

from cardlab.poker.equity import RANDOM, exact_equity, sample_equity
from cardlab.poker.games import get_game

_FIXED = {"standard52-holdem": ("As Ac", "7d 8d"), "fesca78-holdem": ("木1 火1", "水12 金11")}


def bots() -> None:
    """What a web table's equity bots run: Monte Carlo against random hands."""
    for name in ("fesca78-holdem", "standard52-holdem"):
        sample_equity(get_game(name), [RANDOM, RANDOM], samples=1000, rng=0)


def exact() -> None:
    """An exact equity of fixed hands, counted by rank class (both sizes of hash index)."""
    for name, hands in _FIXED.items():
        exact_equity(get_game(name), hands)


def equity() -> None:
    """What ``cardlab equity`` runs: exact fixed hands (counted by rank class), a hand
    against a random hand, the walk over every board (Omaha), and sampling (fixed and
    random hands, ranges and Omaha: the general loops)."""
    for name, hands in _FIXED.items():
        game = get_game(name)
        exact_equity(game, hands)
        sample_equity(game, [hands[0], RANDOM], samples=1000, rng=0)
    standard = get_game("standard52-holdem")
    exact_equity(standard, ["As Ah", RANDOM])
    sample_equity(standard, ["QQ+", "AKs"], samples=1000, rng=0)
    omaha = get_game("standard52-omaha")
    exact_equity(omaha, ["As Ac Kd Kh", "7d 8d 9c Tc"], board="2c 3d 4h 5s")
    sample_equity(omaha, ["As Ac Kd Kh", RANDOM], samples=1000, rng=0)  # Omaha's loop
    bots()
