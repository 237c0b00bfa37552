"""A table's end and its seed reveals: what spans the other parts when the host closes
the table or someone asks to see the server seed.

:class:`Closing` owns whether the table is closed or closing; it gets the parts it acts
on in its constructor (the seeds, the hand runner, the seats, the clock, the
connections, the table's task) and never sees the room (docs/web-internals.md).
A closed table's hands, ledger and replays stay in the store for the people who sat at
it (docs/web-tables.md, "Closing a table").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from cardlab.errors import ActionError, CardlabError
from cardlab.web.table_audience import Audience
from cardlab.web.table_clock import DecisionClock
from cardlab.web.table_fair import TableSeeds
from cardlab.web.table_hand import HandRunner
from cardlab.web.table_outlets import Outlets, Tasks
from cardlab.web.table_seats import Seating

__all__ = ["Closing"]

log = logging.getLogger(__name__)


class Closing:
    """Closing the table (now, or at the end of the hand in play) and revealing its
    server seed (now between hands, else at the end of the hand)."""

    def __init__(
        self,
        out: Outlets,
        fair: TableSeeds,
        runner: HandRunner,
        seating: Seating,
        clock: DecisionClock,
        audience: Audience,
        tasks: Tasks,
        *,
        state: Callable[[], dict[str, Any]],
        on_closed: Callable[[], None],
    ) -> None:
        self.out, self.fair, self.runner, self.seating = out, fair, runner, seating
        self.clock, self.audience, self.tasks = clock, audience, tasks
        self.state, self.on_closed = state, on_closed
        self.closed = False  # the table is closed: its pages and files stay readable
        self.closing = False  # the host closes it at the end of the hand in play

    def accepting(self) -> bool:
        """New seats, hands and requests are taken (the table is not closing)."""
        return not (self.closed or self.closing)

    def mark_closed(self) -> None:
        """A table restored closed (its store says so): nothing runs, its pages stay."""
        self.closed = self.audience.closed = True

    # --- the seed ---------------------------------------------------------------------------

    def request_reveal(self, seat: int | None) -> None:
        """A seated person asks to reveal the server seed: now between hands, else at
        the end of the hand in play."""
        if seat is None:
            raise ActionError("only a seated player can ask to reveal the seed")
        if not self.runner.live():
            self.reveal()
        elif not self.fair.reveal_requested:
            self.fair.reveal_requested = True
            self.out.save()
            name = self.seating.seats[seat].name
            self.out.notice(f"{name} asked to reveal the seed: after this hand")
        self.out.notify()

    def reveal(self) -> None:
        old, seed = self.fair.reveal()
        self.runner.revealed(old, seed)
        self.out.save()
        self.out.notice(f"server seed {old[:12]}... revealed; a new seed is in use")

    # --- the end ----------------------------------------------------------------------------

    def request(self, *, now: bool = False) -> None:
        """The host closes the table: at once between hands; during a hand at its end,
        or (``now``) at once with the hand cancelled and every chip returned."""
        if self.closed:
            return
        if self.runner.live() and not now:
            self.closing = True
            self.out.notice("the host is closing the table after this hand")
            self.out.notify()
            return
        if self.runner.live():
            self.cancel_hand("the host closed the table")
        self.close()

    def cancel_hand(self, why: str) -> None:
        self.clock.stop()
        self.runner.cancel(why)

    def close(self) -> None:
        """Close now: reveal the seed, every person's stack to the ledger, the table
        marked closed in the store (its hands stay), every client told."""
        if self.closed:
            return
        self.closing = False
        store, table_id = self.out.store, self.out.table_id
        try:
            if self.runner.deals > 0 or self.runner.finished:
                self.reveal()
            with store.transaction():
                self.seating.stand_up_everyone()
                store.close_table(table_id, self.state())
        except CardlabError:
            log.exception("closing table %s", table_id)
        self.mark_closed()
        self.out.notice("the table is closed")
        self.out.notify()
        self.tasks.cancel()
        self.on_closed()
