"""Several real ``cardlab web`` processes over one store and one Redis, and Debian's nginx
in front of them, for the tests and ``benchmarks/web_scale.py``.

:class:`WebProcess` runs ``python -m cardlab web --db DB --redis URL --trust-proxy`` on a
free port of 127.0.0.1 (its messages to a log file; killed if the test process dies);
:func:`start_web` starts several at once. :class:`Nginx` runs ``nginx`` in the
foreground with its own prefix, pid and log files in a temporary directory, serving the
configuration printed in ``docs/scale-out.md`` (:func:`site_config` takes it from there,
changing only its ``listen`` port and its upstream servers), so the tests try the very
configuration the documentation gives.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "scale-out.md"
SITE_MARK = "# /etc/nginx/conf.d/cardlab.conf"  # the first line of the doc's nginx block
NGINX_INSTALL = "apt-get install -y nginx-light (Debian/Ubuntu; a cluster test needs nginx)"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    """In the child: SIGKILL when the process that started it dies."""
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _answers(port: int) -> bool:
    """Whether an HTTP server on 127.0.0.1:``port`` answers ``GET /api/tables``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return s.recv(12).startswith(b"HTTP/1.1 ")
    except OSError:
        return False


class WebProcess:
    """One ``cardlab web --redis`` process; :meth:`start` it, :meth:`kill` or :meth:`stop` it."""

    def __init__(
        self, db: str, redis: str, log: Path, *, port: int = 0, extra: Sequence[str] = ()
    ) -> None:
        self.db = db
        self.redis = redis
        self.log = log
        self.port = port or free_port()
        self.extra = tuple(extra)
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None, "not started"
        return self.process.pid

    def launch(self) -> None:
        """Start the process (see :meth:`wait_ready`)."""
        command = [sys.executable, "-m", "cardlab", "web", "--port", str(self.port)]
        command += ["--db", self.db, "--redis", self.redis, "--trust-proxy", *self.extra]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command,
                stdout=subprocess.DEVNULL,
                stderr=log,
                env=os.environ | {"PYTHONUNBUFFERED": "1"},
                preexec_fn=_die_with_parent,
            )

    def wait_ready(self, timeout: float = 600) -> None:
        """Wait until it answers (a first start may compile the bots' kernels)."""
        deadline = time.monotonic() + timeout
        while not _answers(self.port):
            if self.process is None or self.process.poll() is not None:
                raise RuntimeError(f"cardlab web stopped:\n{self.tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"cardlab web did not start in {timeout:g} s:\n{self.tail()}")
            time.sleep(0.05)

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """``kill -9``: no lease released, nothing flushed."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def interrupt(self) -> None:
        """Ctrl+C: it gives its leases up and stops (see :meth:`stop`)."""
        if self.alive():
            assert self.process is not None
            self.process.send_signal(signal.SIGINT)

    def stop(self) -> None:
        """Stop it as Ctrl+C does (its leases released), or kill it after 10 s."""
        self.interrupt()
        if self.process is not None:
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


def launch_web(
    db: str, redis: str, count: int, logs: Path, *, extra: Sequence[str] = ()
) -> list[WebProcess]:
    """``count`` processes over the store ``db`` and the Redis ``redis``, launched at
    once (their start-ups overlap; :func:`wait_ready` them); logs ``logs/web-<k>.log``."""
    logs.mkdir(parents=True, exist_ok=True)
    processes = [
        WebProcess(db, redis, logs / f"web-{k}.log", extra=extra) for k in range(1, count + 1)
    ]
    try:
        for process in processes:
            process.launch()
    except BaseException:
        stop_all(processes)
        raise
    return processes


def wait_ready(processes: Sequence[WebProcess]) -> None:
    """Wait until every process answers (stopping them all if one fails)."""
    try:
        for process in processes:
            process.wait_ready()
    except BaseException:
        stop_all(processes)
        raise


def start_web(
    db: str, redis: str, count: int, logs: Path, *, extra: Sequence[str] = ()
) -> list[WebProcess]:
    """:func:`launch_web`, then :func:`wait_ready`."""
    processes = launch_web(db, redis, count, logs, extra=extra)
    wait_ready(processes)
    return processes


def stop_all(processes: Sequence[WebProcess]) -> None:
    """Stop every process, all at once (Ctrl+C to each, then wait)."""
    for process in processes:
        process.interrupt()
    for process in processes:
        process.stop()


def site_config(upstreams: Sequence[int], listen: int, doc: Path = DOC) -> str:
    """The doc's nginx site, serving on 127.0.0.1:``listen`` with the ``upstreams`` ports
    of 127.0.0.1 as its backends (each upstream ``server`` line kept but for its port)."""
    text = doc.read_text(encoding="utf-8")
    blocks = re.findall(r"```nginx\n(.*?)```", text, flags=re.DOTALL)
    sites = [b for b in blocks if b.startswith(SITE_MARK)]
    if len(sites) != 1:
        raise ValueError(f"{doc} must have one nginx block starting {SITE_MARK!r}")
    site = sites[0]
    servers = re.findall(r"^( *)server 127\.0\.0\.1:\d+( [^;\n]*)?;\n", site, flags=re.MULTILINE)
    listens = re.findall(r"^ *listen 80( default_server)?;$", site, flags=re.MULTILINE)
    if not servers or len(listens) != 1:
        raise ValueError(f"{doc}'s nginx site needs 'server 127.0.0.1:PORT' and one 'listen 80;'")
    indent, options = servers[0]
    lines = "".join(f"{indent}server 127.0.0.1:{port}{options};\n" for port in upstreams)
    # the first backend line becomes all of ours, the doc's others go
    first = True

    def backend(match: re.Match[str]) -> str:
        nonlocal first
        if first:
            first = False
            return lines
        return ""

    site = re.sub(r"^ *server 127\.0\.0\.1:\d+(?: [^;\n]*)?;\n", backend, site, flags=re.MULTILINE)
    return re.sub(
        r"^( *)listen 80( default_server)?;$",
        rf"\1listen 127.0.0.1:{listen};",
        site,
        flags=re.MULTILINE,
    )


MAIN_CONFIG = """\
# what Debian's /etc/nginx/nginx.conf gives, with paths of our own
daemon off;
worker_processes {workers};
pid {root}/nginx.pid;
error_log {root}/error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    include {root}/cardlab.conf;
}}
"""


def find_nginx() -> str:
    found = shutil.which("nginx") or (
        "/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None
    )
    if found is None:
        raise FileNotFoundError(f"nginx is not installed: {NGINX_INSTALL}")
    return found


class Nginx:
    """nginx in the foreground over ``upstreams`` (ports of 127.0.0.1), with the doc's
    site, on a free port; :meth:`start` it, :meth:`stop` it."""

    def __init__(self, upstreams: Sequence[int], *, workers: int = 1) -> None:
        self.binary = find_nginx()
        self.upstreams = list(upstreams)
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="cardlab-nginx-"))
        self.root.chmod(0o755)  # as root the workers run as nobody and use the temp paths
        self.workers = workers
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        (self.root / "cardlab.conf").write_text(site_config(self.upstreams, self.port))
        conf = self.root / "nginx.conf"
        conf.write_text(MAIN_CONFIG.format(root=self.root, workers=self.workers))
        command = [self.binary, "-p", str(self.root), "-c", str(conf)]
        command += ["-e", str(self.root / "error.log")]
        checked = subprocess.run([*command, "-t"], capture_output=True, text=True, check=False)
        if checked.returncode:
            raise RuntimeError(f"nginx refuses the configuration:\n{checked.stderr}")
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + 20
        while True:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=1),
            ):
                return
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not start:\n{self.tail()}")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # fast shutdown
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        shutil.rmtree(self.root, ignore_errors=True)

    def tail(self, chars: int = 3000) -> str:
        log = self.root / "error.log"
        return log.read_text(errors="replace")[-chars:] if log.exists() else ""
