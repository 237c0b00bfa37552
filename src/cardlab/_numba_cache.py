"""Where numba keeps cardlab's compiled kernels: a directory per version of their sources.

numba's disk cache checks only the source file of each compiled function, so a kernel
that inlines a function from another module, or reads a constant from one, keeps its old
machine code after that module changes, and computes with the old layout. So unless the
user set ``NUMBA_CACHE_DIR``, the cache goes to ``<user cache>/cardlab/numba/<digest>``,
the digest of every module that compiles code and every cardlab module those import.
Changing any of them starts a new directory (the next run compiles, as after an
install); directories of other digests unused for two weeks are removed then (two
checkouts of different sources, used in turn, keep their own).

Reading and digesting every source on each ``import cardlab`` costs a new process about
0.1 s, so the digest is remembered in ``<user cache>/cardlab/numba/sources-digest.txt``
under the signature of the sources (each ``.py`` file's path, size and modification
time: a ``stat``, not a read); any change to a file, a file added or removed, gives
another signature and the digest is computed again. A digest is remembered only when
no source was written in the last seconds (a file written twice within one tick of the
clock keeps its time) and the signature did not change while it was computed; a memo
that cannot be read, or is damaged, is computed again and written afresh (to a
temporary file moved into place, so a reader never sees half of one).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sys
import time
from pathlib import Path

from cardlab._sources import closure_digest

# a module that compiles code: a numba decorator or call (a module that only mentions
# numba, or sets its thread count, compiles nothing and does not start a new cache)
_COMPILES = re.compile(rb"@(?:numba\.)?(?:njit|jit|vectorize|guvectorize|cfunc)\b|\bnjit\(")
_PACKAGE = Path(__file__).resolve().parent
KEEP_UNUSED_SECONDS = 14 * 24 * 3600
MEMO = "sources-digest.txt"  # in the cache root: signature of the sources -> digest
_MEMO_HEADER = "cardlab sources digests 1"
_MEMO_ENTRIES = 8  # signatures remembered (checkouts, or versions, used in turn)
RECENT_SECONDS = 2.0  # a source written this recently: its digest is not remembered
_DIGEST = re.compile(r"[0-9a-f]{16}")
_SIGNATURE = re.compile(r"[0-9a-f]{64}")


def _source_files(package: Path) -> list[Path]:
    """Every ``.py`` file under ``package`` (as ``package.rglob("*.py")``, without
    visiting ``__pycache__``), sorted."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(package):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        found.extend(Path(folder, f) for f in files if f.endswith(".py"))
    return sorted(found)


def sources_digest(package: Path = _PACKAGE) -> str:
    """A digest of the modules under ``package`` that compile code with numba and,
    transitively, the cardlab modules they import (16 hex digits)."""
    sources: dict[Path, bytes] = {}
    for path in _source_files(package):
        with contextlib.suppress(FileNotFoundError):  # removed meanwhile: not a source
            sources[path] = path.read_bytes()
    seeds = [path for path, text in sources.items() if _COMPILES.search(text)]
    return closure_digest(package, seeds, sources)


def sources_signature(package: Path = _PACKAGE) -> tuple[str, float]:
    """(a digest of the path, size and modification time of every ``.py`` file under
    ``package``, the latest of those times in seconds): any edit, file added or file
    removed changes the first, and only ``stat`` is called."""
    top = str(package.resolve())
    text = [top]
    latest = 0
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                try:
                    st = os.stat(os.path.join(folder, name))
                except FileNotFoundError:  # removed meanwhile: not a source
                    continue
                text.append(f"{folder[len(top) :]}/{name}\0{st.st_size}\0{st.st_mtime_ns}")
                latest = max(latest, st.st_mtime_ns)
    return hashlib.sha256("\n".join(text).encode()).hexdigest(), latest / 1e9


def _read_memo(memo: Path) -> dict[str, str]:
    """The remembered digests by signature (a line ``<signature> <digest>`` each, after
    a first line naming the format); nothing if the file is missing or damaged."""
    try:
        lines = memo.read_text(encoding="ascii").splitlines()
    except (OSError, ValueError):
        return {}
    if not lines or lines[0] != _MEMO_HEADER:
        return {}
    entries: dict[str, str] = {}
    for line in lines[1:]:
        signature, _, digest = line.partition(" ")
        if not (_SIGNATURE.fullmatch(signature) and _DIGEST.fullmatch(digest)):
            return {}  # damaged: computed again and written afresh
        entries[signature] = digest
    return entries


def _write_memo(memo: Path, entries: dict[str, str]) -> None:
    """Write the last :data:`_MEMO_ENTRIES` of ``entries`` to ``memo`` whole (a
    temporary file moved into place); a cache that cannot be written is no error."""
    kept = list(entries.items())[-_MEMO_ENTRIES:]
    text = "".join(f"{s} {d}\n" for s, d in kept)
    temp = memo.with_name(f"{memo.name}.{os.getpid()}.tmp")
    try:
        memo.parent.mkdir(parents=True, exist_ok=True)
        temp.write_text(f"{_MEMO_HEADER}\n{text}", encoding="ascii")
        os.replace(temp, memo)
    except OSError:
        with contextlib.suppress(OSError):
            temp.unlink()


def remembered_digest(memo: Path, package: Path = _PACKAGE) -> str:
    """:func:`sources_digest` of ``package``, read from ``memo`` when the sources'
    signature is remembered there, else computed (and remembered, when the sources
    were not written in the last :data:`RECENT_SECONDS` and did not change meanwhile)."""
    signature, latest = sources_signature(package)
    entries = _read_memo(memo)
    found = entries.get(signature)
    if found is not None:
        return found
    digest = sources_digest(package)
    settled = time.time() - latest > RECENT_SECONDS
    if settled and sources_signature(package)[0] == signature:
        entries.pop(signature, None)
        entries[signature] = digest
        _write_memo(memo, entries)
    return digest


def configure() -> None:
    """Point numba's cache at this version's directory, unless the user chose one."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    import platformdirs

    root = Path(platformdirs.user_cache_dir("cardlab")) / "numba"
    here = root / remembered_digest(root / MEMO)
    try:
        if here.is_dir():
            os.utime(here)  # in use: see the pruning below
        else:
            if root.is_dir():  # other sources' kernels, unused for long: gone
                import shutil

                for old in root.iterdir():
                    if (
                        _DIGEST.fullmatch(old.name)
                        and old.is_dir()
                        and time.time() - old.stat().st_mtime > KEEP_UNUSED_SECONDS
                    ):
                        shutil.rmtree(old, ignore_errors=True)
            here.mkdir(parents=True, exist_ok=True)
    except OSError:  # no writable cache directory: numba's default place
        return
    os.environ["NUMBA_CACHE_DIR"] = str(here)
    if "numba" in sys.modules:  # imported before cardlab: read the setting again
        from numba.core import config

        config.reload_config()  # type: ignore[no-untyped-call]
