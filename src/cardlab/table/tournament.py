"""Sit-and-go tournaments: a blind schedule, eliminations, standings and payouts.

Everyone starts with the same stack; the forced bets rise level by level (every so many
hands or minutes); a seat that loses its last chip is out, and the last seat with chips
wins. Places are given as seats go out: of the seats out in the same hand, the one that
started the hand with more chips finishes higher; seats that started it with the same
stack share their places and the prizes of those places. The prize pool is the buy-ins,
paid by place (default: winner takes all up to 3 entrants, 65/35 up to 6, 50/30/20 up
to 10).

A :class:`Level` holds every forced bet of a game, so the schedule fits any base game:
blinds (and antes from the fourth level) in Hold'em, Omaha and Draw; the ante, the
bring-in and the small and big bets in Stud; fixed-limit bets rise with the blinds.
The default schedule climbs the usual ladder of round numbers (20, 30, 40, 60, 80,
100, 150, ...) from a big blind of about 1/75 of the starting stack; past the last
level the bets keep doubling, so a tournament always ends.

>>> from cardlab.table import TableGame
>>> game = TableGame.create("fesca78-holdem")
>>> schedule = Schedule.default(game, 1500)
>>> [schedule.level(i).describe() for i in (0, 1, 3)]
['blinds 10/20', 'blinds 15/30', 'blinds 30/60, ante 6']
>>> t = Tournament(schedule, {0: "ann", 1: "bob", 2: "cy"}, buy_in=10)
>>> t.record_hand({0: 1500, 1: 1500, 2: 1500}, {0: 3000, 1: 0, 2: 1500})
[Entry(seat=1, name='bob', place=3, prize=0, out_hand=1)]
>>> t.record_hand({0: 3000, 2: 1500}, {0: 4500, 2: 0})[0].place, t.winner, t.prizes
(2, 'ann', (30,))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardlab.errors import GameError
from cardlab.table.structure import Betting, TableGame

LEVEL_UNITS = ("hands", "minutes")
ANTES_FROM = 4  # the default schedule adds antes from this level (blind games)
MAX_LEVELS = 200  # levels a schedule may list
_MANTISSAS = (10, 15, 20, 30, 40, 60, 80)


def round_ladder(start: int = 1) -> Iterator[int]:
    """The round numbers of blind schedules, from the first one >= ``start``:
    1, 2, 3, 4, 6, 8, 10, 15, 20, 30, 40, 60, 80, 100, 150, ..."""
    scale = 1
    while True:
        for m in _MANTISSAS:
            value = m * scale // 10
            if value >= max(1, start) and (m * scale) % 10 == 0:
                yield value
        scale *= 10


@dataclass(frozen=True, slots=True)
class Level:
    """The forced bets of one level. Blind games use ``blinds`` (small, big) and
    ``ante``; Stud uses ``ante``, ``bring_in`` and the bets; ``small_bet`` is also the
    minimum bet of no-limit and pot-limit, ``big_bet`` fixed-limit's big bet."""

    blinds: tuple[int, int] | None
    ante: int
    bring_in: int
    small_bet: int
    big_bet: int

    def __post_init__(self) -> None:
        values = [self.ante, self.bring_in, self.small_bet, self.big_bet, *(self.blinds or ())]
        if any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in values):
            raise GameError(f"a level's bets are whole numbers >= 0: {self}")
        if self.small_bet <= 0:
            raise GameError(f"a level needs a positive minimum bet: {self}")
        if self.blinds is not None and not (0 < self.blinds[0] <= self.blinds[1]):
            raise GameError(
                f"a level's blinds are SMALL/BIG with 0 < SMALL <= BIG: {self.blinds[0]}/"
                f"{self.blinds[1]}"
            )
        if self.blinds is None and not (0 < self.bring_in < self.small_bet or self.ante):
            raise GameError(f"a stud level needs a bring-in below the small bet: {self}")

    def apply(self, game: TableGame) -> TableGame:
        """``game`` with this level's forced bets (its betting structure kept)."""
        stakes = game.stakes
        if self.blinds is None:
            new = dataclasses.replace(
                stakes,
                ante=self.ante,
                antes=(),
                bring_in=self.bring_in,
                small_bet=self.small_bet,
                big_bet=self.big_bet,
            )
        else:
            new = dataclasses.replace(
                stakes,
                blinds=self.blinds,
                ante=self.ante,
                antes=(),
                small_bet=self.small_bet,
                big_bet=self.big_bet,
            )
        return dataclasses.replace(game, stakes=new)

    def doubled(self, times: int = 1) -> Level:
        k = 2**times
        return Level(
            None if self.blinds is None else (self.blinds[0] * k, self.blinds[1] * k),
            self.ante * k,
            self.bring_in * k,
            self.small_bet * k,
            self.big_bet * k,
        )

    def describe(self, betting: Betting | None = None) -> str:
        parts = []
        if self.blinds is not None:
            parts.append(f"blinds {self.blinds[0]}/{self.blinds[1]}")
        if self.ante:
            parts.append(f"ante {self.ante}")
        if self.blinds is None and self.bring_in:
            parts.append(f"bring-in {self.bring_in}")
        if betting is Betting.FIXED_LIMIT or self.blinds is None:
            parts.append(f"bets {self.small_bet}/{self.big_bet}")
        return ", ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        return {
            "blinds": None if self.blinds is None else list(self.blinds),
            "ante": self.ante,
            "bring_in": self.bring_in,
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Level:
        blinds = data.get("blinds")
        return cls(
            None if blinds is None else (int(blinds[0]), int(blinds[1])),
            int(data.get("ante", 0)),
            int(data.get("bring_in", 0)),
            int(data["small_bet"]),
            int(data["big_bet"]),
        )


