"""Where numba keeps cardlab's compiled kernels: a directory per version of their sources.

numba's disk cache checks only the source file of each compiled function, so a kernel
that inlines a function from another module, or reads a constant from one, keeps its old
machine code after that module changes, and computes with the old layout. So unless the
user set ``NUMBA_CACHE_DIR``, the cache goes to ``<user cache>/cardlab/numba/<digest>``,
the digest of every module that compiles code and every cardlab module those import.
Changing any of them starts a new directory (the next run compiles, as after an
install); directories of other digests unused for two weeks are removed then (two
checkouts of different sources, used in turn, keep their own).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
from pathlib import Path

from cardlab._sources import closure_digest

# a module that compiles code: a numba decorator or call (a module that only mentions
# numba, or sets its thread count, compiles nothing and does not start a new cache)
_COMPILES = re.compile(rb"@(?:numba\.)?(?:njit|jit|vectorize|guvectorize|cfunc)\b|\bnjit\(")
_PACKAGE = Path(__file__).resolve().parent
KEEP_UNUSED_SECONDS = 14 * 24 * 3600


def sources_digest(package: Path = _PACKAGE) -> str:
    """A digest of the modules under ``package`` that compile code with numba and,
    transitively, the cardlab modules they import (16 hex digits)."""
    sources = {path: path.read_bytes() for path in package.rglob("*.py")}
    seeds = [path for path, text in sources.items() if _COMPILES.search(text)]
    return closure_digest(package, seeds, sources)


def configure() -> None:
    """Point numba's cache at this version's directory, unless the user chose one."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    import platformdirs

    root = Path(platformdirs.user_cache_dir("cardlab")) / "numba"
    here = root / sources_digest()
    try:
        if here.is_dir():
            os.utime(here)  # in use: see the pruning below
        else:
            if root.is_dir():  # other sources' kernels, unused for long: gone
                for old in root.iterdir():
                    if time.time() - old.stat().st_mtime > KEEP_UNUSED_SECONDS:
                        shutil.rmtree(old, ignore_errors=True)
            here.mkdir(parents=True, exist_ok=True)
    except OSError:  # no writable cache directory: numba's default place
        return
    os.environ["NUMBA_CACHE_DIR"] = str(here)
    if "numba" in sys.modules:  # imported before cardlab: read the setting again
        from numba.core import config

        config.reload_config()  # type: ignore[no-untyped-call]
