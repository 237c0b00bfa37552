"""What cardlab can tell the table that no site can: exact odds during a hand.

:func:`all_in_odds` — when every player left is all in and board cards are still to
come, each hand's exact win and tie share over every remaining board (the exact
equity of :func:`cardlab.poker.equity.exact_equity`, the numbers of
``cardlab equity --exact``), for the board being dealt (each run of a board run twice
on its own). :func:`all_in_streets` — the same odds on every street of an all-in
runout as it came (each run, and each board of a double board, on its own: the cards
the other board or an earlier run dealt are out of its deck); :func:`all_in_spots`
names those boards, :func:`spot_odds` counts one. :func:`strength_hint` — for a
learner: their best hand so far in words and their exact equity against one random
hand (or a range), from their own cards only (on a double board, each board's and
their share of the pot the boards split).

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
from cardlab.poker.ranges import Range
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
    later run's deck lacks the cards the runs before it dealt, ``dead``; ``on``: which
    board of a double board, whose other board's cards are dead too)."""

    board: tuple[Card, ...]
    run: int
    deals: int
    dead: tuple[Card, ...]  # cards earlier runs or the other board dealt: out of the deck
    hands: tuple[HandOdds, ...]
    on: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "board": format_cards(self.board),
            "run": self.run + 1,
            "on": self.on + 1,
            "deals": self.deals,
            "dead": format_cards(self.dead),
            "hands": [h.as_dict() for h in self.hands],
        }


@dataclass(frozen=True, slots=True)
class OddsSpot:
    """One board of an all-in runout as it stood after a street: its cards, the run
    and the board (of a double board) it belongs to, and the cards out of its deck."""

    board: tuple[Card, ...]
    run: int
    on: int
    dead: tuple[Card, ...]


def _counts_exactly(hand: HandState) -> bool:
    game = hand.game
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


def _all_in_holes(hand: HandState) -> tuple[list[int], list[tuple[Card, ...]]] | None:
    """The players left and their hole cards, when all are all in with board cards to
    come and every hand is known (None otherwise)."""
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
    return players, holes


def _counted(
    hand: HandState,
    players: Sequence[int],
    holes: Sequence[tuple[Card, ...]],
    spot: OddsSpot,
    max_seconds: float | None,
) -> AllInOdds | None:
    try:
        result = exact_equity(
            hand.game.game,
            [format_cards(h) for h in holes],
            board=format_cards(spot.board),
            dead=format_cards(spot.dead),
            max_seconds=max_seconds,
        )
    except GameError:  # too big to count now (ExactTooBig)
        return None
    return AllInOdds(
        spot.board,
        spot.run,
        result.deals,
        spot.dead,
        tuple(
            HandOdds(p, h, Fraction(e.win), Fraction(e.tie), Fraction(e.equity))
            for p, h, e in zip(players, holes, result.players, strict=True)
        ),
        spot.on,
    )


def all_in_odds(hand: HandState, *, max_seconds: float | None = ODDS_SECONDS) -> AllInOdds | None:
    """Each hand's exact odds when everyone left is all in with board cards to come
    (None otherwise, or when the count would take longer than ``max_seconds``; on a
    double board see :func:`all_in_board_odds`)."""
    found = _all_in_holes(hand)
    if found is None or len(hand.boards) > 1:
        return None
    board = tuple(hand.board)
    spot = OddsSpot(board, len(hand.run_boards), 0, _dealt_before(hand.run_boards, board))
    return _counted(hand, *found, spot, max_seconds)


def all_in_board_odds(
    hand: HandState, *, max_seconds: float | None = ODDS_SECONDS
) -> list[AllInOdds]:
    """:func:`all_in_odds` of each board of a double board, the other board's cards out
    of its deck (empty when there are none, or one count would be too big)."""
    found = _all_in_holes(hand)
    if found is None or len(hand.boards) < 2:
        return []
    out: list[AllInOdds] = []
    for on, cards in enumerate(hand.boards):
        dead = tuple(c for k, b in enumerate(hand.boards) if k != on for c in b)
        odds = _counted(hand, *found, OddsSpot(tuple(cards), 0, on, dead), max_seconds)
        if odds is None:
            return []
        out.append(odds)
    return out


