"""Multi-table tournaments on the web: a lobby of registrations, then tables that play
as every web table does, balanced and broken between hands (the rules are
:mod:`cardlab.table.mtt`'s; docs/tournaments.md).

:class:`MttHall` holds every tournament of the process by id, saved in the store
(``mtt_tournaments``) after every change and restored with the tables when the server
starts. :class:`MttRun` is one tournament: its :class:`~cardlab.table.mtt.Mtt`, the web
table (a :class:`~cardlab.web.table_room.Room`) of each table number, who registered
(a person by their browser's hash, or a bot the host added) and the host. Each table is
a tournament-format table whose director has an :class:`MttTable` link: the tournament
gives it the level of each hand (one clock for all tables), is told each hand's stacks,
and then stands up the players who went out and moves players to other tables (between
hands of the table they leave; a player moved to a table in the middle of a hand is
dealt in from the next). A moved person keeps their browser's seat: the lobby and the
old table's page say where they sit now. On the bubble the tables play hand for hand: a
table that played its hand of the round does not deal (its director asks
:meth:`MttTable.may_deal`) until every other table has played its own; the table whose
hand ends the round wakes the others.

Each table's hand is stored in one transaction with everything the tournament records of
it (:meth:`MttRun.after_hand` runs inside :meth:`~cardlab.web.table_hand.HandRunner.finish`'s
transaction: places, players out and moved, the other tables' seats, the ledger), and the
start (the draw and every table) is one transaction too, so a server killed at any point
restarts with all of it or none of it.

Levels by minutes count the time since the start (the tables' pauses do not stop the
tournament's clock; a server restart does). The tables of a tournament run in one
process: with ``cardlab web --redis`` tournaments are not offered.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from cardlab.bots import get_bot
from cardlab.errors import ActionError, CardlabError, GameError
from cardlab.table.mtt import MAX_ENTRANTS, Move, Mtt, MttRules
from cardlab.table.tournament import check_payouts
from cardlab.web.table_config import check_name, parse_config
from cardlab.web.table_seats import SeatInfo

if TYPE_CHECKING:
    from cardlab.web.table_manager import TableManager
    from cardlab.web.table_room import Room

log = logging.getLogger(__name__)

__all__ = ["MttHall", "MttNotFound", "MttRun", "MttTable"]

MAX_MTTS = 50  # open tournaments a process keeps
# what the tables of a tournament take from the creation request
TABLE_FIELDS = (
    "game",
    "stack",
    "levels",
    "level_hands",
    "level_minutes",
    "tournament_buy_in",
    "payouts",
    "clock",
    "pause",
    "bot_delay",
    "betting",
)


class MttNotFound(GameError):
    """No tournament has that id."""


class NotMttHost(GameError):
    """Only the tournament's host may do that."""


class MttTable:
    """Table ``number`` of a tournament: the link its director calls
    (:class:`~cardlab.web.table_tournament.TableLink`)."""

    def __init__(self, run: MttRun, number: int, room: Room) -> None:
        self.run, self.number, self.room = run, number, room

    def before_deal(self) -> int:
        return self.run.before_deal(self)

    def may_deal(self) -> bool:
        return self.run.mtt.may_deal(self.number)

    def resume_level(self, level: int) -> None:
        self.room.session.game = self.run.mtt.schedule.level(level).apply(self.room.game)

    def after_hand(self, before: dict[int, int]) -> None:
        self.run.after_hand(self, before)

    def payload(self) -> dict[str, Any]:
        return self.run.table_payload(self)


