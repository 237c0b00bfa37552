"""Kernels prepared once per machine: one process compiles, every other waits, then loads.

numba compiles a kernel in the process that first calls it and keeps the machine code in
its disk cache (:mod:`cardlab._numba_cache`); processes started together on an empty
cache (three web processes, a report's Dask workers, a daemon beside a command) would
each compile the same kernels, for a minute or more each on two cores. So a *set* of
kernels (:data:`SETS`: what one kind of work runs) is prepared under one file lock in
the cache directory: the process that takes the lock compiles the set by running a small
question through it, the others wait for the lock and then find the set in the cache,
which they load in a fraction of a second. Every preparation leaves a line in
``prepare.log`` beside the cache (``compiled`` or ``found``, the set, the process id):
the tests count compiles there.

A command that asks one question need not wait for the compile at all:
:func:`answer_interpreted` starts the set's preparation in a process of its own, in the
background (for the next run), and turns numba's compiler off in the asking process, so
the kernels run as the plain Python they are written in. That is fast where the
kernels' algorithm does little work (an exact Hold'em equity of fixed hands counts
boards by rank class: a few seconds) and far too slow where it does much (Monte Carlo,
a hand against every random hand): the caller decides which questions qualify.

Every process shares the compile of each kernel besides (:mod:`cardlab._shared_compile`,
installed by ``import cardlab``: web workers, a report's Dask workers, the daemon's
children, any command): a cached kernel that is not in the
process yet is compiled or loaded under a lock of its own in the cache directory
(``locks/<module>.<function>.lock``), so of several processes that need it at once one
compiles and the others then load it; a compile leaves a ``kernel ... compiled`` line in
``prepare.log``. A kernel in the cache is loaded with no wait (the lock is free unless
another process is compiling that kernel).

Whether a set is prepared is read from the cache directory's index files (numba writes
one per compiled function, ``<module>.<function>-<line>.py311.nbi``), without importing
numba: the decision has to come before numba is imported, because the compiler switch
is read once, when each kernel module is imported.
"""

from __future__ import annotations

import base64
import contextlib
import datetime
import fcntl
import importlib
import os
import pickle
import subprocess
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LOCK = "prepare.lock"
LOG = "prepare.log"
# CARDLAB_PREPARE: "off", no interpreted answer and no background preparation; "no-background",
# the interpreted answer without starting a preparation (what the tests check)
SWITCH = "CARDLAB_PREPARE"


@dataclass(frozen=True, slots=True)
class KernelSet:
    """What one kind of work runs: the compiled functions whose index files say the set
    is in the cache (``package.module.function``), and the function that compiles them by
    running a small question (``package.module:function``, imported when it runs)."""

    kernels: tuple[str, ...]
    run: str


_K = "cardlab.poker._kernels."
SETS: dict[str, KernelSet] = {
    # an exact equity of fixed hands on the hash path (counted by rank class; the look-ups
    # it reads are mostly on disk already, their builders not needed)
    "exact": KernelSet((f"{_K}by_rank.exact_by_rank",), "cardlab.poker.warm_up:exact"),
    # an exact equity of fixed hands (by rank class), a hand against a random hand, the
    # walk over every board, and sampling: what `cardlab equity` runs
    "equity": KernelSet(
        (
            f"{_K}hashed.fill_rank_keys",
            f"{_K}by_rank.exact_by_rank",
            f"{_K}vs_random.hand_vs_random",
            f"{_K}showdowns.exact_units",
            f"{_K}sampling.plain_loop",
            f"{_K}sampling.dealt_loop",
            f"{_K}sampling.ranges_loop",
            f"{_K}sampling.omaha_loop",
        ),
        "cardlab.poker.warm_up:equity",
    ),
    # the bots' Monte Carlo at a web table (both sizes of hash index)
    "bots": KernelSet(
        (f"{_K}hashed.fill_rank_keys", f"{_K}sampling.plain_loop", f"{_K}sampling.dealt_loop"),
        "cardlab.poker.warm_up:bots",
    ),
}


