"""A web table that plays a sit-and-go (:mod:`cardlab.table.tournament`).

:class:`Director` owns the tournament, the level of the hand dealt last and the mark of
its playing time. The tournament starts with the seats taken when the first hand is
dealt (nobody joins after that; a seat with no chips is out for good), each hand is
dealt at its level (the level is recorded with the deal, so a restarted server resumes
the hand at the same stakes), and after each hand the seats that lost their last chip
get their places. A person who leaves or sits out stays in: their cards are dealt and
the clock plays for them at once (check if free, else fold) until they come back or
are blinded out. Time-based levels count the time hands are being dealt: neither a
host's pause nor a server restart uses up a level. The final standings are written to
the store (``tournament_results``) with the table's state.

A table of a multi-table tournament (:mod:`cardlab.web.mtt`) is a cash-format table
whose director has a ``link`` (:class:`TableLink`): the tournament sets each hand's
level, is told each hand's stacks, and moves players in and out between hands.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from cardlab.errors import ActionError
from cardlab.table import Session, TableGame
from cardlab.table.tournament import Tournament, default_payouts
from cardlab.web.table_blinds import CashBlinds
from cardlab.web.table_config import TableConfig
from cardlab.web.table_errors import TableFull
from cardlab.web.table_outlets import Outlets
from cardlab.web.table_seats import SeatInfo

__all__ = ["STAKES_SETTINGS", "Director", "TableLink"]

STAKES_SETTINGS = frozenset({"blinds", "ante", "bring_in", "small_bet", "big_bet", "betting"})


class TableLink(Protocol):
    """A multi-table tournament's side of one of its tables (:mod:`cardlab.web.mtt`)."""

    def before_deal(self) -> int: ...

    def may_deal(self) -> bool: ...

    def resume_level(self, level: int) -> None: ...

    def after_hand(self, before: dict[int, int]) -> None: ...

    def payload(self) -> dict[str, Any]: ...


