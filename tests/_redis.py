"""A real Redis server for the tests, in a temporary directory (no system service).

:class:`RedisServer` starts Debian's ``redis-server`` on a free port of 127.0.0.1 with
its working directory in a new temporary directory, persistence off (``--save ""
--appendonly no``), and stops it and removes the directory at the end. The session
fixture :func:`redis_server` fails the tests that need it, loudly, when Redis is not
installed (never skips). Use it from a test module or ``conftest.py``:
``from _redis import redis_server``.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

INSTALL = "apt-get install -y redis-server (Debian/Ubuntu; the tests need redis-server)"


def find_redis_server() -> str:
    found = shutil.which("redis-server") or (
        "/usr/bin/redis-server" if Path("/usr/bin/redis-server").exists() else None
    )
    if found is None:
        raise FileNotFoundError(f"Redis is not installed (no redis-server): {INSTALL}")
    return found


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class RedisServer:
    """One Redis server of the tests; :meth:`start` it, :meth:`stop` it."""

    def __init__(self) -> None:
        self.binary = find_redis_server()
        self.root = Path(tempfile.mkdtemp(prefix="cardlab-redis-"))
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        for attempt in range(5):  # a free port may be taken between the probe and the start
            self.port = _free_port()
            if self._launch():
                return
            if attempt == 4:
                log = self.root / "redis.log"
                text = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise RuntimeError(f"redis-server did not start; its log ends:\n{text}")

    def restart(self) -> None:
        """Stop the server and start it again on the same port, empty (as a restart with
        persistence off)."""
        self.stop_process()
        for _ in range(50):  # the port is free again once the old server has closed it
            if self._launch():
                return
            time.sleep(0.1)
        raise RuntimeError(f"redis-server did not start again on port {self.port}")

    def _launch(self) -> bool:
        """Start redis-server on :attr:`port`; whether it answers."""
        log = self.root / "redis.log"
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.root), "--save", "", "--appendonly", "no",
             "--logfile", str(log), "--daemonize", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(16).startswith(b"+PONG"):
                        return True
            except OSError:
                time.sleep(0.05)
        self.stop_process()
        return False

    def stop_process(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def stop(self) -> None:
        self.stop_process()
        shutil.rmtree(self.root, ignore_errors=True)

    def flush(self) -> None:
        """Empty the server (between tests)."""
        with socket.create_connection(("127.0.0.1", self.port), timeout=5) as s:
            s.sendall(b"FLUSHALL\r\n")
            s.recv(16)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """A Redis server for the whole session (fails, never skips, without one)."""
    try:
        server = RedisServer()
    except FileNotFoundError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The URL of the session's Redis server, emptied for this test."""
    redis_server.flush()
    return redis_server.url
