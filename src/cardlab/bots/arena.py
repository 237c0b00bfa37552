"""Bots against bots, many hands, with an honest error bar.

An arena plays ``hands`` hands of one game between named bots. Every hand starts
from the same stacks (so hands are independent samples) and the bots move round the
table: in the hand numbered ``h`` the bot at position ``p`` is ``bots[(p + h) % B]``
(``B`` bots over ``K`` seats; a name listed twice plays two seats). Results are in big
blinds won per 100 hands, the big blind being the second forced bet (Stud: the small
bet).

**Duplicate** mode deals each set of cards ``K`` times, once for each rotation of the
seats (rotation ``r``: the bot at position ``p`` is ``bots[(p + r) % B]``), so every bot
holds every seat's cards once: the luck of the deal cancels out of the comparison.

**Confidence intervals.** A *unit* is one hand (or one duplicate block of ``K``
hands, its result the mean over the block). Units are independent (their seeds are),
so a bot's mean result per hand over ``n`` units has standard error ``s / sqrt(n)``
(``s`` the sample standard deviation of the units); the 95 % interval is the normal
approximation ``mean +- 1.96 * s / sqrt(n)``, in big blinds per 100 hands.

**Reproducible in pieces.** Units are played in chunks of a fixed size; a unit's cards
come from ``(seed, unit number)`` and each decision's ``rng`` from the hand's seed, the
position and the decision number, never from the order in which chunks run, so the
same seed gives the same result on one process or on a Dask cluster of any size
(:mod:`cardlab.bots.cluster`).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardlab.bots.base import Bot, get_bot
from cardlab.errors import GameError
from cardlab.table.actions import apply
from cardlab.table.state import HandState
from cardlab.table.structure import MAX_SEATS, TableGame
from cardlab.table.view import seat_view

HANDS_PER_CHUNK = 50
BLOCKS_PER_CHUNK = 10
MAX_HANDS = 1_000_000
"""The most hands of one run: each unit's result is kept for the confidence interval
(about 150 bytes a hand), and the equity bots play some 20 hands a second."""
Z95 = 1.959963984540054


def table_game(game: str, blinds: tuple[int, int] = (1, 2)) -> TableGame:
    """The game with forced bets from ``blinds`` = (small, big): blinds in Hold'em,
    Omaha and Draw; in Stud the bring-in and the small bet (antes as the default). A
    small game of :mod:`cardlab.solve` (``kuhn``, ``leduc``, ``leduc-fesca``, a game
    file: :mod:`cardlab.solve.small_table`) has its own ante and bets; ``blinds`` do not apply."""
    from cardlab.solve.small_table import is_small_game, small_table_game

    small, big = _blinds(blinds)
    if is_small_game(game):  # Kuhn, Leduc, a game file: the game's own ante and bets
        return small_table_game(game)
    base = TableGame.create(game).game.base.key
    if base == "stud":
        return TableGame.create(game, bring_in=small, small_bet=big)
    return TableGame.create(game, blinds=(small, big), small_bet=big)


def _blinds(blinds: object) -> tuple[int, int]:
    values = list(blinds) if isinstance(blinds, tuple | list) else []
    if len(values) != 2 or not all(
        isinstance(b, int) and not isinstance(b, bool) and b > 0 for b in values
    ):
        raise GameError(f"blinds must be two positive whole numbers like 1/2, got {blinds!r}")
    small, big = int(values[0]), int(values[1])
    if small > big:
        raise GameError(f"the small blind must not exceed the big blind, got {small}/{big}")
    return small, big


def big_blind(game: TableGame) -> int:
    """The unit of the results: the big blind (the small bet where there are no blinds)."""
    if game.own_order:  # a small game of cardlab.solve: its unit, 1 chip in Kuhn and Leduc
        from cardlab.solve.small_table import SmallTableGame

        if isinstance(game, SmallTableGame):
            return max(1, round(game.small.unit))
    blinds = game.stakes.blinds
    return blinds[1] if len(blinds) > 1 else game.stakes.small_bet


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What to play: ``seats`` None means one seat per listed bot."""

    game: str
    bots: tuple[str, ...]
    hands: int
    seed: int = 0
    seats: int | None = None
    duplicate: bool = False
    stack: int = 200
    blinds: tuple[int, int] = (1, 2)

    def __post_init__(self) -> None:
        if not self.bots:
            raise GameError("an arena needs at least one bot")
        for name in self.bots:
            get_bot(name)  # unknown names fail here, before any hand
        if self.seats is None and len(self.bots) == 1:
            name = self.bots[0]
            raise GameError(
                f"one bot ({name}) fills one seat: list two or more bots, like "
                f"{name},station, or give a number of seats (--seats) for {name} to fill"
            )
        seats = self.table_seats
        if isinstance(seats, bool) or not isinstance(seats, int) or not 2 <= seats <= MAX_SEATS:
            raise GameError(f"seats must be a whole number from 2 to {MAX_SEATS}, got {seats!r}")
        h = self.hands
        if isinstance(h, bool) or not isinstance(h, int) or h < 1:
            raise GameError(f"hands must be a positive whole number, got {h!r}")
        if h > MAX_HANDS:
            raise GameError(
                f"an arena plays at most {MAX_HANDS:,} hands a run, got {h:,}: play several "
                "runs with different seeds"
            )
        s = self.stack
        if isinstance(s, bool) or not isinstance(s, int) or s < 1:
            raise GameError(f"stack must be a positive whole number, got {s!r}")
        table = table_game(self.game, self.blinds)
        table.check_seats(seats)

    @property
    def table_seats(self) -> int:
        return self.seats if self.seats is not None else len(self.bots)

    @property
    def names(self) -> tuple[str, ...]:
        """The distinct bot names, in the order first listed."""
        return tuple(dict.fromkeys(n.strip().lower() for n in self.bots))

    @property
    def units(self) -> int:
        """Hands, or duplicate blocks (rounded up)."""
        return -(-self.hands // self.table_seats) if self.duplicate else self.hands

    @property
    def chunks(self) -> int:
        per = BLOCKS_PER_CHUNK if self.duplicate else HANDS_PER_CHUNK
        return -(-self.units // per)

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "bots": list(self.bots),
            "hands": self.hands,
            "seed": self.seed,
            "seats": self.table_seats,
            "duplicate": self.duplicate,
            "stack": self.stack,
            "blinds": list(self.blinds),
        }


def unit_seed(seed: int, unit: int) -> int:
    """The cards of unit ``unit`` (a hand, or a duplicate block)."""
    return random.Random(f"cardlab arena {seed} unit {unit}").getrandbits(63)


def play_hand(game: TableGame, bots: Sequence[Bot], stacks: Sequence[int], seed: int) -> HandState:
    """One hand to its end, each position played by ``bots[position]``; decision ``k``
    of position ``p`` gets ``random.Random(f"{seed} {p} {k}")``."""
    hand = HandState(game, list(stacks), seed=seed)
    decisions = [0] * len(bots)
    while not hand.is_over:
        p = hand.actor
        if p is None:  # pragma: no cover - automatic dealing never waits
            raise GameError(f"the hand waits for nobody: {hand!r}")
        rng = random.Random(f"{seed} {p} {decisions[p]}")
        decisions[p] += 1
        apply(hand, bots[p].act(seat_view(hand, p), rng))
    return hand


@dataclass
class ChunkResult:
    """The tally of one chunk: per unit, each bot's mean chips per hand."""

    units: list[list[float]] = field(default_factory=list)
    hands: int = 0
    showdowns: int = 0
    decided_by: Counter[str] = field(default_factory=Counter)
    at_showdown: Counter[str] = field(default_factory=Counter)  # bot seat-hands shown
    seat_hands: Counter[str] = field(default_factory=Counter)


def play_chunk(config: ArenaConfig, chunk: int) -> ChunkResult:
    """Play the units of chunk ``chunk`` (a pure function of the config and ``chunk``)."""
    game = table_game(config.game, config.blinds)
    names = config.names
    lineup = [n.strip().lower() for n in config.bots]
    bots = {n: get_bot(n) for n in names}
    k = config.table_seats
    per = BLOCKS_PER_CHUNK if config.duplicate else HANDS_PER_CHUNK
    out = ChunkResult()
    for unit in range(chunk * per, min((chunk + 1) * per, config.units)):
        seed = unit_seed(config.seed, unit)
        rotations = range(k) if config.duplicate else [unit % k]
        totals = [0.0] * len(names)
        for r in rotations:
            seated = [lineup[(p + r) % len(lineup)] for p in range(k)]
            hand = play_hand(game, [bots[n] for n in seated], [config.stack] * k, seed)
            result = hand.result
            assert result is not None
            out.hands += 1
            out.showdowns += result.showdown
            for award in result.awards:
                out.decided_by[award.decided_by] += 1
            for i, name in enumerate(names):
                mine = [p for p in range(k) if seated[p] == name]
                if mine:
                    totals[i] += sum(result.winnings[p] for p in mine) / len(mine)
            for p, name in enumerate(seated):
                out.seat_hands[name] += 1
                out.at_showdown[name] += p in result.shown
        out.units.append([t / len(rotations) for t in totals])
    return out


@dataclass(frozen=True, slots=True)
class BotResult:
    name: str
    bb_per_100: float
    ci95: tuple[float, float]
    showdown_share: float  # of this bot's hands, the share it showed down

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "bb_per_100": self.bb_per_100,
            "ci95": list(self.ci95),
            "showdown_share": self.showdown_share,
        }


