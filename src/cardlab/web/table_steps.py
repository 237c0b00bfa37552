"""The write-ahead order of one action at a web table, as data.

The hand runner (:meth:`cardlab.web.table_hand.HandRunner.plan`) checks an action and
returns its steps, in the order they must happen:

1. :class:`StoreAction` -- the action is written to the store;
2. :class:`ApplyAction` -- it is applied to the hand (skipped if the hand moved on or
   was cancelled while it was being stored);
3. :class:`Announce` -- every client is sent the new state;
4. :class:`NextDecision` -- the next decision's clock or bot, or the end of the hand.

A step that fails stops the ones after it: an action the store refused is never
applied nor announced. :func:`carry_out` does the steps at once (SQLite's commits take
microseconds); :func:`carry_out_off_loop` writes from a worker thread (PostgreSQL), so
the event loop serves the other tables while the server answers. Both are thin: what
each step does is the runner's (:class:`Doer`), and the order is tested on the records
alone (``tests/web/test_web_table_steps.py``), with no event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from cardlab.errors import ActionError, CardlabError
from cardlab.table import Action

__all__ = [
    "Announce",
    "ApplyAction",
    "Doer",
    "NextDecision",
    "Shell",
    "Step",
    "StoreAction",
    "carry_out",
    "carry_out_off_loop",
]


@dataclass(frozen=True, slots=True)
class StoreAction:
    """Write action ``seq`` of deal ``deal_number`` at ``table_id`` (PHH text)."""

    table_id: str
    deal_number: int
    seq: int
    text: str


@dataclass(frozen=True, slots=True)
class ApplyAction:
    """Apply ``action``, which answers the decision of ``turn``."""

    action: Action
    turn: int


@dataclass(frozen=True, slots=True)
class Announce:
    """Send every client the new state."""


@dataclass(frozen=True, slots=True)
class NextDecision:
    """Schedule who answers the next decision, or the end of the hand."""


Step = StoreAction | ApplyAction | Announce | NextDecision


class Doer(Protocol):
    """What carries out each step (the hand runner)."""

    def store(self, step: StoreAction) -> None:
        """Write the action (may run in a worker thread: touches no table state);
        raises :class:`~cardlab.errors.CardlabError` when the store refuses it."""
        ...

    def not_stored(self, step: StoreAction) -> None:
        """The store refused the action: it is not played."""
        ...

    def do(self, step: ApplyAction | Announce | NextDecision) -> bool:
        """Carry out a step on the event loop; False stops the steps after it."""
        ...


def _split(steps: Sequence[Step]) -> tuple[StoreAction | None, list[Step]]:
    """The write (if any) and the steps after it; a write anywhere but first is refused
    before anything is done."""
    later = [s for s in steps[1:] if isinstance(s, StoreAction)]
    if later:
        raise ValueError(f"an action is stored first, not after other steps: {later[0]!r}")
    if steps and isinstance(steps[0], StoreAction):
        return steps[0], list(steps[1:])
    return None, list(steps)


def _rest(doer: Doer, steps: Sequence[Step]) -> None:
    for step in steps:
        if isinstance(step, StoreAction) or not doer.do(step):
            return


def carry_out(doer: Doer, steps: Sequence[Step]) -> bool:
    """Do ``steps`` now, in order (a store on this machine); False when the store
    refused the action (nothing else was done)."""
    first, rest = _split(steps)
    if first is not None:
        try:
            doer.store(first)
        except CardlabError:
            doer.not_stored(first)
            return False
    _rest(doer, rest)
    return True


async def carry_out_off_loop(doer: Doer, steps: Sequence[Step]) -> bool:
    """:func:`carry_out` with the write in a worker thread (a store on a server)."""
    first, rest = _split(steps)
    if first is not None:
        try:
            await asyncio.to_thread(doer.store, first)
        except CardlabError:
            doer.not_stored(first)
            return False
    _rest(doer, rest)
    return True


class Shell:
    """The thin async shell of a table: carries out an action's steps at once
    (``off_loop`` False: SQLite), or as a task that writes from a worker thread
    (PostgreSQL), kept in ``storing_task`` while it runs (a task nobody holds may be
    collected)."""

    def __init__(self, doer: Doer, *, off_loop: bool) -> None:
        self.doer = doer
        self.off_loop = off_loop
        self.storing_task: asyncio.Task[bool] | None = None

    def __call__(self, steps: Sequence[Step]) -> None:
        """Carry out ``steps``; :class:`ActionError` when the store refused the action
        at once (off the loop the refusal is the task's result)."""
        if not self.off_loop:
            if not carry_out(self.doer, steps):
                raise ActionError("the server could not store the action: it was not played")
            return
        loop = asyncio.get_running_loop()
        self.storing_task = loop.create_task(carry_out_off_loop(self.doer, steps))
