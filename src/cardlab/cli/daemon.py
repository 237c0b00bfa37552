"""``cardlab daemon start|stop|status``: the warm process that answers the command line.

See :mod:`cardlab.cli._daemon` for how it works and what keeps its answers a fresh
process's.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from typing import Any

import click

from cardlab import render
from cardlab.cli._common import FiniteFloat, emit_json, format_option
from cardlab.cli._daemon import client, wire
from cardlab.errors import CardlabError

START_TIMEOUT = 300.0  # seconds: a first start loads every cached kernel


@click.group()
def daemon() -> None:
    """A warm process that runs cardlab commands at once (numba and the kernels loaded).

    Once started, every `cardlab` command of this installation is run by it (in a
    forked child, with your arguments, directory, environment and terminal) and
    answers without numba's start. CARDLAB_DAEMON=off runs commands in their own
    process; CARDLAB_DAEMON=auto starts a daemon (ending after 15 idle minutes) when a
    command finds none.
    """


@daemon.command()
@click.option(
    "--idle",
    type=FiniteFloat(min=1.0),
    default=60.0,
    show_default=True,
    help="Minutes without a command after which the daemon ends.",
)
@format_option("text", "json")
def start(idle: float, fmt: str) -> None:
    """Start the daemon (nothing to do when it runs already)."""
    _check_platform()
    status = _ask({"op": "status"})
    if status is None:
        status = _wait_ready(client.start_detached(idle))
        status["started_now"] = True
    else:
        status["started_now"] = False
    _show(status, fmt)


@daemon.command()
@format_option("text", "json")
def stop(fmt: str) -> None:
    """Stop the daemon, and end the runs it has in progress (their callers see them end
    as if killed: exit code 143)."""
    _check_platform()
    answer = _ask({"op": "stop"})
    if answer is not None:
        deadline = time.monotonic() + 15  # (runs get a few seconds to end)
        while wire.socket_path().exists() and time.monotonic() < deadline:
            time.sleep(0.05)
    ended = int(answer.get("ending_runs", 0)) if answer is not None else 0
    result = {
        "stopped": answer is not None,
        "pid": None if answer is None else answer["stopping"],
        "ended_runs": ended,
    }
    if fmt == "json":
        emit_json(result)
    elif answer is None:
        click.echo("no daemon was running")
    else:
        runs = f"; ended {ended} run{'s' if ended != 1 else ''} in progress" if ended else ""
        click.echo(f"daemon {answer['stopping']} stopped{runs}")


@daemon.command()
@format_option("text", "json")
def status(fmt: str) -> None:
    """Whether the daemon runs, since when, and what it loaded (exit 1 when not)."""
    _check_platform()
    answer = _ask({"op": "status"})
    if answer is None:
        if fmt == "json":
            emit_json({"running": False, "socket": str(wire.socket_path())})
        else:
            click.echo("no daemon is running (start one: cardlab daemon start)")
        sys.exit(1)
    _show(answer, fmt)


def _check_platform() -> None:
    if not hasattr(socket, "send_fds") or not hasattr(os, "fork"):
        raise CardlabError("the daemon needs a POSIX system (fork, descriptors over sockets)")


def _ask(request: dict[str, Any]) -> dict[str, Any] | None:
    """The daemon's answer, or None when none answers at the socket."""
    path = wire.socket_path()
    if not path.exists():
        return None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10.0)
        try:
            sock.connect(str(path))
            wire.send(sock, request)
            answer, _ = wire.receive(sock)
        except (OSError, wire.DaemonError):
            return None
    return answer


def _wait_ready(server: subprocess.Popen[bytes]) -> dict[str, Any]:
    """The new daemon's status once it answers; a server that ended before it did is
    reported at once, with the last line it logged."""
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        answer = _ask({"op": "status"})
        if answer is not None:
            return answer
        code = server.poll()
        if code:  # (0: another daemon took the socket first, and answers soon)
            raise CardlabError(
                f"the daemon ended as it started (exit code {code}): {_last_logged()}"
            )
        time.sleep(0.05)
    raise CardlabError(
        f"the daemon did not answer within {START_TIMEOUT:g} s; see {wire.log_path()}"
    )


def _last_logged() -> str:
    """The daemon log's last line (its reason for ending), or where the log is."""
    path = wire.log_path()
    try:
        with open(path, "rb") as log:
            log.seek(max(0, log.seek(0, 2) - 4096))
            lines = log.read().decode("utf-8", "replace").strip().splitlines()
    except OSError:
        lines = []
    return lines[-1].strip() if lines else f"see {path}"


def _show(status: dict[str, Any], fmt: str) -> None:
    status = {"running": True, **status, "enabled": client.enabled()}
    if fmt == "json":
        emit_json(status)
        return
    rows = [
        ("pid", status["pid"]),
        ("started", "now" if status.get("started_now") else f"{status['uptime_s']:g} s ago"),
        ("ends after", f"{status['idle_limit_s'] / 60:g} min without a command"),
        ("runs", f"{status['runs']} (refused {status['refused']})"),
        ("kernels loaded", f"{status['kernels']} in {status['kernels_s']:g} s"),
        ("commands imported", f"in {status['imports_s']:g} s"),
        ("memory", f"{status['memory_bytes'] / 2**20:.0f} MiB"),
        ("socket", status["socket"]),
    ]
    if status.get("last_refusal"):
        rows.append(("last refusal", status["last_refusal"]))
    if not status["enabled"]:
        rows.append(("note", "CARDLAB_DAEMON is off here: commands run in their own process"))
    render.console().print(render.text_table(("daemon", ""), rows))
