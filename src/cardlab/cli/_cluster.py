"""Options and helpers of the commands that run long analyses as tasks (chart, report):
where the tasks run, the cache of finished ones, a progress bar of tasks done."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import click

from cardlab.cli._common import directory_path, progress_bar

F = TypeVar("F", bound=Callable[..., Any])


# the address forms a Dask client connects to: [protocol://]host:port
_PROTOCOLS = ("tcp", "tls", "ws", "wss", "ucx", "inproc")
_ADDRESS = re.compile(
    r"(?:(?P<protocol>[a-z]+)://)?(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]{1,253}):"
    r"(?P<port>[0-9]{1,5})/?"
)


def scheduler_address(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--scheduler``: ``[tcp|tls|ws|wss|ucx://]host:port``, port 1..65535; anything else
    is refused before a connection is tried (Dask would wait out its timeout)."""
    if value is None:
        return None
    match = _ADDRESS.fullmatch(value.strip())
    protocol = match and match.group("protocol")
    if (
        match is None
        or (protocol is not None and protocol not in _PROTOCOLS)
        or not 1 <= int(match.group("port")) <= 65535
    ):
        shown = value if len(value) <= 60 else value[:60] + "..."
        raise click.BadParameter(
            f"a Dask scheduler address is [{'|'.join(_PROTOCOLS)}://]host:port, such as "
            f"tcp://10.0.0.5:8786, got {shown!r}",
            ctx,
            param,
        )
    return value.strip()


def worker_count(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """``--workers``: at most :func:`cardlab.tasks.max_workers` (0: none)."""
    if value:
        from cardlab.tasks import check_workers

        check_workers(value)
    return value


_WHERE = [
    click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        callback=scheduler_address,
        help="A running Dask scheduler (e.g. tcp://host:8786); default: a local "
        "cluster of this machine's cores, started and stopped here.",
    ),
    click.option(
        "--workers",
        type=click.IntRange(min=0),
        default=None,
        callback=worker_count,
        help="Worker processes of the local cluster (default: the cores); 0 runs "
        "the tasks in this process without Dask.",
    ),
]


def where_options(func: F) -> F:
    """``--scheduler``, ``--workers``: where the tasks run."""
    for option in reversed(_WHERE):
        func = option(func)
    return func


def cluster_options(func: F) -> F:
    """``--scheduler``, ``--workers``, ``--cache``, ``--no-cache``."""
    options = [
        *_WHERE,
        click.option(
            "--cache",
            "cache_dir",
            type=click.Path(file_okay=False, path_type=Path),
            default=None,
            help="Directory of finished tasks (default: the user cache directory); "
            "an interrupted run resumes from it.",
        ),
        click.option("--no-cache", is_flag=True, help="Neither read nor write finished tasks."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


def cache_from(cache_dir: Path | None, no_cache: bool) -> Path | None:
    from cardlab.tasks import default_cache_dir

    if no_cache:
        return None
    return directory_path(cache_dir if cache_dir is not None else default_cache_dir())


@contextmanager
def client_from(scheduler: str | None, workers: int | None) -> Iterator[Any]:
    """The Dask client the options ask for (None: run in this process)."""
    from cardlab.tasks import ClusterError, dask_client

    if workers == 0:
        if scheduler is not None:
            raise ClusterError("--workers 0 runs in this process: it cannot go with --scheduler")
        yield None
        return
    with dask_client(scheduler, workers) as client:
        yield client


@contextmanager
def task_bar(show: bool, label: str) -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar of tasks done and time left on stderr, as ``progress(done, total)``."""
    if not show:
        yield None
        return
    with progress_bar(label, None, tasks=True) as progress:  # None: at a terminal only
        yield progress


def check_report_work(
    rules: Sequence[Any],
    *,
    exact_omaha: bool,
    omaha_samples: int,
    tie_samples: int,
    pushfold: bool,
    scheduler: str | None,
    workers: int | None,
) -> None:
    """Refuse a report (every deck and compared variant in ``rules``) estimated to take
    longer than :data:`cardlab.budget.LIMIT_SECONDS` or to hold more than
    :data:`cardlab.budget.LIMIT_BYTES` on this machine
    (:func:`cardlab.analysis.report_cost.check_report_cost`); a run on a Dask cluster
    (``scheduler``) is its own judge."""
    from cardlab.analysis.report_cost import check_report_cost

    if scheduler is not None:
        return
    check_report_cost(
        rules,
        exact_omaha=exact_omaha,
        omaha_samples=omaha_samples,
        tie_samples=tie_samples,
        pushfold=pushfold,
        processes=1 if workers == 0 else workers,
    )
