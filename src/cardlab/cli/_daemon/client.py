"""The caller's side: hand a command line run to the daemon, if one is running.

:func:`forward` returns the run's exit code, or None when the daemon is not there or
did not take the run (then the caller runs the command itself, as without a daemon).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

from cardlab.cli._daemon import wire

# commands never handed over: the daemon's own, and the web server (a long-lived
# process of its own, which warms its kernels itself)
LOCAL_COMMANDS = frozenset({"daemon", "web"})
# signals the caller receives that belong to the run (Ctrl-C, Ctrl-\, a kill, a hang-up,
# a resized terminal)
SERVER = (sys.executable, "-m", "cardlab.cli._daemon.server")
AUTO_IDLE_MINUTES = 15.0  # a daemon CARDLAB_DAEMON=auto started ends sooner
# commands whose runs load compiled kernels (numba's start, most of a second): typed at a
# terminal with CARDLAB_DAEMON unset, one starts a daemon for the next ones
KERNEL_COMMANDS = frozenset({"equity", "ties", "draw"})
FORWARDED = (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGHUP, signal.SIGWINCH)


def setting() -> str:
    """``CARDLAB_DAEMON``: "off" (run every command here), "auto" (start a daemon when
    none runs) or "on" (the default: use one if it runs)."""
    value = os.environ.get("CARDLAB_DAEMON", "").strip().lower()
    if value in {"off", "0", "no", "false"}:
        return "off"
    return "auto" if value == "auto" else "on"


def enabled() -> bool:
    """False when ``CARDLAB_DAEMON`` is off or the platform cannot pass descriptors."""
    return setting() != "off" and hasattr(socket, "send_fds") and hasattr(os, "fork")


def starts_on_its_own(args: list[str]) -> bool:
    """Whether this run starts a daemon for the next ones unasked: ``CARDLAB_DAEMON``
    unset, a command that loads compiled kernels (:data:`KERNEL_COMMANDS`), typed at a
    terminal (input and error output both one), where the next question likely follows
    within minutes. A script or a program calling ``cardlab`` gets no process it did not
    ask for (``CARDLAB_DAEMON=auto`` asks)."""
    if "CARDLAB_DAEMON" in os.environ or not args or args[0] not in KERNEL_COMMANDS:
        return False
    streams = (sys.stdin, sys.stderr)
    return all(stream is not None and stream.isatty() for stream in streams)


def start_detached(idle_minutes: float) -> subprocess.Popen[bytes]:
    """Launch the daemon in its own session, its output to the log; no waiting (the
    process, to see whether it is still there)."""
    path = wire.socket_path()
    wire.private_dir(path.parent)
    with open(wire.log_path(), "ab") as log:
        return subprocess.Popen(
            [*SERVER, "--socket", str(path), "--idle", str(idle_minutes * 60)],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,  # not ended with the terminal or caller that started it
            close_fds=True,
        )


def forward(args: list[str]) -> int | None:
    """Run ``cardlab ARGS`` in the daemon; its exit code, or None to run it here."""
    if not enabled() or (args and args[0] in LOCAL_COMMANDS):
        return None
    try:
        path = wire.socket_path()
    except wire.DaemonError:  # a CARDLAB_DAEMON_DIR no socket can be in: `daemon` says so
        return None
    if not path.exists():
        if setting() == "auto" or starts_on_its_own(args):  # this run here; the next ones there
            with contextlib.suppress(OSError, wire.DaemonError):
                start_detached(AUTO_IDLE_MINUTES)
        return None
    closed = closed_standard_fds()  # before the socket takes the lowest free descriptor
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with sock:
        try:
            sock.connect(str(path))
            with _standard_fds(closed) as fds:
                wire.send(sock, {**_request(args), "closed": closed}, fds)
            answer, _ = wire.receive(sock)
        except (OSError, wire.DaemonError):
            return None  # gone or going: run here
        if answer is None or "pid" not in answer:
            reason = "it closed the connection" if answer is None else answer.get("refused")
            print(f"cardlab: the daemon did not take this run ({reason}); running it here",
                  file=sys.stderr)  # fmt: skip
            return None
        return _wait(sock, int(answer["pid"]))


def _request(args: list[str]) -> dict[str, Any]:
    streams = [
        [getattr(s, "encoding", None), getattr(s, "errors", None)]
        for s in (sys.stdin, sys.stdout, sys.stderr)
    ]
    return {
        "op": "run",
        "argv": args,
        "argv0": sys.argv[0] if sys.argv else "cardlab",
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "streams": streams,
    }


def closed_standard_fds() -> list[int]:
    """Which of descriptors 0, 1 and 2 this process started without (``<&-``): Python's
    start left their ``sys.__stdin__`` (...) None, or they are closed now. (A descriptor
    opened since, the daemon's socket itself, must not pass for the caller's stream.)"""
    originals = (sys.__stdin__, sys.__stdout__, sys.__stderr__)
    closed = []
    for fd, original in enumerate(originals):
        try:
            os.fstat(fd)
        except OSError:
            closed.append(fd)
            continue
        if original is None:
            closed.append(fd)
    return closed


@contextlib.contextmanager
def _standard_fds(closed: list[int]) -> Iterator[list[int]]:
    """Descriptors 0, 1 and 2 (one in ``closed`` stands as /dev/null: the run closes
    it)."""
    opened: list[int] = []
    fds = []
    for fd in (0, 1, 2):
        if fd in closed:
            null = os.open(os.devnull, os.O_RDWR)
            opened.append(null)
            fds.append(null)
        else:
            fds.append(fd)
    try:
        yield fds
    finally:
        for fd in opened:
            os.close(fd)


def _wait(sock: socket.socket, pid: int) -> int:
    """Pass on the caller's signals to the run until it reports its exit code."""

    def pass_on(signum: int, frame: object) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signum)

    previous = {sig: signal.signal(sig, pass_on) for sig in FORWARDED}
    try:
        try:
            answer, _ = wire.receive(sock)
        except (OSError, wire.DaemonError):
            answer = None
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if answer is None or not isinstance(answer.get("exit"), int):
        print(
            "cardlab: error: the daemon's run ended without an exit status (the daemon or "
            "the run was killed)",
            file=sys.stderr,
        )
        return 1
    code: int = answer["exit"]
    return code
