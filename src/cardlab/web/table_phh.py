"""A web table's finished hands as text: PHH histories, the showdown, the hand log.

A finished hand keeps its PHH history from the shared writer
(:func:`cardlab.table.history.to_history`), and is written for one viewer: cards dealt
face down to anybody else are ``??`` unless shown at the showdown, as at the table
(:func:`cardlab.table.view.masked` has the same rule), and others' discards are hidden.
The hand store keeps the full history (:func:`cardlab.table.history.record`).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from cardlab.cards import format_cards
from cardlab.errors import CardlabError
from cardlab.poker.showdown import best_five as five_of
from cardlab.table import events as ev
from cardlab.table import narrate, phh
from cardlab.table.history import to_history
from cardlab.table.state import HandState


@dataclass(frozen=True)
class FinishedHand:
    """What a table keeps of a finished hand to write its history for any viewer."""

    number: int
    history: phh.HandHistory
    events: tuple[ev.Event, ...]
    seats: tuple[int, ...]  # the seat at each position
    shown: frozenset[int]  # positions whose cards were shown

    @property
    def sittings(self) -> tuple[str, ...]:
        """Who played each position (a random id per person's sitting-down)."""
        value = self.history.user_fields.get("_sittings", ())
        return tuple(str(v) for v in value) if isinstance(value, list | tuple) else ()

    def for_seat(self, viewer_seat: int | None, sitting: str | None = None) -> phh.HandHistory:
        """The history as the person in ``viewer_seat`` (None: a spectator) may see it:
        their own cards only if they played the hand (``sitting``: who sits there now; a
        person who took the seat later sees the hand as a spectator)."""
        position = self.seats.index(viewer_seat) if viewer_seat in self.seats else None
        sittings = self.sittings
        if position is not None and sittings and sittings[position] != (sitting or ""):
            position = None
        if position is not None and sittings and not sittings[position]:
            position = None  # a bot's seat
        lines = [
            e.phh
            for e in (_mask(e, position, self.shown) for e in self.events)
            if e.phh is not None
        ]
        user = dict(self.history.user_fields)
        user.pop("_sittings", None)
        if "_server_seed" not in user:
            user.pop("_reshuffled", None)  # the piles show discards: only once revealed
        return dataclasses.replace(
            self.history,
            actions=tuple(lines),  # type: ignore[arg-type]
            user_fields=user,
        )

    @classmethod
    def from_record(cls, stored: Any) -> FinishedHand:
        """A hand of the store (a :class:`~cardlab.store.HandRecord` of a web table),
        replayed to write it for any viewer."""
        from cardlab.table.history import replay

        history = phh.loads(stored.phh)
        hand = replay(history).hand
        seats = tuple(int(s) - 1 for s in history.user_fields["_seats"])
        number = history.hand if isinstance(history.hand, int) else 0
        return cls(number, history, tuple(hand.history), seats, frozenset(hand.shown_hands()))

    def shown_after(self, hand: HandState, position: int) -> FinishedHand:
        """This hand as it reads once ``position``, the winner everyone else folded to,
        has shown their cards after it: one more action line, ``pN sm CARDS``, and their
        cards dealt face down shown to every viewer (``hand`` is not changed: a table
        stores this record before it applies the show)."""
        show = ev.ShowMuck.played(position, tuple(c for c in hand.hole[position] if c is not None))
        actions = (*self.history.actions, show.phh_action)
        history = dataclasses.replace(self.history, actions=actions)
        return replace(
            self, history=history, events=(*self.events, show), shown=self.shown | {position}
        )

    def with_rabbit(self, cards: Sequence[Any]) -> FinishedHand:
        """This hand with the cards a rabbit hunt showed (the ``_rabbit`` field)."""
        user = self.history.user_fields | {"_rabbit": " ".join(c.ascii for c in cards)}
        return replace(self, history=dataclasses.replace(self.history, user_fields=user))

    @property
    def decisions(self) -> int:
        """The action lines that are not the dealer's (the store's ``actions`` count)."""
        return sum(1 for a in self.history.actions if not str(a).startswith("d "))

    @property
    def commitment(self) -> str | None:
        value = self.history.user_fields.get("_commitment")
        return value if isinstance(value, str) else None

    def revealed(self, server_seed: bytes) -> FinishedHand:
        """This hand with its deal's revealed fields (docs/fair-dealing.md)."""
        from cardlab.web.table_fair import with_revealed

        return replace(self, history=with_revealed(self.history, server_seed))


def finished(
    hand: HandState,
    number: int,
    seats: Sequence[int],
    names: Sequence[str],
    user_fields: dict[str, Any] | None = None,
) -> FinishedHand:
    """The record of the finished ``hand`` (positions to ``seats``, players ``names``;
    ``user_fields``: the fair deal's fields and the like)."""
    result = hand.result
    if result is None:
        raise ValueError("the hand is not over")
    history = to_history(hand, players=tuple(names), user_fields=dict(user_fields or {}))
    history = dataclasses.replace(history, hand=number)
    shown = frozenset(hand.shown_hands())
    return FinishedHand(number, history, tuple(hand.history), tuple(seats), shown)


def _mask(event: ev.Event, viewer: int | None, shown: frozenset[int]) -> ev.Event:
    if isinstance(event, ev.DealHole) and event.player != viewer and event.player not in shown:
        cards = tuple(c if up else None for c, up in zip(event.cards, event.up, strict=True))
        return ev.DealHole.played(event.player, cards, event.up)  # its token hides them too
    if isinstance(event, ev.StandPatDiscard) and event.player != viewer:
        return ev.StandPatDiscard.played(event.player, (None,) * len(event.cards))
    return event


def phhs(
    hands: Sequence[FinishedHand],
    viewer_seat: int | None,
    sitting: str | None = None,
    *,
    mine: Collection[str] = (),
) -> str:
    """The hands as one ``.phhs`` file, as the person in ``viewer_seat`` may see them;
    ``mine``: the viewer's sittings at this table (a hand they played in a seat they
    left, or at a table now closed, shows their cards)."""
    return phh.dumps_all(h.for_seat(*viewer_of(h, viewer_seat, sitting, mine)) for h in hands)


def viewer_of(
    hand: FinishedHand, seat: int | None, sitting: str | None, mine: Collection[str]
) -> tuple[int | None, str | None]:
    """The seat and sitting ``hand`` is shown for: the viewer's in that hand if one of
    ``mine`` played it, else ``seat`` and ``sitting`` (where they sit now)."""
    for position, played in enumerate(hand.sittings):
        if played and played in mine:
            return hand.seats[position], played
    return seat, sitting


def showdown_summary(
    hand: HandState, names: Sequence[str], *, best_five: bool = True
) -> dict[str, Any]:
    """How the finished ``hand`` ended, for everyone: each pot with who could win it,
    the winners and the tie-break step that decided it; each shown hand with its best
    five (``best_five=False``: without, which is quicker); each player's chips won or
    lost."""
    result = hand.result
    if result is None:
        raise ValueError("the hand is not over")
    shown = hand.shown_hands()  # also a hand shown before the others mucked, or after
    best = result.best_hands() if result.showdown and best_five else {}
    if best_five and hand.street_index == len(hand.streets) - 1:
        for p, cards in shown.items():  # shown, but the pot was not shown down
            if p not in best:
                with contextlib.suppress(CardlabError):
                    best[p] = five_of(hand.game.game, cards, hand.board)
    # a board run more than once: each run's pots are decided on that run's board
    run_best: list[dict[int, Any]] = []
    for board in result.runouts:
        found: dict[int, Any] = {}
        if best_five:
            for p, cards in shown.items():
                with contextlib.suppress(CardlabError):
                    found[p] = five_of(hand.game.game, cards, board)
        run_best.append(found)
    pots: list[dict[str, Any]] = []
    k = -1
    for pot in result.pots:
        k = 0 if pot.run != (pots[-1]["run"] if pots else 0) else k + 1
        name = "main pot" if k == 0 else f"side pot {k}"
        pots.append(
            {
                "name": f"run {pot.run + 1}, {name}" if result.runouts else name,
                "run": pot.run,
                "amount": pot.amount,
                "players": [names[p] for p in pot.players],
                "winners": [names[p] for p in pot.winners],
                "decided_by": pot.decided_by,
                "why": why_won(pot, run_best[pot.run] if result.runouts else best, names),
            }
        )
    rabbit = hand.rabbit
    return {
        "showdown": result.showdown,
        "board": format_cards(result.board),
        "boards": [format_cards(b) for b in result.boards],  # a double board's two
        "runs": [format_cards(b) for b in result.runouts],
        "rabbit": None if rabbit is None else format_cards(rabbit),
        "rabbit_due": rabbit is None and hand.rabbit_due() > 0,
        "pots": pots,
        "hands": [
            {
                "name": names[p],
                "cards": format_cards(cards),
                "best_five": format_cards(best[p].cards) if p in best else "",
                "description": best[p].describe() if p in best else "",
            }
            for p, cards in sorted(shown.items())
        ],
        "results": [{"name": names[p], "won": w} for p, w in enumerate(result.winnings) if w != 0],
    }


def _headline(value: Any) -> str:
    """ "one pair, 12s" of "one pair, 12s — 陰陽12 木12 ..."."""
    return str(value.describe()).split(" — ")[0]


def why_won(pot: Any, best: dict[int, Any], names: Sequence[str]) -> str:
    """Why a pot went where it did, in the players' words: "Mixwell beats three of a
    kind", "both one pair: one pair, 12s beats one pair, 9s", "same two pair and ranks:
    the suits decide (see the rules)", "split: the same hand"."""
    winners = list(pot.winners)
    others = [p for p in pot.players if p not in winners and p in best]
    decided = pot.decided_by
    if decided == "uncontested" or (not others and len(winners) == 1):
        return f"{names[winners[0]]} took it uncontested" if winners else ""
    if decided == "tie" or (len(winners) > 1 and not others):
        return "split: " + " and ".join(names[p] for p in winners) + " have the same hand"
    if not winners or winners[0] not in best or not others:
        return str(decided)
    win = best[winners[0]]
    lose = max(others, key=lambda p: best[p].key)
    loser = best[lose]
    if decided == "category" or win.name != loser.name:
        return f"{win.name} beats {loser.name}"
    if decided == "suits":
        return (
            f"same {win.name} ({_headline(win)}) and the same ranks: the suits decide, "
            f"{names[winners[0]]}'s are higher (see the rules)"
        )
    return f"both {win.name}: {_headline(win)} beats {_headline(loser)}"


def describe(event: ev.Event, names: Sequence[str]) -> str:
    """One line of the hand log in words, with the players' names."""
    return narrate.describe(event, names, deals=True) or str(event)
