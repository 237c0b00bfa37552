"""Environment variables other libraries read at import, checked at the CLI's start.

numba reads ``NUMBA_NUM_THREADS`` when it is first imported, deep inside a command, and
answers a value it cannot use with a traceback (``0``) or a warning and its default
(``abc``): checked here, before anything is imported, it is one line.
"""

from __future__ import annotations

import os

from cardlab.errors import CardlabError

THREADS_PER_CORE = 32
"""``NUMBA_NUM_THREADS`` above this many per core (or 64 in all, the larger) is refused:
numba starts every thread of its pool at once."""


def most_threads() -> int:
    return max(64, THREADS_PER_CORE * (os.cpu_count() or 1))


def check_environment() -> None:
    """Refuse an environment variable a library would fail on later."""
    text = os.environ.get("NUMBA_NUM_THREADS")
    if text is None:
        return
    value = text.strip()
    most = most_threads()
    if not (value.isascii() and value.isdigit()) or not 1 <= int(value[:9]) <= most:
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise CardlabError(
            f"NUMBA_NUM_THREADS must be a whole number of threads from 1 to {most} "
            f"(or unset: one per core), got {shown!r}"
        )
