"""Each cached kernel compiled once per machine: a lock per kernel in numba's cache directory.

numba compiles a kernel in the process that first calls it; processes started together
on an empty cache (web workers, a report's Dask workers, the daemon's children, two
commands) would each compile it. ``import cardlab`` patches numba's dispatcher (once
numba is imported: :func:`share_compiles`) so that a cached kernel (``cache=True``) not
yet in the process is compiled or loaded under its own lock,
``<cache>/locks/<module>.<function>.lock``: of several processes that need it at once,
one compiles and the others then load it from the disk cache. A compile adds a line
``kernel <module>.<function> compiled in N s`` to ``prepare.log`` beside the cache (what
the tests count). A kernel in the cache is loaded with no wait (its lock is free unless
another process is compiling that very kernel). See :mod:`cardlab._prepare` for the sets
of kernels prepared ahead and the first answers that do not wait.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib.abc
import importlib.machinery
import os
import re
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

_compiling = threading.RLock()  # this process's compiles, one at a time (numba's own rule)
_held: set[str] = set()  # the kernel locks this process holds (a compile inside a compile)
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


@contextlib.contextmanager
def kernel_lock(root: Path, name: str) -> Iterator[None]:
    """Hold the lock of kernel ``name`` in cache directory ``root`` (nothing when the
    directory cannot be written: the process then compiles on its own, as numba does)."""
    try:
        folder = root / "locks"
        folder.mkdir(parents=True, exist_ok=True)
        handle = os.open(folder / f"{_UNSAFE.sub('_', name)}.lock", os.O_RDWR | os.O_CREAT, 0o644)
    except OSError:
        yield
        return
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)  # releases the lock


def kernel_busy(root: Path, name: str) -> bool:
    """Whether some process holds kernel ``name``'s lock in ``root`` now (compiles it)."""
    try:
        handle = os.open(root / "locks" / f"{_UNSAFE.sub('_', name)}.lock", os.O_RDWR)
    except OSError:
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(handle)  # (releases the lock if it was taken here)
    return False


def share_compiles() -> None:
    """Compile (or load) each cached numba kernel under its lock (:func:`kernel_lock`),
    from numba's import on (``import cardlab`` calls this: numba itself is not imported
    here, only its dispatcher patched once it is). A kernel the process has compiled or
    loaded for the signature already costs nothing more; one without a disk cache
    (``cache=True`` not set) is left alone. The order of the locks follows the calls (a
    kernel's compile types the kernels it calls, under their locks): kernels do not call
    each other in a circle, so no two processes wait for each other."""
    dispatcher = sys.modules.get("numba.core.dispatcher")
    if dispatcher is not None and hasattr(dispatcher, "Dispatcher"):
        _patch(dispatcher.Dispatcher)
    elif not any(isinstance(f, _AfterDispatcher) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterDispatcher())


class _AfterDispatcher(importlib.abc.MetaPathFinder):
    """Patches numba's dispatcher when its module has been executed (then leaves)."""

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != "numba.core.dispatcher":
            return None
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        loader = getattr(spec, "loader", None)
        if loader is None or not hasattr(loader, "exec_module"):
            return spec
        run = loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            _patch(module.Dispatcher)

        loader.exec_module = exec_module
        return spec


def _patch(dispatcher: Any) -> None:
    original = getattr(dispatcher, "compile", None)
    if original is None or getattr(original, "cardlab_shared", False):
        return  # another numba (no such method: compiles go on unshared), or patched

    def compile(self: Any, sig: Any) -> Any:
        # numba's own attributes, read defensively: a numba whose dispatcher differs
        # compiles as it always does (each process its own), never fails here
        cache = getattr(self, "_cache", None)
        overloads = getattr(self, "overloads", None)
        misses_of = getattr(self, "_cache_misses", None)
        if cache is None or type(cache).__name__ == "NullCache":
            return original(self, sig)
        if not isinstance(overloads, dict) or not isinstance(misses_of, dict):
            return original(self, sig)
        try:
            from numba.core import sigutils

            args, _ = sigutils.normalize_signature(sig)  # type: ignore[no-untyped-call]
        except (ImportError, AttributeError, TypeError):
            return original(self, sig)
        existing = overloads.get(tuple(args))
        if existing is not None:  # compiled or loaded here already
            return existing.entry_point
        name = f"{self.py_func.__module__}.{self.py_func.__qualname__}"
        with _compiling:
            if name in _held:  # this kernel's compile is under way here already
                return original(self, sig)
            from cardlab import _prepare

            root = _prepare.cache_dir()
            misses = sum(misses_of.values())
            start = time.monotonic()
            with kernel_lock(root, name):
                _held.add(name)
                try:
                    entry = original(self, sig)
                finally:
                    _held.discard(name)
            if sum(misses_of.values()) > misses:
                _prepare.log_line(
                    root, f"kernel {name} compiled in {time.monotonic() - start:.1f} s"
                )
            return entry

    compile.cardlab_shared = True  # type: ignore[attr-defined]
    dispatcher.compile = compile
