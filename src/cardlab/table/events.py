"""What happens in a hand, as frozen records: forced bets, deals, decisions, awards.

Every operation on a :class:`~cardlab.table.state.HandState` returns one of these and
appends it (and the automatic steps it caused) to the hand's history. ``str(event)``
is its line in the Poker Hand History (PHH) format where PHH has one (``d dh p1 AcKd``,
``p2 cbr 6``): ``event.phh_action`` is that action as a record of
:mod:`cardlab.table.phh_actions` (the one writer of PHH action text), ``event.phh`` its
text; both are None for steps PHH leaves implicit (forced bets, collecting bets,
awards). A record's ``player`` is a position counted from 0 (p1 in PHH is position 0:
the first seat left of the button), the same count as the PHH records'.

The four decisions without cards (:class:`Fold`, :class:`CheckCall`,
:class:`CompleteBetRaiseTo`, :class:`PostBringIn`) and the base :class:`Event` are the
types of :mod:`cardlab.table.phh_actions`, the lower module: a fold read from a file and
a fold played are one type. A deal, a discard and a show carry :class:`Card` values here
and the file's card text there, so they are records of each module.
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from typing import Any, TypeVar

from cardlab.cards import Card
from cardlab.table import phh_actions as pa
from cardlab.table.phh_actions import CheckCall, CompleteBetRaiseTo, Event, Fold, PostBringIn

__all__ = [
    "Award",
    "CheckCall",
    "CompleteBetRaiseTo",
    "DealBoard",
    "DealHole",
    "Discard",
    "Event",
    "Fold",
    "NewStreet",
    "PostAnte",
    "PostBlind",
    "PostBringIn",
    "Reshuffle",
    "ReturnBet",
    "ShowMuck",
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
class DealHole(Event):
    """Hole cards to one player; ``up`` says which are dealt face up (stud); an
    unknown card (a replayed history that hides it) is None."""

    player: int
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]

    @property
    def phh_action(self) -> pa.DealHole | None:
        if not self.cards:
            return None  # a deal of no cards is no action
        return pa.DealHole(self.player, pa.card_token(self.cards))

    def __str__(self) -> str:
        return str(self.phh)


@dataclass(frozen=True, slots=True)
class DealBoard(Event):
    cards: tuple[Card, ...]

    @property
    def phh_action(self) -> pa.DealBoard | None:
        return pa.DealBoard(pa.card_token(self.cards)) if self.cards else None

    def __str__(self) -> str:
        return str(self.phh)


@dataclass(frozen=True, slots=True)
class Reshuffle(Event):
    """Draw: the stub ran out; the discards so far were shuffled into a new stub."""

    count: int

    def __str__(self) -> str:
        return f"the stub ran out: {self.count} discards reshuffled"


@dataclass(frozen=True, slots=True)
class Discard(Event):
    """Draw: the cards thrown away (none: stands pat; None: hidden from a viewer)."""

    player: int
    cards: tuple[Card | None, ...]

    @property
    def phh_action(self) -> pa.StandPatDiscard:
        return pa.StandPatDiscard(self.player, pa.card_token(self.cards) or None)

    def __str__(self) -> str:
        return str(self.phh)


@dataclass(frozen=True, slots=True)
class ShowMuck(Event):
    """Showdown: the player shows ``cards`` or mucks (``cards`` None)."""

    player: int
    cards: tuple[Card, ...] | None

    @property
    def phh_action(self) -> pa.ShowMuck:
        # a bare sm mucks (cards None); so does a show of no known card, as its text
        # always read ("p1 sm " is a bare sm)
        return pa.ShowMuck(self.player, pa.card_token(self.cards or ()) or None)

    def __str__(self) -> str:
        return str(self.phh)


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
    DealHole,
    DealBoard,
    Reshuffle,
    Discard,
    ShowMuck,
    ReturnBet,
    Award,
    ChooseRuns,
    NewRun,
):
    _fast_init(_cls)
