"""Following one replayed hand step by step for the player statistics: what each seat
had the chance to do and did (the definitions: docs/player-stats.md), each seat's
position, and the moment the money went in (for the all-in adjustment of
:mod:`cardlab.table.player_stats`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from cardlab.table import events as ev
from cardlab.table import phh
from cardlab.table import phh_actions as pa
from cardlab.table.state import HandState, Phase

STEAL_POSITIONS = frozenset({"CO", "BTN", "SB"})
"""The positions whose open raise, everyone before them having folded, is a steal."""


def positions(history: phh.HandHistory) -> tuple[str, ...]:
    """Each seat's position in a game with blinds (PHH order: the blinds first, the
    button last): SB, BB, then UTG, UTG+1, ..., LJ, HJ, CO, BTN; heads-up the two
    blinds (the small blind is the button). Empty names in a game without blinds."""
    n = len(history.starting_stacks)
    blinds = [Fraction(b) for b in (history.blinds_or_straddles or ())]
    if n < 2 or len(blinds) < 2 or max(blinds[:2]) <= 0:
        return ("",) * n
    small, big = ("SB", "BB") if blinds[1] >= blinds[0] else ("BB", "SB")
    middle = n - 2
    tail = min(middle - 1 if middle >= 4 else middle, 4)
    late = ("LJ", "HJ", "CO", "BTN")[4 - tail :]
    early = [("UTG" if k == 0 else f"UTG+{k}") for k in range(middle - tail)]
    return (small, big, *early, *late)


@dataclass
class _Seat:
    first_decision: bool = False
    vpip: bool = False
    pfr: bool = False
    three_bet_chance: bool = False
    three_bet: bool = False
    four_bet_chance: bool = False
    four_bet: bool = False
    fold_3bet_chance: bool = False
    fold_3bet: bool = False
    steal_chance: bool = False
    steal: bool = False
    fold_steal_chance: bool = False
    fold_steal: bool = False
    cbet_chance: list[bool] = field(default_factory=lambda: [False, False])
    cbet: list[bool] = field(default_factory=lambda: [False, False])
    fold_cbet_chance: list[bool] = field(default_factory=lambda: [False, False])
    fold_cbet: list[bool] = field(default_factory=lambda: [False, False])
    check_raise_chances: int = 0
    check_raises: int = 0
    bets_raises: int = 0
    calls: int = 0
    folds: int = 0
    saw_second_street: bool = False


@dataclass
class Snapshot:
    """The hand when the money went in."""

    street: str
    board: int
    alive: tuple[bool, ...]
    stacks: tuple[int, ...]
    pots: tuple[tuple[int, tuple[int, ...]], ...]


class Watcher:
    """Follows a replay step by step (pass :meth:`step` to
    :func:`~cardlab.table.history.replay` as ``on_step``): the statistics' facts, and
    the all-in moment."""

    def __init__(self, n: int, positions: Sequence[str] = ()) -> None:
        self.seats = [_Seat() for _ in range(n)]
        self.positions = tuple(positions) or ("",) * n
        self.seen = 0
        self.level = 0  # bets in the first round: the blind or bring-in is the first
        self.street = -1
        self.can_raise: dict[int, bool] = {}  # first-round actor at level 2, 3 -> raise legal
        self.entered = False  # someone called or raised in the first round
        self.opener: int | None = None  # the first raise (level 1 to 2) of the first round
        self.stealer: int | None = None  # the opener, when the open was a steal
        self.aggressor: int | None = None  # the last raiser of the previous street
        self.acted: set[int] = set()  # decided already at this first-round level
        # after the first round: bets this street, who checked, and the c-bettor
        self.bets = 0
        self.checked: set[int] = set()
        self.cbettor: int | None = None  # the c-bet of this street (a bet not yet raised)
        self.cbet_by: list[int | None] = [None, None]  # who c-bet the second, third street
        self.faced: set[int] = set()  # players who met this street's c-bet already
        self.alive_after_betting: tuple[bool, ...] = (True,) * n
        self.all_in: Snapshot | None = None

    def step(self, k: int, action: pa.Action | None, hand: HandState) -> None:
        betting = False
        for event in hand.history[self.seen :]:
            betting |= self._event(event)
        self.seen = len(hand.history)
        if betting or k < 0:
            self.alive_after_betting = tuple(hand.alive)
        if hand.is_over:
            return
        phase = hand.phase
        if (
            phase is Phase.BET
            and self.street == 0
            and self.level in (2, 3)
            and hand.actor is not None
            and hand.actor not in self.can_raise
        ):
            self.can_raise[hand.actor] = hand.legal().can_raise
        if (
            self.all_in is None
            and phase is Phase.DEAL
            and sum(hand.alive) >= 2
            and sum(1 for i in hand.in_hand() if hand.stacks[i]) <= 1
        ):
            self.all_in = Snapshot(
                street=hand.streets[max(hand.street_index - 1, 0)].name,  # the next is dealt
                board=len(hand.board),
                alive=tuple(hand.alive),
                stacks=tuple(hand.stacks),
                pots=tuple((p.amount, p.players) for p in hand.pots()),
            )

    def _event(self, event: ev.Event) -> bool:
        """Count one event; True for a betting decision."""
        if isinstance(event, ev.NewStreet):
            if event.index > 0 and self.street >= 0:
                self._new_street()
            self.street = event.index
            return False
        if isinstance(event, ev.PostBlind):
            self.level = max(self.level, 1)
            return False
        if isinstance(event, ev.PostBringIn):
            self.level = max(self.level, 1)
            if self.street == 0:
                self.seats[event.player].first_decision = True
            return True
        if not isinstance(event, ev.Fold | ev.CheckCall | ev.CompleteBetRaiseTo):
            return False
        if self.street == 0:
            self._first_round(event)
        else:
            self._later_round(event)
        return True

    def _first_round(self, event: ev.Fold | ev.CheckCall | ev.CompleteBetRaiseTo) -> None:
        p = event.player
        seat = self.seats[p]
        raised = isinstance(event, ev.CompleteBetRaiseTo)
        first = p not in self.acted
        self.acted.add(p)
        seat.first_decision = True
        if self.level == 1 and not self.entered and self.positions[p] in STEAL_POSITIONS:
            seat.steal_chance = True
            seat.steal = raised
        if self.level == 2 and self.can_raise.pop(p, True):
            seat.three_bet_chance = True
            seat.three_bet = raised
        if self.level == 3:
            if self.can_raise.pop(p, True):
                seat.four_bet_chance = True
                seat.four_bet = raised
            if p == self.opener and first:
                seat.fold_3bet_chance = True
                seat.fold_3bet = isinstance(event, ev.Fold)
        if (
            self.level == 2
            and self.stealer is not None
            and p != self.stealer
            and first
            and self.positions[p] in ("SB", "BB")
        ):
            seat.fold_steal_chance = True
            seat.fold_steal = isinstance(event, ev.Fold)
        if raised:
            seat.vpip = seat.pfr = True
            if self.level == 1:
                self.opener = p
                if seat.steal_chance:
                    self.stealer = p
            self.level += 1
            self.aggressor = p
            self.entered = True
            self.can_raise.clear()
            self.acted = {p}
        elif isinstance(event, ev.CheckCall) and event.amount > 0:
            seat.vpip = True
            self.entered = True

    def _new_street(self) -> None:
        """A street after the first begins: the last raiser of the one before may c-bet
        (on the third street only if they c-bet the second)."""
        if self.street >= 1:  # the turn: the flop's c-bettor; the river: nobody
            self.aggressor = self.cbet_by[0] if self.street == 1 else None
        self.bets = 0
        self.checked = set()
        self.cbettor = None
        self.faced = set()

    def _later_round(self, event: ev.Fold | ev.CheckCall | ev.CompleteBetRaiseTo) -> None:
        p = event.player
        seat = self.seats[p]
        k = self.street - 1  # 0: the second street (the flop), 1: the third (the turn)
        raised = isinstance(event, ev.CompleteBetRaiseTo)
        if k < 2 and self.bets == 0 and p == self.aggressor:
            seat.cbet_chance[k] = True
            seat.cbet[k] = raised
        if k < 2 and self.cbettor is not None and self.bets == 1 and p not in self.faced:
            self.faced.add(p)
            seat.fold_cbet_chance[k] = True
            seat.fold_cbet[k] = isinstance(event, ev.Fold)
        if p in self.checked and self.bets > 0:
            self.checked.discard(p)  # one chance a street
            seat.check_raise_chances += 1
            seat.check_raises += raised
        if raised:
            seat.bets_raises += 1
            if k < 2 and self.bets == 0 and p == self.aggressor:
                self.cbettor = p
                self.cbet_by[k] = p
            else:
                self.cbettor = None
            self.bets += 1
        elif isinstance(event, ev.CheckCall):
            if event.amount > 0:
                seat.calls += 1
            elif self.bets == 0:
                self.checked.add(p)
        else:
            seat.folds += 1
