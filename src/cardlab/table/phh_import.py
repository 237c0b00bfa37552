"""Bulk import of PHH files into the hand store: streamed, checked, idempotent.

:func:`import_files` reads ``.phh`` and ``.phhs`` files hand by hand
(:func:`cardlab.table.phh.iter_file`, so a file of any size is never held whole; a
hand is at most :data:`cardlab.table.phh.MAX_FILE_BYTES`, as for every PHH reader),
replays each hand on the engine and stores it, ``batch`` hands per transaction. A hand
that cannot be read or replayed is skipped and reported with its file and line; it
does not stop the others. A hand already in the store, or earlier in the same import,
is recognised and skipped: importing a file twice stores it once, and an interrupted
import run again continues where it stopped. A hand is recognised by its content, not
its formatting: the key is the digest of its PHH text as cardlab writes it
(:func:`cardlab.table.phh.dumps`, the text the store keeps), so the same hand from a file
written otherwise (another table name, key order, quoting, comments) is recognised
too, and a hand that differs in any field is another hand (docs/phh.md).
A hand whose recorded ``finishing_stacks`` or ``winnings`` differ from the replay's is
stored (the replay is the engine's reading of the rules) and reported.

The poker sites' own hand histories (:mod:`cardlab.table.sites`: PokerStars, GGPoker,
PokerNow, ...) are imported the same way, in the same folders: each hand read as PHH,
replayed, checked against the site's figures (a hand that disagrees is stored and
reported with the site's hand number and the first line that disagrees) and
recognised by its site and hand number, so the same hand from two exports (two
players' files of one table) is stored once.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from cardlab._paths import check_name
from cardlab.errors import CardlabError, HistoryError
from cardlab.store import HandRecord, Store
from cardlab.table import phh, sites
from cardlab.table.history import imported, replay

SUFFIXES = (".phh", ".phhs")


@dataclass(frozen=True, slots=True)
class Problem:
    """A hand skipped (``error``) or stored with a recorded result that differs from the
    replay (``mismatches``): where it is (file, hand number, line) and what."""

    file: str
    hand: int
    line: int
    error: str | None = None
    mismatches: tuple[str, ...] = ()

    @property
    def where(self) -> str:
        return f"{self.file}: hand {self.hand} (line {self.line})"


@dataclass
class ImportReport:
    """What an import did: hands read, stored, already in the store, and the problems."""

    files: int = 0
    hands: int = 0
    stored: int = 0
    already: int = 0
    bad: list[Problem] = field(default_factory=list)
    mismatched: list[Problem] = field(default_factory=list)
    first_id: int | None = None  # the ids the hands stored were given, first and last
    last_id: int | None = None


def phh_files(path: str | os.PathLike[str]) -> list[Path]:
    """The hand-history files of ``path``: the file itself, or every ``.phh``/``.phhs``
    file and every site's hand history (recognised by its text) under a folder
    (recursively, in name order)."""
    p = Path(path)
    check_name(p, "the PHH path", HistoryError)
    if p.is_dir():
        return sorted(
            f
            for f in p.rglob("*")
            if f.is_file() and (f.suffix.lower() in SUFFIXES or sites.is_site_file(f))
        )
    if not p.exists():
        raise HistoryError(f"cannot read {str(p)!r}: No such file or directory")
    return [p]


def digest(text: str) -> bytes:
    """The key by which a hand's PHH text is recognised (16 bytes of BLAKE2b)."""
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).digest()


_SITE_RE = re.compile(r"^_site = '([^']*)'$", re.M)
_HAND_RE = re.compile(r"^hand = '([^']*)'$", re.M)


def site_key(text: str) -> bytes | None:
    """The key of a site's hand (its site and hand number) from its PHH text, or None
    for a hand of no site."""
    site = _SITE_RE.search(text)
    hand = _HAND_RE.search(text) if site is not None else None
    if site is None or hand is None:
        return None
    return digest(f"{site.group(1)}\n{hand.group(1)}")


def stored_digests(store: Store) -> set[bytes]:
    """The digests of every hand in the store (and a site's hand's site key)."""
    out: set[bytes] = set()
    for text in store.phh_texts():
        out.add(digest(text))
        key = site_key(text)
        if key is not None:
            out.add(key)
    return out


def import_files(
    store: Store,
    files: Iterable[Path],
    *,
    batch: int = 2000,
    source: str = "import",
    on_hand: Callable[[Path, phh.Entry], None] | None = None,
    skip_bad_files: bool = True,
    site: str | None = None,
    jobs: int = 1,
) -> ImportReport:
    """Import every hand of ``files`` into ``store`` (see the module documentation);
    ``on_hand(file, entry)`` is called after each hand is read (a progress bar). A file
    that cannot be read at all is listed and skipped, or (``skip_bad_files`` False)
    raises :class:`HistoryError`, the hands stored before it kept.

    ``jobs`` above 1: the sites' files of more than :data:`PARALLEL_BYTES` are read and
    replayed by that many worker processes, :data:`CHUNK` hands at a time, while this
    process stores them in file order (the same report and the same store as with one
    job; a hand already stored is replayed all the same, and then skipped)."""
    report = ImportReport()
    known = stored_digests(store)
    pending: list[HandRecord] = []
    pool: ProcessPoolExecutor | None = None

    def flush() -> None:
        if pending:
            ids = store.add_hands(pending)
            report.first_id = ids[0] if report.first_id is None else report.first_id
            report.last_id = ids[-1]
            report.stored += len(pending)
            pending.clear()

    try:
        for path in files:
            report.files += 1
            if not skip_bad_files:
                flush()  # what was read before a file that may fail is kept
            prepared: Iterator[tuple[phh.Entry, Prepared | None]]
            found = _site_of(path, site, report, skip_bad_files)
            if found is False:
                continue
            if jobs > 1 and isinstance(found, str) and path.stat().st_size > PARALLEL_BYTES:
                if pool is None:
                    pool = ProcessPoolExecutor(jobs, mp_context=get_context("spawn"))
                prepared = _in_workers(pool, jobs, path, found, source)
            else:
                prepared = ((entry, None) for entry in sites.iter_entries(path, site))
            if skip_bad_files:
                prepared = _file_problem(prepared, path, report)
            for entry, ready in prepared:
                report.hands += 1
                record = _record(path, entry, known, report, source, ready)
                if record is not None:
                    pending.append(record)
                    if len(pending) >= batch:
                        flush()
                if on_hand is not None:
                    on_hand(path, entry)
        flush()
    finally:
        if pool is not None:
            pool.shutdown(cancel_futures=True)
    return report


