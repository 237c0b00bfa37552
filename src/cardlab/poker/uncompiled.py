"""Which sampled questions the kernels answer within seconds as plain Python.

On a first run after install (the compiled kernels not in numba's disk cache) a command
may answer with numba's compiler off (:func:`cardlab._prepare.answer_interpreted`): the
kernels run as the Python they are written in, with the same answers, bit for bit (the
same code, the same seeded generators: 64-bit arithmetic wraps around in both), while
the compiled sampler (19-23 s of CPU and 470 MB to compile its two dealt loops; 77 s
and 1.9 GB when one kernel held every loop) is prepared in the background
for the next run. Interpreted, the sampler deals a heads-up Hold'em showdown in about
40 microseconds of one core (standard52 and FESCA78 alike), and a game's first sample
costs about 2.5 s more (its look-ups, built once per machine, and Python's first calls).
So a sample of up to some 800,000 showdowns is answered well before the compiler would
be ready (:data:`LIMIT_SECONDS`); a larger one waits for the compile as before.

Decided before numba is imported (the compiler switch is read when a kernel module is
imported), from the shape of the game and the number of showdowns.
"""

from __future__ import annotations

from cardlab.poker.games import Game

START_SECONDS = 2.5  # a game's first interpreted sample
SHOWDOWN_SECONDS = 2e-5  # one player's hand settled in one interpreted deal
LIMIT_SECONDS = 20.0  # the most an interpreted first answer may take (the compile: 19-23 s)


def holdem_shaped(game: Game) -> bool:
    """Two hole cards, five board cards, any two of them used (the hash path's shape,
    whose interpreted cost the figures above were measured on)."""
    base = game.base
    return (base.hole_cards, base.board_cards, base.hole_used) == (2, 5, None)


def interpreted_seconds(showdowns: int, games: int = 1) -> float:
    """Estimated CPU seconds of sampling ``showdowns`` (deals x players) interpreted,
    in all, over ``games`` games."""
    # a count past a float's range (``--samples 1e400`` as an integer) is no quick answer
    return START_SECONDS * games + SHOWDOWN_SECONDS * min(showdowns, 10**300)


def sampling_quick(games: list[Game], showdowns: int) -> bool:
    """Whether sampling ``showdowns`` in all over ``games`` (Hold'em's shape) is answered
    interpreted within :data:`LIMIT_SECONDS`."""
    if not games or not all(holdem_shaped(g) for g in games):
        return False
    return interpreted_seconds(showdowns, len(games)) <= LIMIT_SECONDS
