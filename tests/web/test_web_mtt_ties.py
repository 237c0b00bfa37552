"""The round in which the bubble bursts, at the web tables: 7 players at tables of 4 and
3 with 6 places paid are on the bubble from the start. The table of 4 plays its hand of
the round all in (somebody goes out: the bubble bursts) and then waits for the table of
3's hand, which is still the round's; when that one ends the round is over, the waiting
table is told it may deal, and a player out at the table of 3 ties with the players
out at the table of 4 (the biggest stacks of each table share the best places).

Driven by hand as in ``test_web_mtt_crash.py`` (no event loop turning)."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from test_web_mtt_crash import HOST, _bet_all_in, _end, _server

from cardlab.store import Store
from cardlab.web.mtt import MttHall, MttRun


def _bubble(hall: MttHall) -> MttRun:
    run = hall.create(
        {
            "game": "fesca78-holdem",
            "table_size": 4,
            "stack": 40,
            "levels": "2/4",
            "level_hands": 50,
            "tournament_buy_in": 10,
            "payouts": [30, 20, 15, 15, 10, 10],
            "clock": 0,
            "pause": 0,
            "bot_delay": 0,
        },
        HOST,
    )
    for i in range(7):
        run.register({"bot": "station", "name": f"b{i}"}, HOST)
    run.start(HOST)
    return run


def test_the_round_the_bubble_bursts_in_ends_before_a_table_deals_again(tmp_path: Path) -> None:
    async def main() -> tuple[list[dict[str, Any]], bool]:
        for attempt in range(10):  # a hand that all four chop puts nobody out: again
            with Store.open(tmp_path / f"ties{attempt}.sqlite3") as store:
                _, hall = _server(store)
                run = _bubble(hall)
                assert run.mtt.hand_for_hand
                four, three = sorted(run.mtt.tables, key=lambda k: -len(run.mtt.tables[k]))
                a, b = run.links[four].room, run.links[three].room
                _bet_all_in(a)
                _end(a)
                if len(run.mtt.playing) == 7:
                    continue
                # the bubble burst, but the round goes on: the table of 4 (unless it was
                # broken) waits for the table of 3's hand
                assert not run.mtt.hand_for_hand and run.mtt.in_round
                kept = four in run.mtt.tables
                if kept:
                    assert not run.mtt.may_deal(four)
                    assert a.payload(None)["tournament"]["mtt"]["waiting"]
                woken: list[int] = []

                def wake(woken: list[int] = woken) -> None:
                    woken.append(1)

                a.pace.maybe_deal = wake  # type: ignore[method-assign]
                out_at_four = {r["name"] for r in run.mtt.standings() if r["place"]}
                _bet_all_in(b)
                _end(b)
                assert not run.mtt.in_round
                assert run.mtt.over or all(run.mtt.may_deal(k) for k in run.mtt.tables)
                if kept and not run.mtt.over:
                    assert woken, "the table that waited for the round was never told to deal"
                rows = run.mtt.standings()
                out_at_three = {r["name"] for r in rows if r["place"] and r["place"] > 1}
                if out_at_three - out_at_four:  # the players out earlier hear of the tie
                    said = " / ".join(b.notices)
                    assert "now shares place" in said and "(tied with" in said, said
                return rows, bool(out_at_three - out_at_four)
        raise AssertionError("ten all-in hands in a row put nobody out")

    rows, both = asyncio.run(main())
    # every place covered once: a place shared by c players is followed by the place c
    # later, and the pool (70) is paid exactly once the tournament is over
    counts = Counter(r["place"] for r in rows if r["place"] is not None)
    placed = sorted(counts)
    for p, q in itertools.pairwise(placed):
        assert q >= p + counts[p], counts
    assert max(placed) + counts[max(placed)] - 1 == 7
    if both:
        # players out at both tables in the round: the best of each table tie
        assert any(c > 1 for p, c in counts.items() if p > 1), counts
