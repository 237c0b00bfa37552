"""On a first run a parallel kernel's serial twin answers, while the parallel one compiles.

numba's ``parallel=True`` costs a compile of its own on top of the code it runs: the
parallel loop pass and the code that starts the threads, 3-5 s of CPU per kernel on two
cores (``sampling.dealt_loop`` 12.7 s against 9.5 s serial, ``plain_loop`` 5.9 against
3.0, ``vs_random.hand_vs_random`` 9.0 against 5.6). The work a first command does
is mostly small (a second or less warm), so a command that runs a kernel the cache
lacks calls its *serial twin* instead (:func:`twin`: the same Python source compiled
without ``parallel``, ``prange`` running as ``range``; the same answer, bit for bit, the
blocks dealt in the same order) and has the parallel kernel compiled for the same
argument types in a process of its own, in the background, for the next run
(:func:`call`). The twin's own compile is the small part: the functions it calls are
the parallel kernel's too, compiled once into numba's disk cache and loaded by the
background compile.

Only where a command asked for it (:func:`enable`: ``cardlab equity``, ``ties``,
``chart``, ``report``, ``arena``), in the command's own process and the processes it
starts (a chart's Dask workers: the switch is an environment variable), and never with
``CARDLAB_PREPARE=off`` (every kernel compiled in the foreground, as before). A kernel
whose machine code for these argument types is in the process or in numba's disk cache
runs as it always did. ``CARDLAB_PREPARE=no-background`` runs the twin without starting
the compile (what the tests check).
"""

from __future__ import annotations

import atexit
import base64
import multiprocessing
import os
import pickle
import threading
import time
import types
from typing import Any

from cardlab import _prepare

SWITCH = "CARDLAB_SERIAL_FIRST"
RECHECK_SECONDS = 2.0  # between looks at the disk cache while a twin answers
# (kernel, argument types) -> (the kernel or its twin, when the disk cache was read)
_chosen: dict[tuple[Any, tuple[Any, ...]], tuple[Any, float]] = {}
_started: list[tuple[Any, tuple[Any, ...]]] = []  # compiled in the background at once
_pending: list[tuple[Any, tuple[Any, ...]]] = []  # to compile in the background at exit
_lock = threading.Lock()


def twin(kernel: Any) -> Any:
    """The serial twin of parallel kernel ``kernel`` (a numba dispatcher with a disk
    cache): its Python function compiled without ``parallel``, named ``<name>_serial`` in
    numba's cache (the same name would share the parallel kernel's cache entries: numba's
    key has no room for the option). ``kernel`` itself when it is no dispatcher (numba's
    compiler off: the plain function runs either way)."""
    function = getattr(kernel, "py_func", None)
    if function is None:
        return kernel
    from numba import njit

    copy = types.FunctionType(
        function.__code__,
        function.__globals__,
        f"{function.__name__}_serial",
        function.__defaults__,
        function.__closure__,
    )
    copy.__qualname__ = f"{function.__qualname__}_serial"
    copy.__module__ = function.__module__
    copy.__doc__ = function.__doc__
    return njit(cache=True)(copy)


def enable() -> None:
    """Let this command's process (and those it starts) answer by serial twins on a
    first run (:func:`call`); nothing in a program that calls the command line (a
    test's runner, a notebook: it keeps numba's usual compile) or with
    ``CARDLAB_PREPARE=off``."""
    if os.environ.get(_prepare.SWITCH, "").lower() == "off" or not _prepare.command_process():
        return
    os.environ[SWITCH] = "1"


def enabled() -> bool:
    return os.environ.get(SWITCH) == "1"


