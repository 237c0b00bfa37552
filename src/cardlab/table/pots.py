"""The pot and side pots, and how a pot is split among its winners.

A player's *contribution* is every chip they have put in (antes, blinds, bets). The
pots are the layers of the contributions: the main pot holds, from each player, up to
the smallest all-in amount, each side pot the next layer, and a pot can be won only by
players still in the hand who put in at least its top. This is the rule of every card
room and of pokerkit, whose layering this module follows step for step (so the pots of
a hand agree with pokerkit's at every point of a hand):

- Antes are dead money in the main pot unless ``ante_trimming`` (then they count as
  contributions like any bet).
- Adjacent layers with the same players merge into one pot.
- Bets of the current betting round are not in any pot until the round ends.

Odd chips: when a pot splits unevenly, the remainder goes to the winner first in
position order, that is the first winner to the left of the button (pokerkit does the
same; the usual card-room rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Pot:
    """A pot: its chips and the positions (0-based) that can win it."""

    amount: int
    players: tuple[int, ...]

    def __str__(self) -> str:
        who = " ".join(f"p{p + 1}" for p in self.players)
        return f"{self.amount} ({who})"


def layer_pots(
    paid: Sequence[int],
    bets: Sequence[int],
    antes: Sequence[int],
    alive: Sequence[bool],
    *,
    ante_trimming: bool,
) -> list[Pot]:
    """The pots of chips already collected.

    ``paid``: every chip each position has put in so far, this round's ``bets``
    included; ``antes``: the antes each posted; ``alive``: still in the hand.
    """
    n = len(paid)
    if ante_trimming:
        contributions = [paid[i] - bets[i] for i in range(n)]
        pending = list(paid)
        amount = 0
    else:
        contributions = [paid[i] - bets[i] - antes[i] for i in range(n)]
        pending = [paid[i] - antes[i] for i in range(n)]
        amount = sum(antes)
    pots: list[Pot] = []
    previous = 0
    for level in sorted(set(contributions)):
        # each contribution that reaches this level adds the layer's height
        amount += (level - previous) * sum(1 for c in contributions if c >= level)
        players = tuple(i for i in range(n) if pending[i] >= level and alive[i])
        while pots and pots[-1].players == players:
            amount += pots.pop().amount
        if amount:
            pots.append(Pot(amount, players))
        amount = 0
        previous = level
    return pots


def split(amount: int, winners: Sequence[int]) -> list[int]:
    """Each winner's share of ``amount``; the odd chips go to the first winner
    (``winners`` are in position order)."""
    share, odd = divmod(amount, len(winners))
    return [share + (odd if k == 0 else 0) for k in range(len(winners))]
