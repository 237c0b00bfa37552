"""Running the arena's independent chunks on Dask.

:func:`map_chunks` sends ``fn(arg, index)`` for every index to a Dask cluster and
returns the results **in index order** (whatever order they finish in), so the caller's
result does not depend on the number of workers. The client comes from
:func:`cardlab.tasks.dask_client`, the one place cardlab starts or joins a
cluster: with no scheduler address, a :class:`distributed.LocalCluster` of single-threaded
worker processes on this machine (numba told to use one thread in each), closed
afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from cardlab.tasks import ClusterError, dask_client

A = TypeVar("A")
R = TypeVar("R")

__all__ = ["ClusterError", "map_chunks"]


def map_chunks(
    fn: Callable[[A, int], R],
    arg: A,
    indices: Sequence[int],
    workers: int | None = None,
    scheduler: str | None = None,
    step: Callable[[], None] | None = None,
) -> list[R]:
    """``[fn(arg, i) for i in indices]`` computed on Dask; ``step()`` after each result.
    ``workers`` (local cluster only; default: the cores) is ignored with a scheduler."""
    from distributed import as_completed

    with dask_client(scheduler, None if scheduler is not None else workers) as client:
        futures = client.map(fn, [arg] * len(indices), list(indices), pure=False)
        position = {f.key: k for k, f in enumerate(futures)}
        out: list[Any] = [None] * len(futures)
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            out[position[future.key]] = future.result()
            if step is not None:
                step()
        return out
