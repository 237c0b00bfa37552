"""Monte Carlo by the plain evaluator: random deals settled without compiled code.

The compiled sampler (:mod:`cardlab.poker._kernels.sampling`) deals tens of millions of
showdowns a second, but its compile takes a minute or more of CPU and over a gigabyte
on an empty cache. Before it is there, a small sample is settled here by the reference
evaluator (:func:`cardlab.poker.showdown.player_keys`, some ten thousand showdowns a
second): a web bot's decision (a thousand showdowns) while its process prepares the
kernels, or the first run of ``cardlab equity --samples``. The tallies are those of the
compiled sampler (sole wins, shared wins, pot shares in ``SHARE_UNIT``, shares squared),
so the same estimates and standard errors follow from them; the deals themselves are
other ones than the compiled sampler draws from the same seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from cardlab.cards import Card
from cardlab.poker.games import Game

SHARE_UNIT = 2520  # lcm(1..10), as the compiled tally (cardlab.poker._kernels.tally)


def applies(game: Game, hands: Sequence[Sequence[Card] | None]) -> bool:
    """Whether the deal can be sampled here: each hand is complete (the game's hole
    cards) or wholly unknown (None); ranges and partial Stud hands go to the kernels."""
    return all(h is None or len(h) == game.base.hole_cards for h in hands)


def sample_tallies(
    game: Game,
    hands: Sequence[Sequence[Card] | None],
    board: Sequence[Card],
    dead: Sequence[Card],
    deals: int,
    gen: np.random.Generator,
    progress: Callable[[int, int], None] | None = None,
    stop: Callable[[np.ndarray[Any, np.dtype[np.int64]], int], bool] | None = None,
) -> tuple[np.ndarray[Any, np.dtype[np.int64]], int]:
    """(tallies, deals dealt) of up to ``deals`` random deals: each unknown hand (None)
    and the missing board cards dealt from the cards left. ``stop(tallies, done)`` is
    asked every thousand deals whether to stop early."""
    from cardlab.poker.showdown import player_keys

    players = len(hands)
    used = {*board, *dead, *(c for h in hands if h is not None for c in h)}
    rest = [c for c in game.deck.cards if c not in used]
    h = game.base.hole_cards
    missing = game.base.board_cards - len(board)
    need = h * sum(hand is None for hand in hands) + missing
    if need > len(rest):
        raise ValueError(f"the deal needs {need} more cards, the deck has {len(rest)} left")
    total = np.zeros((5, players), np.int64)
    done = 0
    while done < deals:
        picked = [rest[i] for i in gen.choice(len(rest), size=need, replace=False)]
        holes: list[Sequence[Card]] = []
        at = 0
        for hand in hands:
            if hand is None:
                holes.append(picked[at : at + h])
                at += h
            else:
                holes.append(hand)
        keys = player_keys(game, holes, (*board, *picked[at:]))
        top = max(keys)
        winners = [p for p, k in enumerate(keys) if k == top]
        share = SHARE_UNIT // len(winners)
        for p in winners:
            total[0 if len(winners) == 1 else 1, p] += 1
            total[2, p] += share
            total[3, p] += share * share
        done += 1
        if done % 1000 == 0:
            if progress is not None:
                progress(done, deals)
            if stop is not None and stop(total, done):
                break
    if progress is not None:
        progress(done, deals)
    return total, done
