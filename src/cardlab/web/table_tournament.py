"""A web table that plays a sit-and-go (:mod:`cardlab.table.tournament`).

The room calls these hooks: the tournament starts with the seats taken when the first
hand is dealt (nobody joins after that; a seat with no chips is out for good), each
hand is dealt at its level (the level is recorded with the deal, so a restarted server
resumes the hand at the same stakes), and after each hand the seats that lost their
last chip get their places. A person who leaves or sits out stays in: their cards are
dealt and the clock plays for them at once (check if free, else fold) until they come
back or are blinded out. Time-based levels count the time hands are being dealt:
neither a host's pause nor a server restart uses up a level. The final standings are
written to the store (``tournament_results``) with the table's state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardlab.errors import ActionError
from cardlab.table.tournament import Tournament, default_payouts
from cardlab.web.table_errors import TableFull

if TYPE_CHECKING:
    from cardlab.web.table_room import Room

STAKES_SETTINGS = frozenset({"blinds", "ante", "bring_in", "small_bet", "big_bet", "betting"})


def start(room: Room) -> Tournament:
    """The tournament of the seats taken now (the first deal)."""
    entrants = {
        i: s.name
        for i, s in enumerate(room.seats)
        if s.kind != "open" and room.session.seats[i].stack > 0
    }
    config = room.config
    payouts = config.payouts
    if payouts is not None and len(payouts) > len(entrants):
        room.notices.append(
            f"{len(payouts)} places were to be paid but {len(entrants)} play: "
            "the usual payouts apply"
        )
        payouts = None
    if payouts is None:
        payouts = default_payouts(len(entrants))
    t = Tournament(config.schedule(), entrants, buy_in=config.tournament_buy_in, payouts=payouts)
    room.tournament = t
    room.notices.append(f"the tournament starts: {len(entrants)} players")
    return t


def before_deal(room: Room) -> int | None:
    """Set the stakes of the hand about to be dealt; returns its level (from 0)."""
    if not room.config.tournament:
        return None
    t = room.tournament or start(room)
    if t.schedule.unit == "minutes":
        tick(room)
    index = t.level_index
    if index != room.tournament_level:
        stakes = t.schedule.level(index).describe(room.game.stakes.betting)
        room.notices.append(f"level {index + 1}: {stakes}")
        room.tournament_level = index
    room.session.game = t.game_for(room.game, index)
    return index


def tick(room: Room, *, stop: bool = False) -> None:
    """Count the playing time since the last tick (``stop``: the clock stops until the
    next tick, for a pause)."""
    t = room.tournament
    now = room.clock()
    if t is not None and room.tournament_mark is not None:
        t.add_time(now - room.tournament_mark)
    room.tournament_mark = None if stop else now


def resume_level(room: Room, start_fields: dict[str, Any]) -> None:
    """A resumed hand plays at the level it was dealt at."""
    t = room.tournament
    if t is not None and "level" in start_fields:
        room.session.game = t.game_for(room.game, int(start_fields["level"]))
        room.tournament_level = int(start_fields["level"])


def after_hand(room: Room, before: dict[int, int]) -> None:
    """Give the places of the seats that went out in the hand just ended."""
    t = room.tournament
    if t is None or t.over:
        return
    after = {seat: room.session.seats[seat].stack for seat in before}
    for entry in t.record_hand(before, after, order=list(before)):
        prize = f" and wins {entry.prize}" if entry.prize else ""
        if entry.place == 1:
            room.notices.append(f"{entry.name} wins the tournament{prize}")
        else:
            room.notices.append(f"{entry.name} is out in place {entry.place}{prize}")
    if t.over:
        room.store.save_results(room.id, t.standings(_chips(room)))


def _chips(room: Room) -> dict[int, int]:
    return {i: s.stack for i, s in enumerate(room.session.seats) if s.stack > 0}


def is_over(room: Room) -> bool:
    return room.tournament is not None and room.tournament.over


def check_join(room: Room) -> None:
    if room.config.tournament and room.tournament is not None:
        raise TableFull("the tournament has started: nobody joins now (you may watch)")


def check_rebuy(room: Room) -> None:
    if room.config.tournament:
        raise ActionError("a tournament has no rebuys: everyone plays the chips they started with")


def check_settings(room: Room, data: dict[str, Any]) -> None:
    if room.config.tournament and STAKES_SETTINGS & set(data):
        raise ActionError(
            "a tournament's stakes follow its schedule: the host can change the clock, "
            "the bot delay, the pause and the table's name"
        )


def stays_in(room: Room, seat: int) -> bool:
    """A tournament seat with chips is not given up by leaving: it is blinded away."""
    return (
        room.tournament is not None
        and not room.tournament.over
        and seat in room.tournament.playing
        and room.session.seats[seat].stack > 0
    )


def payload(room: Room) -> dict[str, Any] | None:
    """What every client is shown of the tournament (None at a cash table)."""
    if not room.config.tournament:
        return None
    t = room.tournament
    config = room.config
    schedule = t.schedule if t is not None else config.schedule()
    betting = room.game.stakes.betting
    index = t.level_index if t is not None else 0
    if (room.live() or (t is not None and t.over)) and room.tournament_level is not None:
        index = room.tournament_level  # the level of the hand in play (or the last one)
    entrants = len(t.entrants) if t is not None else sum(1 for s in room.seats if s.kind != "open")
    next_in: dict[str, float]
    if t is None:
        next_in = (
            {"hands": schedule.every}
            if schedule.unit == "hands"
            else {"seconds": 60.0 * schedule.every}
        )
    else:
        next_in = t.next_in()
        if "seconds" in next_in and room.tournament_mark is not None:
            left = next_in["seconds"] - (room.clock() - room.tournament_mark)
            next_in = {"seconds": round(max(0.0, left), 1)}
    standings = (
        t.standings(_chips(room))
        if t is not None
        else [
            {
                "place": None,
                "seat": i + 1,
                "name": s.name,
                "chips": room.session.seats[i].stack,
                "prize": None,
                "out_hand": None,
            }
            for i, s in enumerate(room.seats)
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
        "players_left": len(t.playing) if t is not None else entrants,
        "buy_in": config.tournament_buy_in,
        "prizes": list(t.prizes) if t is not None else [],
        "standings": standings,
        "over": t is not None and t.over,
        "winner": None if t is None else t.winner,
    }
