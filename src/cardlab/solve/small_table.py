"""The small games of :mod:`cardlab.solve` at the table: Kuhn poker, Leduc Hold'em, Leduc
on FESCA, and any game file of ``cardlab solve cfr``.

A :class:`SmallTableGame` is a :class:`~cardlab.table.structure.TableGame` whose deal and
betting come from a :class:`~cardlab.solve.games.PokerGame`, so the table engine
(:class:`~cardlab.table.state.HandState`) plays it unchanged:

* the **cards in play** are the game's sub-deck (Kuhn: J Q K of spades), a deck of
  their own named after the game;
* **streets**: one per betting round; the first deals each player the game's private
  cards face down, every round deals its public cards to the board first;
* **stakes**: fixed-limit, the game's ante from both players and no blinds; a round's
  bets are its fixed size (Leduc: 2 then 4, the small and the big bet) and its cap is
  the most bets plus raises (:attr:`Stakes.max_raises`). The table has one cap for
  every round and at most two bet sizes, so a game file with three sizes or with caps
  that differ by round is refused here (``cardlab solve cfr`` still solves it);
* **order of play**: two players, player 1 (position 0) acts first in every round, as
  in the solver (with no blinds the table's first position opens every round);
* **showdown**: by the small game's own hand order, :func:`cardlab.solve.hands.hand_key`
  (the one the solver uses, not a copy): partial hands rank by their rank pattern, then
  ranks, then, on the FESCA decks, suits; five cards or more by the deck's evaluator.

The table burns a card before each round that deals public cards, as it does in every
game; a burned card is unseen, so the public cards are still uniform over the cards the
players cannot see, as in the solver.

**Hand histories.** PHH has no variant code for these games, so their hands are not
written as PHH and are not kept in the hand store: ``cardlab play`` says so and plays
on; the arena keeps no hands anyway.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import ClassVar

from cardlab.cards import Card
from cardlab.decks import Deck
from cardlab.errors import GameError
from cardlab.poker.games import BaseGame, Game
from cardlab.poker.hands import deciding_step
from cardlab.solve.games import BUILTIN_GAMES, PokerGame
from cardlab.solve.games import get_game as get_small_game
from cardlab.solve.hands import hand_key as small_hand_key
from cardlab.table.structure import Betting, Stakes, Street, TableGame, Variant
from cardlab.table.stud import partial_strengths

_BITS = 8  # each entry of a partial hand's key is below 256: ranks, suits, strengths


def is_small_game(name: str) -> bool:
    """Whether ``name`` names a small game: a built-in one (``kuhn``, ``leduc``,
    ``leduc-fesca``) or a game file (``.toml``), possibly on a deck (``leduc@FESCA78``)."""
    key = name.strip().lower().partition("@")[0]
    return key in BUILTIN_GAMES or key.endswith(".toml")


def small_game_key(name: str, deck: str | None = None) -> str | None:
    """The table key of small game ``name`` played on ``deck`` (``leduc@FESCA78``: Leduc
    with FESCA78's highest three ranks in its strongest two suits); None when ``name``
    is not a small game."""
    if not is_small_game(name):
        return None
    text = name.strip()
    return text if deck is None or not deck.strip() else f"{text}@{deck.strip()}"


@dataclass(frozen=True)
class SmallTableGame(TableGame):
    """A small game of :mod:`cardlab.solve` as a table game (see the module text)."""

    small: PokerGame = None  # type: ignore[assignment]  # always given by small_table_game
    label: str = ""  # the name it was asked by: kuhn, leduc, a file

    own_order: ClassVar[bool] = True

    @functools.cached_property
    def streets(self) -> tuple[Street, ...]:
        g = self.small
        small_bet = g.rounds[0].bet
        return tuple(
            Street(
                f"round {k + 1}",
                hole=(False,) * g.private if k == 0 else (),
                board=r.public,
                big=r.bet != small_bet,
            )
            for k, r in enumerate(g.rounds)
        )

    @property
    def key(self) -> str:
        return self.label

    @property
    def title(self) -> str:
        return f"{self.small.name} ({self.small.deck.name})"

    @functools.cached_property
    def max_seats(self) -> int:
        return 2  # the small games are two-player games

    def check_seats(self, seats: int) -> None:
        if isinstance(seats, bool) or not isinstance(seats, int) or seats != 2:
            raise GameError(f"{self.title} is a game for two players, got {seats!r} seats")

    @property
    def name(self) -> str:
        g = self.small
        bets = "/".join(str(r.bet) for r in g.rounds)
        return f"{self.title} (fixed-limit, ante {g.ante}, bets {bets}, cap {g.rounds[0].cap})"

    def hand_key(self, own: Sequence[Card], board: Sequence[Card]) -> int:
        """The solver's key of the hand as one integer (the order is the same): a hand of
        five or more cards is the evaluator's key; a partial hand packs its key's
        entries (category, ranks, suits), which have the same length in every hand of a
        game, eight bits each."""
        key = small_hand_key((*own, *board), self.small.rules)
        if len(key) == 1:
            return key[0]
        out = 0
        for v in key:
            out = (out << _BITS) | v
        return out

    def decided_by(self, best: int, other: int) -> str:
        """The category's name where two categories met (``pair``), else ``ranks`` or
        ``suits``; five-card hands by the evaluator's tie-break steps."""
        if self.small.hand_size >= 5:
            return deciding_step(best, other)
        width = 1 + 2 * self.small.hand_size
        a, b = _unpack(best, width), _unpack(other, width)
        if a[0] != b[0]:
            strength = {v: c for c, v in partial_strengths(self.small.rules).items()}
            return strength[a[0]].english.lower()
        ranks = slice(1, 1 + self.small.hand_size)
        return "ranks" if a[ranks] != b[ranks] else "suits"


def _unpack(key: int, width: int) -> tuple[int, ...]:
    mask = (1 << _BITS) - 1
    return tuple((key >> (_BITS * (width - 1 - k))) & mask for k in range(width))


@functools.lru_cache(maxsize=32)
def small_table_game(name: str) -> SmallTableGame:
    """The small game ``name`` at the table: ``kuhn``, ``leduc``, ``leduc-fesca`` or a
    game file, ``@DECK`` to play it on another deck (:func:`small_game_key`)."""
    text, _, deck = name.strip().partition("@")
    game = get_small_game(text, deck=deck.strip() or None)
    label = text.lower() if text.lower() in BUILTIN_GAMES else text
    return table_game_for(game, f"{label}@{deck.strip()}" if deck.strip() else label)


def table_game_for(game: PokerGame, label: str) -> SmallTableGame:
    """``game`` at the table (refused, with the reason, when the table cannot bet it)."""
    bets = sorted({r.bet for r in game.rounds}, key=[r.bet for r in game.rounds].index)
    caps = {r.cap for r in game.rounds}
    if len(bets) > 2:
        raise GameError(
            f"{game.name}: the table has two bet sizes (small and big); this game has "
            f"{len(bets)} ({', '.join(map(str, bets))}): `cardlab solve cfr` solves it"
        )
    if len(caps) != 1 or min(caps) < 1:
        raise GameError(
            f"{game.name}: the table has one raise cap of at least 1 for every round; this "
            f"game's caps are {', '.join(str(r.cap) for r in game.rounds)}"
        )
    if game.ante < 1:
        raise GameError(f"{game.name}: the table needs a forced bet, and this game has no ante")
    sub = Deck(
        label,
        game.deck.suits,
        game.deck.ranks,
        game.deck.wrap,
        game.cards,
        description=f"the cards of {game.name}",
    )
    rules = dataclasses.replace(game.rules, deck=sub)
    base = BaseGame("small", game.name, game.private, sum(r.public for r in game.rounds), draws=0)
    stakes = Stakes(
        betting=Betting.FIXED_LIMIT,
        ante=game.ante,
        small_bet=bets[0],
        big_bet=bets[-1] if len(bets) == 2 else 0,
        max_raises=caps.pop(),
    )
    variant = Variant(label, game.name, "small", Betting.FIXED_LIMIT)
    return SmallTableGame(Game(rules, base), stakes, variant=variant, small=game, label=label)


def most_committed(game: PokerGame) -> int:
    """The most chips one player can put into a hand: the ante and every bet and raise
    of every round."""
    return game.ante + sum(r.bet * r.cap for r in game.rounds)


def small_equity(
    game: SmallTableGame, hole: Sequence[Card], board: Sequence[Card], dead: Sequence[Card] = ()
) -> Fraction:
    """Exact share of the pot ``hole`` wins at the showdown against one opponent holding
    a uniformly random hand from the cards the player does not see, the public cards
    still to come uniform too (a tie is half)."""
    g = game.small
    seen = {*hole, *board, *dead}
    left = [c for c in g.cards if c not in seen]
    to_come = g.hand_size - g.private - len(board)
    won = total = 0
    for theirs in itertools.combinations(left, g.private):
        rest = [c for c in left if c not in theirs]
        for more in itertools.combinations(rest, to_come):
            full = (*board, *more)
            a = game.hand_key(hole, full)
            b = game.hand_key(theirs, full)
            won += 2 if a > b else 1 if a == b else 0
            total += 2
    if total == 0:
        raise GameError(f"{g.name}: no deal is left for the opponent")
    return Fraction(won, total)
