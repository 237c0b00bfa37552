"""The kernels' look-ups on disk: built once per deck and rule set, then mapped.

A new process that answers one question would otherwise rebuild the look-ups it reads
(the hand order's exact counts, the hash path's look-ups, Omaha's best pair per board)
and load the compiled code that builds them: most of a second before the first answer.
:func:`cached` builds a set of look-ups the first time and writes it to one file; later
processes map that file into memory (copy on write: the arrays are writable, as the
compiled kernels were compiled for, and pages are shared until written).

A file is keyed by

- the digest of the code that builds it: the builder's module and, transitively, the
  cardlab modules it imports, and this module (:mod:`cardlab._sources`), so a change in
  any of them starts a new directory and nothing stale is served;
- the rule set: the deck's full definition and every rule option;
- the builder's name and its other parameters (a hand size).

A file is trusted only whole: its length and a CRC-32 of its header and arrays are
checked on every load, and a file that fails (cut short, overwritten, of another
layout) is built again and replaced. Files are written to a temporary name and moved
into place in one step, so a reader never sees half of one.

Where: ``$CARDLAB_CACHE_DIR/lookups`` if set, else ``<user cache>/cardlab/lookups``;
``CARDLAB_LOOKUP_CACHE=off`` builds every time and writes nothing (for timing cold work).
``CARDLAB_TABLE_CACHE``, its name before the look-ups were called look-ups, is still
read as an alias (``CARDLAB_LOOKUP_CACHE`` wins when both are set).
Directories of other code digests unused for two weeks are removed when a new one is
made, as the numba cache does.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import mmap
import os
import shutil
import struct
import time
import zlib
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from cardlab._sources import PACKAGE, closure_digest, module_file

if TYPE_CHECKING:
    from cardlab.poker.rules import RuleSet

T = TypeVar("T")

MAGIC = b"cardlab lookup 1"  # 16 bytes: the file layout's version
_HEAD = struct.Struct("<16sQI")  # magic, header length, CRC-32 of header + arrays
ALIGN = 64  # every array starts on a cache line (numba reads them as aligned)
KEEP_UNUSED_SECONDS = 14 * 24 * 3600
ENV_DIR = "CARDLAB_CACHE_DIR"
ENV_SWITCH = "CARDLAB_LOOKUP_CACHE"
ENV_SWITCH_ALIAS = "CARDLAB_TABLE_CACHE"  # the old name, still read


class Unstorable(Exception):
    """A value this cache does not know how to write (it is then kept in memory only)."""


def cached(
    builder: Callable[..., Any],
    rules: RuleSet,
    *params: int | str,
    build: Callable[[], T] | None = None,
) -> T:
    """``build()`` (default ``builder(rules)``) from the disk cache when a whole file of
    the same code, rules and ``params`` is there, else built and written.

    ``builder`` names the code that builds the value (its module's closure is the code
    digest) and the file; the value is ``None``, a numpy array, or a dataclass whose
    fields are arrays, plain scalars and ``rules`` itself."""
    make: Callable[[], Any] = build if build is not None else lambda: builder(rules)
    if not enabled():
        return make()  # type: ignore[no-any-return]
    path = cache_path(builder, rules, *params)
    found = load(path, rules)
    if found is not _MISSING:
        return found  # type: ignore[no-any-return]
    value = make()
    with contextlib.suppress(Unstorable):  # kept in memory only
        save(path, value, rules)
    return value  # type: ignore[no-any-return]


def enabled() -> bool:
    """Whether the cache is used: not when ``CARDLAB_LOOKUP_CACHE`` (or, unset, its old
    name ``CARDLAB_TABLE_CACHE``) is ``off``, ``0``, ``no`` or ``false``."""
    value = os.environ.get(ENV_SWITCH)
    if value is None:
        value = os.environ.get(ENV_SWITCH_ALIAS, "")
    return value.lower() not in ("off", "0", "no", "false")


def cache_root() -> Path:
    """The directory holding one subdirectory per code digest."""
    chosen = os.environ.get(ENV_DIR)
    if chosen:
        return Path(chosen) / "lookups"
    import platformdirs

    return Path(platformdirs.user_cache_dir("cardlab")) / "lookups"


def cache_path(builder: Callable[..., Any], rules: RuleSet, *params: int | str) -> Path:
    """The file of ``builder``'s value for ``rules`` and ``params``."""
    name = f"{builder.__module__.rsplit('.', 1)[-1]}.{builder.__qualname__}"
    extra = "".join(f"-{p}" for p in params)
    return cache_root() / code_digest(builder.__module__) / f"{name}{extra}-{rules_digest(rules)}"


@cache
def code_digest(module: str) -> str:
    """The digest of module ``module``, the cardlab modules it imports, and this one."""
    return digest_of(module, _SOURCES)


def digest_of(module: str, sources: dict[Path, bytes]) -> str:
    """:func:`code_digest` over ``sources`` (file -> text; the tests pass edited ones)."""
    found = module_file(PACKAGE, module.split(".")[1:]) if module.startswith("cardlab.") else None
    if found is None:
        raise ValueError(f"not a cardlab module: {module!r}")
    return closure_digest(PACKAGE, [Path(__file__).resolve(), found], sources)


