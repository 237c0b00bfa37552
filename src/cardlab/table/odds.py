"""What cardlab can tell the table that no site can: exact odds during a hand.

:func:`all_in_odds` — when every player left is all in and board cards are still to
come, each hand's exact win and tie share over every remaining board (the exact
equity of :func:`cardlab.poker.equity.exact_equity`, the numbers of
``cardlab equity --exact``), for the board being dealt (each run of a board run twice
on its own). :func:`strength_hint` — for a learner: their best hand so far in words and
their exact equity against one random hand (or a range), from their own cards only.

Both answer for the high-hand board games the exact kernels count (Hold'em and Omaha
on any deck); a game played for low, hi-lo, stud or draw gets None (its cards to come
are the players' own, or no exact kernel counts it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from cardlab.cards import Card, format_cards
from cardlab.errors import GameError
from cardlab.poker.equity import EquityResult, exact_equity
from cardlab.poker.showdown import best_five
from cardlab.table.state import HandState

ODDS_SECONDS = 20.0
"""The longest an exact count may be expected to take at a table (else no odds)."""


@dataclass(frozen=True, slots=True)
class HandOdds:
    """One hand's exact chances over every remaining board: ``win`` alone, ``tie``
    (a share of a split), ``equity`` (its expected share of the pot)."""

    player: int
    cards: tuple[Card, ...]
    win: Fraction
    tie: Fraction
    equity: Fraction

    def as_dict(self) -> dict[str, Any]:
        return {
            "player": self.player + 1,
            "cards": format_cards(self.cards),
            "win": float(self.win),
            "tie": float(self.tie),
            "equity": float(self.equity),
            "exact": {k: str(getattr(self, k)) for k in ("win", "tie", "equity")},
        }


@dataclass(frozen=True, slots=True)
class AllInOdds:
    """The odds of every hand left for ``board`` (``run``: which run of the board; a
    later run's deck lacks the cards the runs before it dealt, ``dead``)."""

    board: tuple[Card, ...]
    run: int
    deals: int
    dead: tuple[Card, ...]  # the cards earlier runs dealt: out of this run's deck
    hands: tuple[HandOdds, ...]

    def as_dict(self) -> dict[str, Any]:
        return {
            "board": format_cards(self.board),
            "run": self.run + 1,
            "deals": self.deals,
            "dead": format_cards(self.dead),
            "hands": [h.as_dict() for h in self.hands],
        }


def _counts_exactly(hand: HandState) -> bool:
    game = hand.game
    if len(hand.boards) > 1:
        return False  # a double board: a share on each board, no one equity to count
    if game.own_order or game.variant.low is not None or not game.variant.high:
        return False
    return game.game.base.key in ("holdem", "omaha")


def board_to_come(hand: HandState) -> int:
    """How many board cards the board being dealt still lacks."""
    full = sum(s.board for s in hand.streets)
    return full - len(hand.board)


def _dealt_before(runs: Sequence[Sequence[Card]], board: Sequence[Card]) -> tuple[Card, ...]:
    """The cards the runs before dealt that are not on ``board`` (they share a start)."""
    on = set(board)
    out: list[Card] = []
    for run in runs:
        out.extend(c for c in run if c not in on and c not in out)
    return tuple(out)


def all_in_odds(hand: HandState, *, max_seconds: float | None = ODDS_SECONDS) -> AllInOdds | None:
    """Each hand's exact odds when everyone left is all in with board cards to come
    (None otherwise, or when the count would take longer than ``max_seconds``)."""
    players = hand.in_hand()
    if hand.is_over or len(players) < 2 or not _counts_exactly(hand):
        return None
    if sum(1 for p in players if hand.stacks[p] > 0) > 1 or hand.to_act:
        return None  # somebody can still bet
    if not board_to_come(hand):
        return None
    holes = [tuple(c for c in hand.hole[p] if c is not None) for p in players]
    need = hand.game.game.base.hole_cards
    if any(len(h) != need for h in holes):
        return None  # a hand not known (a replayed history's ????)
    board = tuple(hand.board)
    dead = _dealt_before(hand.run_boards, board)
    try:
        result = exact_equity(
            hand.game.game,
            [format_cards(h) for h in holes],
            board=format_cards(board),
            dead=format_cards(dead),
            max_seconds=max_seconds,
        )
    except GameError:  # too big to count now (ExactTooBig)
        return None
    return AllInOdds(
        board,
        len(hand.run_boards),
        result.deals,
        dead,
        tuple(
            HandOdds(p, h, Fraction(e.win), Fraction(e.tie), Fraction(e.equity))
            for p, h, e in zip(players, holes, result.players, strict=True)
        ),
    )


def all_in_streets(hand: HandState, *, max_seconds: float | None = ODDS_SECONDS) -> list[AllInOdds]:
    """The odds of an all-in hand on every street of every run, as the board came (the
    board when the betting ended, then each street of the first run, then each street
    of the later runs from the cards they share): what a viewer sees street by street,
    once every hand left is face up (empty otherwise)."""
    players = hand.in_hand()
    start = hand.all_in_board
    if start is None or len(players) < 2 or not _counts_exactly(hand):
        return []
    if not hand.is_over and not all(hand.has_shown(p) for p in players):
        return []  # the hands are not face up yet
    holes = [tuple(c for c in hand.hole[p] if c is not None) for p in players]
    if any(len(h) != hand.game.game.base.hole_cards for h in holes):
        return []
    ends = []
    total = 0
    for street in hand.streets:
        total += street.board
        if start <= total < sum(s.board for s in hand.streets):
            ends.append(total)
    out: list[AllInOdds] = []
    seen: set[tuple[Card, ...]] = set()
    for run, board in enumerate(hand.runouts()):
        for length in sorted(set(ends)):
            if length > len(board) or tuple(board[:length]) in seen:
                continue
            seen.add(tuple(board[:length]))
            dead = _dealt_before(hand.runouts()[:run], board[:length])
            try:
                result = exact_equity(
                    hand.game.game,
                    [format_cards(h) for h in holes],
                    board=format_cards(board[:length]),
                    dead=format_cards(dead),
                    max_seconds=max_seconds,
                )
            except GameError:
                return out
            out.append(
                AllInOdds(
                    tuple(board[:length]),
                    run,
                    result.deals,
                    dead,
                    tuple(
                        HandOdds(p, h, Fraction(e.win), Fraction(e.tie), Fraction(e.equity))
                        for p, h, e in zip(players, holes, result.players, strict=True)
                    ),
                )
            )
    return out


@dataclass(frozen=True, slots=True)
class StrengthHint:
    """A learner's hint: ``hand`` their best hand so far in words (None before five
    cards can play), ``equity`` the exact equity against ``against`` (a random hand or
    a range) over every remaining board and hand (None: too many deals to count now)."""

    hand: str | None
    against: str
    equity: Fraction | None
    win: Fraction | None
    tie: Fraction | None

    def as_dict(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "against": self.against,
            "equity": None if self.equity is None else float(self.equity),
            "win": None if self.win is None else float(self.win),
            "tie": None if self.tie is None else float(self.tie),
            "exact": None if self.equity is None else str(self.equity),
        }


def strength_hint(
    hand: HandState,
    player: int,
    *,
    against: str = "random",
    max_seconds: float | None = ODDS_SECONDS,
) -> StrengthHint | None:
    """``player``'s hint from their own cards and the board (never another's cards);
    None when the game has no exact count or it would take too long."""
    if not _counts_exactly(hand) or not 0 <= player < hand.players:
        return None
    own = tuple(c for c in hand.hole[player] if c is not None)
    game = hand.game.game
    if len(own) != game.base.hole_cards:
        return None
    board = tuple(hand.board)
    words = None
    if len(own) + len(board) >= 5 and (game.base.hole_used is None or len(board) >= 3):
        words = best_five(game, own, board).describe().split(" — ")[0]
    try:
        result: EquityResult = exact_equity(
            game, [format_cards(own), against], board=format_cards(board), max_seconds=max_seconds
        )
    except GameError:  # too big to count now, or a range that cannot be dealt
        return StrengthHint(words, against, None, None, None)
    mine = result.players[0]
    return StrengthHint(
        words, against, Fraction(mine.equity), Fraction(mine.win), Fraction(mine.tie)
    )