def cache_dir() -> Path:
    """numba's cache directory for this version of the sources (``NUMBA_CACHE_DIR``, as
    ``import cardlab`` sets it), else the folder beside the kernels' sources where numba
    writes when no cache directory is writable."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return Path(chosen)
    return Path(__file__).resolve().parent / "poker" / "_kernels" / "__pycache__"


def in_cache(name: str, where: Path | None = None) -> bool:
    """Whether numba's disk cache holds every kernel of set ``name`` (an index file of
    each: some signature was compiled for sources of this version)."""
    root = cache_dir() if where is None else where
    for kernel in SETS[name].kernels:
        pattern = f"{'.'.join(kernel.split('.')[-2:])}-*.nbi"  # numba's name: module.function
        if not any(root.glob(pattern)) and not any(root.glob(f"*/{pattern}")):
            return False
    return True


@contextlib.contextmanager
def machine_lock(root: Path) -> Iterator[None]:
    """Hold the preparation lock of cache directory ``root`` (one holder per machine;
    released when the holder exits, however it exits)."""
    root.mkdir(parents=True, exist_ok=True)
    with open(root / LOCK, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def preparing(root: Path) -> bool:
    """Whether some process holds the preparation lock of ``root`` now."""
    try:
        with open(root / LOCK, "a+b") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(handle, fcntl.LOCK_UN)
    except OSError:
        return False
    return False


def log_line(root: Path, text: str) -> None:
    stamp = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    with contextlib.suppress(OSError), open(root / LOG, "a", encoding="utf-8") as out:
        out.write(f"{stamp} pid {os.getpid()} {text}\n")


_in_threads: dict[threading.Thread, threading.Event] = {}  # this process's preparations
_started: list[subprocess.Popen[bytes]] = []  # the background processes started here


def in_thread(work: Callable[[], object]) -> threading.Thread:
    """Run ``work`` (a preparation) in a thread of its own, started now; until it ends,
    :func:`wait_in_process` makes the process's other threads wait for it (rather than
    compile the same kernels beside it)."""
    done = threading.Event()

    def run() -> None:
        try:
            work()
        finally:
            done.set()

    thread = threading.Thread(target=run, name="cardlab kernels", daemon=True)
    _in_threads[thread] = done
    thread.start()
    return thread


def wait_in_process() -> None:
    """Wait for the preparations this process runs in threads (:func:`in_thread`)."""
    me = threading.current_thread()
    for thread, done in list(_in_threads.items()):
        if thread is not me:
            done.wait()


def preparing_in_process() -> bool:
    """Whether a preparation of this process runs in another thread now (:func:`in_thread`)."""
    me = threading.current_thread()
    return any(t is not me and not done.is_set() for t, done in list(_in_threads.items()))


def note(root: Path, compiled: bool, name: str, seconds: float) -> None:
    """Log one preparation of set ``name`` in ``root``'s ``prepare.log``."""
    log_line(root, f"{'compiled' if compiled else 'found'} {name} in {seconds:.1f} s")


def prepare(name: str) -> bool:
    """Make sure set ``name`` is in numba's disk cache: wait for the lock, then run the
    set's question, which compiles the kernels only if no process did meanwhile (else
    loads them); this process has the set loaded then. True when it compiled some."""
    kernel_set = SETS[name]
    root = cache_dir()
    with machine_lock(root):
        start = time.monotonic()
        module, _, function = kernel_set.run.partition(":")
        getattr(importlib.import_module(module), function)()  # compiles, or loads
        compiled = compiled_here(kernel_set)
        note(root, compiled > 0, name, time.monotonic() - start)
    return compiled > 0


def compiled_here(kernel_set: KernelSet) -> int:
    """How many signatures of the set's kernels this process compiled rather than
    loaded from the disk cache (numba's own count of its cache misses)."""
    total = 0
    for kernel in kernel_set.kernels:
        module, _, function = kernel.rpartition(".")
        stats = getattr(getattr(sys.modules.get(module), function, None), "stats", None)
        total += sum(getattr(stats, "cache_misses", {}).values())
    return total


