"""Helpers shared by test files in several folders (``tests`` is on pytest's path)."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def deadline(seconds: int, error: Callable[[str], BaseException] = TimeoutError) -> Iterator[None]:
    """Fail a call that runs longer than ``seconds`` (opening a FIFO would block
    forever) instead of hanging the suite: ``error`` is raised in this thread."""

    def expire(signum: int, frame: object) -> None:
        raise error(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
