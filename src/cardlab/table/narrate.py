"""A hand's history in words, street by street, for logs and the command line.

>>> from cardlab.table import HandState, TableGame
>>> h = HandState(TableGame.create("standard52-holdem"), [50, 50], seed=1)
>>> _ = h.fold()
>>> streets(h, ["ann", "bob"])[-1]
('pre-flop', 'bob folds; 2 uncalled returns to ann; ann wins 1 (uncontested)')
"""

from __future__ import annotations

from collections.abc import Sequence

from cardlab.cards import format_cards
from cardlab.table import events as ev
from cardlab.table.state import HandState


def describe(event: ev.Event, names: Sequence[str], *, deals: bool = False) -> str | None:
    """One event as words, or None for events that go without saying (antes and the
    cards dealt; with ``deals`` those too, and the cards of a discard when known, for a
    hand log)."""

    def who(p: int) -> str:
        return names[p] if 0 <= p < len(names) else f"p{p + 1}"

    def cards(cs: Sequence[object]) -> str:
        return " ".join("??" if c is None else str(c) for c in cs)

    if deals:
        if isinstance(event, ev.PostAnte):
            return f"{who(event.player)} posts an ante of {event.amount}"
        if isinstance(event, ev.DealHole):
            return f"{who(event.player)} is dealt {cards(event.cards)}"
        if isinstance(event, ev.DealBoard):
            return f"board: {cards(event.cards)}"
        if isinstance(event, ev.Discard) and event.cards and None not in event.cards:
            return f"{who(event.player)} discards {cards(event.cards)}"

    if isinstance(event, ev.Fold):
        return f"{who(event.player)} folds"
    if isinstance(event, ev.CheckCall):
        if event.amount:
            return f"{who(event.player)} calls {event.amount}"
        return f"{who(event.player)} checks"
    if isinstance(event, ev.BetRaise):
        return f"{who(event.player)} bets/raises to {event.amount}"
    if isinstance(event, ev.BringIn):
        return f"{who(event.player)} brings in {event.amount}"
    if isinstance(event, ev.PostBlind):
        return f"{who(event.player)} posts {event.amount}"
    if isinstance(event, ev.PostAnte):
        return None
    if isinstance(event, ev.Discard):
        if not event.cards:
            return f"{who(event.player)} stands pat"
        return f"{who(event.player)} draws {len(event.cards)}"
    if isinstance(event, ev.ShowMuck):
        if event.cards is None:
            return f"{who(event.player)} mucks"
        return f"{who(event.player)} shows {format_cards(event.cards)}"
    if isinstance(event, ev.ReturnBet):
        return f"{event.amount} uncalled returns to {who(event.player)}"
    if isinstance(event, ev.Reshuffle):
        return str(event)
    if isinstance(event, ev.Award):
        won = " and ".join(
            f"{who(p)} wins {a}" for p, a in zip(event.players, event.amounts, strict=True)
        )
        pot = "" if event.pot == 0 else f" side pot {event.pot}:"
        return f"{pot} {won} ({event.decided_by})".strip()
    return None


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