def start_in_background(name: str | list[str]) -> bool:
    """Prepare set ``name`` in a process of its own, detached from this one (it outlives
    it, at a lower priority); nothing when a preparation holds the lock already. A list:
    the arguments of ``python -m cardlab._prepare`` (``--compile``, one kernel:
    :mod:`cardlab._serial_first`), started whatever holds the lock. True when a process
    was started."""
    root = cache_dir()
    if isinstance(name, str) and preparing(root):
        return False
    # the compiler on, the parallel kernels compiled: what the background is for
    off = ("NUMBA_DISABLE_JIT", "CARDLAB_SERIAL_FIRST")
    env = {k: v for k, v in os.environ.items() if k not in off}
    args = [sys.executable, "-m", "cardlab._prepare", *([name] if isinstance(name, str) else name)]
    try:
        root.mkdir(parents=True, exist_ok=True)
        log = os.open(root / LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    except OSError:
        return False
    try:
        # a session of its own (no terminal's hang-up reaches it); fork and exec in one
        # step (subprocess's own): this process may run threads by now (numba's)
        child = subprocess.Popen(
            args,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
        )
    except OSError:
        return False
    finally:
        os.close(log)
    _started.append(child)  # kept: no "still running" warning when it is collected
    return True


def command_process() -> bool:
    """Whether this process is the ``cardlab`` command itself (its script, or ``python -m
    cardlab``): only there may numba's compiler be turned off, never in a program that
    calls the command line (a test's runner, a notebook), whose later kernels would all
    run interpreted."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None:
        return bool(spec.name in ("cardlab", "cardlab.__main__"))
    return Path(sys.argv[0]).name == "cardlab"


def answer_interpreted(name: str, background: str | None = None, *, interpret: bool = True) -> bool:
    """Before numba is imported: when set ``name`` (what the question runs) is not in
    the cache, start the preparation of set ``background`` (default ``name``: what the
    command may run next time) in the background, and (``interpret``) run this process's
    kernels as plain Python (numba's compiler off). True when so: the caller answers
    without the compiled kernels (``interpret`` False: by a plain path of its own). False,
    the kernels compiled as usual: in the cache already, numba imported already, the user
    set numba's switch, a process other than the command's own, or
    ``CARDLAB_PREPARE=off``. ``CARDLAB_PREPARE=no-background`` answers without a
    preparation."""
    switch = os.environ.get(SWITCH, "").lower()
    if switch == "off" or "NUMBA_DISABLE_JIT" in os.environ or not command_process():
        return False
    if "numba" in sys.modules or in_cache(name):
        return False
    if switch != "no-background":
        start_in_background(background or name)
    if interpret:
        os.environ["NUMBA_DISABLE_JIT"] = "1"
        # the kernels' random generators and hashes wrap around 64 bits on purpose:
        # compiled, silently; interpreted, numpy's scalars warn (the values are the same)
        warnings.filterwarnings("ignore", "overflow encountered", RuntimeWarning, r"cardlab\.")
    return True


def compile_kernels(text: str) -> None:
    """In a background process: compile each kernel ``text`` names for its argument types
    (:func:`cardlab._serial_first.compile_in_background`: a pickled list of module,
    name and numba types, in base64), or load it when a process did meanwhile; each
    under the kernel's own lock (``import cardlab`` patched numba's dispatcher)."""
    for module, qualname, arg_types in pickle.loads(base64.b64decode(text)):  # ours, argv
        kernel: Any = importlib.import_module(module)
        for part in qualname.split("."):
            kernel = getattr(kernel, part)
        kernel.compile(arg_types)


def main(argv: list[str]) -> int:
    """``python -m cardlab._prepare SET...``: prepare each set (waiting for the lock)."""
    with contextlib.suppress(OSError):
        os.nice(10)  # behind whatever the user runs meanwhile
    if argv[:1] == ["--compile"] and len(argv) == 2:  # kernels for given argument types
        compile_kernels(argv[1])
        return 0
    for name in argv:
        if name not in SETS:
            print(f"cardlab: no kernel set {name!r} (known: {', '.join(SETS)})", file=sys.stderr)
            return 2
        prepare(name)
    return 0


if __name__ == "__main__":  # run as ``-m``: the package (numba's cache directory) first
    raise SystemExit(main(sys.argv[1:]))
