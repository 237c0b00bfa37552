"""What happens in a hand, as frozen records: forced bets, deals, decisions, awards.

Every operation on a :class:`~cardlab.table.state.HandState` returns one of these and
appends it (and the automatic steps it caused) to the hand's history. ``str(event)``
is its line in the Poker Hand History (PHH) format where PHH has one (``d dh p1 AcKd``,
``p2 cbr 6``): ``event.phh_action`` is that action as a record of
:mod:`cardlab.table.phh_actions` (the one writer of PHH action text), ``event.phh`` its
text; both are None for steps PHH leaves implicit (forced bets, collecting bets,
awards). A record's ``player`` is a position counted from 0 (p1 in PHH is position 0:
the first seat left of the button), the same count as the PHH records'.

Every event a PHH line writes is one type, whether played or read from a file: the
decisions (:class:`Fold`, :class:`CheckCall`, :class:`CompleteBetRaiseTo`,
:class:`PostBringIn`), the deals (:class:`DealHole`, :class:`DealBoard`), the draw's
:class:`StandPatDiscard` and the showdown's :class:`ShowMuck`, and the base
:class:`Event`, are the records of :mod:`cardlab.table.phh_actions`, the lower module. A
record compares by what its line writes (the cards as the file's ``token``); what only
a played hand knows -- the chips a call put in, the :class:`Card` values dealt, shown or
thrown (``cards``), which hole cards are face up -- rides along in keyword fields that
take no part in comparing, so a played event equals the record its line reads back as.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, TypeVar

from cardlab.table import phh_actions as pa
from cardlab.table.phh_actions import (
    CheckCall,
    CompleteBetRaiseTo,
    DealBoard,
    DealHole,
    Event,
    Fold,
    PostBringIn,
    ShowMuck,
    StandPatDiscard,
)

__all__ = [
    "Award",
    "CheckCall",
    "CompleteBetRaiseTo",
    "DealBoard",
    "DealHole",
    "Event",
    "Fold",
    "NewStreet",
    "PostAnte",
    "PostBlind",
    "PostBringIn",
    "Reshuffle",
    "ReturnBet",
    "ShowMuck",
    "StandPatDiscard",
]

E = TypeVar("E", bound=Event)


@dataclass(frozen=True, slots=True)
class NewStreet(Event):
    """A street begins (its cards follow, then its betting round)."""

    index: int
    name: str

    def __str__(self) -> str:
        return f"-- {self.name} --"


@dataclass(frozen=True, slots=True)
class PostAnte(Event):
    player: int
    amount: int

    def __str__(self) -> str:
        return f"p{self.player + 1} posts an ante of {self.amount}"


@dataclass(frozen=True, slots=True)
class PostBlind(Event):
    player: int
    amount: int

    def __str__(self) -> str:
        return f"p{self.player + 1} posts a blind of {self.amount}"


@dataclass(frozen=True, slots=True)
class Reshuffle(Event):
    """Draw: the stub ran out; the discards so far were shuffled into a new stub."""

    count: int

    def __str__(self) -> str:
        return f"the stub ran out: {self.count} discards reshuffled"


@dataclass(frozen=True, slots=True)
class ReturnBet(Event):
    """An uncalled bet (or its uncalled part) goes back to the player."""

    player: int
    amount: int

    def __str__(self) -> str:
        return f"{self.amount} uncalled returned to p{self.player + 1}"


@dataclass(frozen=True, slots=True)
class Award(Event):
    """A pot (main pot 0, then side pots) paid to its winners.

    ``amounts`` per winner, in the order of ``players``; odd chips of a split go to the
    winner first in position order (left of the button). ``decided_by``: the step of the
    tie-break rules that settled it ("uncontested" when everyone else folded).
    """

    pot: int
    players: tuple[int, ...]
    amounts: tuple[int, ...]
    decided_by: str

    def __str__(self) -> str:
        who = ", ".join(f"p{p + 1} {a}" for p, a in zip(self.players, self.amounts, strict=True))
        name = "main pot" if self.pot == 0 else f"side pot {self.pot}"
        return f"{name}: {who} ({self.decided_by})"


@dataclass(frozen=True, slots=True)
class RunAward(Award):
    """A pot's share for one run of a board run more than once (``run`` 0 is the
    first run): each pot is split evenly between the runs, the odd chips to the first
    run, and each run's share goes to that run's best hands."""

    run: int

    def __str__(self) -> str:
        return f"run {self.run + 1}, {Award.__str__(self)}"


@dataclass(frozen=True, slots=True)
class ChooseRuns(Event):
    """An all-in player asks to run the rest of the board ``count`` times (None: no
    preference). PHH has no action for it: the history's ``_runs`` field keeps the
    count agreed."""

    player: int
    count: int | None

    def __str__(self) -> str:
        if self.count is None:
            return f"p{self.player + 1} has no preference on the runs"
        return f"p{self.player + 1} asks to run it {self.count} time{'s' * (self.count > 1)}"


@dataclass(frozen=True, slots=True)
class NewRun(Event):
    """The board is run again (``index`` 1: the second run) from the cards every run
    shares; a commentary line ``# run 2`` in PHH."""

    index: int

    @property
    def phh_action(self) -> pa.NoOp:
        return pa.NoOp(f"run {self.index + 1}")

    def __str__(self) -> str:
        return f"-- run {self.index + 1} --"


def _fast_init(cls: type[Event]) -> None:
    """Give a record class an ``__init__`` that sets its slots directly: a frozen
    dataclass's own goes through ``object.__setattr__`` for each field, and a hand
    creates a record for every step (the same fields, values and errors otherwise)."""
    declared = fields(cls)
    if any(f.default is not MISSING or f.default_factory is not MISSING for f in declared):
        return
    names = [f.name for f in declared]
    setters = {f"_set_{name}": cls.__dict__[name].__set__ for name in names}
    body = "".join(f"    _set_{name}(self, {name})\n" for name in names) or "    pass\n"
    source = f"def __init__(self, {', '.join(names)}):\n{body}"
    namespace: dict[str, Any] = dict(setters)
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    cls.__init__ = init  # type: ignore[method-assign]


for _cls in (
    NewStreet,
    PostAnte,
    PostBlind,
    Reshuffle,
    ReturnBet,
    Award,
    ChooseRuns,
    NewRun,
):
    _fast_init(_cls)