@dataclass(frozen=True, slots=True)
class ArenaResult:
    config: ArenaConfig
    hands: int
    bots: tuple[BotResult, ...]
    showdowns: int
    decided_by: dict[str, int]

    def as_dict(self) -> dict[str, Any]:
        c = self.config
        return {
            "game": c.game,
            "hands": self.hands,
            "bots": [b.as_dict() for b in self.bots],
            "seed": c.seed,
            "seats": c.table_seats,
            "duplicate": c.duplicate,
            "showdown_share": self.showdowns / self.hands,
            "decided_by": dict(sorted(self.decided_by.items(), key=lambda kv: -kv[1])),
            "ci_method": "normal approximation over independent "
            + ("duplicate blocks" if c.duplicate else "hands"),
        }


def combine(config: ArenaConfig, chunks: Sequence[ChunkResult]) -> ArenaResult:
    """The results of the chunks, taken in chunk order."""
    units = [u for ch in chunks for u in ch.units]
    bb = big_blind(table_game(config.game, config.blinds))
    n = len(units)
    bots = []
    at_sd: Counter[str] = Counter()
    seat_hands: Counter[str] = Counter()
    decided: Counter[str] = Counter()
    for ch in chunks:
        at_sd.update(ch.at_showdown)
        seat_hands.update(ch.seat_hands)
        decided.update(ch.decided_by)
    for i, name in enumerate(config.names):
        xs = [u[i] for u in units]
        mean = sum(xs) / n
        var = sum((x - mean) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
        half = Z95 * math.sqrt(var / n)
        scale = 100.0 / bb
        bots.append(
            BotResult(
                name,
                mean * scale,
                ((mean - half) * scale, (mean + half) * scale),
                at_sd[name] / seat_hands[name] if seat_hands[name] else 0.0,
            )
        )
    hands = sum(ch.hands for ch in chunks)
    showdowns = sum(ch.showdowns for ch in chunks)
    return ArenaResult(config, hands, tuple(bots), showdowns, dict(decided))


Progress = Callable[[int, int], None]


def run_arena(
    config: ArenaConfig,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> ArenaResult:
    """Play the arena: in this process when ``workers`` is 1 and no scheduler is given,
    else on Dask (:func:`cardlab.bots.cluster.map_chunks`); ``progress(done, total)``
    counts hands."""
    per_chunk = (BLOCKS_PER_CHUNK * config.table_seats) if config.duplicate else HANDS_PER_CHUNK
    total = config.units * (config.table_seats if config.duplicate else 1)
    indices = list(range(config.chunks))
    results: list[ChunkResult]
    if scheduler is None and (workers <= 1 or len(indices) <= 1):
        results = []
        for c in indices:
            results.append(play_chunk(config, c))
            if progress is not None:
                progress(min((c + 1) * per_chunk, total), total)
    else:
        from cardlab.bots.cluster import map_chunks

        done = [0]

        def step() -> None:
            done[0] += 1
            if progress is not None:
                progress(min(done[0] * per_chunk, total), total)

        results = map_chunks(play_chunk, config, indices, workers, scheduler, step)
    return combine(config, results)