def rules_digest(rules: RuleSet) -> str:
    """A digest of the deck's definition and every rule option (the same for equal rule
    sets, different for any change that could change a look-up)."""
    from cardlab.poker.rules import OPTIONS

    options = {name: _text(getattr(rules, name)) for name in OPTIONS}
    text = json.dumps({"deck": rules.deck.definition(), "options": options}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def _text(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_text(v) for v in value]
    if isinstance(value, bool | int | str) or value is None:
        return value
    key = getattr(value, "key", None)
    if isinstance(key, str):
        return key
    return str(getattr(value, "value", value))


class _Sources(dict[Path, bytes]):
    """The package's sources, each read when first asked for."""

    def __missing__(self, path: Path) -> bytes:
        text = self[path] = path.read_bytes()
        return text


_SOURCES = _Sources()  # shared by the digests of every builder (most read the same files)


# --- one file: a header (what the value is), then its arrays ----------------------

_MISSING = object()


def _encode(value: Any, rules: object) -> tuple[Any, list[np.ndarray[Any, Any]]]:
    """(a JSON description, the arrays it refers to by index); a field holding
    ``rules`` is written as a mark, and given the caller's rule set back on loading."""
    arrays: list[np.ndarray[Any, Any]] = []

    def one(item: Any) -> Any:
        if item is None or isinstance(item, bool | int | float | str):
            return {"scalar": item}
        if item is rules:
            return {"rules": True}
        if isinstance(item, np.ndarray):
            if not item.flags.c_contiguous or item.dtype.hasobject or not item.dtype.isnative:
                raise Unstorable(f"array of {item.dtype}, not C-contiguous or not native")
            arrays.append(item)
            return {"array": len(arrays) - 1}
        raise Unstorable(type(item).__name__)

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        fields = {f.name: one(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return {"class": f"{cls.__module__}:{cls.__qualname__}", "fields": fields}, arrays
    return {"value": one(value)}, arrays


def save(path: Path, value: Any, rules: RuleSet | None = None) -> None:
    """Write ``value`` to ``path`` (through a temporary file, moved into place)."""
    described, arrays = _encode(value, rules if rules is not None else _NO_RULES)
    layout = []
    offset = 0
    for array in arrays:
        layout.append([array.dtype.str, list(array.shape), offset, array.nbytes])
        offset += -(-array.nbytes // ALIGN) * ALIGN
    header = json.dumps({"value": described, "arrays": layout, "data": offset}).encode()
    start = -(-(_HEAD.size + len(header)) // ALIGN) * ALIGN
    body = bytearray(start + offset)
    body[_HEAD.size : _HEAD.size + len(header)] = header
    for array, (_, _, at, nbytes) in zip(arrays, layout, strict=True):
        body[start + at : start + at + nbytes] = array.tobytes()
    crc = zlib.crc32(memoryview(body)[_HEAD.size :])
    body[: _HEAD.size] = _HEAD.pack(MAGIC, len(header), crc)
    try:
        fresh = not path.parent.is_dir()
        path.parent.mkdir(parents=True, exist_ok=True)
        if fresh:
            _prune(path.parent)
        partial = path.with_name(f"{path.name}.{os.getpid()}.{time.monotonic_ns()}.tmp")
        partial.write_bytes(body)
        os.replace(partial, path)
    except OSError:  # no writable cache: built again next time
        return


_NO_RULES = object()


def load(path: Path, rules: RuleSet) -> Any:
    """The value in ``path`` (arrays mapped copy-on-write), or ``_MISSING`` when the
    file is absent or not whole and right."""
    try:
        with path.open("rb") as file:
            size = os.fstat(file.fileno()).st_size
            if size < _HEAD.size:
                return _MISSING
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_COPY)
    except (OSError, ValueError):
        return _MISSING
    try:
        magic, header_length, crc = _HEAD.unpack_from(mapped)
        if magic != MAGIC or _HEAD.size + header_length > size:
            return _MISSING
        header = json.loads(bytes(mapped[_HEAD.size : _HEAD.size + header_length]))
        start = -(-(_HEAD.size + header_length) // ALIGN) * ALIGN
        if start + int(header["data"]) != size:
            return _MISSING
        if zlib.crc32(memoryview(mapped)[_HEAD.size :]) != crc:
            return _MISSING
        arrays = [
            np.frombuffer(mapped, np.dtype(dtype), int(np.prod(shape)), start + at).reshape(shape)
            for dtype, shape, at, _ in header["arrays"]
        ]
        return _decode(header["value"], arrays, rules)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError, struct.error):
        return _MISSING


def _decode(described: Any, arrays: list[np.ndarray[Any, Any]], rules: RuleSet) -> Any:
    def one(item: dict[str, Any]) -> Any:
        if "scalar" in item:
            return item["scalar"]
        if "rules" in item:
            return rules
        return arrays[item["array"]]

    if "class" not in described:
        return one(described["value"])
    import importlib

    module, _, qualname = described["class"].partition(":")
    cls: Any = importlib.import_module(module)
    for part in qualname.split("."):
        cls = getattr(cls, part)
    names = [f.name for f in dataclasses.fields(cls)]
    if names != list(described["fields"]):
        raise ValueError("the class's fields changed")
    return cls(**{name: one(described["fields"][name]) for name in names})


def _prune(here: Path) -> None:
    """Remove sibling digest directories unused for two weeks."""
    now = time.time()
    try:
        for old in here.parent.iterdir():
            if old != here and now - old.stat().st_mtime > KEEP_UNUSED_SECONDS:
                shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass
