"""The poker sites' own hand histories, read as PHH hands and checked by replay.

:func:`iter_entries` reads a file hand by hand (streamed: a file of a million hands
holds one hand at a time), whatever its encoding (UTF-8, UTF-16 with or without BOM,
cp1252) and newlines, recognising the site from its text (or ``site``). Each hand
becomes a :class:`SiteEntry`: a :class:`~cardlab.table.phh.Entry` whose ``history`` is
the hand in PHH (``hand``: the site's hand number; ``players``, ``seats``,
``finishing_stacks`` and ``winnings`` as the site's text gives them, after the rake;
the site, rake and total pot as the user fields ``_site``, ``_rake``, ``_total_pot``),
or whose ``error`` says why it is not read (``unsupported``: a game or a rule cardlab
does not play, a cancelled or partial hand). :func:`mismatches` replays nothing: it
compares a replay of the entry with the site's figures (:mod:`.check`).

One module per site reads its grammar (:mod:`.pokerstars`; :mod:`.ggpoker`,
:mod:`.winamax` and :mod:`.fulltilt` put their words in PokerStars'; :mod:`.pacific`
and :mod:`.partypoker` share a bracketed grammar; :mod:`.ipoker` reads XML and
:mod:`.pokernow` a CSV log); :mod:`._text` holds what they share, :mod:`.check` the
comparison with a replay, and :mod:`.stars_text` writes any hand as PokerStars text.
See docs/site-histories.md.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from cardlab.errors import HistoryError
from cardlab.table import phh
from cardlab.table.history import Replay
from cardlab.table.sites import (
    check,
    fulltilt,
    ggpoker,
    ipoker,
    pacific,
    partypoker,
    pokernow,
    pokerstars,
    winamax,
)
from cardlab.table.sites._text import (
    Figures,
    HandBuilder,
    Unsupported,
    hand_blocks,
    numbered_lines,
    open_text,
)

PHH_SUFFIXES = (".phh", ".phhs")


@dataclass(frozen=True, slots=True)
class SiteEntry(phh.Entry):
    """A hand of a site's file: a PHH entry (``name``: the site's hand number) with the
    site, the site's figures to check a replay against, and ``unsupported`` when the
    hand is read but not played (its ``error`` says why)."""

    site: str = ""
    figures: Figures | None = None
    unsupported: bool = False


class _Reader(Protocol):
    """What a site's reader does: the hand number of a hand's first line, and the
    hand of its lines."""

    site: str
    start: re.Pattern[str]

    def hand_id(self, header: str, line: int) -> str: ...

    def hand(self, block: list[tuple[int, str]]) -> HandBuilder: ...


SITES: dict[str, str] = {
    "pokerstars": "PokerStars",
    "ggpoker": "GGPoker",
    "pokernow": "PokerNow (the log's CSV export)",
    "winamax": "Winamax",
    "pacific": "888poker (Pacific)",
    "partypoker": "partypoker",
    "fulltilt": "Full Tilt Poker",
    "ipoker": "iPoker (XML)",
}
"""The sites read, by the name ``--site`` takes."""


READERS: dict[str, type[_Reader]] = {
    "pokerstars": pokerstars.Reader,
    "ggpoker": ggpoker.Reader,
    "pokernow": pokernow.Reader,
    "winamax": winamax.Reader,
    "pacific": pacific.Reader,
    "partypoker": partypoker.Reader,
    "fulltilt": fulltilt.Reader,
    "ipoker": ipoker.Reader,
}


def detect(start: str) -> str | None:
    """The site whose text ``start`` (a file's first characters) is, or None: the
    first of its first lines that starts a site's hand says it."""
    text = start.lstrip()
    if text.startswith("entry,at,order") or '"-- starting hand #' in text[:2000]:
        return "pokernow"
    if "<session" in text and ("<gametype>" in text or "<game " in text):
        return "ipoker"
    lines = [line.strip() for line in text.split("\n")[:40]]
    for k, line in enumerate(lines):
        if pokerstars.START.match(line):
            return "pokerstars"
        if ggpoker.START.match(line):
            return "ggpoker"
        if winamax.START.match(line):
            return "winamax"
        if fulltilt.START.match(line):
            return "fulltilt"
        if pacific.START.match(line):
            second = lines[k + 1] if k + 1 < len(lines) else ""
            if re.match(r"\*{5} Hand History for Game", second):
                return "partypoker"
            return "pacific"
        if line.startswith("Game #") and "starts" in line:
            return "partypoker"
    return None


def is_site_file(path: Path) -> bool:
    """True for a file of a site's hands (not PHH)."""
    if path.suffix.lower() in PHH_SUFFIXES:
        return False
    try:
        text, start = open_text(path)
    except HistoryError:
        return False
    text.close()
    return detect(start) is not None


def iter_entries(path: str | os.PathLike[str], site: str | None = None) -> Iterator[phh.Entry]:
    """Every hand of a PHH file (:func:`cardlab.table.phh.iter_file`) or of a site's
    file, in file order; a hand that cannot be read is an entry with its error.
    :class:`HistoryError` when the file cannot be read at all."""
    p = Path(path)
    found = site_of(p, site)
    if found is None:
        yield from _phh_or_neither(p)
        return
    reader = READERS[found]()
    for number, block, end in iter_blocks(p, found):
        yield entry(reader, block, number, str(p), end)


def site_of(path: str | os.PathLike[str], site: str | None = None) -> str | None:
    """The site whose hand history ``path`` is (``site`` if given: checked), or None for
    a PHH file (by its suffix, or a file no site's text starts)."""
    p = Path(path)
    if site is None and p.suffix.lower() in PHH_SUFFIXES:
        return None
    if site is not None:
        if site not in SITES:
            raise HistoryError(f"unknown site {site!r} (known: {', '.join(SITES)})")
        return site
    text, start = open_text(p)
    text.close()
    return detect(start)


def iter_blocks(path: str | os.PathLike[str], site: str) -> Iterator[tuple[int, Any, int]]:
    """(number from 1, its lines, about how many bytes of the file are read) of every
    hand of a file of ``site``, streamed; what :func:`entry` reads with the site's
    reader (``READERS[site]()``), in this process or another. :class:`HistoryError` when
    the file holds no hand of the site."""
    p = Path(path)
    text, _start = open_text(p)
    with text:
        lines = numbered_lines(text)
        blocks: Iterator[Any]
        if site == "pokernow":
            blocks = pokernow.entries_of(text)
        elif site == "ipoker":
            blocks = ipoker.blocks(lines)
        else:
            blocks = hand_blocks(lines, READERS[site]().start)
        count = 0
        raw = cast(io.BufferedReader, text.buffer)  # open_text's: a file opened "rb"
        for count, block in enumerate(blocks, 1):
            yield count, block, raw.tell()  # read ahead by a buffer at most
        if count == 0:
            raise HistoryError(f"{p}: no {SITES[site]} hand in the file")


def _phh_or_neither(p: Path) -> Iterator[phh.Entry]:
    """A file no site's text starts: PHH whatever its name, or neither."""
    try:
        yield from phh.iter_file(p)
    except HistoryError as exc:
        if "not valid TOML" not in str(exc):
            raise
        raise HistoryError(
            f"{p}: neither PHH (not valid TOML) nor a site's hand history cardlab reads "
            f"({', '.join(SITES.values())})"
        ) from None


def entry(
    reader: _Reader, block: list[tuple[int, str]], number: int, where: str, end: int = 0
) -> SiteEntry:
    """One hand's lines read by ``reader`` as an entry (its error when it has none);
    ``end``: the bytes of the file read up to it (a progress bar's)."""
    line = block[0][0]
    try:
        hand_id = reader.hand_id(" ".join(text for _, text in block[:2]), line)
    except HistoryError:
        hand_id = f"#{number}"
    label = f"{where}: {reader.site} hand {hand_id} (line {line})"
    try:
        builder = reader.hand(block)
        history, figures = builder.build()
    except Unsupported as exc:
        return SiteEntry(
            number,
            hand_id,
            line,
            error=f"{label}: unsupported: {exc}",
            site=reader.site,
            unsupported=True,
            end=end,
        )
    except HistoryError as exc:
        return SiteEntry(number, hand_id, line, error=f"{label}: {exc}", site=reader.site, end=end)
    except (ValueError, KeyError, IndexError, ArithmeticError) as exc:
        return SiteEntry(
            number,
            hand_id,
            line,
            error=f"{label}: cannot read it ({exc})",
            site=reader.site,
            end=end,
        )
    return SiteEntry(
        number, hand_id, line, history=history, site=reader.site, figures=figures, end=end
    )


def label(entry: phh.Entry) -> str:
    """How a hand is named in messages: the site's hand number, or the PHH hand's."""
    if isinstance(entry, SiteEntry):
        return f"{entry.site} hand {entry.name} (line {entry.line})"
    return f"hand {entry.number} (line {entry.line})"


def mismatches(entry: phh.Entry, replayed: Replay) -> list[str]:
    """How a replayed hand differs from its file's figures: a site's (each naming the
    first line that disagrees) or a PHH file's recorded finishing stacks."""
    if isinstance(entry, SiteEntry) and entry.figures is not None:
        return check.disagreements(replayed, entry.figures)
    return replayed.mismatches()
