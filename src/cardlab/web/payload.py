"""Library values as JSON-ready data for the pages (exact fractions kept as text)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from cardlab import render
from cardlab.errors import CardlabError


class RequestError(CardlabError):
    """A request the API cannot read: a missing or malformed field."""


def chance(value: Fraction) -> dict[str, Any]:
    """An exact probability: ``{"fraction": "13/49", "percent": "26.5306%", "value": 0.265...}``."""
    return {
        "fraction": render.fraction_str(value),
        "percent": render.percent(value, 4),
        "value": float(value),
    }


MAX_SHOWN = 80  # characters of a bad value quoted back in an error message
MAX_DIGITS = 30  # a whole number given as text; more is never a count or a seed we take

_WHOLE = re.compile(rf"-?[0-9]{{1,{MAX_DIGITS}}}")
_KIND_NAMES = {int: "a whole number", str: "text", list: "a list"}


def shown(value: Any, limit: int = MAX_SHOWN) -> str:
    """``repr(value)``, cut to about ``limit`` characters (an error never echoes a body)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
        return f"<a whole number of about {int(value.bit_length() * 0.30103) + 1} digits>"
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 5]}...{text[-2:]}"


def whole_number(text: str, what: str) -> int:
    """``"7"`` or ``"-3"`` as an int (ASCII digits, at most ``MAX_DIGITS``); ``what``
    names the input in the error (``"parameter 'cards'"``)."""
    if not _WHOLE.fullmatch(text.strip()):
        raise RequestError(f"{what} must be a whole number: {shown(text)}")
    return int(text.strip())


def field(data: Mapping[str, Any], name: str, kind: type, default: Any = None) -> Any:
    """``data[name]`` checked to be of ``kind`` (``default`` when absent and given).

    A whole number may come as text (``"7"``, ``"-3"``): ASCII digits only, at most
    ``MAX_DIGITS`` of them; anything else (``"--7"``, ``"²"``) is a :class:`RequestError`.
    """
    if name not in data or data[name] is None:
        if default is not None:
            return default
        raise RequestError(f"missing field {name!r}")
    value = data[name]
    if kind is int and isinstance(value, str):
        value = whole_number(value, f"field {name!r}")
    if isinstance(value, bool) or not isinstance(value, kind):
        what = _KIND_NAMES.get(kind, kind.__name__)
        raise RequestError(f"field {name!r} must be {what}: {shown(value)}")
    if isinstance(value, int) and abs(value) >= 10**MAX_DIGITS:
        raise RequestError(f"field {name!r} must have at most {MAX_DIGITS} digits: {shown(value)}")
    return value
