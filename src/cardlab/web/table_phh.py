"""A web table's finished hands as text: PHH histories, the showdown, the hand log.

Until the shared ``cardlab.table.history.to_phh`` helper lands, :func:`hand_phh` writes
the PHH text itself: the header fields of docs/phh.md (``variant``, ``antes``,
``blinds_or_straddles`` or ``bring_in``, the bet sizes, ``starting_stacks``), the
action lines (``str(event)`` of each history event PHH has a line for), then
``players``, ``finishing_stacks`` and cardlab's ``_deck``/``_game`` fields.

A history is written for one viewer: cards dealt face down to anybody else are ``??``
unless shown at the showdown, as at the table (:func:`cardlab.table.view.masked` has
the same rule); the store keeps the full history (``viewer="all"``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from cardlab.cards import format_cards
from cardlab.poker.hands import deciding_step
from cardlab.table import events as ev
from cardlab.table.showdown import showdown_keys
from cardlab.table.state import HandState
from cardlab.table.structure import Betting

_BASE_CODE = {"holdem": "T", "omaha": "O", "stud": "7S", "draw": "5CD"}
_BETTING_CODE = {Betting.NO_LIMIT: "N", Betting.POT_LIMIT: "P", Betting.FIXED_LIMIT: "F"}
ALL = -2  # the viewer who sees every card (the store)


@dataclass(frozen=True)
class FinishedHand:
    """What a table keeps of a finished hand to write its history for any viewer."""

    number: int
    header: tuple[tuple[str, Any], ...]
    footer: tuple[tuple[str, Any], ...]
    events: tuple[ev.Event, ...]
    seats: tuple[int, ...]  # the seat at each position
    shown: frozenset[int]  # positions whose cards were shown

    def phh(self, viewer_seat: int | str | None = "all") -> str:
        """The PHH text as the seat ``viewer_seat`` may see it ("all": everything)."""
        if viewer_seat == "all":
            position: int | None = ALL
        elif isinstance(viewer_seat, int) and viewer_seat in self.seats:
            position = self.seats.index(viewer_seat)
        else:
            position = None
        lines = [
            e.phh
            for e in (_mask(e, position, self.shown) for e in self.events)
            if e.phh is not None
        ]
        fields = [*self.header, ("actions", lines), *self.footer]
        return "".join(f"{key} = {_toml(value)}\n" for key, value in fields)


def finished(
    hand: HandState, number: int, seats: Sequence[int], names: Sequence[str]
) -> FinishedHand:
    """The record of the finished ``hand`` (positions to ``seats``, players ``names``)."""
    result = hand.result
    if result is None:
        raise ValueError("the hand is not over")
    game = hand.game
    stakes = game.stakes
    n = hand.players
    base = game.game.base.key
    header: list[tuple[str, Any]] = [
        ("variant", _BETTING_CODE[stakes.betting] + _BASE_CODE[base]),
        ("ante_trimming_status", stakes.ante_trimming),
        ("antes", _unreversed(stakes.antes, n, stakes.ante)),
    ]
    if base == "stud":
        header.append(("bring_in", stakes.bring_in))
    else:
        header.append(("blinds_or_straddles", _unreversed(stakes.blinds, n, 0)))
    if stakes.betting is Betting.FIXED_LIMIT:
        header += [("small_bet", stakes.small_bet), ("big_bet", stakes.big)]
    else:
        header.append(("min_bet", stakes.small_bet))
    header.append(("starting_stacks", list(hand.starting_stacks)))
    footer: list[tuple[str, Any]] = [
        ("hand", number),
        ("players", list(names)),
        ("finishing_stacks", list(result.finishing_stacks)),
        ("_deck", game.game.deck.name),
        ("_game", game.game.key),
    ]
    return FinishedHand(
        number,
        tuple(header),
        tuple(footer),
        tuple(hand.history),
        tuple(seats),
        frozenset(result.shown),
    )


def _unreversed(values: tuple[int, ...], n: int, every: int) -> list[int]:
    # PHH (like pokerkit) lists the forced bets as configured; heads-up the engine
    # swaps who posts which, as pokerkit does when it reads them
    return [every + v for v in (list(values[:n]) + [0] * max(0, n - len(values)))]


def _mask(event: ev.Event, viewer: int | None, shown: frozenset[int]) -> ev.Event:
    if viewer == ALL:
        return event
    if isinstance(event, ev.DealHole) and event.player != viewer and event.player not in shown:
        cards = tuple(c if up else None for c, up in zip(event.cards, event.up, strict=True))
        return replace(event, cards=cards)
    if isinstance(event, ev.Discard) and event.player != viewer:
        return ev.Discard(event.player, (None,) * len(event.cards))
    return event


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if "'" not in value and value.isprintable():
            return f"'{value}'"
        return json.dumps(value, ensure_ascii=False)
    return "[" + ", ".join(_toml(v) for v in value) + "]"


def phhs(hands: Sequence[str]) -> str:
    """Several histories as one ``.phhs`` file: ``[1]``, ``[2]``, ... tables."""
    return "\n".join(f"[{k}]\n{text}" for k, text in enumerate(hands, 1))


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
    shown = sorted(result.shown)
    keys = showdown_keys(hand, shown) if len(shown) > 1 else {}
    best = result.best_hands() if result.showdown and best_five else {}
    pots = []
    if not result.showdown:
        for a in result.awards:
            pots.append(
                {
                    "name": "main pot" if a.pot == 0 else f"side pot {a.pot}",
                    "amount": sum(a.amounts),
                    "players": [names[p] for p in a.players],
                    "winners": [names[p] for p in a.players],
                    "decided_by": "uncontested",
                }
            )
    for k, pot in enumerate(hand.pots() if result.showdown else []):
        contenders = [p for p in pot.players if p in keys]
        if len(contenders) < 2:
            winners = list(pot.players) if len(pot.players) == 1 else contenders
            decided = "uncontested"
        else:
            top = max(keys[p] for p in contenders)
            winners = [p for p in contenders if keys[p] == top]
            others = [keys[p] for p in contenders if keys[p] != top]
            decided = "tie" if len(winners) > 1 or not others else deciding_step(top, max(others))
        pots.append(
            {
                "name": "main pot" if k == 0 else f"side pot {k}",
                "amount": pot.amount,
                "players": [names[p] for p in pot.players],
                "winners": [names[p] for p in winners],
                "decided_by": decided,
            }
        )
    return {
        "showdown": result.showdown,
        "board": format_cards(result.board),
        "pots": pots,
        "hands": [
            {
                "name": names[p],
                "cards": format_cards(result.shown[p]),
                "best_five": format_cards(best[p].cards) if p in best else "",
                "description": best[p].describe() if p in best else "",
            }
            for p in shown
        ],
        "results": [{"name": names[p], "won": w} for p, w in enumerate(result.winnings) if w != 0],
    }


def describe(event: ev.Event, names: Sequence[str]) -> str:
    """One line of the hand log in words, with the players' names."""

    def who(p: int) -> str:
        return names[p] if 0 <= p < len(names) else f"p{p + 1}"

    def cards(cs: Sequence[Any]) -> str:
        return " ".join("??" if c is None else str(c) for c in cs)

    if isinstance(event, ev.PostAnte):
        return f"{who(event.player)} posts an ante of {event.amount}"
    if isinstance(event, ev.PostBlind):
        return f"{who(event.player)} posts a blind of {event.amount}"
    if isinstance(event, ev.DealHole):
        return f"{who(event.player)} is dealt {cards(event.cards)}"
    if isinstance(event, ev.DealBoard):
        return f"board: {cards(event.cards)}"
    if isinstance(event, ev.Fold):
        return f"{who(event.player)} folds"
    if isinstance(event, ev.CheckCall):
        p = who(event.player)
        return f"{p} checks" if event.amount == 0 else f"{p} calls {event.amount}"
    if isinstance(event, ev.BetRaise):
        return f"{who(event.player)} bets/raises to {event.amount}"
    if isinstance(event, ev.BringIn):
        return f"{who(event.player)} brings in for {event.amount}"
    if isinstance(event, ev.Discard):
        n = len(event.cards)
        if n == 0:
            return f"{who(event.player)} stands pat"
        if all(c is None for c in event.cards):
            return f"{who(event.player)} draws {n}"
        return f"{who(event.player)} discards {cards(event.cards)}"
    if isinstance(event, ev.ShowMuck):
        if event.cards is None:
            return f"{who(event.player)} mucks"
        return f"{who(event.player)} shows {cards(event.cards)}"
    if isinstance(event, ev.ReturnBet):
        return f"{event.amount} uncalled returned to {who(event.player)}"
    if isinstance(event, ev.Award):
        pot = "main pot" if event.pot == 0 else f"side pot {event.pot}"
        paid = ", ".join(f"{who(p)} {a}" for p, a in zip(event.players, event.amounts, strict=True))
        return f"{pot}: {paid}"
    return str(event)
