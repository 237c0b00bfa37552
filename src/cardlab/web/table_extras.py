"""What a home game has besides the hands (issue 33): the players' time banks, a cash
table's timed blinds, avatars and emoji reactions, the HUD and the coach.

:class:`Extras` holds those parts, saves the state they keep across a restart (the
time banks, the blinds' playing time, the avatars) with the table's, adds what they
show to each client's state, and does what follows a hand (the coach's review, the
HUD's new figures). It is given the table's outlets and callables for the parts it asks
(the seats, the hand runner, the decision clock), like every part of the room
(:mod:`cardlab.web.table_room`), which wires it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardlab.errors import ActionError
from cardlab.table import Session, TableGame
from cardlab.web.table_blinds import CashBlinds
from cardlab.web.table_clock import DecisionClock
from cardlab.web.table_coach import Coach, Matrices
from cardlab.web.table_config import TableConfig
from cardlab.web.table_faces import Faces
from cardlab.web.table_hand import HandRunner
from cardlab.web.table_hud import Hud
from cardlab.web.table_outlets import Outlets
from cardlab.web.table_seats import SeatInfo
from cardlab.web.table_timebank import TimeBank

__all__ = ["Extras"]


class Extras:
    """The home game's parts of one table (see the module documentation): ``bank``,
    ``blinds``, ``faces``, ``hud`` and ``coach``. ``muted(author)``: the chat's mute."""

    def __init__(
        self,
        outlets: Outlets,
        session: Session,
        config: Callable[[], TableConfig],
        game: Callable[[], TableGame],
        seats: Callable[[], Sequence[SeatInfo]],
        *,
        runner: Callable[[], HandRunner],
        clock: Callable[[], DecisionClock],
        muted: Callable[[str | None], bool],
        saved: dict[str, Any] | None = None,
        matrices: Matrices | None = None,
    ) -> None:
        saved = saved or {}
        self.out = outlets
        self.session = session
        self.seats = seats
        self.runner = runner
        self.clock = clock
        self.blinds = CashBlinds(outlets, session, config, game, saved=saved.get("blinds"))

        def hands() -> int:
            return session.hands_played

        self.bank = TimeBank(config, seats, hands, saved=saved.get("time_bank"))
        self.faces = Faces(seats, muted=muted, on_change=outlets.notify, saved=saved.get("faces"))
        self.hud = Hud(outlets, config, hands)
        self.coach = Coach(config, seats, matrices=matrices)
        self.reviewed: int | None = None  # the last hand the coach and the HUD saw

    def state(self) -> dict[str, Any]:
        return {
            "time_bank": self.bank.state(),
            "blinds": self.blinds.state(),
            "faces": self.faces.state(),
        }

    def after_change(self, pace: Callable[[], None]) -> None:
        """After a deal or an action (the runner's ``on_change``): what comes next
        (``pace``), then once per finished hand the coach's review and the HUD's new
        figures."""
        pace()
        runner, hand = self.runner(), self.session.hand
        number = runner.last_number
        if number is None or number == self.reviewed or hand is None or not hand.is_over:
            return
        self.reviewed = number
        order, sittings = list(self.session.order), list(runner.hand_sittings)
        self.coach.after_hand(number, hand, order, sittings)
        self.hud.update()

    def on_pause(self, paused: bool) -> None:
        if self.blinds.counting is not None:
            self.blinds.tick(stop=paused)

    def use_time_bank(self, seat: int | None) -> float:
        """The player to act adds seconds from their time bank to their clock (saved with
        the table and the clock); the seconds added."""
        hand = self.session.hand
        acting = None if hand is None or hand.actor is None else self.session.seat_of(hand.actor)
        if seat is None or acting != seat or not self.runner().live():
            raise ActionError("the time bank is for the player to act, while their clock runs")
        clock = self.clock()
        if clock.deadline is None:
            raise ActionError("no clock runs for your decision: take your time")
        added = self.bank.take(seat)
        clock.extend(added)
        self.out.save()
        self.out.notice(f"{self.seats()[seat].name} takes {added:g} s from the time bank")
        self.out.notify()
        return added

    def annotate(self, out: dict[str, Any]) -> dict[str, Any]:
        """Add what these parts show to a client's state ``out`` (and return it)."""
        seats = self.seats()
        for row, info in zip(out["seats"], seats, strict=True):
            row["avatar"] = self.faces.avatar_of(info)
        out["time_bank"] = self.bank.shown()
        out["blind_clock"] = self.blinds.shown()
        if out["blind_clock"] is not None:  # the level's stakes, not the table's first ones
            betting = self.session.game.stakes.betting.value
            out["table"]["stakes"] = f"{betting}, {out['blind_clock']['stakes']}"
        out["hud"] = self.hud.shown([s.name if s.kind != "open" else "" for s in seats])
        out["reactions"] = self.faces.recent()
        return out
