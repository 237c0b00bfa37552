"""A hand survives a restart exactly: every action is stored before it is announced, and a
new server on the same file resumes the same decision with the same cards, bets and
clock; a hand that cannot be resumed is cancelled with every chip returned, and its deal
is never dealt again."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message=".*httpx2")
    from starlette.testclient import TestClient

from cardlab.store import Store
from cardlab.table import phh
from cardlab.table.dealing import verify_deal
from cardlab.web import create_app, table_clock

Message = dict[str, Any]


def app_on(path: Path) -> Any:
    return create_app(table_store=Store.open(path, synchronous="NORMAL"), limiter=None)


def make_table(client: TestClient, **fields: Any) -> tuple[str, list[str]]:
    """A table of two people (and the bots asked for); their cookie headers."""
    body = {"game": "fesca78-holdem", "seats": 2, "stack": 100, "clock": 30, "pause": 0}
    body |= {"bot_delay": 0} | fields
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid = str(r.json()["id"])
    cookies = []
    for name in ("ann", "bob"):
        client.cookies.clear()
        j = client.post(f"/api/tables/{tid}/join", json={"name": name})
        assert j.status_code == 200, j.text
        cookies.append(j.headers["set-cookie"].split(";")[0])
    client.cookies.clear()
    return tid, cookies


def views(client: TestClient, tid: str, cookies: list[str]) -> list[Message]:
    return [client.get(f"/api/tables/{tid}", headers={"cookie": c}).json() for c in cookies]


def play_until(
    client: TestClient, tid: str, cookies: list[str], done: Any, *, discard: bool = True
) -> list[Message]:
    """Both people check or call (and throw one card in a draw) until ``done(view)``."""
    url = f"/api/tables/{tid}/ws"
    with (
        client.websocket_connect(url, headers={"cookie": cookies[0]}) as w0,
        client.websocket_connect(url, headers={"cookie": cookies[1]}) as w1,
    ):
        for _ in range(400):
            seen = views(client, tid, cookies)
            if seen[0]["hand"] is not None and done(seen[0]):
                return seen
            for ws, view in zip((w0, w1), seen, strict=True):
                legal = view["legal"]
                if legal is None:
                    continue
                if legal["phase"] == "draw":
                    action = f"d {legal['hole'][0]}" if discard else "d"
                elif legal["phase"] == "showdown":
                    action = "s"
                elif legal["call"] is None:
                    action = "b"  # a stud bring-in
                else:
                    action = "c"
                ws.send_json({"type": "action", "action": action, "turn": view["turn"]})
            time.sleep(0.01)
    raise AssertionError("the table never reached the wanted state")


def at_street(street: int) -> Any:
    """True once the hand is at its ``street``-th street (from 0) and not over."""
    names: list[str] = []

    def reached(v: Message) -> bool:
        name = v["hand"]["street"]
        if name not in names:
            names.append(name)
        return names.index(name) == street and not v["hand"]["over"]

    return reached


def essentials(view: Message) -> Message:
    """What must be identical after a restart."""
    return {
        "hand_number": view["table"]["hand_number"],
        "deal": view["hand"]["deal_number"],
        "client_seeds": view["hand"]["client_seeds"],
        "board": view["hand"]["board"],
        "pots": view["hand"]["pots"],
        "seats": [
            {k: s[k] for k in ("name", "stack", "bet", "cards", "in_hand", "actor", "button")}
            for s in view["seats"]
        ],
        "legal": view["legal"],
        "log": view["log"],
        "commitment": view["fair"]["commitment"],
    }


@pytest.fixture
def short_clock_saves(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(table_clock, "CLOCK_SAVE", 0.1)
    yield


@pytest.mark.parametrize(
    ("game", "street"),
    [
        ("fesca78-holdem", 0),
        ("fesca78-holdem", 1),
        ("fesca78-holdem", 2),
        ("fesca78-holdem", 3),
        ("standard52-holdem", 3),
        ("fesca78-draw", 0),
        ("fesca78-draw", 1),
        ("standard52-stud", 2),
        ("fesca60-omaha", 1),
    ],
)
def test_a_restart_resumes_the_same_decision(
    tmp_path: Path, game: str, street: int, short_clock_saves: None
) -> None:
    path = tmp_path / "tables.sqlite3"
    with TestClient(app_on(path)) as client:
        tid, cookies = make_table(client, game=game)
        before = play_until(client, tid, cookies, at_street(street))
        time.sleep(0.45)  # the clock runs: its remaining time is saved as it goes
        before = views(client, tid, cookies)
        remaining = next(v["clock"]["remaining"] for v in before if v["clock"])
        assert remaining < 29.7
    # a new server on the same file (nothing was written when the first one stopped)
    with TestClient(app_on(path)) as client:
        after = views(client, tid, cookies)
        for b, a in zip(before, after, strict=True):
            assert essentials(a) == essentials(b)
            assert any("resumed after a server restart" in n for n in a["notices"])
        resumed = next(v["clock"]["remaining"] for v in after if v["clock"])
        # the clock goes on from where it was saved (not a fresh 30 s), give or take a tick
        assert resumed <= remaining + 0.15
        # the hand plays to its end and the chips are all there
        play_until(client, tid, cookies, lambda v: v["table"]["hand_number"] >= 2)
        store = client.app.state.tables.store  # type: ignore[attr-defined]
        hands = store.hands(table_id=tid)
        first = [h for h in hands if phh.loads(h.phh).user_fields["_deal_number"] == 0]
        assert len(first) == 1  # stored once, never dealt twice
        assert sum(first[0].finishing_stacks) == 200
        r = client.get(f"/api/tables/{tid}", headers={"cookie": cookies[0]}).json()
        assert r["table"]["hand_number"] >= 2


def test_the_resumed_hand_is_the_dealt_one_and_verifies(tmp_path: Path) -> None:
    """The hole cards and board a seat saw before the restart are those of the stored
    hand, and once the seed is revealed the hand verifies."""
    path = tmp_path / "tables.sqlite3"
    with TestClient(app_on(path)) as client:
        tid, cookies = make_table(client)
        before = play_until(client, tid, cookies, at_street(2))
        seen = {
            "hole": [next(s["cards"] for s in v["seats"] if s["you"]) for v in before],
            "board": before[0]["hand"]["board"],
        }
    with TestClient(app_on(path)) as client:
        play_until(client, tid, cookies, lambda v: v["table"]["hand_number"] >= 2)
        with client.websocket_connect(
            f"/api/tables/{tid}/ws", headers={"cookie": cookies[0]}
        ) as ws:
            ws.send_json({"type": "reveal"})
            for _ in range(100):
                m = ws.receive_json()
                if m.get("type") == "state" and m["fair"]["revealed"]:
                    break
        store = client.app.state.tables.store  # type: ignore[attr-defined]
        first = next(
            h
            for h in store.hands(table_id=tid)
            if phh.loads(h.phh).user_fields["_deal_number"] == 0
        )
        history = phh.loads(first.phh)
        assert verify_deal(history).status == "verified"
        deck = history.deck
        shown = [str(a) for a in history.actions]
        for hole in seen["hole"]:
            token = "".join(deck.card(c).ascii for c in hole)
            assert any(line.endswith(token) and line.startswith("d dh") for line in shown)
        board = "".join(deck.card(c).ascii for c in seen["board"])
        assert board in "".join(line.split()[-1] for line in shown if line.startswith("d db"))


def _stored_stacks(path: Path, tid: str) -> list[int]:
    with sqlite3.connect(path) as db:
        (state,) = db.execute("SELECT state FROM tables WHERE id = ?", (tid,)).fetchone()
    import json

    return [int(v) for v in json.loads(state)["stacks"]]


@pytest.mark.parametrize("damage", ["illegal action", "lost seed"])
def test_a_hand_that_cannot_resume_is_cancelled_with_every_chip_back(
    tmp_path: Path, damage: str
) -> None:
    path = tmp_path / "tables.sqlite3"
    with TestClient(app_on(path)) as client:
        tid, cookies = make_table(client)
        start = [s["stack"] for s in views(client, tid, cookies)[0]["seats"]]
        play_until(client, tid, cookies, at_street(1))
        mid = views(client, tid, cookies)[0]
        assert mid["hand"]["total_pot"] > 0
    with sqlite3.connect(path) as db:
        if damage == "illegal action":
            (n,) = db.execute(
                "SELECT COUNT(*) FROM live_actions WHERE table_id = ?", (tid,)
            ).fetchone()
            db.execute(
                "INSERT INTO live_actions (table_id, seq, action, at)"
                " VALUES (?, ?, 'r 99999', 'x')",
                (tid, n),
            )
        else:
            db.execute("DELETE FROM deal_seeds WHERE table_id = ?", (tid,))
            db.execute(
                "INSERT INTO deal_seeds VALUES (?, ?, ?, 'x', NULL)", ("0" * 64, tid, "1" * 64)
            )
    # either way the hand cannot be replayed: it is cancelled, the table goes on (with a
    # new seed when its seed was lost)
    with TestClient(app_on(path)) as client:
        after = views(client, tid, cookies)
        assert any("cancelled" in n and "every chip returned" in n for n in after[0]["notices"])
        stacks = [s["stack"] for s in after[0]["seats"]]
        # every chip back where it was before the deal (the next deal may have begun:
        # compare the stacks the store kept between hands)
        assert _stored_stacks(path, tid) == start or stacks == start
        store = client.app.state.tables.store  # type: ignore[attr-defined]
        assert store.hands(table_id=tid) == []  # the cancelled hand is not a played hand
        play_until(client, tid, cookies, lambda v: v["hand"]["deal_number"] >= 1)
        deal = views(client, tid, cookies)[0]["hand"]["deal_number"]
        assert deal == 1  # deal 0 is never dealt again


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    """In the child: SIGKILL when the test process dies (a pytest killed by a timeout
    must not leave a server dealing hands forever)."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _serve(path: Path, port: int) -> subprocess.Popen[bytes]:
    env = os.environ | {"PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(
        [sys.executable, "-m", "cardlab", "web", "--db", str(path), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=_die_with_parent,
    )
    import httpx

    # a first start after the sources changed compiles the bots' kernels (minutes on a
    # busy 2-core machine) before it serves
    for _ in range(4000):
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
            return process
        except httpx.HTTPError:
            if process.poll() is not None:
                error = process.stderr.read().decode() if process.stderr else ""
                raise AssertionError(error) from None
            time.sleep(0.1)
    raise AssertionError("cardlab web did not start")


@pytest.mark.slow
def test_kill_9_mid_hand_and_restart(tmp_path: Path) -> None:
    """The real thing: `cardlab web --db FILE` killed with SIGKILL on the turn and started
    again: the same decision, the same cards, not a new deal."""
    import httpx

    path = tmp_path / "tables.sqlite3"
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    server = _serve(path, port)
    try:
        body = {"game": "fesca78-holdem", "seats": 2, "stack": 100, "clock": 0, "pause": 0}
        tid = httpx.post(base + "/api/tables", json=body).json()["id"]
        cookies = []
        for name in ("ann", "bob"):
            r = httpx.post(f"{base}/api/tables/{tid}/join", json={"name": name})
            cookies.append(r.headers["set-cookie"].split(";")[0])
        import websockets.sync.client as wsc

        def seen() -> list[Message]:
            return [
                httpx.get(f"{base}/api/tables/{tid}", headers={"cookie": c}).json() for c in cookies
            ]

        stack = contextlib.ExitStack()
        sockets = [
            stack.enter_context(
                wsc.connect(
                    f"ws://127.0.0.1:{port}/api/tables/{tid}/ws", additional_headers={"cookie": c}
                )
            )
            for c in cookies
        ]
        for _ in range(200):
            views_now = seen()
            if views_now[0]["hand"] and views_now[0]["hand"]["street"] == "turn":
                break
            for ws, v in zip(sockets, views_now, strict=True):
                if v["legal"]:
                    import json

                    ws.send(json.dumps({"type": "action", "action": "c", "turn": v["turn"]}))
            time.sleep(0.05)
        before = seen()
        assert before[0]["hand"]["street"] == "turn"
        stack.close()
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    server = _serve(path, port)
    try:
        after = seen()
        for b, a in zip(before, after, strict=True):
            assert essentials(a) == essentials(b)
    finally:
        server.terminate()
        server.wait()
