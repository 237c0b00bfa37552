"""Timed blinds at a cash table: the host's schedule of stakes, each level lasting a
number of minutes of play (``blind_levels`` like "1/2, 2/4, 5/10+1", ``blind_minutes``).

:class:`CashBlinds` owns the playing time counted for the schedule in force, the level
of the hand dealt last and its mark. It counts as a sit-and-go's clock does
(:mod:`cardlab.web.table_tournament`): time passes from one deal to the next, a host's
pause stops it, and a server restart does not use up a level (the seconds are saved
with the table's state; the time the server was down is not counted). Each hand is
dealt at its level and the level is recorded with the deal, so a hand resumed after a
restart is played at the stakes it was dealt at. When the host writes another schedule,
it starts again at its first level; with none, the table's own stakes apply.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardlab.table import Session, TableGame
from cardlab.table.tournament import Schedule
from cardlab.web.table_config import TableConfig
from cardlab.web.table_outlets import Outlets

__all__ = ["CashBlinds"]


class CashBlinds:
    """The timed blinds of one cash table; see the module documentation. ``config`` and
    ``game``: the table's settings and game now."""

    def __init__(
        self,
        outlets: Outlets,
        session: Session,
        config: Callable[[], TableConfig],
        game: Callable[[], TableGame],
        *,
        saved: dict[str, Any] | None = None,
    ) -> None:
        self.out = outlets
        self.session = session
        self.config = config
        self.game = game
        # the schedule the time is counted for (a new table: its own)
        self.counting: str | None = config().blind_levels if saved is None else saved.get("levels")
        saved = saved or {}
        self.seconds = max(0.0, float(saved.get("seconds", 0.0)))
        level = saved.get("level")
        self.level: int | None = None if level is None else int(level)  # of the last deal
        self.mark: float | None = None  # counting since (None: stopped)

    def state(self) -> dict[str, Any]:
        return {"seconds": round(self.seconds, 3), "levels": self.counting, "level": self.level}

    def schedule(self) -> Schedule | None:
        config = self.config()
        schedule = config.cash_schedule()
        if schedule is None or config.blind_levels != self.counting:
            self.seconds, self.level, self.mark = 0.0, None, None
            self.counting = None if schedule is None else config.blind_levels
        return schedule

    def tick(self, *, stop: bool = False) -> None:
        """Count the playing time since the last tick (``stop``: until the next tick)."""
        now = self.out.clock()
        if self.mark is not None:
            self.seconds += max(0.0, now - self.mark)
        self.mark = None if stop else now

    def index(self, schedule: Schedule) -> int:
        return schedule.index_at(0, self.seconds)

    def before_deal(self) -> int | None:
        """Set the stakes of the hand about to be dealt; its level (from 0), None when
        the table has no timed blinds."""
        schedule = self.schedule()
        if schedule is None:
            return None
        self.tick()
        index = self.index(schedule)
        if index != self.level:
            stakes = schedule.level(index).describe(self.game().stakes.betting)
            self.out.notice(f"level {index + 1}: {stakes}")
            self.level = index
        self.session.game = schedule.level(index).apply(self.game())
        return index

    def resume_level(self, start: dict[str, Any]) -> None:
        """A resumed hand plays at the level it was dealt at."""
        schedule = self.schedule()
        if schedule is not None and "level" in start:
            self.level = int(start["level"])
            self.session.game = schedule.level(self.level).apply(self.game())

    def shown(self) -> dict[str, Any] | None:
        """What every client is shown (None: no timed blinds): the level and its stakes,
        the next level's and the seconds until it."""
        schedule = self.schedule()
        if schedule is None:
            return None
        seconds = self.seconds
        if self.mark is not None:
            seconds += max(0.0, self.out.clock() - self.mark)
        index = schedule.index_at(0, seconds)
        shown = self.level if self.level is not None else index
        betting = self.game().stakes.betting
        length = 60.0 * schedule.every
        return {
            "level": shown + 1,
            "stakes": schedule.level(shown).describe(betting),
            "next": schedule.level(index + 1).describe(betting),
            "next_in": round(length - seconds % length, 1),
            "minutes": schedule.every,
            "running": self.mark is not None,
        }
