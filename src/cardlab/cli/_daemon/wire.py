"""Where the daemon listens, and how a request and its answers travel.

A message is a JSON object after its length (4 bytes, network order). A run's request
carries the caller's standard input, output and error as file descriptors
(``SCM_RIGHTS``) with its first bytes.
"""

from __future__ import annotations

import hashlib
import json
import os
import socket
import stat
import struct
import sys
import tempfile
from pathlib import Path
from typing import Any

from cardlab._paths import check_name
from cardlab.errors import CardlabError

# the environment that shapes a run when modules are imported or threads start (the
# spare child starts OpenMP's before its run comes): it must be the daemon's
SHAPING_PREFIXES = ("CARDLAB_", "NUMBA_", "PYTHON", "OMP_", "GOMP_", "KMP_")
MAX_MESSAGE = 8 << 20  # bytes of one message (an environment may be large; not this large)
_HEADER = struct.Struct("!I")
_PACKAGE = Path(__file__).resolve().parents[2]  # src/cardlab


class DaemonError(CardlabError):
    """The daemon cannot be reached or used safely; the message says why."""


def socket_dir() -> Path:
    """``CARDLAB_DAEMON_DIR``, else ``$XDG_RUNTIME_DIR/cardlab``, else
    ``<tmp>/cardlab-<uid>``."""
    chosen = os.environ.get("CARDLAB_DAEMON_DIR")
    if chosen:
        check_name(chosen, "CARDLAB_DAEMON_DIR", DaemonError)
        return Path(chosen)
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isdir(runtime):
        return Path(runtime) / "cardlab"
    return Path(tempfile.gettempdir()) / f"cardlab-{os.getuid()}"


def installation_key(package: Path = _PACKAGE) -> str:
    """One daemon per environment (``sys.prefix``: a virtual environment's own, whichever
    of its ``python`` links started it) and package directory."""
    text = f"{sys.prefix}\0{package}"
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:16]


SUN_PATH_MAX = 107  # bytes of a Unix socket's path (sockaddr_un's 108, a NUL included)


def socket_path() -> Path:
    """The socket of this installation's daemon (refused if longer than a socket's
    address can hold: the server could never bind it)."""
    path = socket_dir() / f"daemon-{installation_key()}.sock"
    if len(os.fsencode(path)) > SUN_PATH_MAX:
        raise DaemonError(
            f"the daemon's socket {str(path)!r} is {len(os.fsencode(path))} bytes long, and a "
            f"Unix socket's path has at most {SUN_PATH_MAX}: set CARDLAB_DAEMON_DIR to a "
            "shorter directory"
        )
    return path


def log_path() -> Path:
    """Where the daemon writes what it has to say (its start, a child's crash)."""
    return socket_path().with_suffix(".log")


def private_dir(path: Path) -> Path:
    """``path``, created if missing, refused unless it is a directory of this user that
    no one else may enter (a socket there is reachable by its owner only)."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = path.lstat()
    except OSError as exc:
        raise DaemonError(f"cannot use {str(path)!r} for the daemon's socket: {exc}") from exc
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
        raise DaemonError(f"{str(path)!r} is not a directory of this user")
    if info.st_mode & 0o077:
        mode = info.st_mode & 0o777
        raise DaemonError(f"{str(path)!r} may be entered by other users (mode {mode:o})")
    return path


def shaping_env(env: dict[str, str]) -> dict[str, str]:
    """The part of an environment that must agree between the caller and the daemon."""
    return {k: v for k, v in env.items() if k.startswith(SHAPING_PREFIXES)}


def send(sock: socket.socket, message: dict[str, Any], fds: list[int] | None = None) -> None:
    """Send one message; ``fds`` travel with its first bytes."""
    data = json.dumps(message).encode("ascii")  # escapes: any str travels, lone surrogates too
    frame = _HEADER.pack(len(data)) + data
    sent = socket.send_fds(sock, [frame], fds) if fds else 0
    if sent < len(frame):  # (an empty send to a peer that has read all and gone: EPIPE)
        sock.sendall(frame[sent:])


def receive(sock: socket.socket, max_fds: int = 0) -> tuple[dict[str, Any] | None, list[int]]:
    """One message and the file descriptors that came with it; ``(None, [])`` when the
    other side closed the connection before a message began."""
    fds: list[int] = []
    head = b""
    while len(head) < _HEADER.size:
        if max_fds and not fds:
            chunk, got, _, _ = socket.recv_fds(sock, _HEADER.size - len(head), max_fds)
            fds.extend(got)
        else:
            chunk = sock.recv(_HEADER.size - len(head))
        if not chunk:
            if head:
                raise DaemonError("the connection closed inside a message")
            return None, fds
        head += chunk
    (size,) = _HEADER.unpack(head)
    if size > MAX_MESSAGE:
        raise DaemonError(f"a message of {size} bytes is more than {MAX_MESSAGE}")
    body = bytearray()
    while len(body) < size:
        chunk = sock.recv(min(size - len(body), 1 << 16))
        if not chunk:
            raise DaemonError("the connection closed inside a message")
        body += chunk
    try:
        message = json.loads(bytes(body))
    except ValueError as exc:
        raise DaemonError(f"a message that is not JSON: {exc}") from exc
    if not isinstance(message, dict):
        raise DaemonError("a message must be a JSON object")
    return message, fds