def level_of(game: TableGame, big: int, *, ante: bool) -> Level:
    """The level of ``game`` whose big blind (Stud: small bet) is ``big``."""
    if game.game.base.key == "stud":
        return Level(None, max(1, big // 5), max(1, big // 4), big, 2 * big)
    return Level((max(1, big // 2), big), max(1, big // 10) if ante else 0, 0, big, 2 * big)


@dataclass(frozen=True, slots=True)
class Schedule:
    """The levels, and how long each lasts: ``every`` hands or minutes (``unit``)."""

    levels: tuple[Level, ...]
    every: int = 10
    unit: str = "hands"

    def __post_init__(self) -> None:
        if not self.levels or len(self.levels) > MAX_LEVELS:
            raise GameError(f"a schedule has 1 to {MAX_LEVELS} levels, got {len(self.levels)}")
        if self.unit not in LEVEL_UNITS:
            raise GameError(f"levels last a number of hands or minutes, not {self.unit!r}")
        if (
            isinstance(self.every, bool)
            or not isinstance(self.every, int)
            or not (1 <= self.every <= 10_000)
        ):
            raise GameError(f"a level lasts 1 to 10000 {self.unit}, got {self.every!r}")

    @classmethod
    def default(
        cls, game: TableGame, stack: int, *, every: int = 10, unit: str = "hands", levels: int = 20
    ) -> Schedule:
        """The usual ladder from a big blind (Stud: small bet) of about ``stack``/75,
        antes from the fourth level in blind games."""
        if stack < 2:
            raise GameError(f"a tournament's starting stack must be at least 2, got {stack}")
        ladder = round_ladder(max(2, stack // 75))
        out = tuple(level_of(game, next(ladder), ante=i + 1 >= ANTES_FROM) for i in range(levels))
        return cls(out, every, unit)

    @classmethod
    def parse(cls, text: str, game: TableGame, *, every: int = 10, unit: str = "hands") -> Schedule:
        """Levels written like ``--blinds``, separated by commas, each with an optional
        ante: ``10/20, 15/30, 25/50+5`` (Stud: bring-in/small bet, ``5/20+2``; the big
        bet is twice the small bet)."""
        stud = game.game.base.key == "stud"
        levels = []
        for i, part in enumerate(text.split(",")):
            words = part.strip()
            blinds, _, ante_text = words.partition("+")
            pieces = blinds.split("/")
            numbers = [p.strip() for p in [*pieces, ante_text] if p.strip()]
            if (
                len(pieces) != 2
                or ("+" in words and not ante_text.strip())
                or not all(p.isascii() and p.isdigit() for p in numbers)
            ):
                raise GameError(
                    f"level {i + 1} of the schedule is {words!r}: write SMALL/BIG or "
                    "SMALL/BIG+ANTE, like 10/20+2"
                )
            small, big = int(pieces[0]), int(pieces[1])
            ante = int(ante_text) if ante_text.strip() else 0
            if big > 10**12 or ante > 10**12:
                raise GameError(f"level {i + 1} of the schedule is too large: {words!r}")
            if stud:
                if not 0 < small < big:
                    raise GameError(
                        f"level {i + 1}: the bring-in must be positive and below the small "
                        f"bet, got {words!r}"
                    )
                levels.append(Level(None, ante, small, big, 2 * big))
            else:
                if not 0 < small <= big:
                    raise GameError(
                        f"level {i + 1}: the small blind must be positive and not above the "
                        f"big blind, got {words!r}"
                    )
                levels.append(Level((small, big), ante, 0, big, 2 * big))
        return cls(tuple(levels), every, unit)

    def level(self, index: int) -> Level:
        """Level ``index`` (from 0); past the last, the last one doubled each level."""
        if index < len(self.levels):
            return self.levels[index]
        return self.levels[-1].doubled(index - len(self.levels) + 1)

    def index_at(self, hands: int, seconds: float) -> int:
        """The level (from 0) of a hand dealt after ``hands`` hands and ``seconds`` of
        play."""
        if self.unit == "hands":
            return hands // self.every
        return int(seconds // (60 * self.every))

    def as_dict(self) -> dict[str, Any]:
        return {
            "levels": [lv.as_dict() for lv in self.levels],
            "every": self.every,
            "unit": self.unit,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Schedule:
        return cls(
            tuple(Level.from_dict(lv) for lv in data["levels"]),
            int(data["every"]),
            str(data["unit"]),
        )


def default_payouts(entrants: int) -> tuple[int, ...]:
    """Percent of the prize pool by place: winner takes all up to 3 entrants, 65/35
    up to 6, 50/30/20 up to 10."""
    if entrants <= 3:
        return (100,)
    if entrants <= 6:
        return (65, 35)
    return (50, 30, 20)


def check_payouts(percents: Sequence[int], entrants: int) -> tuple[int, ...]:
    values = tuple(percents)
    if (
        not values
        or any(isinstance(p, bool) or not isinstance(p, int) or p <= 0 for p in values)
        or sum(values) != 100
    ):
        raise GameError(
            f"payouts are positive whole percents by place summing to 100, got {list(values)}"
        )
    if len(values) > entrants:
        raise GameError(f"{len(values)} places paid but only {entrants} entrants")
    if list(values) != sorted(values, reverse=True):
        raise GameError(f"a higher place must not be paid less: {list(values)}")
    return values


def prize_table(pool: int, percents: Sequence[int]) -> tuple[int, ...]:
    """Whole prizes by place: each place its percent of the pool rounded down, the
    units left over to the winner."""
    prizes = [pool * p // 100 for p in percents]
    if prizes:
        prizes[0] += pool - sum(prizes)
    return tuple(prizes)


@dataclass(slots=True)
class Entry:
    """One entrant: ``place`` and ``out_hand`` (the tournament hand it went out in)
    are set when it goes out (the winner: place 1 at the end)."""

    seat: int
    name: str
    place: int | None = None
    prize: int = 0
    out_hand: int | None = None


@dataclass
class Tournament:
    """A sit-and-go's levels, entrants and results. The table plays the hands; after
    each one :meth:`record_hand` is told every stack before and after it."""

    schedule: Schedule
    entrants: Mapping[int, str]
    buy_in: int = 0
    payouts: Sequence[int] | None = None
    hands: int = 0
    seconds: float = 0.0
    entries: dict[int, Entry] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.entrants)
        if n < 2:
            raise GameError(f"a tournament needs at least 2 entrants, got {n}")
        if isinstance(self.buy_in, bool) or not isinstance(self.buy_in, int) or self.buy_in < 0:
            raise GameError(f"the buy-in is a whole number >= 0, got {self.buy_in!r}")
        self.payouts = check_payouts(
            default_payouts(n) if self.payouts is None else self.payouts, n
        )
        if not self.entries:
            self.entries = {s: Entry(s, str(name)) for s, name in self.entrants.items()}

    # --- levels --------------------------------------------------------------------------

    @property
    def level_index(self) -> int:
        """The level (from 0) of the next hand."""
        return self.schedule.index_at(self.hands, self.seconds)

    @property
    def level(self) -> Level:
        return self.schedule.level(self.level_index)

    def game_for(self, game: TableGame, index: int | None = None) -> TableGame:
        """``game`` at the next hand's level (or level ``index``)."""
        return self.schedule.level(self.level_index if index is None else index).apply(game)

    def next_in(self) -> dict[str, float]:
        """How long until the next level: {"hands": k} or {"seconds": s}."""
        s = self.schedule
        if s.unit == "hands":
            return {"hands": s.every - self.hands % s.every}
        return {"seconds": round(60 * s.every - self.seconds % (60 * s.every), 1)}

    def add_time(self, seconds: float) -> None:
        self.seconds += max(0.0, seconds)

    # --- places --------------------------------------------------------------------------

    @property
    def prizes(self) -> tuple[int, ...]:
        assert self.payouts is not None
        return prize_table(self.buy_in * len(self.entrants), self.payouts)

    def _prize_of(self, place: int) -> int:
        prizes = self.prizes
        return prizes[place - 1] if place <= len(prizes) else 0

    @property
    def playing(self) -> list[int]:
        """The seats still in, in seat order."""
        return sorted(s for s, e in self.entries.items() if e.place is None)

    @property
    def over(self) -> bool:
        return any(e.place == 1 for e in self.entries.values())

    @property
    def winner(self) -> str | None:
        return next((e.name for e in self.entries.values() if e.place == 1), None)

    def record_hand(
        self, before: Mapping[int, int], after: Mapping[int, int], *, order: Sequence[int] = ()
    ) -> list[Entry]:
        """A hand was played: ``before`` and ``after`` are the stacks by seat of the
        seats still in. Returns the entries that went out (the winner last, with place
        1, when one seat is left). ``order``: the seats by position, for the odd units
        of a shared prize (first position first)."""
        if self.over:
            raise GameError("the tournament is over")
        self.hands += 1
        playing = self.playing
        unknown = set(before) - set(playing)
        if unknown:
            raise GameError(f"seats {sorted(unknown)} are not in the tournament")
        out = [s for s in playing if before.get(s, 0) > 0 and after.get(s, 0) <= 0]
        left = [s for s in playing if s not in out]
        rank = {s: i for i, s in enumerate(order)}
        done: list[Entry] = []
        place = len(left) + 1
        for stack in sorted({before[s] for s in out}, reverse=True):
            group = sorted((s for s in out if before[s] == stack), key=lambda s: rank.get(s, s))
            done += self._place(group, place)
            place += len(group)
        if len(left) == 1:
            done += self._place(left, 1)
        return done

    def _place(self, seats: list[int], place: int, *, odd_to_winner: bool = False) -> list[Entry]:
        """``seats`` share ``place`` and the prizes of the places they cover: the odd
        units go to the first seats (in position order), or with ``odd_to_winner`` (a
        share across tables, where no position orders them) to the winner, as the units
        the percents leave. The winner takes what the others' prizes leave of the pool."""
        pool = sum(self._prize_of(place + k) for k in range(len(seats)))
        share, odd = divmod(pool, len(seats))
        out = []
        for k, seat in enumerate(seats):
            entry = self.entries[seat]
            entry.place = place
            entry.prize = share + (1 if k < odd and not odd_to_winner else 0)
            if entry.out_hand is None and place != 1:
                entry.out_hand = self.hands
            out.append(entry)
        self._settle_winner()
        return out

    def _settle_winner(self) -> None:
        """The winner's prize: the pool less every other prize (the first place's, and
        the units a share across tables left over)."""
        winner = next((e for e in self.entries.values() if e.place == 1), None)
        if winner is not None:
            others = sum(e.prize for e in self.entries.values() if e is not winner)
            winner.prize = self.buy_in * len(self.entrants) - others

    def place_together(self, groups: Sequence[tuple[Sequence[int], bool]], place: int) -> None:
        """Give again the places from ``place`` on to ``groups`` (best first; seats out
        already): each group's seats share the best of the places it covers and split
        their prizes, the odd units to the group's first seats, or (the group's flag: a
        share across tables) to the winner. Each keeps the hand it went out in."""
        for seats, across in groups:
            self._place(list(seats), place, odd_to_winner=across)
            place += len(seats)

    def standings(self, chips: Mapping[int, int] | None = None) -> list[dict[str, Any]]:
        """Seats still in (most chips first), then the places given."""
        chips = chips or {}
        playing = sorted(self.playing, key=lambda s: (-chips.get(s, 0), s))
        gone = sorted(
            (e for e in self.entries.values() if e.place is not None),
            key=lambda e: (e.place or 0, e.seat),
        )
        rows = [
            {
                "place": None,
                "seat": s + 1,
                "name": self.entries[s].name,
                "chips": chips.get(s),
                "prize": None,
                "out_hand": None,
            }
            for s in playing
        ]
        rows += [
            {
                "place": e.place,
                "seat": e.seat + 1,
                "name": e.name,
                "chips": None if e.place != 1 else chips.get(e.seat),
                "prize": e.prize,
                "out_hand": e.out_hand,
            }
            for e in gone
        ]
        return rows

    # --- saving --------------------------------------------------------------------------

    def as_dict(self) -> dict[str, Any]:
        return {
            "schedule": self.schedule.as_dict(),
            "entrants": {str(s): n for s, n in self.entrants.items()},
            "buy_in": self.buy_in,
            "payouts": list(self.payouts or ()),
            "hands": self.hands,
            "seconds": self.seconds,
            "entries": [dataclasses.asdict(e) for e in self.entries.values()],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Tournament:
        entries = {int(e["seat"]): Entry(**e) for e in data.get("entries", [])}
        return cls(
            Schedule.from_dict(data["schedule"]),
            {int(s): str(n) for s, n in data["entrants"].items()},
            int(data.get("buy_in", 0)),
            [int(p) for p in data["payouts"]],
            int(data.get("hands", 0)),
            float(data.get("seconds", 0.0)),
            entries,
        )
