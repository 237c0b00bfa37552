"""A real PostgreSQL server for the tests, in a temporary directory (no system service).

:class:`PostgresServer` runs ``initdb`` into a new directory, starts ``postgres`` on a free
port of 127.0.0.1 with its unix socket in that directory, and stops it and removes the
directory at the end; :meth:`PostgresServer.pause` and :meth:`PostgresServer.resume` stop
and start it in between (an outage). PostgreSQL refuses to run as root: as root the
directory is given to the unprivileged user ``nobody`` and every PostgreSQL program runs
as that user (``setpriv``, else ``runuser``); otherwise they run as the current user.

The session fixture :func:`postgres_server` fails the tests that need it, loudly, when
PostgreSQL is not installed; :meth:`PostgresServer.new_schema` makes an empty store per
test (a schema of its own), :meth:`PostgresServer.new_database` an empty database. Use
them from a ``conftest.py``: ``from _postgres import postgres_server, postgres_url``.
"""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from itertools import count
from pathlib import Path

import pytest

INSTALL = "apt-get install -y postgresql (Debian/Ubuntu; the tests need initdb and pg_ctl)"
SUPERUSER = "cardlab"
TEST_DATABASE = "cardlab_tests"  # where new_schema() makes each test's store


def find_bin_dir() -> Path:
    """The directory of PostgreSQL's ``initdb``, ``pg_ctl`` and ``postgres``: the newest
    Debian ``/usr/lib/postgresql/*/bin``, else the one ``initdb`` is found in on PATH."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda d: int(Path(d).parent.name) if Path(d).parent.name.isdigit() else 0,
    )
    for directory in reversed(candidates):
        if all((Path(directory) / name).exists() for name in ("initdb", "pg_ctl", "postgres")):
            return Path(directory)
    found = shutil.which("initdb")
    if found:
        directory = Path(found).resolve().parent
        if (directory / "pg_ctl").exists():
            return directory
    raise FileNotFoundError(f"PostgreSQL is not installed (no initdb and pg_ctl): {INSTALL}")


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PostgresServer:
    """One PostgreSQL server of the tests; :meth:`start` it, :meth:`stop` it."""

    def __init__(self) -> None:
        self.bin_dir = find_bin_dir()
        root = os.geteuid() == 0
        # as root the server runs as nobody, who must reach the directory: $TMPDIR may be
        # a private one (pytest's own is 0700), /tmp never is
        base = tempfile.gettempdir() if not root or _open_to_all(tempfile.gettempdir()) else "/tmp"
        self.root = Path(tempfile.mkdtemp(prefix="cardlab-pg-", dir=base))
        self.data = self.root / "data"
        self.socket_dir = self.root / "socket"
        self.port = 0
        self.major = 0  # PostgreSQL's major version, known once initdb ran
        self._as: list[str] = []
        self._names = count(1)
        if root:
            user = pwd.getpwnam("nobody")
            self._as = _switch_user(user)
            os.chown(self.root, user.pw_uid, user.pw_gid)
        self.socket_dir.mkdir()
        if self._as:
            os.chown(self.socket_dir, pwd.getpwnam("nobody").pw_uid, -1)

    def _run(self, *command: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        env = {**os.environ, "HOME": str(self.root), "LC_ALL": "C", "LANG": "C"}
        done = subprocess.run(
            [*self._as, *command],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout,
            cwd=self.root,
            check=False,
        )
        if done.returncode:
            raise RuntimeError(
                f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}"
            )
        return done

    def start(self) -> None:
        self._run(
            str(self.bin_dir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )
        self.major = int((self.data / "PG_VERSION").read_text().split(".")[0])
        for attempt in range(5):  # a free port may be taken between the probe and the start
            self.port = _free_port()
            try:
                self.resume()
                self.admin(f"CREATE DATABASE {TEST_DATABASE}")
                return
            except RuntimeError:
                if attempt == 4:
                    log = (self.root / "server.log").read_text(errors="replace")[-3000:]
                    raise RuntimeError(f"PostgreSQL did not start; its log ends:\n{log}") from None
                time.sleep(0.2)

    def resume(self) -> None:
        """Start the server (again) on its port, and wait until it accepts connections."""
        options = (
            f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1"
            " -c fsync=off -c full_page_writes=off -c max_connections=60"
            " -c shared_buffers=32MB -c wal_level=minimal -c max_wal_senders=0"
            " -c max_wal_size=96MB -c min_wal_size=32MB"
        )
        self._run(
            str(self.bin_dir / "pg_ctl"),
            "-D",
            str(self.data),
            "-l",
            str(self.root / "server.log"),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        )

    def pause(self) -> None:
        """Stop the server as ``systemctl stop postgresql`` does (fast: the clients'
        connections are closed, the data kept); :meth:`resume` starts it again."""
        self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self._run(
                    str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"
                )
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this server, over TCP."""
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str, *, database: str = "postgres") -> None:
        """Run ``sql`` outside a transaction in ``database``."""
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as connection:
            connection.execute(sql)  # type: ignore[arg-type]

    def new_schema(self) -> str:
        """The URL of a new, empty schema of the tests' database (its ``search_path``):
        a store of its own, made in milliseconds (a database takes a tenth of a second
        and leaves megabytes of files to remove)."""
        name = f"s_{os.getpid()}_{next(self._names)}"
        self.admin(f"CREATE SCHEMA {name}", database=TEST_DATABASE)
        return f"{self.url(TEST_DATABASE)}?options=-csearch_path%3D{name}"

    def new_database(self) -> str:
        """A new, empty UTF-8 database; its URL."""
        name = f"test_{os.getpid()}_{next(self._names)}"
        # FILE_COPY (PostgreSQL 15 and later) is several times faster for a tiny database
        strategy = " STRATEGY FILE_COPY" if self.major >= 15 else ""
        self.admin(f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8'{strategy}")
        return self.url(name)


def _open_to_all(directory: str) -> bool:
    """Whether every user may pass through ``directory`` and each folder above it."""
    path = Path(directory).resolve()
    return all(p.stat().st_mode & 0o001 for p in (path, *path.parents))


def _switch_user(user: pwd.struct_passwd) -> list[str]:
    """The command prefix that runs a program as ``user`` (from root)."""
    setpriv = shutil.which("setpriv")
    if setpriv:
        return [
            setpriv,
            f"--reuid={user.pw_uid}",
            f"--regid={user.pw_gid}",
            "--clear-groups",
            "--",
        ]
    runuser = shutil.which("runuser")
    if runuser:
        return [runuser, "-u", user.pw_name, "--"]
    raise FileNotFoundError("running PostgreSQL as root needs setpriv or runuser (util-linux)")


def running_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server started in a folder of its own and stopped after (a fixture's
    body: fails, never skips, without PostgreSQL)."""
    try:
        server = PostgresServer()
    except FileNotFoundError as error:
        pytest.fail(str(error), pytrace=False)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the whole session (fails, never skips, without one)."""
    yield from running_server()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty store on the session's server (a schema of its own)."""
    return postgres_server.new_schema()
