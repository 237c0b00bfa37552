"""Home-game rules of a table: straddles, bomb pots, the seven-deuce bounty, the dead
button and missed blinds (the rules in words: docs/home-games.md).

Each rule changes only the forced bets of a hand, which the PHH format and pokerkit
already carry, so every hand dealt with them is an ordinary hand history:

- a **straddle** is a blind of twice the big blind (``blinds_or_straddles``); as in
  pokerkit, the first to act before the flop is the player left of the (last) largest
  blind or straddle, and the straddler acts last;
- a **bomb pot** is a hand with an ante from everyone and no blinds whose first betting
  round every player checks (the engine checks for them: ``HandState(bomb_pot=True)``);
  a double-board bomb pot deals two boards (``HandState(boards=2)``);
- a **missed blind** is paid on return as a live big blind (a *post*: a negative
  ``blinds_or_straddles`` entry, as pokerkit reads it) and a dead small blind (an ante
  of that player, dead money in the pot);
- the **dead button**: :func:`next_blinds` moves the big blind to the next player and the
  small blind and button behind it, even onto an empty seat.

>>> straddle_blinds(Stakes(Betting.NO_LIMIT, (1, 2), small_bet=2), 6, Straddle.UTG, 2)
(1, 2, 4, 0, 0, 0)
>>> from cardlab.decks import get_deck
>>> seven_deuce_ranks(get_deck("standard52")), seven_deuce_ranks(get_deck("FESCA78"))
(('7', '2'), ('2', '1'))
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from cardlab.cards import Card
from cardlab.decks import Deck
from cardlab.errors import GameError
from cardlab.table.structure import Betting, Stakes, TableGame

__all__ = [
    "Blinds",
    "Straddle",
    "bomb_pot_stakes",
    "hand_stakes",
    "next_blinds",
    "seven_deuce_ranks",
    "seven_deuce_winner",
    "straddle_blinds",
    "straddler",
]

STRADDLE_FACTOR = 2  # a straddle is twice the big blind


class Straddle(enum.Enum):
    """Which straddle a table allows (the players choose whether to post it)."""

    OFF = "off"
    UTG = "utg"  # the player left of the big blind
    BUTTON = "button"  # the button
    MISSISSIPPI = "mississippi"  # any player but the blinds: the button first, then rightwards

    @classmethod
    def parse(cls, text: str | Straddle) -> Straddle:
        if isinstance(text, Straddle):
            return text
        key = str(text).strip().lower()
        for s in cls:
            if s.value == key:
                return s
        known = ", ".join(s.value for s in cls)
        raise GameError(f"unknown straddle {text!r} (expected one of {known})")


def straddles_allowed(game: TableGame) -> str | None:
    """Why ``game`` has no straddle (None: it may have one)."""
    if game.game.base.key == "stud":
        return "stud has no blinds to straddle"
    if game.stakes.betting is Betting.FIXED_LIMIT:
        return "a straddle is for no-limit and pot-limit games (fixed-limit has none)"
    if len(game.stakes.blinds) < 2 or game.stakes.blinds[1] <= 0:
        return "a straddle doubles the big blind: the game has none"
    return None


def straddler(
    kind: Straddle, players: int, willing: Collection[int], *, big: int = 1
) -> int | None:
    """The position that straddles this hand (None: nobody): ``willing`` are the
    positions whose players want to; ``big`` is the big blind's position. Heads-up
    nobody straddles. UTG: the position after the big blind; button: the last position;
    Mississippi: any position after the big blind, the button first, then rightwards."""
    if kind is Straddle.OFF or players < 3:
        return None
    after = list(range(big + 1, players))
    if not after:
        return None
    if kind is Straddle.UTG:
        candidates = after[:1]
    elif kind is Straddle.BUTTON:
        candidates = after[-1:]
    else:
        candidates = after[::-1]
    return next((p for p in candidates if p in willing), None)


def straddle_blinds(
    stakes: Stakes, players: int, kind: Straddle, position: int | None, *, big: int = 1
) -> tuple[int, ...]:
    """The ``blinds_or_straddles`` of a hand of ``players`` (3 or more) in which
    ``position`` straddles (twice the big blind), with the big blind at ``big``."""
    if players < 3:
        raise GameError("heads-up nobody straddles")
    values = list(stakes.blinds[:players]) + [0] * max(0, players - len(stakes.blinds))
    if position is None or kind is Straddle.OFF:
        return tuple(values)
    if not big < position < players:
        raise GameError(f"a straddle is posted after the big blind, not at position {position}")
    values[position] = STRADDLE_FACTOR * max(stakes.blinds[:2])
    return tuple(values)


def bomb_pot_stakes(stakes: Stakes, ante: int) -> Stakes:
    """The stakes of a bomb pot: ``ante`` from everyone, no blinds (the first betting
    round is checked through: ``HandState(bomb_pot=True)``)."""
    if isinstance(ante, bool) or not isinstance(ante, int) or ante <= 0:
        raise GameError(f"a bomb pot's ante is a positive whole number, got {ante!r}")
    return dataclasses.replace(stakes, blinds=(), ante=ante, antes=(), ante_trimming=False)


def hand_stakes(
    stakes: Stakes,
    players: int,
    *,
    big: int = 1,
    small: bool = True,
    straddle: tuple[Straddle, int] | None = None,
    owed: Mapping[int, tuple[int, int]] | None = None,
) -> Stakes:
    """The stakes of one hand of ``players`` (3 or more) at a table with home rules:
    the big blind at position ``big`` (0 when the small blind is dead: its seat is
    empty), the small blind (at ``big - 1``) when ``small``, a straddle (kind, position)
    and, for each position in ``owed``, the (live, dead) chips its player posts to
    come in: a live post of a big blind (a negative blind) and a dead small blind (an
    ante of that player)."""
    if players < 3:
        raise GameError("the dead button and straddles are for three or more players")
    sb, bb = (*stakes.blinds, 0, 0)[:2]
    values = [0] * players
    if small and big >= 1:
        values[big - 1] = sb
    values[big] = bb
    for k, extra in enumerate(stakes.blinds[2:]):  # a straddle the game itself has
        if big + 1 + k < players:
            values[big + 1 + k] = extra
    base = dataclasses.replace(stakes, blinds=tuple(values))
    if straddle is not None:
        values = list(straddle_blinds(base, players, straddle[0], straddle[1], big=big))
    antes = [stakes.ante] * players if stakes.ante else [0] * players
    for p, a in enumerate(stakes.antes[:players]):
        antes[p] += a
    for p, (live, dead) in (owed or {}).items():
        if not 0 <= p < players:
            raise GameError(f"a post is at a position from 0 to {players - 1}, got {p}")
        if values[p] == 0 and live:
            values[p] = -live
        antes[p] += dead
    return dataclasses.replace(stakes, blinds=tuple(values), ante=0, antes=tuple(antes))


# --- seven-deuce ---------------------------------------------------------------------


def seven_deuce_ranks(deck: Deck) -> tuple[str, str]:
    """The two ranks of the seven-deuce bounty on ``deck``: 7 and 2 on the standard
    deck (the game's name), else the deck's two lowest ranks in its rank order
    (FESCA and TESCA: 2 and 1, ZAT counting high as it does outside straights)."""
    names = [r.key for r in sorted(deck.ranks, key=lambda r: r.value)]
    if deck.name.lower() == "standard52":
        return ("7", "2")
    if len(names) < 2:
        raise GameError(f"the {deck.name} deck has fewer than two ranks")
    return (names[1], names[0])


def seven_deuce_allowed(game: TableGame) -> str | None:
    """Why ``game`` has no seven-deuce bounty (None: it may have one)."""
    if game.variant.key != "holdem":
        return "the seven-deuce bounty is for Hold'em (two hole cards, played for high)"
    return None


def holds_seven_deuce(cards: Sequence[Card | None], deck: Deck) -> bool:
    """``cards`` are the two ranks of the bounty, one each, any suits."""
    high, low = seven_deuce_ranks(deck)
    ranks = sorted(c.rank.key for c in cards if c is not None)
    return len(cards) == 2 and ranks == sorted((high, low))


def seven_deuce_winner(
    hole: Sequence[Sequence[Card | None]],
    winners: Collection[int],
    shown: Collection[int],
    deck: Deck,
) -> int | None:
    """The position that collects the bounty: a winner of (a share of) the main pot
    whose shown hole cards are the bounty's two ranks (None: nobody)."""
    for p in sorted(winners):
        if p in shown and holds_seven_deuce(hole[p], deck):
            return p
    return None


# --- the dead button -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Blinds:
    """Where a hand's button and blinds are, by seat: ``small`` may be an empty seat
    (nobody posts the small blind), ``button`` too (a dead button)."""

    button: int
    small: int
    big: int


def _after(seat: int, seats: int, playing: Collection[int]) -> int:
    for k in range(1, seats + 1):
        s = (seat + k) % seats
        if s in playing:
            return s
    raise GameError("nobody is playing")


def next_blinds(
    last: Blinds | None, button: int, seats: int, playing: Collection[int], *, dead_button: bool
) -> Blinds:
    """The button and blinds of the next hand at a table of ``seats`` seats where the
    seats ``playing`` are dealt in. ``last``: the last hand's (None: the first hand, the
    button at ``button``). A moving button goes to the next playing seat, the blinds
    follow it. The dead button rule (Robert's Rules of Poker): the big blind moves to
    the next playing seat after the last big blind; the small blind goes to the last
    big blind's seat and the button to the last small blind's seat, even when those
    seats are empty or out (no small blind; a dead button). Heads-up the button posts
    the small blind and the other player the big blind."""
    if len(playing) < 2:
        raise GameError("a hand needs two players")
    if len(playing) == 2:
        big = _after(button if last is None else last.big, seats, playing)
        other = next(s for s in playing if s != big)
        return Blinds(other, other, big)
    if last is None or not dead_button:
        b = button if last is None else _after(last.button, seats, playing)
        if last is None and b not in playing:
            b = _after(b - 1, seats, playing) if seats else b
        small = _after(b, seats, playing)
        return Blinds(b, small, _after(small, seats, playing))
    big = _after(last.big, seats, playing)
    small, btn = last.big, last.small
    if small == big:  # everyone between moved away: the small blind is skipped
        small = (big - 1) % seats
    if btn in (small, big):
        btn = (small - 1) % seats
    return Blinds(btn, small, big)


def order_of(blinds: Blinds, seats: int, playing: Collection[int]) -> list[int]:
    """The playing seats by position: from the first after the button to the button
    (heads-up the button is position 1, the small blind)."""
    after = [(blinds.button + k) % seats for k in range(1, seats + 1)]
    return [s for s in after if s in playing]