PARALLEL_BYTES = 1 << 20  # a site's file this big (about 1,000 hands) goes to workers
CHUNK = 250  # hands per task sent to a worker


@dataclass(frozen=True, slots=True)
class Prepared:
    """A hand read, written and replayed (in a worker): its PHH ``text``, its keys, and
    the ``record`` to store with the replay's ``mismatches``, or the ``error`` that kept
    it from replaying."""

    text: str
    key: bytes
    other: bytes | None
    record: HandRecord | None = None
    mismatches: tuple[str, ...] = ()
    error: str | None = None


def _site_of(
    path: Path, site: str | None, report: ImportReport, skip_bad_files: bool
) -> str | bool | None:
    """The site of ``path`` (None for PHH), or False when the file cannot be read and
    is skipped (listed in ``report``)."""
    try:
        return sites.site_of(path, site)
    except HistoryError as exc:
        if not skip_bad_files:
            raise
        report.bad.append(Problem(str(path), 0, 0, error=str(exc)))
        return False


def _file_problem(
    prepared: Iterator[tuple[phh.Entry, Prepared | None]], path: Path, report: ImportReport
) -> Iterator[tuple[phh.Entry, Prepared | None]]:
    try:
        yield from prepared
    except HistoryError as exc:  # the file as a whole: one problem, then the next file
        report.bad.append(Problem(str(path), 0, 0, error=str(exc)))


def _in_workers(
    pool: ProcessPoolExecutor, jobs: int, path: Path, site: str, source: str
) -> Iterator[tuple[phh.Entry, Prepared | None]]:
    """The hands of a site's file read, written and replayed by ``pool``, in file
    order, at most ``2 * jobs`` chunks in flight (the memory of a few thousand hands)."""
    chunks = _chunks(sites.iter_blocks(path, site))
    flight: deque[Future[list[tuple[phh.Entry, Prepared | None]]]] = deque()
    for chunk in chunks:
        flight.append(pool.submit(_prepare_chunk, site, str(path), source, chunk))
        if len(flight) >= 2 * jobs:
            yield from flight.popleft().result()
    while flight:
        yield from flight.popleft().result()


def _chunks(blocks: Iterator[tuple[int, Any, int]]) -> Iterator[list[tuple[int, Any, int]]]:
    chunk: list[tuple[int, Any, int]] = []
    for item in blocks:
        chunk.append(item)
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _prepare_chunk(
    site: str, where: str, source: str, chunk: list[tuple[int, Any, int]]
) -> list[tuple[phh.Entry, Prepared | None]]:
    """In a worker: each hand of ``chunk`` read by the site's reader and prepared (the
    entry is sent back without its history, which the store does not need)."""
    reader = sites.READERS[site]()
    out: list[tuple[phh.Entry, Prepared | None]] = []
    for number, block, end in chunk:
        entry = sites.entry(reader, block, number, where, end)
        if entry.history is None:
            out.append((entry, None))
        else:
            ready = _prepare(entry, entry.history, source, _text_of(entry.history, entry))
            out.append((dataclasses.replace(entry, history=None), ready))
    return out


def _text_of(history: phh.HandHistory, entry: phh.Entry) -> tuple[str, bytes, bytes | None]:
    text = phh.dumps(history)
    other = site_key(text) if isinstance(entry, sites.SiteEntry) else None
    return text, digest(text), other


def _prepare(
    entry: phh.Entry,
    history: phh.HandHistory,
    source: str,
    keys: tuple[str, bytes, bytes | None],
) -> Prepared:
    text, key, other = keys
    try:
        replayed = replay(history, label=sites.label(entry))
        record = imported(replayed, source=source, text=text)
    except CardlabError as exc:
        return Prepared(text, key, other, error=str(exc))
    return Prepared(text, key, other, record, tuple(sites.mismatches(entry, replayed)))


def _record(
    path: Path,
    entry: phh.Entry,
    known: set[bytes],
    report: ImportReport,
    source: str,
    ready: Prepared | None = None,
) -> HandRecord | None:
    if ready is None:  # read in this process (or a hand the reader could not read)
        history = entry.history
        if history is None:
            report.bad.append(Problem(str(path), entry.number, entry.line, error=entry.error))
            return None
        keys = _text_of(history, entry)
        if keys[1] in known or keys[2] in known:  # not replayed again
            report.already += 1
            return None
        ready = _prepare(entry, history, source, keys)
    if ready.key in known or ready.other in known:
        report.already += 1
        return None
    if ready.record is None:
        error = f"{path}: {ready.error}"
        report.bad.append(Problem(str(path), entry.number, entry.line, error=error))
        return None
    known.add(ready.key)
    if ready.other is not None:
        known.add(ready.other)
    if ready.mismatches:
        report.mismatched.append(
            Problem(str(path), entry.number, entry.line, mismatches=ready.mismatches)
        )
    return ready.record
