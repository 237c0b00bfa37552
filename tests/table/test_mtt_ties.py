"""Players out in the same hand-for-hand round at different tables tie (the TDA's rule):
they share the best of the places they cover and split those places' prizes, the units
a split leaves going to the winner; players out at one table in its hand of the round
keep the order of their starting stacks. Checked on cases worked out by hand (prizes
written from docs/tournaments.md's payout table, not from the module), on the order the
old rule gave (the order the hands ended), and on random tournaments (every unit of the
pool paid, places contiguous)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from test_mtt import SCHEDULE, mtt, settle

from cardlab.table.mtt import Mtt, MttRules


def _to_the_bubble() -> Mtt:
    """12 entrants at tables of 3, buy-in 10: a pool of 120, 40/25/15/12/8 percent
    (48, 30, 18, 14, 9; the unit left over to the winner: 49). Players go out one at a
    time until 6 are left at two tables of 3: hand for hand."""
    t = mtt(12, 3, seed=3)
    while len(t.playing) > 6:
        table = max(t.tables, key=lambda k: len(t.tables[k]))
        seats = t.tables[table]
        before = {s: t.chips[p] for s, p in seats.items()}
        loser, winner = sorted(seats)[:2]
        after = before | {loser: 0, winner: before[winner] + before[loser]}
        t.record_hand(table, before, after, order=sorted(seats))
        settle(t)
    assert t.hand_for_hand and sorted(len(s) for s in t.tables.values()) == [3, 3]
    return t


def _hand(t: Mtt, table: int, losses: dict[int, int]) -> list[str]:
    """Table ``table`` plays a hand: the k-th of its seats (by number) loses
    ``losses[k]`` chips (everything, when that is its stack) to its last seat. Returns
    the names of the players out."""
    seats = sorted(t.tables[table])
    before = {s: t.chips[t.tables[table][s]] for s in seats}
    after = dict(before)
    gone = []
    for k, lost in losses.items():
        after[seats[k]] -= lost
        after[seats[-1]] += lost
        if after[seats[k]] == 0:
            gone.append(t.tables[table][seats[k]])
    t.record_hand(table, before, after, order=seats)
    return gone


def _row(t: Mtt, name: str) -> tuple[int | None, int | None]:
    row = next(r for r in t.standings() if r["name"] == name)
    return row["place"], row["prize"]


def _play_out(t: Mtt) -> None:
    """Play to the end: at each table the first seat loses everything, one at a time."""
    while not t.over:
        settle(t)
        table = next(k for k, s in t.tables.items() if len(s) >= 2 and t.may_deal(k))
        _hand(t, table, {0: t.chips[t.tables[table][min(t.tables[table])]]})


def test_the_bubble_bursts_at_two_tables_in_one_round() -> None:
    t = _to_the_bubble()
    a, b = sorted(t.tables)
    (x,) = _hand(t, a, {0: t.chips[t.tables[a][min(t.tables[a])]]})
    # five left, all in the money: but the round is not over, and table a waits for
    # table b's hand of it (its players out would tie with x)
    assert len(t.playing) == 5 and not t.hand_for_hand
    assert not t.may_deal(a) and t.may_deal(b)
    assert _row(t, x) == (6, 0)  # for now
    (y,) = _hand(t, b, {0: t.chips[t.tables[b][min(t.tables[b])]]})
    # x and y tie for places 5 and 6: 9 + 0 shared, 4 each, the unit left to the winner
    assert _row(t, x) == (5, 4) and _row(t, y) == (5, 4)
    assert [r["tied"] for r in t.standings() if r["name"] in (x, y)] == [2, 2]
    assert t.may_deal(a) and t.may_deal(b)  # the round is over: each at its own pace
    again = Mtt.from_dict(t.as_dict())
    _play_out(t)
    rows = {r["name"]: (r["place"], r["prize"]) for r in t.standings()}
    assert sorted(p for p, _ in rows.values()) == [1, 2, 3, 4, 5, 5, *range(7, 13)]
    assert sorted(prize for _, prize in rows.values() if prize) == [4, 4, 14, 18, 30, 50]
    assert sum(prize or 0 for _, prize in rows.values()) == 120
    _play_out(again)  # the round's places are saved with the tournament
    assert again.standings() == t.standings()


def test_two_out_at_one_table_and_one_at_another() -> None:
    t = _to_the_bubble()
    a, b = sorted(t.tables)
    first, second = sorted(t.tables[a])[:2]
    small, big = sorted((first, second), key=lambda s: t.chips[t.tables[a][s]])
    if t.chips[t.tables[a][small]] == t.chips[t.tables[a][big]]:
        raise AssertionError("the worked case needs two different stacks")
    # table b first: one player out (6 -> 5, the bubble bursts); the round goes on
    (y,) = _hand(t, b, {0: t.chips[t.tables[b][min(t.tables[b])]]})
    assert not t.may_deal(b)
    # then table a: both its first seats out (5 -> 3). Places 4, 5 and 6: the bigger
    # stack of table a and y (the only one of table b) share 4 and 5 (14 + 9 = 23: 11
    # each, the unit to the winner); the smaller stack of table a takes 6 (nothing)
    k_first, k_second = sorted(t.tables[a]).index(first), sorted(t.tables[a]).index(second)
    chips = {s: t.chips[t.tables[a][s]] for s in (first, second)}
    name_big, name_small = t.tables[a][big], t.tables[a][small]
    _hand(t, a, {k_first: chips[first], k_second: chips[second]})
    assert _row(t, y) == (4, 11) and _row(t, name_big) == (4, 11)
    assert _row(t, name_small) == (6, 0)
    _play_out(t)
    prizes = sorted(r["prize"] for r in t.standings() if r["prize"])
    assert prizes == [11, 11, 18, 30, 50] and sum(prizes) == 120


def test_a_table_broken_in_the_round_leaves_the_round_open_for_the_other() -> None:
    # 7 entrants at tables of 4 and 3, six places paid (30/20/15/15/10/10 of 70: 21, 14,
    # 10, 10, 7, 7, the unit left to the winner): on the bubble from the start
    t = Mtt(MttRules(4, 100, SCHEDULE, buy_in=10, payouts=(30, 20, 15, 15, 10, 10)), seed=5)
    for i in range(7):
        t.register(f"p{i}")
    t.start()
    four, three = sorted(t.tables, key=lambda k: -len(t.tables[k]))
    assert t.hand_for_hand
    old_seats = dict(t.tables[three])
    # the table of 4: three players out, 100 each; 4 left fit one table, so this one
    # (one player) breaks into the other, whose hand of the round is still to come
    out_four = _hand(t, four, {0: 100, 1: 100, 2: 100})
    assert four not in t.tables and t.in_round and not t.hand_for_hand
    # the table of 3 plays that hand (the player who joined it waits for the next)
    before = {s: 100 for s in old_seats}
    seats = sorted(old_seats)
    after = before | {seats[0]: 0, seats[1]: 200}
    t.record_hand(three, before, after, order=seats)
    # the four players out in the round tie (all started with 100): places 4 to 7,
    # 10 + 7 + 7 + 0 = 24, 6 each
    for name in [*out_four, old_seats[seats[0]]]:
        assert _row(t, name) == (4, 6), t.standings()
    assert not t.in_round and t.round_outs == []
    _play_out(t)
    assert sum(r["prize"] for r in t.standings()) == 70


def test_outside_hand_for_hand_the_order_the_hands_end_stays() -> None:
    t = mtt(12, 3, seed=3)
    a, b = sorted(t.tables)[:2]
    (x,) = _hand(t, a, {0: t.chips[t.tables[a][min(t.tables[a])]]})
    (y,) = _hand(t, b, {0: t.chips[t.tables[b][min(t.tables[b])]]})
    assert _row(t, x)[0] == 12 and _row(t, y)[0] == 11


@settings(max_examples=50, deadline=None)
@given(n=st.integers(6, 40), size=st.integers(3, 6), seed=st.integers(0, 2**32 - 1))
def test_random_tournaments_pay_the_pool_with_contiguous_places(
    n: int, size: int, seed: int
) -> None:
    t = mtt(n, size, seed=seed)
    rng = random.Random(seed)
    for _ in range(5000):
        if t.over:
            break
        settle(t)
        ready = [k for k, s in t.tables.items() if len(s) >= 2 and t.may_deal(k)]
        assert ready, "every table waits: the tournament is stuck"
        table = rng.choice(ready)
        seats = sorted(t.tables[table])
        # a hand where anyone may go out: several at once, with equal stacks or not
        losses = {}
        for k, s in enumerate(seats[:-1]):
            stack = t.chips[t.tables[table][s]]
            if rng.random() < 0.4:
                losses[k] = stack if rng.random() < 0.5 else rng.randint(0, stack - 1)
        _hand(t, table, losses)
        if not t.in_round:  # nothing of a round outlives it
            assert t.round_outs == [] and t.round_done == set()
    assert t.over
    rows = t.standings()
    assert sum(r["prize"] for r in rows) == 10 * n  # every unit of the pool, no more
    # places contiguous: a place shared by c players is followed by the place c later
    counts = Counter(r["place"] for r in rows)
    place = 1
    while place <= n:
        assert counts[place] >= 1, (place, sorted(counts.items()))
        place += counts[place]
    assert place == n + 1 and sum(counts.values()) == n
    # players who share a place share its prizes: within a unit of each other, and
    # never more than the best place's prize (the winner's aside)
    prizes = t.results.prizes if t.results else ()
    for p in counts:
        shares = [r["prize"] for r in rows if r["place"] == p]
        if p > 1:
            assert max(shares) - min(shares) <= 1
            assert max(shares) <= (prizes[p - 1] if p <= len(prizes) else 0)