class Director:
    """The sit-and-go of one table (nothing at a cash table); see the module
    documentation. ``config`` and ``game``: the table's settings and game now;
    ``seats``: who sits where."""

    def __init__(
        self,
        outlets: Outlets,
        session: Session,
        config: Callable[[], TableConfig],
        game: Callable[[], TableGame],
        seats: Callable[[], Sequence[SeatInfo]],
        tournament: Tournament | None = None,
        cash: CashBlinds | None = None,
    ) -> None:
        self.out = outlets
        self.cash = cash  # a cash table's timed blinds (table_blinds)
        self.session = session
        self.config = config
        self.game = game
        self.seats = seats
        self.tournament = tournament  # once the first hand is dealt
        self.level: int | None = None  # the level of the hand dealt last
        self.mark: float | None = None  # time-based levels: counting since
        self.link: TableLink | None = None  # a table of a multi-table tournament

    @property
    def held(self) -> bool:
        """The table plays a sit-and-go or a multi-table tournament's table."""
        return self.on or self.link is not None

    @property
    def on(self) -> bool:
        """The table plays a tournament."""
        return self.config().tournament

    def state(self) -> dict[str, Any] | None:
        return None if self.tournament is None else self.tournament.as_dict()

    def start(self) -> Tournament:
        """The tournament of the seats taken now (the first deal)."""
        entrants = {
            i: s.name
            for i, s in enumerate(self.seats())
            if s.kind != "open" and self.session.seats[i].stack > 0
        }
        config = self.config()
        payouts = config.payouts
        if payouts is not None and len(payouts) > len(entrants):
            self.out.notice(
                f"{len(payouts)} places were to be paid but {len(entrants)} play: "
                "the usual payouts apply"
            )
            payouts = None
        if payouts is None:
            payouts = default_payouts(len(entrants))
        t = Tournament(
            config.schedule(), entrants, buy_in=config.tournament_buy_in, payouts=payouts
        )
        self.tournament = t
        self.out.notice(f"the tournament starts: {len(entrants)} players")
        return t

    def may_deal(self) -> bool:
        """The tournament lets this table deal its next hand (a multi-table one plays
        hand for hand on the bubble: a table waits for the others' hands)."""
        return self.link is None or self.link.may_deal()

    def before_deal(self) -> int | None:
        """Set the stakes of the hand about to be dealt; returns its level (from 0), at a
        cash table its timed blinds' level (None: it has none)."""
        if self.link is not None:
            return self.link.before_deal()
        if not self.on:
            return None if self.cash is None else self.cash.before_deal()
        t = self.tournament or self.start()
        if t.schedule.unit == "minutes":
            self.tick()
        index = t.level_index
        game = self.game()
        if index != self.level:
            stakes = t.schedule.level(index).describe(game.stakes.betting)
            self.out.notice(f"level {index + 1}: {stakes}")
            self.level = index
        self.session.game = t.game_for(game, index)
        return index

    def tick(self, *, stop: bool = False) -> None:
        """Count the playing time since the last tick (``stop``: the clock stops until
        the next tick, for a pause)."""
        t = self.tournament
        now = self.out.clock()
        if t is not None and self.mark is not None:
            t.add_time(now - self.mark)
        self.mark = None if stop else now

    def resume_level(self, start_fields: dict[str, Any]) -> None:
        """A resumed hand plays at the level it was dealt at."""
        if self.link is not None and "level" in start_fields:
            self.link.resume_level(int(start_fields["level"]))
            return
        t = self.tournament
        if t is None and not self.on and self.cash is not None:
            self.cash.resume_level(start_fields)
        if t is not None and "level" in start_fields:
            self.session.game = t.game_for(self.game(), int(start_fields["level"]))
            self.level = int(start_fields["level"])
        elif t is None and self.on and "level" in start_fields:
            # a multi-table tournament's table resumed before its tournament links it:
            # the tournament's schedule is made from this table's own fields
            index = int(start_fields["level"])
            self.session.game = self.config().schedule().level(index).apply(self.game())

    def after_hand(self, before: dict[int, int]) -> None:
        """Give the places of the seats that went out in the hand just ended."""
        if self.link is not None:
            self.link.after_hand(before)
            return
        t = self.tournament
        if t is None or t.over:
            return
        after = {seat: self.session.seats[seat].stack for seat in before}
        for entry in t.record_hand(before, after, order=list(before)):
            prize = f" and wins {entry.prize}" if entry.prize else ""
            if entry.place == 1:
                self.out.notice(f"{entry.name} wins the tournament{prize}")
            else:
                self.out.notice(f"{entry.name} is out in place {entry.place}{prize}")
        if t.over:
            self.out.store.save_results(self.out.table_id, t.standings(self._chips()))

    def _chips(self) -> dict[int, int]:
        return {i: s.stack for i, s in enumerate(self.session.seats) if s.stack > 0}

    @property
    def over(self) -> bool:
        return self.tournament is not None and self.tournament.over

    # --- what the other parts may not do during a tournament ------------------------------

    def check_join(self) -> None:
        if self.link is not None:
            raise TableFull("a multi-table tournament seats its players: register in its lobby")
        if self.on and self.tournament is not None:
            raise TableFull("the tournament has started: nobody joins now (you may watch)")

    def check_rebuy(self) -> None:
        if self.held:
            raise ActionError(
                "a tournament has no rebuys: everyone plays the chips they started with"
            )

    def check_settings(self, data: dict[str, Any]) -> None:
        if self.held and STAKES_SETTINGS & set(data):
            raise ActionError(
                "a tournament's stakes follow its schedule: the host can change the clock, "
                "the bot delay, the pause and the table's name"
            )

    def stays_in(self, seat: int) -> bool:
        """A tournament seat with chips is not given up by leaving: it is blinded away."""
        if self.link is not None:
            return self.session.seats[seat].stack > 0
        t = self.tournament
        return (
            t is not None
            and not t.over
            and seat in t.playing
            and self.session.seats[seat].stack > 0
        )

    # --- what clients see -----------------------------------------------------------------

    def ledger(self) -> dict[str, Any] | None:
        """A sit-and-go's side of the ledger (None at a cash table): each entrant's
        buy-in, place and prize, and their net (the prize less the buy-in); chips are
        the tournament's, not money, so they settle nothing."""
        if not self.on or self.link is not None:  # a multi-table one: its lobby has them
            return None
        t = self.tournament
        buy_in = self.config().tournament_buy_in
        if t is None:
            return {"buy_in": buy_in, "started": False, "players": [], "prizes": []}
        rows = [
            {
                "player": row["name"],
                "seat": row["seat"],
                "place": row["place"],
                "prize": row["prize"] or 0,
                "buy_in": buy_in,
                "net": (row["prize"] or 0) - buy_in,
            }
            for row in t.standings(self._chips())
        ]
        return {"buy_in": buy_in, "started": True, "players": rows, "prizes": list(t.prizes)}

    def payload(self, live: bool) -> dict[str, Any] | None:
        """What every client is shown of the tournament (None at a cash table);
        ``live``: a hand is in play."""
        if self.link is not None:
            return self.link.payload()
        if not self.on:
            return None
        t = self.tournament
        config = self.config()
        seats = self.seats()
        schedule = t.schedule if t is not None else config.schedule()
        betting = self.game().stakes.betting
        index = t.level_index if t is not None else 0
        if (live or (t is not None and t.over)) and self.level is not None:
            index = self.level  # the level of the hand in play (or the last one)
        entrants = len(t.entrants) if t is not None else sum(1 for s in seats if s.kind != "open")
        next_in: dict[str, float]
        if t is None:
            next_in = (
                {"hands": schedule.every}
                if schedule.unit == "hands"
                else {"seconds": 60.0 * schedule.every}
            )
        else:
            next_in = t.next_in()
            if "seconds" in next_in and self.mark is not None:
                left = next_in["seconds"] - (self.out.clock() - self.mark)
                next_in = {"seconds": round(max(0.0, left), 1)}
        standings = (
            t.standings(self._chips())
            if t is not None
            else [
                {
                    "place": None,
                    "seat": i + 1,
                    "name": s.name,
                    "chips": self.session.seats[i].stack,
                    "prize": None,
                    "out_hand": None,
                }
                for i, s in enumerate(seats)
                if s.kind != "open"
            ]
        )
        level = schedule.level(index)
        return {
            "started": t is not None,
            "level": index + 1,
            # the levels written; past them the bets double with no end (None)
            "levels": len(schedule.levels) if index < len(schedule.levels) else None,
            "stakes": level.describe(betting),
            "next": schedule.level(index + 1).describe(betting),
            "next_in": next_in,
            "every": schedule.every,
            "unit": schedule.unit,
            "entrants": entrants,
            # the winner is left when it is over (no place is "left" among none)
            "players_left": (1 if t.over else len(t.playing)) if t is not None else entrants,
            "buy_in": config.tournament_buy_in,
            "prizes": list(t.prizes) if t is not None else [],
            "standings": standings,
            "over": t is not None and t.over,
            "winner": None if t is None else t.winner,
        }