class MttRun:
    """One tournament; see the module documentation. ``table_config``: the set-up of
    its tables (:func:`~cardlab.web.table_config.parse_config`'s fields)."""

    def __init__(
        self,
        hall: MttHall,
        mtt_id: str,
        mtt: Mtt,
        table_config: dict[str, Any],
        host_sha256: str,
        *,
        name: str = "",
        entrants: dict[str, dict[str, str]] | None = None,
        table_ids: dict[int, str] | None = None,
    ) -> None:
        self.hall, self.id, self.mtt = hall, mtt_id, mtt
        self.table_config = table_config
        self.host_sha256 = host_sha256
        self.name = name
        # player name -> {"kind": "human" | "bot", "token_sha256" | "bot"}
        self.entrants: dict[str, dict[str, str]] = dict(entrants or {})
        self.table_ids: dict[int, str] = dict(table_ids or {})
        self.links: dict[int, MttTable] = {}
        self.level: int | None = None  # the level announced last
        self.mark: float | None = None  # levels by minutes: counting since

    # --- the lobby ------------------------------------------------------------------

    def is_host(self, browser: str | None) -> bool:
        return bool(browser) and secrets.compare_digest(self.host_sha256, str(browser))

    def entrant_of(self, browser: str | None) -> str | None:
        if not browser:
            return None
        for name, who in self.entrants.items():
            token = who.get("token_sha256", "")
            if token and secrets.compare_digest(token, browser):
                return name
        return None

    def register(self, data: dict[str, Any], browser: str) -> str:
        """A person registers (``name``), or the host registers a bot (``bot``, and
        ``name`` optionally; labelled "NAME bot K"). Returns the name registered."""
        bot = data.get("bot")
        if bot is not None:
            if not self.is_host(browser):
                raise NotMttHost("only the tournament's host registers bots")
            if not isinstance(bot, str):
                raise ActionError(f"a bot is named by a string: {bot!r:.40}")
            kind = get_bot(bot).name
            given = data.get("name")
            # a bot is labelled so (as at the tables): "NAME bot K" or "KIND bot K"
            count = sum(1 for who in self.entrants.values() if who["kind"] == "bot") + 1
            name = f"{kind if given is None else check_name(given)} bot {count}"
            self.mtt.register(name)
            self.entrants[name] = {"kind": "bot", "bot": kind}
        else:
            if self.entrant_of(browser) is not None:
                raise ActionError("this browser is registered already")
            name = check_name(data.get("name"))
            self.mtt.register(name)
            self.entrants[name] = {"kind": "human", "token_sha256": browser}
        self.save()
        return name

    def unregister(self, data: dict[str, Any], browser: str | None) -> None:
        """A person takes back their registration; the host, anyone's (``name``)."""
        name = data.get("name")
        if name is not None and not self.is_host(browser):
            raise NotMttHost("only the tournament's host unregisters another player")
        if name is None:
            name = self.entrant_of(browser)
            if name is None:
                raise ActionError("this browser is not registered")
        if not isinstance(name, str):
            raise ActionError(f"a player's name is text: {name!r:.40}")
        self.mtt.unregister(name)
        found = [n for n in self.entrants if n.casefold() == " ".join(name.split()).casefold()]
        for n in found:
            if n not in self.mtt.registered:
                del self.entrants[n]
        self.save()

    def start(self, browser: str | None) -> None:
        """The host starts it: the draw, and a web table for each table of it."""
        if not self.is_host(browser):
            raise NotMttHost("only the tournament's host starts it")
        self.mtt.start()
        # one transaction: a server killed in the middle leaves no table of a tournament
        # that did not start
        with self.hall.manager.store.transaction():
            for number in sorted(self.mtt.tables):
                data = self.table_config | {
                    "seats": self.mtt.rules.table_size,
                    "format": "tournament",
                    "name": f"{self.name or 'tournament'}: table {number + 1}"[:60],
                    "bots": {},
                }
                room = self.hall.manager.create(data, self.host_sha256)
                self.table_ids[number] = room.id
                self.links[number] = MttTable(self, number, room)
                room.director.link = self.links[number]
                room.seating.started = True
                for seat, player in self.mtt.tables[number].items():
                    self._seat(room, seat, player, self.mtt.chips[player])
            self.mark = self.hall.clock()
            for link in self.links.values():
                link.room.save()
            self.save()
        for link in self.links.values():
            link.room.wake()
            link.room.notify()

    def _seat(
        self, room: Room, seat: int, player: str, chips: int, was: SeatInfo | None = None
    ) -> None:
        """Seat ``player`` (``was``: their seat at the table they left, whose token and
        sitting out they keep)."""
        who = self.entrants[player]
        if who["kind"] == "bot":
            info = SeatInfo("bot", player, who["bot"])
        else:
            token = who["token_sha256"] if was is None else was.token_sha256
            info = SeatInfo("human", player, token_sha256=token)
            info.sitting = secrets.token_urlsafe(12) if was is None else was.sitting
            info.sitting_out = False if was is None else was.sitting_out
            room.seating.sat.setdefault(who["token_sha256"], []).append(info.sitting)
        room.seating.seats[seat] = info
        room.session.seats[seat].name = player
        room.session.seats[seat].stack = chips
        room.store.add_ledger(room.id, seat, player, "buy-in", chips)

    def _unseat(self, room: Room, seat: int) -> SeatInfo:
        info = room.seating.seats[seat]
        chips = room.session.seats[seat].stack
        room.seating.seats[seat] = SeatInfo("open", f"seat {seat + 1}")
        room.session.seats[seat].name = f"seat {seat + 1}"
        room.session.seats[seat].stack = 0
        room.store.add_ledger(room.id, seat, info.name, "cash-out", chips)
        room.audience.unseat(seat)
        return info

    # --- the tables -----------------------------------------------------------------

    def before_deal(self, table: MttTable) -> int:
        """The level of the hand ``table`` deals now (its stakes set)."""
        if self.mtt.schedule.unit == "minutes":
            now = self.hall.clock()
            if self.mark is not None:
                self.mtt.add_time(now - self.mark)
            self.mark = now
        index = self.mtt.level_index
        room = table.room
        if index != self.level:
            self.level = index
            stakes = self.mtt.schedule.level(index).describe(room.game.stakes.betting)
            for link in self.links.values():
                link.room.director.out.notice(f"level {index + 1}: {stakes}")
        room.session.game = self.mtt.schedule.level(index).apply(room.game)
        return index

    def after_hand(self, table: MttTable, before: dict[int, int]) -> None:
        """Places, players out stood up, and the moves out of ``table`` (then of any
        table that waits with one player)."""
        room = table.room
        session = room.session
        after = {seat: session.seats[seat].stack for seat in before}
        order = session.next_order()
        # the seats in the order they will be big blind: the big blind comes second
        next_big = order[1:] + order[:1] if len(order) > 1 else order
        placed_before = {
            r["name"]: (r["place"], r["prize"])
            for r in self.mtt.standings()
            if r["place"] is not None
        }
        hand_for_hand = self.mtt.hand_for_hand
        in_round = self.mtt.in_round  # (a round goes on after the bubble bursts in it)
        try:
            moves = self.mtt.record_hand(
                table.number, before, after, order=list(before), next_big_blinds=next_big
            )
        except CardlabError:
            log.exception(
                "tournament %s: table %d's hand could not be placed", self.id, table.number
            )
            return
        touched = {table.number}
        for seat in before:
            if after[seat] <= 0 and room.seating.seats[seat].kind != "open":
                self._unseat(room, seat)
        for row in self.mtt.standings():
            self._announce(row, placed_before.get(row["name"]))
        touched |= self._apply(moves)
        touched |= self._settle_waiting(exclude=table.number)
        if self.mtt.hand_for_hand and not hand_for_hand:
            self._notice_all(
                f"hand for hand: {len(self.mtt.playing)} players left and "
                f"{self.mtt.places_paid} paid, every table plays one hand at a time"
            )
        elif hand_for_hand and not self.mtt.hand_for_hand and not self.mtt.over:
            self._notice_all(
                "the bubble burst: the tables play on at their own pace"
                + (" once every table has played this round's hand" if self.mtt.in_round else "")
            )
        if in_round or self.mtt.in_round:  # a table that waited may deal now
            touched |= {k for k in self.mtt.tables if self.mtt.may_deal(k)}
        self._save_all(touched, skip=table.number)

    def _announce(self, row: dict[str, Any], was: tuple[int, int] | None) -> None:
        """Say a player's new place (or their place shared now: players out in the same
        hand-for-hand round at different tables tie)."""
        place, name = row["place"], row["name"]
        if place is None or was == (place, row["prize"]):
            return
        prize = f" and wins {row['prize']}" if row["prize"] else ""
        tied = f" (tied with {row['tied'] - 1} other{'s' * (row['tied'] > 2)})" * (row["tied"] > 1)
        if place == 1:
            self._notice_all(f"{name} wins the tournament{prize}")
        elif was is None:
            self._notice_all(f"{name} is out in place {place}{tied}{prize}")
        else:
            self._notice_all(f"{name} now shares place {place}{tied}{prize}")

    def _settle_waiting(self, exclude: int) -> set[int]:
        """Tables that cannot deal (one player) give their players up now."""
        touched: set[int] = set()
        for number in sorted(self.mtt.tables):
            link = self.links.get(number)
            if number == exclude or link is None or link.room.live():
                continue
            if len(self.mtt.tables[number]) < 2:
                moves = self.mtt.between_hands(number)
                if moves:
                    touched |= {number} | self._apply(moves)
        return touched

    def _apply(self, moves: list[Move]) -> set[int]:
        touched: set[int] = set()
        for m in moves:
            source = self.links[m.source].room
            target = self.links[m.target].room
            info = self._unseat(source, m.seat)
            self._seat(target, m.to_seat, m.player, m.chips, info)
            source.director.out.notice(f"{m.player} moves to table {m.target + 1}")
            target.director.out.notice(f"{m.player} joins from table {m.source + 1}")
            touched |= {m.source, m.target}
        for number in touched:
            if number not in self.mtt.tables:
                self.links[number].room.director.out.notice(
                    "this table is broken: its players were moved to the other tables"
                )
        if len(self.mtt.tables) == 1 and moves:
            self._notice_all("the final table")
        return touched

    def _notice_all(self, text: str) -> None:
        for number in self.mtt.tables:
            self.links[number].room.director.out.notice(text)

    def _save_all(self, touched: set[int], skip: int | None = None) -> None:
        """Save the tournament and the tables changed (``skip``: the table whose hand
        just ended saves itself with the hand)."""
        store = self.hall.manager.store
        try:
            with store.transaction():
                for number in touched - {skip}:
                    self.links[number].room.save()
                self.save()
        except CardlabError:
            log.exception("tournament %s could not be saved", self.id)
        for number in touched:
            room = self.links[number].room
            room.notify()
            if number != skip:
                with contextlib.suppress(RuntimeError):
                    room.pace.maybe_deal()

    # --- what clients see -----------------------------------------------------------

    def url(self) -> str:
        return f"/tournaments/{self.id}"

    def table_payload(self, table: MttTable) -> dict[str, Any]:
        """What a table's page shows of the tournament (the sit-and-go's fields)."""
        mtt = self.mtt
        schedule = mtt.schedule
        betting = table.room.game.stakes.betting
        index = mtt.level_index if self.level is None else self.level
        seats = {p: s for s, p in mtt.tables.get(table.number, {}).items()}
        standings = [
            r | {"seat": None if r["name"] not in seats else seats[r["name"]] + 1}
            for r in mtt.standings()
        ]
        return {
            "started": True,
            "level": index + 1,
            "levels": len(schedule.levels) if index < len(schedule.levels) else None,
            "stakes": schedule.level(index).describe(betting),
            "next": schedule.level(index + 1).describe(betting),
            "next_in": mtt.next_in(),
            "every": schedule.every,
            "unit": schedule.unit,
            "entrants": len(mtt.registered),
            "players_left": 1 if mtt.over else len(mtt.playing),
            "buy_in": mtt.rules.buy_in,
            "prizes": list(mtt.results.prizes) if mtt.results is not None else [],
            "standings": standings,
            "over": mtt.over,
            "winner": mtt.winner,
            "mtt": {
                "id": self.id,
                "lobby": self.url(),
                "table": table.number + 1,
                "tables": len(mtt.tables),
                "broken": table.number not in mtt.tables,
                "final_table": mtt.final_table,
                # the bubble: every table plays one hand at a time (this one may wait)
                "hand_for_hand": mtt.hand_for_hand,
                "waiting": table.number in mtt.tables and not mtt.may_deal(table.number),
            },
        }

    def lobby(self, browser: str | None) -> dict[str, Any]:
        """The lobby as ``browser`` sees it: the rules, who registered, the tables and
        the standings, and where the caller sits."""
        mtt = self.mtt
        me = self.entrant_of(browser)
        where = None if me is None or not mtt.started else mtt.table_of(me)
        tables = [
            {
                "table": k + 1,
                "url": f"/tables/{self.table_ids[k]}",
                "players": len(mtt.tables[k]),
                "status": self.links[k].room.status() if k in self.links else "",
            }
            for k in sorted(mtt.tables)
            if k in self.table_ids
        ]
        schedule = mtt.rules.schedule
        return {
            "id": self.id,
            "name": self.name,
            "url": self.url(),
            "game": self.table_config.get("game"),
            "table_size": mtt.rules.table_size,
            "stack": mtt.rules.stack,
            "buy_in": mtt.rules.buy_in,
            "payouts": None if mtt.rules.payouts is None else list(mtt.rules.payouts),
            "schedule": [lv.describe() for lv in schedule.levels],
            "every": schedule.every,
            "unit": schedule.unit,
            "registered": list(mtt.registered),
            "started": mtt.started,
            "over": mtt.over,
            "winner": mtt.winner,
            "level": None if not mtt.started else mtt.level_index + 1,
            "final_table": mtt.final_table,
            "hand_for_hand": mtt.started and mtt.hand_for_hand,
            "tables": tables,
            "standings": mtt.standings() if mtt.started else [],
            "prizes": list(mtt.results.prizes) if mtt.results is not None else [],
            "host": self.is_host(browser),
            "you": None
            if me is None
            else {
                "name": me,
                "table": None if where is None else where[0] + 1,
                "seat": None if where is None else where[1] + 1,
                "table_url": None if where is None else f"/tables/{self.table_ids[where[0]]}",
            },
        }

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "url": self.url(),
            "game": self.table_config.get("game"),
            "registered": len(self.mtt.registered),
            "started": self.mtt.started,
            "over": self.mtt.over,
        }

    # --- saving ---------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        return {
            "mtt": self.mtt.as_dict(),
            "table_config": self.table_config,
            "host_sha256": self.host_sha256,
            "name": self.name,
            "entrants": self.entrants,
            "table_ids": {str(k): v for k, v in self.table_ids.items()},
            "level": self.level,
        }

    def save(self) -> None:
        self.hall.manager.store.save_mtt(self.id, self.as_dict(), closed=self.mtt.over)