def _face_up_holes(hand: HandState) -> list[tuple[Card, ...]] | None:
    """The hole cards of every player left, once all are face up (None: not yet)."""
    players = hand.in_hand()
    if not hand.is_over and not all(hand.has_shown(p) for p in players):
        return None
    holes = [tuple(c for c in hand.hole[p] if c is not None) for p in players]
    if any(len(h) != hand.game.game.base.hole_cards for h in holes):
        return None
    return holes


def all_in_spots(hand: HandState) -> list[OddsSpot]:
    """The boards of an all-in runout as they came, street by street: the board when the
    betting ended, then each street but the last of the first run, then the same for
    each later run from the cards the runs share (a run's first line is the all-in
    board again, counted without the cards the runs before it dealt; each board of a
    double board beside the other), once every hand left is face up (empty
    otherwise)."""
    players = hand.in_hand()
    start = hand.all_in_board
    if start is None or len(players) < 2 or not _counts_exactly(hand):
        return []
    if _face_up_holes(hand) is None:
        return []
    full = sum(s.board for s in hand.streets)
    ends: list[int] = []
    total = 0
    for street in hand.streets:
        total += street.board
        if start <= total < full and total not in ends:
            ends.append(total)
    out: list[OddsSpot] = []
    if len(hand.boards) > 1:  # both boards are dealt each street, the first first
        for length in ends:
            for on, cards in enumerate(hand.boards):
                if length > len(cards):
                    continue
                others = [b[:length] for k, b in enumerate(hand.boards) if k != on]
                dead = tuple(c for b in others for c in b)
                out.append(OddsSpot(tuple(cards[:length]), 0, on, dead))
        return out
    # every run starts with its own line: its board so far is the one the runs share,
    # but its deck lacks the cards the runs before it dealt (so its odds differ)
    runouts = hand.runouts()
    for run, board in enumerate(runouts):
        for length in ends:
            if length > len(board):
                continue
            dead = _dealt_before(runouts[:run], board[:length])
            out.append(OddsSpot(tuple(board[:length]), run, 0, dead))
    return out


def spot_odds(
    hand: HandState, spot: OddsSpot, *, max_seconds: float | None = ODDS_SECONDS
) -> AllInOdds | None:
    """The exact odds of every face-up hand left on ``spot`` (None: too many deals to
    count now, or the hands are not face up)."""
    holes = _face_up_holes(hand)
    if holes is None:
        return None
    return _counted(hand, hand.in_hand(), holes, spot, max_seconds)


def all_in_streets(hand: HandState, *, max_seconds: float | None = ODDS_SECONDS) -> list[AllInOdds]:
    """The odds of an all-in hand on every street of every run (and board), as the
    board came (:func:`all_in_spots`): what a viewer sees street by street, once every
    hand left is face up (empty otherwise; cut short where a count would be too big)."""
    out: list[AllInOdds] = []
    for spot in all_in_spots(hand):
        odds = spot_odds(hand, spot, max_seconds=max_seconds)
        if odds is None:
            break
        out.append(odds)
    return out


@dataclass(frozen=True, slots=True)
class BoardHint:
    """A learner's hint on one board of a double board (``on``: 0 the first): their best
    hand on it in words, and their exact chances on it against the hint's opponent."""

    on: int
    hand: str | None
    equity: Fraction | None
    win: Fraction | None
    tie: Fraction | None

    def as_dict(self) -> dict[str, Any]:
        return {"on": self.on + 1, "hand": self.hand} | _chances(self.equity, self.win, self.tie)


def _chances(equity: Fraction | None, win: Fraction | None, tie: Fraction | None) -> dict[str, Any]:
    return {
        "equity": None if equity is None else float(equity),
        "win": None if win is None else float(win),
        "tie": None if tie is None else float(tie),
        "exact": None if equity is None else str(equity),
    }


