"""Output shared by the commands: text tables, JSON and CSV.

The library returns values; this module turns them into text. Fractions are written
as ``"p/q"`` strings in JSON and CSV so that no precision is lost.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

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


def to_json(value: Any) -> str:
    """JSON text with fractions as ``"p/q"`` strings and non-ASCII kept readable."""
    return json.dumps(_jsonable(value), ensure_ascii=False, indent=2)


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
    table = Table(title=title, header_style="bold", title_justify="left")
    for i, name in enumerate(header):
        how = justify[i] if justify else "right"
        table.add_column(name, justify=how)  # type: ignore[arg-type]
    for row in rows:
        # cells are plain text: "[src]" must print as written, not as rich markup
        table.add_row(
            *(escape(fraction_str(v) if isinstance(v, Fraction) else str(v)) for v in row)
        )
    return table


def console(width: int | None = None) -> Console:
    """The console the commands print text to.

    In a terminal rich fits its width; in a pipe or file tables get 200 columns
    rather than rich's default 80, so they are not squeezed.
    """
    probe = Console()
    if width is None and not probe.is_terminal:
        width = 200
    return Console(width=width, soft_wrap=False, highlight=False)