def _payouts(raw: object) -> tuple[int, ...] | None:
    """The ``payouts`` of a creation request: percents by place (None: the usual)."""
    if raw is None:
        return None
    if (
        not isinstance(raw, list)
        or not 1 <= len(raw) <= MAX_ENTRANTS
        or any(isinstance(p, bool) or not isinstance(p, int) for p in raw)
    ):
        raise ActionError(
            f"field 'payouts' must be a list of 1 to {MAX_ENTRANTS} whole percents: {raw!r:.60}"
        )
    return check_payouts(raw, MAX_ENTRANTS)  # GameError: says what is wrong


class MttHall:
    """Every tournament of the process by id (see the module documentation); the
    tables are ``manager``'s."""

    def __init__(self, manager: TableManager, *, clock: Any = time.monotonic) -> None:
        self.manager = manager
        self.clock = clock
        self.runs: dict[str, MttRun] = {}
        if manager.keeper is None:
            self._restore()

    def _restore(self) -> None:
        store = self.manager.store
        if not hasattr(store, "mtts"):  # a test's store that keeps tables only
            return
        try:
            records = store.mtts()
        except CardlabError:
            log.exception("the tournaments could not be read from the store")
            return
        for record in records:
            try:
                self._load(record.mtt_id, record.state)
            except (CardlabError, KeyError, TypeError, ValueError):
                log.exception("tournament %r could not be restored", record.mtt_id)

    def _load(self, mtt_id: str, state: dict[str, Any]) -> MttRun:
        run = MttRun(
            self,
            mtt_id,
            Mtt.from_dict(state["mtt"]),
            dict(state["table_config"]),
            str(state["host_sha256"]),
            name=str(state.get("name", "")),
            entrants={str(k): dict(v) for k, v in state.get("entrants", {}).items()},
            table_ids={int(k): str(v) for k, v in state.get("table_ids", {}).items()},
        )
        run.level = state.get("level")
        for number, table_id in run.table_ids.items():
            room = self.manager.rooms.get(table_id)
            if room is None:
                kept = self.manager.closed.get(table_id)
                room = None if kept is None else kept[0]
            if room is None:
                if number in run.mtt.tables:
                    raise GameError(f"table {number + 1} ({table_id}) is missing")
                continue
            run.links[number] = MttTable(run, number, room)
            room.director.link = run.links[number]
        if run.mtt.started:
            run.mark = self.clock()
        self.runs[mtt_id] = run
        return run

    def create(self, data: dict[str, Any], host_sha256: str) -> MttRun:
        """A new tournament, open for registration; ``data``: ``name``, ``table_size``
        and the tables' fields (:data:`TABLE_FIELDS`)."""
        if self.manager.keeper is not None:
            raise GameError("tournaments run in one process: this server runs several")
        if sum(1 for r in self.runs.values() if not r.mtt.over) >= MAX_MTTS:
            raise GameError(f"the server has {MAX_MTTS} open tournaments, its limit")
        unknown = set(data) - set(TABLE_FIELDS) - {"name", "table_size"}
        if unknown:
            raise ActionError(f"unknown tournament fields: {', '.join(sorted(unknown))[:80]}")
        fields = {k: data[k] for k in TABLE_FIELDS if k in data}
        # a tournament pays places across its tables (more than one table's seats)
        payouts = _payouts(fields.pop("payouts", None))
        size = data.get("table_size", 9)
        config = parse_config(
            fields | {"seats": size, "format": "tournament", "game": data.get("game", "")}
        )
        rules = MttRules(
            config.seats, config.stack, config.schedule(), config.tournament_buy_in, payouts
        )
        name = data.get("name", "")
        if not isinstance(name, str) or len(name) > 60:
            raise ActionError(f"a tournament's name is text of up to 60 characters: {name!r:.40}")
        mtt_id = secrets.token_urlsafe(16)
        run = MttRun(
            self,
            mtt_id,
            Mtt(rules, seed=secrets.randbits(64)),
            fields,
            host_sha256,
            name=" ".join(name.split()),
        )
        run.save()
        self.runs[mtt_id] = run
        return run

    def get(self, mtt_id: str) -> MttRun:
        run = self.runs.get(mtt_id)
        if run is None:
            raise MttNotFound(f"no tournament {mtt_id[:40]!r} (the link may be wrong)")
        return run
