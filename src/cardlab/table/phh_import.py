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

import hashlib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

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
) -> ImportReport:
    """Import every hand of ``files`` into ``store`` (see the module documentation);
    ``on_hand(file, entry)`` is called after each hand is read (a progress bar). A file
    that cannot be read at all is listed and skipped, or (``skip_bad_files`` False)
    raises :class:`HistoryError`, the hands stored before it kept."""
    report = ImportReport()
    known = stored_digests(store)
    pending: list[HandRecord] = []

    def flush() -> None:
        if pending:
            ids = store.add_hands(pending)
            report.first_id = ids[0] if report.first_id is None else report.first_id
            report.last_id = ids[-1]
            report.stored += len(pending)
            pending.clear()

    for path in files:
        report.files += 1
        if not skip_bad_files:
            flush()  # what was read before a file that may fail is kept
        entries = _entries(path, report, site) if skip_bad_files else sites.iter_entries(path, site)
        for entry in entries:
            report.hands += 1
            record = _record(path, entry, known, report, source)
            if record is not None:
                pending.append(record)
                if len(pending) >= batch:
                    flush()
            if on_hand is not None:
                on_hand(path, entry)
    flush()
    return report


def _entries(path: Path, report: ImportReport, site: str | None) -> Iterator[phh.Entry]:
    try:
        yield from sites.iter_entries(path, site)
    except HistoryError as exc:  # the file as a whole: one problem, then the next file
        report.bad.append(Problem(str(path), 0, 0, error=str(exc)))


def _record(
    path: Path, entry: phh.Entry, known: set[bytes], report: ImportReport, source: str
) -> HandRecord | None:
    history = entry.history
    if history is None:
        report.bad.append(Problem(str(path), entry.number, entry.line, error=entry.error))
        return None
    text = phh.dumps(history)
    key = digest(text)
    other = site_key(text) if isinstance(entry, sites.SiteEntry) else None
    if key in known or other in known:
        report.already += 1
        return None
    label = sites.label(entry)
    try:
        replayed = replay(history, label=label)
        record = imported(replayed, source=source, text=text)
    except CardlabError as exc:
        report.bad.append(Problem(str(path), entry.number, entry.line, error=f"{path}: {exc}"))
        return None
    known.add(key)
    if other is not None:
        known.add(other)
    mismatches = sites.mismatches(entry, replayed)
    if mismatches:
        report.mismatched.append(
            Problem(str(path), entry.number, entry.line, mismatches=tuple(mismatches))
        )
    return record
