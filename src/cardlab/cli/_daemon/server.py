"""The daemon's side: load once, then fork a warm child for each run.

``python -m cardlab.cli._daemon.server --socket PATH --idle SECONDS`` (what ``cardlab
daemon start`` launches, detached) imports the command modules, readies numba's code
generator and loads every kernel numba's disk cache holds for the current sources
(:func:`preload`), then listens. Requests: ``run`` (fork a child that runs the command,
:func:`_run_child`), ``status`` and ``stop``. The daemon ends after ``--idle`` seconds
without a request, on ``stop``, on SIGTERM, or when a run finds a changed source file.

A run belongs to its caller: each child leads a process group of its own (its workers
in it), and the daemon keeps the caller's connection; when the caller goes away (killed,
or gone before its run ended) the group is ended, and so it is when the daemon ends
(:meth:`Daemon._end_run`). A daemon killed outright (SIGKILL: no ending of its own) takes
its children with it: each is forked to die with its parent (:func:`_die_with_parent`,
Linux's parent-death signal), and so is every process a run forks. No run outlives its
caller or the daemon.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import ctypes
import fcntl
import importlib
import io
import math
import os
import pkgutil
import random
import select
import signal
import socket
import struct
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from cardlab.cli._daemon import wire

_PACKAGE = Path(__file__).resolve().parents[2]
# the modules that hold compiled kernels (their dispatchers are found by looking)
_KERNEL_PACKAGES = ("cardlab.poker._kernels",)
_KERNEL_MODULES = ("cardlab.analysis._showdowns", "cardlab.openseven._kernels")
# the commands the spare runs: quick questions that never fork (a process that started
# GNU OpenMP's threads must not fork, and the spare has started them); the others run in
# a child forked for them, which starts its threads only if it needs them
SPARE_COMMANDS = frozenset({"equity", "ties", "draw", "showdown", "poker", "decks"})
# seconds a run's process group has between SIGTERM (its finally blocks, its exit code
# to a caller still there) and SIGKILL (a numba kernel sees no signal until it returns)
END_GRACE = 2.0


@dataclass(slots=True)
class Run:
    """A run in progress: its child (the leader of its process group), the caller's
    connection (watched: the caller's end closing means the caller is gone) and, once
    it is being ended, when SIGKILL follows SIGTERM."""

    pid: int
    conn: socket.socket
    kill_at: float | None = None


def sources_signature(package: Path = _PACKAGE) -> tuple[tuple[str, int, int], ...]:
    """Every source file of the package with its size and modification time."""
    files = []
    for path in sorted(package.rglob("*.py")):
        with contextlib.suppress(OSError):
            info = path.stat()
            files.append((str(path), info.st_size, info.st_mtime_ns))
    return tuple(files)


def preload() -> dict[str, Any]:
    """Import the commands and load the cached kernels; what was loaded, and how long."""
    started = time.perf_counter()
    from cardlab.cli import COMMANDS

    for name, (target, _) in COMMANDS.items():
        if name != "web":
            importlib.import_module(target.split(":")[0])
    imported = time.perf_counter()
    kernels = _load_cached_kernels()
    return {
        "imports_s": round(imported - started, 3),
        "kernels_s": round(time.perf_counter() - imported, 3),
        "kernels": kernels,
    }


def _load_cached_kernels(parallel: bool = False) -> int:
    """Load (never compile) the machine code numba's disk cache holds for every kernel
    of the package, the serial ones or (``parallel``) the parallel ones; the number of
    (kernel, signature) pairs loaded.

    A parallel kernel's cached code starts numba's threading layer when it loads, and
    a process that started it must not fork (GNU OpenMP's layer ends it): the daemon
    loads the serial ones, its spare child (:meth:`Daemon._fork_spare`) the parallel
    ones."""
    from numba.core.registry import CPUDispatcher, cpu_target

    cpu_target.target_context.refresh()  # numba's registries: half of its start
    modules = [importlib.import_module(name) for name in _KERNEL_MODULES]
    for package_name in _KERNEL_PACKAGES:
        package = importlib.import_module(package_name)
        for info in pkgutil.iter_modules(package.__path__, package_name + "."):
            modules.append(importlib.import_module(info.name))
    magic = cpu_target.target_context.codegen().magic_tuple()
    loaded = 0
    seen: set[int] = set()
    for module in modules:
        for value in vars(module).values():
            if not isinstance(value, CPUDispatcher) or id(value) in seen:
                continue
            seen.add(id(value))
            if bool(value.targetoptions.get("parallel")) != parallel:
                continue  # loading starts numba's threading layer: a fork after it is unsafe
            loaded += _load_signatures(value, magic)
    return loaded


def _load_signatures(kernel: Any, magic: object) -> int:
    cache = getattr(kernel, "_cache", None)
    try:
        index = cache._cache_file._load_index()  # type: ignore[union-attr]
    except Exception:  # no cache, or a foreign index: nothing to load
        return 0
    loaded = 0
    for key in index:
        signature, key_magic = key[0], key[1]
        if key_magic != magic:  # compiled for another CPU: loading would compile
            continue
        try:
            kernel.compile(signature)  # found in the cache: loaded, not compiled
            loaded += 1
        except Exception:  # a signature that no longer types: the run compiles it
            continue
    return loaded


class Daemon:
    """The listening loop; state for ``status``."""

    def __init__(
        self,
        path: Path,
        idle: float,
        loaded: dict[str, Any],
        *,
        lock: int | None = None,
        imports_set: dict[str, str] | None = None,
    ) -> None:
        self.path = path
        self.lock = lock
        self.imports_set = dict(imports_set or {})
        self.idle = idle
        self.loaded = loaded
        self.started = time.time()
        self.last_request = time.monotonic()
        self.signature = sources_signature()
        self.env = wire.shaping_env(dict(os.environ))
        self.runs = 0
        self.refused = 0
        self.last_refusal = ""
        self.children: dict[int, Run] = {}
        self.stopping = ""
        # the spare: a child forked ahead, its parallel kernels loaded, waiting for a run
        self.spare: tuple[int, socket.socket] | None = None
        self.spare_ready = False
        self.spares_used = 0

    def serve(self) -> None:
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()  # a dead daemon's socket (start checked none answers)
            listener.bind(str(self.path))
        except OSError as exc:  # its last line is what `cardlab daemon start` reports
            print(f"daemon {os.getpid()}: cannot listen at {self.path}: {exc.strerror}", flush=True)
            sys.exit(1)
        os.chmod(self.path, 0o600)
        listener.listen(64)
        signal.signal(signal.SIGTERM, self._on_term)
        inode = self.path.stat().st_ino
        self._listener = listener
        try:
            while not self.stopping:
                self._reap()
                left = self.idle - (time.monotonic() - self.last_request)
                if left <= 0 and not self.children:
                    self.stopping = f"idle for {self.idle:g} s"
                    break
                if self.spare is None and not self.children:
                    self._fork_spare()  # between runs: its loading takes no run's cores
                wait = 0.02 if self.children else max(0.05, min(1.0, left))
                callers = [run.conn for run in self.children.values() if run.kill_at is None]
                ready, _, _ = select.select([listener, *callers], [], [], wait)
                for conn in ready:
                    if conn is not listener:
                        self._check_caller(conn)
                if listener in ready:
                    conn, _ = listener.accept()
                    if not self._answer(conn):
                        conn.close()
        finally:
            listener.close()
            self._drop_spare()
            ended = self._end_all_runs()
            if ended:
                print(f"ended {ended} run(s) in progress", flush=True)
            with contextlib.suppress(OSError):
                if self.path.stat().st_ino == inode:  # still ours, not a newer daemon's
                    self.path.unlink()
            print(f"daemon {os.getpid()} ends: {self.stopping}", flush=True)

    def _on_term(self, signum: int, frame: object) -> None:
        self.stopping = "terminated"

    def _reap(self) -> None:
        now = time.monotonic()
        for pid, run in list(self.children.items()):
            with contextlib.suppress(ChildProcessError):
                done, _ = os.waitpid(pid, os.WNOHANG)
                if not done:
                    if run.kill_at is not None and now >= run.kill_at:
                        _signal_group(pid, signal.SIGKILL)
                    continue
            if run.kill_at is not None:  # its workers go with it
                _signal_group(pid, signal.SIGKILL)
            run.conn.close()
            del self.children[pid]
        if self.spare is not None:
            pid, channel = self.spare
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done = pid
            if done:  # it ended before a run came (it should not): runs fork directly
                channel.close()
                self.spare = None
                print(f"the spare child {pid} ended unused", flush=True)

    def _check_caller(self, conn: socket.socket) -> None:
        """A run's connection became readable: the caller sends nothing after its
        request, so this is its end closing (killed, or gone): end the run."""
        try:
            data = conn.recv(1 << 12, socket.MSG_PEEK | socket.MSG_DONTWAIT)
        except BlockingIOError:
            return
        except OSError:  # reset: gone too
            data = b""
        run = next(r for r in self.children.values() if r.conn is conn)
        if data:  # not ours to read: discarded, so that it is not seen again
            with contextlib.suppress(OSError):
                conn.recv(len(data), socket.MSG_DONTWAIT)
            return
        print(f"the caller of run {run.pid} went away: ending it", flush=True)
        self._end_run(run)

    def _end_run(self, run: Run) -> None:
        """SIGTERM to the run's process group; SIGKILL follows after :data:`END_GRACE`
        (:meth:`_reap`)."""
        if run.kill_at is None:
            _signal_group(run.pid, signal.SIGTERM)
            run.kill_at = time.monotonic() + END_GRACE

    def _end_all_runs(self) -> int:
        """End every run in progress and wait for them (the daemon is ending); how many
        there were."""
        count = len(self.children)
        for run in self.children.values():
            self._end_run(run)
        deadline = time.monotonic() + END_GRACE + 5.0
        while self.children and time.monotonic() < deadline:
            self._reap()
            time.sleep(0.02)
        for run in self.children.values():  # none should be left: never wait forever
            _signal_group(run.pid, signal.SIGKILL)
            run.conn.close()
        self.children.clear()
        return count

    def _fork_spare(self) -> None:
        """Fork the next run's process ahead of it, between runs: it loads the parallel
        kernels (and so starts numba's threads) while nobody waits, then waits for its
        run."""
        ours, theirs = socket.socketpair()
        daemon = os.getpid()
        pid = os.fork()
        if pid == 0:  # the spare: never returns (nor runs the daemon's code on)
            try:
                _die_with_parent(daemon)
                ours.close()
                _spare_child(theirs, self._closed_in_children(), self.imports_set)
            finally:
                os._exit(1)
        _own_group(pid)
        theirs.close()
        self.spare = (pid, ours)
        self.spare_ready = False

    def _spare_is_ready(self) -> bool:
        """Whether the spare has loaded its kernels (a run that comes sooner is forked
        a child of its own rather than wait for it)."""
        if self.spare is not None and not self.spare_ready:
            channel = self.spare[1]
            if select.select([channel], [], [], 0)[0]:
                try:
                    message, _ = wire.receive(channel)
                except (OSError, wire.DaemonError):
                    message = None
                self.spare_ready = message is not None and "ready" in message
        return self.spare_ready

    def _drop_spare(self, kill: bool = False) -> None:
        if self.spare is not None:
            pid, channel = self.spare
            channel.close()  # it reads the end and leaves
            if kill:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
            self.spare = None

    def _closed_in_children(self) -> list[int]:
        """What the daemon holds that a child must close: the listener, the lock, the
        spare's channel and the other runs' connections (a child holding a descriptor
        keeps it open for its owner)."""
        held = [self._listener.fileno(), *(run.conn.fileno() for run in self.children.values())]
        if self.lock is not None:
            held.append(self.lock)
        if self.spare is not None:
            held.append(self.spare[1].fileno())
        return held

    def _start_run(self, conn: socket.socket, fds: list[int], request: dict[str, Any]) -> int:
        """Hand a run to the spare (then fork the next spare), or fork a child for it."""
        command = request["argv"][0] if request["argv"] else ""
        if self.spare is not None and command in SPARE_COMMANDS and self._spare_is_ready():
            pid, channel = self.spare
            self.spare = None
            try:
                wire.send(channel, request, [conn.fileno(), *fds])
            except OSError as exc:  # the spare is gone: a child of its own for this run
                print(f"the spare child {pid} could not take a run: {exc}", flush=True)
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            else:
                self.spares_used += 1
                return pid
            finally:
                channel.close()
        elif self.spare is not None and not self.spare_ready:
            self._drop_spare(kill=True)  # still loading: it would take this run's cores
        daemon = os.getpid()
        pid = os.fork()
        if pid == 0:  # the child: never returns (nor runs the daemon's code on)
            try:
                _die_with_parent(daemon)
                for fd in self._closed_in_children():
                    os.close(fd)
                _run_child(conn, fds, request, self.imports_set)
            finally:
                os._exit(1)
        _own_group(pid)
        return pid

    def _answer(self, conn: socket.socket) -> bool:
        """Answer one connection; True when a run took it (the daemon keeps it, to see
        its caller go), False when it may be closed."""
        conn.settimeout(5.0)
        fds: list[int] = []
        try:
            if not _same_user(conn):
                return False
            request, fds = wire.receive(conn, max_fds=3)
            if request is None:
                return False
            self.last_request = time.monotonic()
            op = request.get("op")
            if op == "status":
                wire.send(conn, self.status())
            elif op == "stop":
                self.stopping = "asked to stop"
                wire.send(conn, {"stopping": os.getpid(), "ending_runs": len(self.children)})
            elif op == "run":
                refusal = self._refusal(request, fds)
                if refusal:
                    self.refused += 1
                    self.last_refusal = refusal
                    wire.send(conn, {"refused": refusal})
                    return False
                pid = self._start_run(conn, fds, request)
                self.children[pid] = Run(pid, conn)
                self.runs += 1
                return True
            else:
                wire.send(conn, {"refused": f"unknown request {op!r:.40}"})
        except (OSError, wire.DaemonError) as exc:
            print(f"a request failed: {exc}", flush=True)
        finally:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)
        return False

    def _refusal(self, request: dict[str, Any], fds: list[int]) -> str:
        """Why a run cannot be taken ("" when it can)."""
        if len(fds) != 3:
            return "a run needs the caller's standard input, output and error"
        argv, env, cwd = request.get("argv"), request.get("env"), request.get("cwd")
        if not (isinstance(argv, list) and all(isinstance(a, str) for a in argv)):
            return "the arguments must be a list of text"
        if not (isinstance(env, dict) and all(isinstance(v, str) for v in env.values())):
            return "the environment must map names to text"
        if not isinstance(cwd, str):
            return "the working directory must be text"
        effective = wire.shaping_env({**self.imports_set, **env})  # as the run will see it
        if effective != self.env:
            differ = sorted(set(effective.items()) ^ set(self.env.items()))
            names = ", ".join(sorted({name for name, _ in differ}))
            return f"the environment differs from the daemon's ({names})"
        if sources_signature() != self.signature:
            self.stopping = "cardlab's source files changed"
            return "cardlab's source files changed since the daemon started; it stops"
        return ""

    def status(self) -> dict[str, Any]:
        rss = 0
        with contextlib.suppress(OSError, ValueError, IndexError):
            fields = Path("/proc/self/statm").read_text().split()
            rss = int(fields[1]) * os.sysconf("SC_PAGE_SIZE")
        return {
            "pid": os.getpid(),
            "socket": str(self.path),
            "started": self.started,
            "uptime_s": round(time.time() - self.started, 1),
            "idle_limit_s": self.idle,
            "runs": self.runs,
            "busy": len(self.children),
            "run_pids": sorted(self.children),
            "refused": self.refused,
            "spare_ready": self._spare_is_ready(),
            "runs_by_spare": self.spares_used,
            "last_refusal": self.last_refusal,
            "memory_bytes": rss,
            "python": sys.executable,
            "package": str(_PACKAGE),
            **self.loaded,
        }


def _own_group(pid: int) -> None:
    """Make a child the leader of a process group of its own (done by both sides of the
    fork, so that it holds whichever runs first): its workers join it, and ending the
    run ends the group."""
    with contextlib.suppress(OSError):  # (it ended already)
        os.setpgid(pid, pid)


PR_SET_PDEATHSIG = 1  # prctl(2)'s option: the signal this process gets when its parent dies


def _parent_death_signal(signum: int) -> bool:
    """Ask the kernel for ``signum`` when this process's parent ends (Linux's
    ``prctl(PR_SET_PDEATHSIG)``); False where there is no such thing."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _die_with_parent(parent: int) -> None:
    """In a child just forked from ``parent`` (the daemon): be killed (SIGKILL: at once,
    even inside a compiled kernel that sees no Python signal handler) when it ends, as
    are the processes this child forks from its main thread (a worker forked from
    another thread would die with that thread, so it is left to its own pipe: Dask's
    and multiprocessing's workers end when their parent's end of a pipe closes).
    A parent gone before the request took effect ends the child now."""
    _parent_death_signal(signal.SIGKILL)
    forker = {"pid": os.getpid(), "main": True}  # copied into the forked child

    def before() -> None:
        forker["pid"] = os.getpid()
        forker["main"] = threading.current_thread() is threading.main_thread()

    def after_in_child() -> None:
        gone = forker["main"] and _parent_death_signal(signal.SIGKILL)
        if gone and os.getppid() != forker["pid"]:  # (it ended before the request)
            os._exit(1)

    os.register_at_fork(before=before, after_in_child=after_in_child)
    if os.getppid() != parent:
        os._exit(1)


def _signal_group(pgid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signum)


def _same_user(conn: socket.socket) -> bool:
    """Whether the peer runs as this user (``SO_PEERCRED``; elsewhere the directory's
    permissions are the guard)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        return True
    creds = conn.getsockopt(socket.SOL_SOCKET, option, struct.calcsize("3i"))
    _, uid, _ = struct.unpack("3i", creds)
    return bool(uid == os.getuid())


def _run_child(
    conn: socket.socket,
    fds: list[int],
    request: dict[str, Any],
    imports_set: dict[str, str] | None = None,
) -> None:
    """In the forked child: become the caller's process, run the command, report its
    exit code, and end (never returns). ``imports_set``: what the daemon's imports put
    in the environment, put again where the caller did not choose."""
    code = 1
    try:
        _own_group(os.getpid())  # (a spare did already)
        for sig in (signal.SIGTERM, signal.SIGHUP):  # the caller passes these on
            signal.signal(sig, _exit_on_signal)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        conn.settimeout(None)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        for name, value in (imports_set or {}).items():
            os.environ.setdefault(name, value)
        closed = _closed_standard_fds(request.get("closed"))
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        for fd in closed:  # closed in the caller: closed here, as in a fresh process
            os.close(fd)
        _standard_streams(request.get("streams"), closed)
        sys.argv = [str(request.get("argv0") or "cardlab"), *request["argv"]]
        _reseed()
        wire.send(conn, {"pid": os.getpid()})
        code = _run(request["argv"])
    except BaseException:  # a child must always report and end
        with contextlib.suppress(Exception):
            traceback.print_exc()
    finally:
        _report_and_exit(conn, code)


def _report_and_exit(conn: socket.socket, code: int) -> NoReturn:
    """A run's end: exit handlers, streams flushed, the exit code to the caller. No
    signal interrupts it (a second SIGTERM's SystemExit would otherwise leave this
    function and run on in the daemon's code); a stuck one gets SIGKILL."""
    try:
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
        with contextlib.suppress(BaseException):
            atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(BaseException):
                stream.flush()
        with contextlib.suppress(BaseException):
            wire.send(conn, {"exit": code})
    finally:
        os._exit(code)


def _spare_child(
    channel: socket.socket, close: list[int], imports_set: dict[str, str] | None
) -> None:
    """The spare: load the parallel kernels, wait for a run (the caller's connection,
    standard descriptors and request), run it; end when the daemon closes the channel
    (never returns)."""
    try:
        _own_group(os.getpid())
        for fd in close:
            os.close(fd)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        _load_cached_kernels(parallel=True)
    except BaseException:  # the daemon runs the next run in a child of its own
        with contextlib.suppress(Exception):
            traceback.print_exc()
        os._exit(1)
    try:
        wire.send(channel, {"ready": os.getpid()})
        request, fds = wire.receive(channel, max_fds=4)
    except (OSError, wire.DaemonError):  # the daemon ended, or dropped its spare
        os._exit(0)
    channel.close()
    if request is None or len(fds) != 4:
        os._exit(0)
    conn = socket.socket(fileno=fds[0])
    _run_child(conn, fds[1:], request, imports_set)


def _reseed() -> None:
    """Fresh global generators: every child starts from the daemon's memory, and a
    command that draws from them must not repeat the last child's numbers."""
    random.seed()
    numpy = sys.modules.get("numpy")
    if numpy is not None:
        numpy.random.seed()


def _exit_on_signal(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _run(args: list[str]) -> int:
    """Run the command line as the console script does: the exit code."""
    from cardlab.cli import main

    try:
        result = main(args)
    except SystemExit as exc:
        result = exc.code
    if result is None:
        return 0
    if isinstance(result, int) and not isinstance(result, bool):
        return result & 0xFF
    print(result, file=sys.stderr)
    return 1


def _closed_standard_fds(closed: object) -> list[int]:
    """Which of descriptors 0-2 the caller had closed (its request's ``closed``)."""
    if not isinstance(closed, list):
        return []
    return sorted({fd for fd in closed if fd in (0, 1, 2) and not isinstance(fd, bool)})


def _standard_streams(streams: object, closed: list[int] | None = None) -> None:
    """New ``sys.stdin/stdout/stderr`` on descriptors 0-2, with the caller's encodings
    and line buffering where they are terminals (as Python's own start sets them); None
    for a descriptor in ``closed`` (as Python's start leaves it, and the command line
    turns a closed standard input into one line, :class:`cardlab.cli._streams.ClosedInput`)."""
    given = streams if isinstance(streams, list) and len(streams) == 3 else [[None, None]] * 3
    made: list[Any] = []
    for fd, (encoding, errors) in enumerate(given):
        if fd in (closed or ()):
            made.append(None)
            continue
        tty = os.isatty(fd)
        raw: Any = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
        buffered: Any = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
        made.append(
            io.TextIOWrapper(
                buffered,
                encoding=encoding or "utf-8",
                errors=errors or ("backslashreplace" if fd == 2 else "strict"),
                line_buffering=fd == 2 or tty,
            )
        )
    sys.stdin, sys.stdout, sys.stderr = made


def _duration(text: str) -> float:
    """A finite positive number of seconds (``nan`` would make the daemon never end)."""
    seconds = float(text)
    if not (math.isfinite(seconds) and seconds > 0):
        raise ValueError(f"not a finite positive number of seconds: {text!r}")
    return seconds


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="cardlab-daemon", description=__doc__)
    parser.add_argument("--socket", type=Path, required=True)
    parser.add_argument("--idle", type=_duration, default=3600.0, help="seconds")
    options = parser.parse_args(argv)
    wire.private_dir(options.socket.parent)
    # one daemon per socket: the lock is held for the daemon's life (two starts at once,
    # or CARDLAB_DAEMON=auto in two callers, leave one daemon)
    lock = os.open(options.socket.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print(f"daemon {os.getpid()}: another daemon holds {options.socket}", flush=True)
        return
    before = dict(os.environ)
    loaded = preload()
    # what cardlab's modules set for themselves when imported (os.environ.setdefault:
    # GOMP_SPINCOUNT); each run sets it again unless its caller chose a value, as a
    # fresh process importing them would
    imports_set = {k: v for k, v in os.environ.items() if k not in before}
    print(f"daemon {os.getpid()} loaded: {loaded}; set by imports: {imports_set}", flush=True)
    Daemon(options.socket, options.idle, loaded, lock=lock, imports_set=imports_set).serve()


if __name__ == "__main__":
    main()
