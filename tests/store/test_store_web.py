"""The web table on a PostgreSQL store (``cardlab web --db postgresql://...``): a hand in
play survives a server restart at the same decision, as it does on an SQLite file
(tests/web/test_web_tables_restart.py, whose helpers this reuses)."""

from __future__ import annotations

import time
import warnings
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from cardlab.store import Store
from cardlab.table import phh
from cardlab.web import create_app, table_clock
from web.test_web_tables_restart import at_street, essentials, make_table, play_until, views


def _app(url: str) -> Any:
    # as `cardlab web --db URL` opens it
    return create_app(table_store=Store.open(url, synchronous="NORMAL"), limiter=None)


@pytest.mark.parametrize("street", [0, 2])
def test_a_restart_on_postgres_resumes_the_same_decision(
    postgres_url: str, street: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_clock, "CLOCK_SAVE", 0.1)
    with TestClient(_app(postgres_url)) as client:
        tid, cookies = make_table(client)
        play_until(client, tid, cookies, at_street(street))
        time.sleep(0.3)  # the clock's remaining time is saved as it runs
        before = views(client, tid, cookies)
    with TestClient(_app(postgres_url)) as client:  # a new server on the same database
        after = views(client, tid, cookies)
        for b, a in zip(before, after, strict=True):
            assert essentials(a) == essentials(b)
            assert any("resumed after a server restart" in n for n in a["notices"])
        play_until(client, tid, cookies, lambda v: v["table"]["hand_number"] >= 2)
    with Store.open(postgres_url, read_only=True) as store:
        hands = store.hands(table_id=tid)
    first = [h for h in hands if phh.loads(h.phh).user_fields["_deal_number"] == 0]
    assert len(first) == 1  # stored once, never dealt twice
    assert sum(first[0].finishing_stacks) == 200
