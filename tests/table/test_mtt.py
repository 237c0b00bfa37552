"""Multi-table tournaments (cardlab.table.mtt): the draw, balancing and breaking tables as
players go out, places and payouts, checked by playing random tournaments to the end and
by small cases worked out by hand."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.errors import GameError
from cardlab.table.mtt import Move, Mtt, MttRules, mtt_payouts
from cardlab.table.tournament import Level, Schedule

SCHEDULE = Schedule((Level((1, 2), 0, 0, 2, 4), Level((2, 4), 0, 0, 4, 8)), every=3)


def mtt(n: int, size: int, *, stack: int = 100, seed: int = 0, buy_in: int = 10) -> Mtt:
    t = Mtt(MttRules(size, stack, SCHEDULE, buy_in=buy_in), seed=seed)
    for i in range(n):
        t.register(f"p{i}")
    t.start()
    return t


def check_invariants(t: Mtt, total: int) -> None:
    seated = [p for seats in t.tables.values() for p in seats.values()]
    assert len(seated) == len(set(seated)), "somebody sits twice"
    assert set(seated) == set(t.chips), "the seated are those with chips"
    assert sum(t.chips.values()) == total, "chips were made or lost"
    assert all(c > 0 for c in t.chips.values())
    assert all(len(s) <= t.rules.table_size for s in t.tables.values())
    assert all(0 <= seat < t.rules.table_size for s in t.tables.values() for seat in s)
    places = {r["name"]: r["place"] for r in t.standings()}
    assert {n for n, p in places.items() if p is None or p == 1} >= set(seated)


def settle(t: Mtt) -> list[Move]:
    """Every table between hands, until nobody moves (a few rounds at most)."""
    moves: list[Move] = []
    for _ in range(len(t.tables) + 2):
        got = [m for k in sorted(t.tables) for m in t.between_hands(k)]
        if not got:
            return moves
        moves += got
    raise AssertionError("the tables did not settle")


def play_hand(t: Mtt, table: int, rng: random.Random) -> list[Move]:
    """A random hand: one seat wins chips from some others, some of them all their chips."""
    seats = t.tables[table]
    before = {s: t.chips[p] for s, p in seats.items()}
    after = dict(before)
    winner = rng.choice(sorted(seats))
    for s in sorted(seats):
        if s != winner and rng.random() < 0.5:
            lost = before[s] if rng.random() < 0.4 else rng.randint(0, before[s])
            after[s] -= lost
            after[winner] += lost
    order = sorted(seats)
    return t.record_hand(table, before, after, order=order, next_big_blinds=order)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 40),
    size=st.integers(3, 10),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_tournaments_keep_the_rules_to_the_end(n: int, size: int, seed: int) -> None:
    t = mtt(n, size, seed=seed)
    rng = random.Random(seed)
    total = 100 * n
    # the draw: the fewest tables, sizes within one
    sizes = [len(s) for s in t.tables.values()]
    assert len(sizes) == -(-n // size) and max(sizes) - min(sizes) <= 1
    assert sorted(t.playing) == sorted(f"p{i}" for i in range(n))
    for _ in range(5000):
        if t.over:
            break
        ready = [k for k, s in t.tables.items() if len(s) >= 2]
        if not ready:  # only tables of one player: they wait, and are broken
            settle(t)
            check_invariants(t, total)
            continue
        table = rng.choice(ready)
        tables_before = len(t.tables)
        for m in play_hand(t, table, rng):
            assert m.source == table  # only a table between hands gives players up
        check_invariants(t, total)
        # tables are only ever broken, never opened (the surplus is broken as the tables
        # reach the ends of their hands: checked below, when every table has)
        assert len(t.tables) <= tables_before
        if rng.random() < 0.3:
            settle(t)
            check_invariants(t, total)
            sizes = [len(s) for s in t.tables.values()]
            assert len(sizes) == t.tables_needed(len(t.playing))
            assert max(sizes) - min(sizes) <= 1
    assert t.over
    rows = t.standings()
    assert sorted(r["place"] for r in rows)[0] == 1
    assert sum(r["prize"] for r in rows) == 10 * n  # every unit of the pool paid
    assert [r["name"] for r in rows if r["place"] == 1] == [t.winner]
    assert t.chips == {t.winner: total}


@settings(max_examples=30, deadline=None)
@given(n=st.integers(4, 30), seed=st.integers(0, 2**32 - 1), cut=st.integers(1, 60))
def test_a_restored_tournament_plays_on_the_same(n: int, seed: int, cut: int) -> None:
    a = mtt(n, 4, seed=seed)
    b: Mtt | None = None
    rng = random.Random(seed)
    for k in range(200):
        if k == cut:
            b = Mtt.from_dict(a.as_dict())
            assert b.as_dict() == a.as_dict()
        if a.over:
            break
        table = min((k for k, s in a.tables.items() if len(s) >= 2), default=None)
        if table is None:
            moves = settle(a)
            assert b is None or settle(b) == moves
            continue
        state = rng.getstate()
        got = play_hand(a, table, rng)
        if b is not None:
            again = random.Random()
            again.setstate(state)
            assert play_hand(b, table, again) == got
    if b is not None:
        assert b.as_dict() == a.as_dict()


def test_the_player_who_is_big_blind_next_moves_first() -> None:
    t = mtt(10, 5, seed=3)  # two tables of 5
    big, small = sorted(t.tables, key=lambda k: len(t.tables[k]))[::-1]
    # two players of the small table go out: 5 against 3, one moves
    seats = t.tables[small]
    gone = sorted(seats)[:2]
    keep = sorted(seats)[2]
    before = {s: 100 for s in seats}
    after = {s: 0 if s in gone else 100 for s in seats}
    after[keep] += 200
    assert t.record_hand(small, before, after) == []  # the short table moves nobody
    seats = t.tables[big]
    order = sorted(seats)
    nbb = [order[3], order[4], order[0], order[1], order[2]]
    before = {s: 100 for s in seats}
    moves = t.record_hand(big, before, dict(before), next_big_blinds=nbb)
    assert [(m.source, m.seat, m.target) for m in moves] == [(big, order[3], small)]
    assert moves[0].chips == 100
    assert sorted(len(s) for s in t.tables.values()) == [4, 4]


def test_a_table_breaks_when_the_players_fit_in_one_fewer() -> None:
    t = mtt(9, 5, seed=1)  # 5 and 4
    five = max(t.tables, key=lambda k: len(t.tables[k]))
    four = min(t.tables, key=lambda k: len(t.tables[k]))
    # one player out at the table of 5: 8 left need 2 tables still
    seats = t.tables[five]
    s0, s1 = sorted(seats)[:2]
    before = {s: 100 for s in seats}
    after = dict(before) | {s0: 0, s1: 200}
    assert t.record_hand(five, before, after) == []
    # 4 out at the table of 4 but one: 4 left fit one table; the smallest table (the
    # one that reported, 1 player) breaks into the other
    seats = t.tables[four]
    keep = sorted(seats)[0]
    before = {s: 100 for s in seats}
    after = {s: 0 for s in seats} | {keep: 400}
    moves = t.record_hand(four, before, after)
    assert [(m.source, m.target, m.chips) for m in moves] == [(four, five, 400)]
    assert list(t.tables) == [five] and t.final_table
    assert len(t.tables[five]) == 5
    assert not t.over


def test_players_out_in_the_same_hand_are_placed_by_their_starting_stacks() -> None:
    t = mtt(6, 3, seed=2, buy_in=10)  # two tables of three; 65/35 of 60
    a, _ = sorted(t.tables)
    seats = sorted(t.tables[a])
    before = {seats[0]: 50, seats[1]: 150, seats[2]: 100}
    after = {seats[0]: 0, seats[1]: 0, seats[2]: 300}
    names = {s: t.tables[a][s] for s in seats}
    t.record_hand(a, before, after)
    places = {r["name"]: r["place"] for r in t.standings()}
    assert places[names[seats[1]]] == 5 and places[names[seats[0]]] == 6
    assert t.results is not None and t.results.prizes == (39, 21)


def test_registration_closes_at_the_start_and_names_are_unique() -> None:
    t = Mtt(MttRules(6, 100, SCHEDULE))
    t.register("Ann")
    with pytest.raises(GameError, match="registered already"):
        t.register(" ann ")
    with pytest.raises(GameError, match="at least 2"):
        t.start()
    t.register("bob")
    t.unregister("ANN")
    with pytest.raises(GameError, match="not registered"):
        t.unregister("ann")
    t.register("cy")
    t.start()
    with pytest.raises(GameError, match="registration is closed"):
        t.register("di")
    with pytest.raises(GameError, match="seats per table"):
        MttRules(2, 100, SCHEDULE)
    with pytest.raises(GameError, match="did not keep its chips"):
        (table,) = t.tables
        seats = sorted(t.tables[table])
        t.record_hand(table, {seats[0]: 100, seats[1]: 100}, {seats[0]: 300, seats[1]: 0})


def test_the_payout_table() -> None:
    # written out here from docs/tournaments.md, not from the module
    expected = {2: [100], 5: [65, 35], 9: [50, 30, 20], 12: [40, 25, 15, 12, 8]}
    expected |= {27: [35, 22, 15, 11, 9, 8], 40: [30, 20, 14, 10, 8, 7, 6, 5]}
    expected |= {100: [28, 18, 12, 9, 7, 6, 5, 4, 4, 3, 2, 2]}
    for n, percents in expected.items():
        assert list(mtt_payouts(n)) == percents
    for n in range(2, 201):
        p = mtt_payouts(n)
        assert sum(p) == 100 and len(p) <= n and list(p) == sorted(p, reverse=True)


def test_levels_follow_the_busiest_table_or_the_playing_time() -> None:
    t = mtt(6, 3)
    a, _ = sorted(t.tables)
    for _ in range(3):
        seats = t.tables[a]
        stacks = {s: t.chips[p] for s, p in seats.items()}
        t.record_hand(a, stacks, stacks)
    assert t.level_index == 1 and t.next_in() == {"hands": 3}
    minutes = Schedule(SCHEDULE.levels, every=2, unit="minutes")
    u = Mtt(MttRules(3, 100, minutes))
    u.register("a")
    u.register("b")
    u.start()
    u.add_time(119.0)
    assert u.level_index == 0
    u.add_time(1.0)
    assert u.level_index == 1
