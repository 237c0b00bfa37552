"""Multi-table tournaments: registration, the draw, balancing and breaking tables, one
blind clock for every table, places and payouts.

The rules (our own words for the Tournament Directors Association's "balancing
tables" and "breaking tables" rules):

- **Registration** is open until the start; names are unique (case and spacing
  ignored) and a tournament takes 2 to :data:`MAX_ENTRANTS` entrants.
- **The draw**: at the start, the entrants are shuffled by the tournament's seed and
  dealt to ``ceil(n / table_size)`` tables in turn (so table sizes differ by at most
  one), each to a seat drawn at random at its table.
- **Hands end table by table.** A table reports each hand it finishes
  (:meth:`Mtt.record_hand`), and only a table between hands gives up players: the
  moves returned are always *out of the table that reported*, carried out before it
  deals again. A player moved to a table in the middle of a hand waits for the next one.
- **Breaking**: when the players left fit in one table fewer, the table to break is the
  one with the fewest players (ties: the highest number, a fixed order). When it
  finishes its hand, each of its players goes, in a random order, to a random open seat
  at the table that has the fewest players then (ties: the lowest number), so the tables
  stay within one of each other.
- **Balancing**: when a table finishes a hand with two or more players more than the
  shortest table, it sends players, one at a time, to the shortest table until it is
  within one: first the player who would be big blind next at it (the table says who,
  in ``next_big_blinds``), then the next, each to a random open seat.
- **Hand for hand on the bubble**: while the next player out finishes just outside the
  money (one player more than the places paid) and more than one table plays, every
  table plays one hand at a time: a table that finished its hand of the round does not
  deal again (:meth:`Mtt.may_deal`) until every table that can deal has finished its
  own; then the next round starts. A round that bursts the bubble is played to its end.
- **The final table** is the last table left; nobody is redrawn.
- **Levels**: one schedule (:class:`~cardlab.table.tournament.Schedule`) for every
  table. Levels by minutes count the tournament's playing time; levels by hands count
  the hands of the table that has dealt the most, so no table lags behind the clock.
- **Places**: players out in the same hand are placed by the stacks they started it
  with (more chips, better place; equal stacks share their places and prizes); players
  out at different tables are placed in the order their hands are reported, except in a
  hand-for-hand round (the TDA's rule): there they tie, sharing the best of the places
  they cover and splitting those places' prizes (each share rounded down, the units left
  to the winner), while those out at one table keep their stacks' order
  (:meth:`Mtt._place_round`).
- **Payouts**: the buy-ins, paid by :func:`mtt_payouts`' percentage table.

>>> from cardlab.table.tournament import Level
>>> schedule = Schedule((Level((1, 2), 0, 0, 2, 4),), every=10)
>>> t = Mtt(MttRules(table_size=3, stack=100, schedule=schedule, buy_in=10), seed=1)
>>> for name in ("ann", "bob", "cy", "di", "ed"):
...     t.register(name)
>>> t.start()
>>> sorted(len(seats) for seats in t.tables.values())
[2, 3]
>>> sum(t.chips.values())
500
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardlab.errors import GameError
from cardlab.table.tournament import Schedule, Tournament, check_payouts, default_payouts

__all__ = ["MAX_ENTRANTS", "MAX_TABLE_SIZE", "Move", "Mtt", "MttRules", "mtt_payouts"]

MAX_ENTRANTS = 200
MAX_TABLE_SIZE = 10
MAX_NAME = 40

# percent of the prize pool by place, by the number of entrants (up to the first figure)
_PAYOUTS: tuple[tuple[int, tuple[int, ...]], ...] = (
    (18, (40, 25, 15, 12, 8)),
    (27, (35, 22, 15, 11, 9, 8)),
    (45, (30, 20, 14, 10, 8, 7, 6, 5)),
    (MAX_ENTRANTS, (28, 18, 12, 9, 7, 6, 5, 4, 4, 3, 2, 2)),
)


def mtt_payouts(entrants: int) -> tuple[int, ...]:
    """Percent of the prize pool by place: as a sit-and-go up to 10 entrants (winner
    takes all up to 3, 65/35 up to 6, 50/30/20 up to 10); then 5 places paid up to 18
    entrants, 6 up to 27, 8 up to 45 and 12 beyond."""
    if entrants <= 10:
        return default_payouts(entrants)
    for most, table in _PAYOUTS:
        if entrants <= most:
            return table
    return _PAYOUTS[-1][1]


def _name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


@dataclass(frozen=True, slots=True)
class MttRules:
    """What the host sets: seats per table (3 to 10), the starting stack, the schedule
    (one for every table), the buy-in and the payouts (None: :func:`mtt_payouts`)."""

    table_size: int
    stack: int
    schedule: Schedule
    buy_in: int = 0
    payouts: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        for what, value, low, high in (
            ("seats per table", self.table_size, 3, MAX_TABLE_SIZE),
            ("starting stack", self.stack, 2, 10**12),
            ("buy-in", self.buy_in, 0, 10**12),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise GameError(
                    f"a tournament's {what} is a whole number {low} to {high}, got {value!r}"
                )

    def as_dict(self) -> dict[str, Any]:
        return {
            "table_size": self.table_size,
            "stack": self.stack,
            "schedule": self.schedule.as_dict(),
            "buy_in": self.buy_in,
            "payouts": None if self.payouts is None else list(self.payouts),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MttRules:
        payouts = data.get("payouts")
        return cls(
            int(data["table_size"]),
            int(data["stack"]),
            Schedule.from_dict(data["schedule"]),
            int(data.get("buy_in", 0)),
            None if payouts is None else tuple(int(p) for p in payouts),
        )


@dataclass(frozen=True, slots=True)
class Move:
    """``player`` goes from ``seat`` of table ``source`` to ``to_seat`` of ``target``
    with ``chips``."""

    player: str
    source: int
    seat: int
    target: int
    to_seat: int
    chips: int


@dataclass
class Mtt:
    """One multi-table tournament; see the module documentation. ``tables``: table
    number -> seat -> player; ``chips``: each player's stack while in."""

    rules: MttRules
    seed: int = 0
    registered: list[str] = field(default_factory=list)
    tables: dict[int, dict[int, str]] = field(default_factory=dict)
    chips: dict[str, int] = field(default_factory=dict)
    hands: dict[int, int] = field(default_factory=dict)  # hands dealt by each table
    seconds: float = 0.0  # playing time, for levels by minutes
    results: Tournament | None = None  # places and prizes, once started
    draws: int = 0  # random draws made so far (the rng is replayed on a restore)
    round_done: set[int] = field(default_factory=set)  # hand for hand: tables that played
    # hand for hand: the players out in this round (name, table, starting stack, position)
    round_outs: list[tuple[str, int, int, int]] = field(default_factory=list)
    round_open: bool = False  # a round is being played (it may outlive the bubble)
    _rng: random.Random = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        for _ in range(self.draws):
            self._rng.random()

    def _random(self) -> float:
        self.draws += 1
        return self._rng.random()

    def _shuffle(self, items: list[Any]) -> None:
        # Fisher-Yates with the counted draws, so a restored tournament draws the same
        for i in range(len(items) - 1, 0, -1):
            j = int(self._random() * (i + 1))
            items[i], items[j] = items[j], items[i]

    # --- registration ----------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.results is not None

    def register(self, name: str) -> None:
        name = " ".join(str(name).split())
        if self.started:
            raise GameError("the tournament has started: registration is closed")
        if not name or len(name) > MAX_NAME:
            raise GameError(f"a player's name is 1 to {MAX_NAME} characters, got {name!r}")
        if any(_name_key(n) == _name_key(name) for n in self.registered):
            raise GameError(f"{name!r} is registered already")
        if len(self.registered) >= MAX_ENTRANTS:
            raise GameError(f"the tournament is full ({MAX_ENTRANTS} entrants)")
        self.registered.append(name)

    def unregister(self, name: str) -> None:
        if self.started:
            raise GameError("the tournament has started: nobody unregisters now")
        key = _name_key(str(name))
        found = [n for n in self.registered if _name_key(n) == key]
        if not found:
            raise GameError(f"{name!r} is not registered")
        self.registered.remove(found[0])

    def start(self) -> None:
        """The draw (see the module documentation)."""
        if self.started:
            raise GameError("the tournament has started already")
        n = len(self.registered)
        if n < 2:
            raise GameError(f"a tournament needs at least 2 entrants, got {n}")
        if self.rules.payouts is not None and len(self.rules.payouts) > n:
            raise GameError(f"{len(self.rules.payouts)} places paid but only {n} entrants")
        payouts = check_payouts(self.rules.payouts or mtt_payouts(n), n)
        self.results = Tournament(
            self.rules.schedule,
            dict(enumerate(self.registered)),
            buy_in=self.rules.buy_in,
            payouts=payouts,
        )
        players = list(self.registered)
        self._shuffle(players)
        count = self.tables_needed(n)
        self.tables = {k: {} for k in range(count)}
        for i, player in enumerate(players):
            table = i % count
            self.tables[table][self._open_seat(table)] = player
            self.chips[player] = self.rules.stack
        self.hands = {k: 0 for k in range(count)}

    def tables_needed(self, players: int) -> int:
        return max(1, -(-players // self.rules.table_size))

    def _open_seat(self, table: int) -> int:
        free = [s for s in range(self.rules.table_size) if s not in self.tables[table]]
        if not free:
            raise GameError(f"table {table + 1} has no open seat")
        return free[int(self._random() * len(free))]

    # --- the clock -------------------------------------------------------------------

    @property
    def schedule(self) -> Schedule:
        return self._results().schedule

    def _results(self) -> Tournament:
        if self.results is None:
            raise GameError("the tournament has not started")
        return self.results

    @property
    def level_index(self) -> int:
        """The level (from 0) of the next hand dealt at any table."""
        return self.schedule.index_at(max(self.hands.values(), default=0), self.seconds)

    def add_time(self, seconds: float) -> None:
        self.seconds += max(0.0, seconds)

    def next_in(self) -> dict[str, float]:
        s = self.schedule
        if s.unit == "hands":
            most = max(self.hands.values(), default=0)
            return {"hands": s.every - most % s.every}
        return {"seconds": round(60 * s.every - self.seconds % (60 * s.every), 1)}

    # --- hands, places and moves ----------------------------------------------------

    @property
    def playing(self) -> list[str]:
        return [p for seats in self.tables.values() for p in seats.values()]

    @property
    def over(self) -> bool:
        return self.results is not None and self.results.over

    @property
    def winner(self) -> str | None:
        return None if self.results is None else self.results.winner

    @property
    def final_table(self) -> bool:
        return self.started and len(self.tables) == 1

    @property
    def places_paid(self) -> int:
        return sum(1 for prize in self._results().prizes if prize > 0)

    @property
    def hand_for_hand(self) -> bool:
        """The bubble: the next player out finishes just outside the money, and more
        than one table plays (see the module documentation)."""
        if not self.started or self.over or len(self.tables) < 2:
            return False
        return len(self.playing) == self.places_paid + 1

    @property
    def in_round(self) -> bool:
        """A hand-for-hand round is being played: the bubble, or the end of the round
        in which it burst (the tables still playing their hand of it)."""
        return self.round_open or self.hand_for_hand

    def may_deal(self, table: int) -> bool:
        """Table ``table`` may deal its next hand (hand for hand: not before every table
        has played this round's hand, even when a player of the round went out in the
        money, since the players out in the round tie)."""
        return table in self.tables and table not in self.round_done

    def _end_of_round(self) -> None:
        """Hand for hand: once every table that can deal (two players or more) has
        played this round's hand, the round is over: the next starts on the bubble."""
        dealing = {k for k, seats in self.tables.items() if len(seats) >= 2}
        self.round_done &= set(self.tables)  # (a table broken after its hand of it)
        if self.round_open and dealing <= self.round_done:
            self.round_done.clear()
            self.round_outs.clear()
            self.round_open = False

    def table_of(self, player: str) -> tuple[int, int] | None:
        """(table, seat) of ``player`` while in."""
        for table, seats in self.tables.items():
            for seat, name in seats.items():
                if name == player:
                    return table, seat
        return None

    def record_hand(
        self,
        table: int,
        before: Mapping[int, int],
        after: Mapping[int, int],
        *,
        order: Sequence[int] = (),
        next_big_blinds: Sequence[int] = (),
    ) -> list[Move]:
        """Table ``table`` finished a hand: ``before`` and ``after`` are the stacks by
        seat of its players in it; ``order``: its seats by position (the odd unit of a
        shared prize); ``next_big_blinds``: its seats in the order they will be big
        blind from the next hand. Returns the moves out of this table, done at once."""
        t = self._results()
        if t.over:
            raise GameError("the tournament is over")
        seats = self.tables.get(table)
        if seats is None:
            raise GameError(f"table {table + 1} is not playing")
        stray = set(before) - set(seats)
        if stray:
            raise GameError(
                f"seats {sorted(s + 1 for s in stray)} of table {table + 1} have no player"
            )
        if sum(before.values()) != sum(after.get(s, 0) for s in before) or any(
            after.get(s, 0) < 0 for s in before
        ):
            raise GameError(f"table {table + 1}'s hand did not keep its chips: {before} -> {after}")
        self.hands[table] += 1
        in_round = self.in_round  # this hand is the table's hand of a hand-for-hand round
        ids = {name: i for i, name in enumerate(self.registered)}
        for seat in before:
            self.chips[seats[seat]] = after.get(seat, 0)
        out = [s for s in before if after.get(s, 0) <= 0]
        # places: the table's players out now, among everyone still in
        t.record_hand(
            {ids[seats[s]]: before[s] for s in before},
            {ids[seats[s]]: after.get(s, 0) for s in before},
            order=[ids[seats[s]] for s in order if s in seats],
        )
        position = {s: i for i, s in enumerate(order)}
        if in_round:
            self.round_outs += [
                (seats[s], table, before[s], position.get(s, len(order) + s)) for s in out
            ]
        for seat in out:
            del self.chips[seats.pop(seat)]
        if in_round and out:
            self._place_round()
        if t.over:
            winner = t.winner
            self.tables = {k: v for k, v in self.tables.items() if winner in v.values()}
            self.round_done.clear()
            self.round_outs.clear()
            self.round_open = False
            return []
        moves = self.between_hands(table, next_big_blinds)
        if in_round or self.hand_for_hand:
            self.round_done.add(table)
            self.round_open = True
        self._end_of_round()
        return moves

    def _place_round(self) -> None:
        """The players out in this hand-for-hand round, placed again together: those
        out at different tables tie, those out at one table (in its one hand of the
        round) keep the order of the stacks they started it with. So the players who
        started with the most chips at their table share the best places the round's
        players cover, then the next of each table, and so on (a player's rank at their
        table: how many players out there started with more chips)."""
        t = self._results()
        ids = {name: i for i, name in enumerate(self.registered)}
        rank = {
            name: sum(1 for o in self.round_outs if o[1] == table and o[2] > stack)
            for name, table, stack, _ in self.round_outs
        }
        groups = []
        for k in sorted(set(rank.values())):
            group = sorted(
                (o for o in self.round_outs if rank[o[0]] == k), key=lambda o: (o[1], o[3])
            )
            across = len({o[1] for o in group}) > 1
            groups.append(([ids[o[0]] for o in group], across))
        t.place_together(groups, len(self.playing) + 1)

    def between_hands(self, table: int, next_big_blinds: Sequence[int] = ()) -> list[Move]:
        """The moves out of ``table``, which is between hands (done at once): all its
        players if it is the table to break, else those that balance it. A table that
        cannot deal (one player left) is asked this while it waits."""
        if self.results is None or self.results.over or table not in self.tables:
            return []
        moves: list[Move] = []
        needed = self.tables_needed(len(self.playing))
        if needed < len(self.tables) and table == self.table_to_break():
            players = list(self.tables[table].items())
            self._shuffle(players)
            del self.tables[table]
            for seat, player in players:
                moves.append(self._move(player, table, seat, self._shortest()))
            self._end_of_round()  # the table broken may be the one the round waited for
            return moves
        queue = [s for s in dict.fromkeys(next_big_blinds) if s in self.tables[table]]
        queue += sorted(s for s in self.tables[table] if s not in queue)
        while queue:
            target = self._shortest(but=table)
            if target is None or len(self.tables[table]) - len(self.tables[target]) < 2:
                break
            seat = queue.pop(0)
            moves.append(self._move(self.tables[table].pop(seat), table, seat, target))
        return moves

    def _move(self, player: str, source: int, seat: int, target: int | None) -> Move:
        if target is None:  # pragma: no cover - breaking always leaves another table
            raise GameError("no table to move to")
        if source in self.tables:
            self.tables[source].pop(seat, None)
        to_seat = self._open_seat(target)
        self.tables[target][to_seat] = player
        return Move(player, source, seat, target, to_seat, self.chips[player])

    def _shortest(self, but: int | None = None) -> int | None:
        tables = [k for k in self.tables if k != but]
        return min(tables, key=lambda k: (len(self.tables[k]), k)) if tables else None

    def table_to_break(self) -> int | None:
        """The table broken next (None: the tables left are all needed)."""
        if self.tables_needed(len(self.playing)) >= len(self.tables):
            return None
        return min(self.tables, key=lambda k: (len(self.tables[k]), -k))

    def standings(self) -> list[dict[str, Any]]:
        """Players still in (most chips first, with their table), then the places."""
        t = self._results()
        rows = []
        table = t.standings({i: self.chips.get(n, 0) for i, n in enumerate(self.registered)})
        sharing = Counter(row["place"] for row in table if row["place"] is not None)
        for row in table:
            name = row["name"]
            where = self.table_of(name)
            rows.append(
                {
                    "place": row["place"],
                    "name": name,
                    "chips": self.chips.get(name) if row["place"] in (None, 1) else None,
                    "table": None if where is None else where[0] + 1,
                    "prize": row["prize"],
                    "out_hand": row["out_hand"],
                    # players who share the place (a tie: equal stacks, or hand for hand)
                    "tied": sharing[row["place"]] if row["place"] is not None else 0,
                }
            )
        return rows

    # --- saving ----------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.as_dict(),
            "seed": self.seed,
            "registered": list(self.registered),
            "tables": {str(k): {str(s): p for s, p in v.items()} for k, v in self.tables.items()},
            "chips": dict(self.chips),
            "hands": {str(k): v for k, v in self.hands.items()},
            "seconds": self.seconds,
            "results": None if self.results is None else self.results.as_dict(),
            "draws": self.draws,
            "round_done": sorted(self.round_done),
            "round_outs": [list(o) for o in self.round_outs],
            "round_open": self.round_open,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Mtt:
        results = data.get("results")
        return cls(
            MttRules.from_dict(data["rules"]),
            int(data.get("seed", 0)),
            [str(n) for n in data.get("registered", [])],
            {
                int(k): {int(s): str(p) for s, p in v.items()}
                for k, v in data.get("tables", {}).items()
            },
            {str(p): int(c) for p, c in data.get("chips", {}).items()},
            {int(k): int(v) for k, v in data.get("hands", {}).items()},
            float(data.get("seconds", 0.0)),
            None if results is None else Tournament.from_dict(results),
            int(data.get("draws", 0)),
            {int(k) for k in data.get("round_done", [])},
            [(str(n), int(k), int(c), int(p)) for n, k, c, p in data.get("round_outs", [])],
            # (saved before the field: a round was open while some table had played it)
            bool(data.get("round_open", bool(data.get("round_done")))),
        )
