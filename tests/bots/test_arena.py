"""The arena: seats, duplicate blocks, intervals, and the same result on a cluster."""

from __future__ import annotations

import math
import statistics

import pytest

from cardlab.bots.arena import ArenaConfig, ChunkResult, combine, play_chunk, run_arena
from cardlab.errors import GameError


def test_interval_is_the_normal_approximation() -> None:
    config = ArenaConfig("standard52-holdem", ("random", "station"), 4)
    units = [[4.0, -4.0], [-2.0, 2.0], [10.0, -10.0], [0.0, 0.0]]
    result = combine(
        config, [ChunkResult(units=units[:3], hands=3), ChunkResult(units=units[3:], hands=1)]
    )
    xs = [u[0] for u in units]
    mean, se = statistics.mean(xs), statistics.stdev(xs) / math.sqrt(len(xs))
    bot = result.bots[0]
    assert bot.bb_per_100 == pytest.approx(mean / 2 * 100)  # big blind 2
    assert bot.ci95[0] == pytest.approx((mean - 1.959964 * se) / 2 * 100)
    assert bot.ci95[1] == pytest.approx((mean + 1.959964 * se) / 2 * 100)


def test_seats_rotate_and_chips_add_up() -> None:
    config = ArenaConfig("fesca78-holdem", ("random", "station", "random"), 30, seats=3)
    chunk = play_chunk(config, 0)
    assert chunk.hands == 30 and len(chunk.units) == 30
    # random holds two of the three seats in every hand: 60 seat-hands, station 30
    assert chunk.seat_hands == {"random": 60, "station": 30}
    for random_mean, station in chunk.units:
        assert 2 * random_mean + station == pytest.approx(0)  # chips only move


def test_duplicate_blocks_cancel_the_cards() -> None:
    # two identical bots in duplicate mode: every deal is played from both seats
    config = ArenaConfig("fesca78-holdem", ("station", "random"), 40, duplicate=True, seed=3)
    result = run_arena(config)
    assert result.hands == 40 and config.units == 20
    a, b = result.bots
    assert a.bb_per_100 == pytest.approx(-b.bb_per_100)


def test_same_seed_same_result_in_any_chunk_order() -> None:
    config = ArenaConfig("standard52-draw", ("equity", "random"), 120, seed=5)
    forward = combine(config, [play_chunk(config, c) for c in range(config.chunks)])
    again = combine(config, [play_chunk(config, c) for c in range(config.chunks)])
    assert forward.as_dict() == again.as_dict()
    assert config.chunks == 3


@pytest.mark.slow
def test_local_dask_cluster_gives_the_in_process_result() -> None:
    pytest.importorskip("distributed")
    config = ArenaConfig("fesca78-holdem", ("station", "random", "random"), 150, seed=9)
    here = run_arena(config, workers=1)
    cluster = run_arena(config, workers=2)  # a real LocalCluster of two processes
    assert here.as_dict() == cluster.as_dict()


@pytest.mark.slow
def test_scheduler_address_gives_the_in_process_result() -> None:
    distributed = pytest.importorskip("distributed")
    config = ArenaConfig("standard52-holdem", ("random", "station"), 120, seed=2, duplicate=True)
    here = run_arena(config)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        there = run_arena(config, scheduler=cluster.scheduler_address)
    assert here.as_dict() == there.as_dict()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": ("equity", "zombie")}, "unknown bot 'zombie'"),
        ({"seats": 11}, "seats must be a whole number from 2 to 10"),
        ({"seats": 1}, "seats must be a whole number from 2 to 10"),
        ({"stack": 0}, "stack must be a positive"),
        ({"blinds": (0, 2)}, "blinds must be two positive"),
        ({"hands": 0}, "hands must be a positive"),
        ({"game": "standard52-stud", "seats": 9}, "seats 2 to 8"),
    ],
)
def test_bad_configs(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {
        "game": "standard52-holdem",
        "bots": ("random", "station"),
        "hands": 1,
    }
    with pytest.raises(GameError, match=message):
        ArenaConfig(**(args | kwargs))  # type: ignore[arg-type]
