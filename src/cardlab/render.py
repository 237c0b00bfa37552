"""Output shared by the commands: text tables, JSON and CSV.

The library returns values; this module turns them into text. Fractions are written
as ``"p/q"`` strings in JSON and CSV so that no precision is lost.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import sys
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, TextIO

from rich.console import Console, ConsoleOptions
from rich.markup import escape
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

FORMATS = ("text", "json", "csv")


def fraction_str(value: Fraction | int) -> str:
    """``Fraction(13, 49)`` -> ``"13/49"``; integers and whole fractions -> ``"n"``."""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


def percent(value: Fraction | float, digits: int = 4) -> str:
    """A probability as a percentage for display, e.g. ``"23.4127%"``."""
    return f"{float(value) * 100:.{digits}f}%"


def rarity(probability: Fraction) -> float:
    """-log10 P, computed from the exact fraction (inf for an impossible event)."""
    if probability <= 0:
        return math.inf
    return math.log10(probability.denominator) - math.log10(probability.numerator)


def _jsonable(value: Any) -> Any:
    if isinstance(value, Fraction):
        return fraction_str(value)
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return value.item()
    return value


def to_json(value: Any, *, ascii: bool = False) -> str:
    """JSON text with fractions as ``"p/q"`` strings and non-ASCII kept readable
    (``ascii``: written as ``\\u6728`` escapes instead)."""
    return json.dumps(_jsonable(value), ensure_ascii=ascii, indent=2)


def to_csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """CSV text with fractions as ``"p/q"`` strings."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([fraction_str(v) if isinstance(v, Fraction) else v for v in row])
    return buffer.getvalue()


def text_table(
    header: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    title: str | None = None,
    justify: Sequence[str] | None = None,
) -> Table:
    """A rich table; numbers are right-aligned unless ``justify`` says otherwise."""
    plain = not can_encode(sys.stdout)
    if plain and title is not None:
        title = ascii_text(title)
    table = Table(
        title=None if title is None else table_title(title),
        header_style="bold",
        title_justify="left",
    )
    for i, name in enumerate(header if not plain else [ascii_text(h) for h in header]):
        how = justify[i] if justify else "right"
        table.add_column(name, justify=how)  # type: ignore[arg-type]
    for row in rows:
        cells = (fraction_str(v) if isinstance(v, Fraction) else str(v) for v in row)
        # cells are plain text: "[src]" must print as written, not as rich markup
        table.add_row(*(escape(ascii_text(c) if plain else c) for c in cells))
    return table


class _Title(Text):
    """A table title that wraps at the console's width rather than the table's.

    rich fits a title to the width of its table, so a title longer than a narrow table
    broke in two ("... showdown" / "in 5 (100.0%)") and a shorter one was padded with
    spaces to the table's width. This one takes the console's width, and is not padded.
    """

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterable[Segment]:
        wide = options.update(width=max(options.max_width, console.width), justify="default")
        return super().__rich_console__(console, wide)


def table_title(title: str) -> Text:
    """``title`` (plain text, not markup) for ``rich.table.Table(title=...)``: on one line
    whenever the console is wide enough for it, however narrow the table."""
    return _Title(title)


# Card notation in ASCII, for streams that cannot write kanji or suit symbols
# (PYTHONIOENCODING=ascii, a Latin-1 terminal): 木7 -> M7, 陰陽3 -> Y3, 太極 -> YZ, 9♠ -> 9s.
_ASCII_WORDS = {"太極": "YZ", "陰陽": "Y", "空無": "Z"}
_ASCII_CHARS = str.maketrans(
    {
        "木": "M",
        "火": "K",
        "土": "D",
        "金": "G",
        "水": "S",
        "♠": "s",
        "♥": "h",
        "♦": "d",
        "♣": "c",
        "±": "+-",
        "—": "-",
        "…": "...",
        "×": "x",
        "→": "->",
        "·": ".",
    }
)
_NON_ASCII = re.compile(r"[^\x00-\x7f]+")


def ascii_text(text: str) -> str:
    """``text`` with cards in ASCII notation and any other non-ASCII run as ``?``."""
    for word, plain in _ASCII_WORDS.items():
        text = text.replace(word, plain)
    return _NON_ASCII.sub("?", text.translate(_ASCII_CHARS))


def can_encode(stream: TextIO | Any, sample: str = "木♠陰陽±—") -> bool:
    """True when ``stream``'s encoding can write kanji and suit symbols."""
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        sample.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def console(width: int | None = None) -> Console:
    """The console the commands print text to.

    In a terminal rich fits its width; in a pipe or file tables get 200 columns
    rather than rich's default 80, so they are not squeezed.
    """
    probe = Console()
    if width is None and not probe.is_terminal:
        width = 200
    return Console(width=width, soft_wrap=False, highlight=False)
