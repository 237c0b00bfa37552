"""Running independent pieces of work on Dask: the one place cardlab's bots touch it.

:func:`map_chunks` sends ``fn(arg, index)`` for every index to a Dask cluster and
returns the results **in index order** (whatever order they finish in), so the caller's
result does not depend on the number of workers. With no scheduler address it starts a
:class:`distributed.LocalCluster` of worker processes on this machine (one thread each;
the compiled kernels inside are told to use one thread too) and closes it afterwards.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from cardlab.errors import CardlabError

A = TypeVar("A")
R = TypeVar("R")


class ClusterError(CardlabError):
    """A Dask scheduler that cannot be reached or used."""


def default_workers() -> int:
    return os.cpu_count() or 1


def map_chunks(
    fn: Callable[[A, int], R],
    arg: A,
    indices: Sequence[int],
    workers: int | None = None,
    scheduler: str | None = None,
    step: Callable[[], None] | None = None,
) -> list[R]:
    """``[fn(arg, i) for i in indices]`` computed on Dask; ``step()`` after each result."""
    from distributed import Client, LocalCluster, as_completed

    cluster: Any = None
    try:
        if scheduler is None:
            cluster = LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=workers or default_workers(),
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.ERROR,
                env={"NUMBA_NUM_THREADS": "1"},
            )
            client = Client(cluster)  # type: ignore[no-untyped-call]
        else:
            try:
                client = Client(scheduler, timeout="10s")  # type: ignore[no-untyped-call]
            except (OSError, TimeoutError, ValueError) as exc:
                raise ClusterError(
                    f"cannot reach the Dask scheduler {scheduler!r}: {exc}"
                ) from None
        try:
            futures = client.map(fn, [arg] * len(indices), list(indices), pure=False)
            position = {f.key: k for k, f in enumerate(futures)}
            out: list[Any] = [None] * len(futures)
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                out[position[future.key]] = future.result()
                if step is not None:
                    step()
            return out
        finally:
            client.close()  # type: ignore[no-untyped-call]
    finally:
        if cluster is not None:
            cluster.close()
