"""Hand for hand on the bubble (cardlab.table.mtt): once the next player out finishes
just outside the money, every table plays one hand at a time. Checked on a case worked
out by hand and on random tournaments whose tables deal whenever they may, against the
test's own count of each round."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from test_mtt import mtt, settle

from cardlab.table.mtt import Mtt, mtt_payouts


def _bust(t: Mtt, table: int, seat: int) -> None:
    """The player in ``seat`` loses every chip to the next seat at the table."""
    seats = t.tables[table]
    before = {s: t.chips[p] for s, p in seats.items()}
    after = dict(before)
    winner = next(s for s in sorted(seats) if s != seat)
    after[winner] += after[seat]
    after[seat] = 0
    t.record_hand(table, before, after, order=sorted(seats))


def _small_hand(t: Mtt, table: int, rng: random.Random) -> None:
    """A random hand where at most one player goes out (so the bubble is reached)."""
    seats = t.tables[table]
    before = {s: t.chips[p] for s, p in seats.items()}
    after = dict(before)
    winner, loser = rng.sample(sorted(seats), 2)
    lost = before[loser] if rng.random() < 0.3 else rng.randint(0, before[loser] - 1)
    after[loser] -= lost
    after[winner] += lost
    t.record_hand(table, before, after, order=sorted(seats))


def _quiet_hand(t: Mtt, table: int) -> None:
    """A hand where nobody loses a chip (everyone checks it down and splits)."""
    seats = t.tables[table]
    stacks = {s: t.chips[p] for s, p in seats.items()}
    t.record_hand(table, stacks, stacks, order=sorted(seats))


def test_twelve_players_five_paid_go_hand_for_hand_at_six() -> None:
    t = mtt(12, 3, seed=3)
    assert mtt_payouts(12) == (40, 25, 15, 12, 8) and t.places_paid == 5
    assert sorted(len(s) for s in t.tables.values()) == [3, 3, 3, 3]
    # six players out, one at a time: six left, one more than the places paid
    while len(t.playing) > 6:
        assert not t.hand_for_hand and all(t.may_deal(k) for k in t.tables)
        table = max(t.tables, key=lambda k: len(t.tables[k]))
        _bust(t, table, min(t.tables[table]))
        settle(t)
    assert sorted(len(s) for s in t.tables.values()) == [3, 3]
    assert t.hand_for_hand
    first, second = sorted(t.tables)
    # one table plays its hand of the round: it waits until the other has played its own
    _quiet_hand(t, first)
    assert not t.may_deal(first) and t.may_deal(second)
    _quiet_hand(t, second)
    assert t.may_deal(first) and t.may_deal(second)  # the next round
    # the round survives a restart
    _quiet_hand(t, second)
    again = Mtt.from_dict(t.as_dict())
    assert (again.may_deal(first), again.may_deal(second)) == (True, False)
    # somebody goes out: five left, all in the money, the tables deal freely again
    _bust(t, first, min(t.tables[first]))
    assert len(t.playing) == 5 and not t.hand_for_hand
    settle(t)
    assert all(t.may_deal(k) for k in t.tables)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(11, 40), size=st.integers(3, 5), seed=st.integers(0, 2**32 - 1))
def test_on_the_bubble_no_table_plays_twice_before_the_others_played(
    n: int, size: int, seed: int
) -> None:
    t = mtt(n, size, seed=seed)
    rng = random.Random(seed)
    paid = len(mtt_payouts(n))  # every percent of the table is a place paid
    played: set[int] = set()  # the test's own count of the bubble round
    bubble_hands = 0  # (11+ entrants, 5+ paid, 3 to 5 seats: two tables on the bubble)
    for _ in range(5000):
        if t.over:
            break
        settle(t)
        bubble = len(t.playing) == paid + 1 and len(t.tables) > 1
        assert t.hand_for_hand == bubble
        ready = [k for k, s in t.tables.items() if len(s) >= 2]
        if not bubble:
            played.clear()
        elif set(ready) <= played:
            played.clear()  # every table played: the next round
        may = [k for k in ready if t.may_deal(k)]
        assert may, "every table waits: the tournament is stuck"
        if bubble:
            assert set(may) == set(ready) - played
        table = rng.choice(may)
        played.add(table)
        bubble_hands += bubble
        _small_hand(t, table, rng)
    assert t.over and bubble_hands > 0
