"""Numbers in the TOML files cardlab reads (decks, games, PHH hands), bounded before use.

Python reads an integer of any length, but converting one past 4,300 digits raises a
``ValueError`` from inside :mod:`tomllib`; a decimal such as ``1e999999`` parses at once
and then costs minutes in arithmetic, and ``1e-999999`` never ends being rounded to
chips. No count of chips, cards or rounds comes near :data:`MOST_DIGITS` digits or an
exponent of :data:`MOST_EXPONENT`, so the text is refused before it is parsed, naming
the field and line; after parsing, ``nan`` and ``inf`` where they mean nothing are.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from cardlab.errors import CardlabError

MOST_DIGITS = 100
MOST_EXPONENT = 400

_LONG_RUN = re.compile(rf"[0-9](?:_?[0-9]){{{MOST_DIGITS},}}")
# a number with an exponent, as a word of its own (in a string too: PHH's actions write
# amounts there), not the letters and digits of a word such as a hexadecimal digest
_EXPONENT = re.compile(r"(?<![\w.])[+-]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE]([+-]?[0-9][0-9_]*)(?![\w.])")
_KEY = re.compile(r"^[ \t]*([^\s=#\[][^=#\n]*?)[ \t]*=", re.MULTILINE)


def check_text(text: str, source: str, error: Callable[[str], CardlabError]) -> None:
    """Refuse TOML ``text`` holding a number of more than :data:`MOST_DIGITS` digits or
    an exponent past :data:`MOST_EXPONENT`: ``error(message)`` naming the field."""
    long = _LONG_RUN.search(text)
    if long is not None:
        digits = sum(c.isdigit() for c in long.group())
        end = long.end()
        while end < len(text) and (text[end].isdigit() or text[end] == "_"):
            end += 1
        digits += sum(c.isdigit() for c in text[long.end() : end])
        raise error(
            f"{source}: {_field(text, long.start())} holds a number of {digits:,} digits; "
            f"at most {MOST_DIGITS} are read"
        )
    for match in _EXPONENT.finditer(text):
        if abs(int(match.group(1).replace("_", ""))) > MOST_EXPONENT:
            raise error(
                f"{source}: {_field(text, match.start())} holds a number with the exponent "
                f"{match.group(1)}; exponents from -{MOST_EXPONENT} to {MOST_EXPONENT} are read"
            )


def check_values(data: Any, source: str, error: Callable[[str], CardlabError]) -> None:
    """Refuse ``nan`` and infinity anywhere in parsed ``data`` (a deck or a game: no
    field of theirs has a use for them; PHH checks its own fields, where ``inf`` is a
    stack without a limit)."""
    for path, value in _leaves(data, ""):
        if isinstance(value, Decimal):
            finite = value.is_finite()
        else:
            finite = not isinstance(value, float) or math.isfinite(value)
        if not finite:
            raise error(f"{source}: {path or 'a value'} is {value}, not a number it can use")


def _leaves(data: Any, path: str) -> Any:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, f"{path}.{key}" if path else str(key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _leaves(value, f"{path}[{i}]")
    else:
        yield path, data


def _field(text: str, at: int) -> str:
    """``field `stacks` (line 7)``: the key whose value holds position ``at``."""
    line = text.count("\n", 0, at) + 1
    keys = [m for m in _KEY.finditer(text, 0, at + 1) if m.start() <= at]
    if not keys:
        return f"line {line}"
    key = keys[-1].group(1).strip()
    return f"the field {key[:40]!r} (line {line})"