def call(kernel: Any, serial: Any, args: tuple[Any, ...]) -> Any:
    """``kernel(*args)`` (parallel), or its twin ``serial``'s: the twin when this process
    may (:func:`enable`) and numba has the kernel's machine code for these argument types
    neither in the process nor in its disk cache. Then the kernel is compiled for them
    in the background once the twin has answered (the functions they share are in the
    disk cache by then, so the background loads them rather than holding their locks
    while this process compiles them); a process that calls on (``chart``: 169 classes)
    takes the kernel up once it is in the cache (the same answers)."""
    chosen, arg_types = _choose(kernel, serial, args)
    out = chosen(*args)
    if arg_types is not None:
        _compile_later(kernel, arg_types)
    return out


def _choose(kernel: Any, serial: Any, args: tuple[Any, ...]) -> tuple[Any, Any]:
    """(the function to call, the argument types to compile ``kernel`` for afterwards, or
    None)."""
    if serial is kernel or not enabled():
        return kernel, None
    overloads = getattr(kernel, "overloads", None)
    typeof = getattr(kernel, "typeof_pyval", None)
    if not isinstance(overloads, dict) or typeof is None:
        return kernel, None  # another numba: the kernel, compiled as numba does
    try:
        arg_types = tuple(typeof(a) for a in args)
    except Exception:  # a value numba cannot type: let the call say so
        return kernel, None
    if arg_types in overloads:
        return kernel, None
    now = time.monotonic()
    with _lock:
        key = (kernel, arg_types)
        known = _chosen.get(key)
        if known is not None and (known[0] is kernel or now - known[1] < RECHECK_SECONDS):
            return known[0], None
        ready = in_disk_cache(kernel, arg_types)
        _chosen[key] = (kernel if ready else serial, now)
    return (kernel, None) if ready else (serial, None if known else arg_types)


def _compile_later(kernel: Any, arg_types: tuple[Any, ...]) -> None:
    """Have ``kernel`` compiled for ``arg_types`` in the background: the first kernel at
    once, the command's others at its exit, all in one process (:func:`_flush`); in a
    process the command started (a Dask worker: it ends without running exit handlers),
    each at once."""
    if os.environ.get(_prepare.SWITCH, "").lower() == "no-background":
        return
    with _lock:
        # a multiprocessing child (a Dask worker) ends without running exit handlers
        now = not _started or multiprocessing.parent_process() is not None
        if now:
            _started.append((kernel, arg_types))
        else:
            if not _pending:
                atexit.register(_flush)
            _pending.append((kernel, arg_types))
    if now:
        compile_in_background([(kernel, arg_types)])


def _flush() -> None:
    with _lock:
        pending = list(_pending)
        _pending.clear()
    if pending:
        compile_in_background(pending)


def in_disk_cache(kernel: Any, arg_types: tuple[Any, ...]) -> bool:
    """Whether numba's disk cache holds ``kernel`` compiled for ``arg_types`` from its
    current source (numba's index of the kernel: its keys start with the types)."""
    try:
        index = kernel._cache._cache_file._load_index()
    except Exception:  # no index, an unreadable or foreign one: not there
        return False
    return any(isinstance(k, tuple) and k and k[0] == arg_types for k in index)


def compile_in_background(kernels: list[tuple[Any, tuple[Any, ...]]]) -> bool:
    """Start a detached process that compiles each ``(kernel, argument types)`` into
    numba's disk cache, one after the other (``python -m cardlab._prepare --compile ...``,
    each under the kernel's own lock: :mod:`cardlab._shared_compile`); a kernel some
    process compiles now is left to it. True when a process was started."""
    from cardlab import _shared_compile

    root = _prepare.cache_dir()
    wanted = []
    for kernel, arg_types in kernels:
        function = kernel.py_func
        if not _shared_compile.kernel_busy(root, f"{function.__module__}.{function.__qualname__}"):
            wanted.append((function.__module__, function.__qualname__, arg_types))
    if not wanted:
        return False
    try:
        payload = pickle.dumps(wanted)
    except Exception:  # types numba cannot pickle: the next run compiles in the foreground
        return False
    return _prepare.start_in_background(["--compile", base64.b64encode(payload).decode("ascii")])
