"""What a room's connections are sent, drawn from its parts: the payload of
:mod:`~cardlab.web.table_payload` for each viewer (with the extras' annotations) and the
table's status line. Only the room's facade (:mod:`~cardlab.web.table_room`) builds it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from cardlab.web.table_audience import Audience
from cardlab.web.table_chat import Chat
from cardlab.web.table_clock import DecisionClock
from cardlab.web.table_closing import Closing
from cardlab.web.table_extras import Extras
from cardlab.web.table_fair import TableSeeds
from cardlab.web.table_hand import HandRunner
from cardlab.web.table_host import HostControls
from cardlab.web.table_odds import TableOdds
from cardlab.web.table_pace import Pace
from cardlab.web.table_payload import payload, status
from cardlab.web.table_seats import Seating
from cardlab.web.table_tournament import Director


class View:
    """What a room's connections are sent, drawn from its parts: :func:`payload` for a
    viewer (with the extras' annotations) and the :func:`status` line."""

    def __init__(
        self,
        table_id: str,
        notices: Callable[[], list[str]],
        *,
        controls: HostControls,
        seating: Seating,
        runner: HandRunner,
        director: Director,
        fair: TableSeeds,
        chat: Chat,
        audience: Audience,
        clock: DecisionClock,
        ending: Closing,
        pace: Pace,
        extras: Extras,
        away: Callable[[], bool] = lambda: False,
        odds: TableOdds | None = None,
    ) -> None:
        self.table_id, self.notices = table_id, notices
        self.controls, self.seating, self.runner = controls, seating, runner
        self.director, self.fair, self.chat = director, fair, chat
        self.audience, self.clock = audience, clock
        self.ending, self.pace, self.extras = ending, pace, extras
        self.away = away  # the table's store is unreachable (table_gate)
        self.odds = odds  # the exact all-in odds and each player's hints (table_odds)

    def status(self) -> str:
        return status(
            runner=self.runner, seating=self.seating, director=self.director,
            closed=self.ending.closed, closing=self.ending.closing,
            paused=self.controls.paused, can_deal=self.pace.can_deal, away=self.away(),
        )  # fmt: skip

    def payload(self, seat: int | None, *, host: bool = False) -> dict[str, Any]:
        return self.extras.annotate(payload(
            seat, host=host, table_id=self.table_id, controls=self.controls,
            seating=self.seating, runner=self.runner, director=self.director, fair=self.fair,
            chat=self.chat, notices=self.notices(), connected=self.audience.seats(),
            clock=self.clock.remaining(), status=self.status(), closed=self.ending.closed,
            closing=self.ending.closing, odds=self.odds,
        ))  # fmt: skip

    def render(self, seat: int | None, host: bool) -> str:
        return json.dumps(self.payload(seat, host=host), ensure_ascii=False)
