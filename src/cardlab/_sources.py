"""Digests of cardlab's own source code, so that every disk cache is keyed by the code
that built what it holds.

The package version does not change between commits: a cache keyed by it would serve a
result computed by older code. A digest of the module that computes a result, and of
every cardlab module it imports (at the top or inside a function), changes whenever any
of that code does; unrelated modules do not disturb it.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Iterable
from functools import cache
from pathlib import Path

_IMPORT = re.compile(rb"^\s*(?:from|import)\s+(cardlab(?:\.\w+)*)", re.MULTILINE)
PACKAGE = Path(__file__).resolve().parent


def module_file(package: Path, parts: list[str]) -> Path | None:
    """The file of module ``cardlab.<parts>`` (or of the longest package prefix of it:
    ``from cardlab.poker import x`` names a package, ``x`` may be anything)."""
    for k in range(len(parts), -1, -1):
        base = package.joinpath(*parts[:k])
        if k and base.with_suffix(".py").is_file():
            return base.with_suffix(".py")
        if (base / "__init__.py").is_file():
            return base / "__init__.py"
    return None


def closure_digest(package: Path, seeds: Iterable[Path], sources: dict[Path, bytes]) -> str:
    """sha256 (16 hex digits) of ``seeds`` and, transitively, the modules of ``package``
    they import, each with its path relative to the package."""
    todo = list(seeds)
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for name in _IMPORT.findall(sources[path]):
            module = module_file(package, name.decode().split(".")[1:])
            if module is not None:
                todo.append(module)
    digest = hashlib.sha256()
    for path in sorted(seen):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + sources[path])
    return digest.hexdigest()[:16]


class _Sources(dict[Path, bytes]):
    """Source texts by file, each read when first asked for."""

    def __missing__(self, path: Path) -> bytes:
        text = self[path] = path.read_bytes()
        return text


@cache
def code_digest(module: str) -> str:
    """The digest of module ``module`` (dotted name) and the cardlab modules it imports.

    A module outside cardlab (a user's own task) is keyed by its file, if it has one,
    and by the whole of cardlab, since its imports cannot be told apart from its use."""
    path = module_file(PACKAGE, module.split(".")[1:]) if module.startswith("cardlab.") else None
    if path is not None:  # only the modules of its closure are read
        return closure_digest(PACKAGE, [path], _Sources())
    sources = {p: p.read_bytes() for p in PACKAGE.rglob("*.py")}
    digest = hashlib.sha256(module.encode())
    own = getattr(sys.modules.get(module), "__file__", None)
    if own is not None and Path(own).is_file():
        digest.update(Path(own).read_bytes())
    for p in sorted(sources):
        digest.update(p.relative_to(PACKAGE).as_posix().encode() + b"\0" + sources[p])
    return digest.hexdigest()[:16]
