"""Many `cardlab web` processes, one set of tables (``--redis``): each table runs in the
process holding its lease (the others relay to it); kill -9 that process mid-hand and
another takes the lease within seconds and serves the hand from the store at the same
decision, with the table's chat."""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from _postgres import PostgresServer, postgres_server
from _redis import redis_server, redis_url
from cardlab.store import Store

__all__ = ["postgres_server", "redis_server", "redis_url"]

httpx = pytest.importorskip("httpx")
wsc = pytest.importorskip("websockets.sync.client")

Message = dict[str, Any]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    """In the child: SIGKILL when the test process dies."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _serve(db: str, redis: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    """``cardlab web`` on ``port``, its messages to the file ``log`` (a pipe nobody
    reads would stall it once full)."""
    command = [sys.executable, "-m", "cardlab", "web", "--db", db, "--port", str(port)]
    process = subprocess.Popen(
        [*command, "--redis", redis],
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
        env=os.environ | {"PYTHONUNBUFFERED": "1"},
        preexec_fn=_die_with_parent,
    )
    for _ in range(4000):  # a first start may compile the bots' kernels
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=1)
            return process
        except httpx.HTTPError:
            if process.poll() is not None:
                raise AssertionError(log.read_text(errors="replace")) from None
            time.sleep(0.1)
    raise AssertionError("cardlab web did not start")


def essentials(view: Message) -> Message:
    """What must be identical after a takeover."""
    return {
        "hand_number": view["table"]["hand_number"],
        "deal": view["hand"]["deal_number"],
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


def _views(base: str, tid: str, cookies: list[str]) -> list[httpx.Response]:
    return [httpx.get(f"{base}/api/tables/{tid}", headers={"cookie": c}) for c in cookies]


def _call_until(base: str, tid: str, cookies: list[str], done: Any) -> list[Message]:
    """Both people check or call (and show) over their sockets until ``done(view of seat 1)``."""
    ws_base = base.replace("http://", "ws://")
    with contextlib.ExitStack() as stack:
        sockets = [
            stack.enter_context(
                wsc.connect(f"{ws_base}/api/tables/{tid}/ws", additional_headers={"cookie": c})
            )
            for c in cookies
        ]
        for _ in range(400):
            seen = [r.json() for r in _views(base, tid, cookies)]
            if seen[0]["hand"] is not None and done(seen[0]):
                return seen
            for ws, view in zip(sockets, seen, strict=True):
                with contextlib.suppress(TimeoutError):
                    while True:  # read what was pushed, so the socket never backs up
                        ws.recv(timeout=0)
                if view["legal"]:
                    action = "s" if view["legal"]["phase"] == "showdown" else "c"
                    ws.send(json.dumps({"type": "action", "action": action, "turn": view["turn"]}))
            time.sleep(0.05)
    raise AssertionError("the table never reached the wanted state")


def _chat(base: str, tid: str, cookie: str, text: str) -> int:
    """Say ``text`` at the table as the browser of ``cookie``; the id it was posted as
    (told once the owner has stored it)."""
    url = base.replace("http://", "ws://") + f"/api/tables/{tid}/ws"
    with wsc.connect(url, additional_headers={"cookie": cookie}) as ws:
        ws.send(json.dumps({"type": "chat", "text": text}))
        for _ in range(100):
            message = json.loads(ws.recv(timeout=10))
            if message["type"] in ("chat_status", "error"):
                assert "posted" in message, message
                return int(message["posted"])
    raise AssertionError("the chat message was never posted")


@pytest.mark.slow
@pytest.mark.parametrize("street", ["pre-flop", "flop", "turn", "river"])
def test_kill_9_the_owner_and_another_process_resumes_the_hand(
    street: str, postgres_server: PostgresServer, redis_url: str, tmp_path: Path
) -> None:
    db = postgres_server.new_schema()
    ports = [_free_port(), _free_port()]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    a = _serve(db, redis_url, ports[0], tmp_path / "a.log")
    b = _serve(db, redis_url, ports[1], tmp_path / "b.log")
    try:
        body = {"game": "fesca78-holdem", "seats": 2, "stack": 100, "clock": 0, "pause": 0}
        created = httpx.post(bases[0] + "/api/tables", json=body)
        assert created.status_code == 201, created.text
        tid = created.json()["id"]
        cookies = []
        for name in ("ann", "bob"):
            r = httpx.post(f"{bases[0]}/api/tables/{tid}/join", json={"name": name})
            assert r.status_code == 200, r.text
            cookies.append(r.headers["set-cookie"].split(";")[0])
        before = _call_until(bases[0], tid, cookies, lambda v: v["hand"]["street"] == street)
        # B serves the table A runs (relayed to A): the same views
        relayed = _views(bases[1], tid, cookies)
        assert [essentials(r.json()) for r in relayed] == [essentials(v) for v in before]
        assert _chat(bases[1], tid, cookies[1], "nh ann") == 1  # through B, stored by A
        a.send_signal(signal.SIGKILL)
        a.wait()
        killed = time.monotonic()
        while True:
            after = _views(bases[1], tid, cookies)
            if all(r.status_code == 200 for r in after):
                break
            assert time.monotonic() - killed < 20, "B never took the table over"
            time.sleep(0.2)
        took = time.monotonic() - killed
        assert took < 12  # a 5 s lease, renewed and looked for every 5/3 s
        for was, now in zip(before, after, strict=True):
            assert essentials(now.json()) == essentials(was)
            said = [(c["id"], c["name"], c["text"]) for c in now.json()["chat"]]
            assert said == [(1, "bob", "nh ann")]  # the chat came through the crash
        # B plays the hand on to its end: it is stored once, with every chip
        deal = before[0]["hand"]["deal_number"]
        _call_until(bases[1], tid, cookies, lambda v: v["hand"]["deal_number"] > deal)
        with Store.open(db) as store:
            (hand,) = store.hands(table_id=tid)  # dealt once, stored once
            assert hand.players == ("ann", "bob")
            assert hand.starting_stacks == (100, 100)
            assert sum(hand.finishing_stacks) == 200  # no chip lost in the takeover
            live = store.live_hand(tid)
            assert live is not None and live.deal_number == deal + 1
            assert store.fence(tid) == 2  # A took the table with token 1, B with 2
    except BaseException:
        for name in ("a", "b"):
            print(f"--- {name}.log", (tmp_path / f"{name}.log").read_text(errors="replace")[-3000:])
        raise
    finally:
        for process in (a, b):
            if process.poll() is None:
                process.terminate()
                process.wait(10)


def _refused(*args: str) -> str:
    """The one-line error of ``cardlab ARGS``, which must fail with exit code 2."""
    from cardlab.cli import main

    err = io.StringIO()
    with (
        contextlib.redirect_stderr(err),
        contextlib.redirect_stdout(io.StringIO()),
        pytest.raises(SystemExit) as exit_,
    ):
        main(list(args))
    assert exit_.value.code == 2
    text = err.getvalue()
    assert text.startswith("cardlab: error: ") and text.count("\n") == 1, text
    return text


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--memory", "--redis", "redis://127.0.0.1:1/0"], "--redis needs a store the processes"),
        (["--db", "{tmp}/h.sqlite3", "--redis", "http://x/"], "--redis takes a redis://host:port"),
        (["--db", "{tmp}/h.sqlite3", "--redis", "redis://127.0.0.1:{closed}/0"], "cannot reach"),
    ],
)
def test_bad_redis_options_are_one_line_errors(
    extra: list[str], message: str, tmp_path: Path
) -> None:
    args = [a.format(tmp=tmp_path, closed=_free_port()) for a in extra]
    assert message in _refused("web", "--port", str(_free_port()), *args)
