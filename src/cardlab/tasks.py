"""Long computations as independent tasks, run in this process or on a Dask cluster.

A :class:`Task` is a frozen value that names its inputs (:meth:`Task.key`, a text that
changes whenever the result could) and computes a JSON-able result (:meth:`Task.run`).
:func:`run_tasks` runs a list of them and returns the results in the same order:

- ``client=None``: one after another in this process (the library's default, and what
  the tests compare the cluster with);
- a ``distributed.Client``: every task is submitted to the cluster and collected as it
  finishes (``as_completed``), so the progress callback sees tasks done and the caller
  can show the time left. :func:`dask_client` starts a local cluster of this machine's
  cores (processes, one thread each) or connects to ``--scheduler ADDRESS``.

The result of a task never depends on where or when it ran: a sampled task draws from
``numpy.random.SeedSequence((seed, *task id))`` (:func:`task_rng`), never from the worker
or the order of completion, so the same seed gives the same figures on one worker or a
hundred. With a ``cache`` directory each finished task is written to
``<cache>/<hash of key and cardlab version>.json`` as soon as it arrives, and a later run
with the same inputs reads it instead of running it again: an interrupted run resumes.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from cardlab._sources import code_digest
from cardlab.errors import CardlabError

Progress = Callable[[int, int], None]
"""``progress(done, total)``: tasks finished (cached ones count as done at once)."""


class Task(Protocol):
    """An independent piece of a long computation."""

    def key(self) -> str:
        """Every input that decides the result, as text (the cache key)."""
        ...

    def run(self) -> Any:
        """Compute the result: JSON-able data (ints, floats, strings, lists, dicts)."""
        ...


class ClusterError(CardlabError):
    """A scheduler that cannot be reached, or a cluster option that makes no sense."""


WORKERS_PER_CORE = 4
"""A local cluster has at most this many worker processes per core: more only wait for
a core, each with its own memory, and hundreds take minutes to start."""


def max_workers() -> int:
    """The most worker processes of a local cluster on this machine."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def check_workers(workers: int | None) -> None:
    """Refuse a number of local workers below 1 or above :func:`max_workers`."""
    if workers is None:
        return
    if workers < 1:
        raise ClusterError(f"workers must be at least 1, got {workers}")
    most = max_workers()
    if workers > most:
        raise ClusterError(
            f"{workers} workers is too many for this machine: a local cluster has at most "
            f"{most} ({WORKERS_PER_CORE} per core, {os.cpu_count() or 1} cores); for more, "
            "start a Dask cluster and give its --scheduler"
        )


def task_hash(task: Task) -> str:
    """The cache file name of a task: sha256 of its key and of the code that computes it
    (the task's module and every cardlab module it imports: a change there recomputes)."""
    code = code_digest(type(task).__module__)
    text = f"cardlab {code}\n{type(task).__name__}\n{task.key()}"
    return hashlib.sha256(text.encode()).hexdigest()


def task_rng(seed: int, *ids: int) -> np.random.Generator:
    """The random generator of one task: from the run's seed and the task's own ids."""
    return np.random.default_rng(np.random.SeedSequence([int(seed), *(int(i) for i in ids)]))


def default_cache_dir() -> Path:
    """Where finished tasks are kept unless ``--cache DIR`` says otherwise."""
    import platformdirs

    return Path(platformdirs.user_cache_dir("cardlab")) / "tasks"


def _execute(task: Task) -> Any:
    """What a worker runs (module level, so it pickles by name)."""
    return task.run()


def _read(cache: Path | None, task: Task) -> tuple[bool, Any]:
    if cache is None:
        return False, None
    path = cache / f"{task_hash(task)}.json"
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return False, None
    if not isinstance(data, dict) or data.get("key") != task.key():
        return False, None
    return True, data["result"]


def _write(cache: Path | None, task: Task, result: Any) -> None:
    if cache is None:
        return
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"{task_hash(task)}.json"
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"key": task.key(), "result": result}))
    tmp.replace(path)  # atomic: an interrupted write leaves no half file behind


