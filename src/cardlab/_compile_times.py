"""How long compiling cardlab's kernels took on this machine, kept for the next first run.

The compiled code lives in one directory per version of the kernels' sources (see
``cardlab._numba_cache``); the measured times are kept beside those directories, so the
first run of a new version can say how long the last compile took here. With a cache
directory of the user's choosing (``NUMBA_CACHE_DIR``), the file goes in it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

_TIMES = "compile-seconds.json"
_VERSION = re.compile(r"[0-9a-f]{16}")


def _times_file() -> Path | None:
    where = os.environ.get("NUMBA_CACHE_DIR")
    if not where:
        return None
    path = Path(where)
    return (path.parent if _VERSION.fullmatch(path.name) else path) / _TIMES


def compile_seconds(what: str) -> float | None:
    """How long compiling ``what`` took on this machine the last time (None: never
    measured here, or the record is unreadable)."""
    path = _times_file()
    try:
        value = json.loads(path.read_text())[what] if path is not None else None
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return float(value) if isinstance(value, int | float) and value > 0 else None


def record_compile_seconds(what: str, seconds: float) -> None:
    """Keep how long compiling ``what`` took (best effort: a read-only cache is fine)."""
    path = _times_file()
    if path is None:
        return
    try:
        data = json.loads(path.read_text()) if path.is_file() else {}
    except (OSError, ValueError):
        data = {}  # a damaged record is written afresh
    if not isinstance(data, dict):
        data = {}
    data[what] = round(seconds, 1)
    try:
        path.write_text(json.dumps(data, indent=1, sort_keys=True))
    except OSError:
        return