@dataclass(frozen=True, slots=True)
class StrengthHint:
    """A learner's hint: ``hand`` their best hand so far in words (None before five
    cards can play), ``equity`` the exact equity against ``against`` (a random hand or
    a range) over every remaining board and hand (None: too many deals to count now).

    On a double board, ``boards`` holds each board's hint and ``hand`` is None; then
    ``equity`` is the player's share of the pot (each pot is split in two halves, one
    per board: the mean of the boards' equities, before the odd chip) and ``win`` and
    ``tie`` are None (a board's own are in ``boards``)."""

    hand: str | None
    against: str
    equity: Fraction | None
    win: Fraction | None
    tie: Fraction | None
    boards: tuple[BoardHint, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return (
            {"hand": self.hand, "against": self.against}
            | _chances(self.equity, self.win, self.tie)
            | {"boards": [b.as_dict() for b in self.boards]}
        )


def _board_hint(
    hand: HandState,
    own: tuple[Card, ...],
    board: tuple[Card, ...],
    dead: tuple[Card, ...],
    against: str | Range,
    max_seconds: float | None,
) -> tuple[str | None, EquityResult | None]:
    """The best hand of ``own`` on ``board`` in words, and the exact equity against
    ``against`` with ``dead`` out of the deck (None: too big to count now, or a range
    that cannot be dealt)."""
    game = hand.game.game
    words = None
    if len(own) + len(board) >= 5 and (game.base.hole_used is None or len(board) >= 3):
        words = best_five(game, own, board).describe().split(" — ")[0]
    try:
        result = exact_equity(
            game,
            [format_cards(own), against],
            board=format_cards(board),
            dead=format_cards(dead),
            max_seconds=max_seconds,
        )
    except GameError:
        return words, None
    return words, result


def strength_hint(
    hand: HandState,
    player: int,
    *,
    against: str | Range = "random",
    max_seconds: float | None = ODDS_SECONDS,
) -> StrengthHint | None:
    """``player``'s hint from their own cards and the board (never another's cards);
    None when the game has no exact count or it would take too long. ``against``: a
    random hand, a range's text (standard52 Hold'em) or a parsed range (any deck: the
    web table parses the deck's own classes, web/table_odds.py). On a double board
    each board's hint (the other board's cards out of its deck) and the share of the
    pot the two boards split (:class:`StrengthHint`)."""
    if not _counts_exactly(hand) or not 0 <= player < hand.players:
        return None
    own = tuple(c for c in hand.hole[player] if c is not None)
    if len(own) != hand.game.game.base.hole_cards:
        return None
    if len(hand.boards) > 1:
        return _double_board_hint(hand, own, against, max_seconds)
    words, result = _board_hint(hand, own, tuple(hand.board), (), against, max_seconds)
    if result is None:
        return StrengthHint(words, str(against), None, None, None)
    mine = result.players[0]
    return StrengthHint(
        words, str(against), Fraction(mine.equity), Fraction(mine.win), Fraction(mine.tie)
    )


def _double_board_hint(
    hand: HandState, own: tuple[Card, ...], against: str | Range, max_seconds: float | None
) -> StrengthHint:
    # each half of a pot goes to the best hand on its board (table/showdown.py): the
    # expected share is the mean of the boards' equities, each counted over its own
    # cards to come with the other board's cards dead (the opponent's hand and every
    # card still to come are dealt from the same deck: by linearity each board's
    # share may be counted on its own)
    each: list[BoardHint] = []
    for on, cards in enumerate(hand.boards):
        dead = tuple(c for k, b in enumerate(hand.boards) if k != on for c in b)
        words, result = _board_hint(hand, own, tuple(cards), dead, against, max_seconds)
        mine = None if result is None else result.players[0]
        each.append(
            BoardHint(
                on,
                words,
                None if mine is None else Fraction(mine.equity),
                None if mine is None else Fraction(mine.win),
                None if mine is None else Fraction(mine.tie),
            )
        )
    shares = [b.equity for b in each]
    share = None
    if all(e is not None for e in shares):
        share = sum((e for e in shares if e is not None), Fraction(0)) / len(shares)
    return StrengthHint(None, str(against), share, None, None, tuple(each))
