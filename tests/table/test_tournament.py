"""Sit-and-go tournaments: the schedule's levels (written out here by hand), places
and shared prizes, and whole tournaments of bots checked against a second, direct
definition of a place."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.bots import get_bot
from cardlab.errors import GameError
from cardlab.table import Session, TableGame, apply, seat_view
from cardlab.table.tournament import (
    Level,
    Schedule,
    Tournament,
    default_payouts,
    prize_table,
    round_ladder,
)


def test_the_ladder_of_round_numbers() -> None:
    ladder = round_ladder(1)
    assert [next(ladder) for _ in range(16)] == [
        1, 2, 3, 4, 6, 8, 10, 15, 20, 30, 40, 60, 80, 100, 150, 200,
    ]  # fmt: skip
    ladder = round_ladder(25)
    assert [next(ladder) for _ in range(3)] == [30, 40, 60]


def test_default_schedules_for_each_base_game() -> None:
    holdem = Schedule.default(TableGame.create("fesca78-holdem"), 1500)
    assert [lv.describe() for lv in holdem.levels[:6]] == [
        "blinds 10/20",
        "blinds 15/30",
        "blinds 20/40",
        "blinds 30/60, ante 6",
        "blinds 40/80, ante 8",
        "blinds 50/100, ante 10",
    ]
    stud = TableGame.create("fesca78-stud")
    levels = Schedule.default(stud, 1500).levels
    assert levels[0] == Level(None, ante=4, bring_in=5, small_bet=20, big_bet=40)
    assert levels[2].describe(stud.stakes.betting) == "ante 8, bring-in 10, bets 40/80"
    draw = TableGame.create("fesca78-draw")
    assert Schedule.default(draw, 300).level(0).describe(draw.stakes.betting) == (
        "blinds 2/4, bets 4/8"
    )


def test_a_level_sets_the_stakes_of_the_game() -> None:
    game = TableGame.create("standard52-holdem")
    g = Level((25, 50), 5, 0, 50, 100).apply(game)
    assert g.stakes.blinds == (25, 50) and g.stakes.antes_for(3) == [5, 5, 5]
    assert g.stakes.small_bet == 50 and g.stakes.betting is game.stakes.betting
    stud = Level(None, 2, 3, 10, 20).apply(TableGame.create("fesca78-stud"))
    assert (stud.stakes.ante, stud.stakes.bring_in, stud.stakes.big) == (2, 3, 20)


def test_past_the_last_level_the_bets_double() -> None:
    s = Schedule.parse("1/2, 3/6+1", TableGame.create("fesca78-holdem"), every=5)
    assert [s.level(i).blinds for i in range(5)] == [(1, 2), (3, 6), (6, 12), (12, 24), (24, 48)]
    assert [s.level(i).ante for i in range(5)] == [0, 1, 2, 4, 8]
    assert [s.index_at(h, 0) for h in (0, 4, 5, 14, 15)] == [0, 0, 1, 2, 3]
    m = Schedule(s.levels, 2, "minutes")
    assert [m.index_at(99, t) for t in (0, 119.9, 120, 250)] == [0, 0, 1, 2]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "level 1"),
        ("1/2,,3/6", "level 2"),
        ("1/2/3", "level 1"),
        ("3/2", "small blind"),
        ("1/2+", "level 1"),
        ("a/b", "level 1"),
        ("0/2", "small blind"),
    ],
)
def test_bad_schedules_say_which_level(text: str, words: str) -> None:
    with pytest.raises(GameError, match=words):
        Schedule.parse(text, TableGame.create("fesca78-holdem"))


def test_payouts_and_prizes() -> None:
    assert [default_payouts(n) for n in (2, 3, 4, 6, 7, 10)] == [
        (100,), (100,), (65, 35), (65, 35), (50, 30, 20), (50, 30, 20),
    ]  # fmt: skip
    assert prize_table(44, (65, 35)) == (29, 15)  # 28.6 and 15.4: the odd unit to first
    assert prize_table(100, (50, 30, 20)) == (50, 30, 20)
    for bad in ([60, 30], [30, 70], [100, 0], [50, 30, 20, 0]):
        with pytest.raises(GameError):
            Tournament(
                Schedule.parse("1/2", TableGame.create("fesca78-holdem")),
                {0: "a", 1: "b", 2: "c"},
                payouts=bad,
            )


def _sng(n: int, buy_in: int, payouts: tuple[int, ...] | None = None) -> Tournament:
    schedule = Schedule.parse("1/2", TableGame.create("fesca78-holdem"))
    return Tournament(schedule, {i: f"p{i}" for i in range(n)}, buy_in=buy_in, payouts=payouts)


def test_seats_out_in_one_hand_are_placed_by_the_stacks_they_started_with() -> None:
    t = _sng(4, 10)  # 40 in the pool: 26 and 14
    out = t.record_hand({0: 50, 1: 30, 2: 60, 3: 20}, {0: 0, 1: 0, 2: 160, 3: 0})
    assert [(e.name, e.place, e.prize, e.out_hand) for e in out] == [
        ("p0", 2, 14, 1),
        ("p1", 3, 0, 1),
        ("p3", 4, 0, 1),
        ("p2", 1, 26, None),
    ]
    assert t.over and t.winner == "p2"
    with pytest.raises(GameError, match="over"):
        t.record_hand({2: 160}, {2: 160})


def test_a_tie_shares_the_places_and_their_prizes_odd_unit_first() -> None:
    t = _sng(4, 11)  # 44: 29 and 15
    t.record_hand({0: 40, 1: 40, 2: 40, 3: 40}, {0: 80, 1: 80, 2: 0, 3: 0}, order=[3, 0, 1, 2])
    assert [(e.seat, e.place) for e in t.entries.values() if e.place] == [(2, 3), (3, 3)]
    # places 3 and 4 pay nothing; now two more go out together for places 2 and 3?
    t2 = _sng(3, 11, (65, 35))  # 33: 22 and 11 (21.45 -> 21 + the odd unit... )
    assert t2.prizes == (22, 11)
    out = t2.record_hand({0: 10, 1: 10, 2: 10}, {0: 0, 1: 0, 2: 30}, order=[1, 0, 2])
    shared = {e.seat: (e.place, e.prize) for e in out}
    assert shared == {1: (2, 6), 0: (2, 5), 2: (1, 22)}  # 11 shared: the odd unit to seat 1


def test_saved_and_restored() -> None:
    t = _sng(3, 5)
    t.record_hand({0: 10, 1: 10, 2: 10}, {0: 20, 1: 10, 2: 0})
    t.add_time(12.5)
    back = Tournament.from_dict(t.as_dict())
    assert back.as_dict() == t.as_dict()
    assert back.standings({0: 20, 1: 10}) == t.standings({0: 20, 1: 10})
    assert [r["name"] for r in back.standings({0: 20, 1: 10})] == ["p0", "p1", "p2"]


def _play_out(
    seed: int, seats: int, stack: int, every: int
) -> tuple[Tournament, list[dict[int, tuple[int, int]]], list[tuple[int, ...]]]:
    """A tournament of random bots, with the stacks before and after each hand and the
    blinds each hand was dealt with."""
    game = TableGame.create("fesca78-holdem")
    schedule = Schedule.parse("1/2,2/4,3/6+1", game, every=every)
    names = [f"bot{i}" for i in range(seats)]
    session = Session(game, names, stack, seed=seed)
    t = Tournament(schedule, dict(enumerate(names)), buy_in=7)
    bot = get_bot("random")
    rng = random.Random(seed)
    log: list[dict[int, tuple[int, int]]] = []
    blinds: list[tuple[int, ...]] = []
    while not t.over:
        session.game = t.game_for(game)
        hand = session.new_hand()
        blinds.append(tuple(sorted(b for b in hand.game.stakes.blinds if b)))
        before = {s: session.seats[s].stack for s in session.order}
        while not hand.is_over:
            assert hand.actor is not None
            apply(hand, bot.act(seat_view(hand, hand.actor), rng))
        session.end_hand()
        after = {s: session.seats[s].stack for s in before}
        log.append({s: (before[s], after[s]) for s in before})
        t.record_hand(before, after, order=session.order)
        assert len(log) < 5000
    return t, log, blinds


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 7), st.integers(1, 4))
def test_whole_tournaments_place_every_seat_as_a_direct_count_says(
    seed: int, seats: int, every: int
) -> None:
    t, log, blinds = _play_out(seed, seats, 12, every)
    # the blinds of hand k are those of level k // every
    expected = [(1, 2), (2, 4), (3, 6)]
    for k, b in enumerate(blinds):
        level = k // every
        want = expected[level] if level < 3 else tuple(v * 2 ** (level - 2) for v in (3, 6))
        assert b == want, (k, b)
    # a seat's place: 1 + the seats that outlasted it (out in a later hand, or in the
    # same hand having started it with more chips); the winner was never out
    out_at: dict[int, tuple[int, int]] = {}
    for k, hand in enumerate(log, start=1):
        for s, (before, after) in hand.items():
            if after == 0:
                out_at[s] = (k, before)
    assert len(out_at) == seats - 1
    for s in range(seats):
        if s not in out_at:
            assert t.entries[s].place == 1
            continue
        k, before = out_at[s]
        better = sum(
            1
            for o in range(seats)
            if o != s
            and (
                o not in out_at or out_at[o][0] > k or (out_at[o][0] == k and out_at[o][1] > before)
            )
        )
        assert t.entries[s].place == 1 + better
        assert t.entries[s].out_hand == k
    # every unit of the pool is paid out
    assert sum(e.prize for e in t.entries.values()) == 7 * seats
