"""The host's controls of a web table: the table's settings (changed by the host from
the next hand) and the pause between hands.

:class:`HostControls` owns the settings in force (``config``, and the ``game`` they
make), the settings waiting for the next hand and whether the host paused the table.
The host's seat operations (remove a player, seat a bot, hand the table over, answer
seat requests) are :class:`~cardlab.web.table_seats.Seating`'s; closing the table is
the room's (:mod:`cardlab.web.table_room`), which has every part to close.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from cardlab.errors import ActionError, CardlabError
from cardlab.table import Session
from cardlab.web.table_config import HOUSE_FIELDS, TableConfig, parse_config
from cardlab.web.table_outlets import Outlets

__all__ = ["SETTINGS", "HostControls"]

SETTINGS = (
    "blinds",
    "ante",
    "bring_in",
    "small_bet",
    "big_bet",
    "betting",
    "clock",
    "bot_delay",
    "pause",
    "runout_pause",
    "max_buy_in",
    "max_missed",
    "public",
    "name",
    "approve_seats",
    "new_players",
    "time_bank",
    "time_bank_refill",
    "blind_levels",
    "blind_minutes",
    "hud",
    "run_it",
    *HOUSE_FIELDS,
)


def _allowed(_data: dict[str, Any]) -> None:
    return None


class HostControls:
    """The settings and the pause of one table; see the module documentation.
    ``live()``: a hand is in play; ``check(data)``: refuses a change the table's kind
    does not allow (a tournament's stakes); ``on_pause(paused)``: the room's follow-up
    (a tournament's clock stops or runs again), before the table is saved."""

    def __init__(
        self,
        outlets: Outlets,
        session: Session,
        config: TableConfig,
        *,
        paused: bool = False,
        live: Callable[[], bool] = lambda: False,
        check: Callable[[dict[str, Any]], None] = _allowed,
        on_pause: Callable[[bool], None] = lambda paused: None,
    ) -> None:
        self.out = outlets
        self.session = session
        self.config = config
        self.game = config.table_game()
        self.paused = paused
        self.next_config: TableConfig | None = None  # the host's settings for next hand
        self.live = live
        self.check = check
        self.on_pause = on_pause

    def pause(self, paused: bool = True) -> None:
        """The host stops dealing after the hand in play, or deals again."""
        self.paused = paused
        self.on_pause(paused)
        self.out.save()
        self.out.notice("the host paused the table" if paused else "the host resumed")
        self.out.notify()

    def change_settings(self, data: dict[str, Any]) -> None:
        """The host changes the stakes, clock, bot delay, pause or limits: from the next
        hand (checked now: a refused change changes nothing)."""
        unknown = sorted(str(k)[:30] for k in data if k not in SETTINGS)
        self.check(data)
        if unknown:
            raise ActionError(
                f"the host can change {', '.join(SETTINGS)}; not {', '.join(unknown)}"
            )
        self.next_config = parse_config(self.config.as_dict() | data, saved=True, changed=True)
        if self.live():
            self.out.notice("the host changed the settings: from the next hand")
        else:
            self.apply_next()
            self.out.notice("the host changed the settings")
        self.out.notify()

    def apply_next(self) -> None:
        """Between hands: the settings the host changed come into force."""
        if self.next_config is None:
            return
        self.config, self.next_config = self.next_config, None
        self.game = self.config.table_game()
        self.session.game = self.game
        with contextlib.suppress(CardlabError):
            self.out.save()