def run_tasks(
    tasks: Sequence[Task],
    *,
    client: Any = None,
    cache: Path | str | None = None,
    progress: Progress | None = None,
) -> list[Any]:
    """Every task's result, in the order of ``tasks``.

    ``client``: a ``distributed.Client`` (or None: run here). ``cache``: a directory
    of finished tasks (read first, written as each task finishes).
    """
    folder = Path(cache) if cache is not None else None
    results: list[Any] = [None] * len(tasks)
    todo: list[int] = []
    for i, task in enumerate(tasks):
        found, value = _read(folder, task)
        if found:
            results[i] = value
        else:
            todo.append(i)
    done = len(tasks) - len(todo)
    if progress is not None:
        progress(done, len(tasks))
    if client is None:
        for i in todo:
            results[i] = _roundtrip(tasks[i].run())
            _write(folder, tasks[i], results[i])
            done += 1
            if progress is not None:
                progress(done, len(tasks))
        return results
    import distributed

    as_completed: Any = distributed.as_completed  # untyped in distributed
    futures = {}
    for i in todo:
        future = client.submit(_execute, tasks[i], key=f"cardlab-{task_hash(tasks[i])}", pure=False)
        futures[future] = i
    try:
        for future in as_completed(list(futures)):
            i = futures[future]
            results[i] = _roundtrip(future.result())
            _write(folder, tasks[i], results[i])
            done += 1
            if progress is not None:
                progress(done, len(tasks))
    finally:
        client.cancel(list(futures))
    return results


def _roundtrip(value: Any) -> Any:
    """The result as the cache gives it back, so a resumed run sees the same values
    (tuples become lists, numpy ints plain ints)."""
    return json.loads(json.dumps(value, default=_plain))


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"a task result must be JSON data, not {type(value).__name__}")


@contextmanager
def dask_client(
    scheduler: str | None = None, workers: int | None = None, *, timeout: float = 10.0
) -> Iterator[Any]:
    """A ``distributed.Client``: connected to ``scheduler`` (an address such as
    ``tcp://10.0.0.5:8786``), or to a local cluster of ``workers`` processes (default:
    this machine's cores), one thread each, closed again on the way out."""
    import distributed

    Client: Any = distributed.Client  # untyped in distributed
    LocalCluster: Any = distributed.LocalCluster
    if scheduler is not None and workers is not None:
        raise ClusterError("--workers starts a local cluster: it cannot go with --scheduler")
    check_workers(workers)
    if scheduler is not None:
        try:
            client = Client(scheduler, timeout=f"{timeout}s")
        except (OSError, TimeoutError, ValueError) as exc:
            raise ClusterError(f"cannot reach the Dask scheduler {scheduler!r}: {exc}") from None
        try:
            yield client
        finally:
            client.close()
        return
    n = workers if workers is not None else (os.cpu_count() or 1)
    cluster = None
    try:
        with _ctrl_c_for_this_process_only():
            cluster = LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: never clash with another cluster
                silence_logs=50,
                # one worker per core: the compiled kernels must not each start a thread
                # per core
                env={"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
            )
        client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        if cluster is not None:
            cluster.close()


@contextmanager
def _ctrl_c_for_this_process_only() -> Iterator[None]:
    """Start the local cluster with SIGINT blocked, so that its worker processes (and the
    threads that start them) inherit the block, and a Ctrl-C meanwhile held back.

    Ctrl-C at a terminal signals every process of the foreground group: workers that took
    it would each print a traceback, or die while starting, before this process stops the
    cluster. With the signal blocked they never see it; this process gets it as
    ``KeyboardInterrupt`` and closes the cluster, which stops them. A Ctrl-C while the
    cluster starts (taken by a thread that does not block it, such as a BLAS thread) is
    noted and raised once the cluster is whole, so that it can be closed. The resource
    tracker of multiprocessing is started first: starting it unblocks SIGINT.
    """
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not (
        threading.main_thread()
    ):
        yield
        return
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
    interrupted = False

    def later(signum: int, frame: object) -> None:
        nonlocal interrupted
        interrupted = True

    handler = signal.getsignal(signal.SIGINT)
    if handler is not signal.SIG_IGN:  # a background job ignores Ctrl-C, and so do we
        signal.signal(signal.SIGINT, later)
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, handler if handler is not None else signal.default_int_handler)
    if interrupted:
        raise KeyboardInterrupt
