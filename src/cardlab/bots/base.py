"""The bot protocol: see a seat's view, return an action.

A bot gets the :class:`~cardlab.table.view.SeatView` of its own seat (so it cannot see
hidden cards) and a :class:`random.Random` owned by whoever runs it (so a bot is
deterministic given the seed), and returns an :class:`~cardlab.table.actions.Action`
among the legal ones (``view.legal``). Any object with ``name`` and ``act`` is a bot.
"""

from __future__ import annotations

import importlib
import random
from typing import Protocol, runtime_checkable

from cardlab.errors import GameError
from cardlab.table.actions import Action
from cardlab.table.view import SeatView


@runtime_checkable
class Bot(Protocol):
    name: str

    def act(self, view: SeatView, rng: random.Random) -> Action: ...


class RandomBot:
    """Uniform over the legal kinds of action (a raise to a uniform legal amount;
    in a draw, a uniform number of uniform cards; always shows at the showdown)."""

    name = "random"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if legal is None:
            raise GameError("the random bot was asked to act out of turn")
        if legal.phase.value == "draw":
            hole = list(view.hole)
            return Action.discard(tuple(rng.sample(hole, rng.randint(0, len(hole)))))
        if legal.phase.value == "showdown":
            return Action.show()
        kinds: list[Action] = []
        if legal.fold:
            kinds.append(Action.fold())
        if legal.call is not None:
            kinds.append(Action.call())
        if legal.bring_in is not None:
            kinds.append(Action.bring_in())
        if legal.raise_min is not None and legal.raise_max is not None:
            kinds.append(Action.raise_to(rng.randint(legal.raise_min, legal.raise_max)))
        return rng.choice(kinds)


class StationBot:
    """A calling station: always checks or calls (brings in when it must, stands pat,
    shows)."""

    name = "station"

    def act(self, view: SeatView, rng: random.Random) -> Action:
        legal = view.legal
        if legal is None:
            raise GameError("the station bot was asked to act out of turn")
        if legal.phase.value == "draw":
            return Action.discard()
        if legal.phase.value == "showdown":
            return Action.show()
        if legal.call is not None:
            return Action.call()
        return Action.bring_in()


BOTS: dict[str, str] = {
    "random": "cardlab.bots.base:RandomBot",
    "station": "cardlab.bots.base:StationBot",
    "equity": "cardlab.bots.equity:EquityBot",
    "pushfold": "cardlab.bots.pushfold:PushFoldBot",
    "nash": "cardlab.bots.nash:NashBot",
}
"""Bot name -> "module:class" (imported when first asked for)."""


def get_bot(name: str) -> Bot:
    """A new bot by name (``random``, ``station``, ``equity``, ``pushfold``)."""
    if not isinstance(name, str):
        raise GameError(f"a bot name is text, got {name!r}")
    target = BOTS.get(name.strip().lower())
    if target is None:
        raise GameError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    module, attr = target.split(":")
    bot: Bot = getattr(importlib.import_module(module), attr)()
    return bot
