"""``cardlab daemon``: a real daemon process answers the ``cardlab`` program, and every
answer equals what a fresh process (``CARDLAB_DAEMON=off``) prints.

Each daemon of these tests lives in a temporary socket directory (``CARDLAB_DAEMON_DIR``),
so no daemon of the machine is touched and none is left behind.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlab.cli._daemon import server, wire

pytestmark = pytest.mark.skipif(not hasattr(socket, "send_fds"), reason="POSIX only")

_SCRIPT = Path(sys.executable).with_name("cardlab")
CARDLAB = [str(_SCRIPT)] if _SCRIPT.is_file() else [sys.executable, "-m", "cardlab"]


def _run(
    args: list[str], env: dict[str, str], stdin: str = "", cwd: Path | None = None
) -> tuple[int, str, str]:
    done = subprocess.run(
        [*CARDLAB, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=600,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


@pytest.fixture(scope="module")
def daemon_env(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """The environment of a caller whose installation has a running daemon."""
    folder = tmp_path_factory.mktemp("daemon")
    env = {**os.environ, "CARDLAB_DAEMON_DIR": str(folder / "run")}
    env.pop("CARDLAB_DAEMON", None)
    code, out, err = _run(["daemon", "start", "--format", "json"], env)
    assert code == 0, err
    started = json.loads(out)
    assert started["running"] and started["started_now"]
    yield env
    _run(["daemon", "stop"], env)


def _status(env: dict[str, str]) -> dict[str, object]:
    code, out, err = _run(["daemon", "status", "--format", "json"], env)
    assert code == 0, err
    status: dict[str, object] = json.loads(out)
    return status


def _runs(env: dict[str, str]) -> int:
    runs = _status(env)["runs"]
    assert isinstance(runs, int)
    return runs


def _fresh(env: dict[str, str]) -> dict[str, str]:
    return {**env, "CARDLAB_DAEMON": "off"}


@pytest.mark.parametrize(
    "args",
    [
        ["equity", "As Ah", "Ks Kh", "--exact"],
        ["equity", "As Ah", "Ks Kh", "--exact", "--format", "json"],
        ["decks", "--format", "csv"],
        ["equity", "As Ah", "Ks Zh"],  # a malformed card: one line, exit 2
        ["no-such-command"],
    ],
)
def test_a_run_through_the_daemon_is_a_fresh_process_s(
    daemon_env: dict[str, str], args: list[str]
) -> None:
    before = _runs(daemon_env)
    through = _run(args, daemon_env)
    assert _runs(daemon_env) == before + 1  # the daemon ran it, not the caller
    assert through == _run(args, _fresh(daemon_env))
    assert "Traceback" not in through[2]


def test_standard_input_the_directory_and_relative_paths_reach_the_run(
    daemon_env: dict[str, str], tmp_path: Path
) -> None:
    # `play` reads its moves from standard input and writes the store named relative to
    # the caller's directory
    args = ["play", "--game", "standard52-holdem", "--seats", "3", "--bots", "station"]
    args += ["--seed", "2", "--db", "night.sqlite3"]
    moves = "c\n" * 12 + "q\n"
    for folder in ("through", "fresh"):
        (tmp_path / folder).mkdir()
    before = _runs(daemon_env)
    through = _run(args, daemon_env, stdin=moves, cwd=tmp_path / "through")
    assert _runs(daemon_env) == before + 1
    fresh = _run(args, _fresh(daemon_env), stdin=moves, cwd=tmp_path / "fresh")
    assert through == fresh and through[0] == 0, through[2]
    assert "your move" in through[1]
    assert (tmp_path / "through" / "night.sqlite3").stat().st_size > 0


def test_an_environment_that_shapes_the_run_is_refused_and_the_caller_runs_it(
    daemon_env: dict[str, str],
) -> None:
    env = {**daemon_env, "NUMBA_NUM_THREADS": "1"}
    before = _status(daemon_env)
    code, out, err = _run(["equity", "As Ah", "Ks Kh", "--exact", "--format", "json"], env)
    after = _status(daemon_env)
    assert code == 0 and json.loads(out)["exact"]
    assert "did not take this run" in err and "NUMBA_NUM_THREADS" in err, err
    assert after["runs"] == before["runs"] and after["refused"] == before["refused"] + 1  # type: ignore[operator]


def test_ctrl_c_reaches_the_run(daemon_env: dict[str, str]) -> None:
    # an Omaha equity sampled for long enough to be interrupted
    args = ["equity", "--game", "standard52-omaha", "As Ah Ks Kh", "Qs Qh Js Jh"]
    args += ["--samples", "2000000000"]
    caller = subprocess.Popen(
        [*CARDLAB, *args], env=daemon_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 120
    while _status(daemon_env)["busy"] == 0 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)
    caller.send_signal(signal.SIGINT)
    _out, err = caller.communicate(timeout=120)
    assert caller.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err


def test_status_stop_and_the_socket_s_privacy(tmp_path: Path) -> None:
    env = {**os.environ, "CARDLAB_DAEMON_DIR": str(tmp_path / "run")}
    code, out, _ = _run(["daemon", "status"], env)
    assert code == 1 and "no daemon is running" in out
    assert _run(["daemon", "start"], env)[0] == 0
    try:
        status = _status(env)
        path = Path(str(status["socket"]))
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        # a second start finds it running
        code, out, _ = _run(["daemon", "start", "--format", "json"], env)
        assert code == 0 and not json.loads(out)["started_now"]
        assert json.loads(out)["pid"] == status["pid"]
    finally:
        code, out, _ = _run(["daemon", "stop"], env)
    assert code == 0 and f"daemon {status['pid']} stopped" in out
    assert not path.exists()
    assert _run(["daemon", "status"], env)[0] == 1


def test_auto_starts_one_daemon_for_the_next_runs(tmp_path: Path) -> None:
    env = {**os.environ, "CARDLAB_DAEMON_DIR": str(tmp_path / "run"), "CARDLAB_DAEMON": "auto"}
    try:
        # two callers at once find no daemon: each runs its command and starts one; the
        # lock leaves a single daemon
        callers = [
            subprocess.Popen(
                [*CARDLAB, "decks", "--format", "csv"], env=env, stdout=subprocess.PIPE
            )
            for _ in range(2)
        ]
        outputs = [c.communicate(timeout=300)[0] for c in callers]
        assert all(c.returncode == 0 for c in callers) and outputs[0] == outputs[1]
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            code, out, _ = _run(["daemon", "status", "--format", "json"], env)
            if code == 0:
                break
            time.sleep(0.2)
        assert code == 0, "no daemon answered"
        pid = json.loads(out)["pid"]
        time.sleep(1.0)  # the second daemon, if any, has found the lock taken by now
        log = (tmp_path / "run").glob("daemon-*.log")
        assert "another daemon holds" in "".join(p.read_text() for p in log)
        assert _run(["decks", "--format", "csv"], env)[1].encode() == outputs[0]
        assert _status(env)["runs"] == 1 and _status(env)["pid"] == pid
    finally:
        _run(["daemon", "stop"], env)


def test_a_directory_others_may_enter_is_refused(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    shared.chmod(0o755)
    with pytest.raises(wire.DaemonError, match="other users"):
        wire.private_dir(shared)
    env = {**os.environ, "CARDLAB_DAEMON_DIR": str(shared)}
    code, _, err = _run(["daemon", "start"], env)
    assert code == 2 and err.startswith("cardlab: error: ") and err.count("\n") == 1


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to act as another user")
def test_another_user_is_not_served() -> None:
    top = Path(tempfile.mkdtemp(prefix="cardlab-daemon-test-"))  # reachable by others
    env = {**os.environ, "CARDLAB_DAEMON_DIR": str(top / "run")}
    assert _run(["daemon", "start"], env)[0] == 0
    try:
        path = Path(str(_status(env)["socket"]))
        for folder in (top, path.parent):  # let the other user reach the socket itself
            folder.chmod(0o711)
        path.chmod(0o666)
        reader, writer = os.pipe()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            os.close(reader)
            answer = b"?"
            try:
                os.setuid(65534)  # nobody
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                    sock.settimeout(10)
                    sock.connect(str(path))
                    wire.send(sock, {"op": "status"})
                    message, _ = wire.receive(sock)
                answer = b"served" if message else b"closed"
            except Exception as exc:
                answer = type(exc).__name__.encode()
            os.write(writer, answer)
            os._exit(0)
        os.close(writer)
        os.waitpid(pid, 0)
        answer = os.read(reader, 100)
        os.close(reader)
        path.parent.chmod(0o700)
        # the daemon hung up on it at once (before or after it wrote its request)
        assert answer in (b"closed", b"BrokenPipeError", b"ConnectionResetError")
        assert _status(env)["pid"]  # still serving its owner
    finally:
        _run(["daemon", "stop"], env)
        shutil.rmtree(top, ignore_errors=True)


def test_a_changed_source_refuses_the_run_and_ends_the_daemon(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("x = 1\n")
    first = server.sources_signature(package)
    (package / "a.py").write_text("x = 22\n")
    assert server.sources_signature(package) != first
    daemon = server.Daemon(tmp_path / "s.sock", 60.0, {})
    daemon.signature = (*first, ("elsewhere", 1, 1))
    request = {"argv": ["decks"], "env": dict(os.environ), "cwd": str(tmp_path)}
    assert "changed" in daemon._refusal(request, [0, 1, 2])
    assert daemon.stopping


@given(st.binary(max_size=64))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_bytes_end_in_a_message_or_daemon_error(data: bytes) -> None:
    left, right = socket.socketpair()
    with left, right:
        left.sendall(data)
        left.shutdown(socket.SHUT_WR)
        try:
            message, fds = wire.receive(right, max_fds=3)
        except wire.DaemonError:
            return
        assert fds == []
        assert message is None or isinstance(message, dict)


def test_garbage_on_the_socket_does_not_stop_the_daemon(daemon_env: dict[str, str]) -> None:
    path = str(_status(daemon_env)["socket"])
    for junk in (b"\x00\x00\x00\x05hello", b"\xff\xff\xff\xff", b"\x00\x00\x00\x02[]", b"x"):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(10)
            sock.connect(path)
            sock.sendall(junk)
            sock.shutdown(socket.SHUT_WR)
            assert sock.recv(100) == b""  # closed without an answer
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(10)
        sock.connect(path)
        wire.send(sock, {"op": "run", "argv": "decks", "env": {}, "cwd": "/"})
        answer, _ = wire.receive(sock)
    assert answer is not None and "refused" in answer
    assert _status(daemon_env)["pid"]


def test_a_run_gets_what_cardlab_s_imports_set_unless_its_caller_chose(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # a fresh process importing the kernels sets GOMP_SPINCOUNT (how long an OpenMP
    # thread spins before it sleeps) unless the user set it; a run must see it although
    # its caller never imported them
    def show_environment(args: list[str]) -> int:
        print(json.dumps({"policy": os.environ.get("GOMP_SPINCOUNT"), "args": args}))
        return 0

    monkeypatch.setattr(server, "_run", show_environment)
    for caller, expected in (({"A": "1"}, "20000"), ({"GOMP_SPINCOUNT": "0"}, "0")):
        out = tmp_path / "out.json"
        fds = [
            os.open(os.devnull, os.O_RDONLY),
            os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
            os.open(os.devnull, os.O_WRONLY),
        ]
        ours, theirs = socket.socketpair()
        request = {"cwd": str(tmp_path), "env": caller, "argv": ["decks"], "streams": None}
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            ours.close()
            server._run_child(theirs, fds, request, {"GOMP_SPINCOUNT": "20000"})
        theirs.close()
        for fd in fds:
            os.close(fd)
        with ours:
            started, _ = wire.receive(ours)
            ended, _ = wire.receive(ours)
        os.waitpid(pid, 0)
        assert started == {"pid": pid} and ended == {"exit": 0}
        assert json.loads(out.read_text()) == {"policy": expected, "args": ["decks"]}


def test_the_spare_child_answers_a_quick_question_as_a_fresh_process(
    daemon_env: dict[str, str],
) -> None:
    # between runs the daemon forks a spare that loads the parallel kernels ahead
    deadline = time.monotonic() + 120
    while not _status(daemon_env)["spare_ready"]:
        assert time.monotonic() < deadline, "the spare never became ready"
        time.sleep(0.2)
    before = _status(daemon_env)
    args = ["equity", "--game", "fesca78-holdem", "木1 火1", "水12 金11", "--exact"]
    through = _run([*args, "--format", "json"], daemon_env)
    after = _status(daemon_env)
    assert after["runs_by_spare"] == before["runs_by_spare"] + 1  # type: ignore[operator]
    assert through == _run([*args, "--format", "json"], _fresh(daemon_env))
    assert json.loads(through[1])["players"][0]["equity"] == "74709/147112"


# --- a run belongs to its caller (issue 36): none outlives it, nor the daemon ----------

_LONG_EQUITY = ["equity", "--game", "standard52-omaha", "As Ah Ks Kh", "Qs Qh Js Jh"]
_LONG_EQUITY += ["--samples", "2000000000"]  # sampled for far longer than any test


def _busy_run(env: dict[str, str]) -> tuple[subprocess.Popen[str], int]:
    """A caller whose long run the daemon has started: the caller and the run's pid."""
    caller = subprocess.Popen(
        [*CARDLAB, *_LONG_EQUITY],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while not (pids := _status(env)["run_pids"]):
        assert time.monotonic() < deadline and caller.poll() is None, "the run never started"
        time.sleep(0.1)
    assert isinstance(pids, list) and len(pids) == 1
    return caller, int(pids[0])


def _gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while Path(f"/proc/{pid}").exists() if Path("/proc").is_dir() else _alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_run_whose_caller_is_killed_ends_at_once(daemon_env: dict[str, str]) -> None:
    caller, pid = _busy_run(daemon_env)
    assert os.getpgid(pid) == pid  # it leads its own group: its workers end with it
    caller.kill()
    caller.wait(timeout=10)
    assert _gone_within(pid, 5.0), f"run {pid} outlived its killed caller"
    assert _status(daemon_env)["busy"] == 0


def _close_stdin() -> None:
    os.close(0)


def test_a_closed_standard_input_is_closed_in_the_run_too(
    daemon_env: dict[str, str], tmp_path: Path
) -> None:
    # the run must not read the daemon's socket, which took the caller's descriptor 0
    args = ["play", "--bots", "station", "--seats", "2", "--hands", "1"]
    answers = []
    for env, name in ((daemon_env, "through"), (_fresh(daemon_env), "fresh")):
        before = _runs(daemon_env)
        done = subprocess.run(
            [*CARDLAB, *args, "--db", str(tmp_path / f"{name}.sqlite3")],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            preexec_fn=_close_stdin,
            check=False,
        )
        answers.append((done.returncode, done.stderr))
        assert _runs(daemon_env) == before + (name == "through")
    assert answers[0] == answers[1]
    code, err = answers[0]
    assert code == 2 and err == "cardlab: error: cannot read standard input: it is closed (<&-)\n"


def test_stop_ends_the_runs_in_progress(tmp_path: Path) -> None:
    env = {**os.environ, "CARDLAB_DAEMON_DIR": str(tmp_path / "run")}
    env.pop("CARDLAB_DAEMON", None)
    assert _run(["daemon", "start"], env)[0] == 0
    try:
        caller, pid = _busy_run(env)
        code, out, err = _run(["daemon", "stop"], env)
    finally:
        _run(["daemon", "stop"], env)
    assert code == 0 and out.endswith("stopped; ended 1 run in progress\n"), (out, err)
    assert _gone_within(pid, 5.0), f"run {pid} outlived the daemon"
    _, err = caller.communicate(timeout=10)
    assert caller.returncode == 128 + signal.SIGTERM, err
    assert "Traceback" not in err


@pytest.mark.parametrize("idle", ["nan", "inf", "-5", "0"])
def test_the_idle_limit_is_a_finite_positive_duration(tmp_path: Path, idle: str) -> None:
    env = {**os.environ, "CARDLAB_DAEMON_DIR": str(tmp_path / "run")}
    code, out, err = _run(["daemon", "start", "--idle", idle], env)
    assert code == 2 and out == "" and err.startswith("cardlab: error: ") and err.count("\n") == 1
    # the server itself (in a process of its own: before, it served forever)
    socket_arg = f"--socket={tmp_path / 'run' / 's.sock'}"
    done = subprocess.run(
        [sys.executable, "-m", "cardlab.cli._daemon.server", socket_arg, f"--idle={idle}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2 and "--idle" in done.stderr


def test_a_run_whose_daemon_is_killed_ends_at_once(tmp_path: Path) -> None:
    """A daemon killed outright (SIGKILL: none of its own ending runs) takes its runs with
    it; the caller says so in one line."""
    env = {**os.environ, "CARDLAB_DAEMON_DIR": str(tmp_path / "run")}
    env.pop("CARDLAB_DAEMON", None)
    assert _run(["daemon", "start"], env)[0] == 0
    daemon = _status(env)["pid"]
    assert isinstance(daemon, int)
    try:
        caller, pid = _busy_run(env)
        os.kill(daemon, signal.SIGKILL)
        assert _gone_within(pid, 5.0), f"run {pid} outlived its killed daemon"
        _, err = caller.communicate(timeout=10)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(daemon, signal.SIGKILL)
    assert caller.returncode == 1, err
    assert err.endswith("the daemon or the run was killed)\n") and "Traceback" not in err, err


@pytest.mark.parametrize("args", [["decks"], ["equity", "As Ah", "Ks Kh", "--exact"]])
def test_a_full_disk_through_the_daemon_is_the_fresh_process_s_one_line(
    daemon_env: dict[str, str], args: list[str]
) -> None:
    """Issue 36, cause 1, through the daemon: the run writes on the caller's /dev/full."""
    answers = []
    for env in (daemon_env, _fresh(daemon_env)):
        before = _runs(daemon_env)
        with open("/dev/full", "w") as full:
            done = subprocess.run(
                [*CARDLAB, *args], stdout=full, stderr=subprocess.PIPE, text=True, env=env,
                timeout=120, check=False,
            )  # fmt: skip
        assert "Traceback" not in done.stderr, done.stderr
        answers.append((done.returncode, done.stderr.splitlines()[-1]))  # (after a compile)
        assert _runs(daemon_env) == before + (env is daemon_env)
    assert answers[0] == answers[1]
    assert answers[0] == (
        2,
        "cardlab: error: cannot write to standard output: No space left on device",
    )


class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("args", "daemon", "ttys", "starts"),
    [
        (["equity", "As Ah", "Ks Kh"], None, (True, True), True),
        (["ties"], None, (True, True), True),
        (["decks"], None, (True, True), False),  # no kernel: nothing to gain
        ([], None, (True, True), False),
        (["equity", "As Ah", "Ks Kh"], "on", (True, True), False),  # the user chose
        (["equity", "As Ah", "Ks Kh"], "off", (True, True), False),
        (["equity", "As Ah", "Ks Kh"], None, (False, True), False),  # a script's input
        (["equity", "As Ah", "Ks Kh"], None, (True, False), False),  # errors to a file
        (["equity", "As Ah", "Ks Kh"], None, (None, True), False),  # input closed
    ],
)
def test_a_kernel_command_typed_at_a_terminal_starts_a_daemon_on_its_own(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    args: list[str],
    daemon: str | None,
    ttys: tuple[bool | None, bool],
    starts: bool,
) -> None:
    from cardlab.cli._daemon import client

    monkeypatch.setenv("CARDLAB_DAEMON_DIR", str(tmp_path / "run"))
    if daemon is None:
        monkeypatch.delenv("CARDLAB_DAEMON", raising=False)
    else:
        monkeypatch.setenv("CARDLAB_DAEMON", daemon)
    stdin, stderr = ttys
    monkeypatch.setattr(sys, "stdin", None if stdin is None else _Stream(stdin))
    monkeypatch.setattr(sys, "stderr", _Stream(stderr))
    started: list[float] = []
    monkeypatch.setattr(client, "start_detached", started.append)
    assert client.starts_on_its_own(args) is starts
    assert client.forward(args) is None  # no daemon yet: this run runs here
    assert started == ([client.AUTO_IDLE_MINUTES] if starts else [])
