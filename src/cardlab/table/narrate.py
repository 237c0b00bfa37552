"""A hand's history in words, street by street, for logs and the command line.

:func:`describe` tells one event on its own (a bet or raise is "bets/raises to": the
event alone does not say which); a :class:`Narrator` tells a hand's events in order as
players at a table say them, "bets" when nobody has bet in the round, "raises to" over a
bet or a blind, "completes to" over a Stud bring-in, and one player (``you``) in the
second person.

>>> from cardlab.table import HandState, TableGame
>>> h = HandState(TableGame.create("standard52-holdem"), [50, 50], seed=1)
>>> _ = h.fold()
>>> streets(h, ["ann", "bob"])[-1]
('pre-flop', 'bob folds; 2 uncalled returns to ann; ann wins 1 (uncontested)')
>>> h = HandState(TableGame.create("standard52-holdem"), [50, 50], seed=1)
>>> _ = h.bet_or_raise_to(6)
>>> tell = Narrator(["ann", "bob"], you=1, game=h.game).tell
>>> [line for line in map(tell, h.history) if line][-3:]
['ann posts 2', 'you post 1', 'you raise to 6']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cardlab.cards import format_cards
from cardlab.table import events as ev
from cardlab.table.state import HandState
from cardlab.table.structure import TableGame

#: a verb as said of another player, and as said to you
_SECOND_PERSON = {
    "folds": "fold",
    "calls": "call",
    "checks": "check",
    "bets": "bet",
    "raises": "raise",
    "completes": "complete",
    "bets/raises": "bet/raise",
    "brings": "bring",
    "posts": "post",
    "is": "are",
    "discards": "discard",
    "stands": "stand",
    "draws": "draw",
    "mucks": "muck",
    "shows": "show",
    "wins": "win",
}


def _who(names: Sequence[str], you: int | None, p: int) -> str:
    if p == you:
        return "you"
    return names[p] if 0 <= p < len(names) else f"p{p + 1}"


def _says(names: Sequence[str], you: int | None, p: int, text: str) -> str:
    """``text`` (a third-person verb first) said of ``p``: "ann posts 1", "you post 1"."""
    verb, _, rest = text.partition(" ")
    if p == you:
        verb = _SECOND_PERSON.get(verb, verb)
    return f"{_who(names, you, p)} {verb} {rest}".rstrip()


def describe(
    event: ev.Event, names: Sequence[str], *, deals: bool = False, you: int | None = None
) -> str | None:
    """One event as words, or None for events that go without saying (antes and the
    cards dealt; with ``deals`` those too, and the cards of a discard when known, for a
    hand log). ``you``: the position told in the second person ("you post 1")."""

    def who(p: int) -> str:
        return _who(names, you, p)

    def says(p: int, text: str) -> str:
        return _says(names, you, p, text)

    def cards(cs: Sequence[object]) -> str:
        return " ".join("??" if c is None else str(c) for c in cs)

    if deals:
        if isinstance(event, ev.PostAnte):
            return says(event.player, f"posts an ante of {event.amount}")
        if isinstance(event, ev.DealHole):
            return says(event.player, f"is dealt {cards(event.cards)}")
        if isinstance(event, ev.DealBoard):
            return f"board: {cards(event.cards)}"
        if isinstance(event, ev.StandPatDiscard) and event.cards and None not in event.cards:
            return says(event.player, f"discards {cards(event.cards)}")

    if isinstance(event, ev.Fold):
        return says(event.player, "folds")
    if isinstance(event, ev.CheckCall):
        if event.amount:
            return says(event.player, f"calls {event.amount}")
        return says(event.player, "checks")
    if isinstance(event, ev.CompleteBetRaiseTo):
        return says(event.player, f"bets/raises to {event.amount}")
    if isinstance(event, ev.PostBringIn):
        return says(event.player, f"brings in {event.amount}")
    if isinstance(event, ev.PostBlind):
        return says(event.player, f"posts {event.amount}")
    if isinstance(event, ev.PostAnte):
        return None
    if isinstance(event, ev.StandPatDiscard):
        if not event.cards:
            return says(event.player, "stands pat")
        return says(event.player, f"draws {len(event.cards)}")
    if isinstance(event, ev.ShowMuck):
        if event.cards is None:
            return says(event.player, "mucks")
        return says(event.player, f"shows {format_cards(event.cards)}")
    if isinstance(event, ev.ReturnBet):
        return f"{event.amount} uncalled returns to {who(event.player)}"
    if isinstance(event, ev.Reshuffle):
        return str(event)
    if isinstance(event, ev.ChooseRuns):
        if event.count is None:
            return says(event.player, "leaves the runs to the others")
        times = {1: "once", 2: "twice", 3: "three times"}.get(event.count, f"{event.count} times")
        return says(event.player, f"asks to run it {times}")
    if isinstance(event, ev.NewRun):
        return f"run {event.index + 1} of the board"
    if isinstance(event, ev.Award):
        won = " and ".join(
            says(p, f"wins {a}") for p, a in zip(event.players, event.amounts, strict=True)
        )
        pot = "" if event.pot == 0 else f" side pot {event.pot}:"
        run = f"run {event.run + 1}:" if isinstance(event, ev.RunAward) else ""
        return f"{run}{pot} {won} ({event.decided_by})".strip()
    return None


@dataclass
class Narrator:
    """Tells the events of one hand in order (see the module documentation): feed it
    every event of the history, the ones that go without saying included, since they
    open streets and set the bet to beat. ``game``: the hand's game, so that the first
    raise over a Stud bring-in (or instead of it) is told as a completion."""

    names: Sequence[str]
    you: int | None = None
    game: TableGame | None = None
    deals: bool = False
    _top: int = field(default=0, init=False)  # the bet to beat this round
    _completing: bool = field(default=False, init=False)

    def tell(self, event: ev.Event) -> str | None:
        text = describe(event, self.names, deals=self.deals, you=self.you)
        if isinstance(event, ev.NewStreet):
            if event.index > 0:  # the blinds are posted before the first street opens
                self._top = 0
            stakes = None if self.game is None else self.game.stakes
            self._completing = event.index == 0 and stakes is not None and stakes.bring_in > 0
        elif isinstance(event, ev.PostBlind | ev.PostBringIn):
            self._top = max(self._top, event.amount)
        elif isinstance(event, ev.CompleteBetRaiseTo):
            if self._completing:
                verb = f"completes to {event.amount}"
            elif self._top == 0:
                verb = f"bets {event.amount}"
            else:
                verb = f"raises to {event.amount}"
            self._top = max(self._top, event.chips)
            self._completing = False
            return _says(self.names, self.you, event.player, verb)
        return text


def streets(hand: HandState, names: Sequence[str] = ()) -> list[tuple[str, str]]:
    """(street name with its board cards, what happened) for each street played."""
    out: list[tuple[str, str]] = []
    title = "forced bets"
    lines: list[str] = []
    for event in hand.history:
        if isinstance(event, ev.NewStreet):
            if lines or title != "forced bets":
                out.append((title, "; ".join(lines)))
            title, lines = event.name, []
            continue
        if isinstance(event, ev.DealBoard):
            title = f"{title} {format_cards(event.cards)}"
            continue
        text = describe(event, names)
        if text:
            lines.append(text)
    out.append((title, "; ".join(lines)))
    return out
