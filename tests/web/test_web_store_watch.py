"""The watch on the store (:mod:`cardlab.web.store_watch`) with a store whose answers the
test decides, and a paused table in one process: what a page and the API see, and the
table restored from the store afterwards, its pages closed with 1012."""

from __future__ import annotations

import asyncio
import json
import logging
import warnings
from typing import Any

import pytest

from cardlab.errors import StoreError
from cardlab.store import Store
from cardlab.web import create_app
from cardlab.web.store_watch import StoreWatch
from cardlab.web.table_errors import AWAY

with warnings.catch_warnings():  # starlette >= 1 would rather have httpx2
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect


class Answers:
    """A store that answers (or not) as the test says, and counts its reconnections."""

    def __init__(self) -> None:
        self.up = True
        self.reconnects = 0

    def ping(self) -> None:
        if not self.up:
            raise StoreError("the hand store 'x' is unreachable: connection refused")


class Calls:
    def __init__(self) -> None:
        self.down = self.up = self.stops = 0

    def on_down(self) -> None:
        self.down += 1

    async def on_up(self) -> None:
        self.up += 1

    def stop(self) -> None:
        self.stops += 1


def test_an_outage_begins_once_ends_once_and_passes_its_limit_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store, calls, now = Answers(), Calls(), [100.0]
    watch = StoreWatch(
        store,
        on_down=calls.on_down,
        on_up=calls.on_up,
        limit=30,
        stop=calls.stop,
        clock=lambda: now[0],
    )

    async def scenario() -> None:
        await watch.look()
        assert (calls.down, calls.up, watch.down) == (0, 0, False)
        store.up = False
        for _ in range(3):
            await watch.look()
            now[0] += 10
        assert (calls.down, calls.up, watch.down) == (1, 0, True)
        assert "connection refused" in watch.reason
        assert watch.down_for() == 30 and not watch.expired
        await watch.look()  # 30 s: the limit
        await watch.look()
        assert watch.expired and calls.stops == 1
        store.up = True
        await watch.look()
        assert (calls.down, calls.up, watch.down, watch.expired) == (1, 1, False, False)
        store.reconnects += 1  # lost and made again between two looks
        await watch.look()
        assert (calls.down, calls.up, watch.outages) == (2, 2, 2)
        await watch.look()
        assert (calls.down, calls.up) == (2, 2)

    with caplog.at_level(logging.WARNING, logger="cardlab.web.store_watch"):
        asyncio.run(scenario())
    lines = [r.getMessage() for r in caplog.records]
    assert sum("is unreachable" in line for line in lines) == 2
    assert sum("reachable again" in line for line in lines) == 2
    assert sum("the outage limit" in line for line in lines) == 1


def test_an_outage_limit_is_positive() -> None:
    calls = Calls()
    with pytest.raises(ValueError, match="positive"):
        StoreWatch(Answers(), on_down=calls.on_down, on_up=calls.on_up, limit=0)


def _table(client: TestClient) -> str:
    """A table whose host (the client, its cookie kept) sits as ann."""
    body = {"game": "fesca78-holdem", "seats": 2, "stack": 100, "clock": 0, "pause": 0}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    tid = str(created.json()["id"])
    joined = client.post(f"/api/tables/{tid}/join", json={"name": "ann"})
    assert joined.status_code == 200, joined.text
    return tid


def _state(ws: Any, status: str | None = None) -> dict[str, Any]:
    """The next state sent (with that ``status``, if given: earlier ones are skipped)."""
    for _ in range(20):
        message = json.loads(ws.receive_text())
        if message["type"] == "state" and status in (None, message["table"]["status"]):
            return dict(message)
    raise AssertionError(f"no state with status {status!r}")


def test_a_paused_table_refuses_what_must_be_stored_and_comes_back_from_the_store() -> None:
    app = create_app(table_store=Store.in_memory(), limiter=None)
    manager = app.state.tables
    with TestClient(app) as client:
        tid = _table(client)
        with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            assert _state(ws)["you"]["name"] == "ann"
            old = manager.rooms[tid]
            manager._pause_all()  # what the watch does when the store goes away
            _state(ws, AWAY)
            ws.send_text(json.dumps({"type": "action", "action": "c"}))
            error = json.loads(ws.receive_text())
            assert error["type"] == "error" and AWAY in error["message"]
            ws.send_text(json.dumps({"type": "chat", "text": "still here?"}))  # memory only
            refused = client.post(f"/api/tables/{tid}/join", json={"name": "ann"})
            assert refused.status_code == 503 and AWAY in refused.json()["error"]
            assert client.get(f"/api/tables/{tid}").json()["table"]["status"] == AWAY
            client.portal.call(manager._resume_all)  # the store is back
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    ws.receive_text()
            assert closed.value.code == 1012
        fresh = manager.rooms[tid]
        assert fresh is not old and not fresh.gate.away
        assert fresh.seats[0].name == "ann"
        joined = client.post(f"/api/tables/{tid}/join", json={"name": "ann"})
        assert joined.status_code == 200, joined.text  # (the seat ann has)
        with client.websocket_connect(f"/api/tables/{tid}/ws") as ws:
            state = _state(ws)
            assert state["table"]["status"] != AWAY
            assert [m["text"] for m in state["chat"]] == ["still here?"]
            assert "the table's store is back: play resumes" in state["notices"]
