"""The players' time banks at a web table: extra seconds a player adds to their clock
when they need to think longer.

Each person sitting down gets a bank of ``time_bank`` seconds (the host's setting; 0:
no time banks). While their clock runs, a request adds :data:`STEP` seconds from it (or
what is left); the bank refills to full every ``time_bank_refill`` hands the table plays
(0: never). A bank belongs to a sitting (:attr:`SeatInfo.sitting`): standing up and
sitting down again is a new bank, as at a casino's table.

:class:`TimeBank` owns the seconds left in each bank and the hand count of the last
refill; the room saves them with the table's state, and the extended deadline is the
:class:`~cardlab.web.table_clock.DecisionClock`'s, saved with the clock, so a restarted
server resumes both.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardlab.errors import ActionError
from cardlab.web.table_config import TableConfig
from cardlab.web.table_seats import SeatInfo

__all__ = ["STEP", "TimeBank"]

STEP = 10.0  # seconds one request adds


class TimeBank:
    """The time banks of one table; see the module documentation. ``hands()``: the hands
    the table has played."""

    def __init__(
        self,
        config: Callable[[], TableConfig],
        seats: Callable[[], Sequence[SeatInfo]],
        hands: Callable[[], int],
        *,
        saved: dict[str, Any] | None = None,
    ) -> None:
        self.config = config
        self.seats = seats
        self.hands = hands
        saved = saved or {}
        self.left: dict[str, float] = {
            str(k): max(0.0, float(v)) for k, v in dict(saved.get("left", {})).items()
        }
        self.refilled = int(saved.get("refilled", 0))  # hands played at the last refill

    def state(self) -> dict[str, Any]:
        return {"left": dict(self.left), "refilled": self.refilled}

    def _refill(self) -> None:
        every = self.config().time_bank_refill
        played = self.hands()
        if every > 0 and played - self.refilled >= every:
            self.left.clear()
            self.refilled = played - (played - self.refilled) % every

    def balance(self, seat: int) -> float:
        """Seconds left in the bank of the person in ``seat`` (from 0)."""
        self._refill()
        full = self.config().time_bank
        info = self.seats()[seat]
        if info.kind != "human" or full <= 0:
            return 0.0
        return min(full, self.left.get(info.sitting, full))

    def take(self, seat: int | None) -> float:
        """Take up to :data:`STEP` seconds from ``seat``'s bank; :class:`ActionError` when
        the table has no time banks or this one is empty."""
        if seat is None:
            raise ActionError("only a seated player has a time bank")
        if self.config().time_bank <= 0:
            raise ActionError("this table has no time bank (the host can give it one)")
        left = self.balance(seat)
        if left <= 0:
            every = self.config().time_bank_refill
            after = f": it refills every {every} hands" if every else ""
            raise ActionError(f"your time bank is empty{after}")
        amount = min(STEP, left)
        self.left[self.seats()[seat].sitting] = left - amount
        self._forget_gone()
        return amount

    def _forget_gone(self) -> None:
        """Keep only the banks of people seated now (a bank is per sitting)."""
        here = {s.sitting for s in self.seats() if s.kind == "human"}
        for sitting in list(self.left):
            if sitting not in here:
                del self.left[sitting]

    def shown(self) -> dict[str, Any] | None:
        """What every client is shown: each seat's seconds left (None: no time banks)."""
        config = self.config()
        if config.time_bank <= 0:
            return None
        self._refill()
        every = config.time_bank_refill
        return {
            "full": config.time_bank,
            "step": STEP,
            "refill_every": every or None,
            "refill_in": (every - (self.hands() - self.refilled) % every) if every else None,
            "seats": [round(self.balance(i), 1) for i in range(len(self.seats()))],
        }
