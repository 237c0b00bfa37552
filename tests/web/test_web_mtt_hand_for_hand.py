"""Hand for hand on the bubble at the web tables of a multi-table tournament: a table
that finished its hand waits for the other tables' hands (its status says so), so the
tables' hands stay in step, however fast a table plays; once a player is out in the
money, the tables play at their own pace again."""

from __future__ import annotations

import time
import tomllib
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from test_web_mtt import app_client, create, lobby, post

from cardlab.store import Store


def _hands(store: Store, table_ids: list[str]) -> list[tuple[int, str, list[int]]]:
    """Every stored hand of the tournament in the order the hands ended: (id, table,
    finishing stacks)."""
    out = []
    for tid in table_ids:
        for r in store.hands(table_id=tid):
            out.append((r.id or 0, tid, list(tomllib.loads(r.phh)["finishing_stacks"])))
    return sorted(out)


def test_on_the_bubble_a_fast_table_waits_for_a_slow_one() -> None:
    store = Store.in_memory()
    with app_client(store) as client:
        # 8 entrants at tables of 4, 7 places paid: the bubble from the first hand. Ann
        # never answers: the clock plays for her, so her table is slow; the other table
        # is all bots that answer at once
        mid, host = create(
            client, stack=500, levels="1/2", level_hands=500, clock=1,
            payouts=[30, 20, 15, 12, 10, 8, 5],
        )  # fmt: skip
        for i in range(7):  # calling stations: nobody goes out for a while
            body = {"bot": "station", "name": f"s{i}"}
            assert post(client, f"/api/mtts/{mid}/register", body, host).status_code == 200
        r = post(client, f"/api/mtts/{mid}/register", {"name": "Ann"})
        assert r.status_code == 200, r.text
        ann = r.headers["set-cookie"].split(";")[0]
        started = post(client, f"/api/mtts/{mid}/start", {}, host).json()
        ids = [t["url"].rsplit("/", 1)[1] for t in started["tables"]]
        slow = lobby(client, mid, ann)["you"]["table_url"].rsplit("/", 1)[1]
        fast = next(t for t in ids if t != slow)
        assert lobby(client, mid)["hand_for_hand"], lobby(client, mid)
        waited = False
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(_hands(store, ids)) < 8:
            view: dict[str, Any] = client.get(f"/api/tables/{fast}").json()
            if view["tournament"]["mtt"]["waiting"]:
                waited = True
                assert "hand for hand" in view["table"]["status"]
            time.sleep(0.05)
        hands = _hands(store, ids)
    assert waited, "the fast table never waited for the slow one"
    # while nobody was out, the two tables' counts of hands never differed by more than
    # one (a table plays its next hand only once the other has finished its own)
    counts = {slow: 0, fast: 0}
    for _id, tid, stacks in hands:
        counts[tid] += 1
        assert abs(counts[slow] - counts[fast]) <= 1, hands
        if 0 in stacks:
            break  # somebody is out in the money: the tables go at their own pace
    assert counts[fast] >= 2


@pytest.mark.parametrize(
    ("payouts", "says"),
    [
        ("50/50", "a list of 1 to 200 whole percents"),
        ([50, True, 50], "whole percents"),
        ([60, 50], "summing to 100"),
        ([20, 80], "must not be paid less"),
        ([1] * 100, None),  # more places paid than a table has seats: fine
    ],
)
def test_a_tournament_pays_places_across_its_tables(payouts: Any, says: str | None) -> None:
    with app_client(Store.in_memory()) as client:
        client.cookies.clear()
        body = {"game": "fesca78-holdem", "table_size": 4, "stack": 60, "payouts": payouts}
        r = client.post("/api/mtts", json=body)
        if says is None:
            assert r.status_code == 201, r.text
        else:
            assert r.status_code == 400 and says in r.json()["error"], r.text
