"""Library values as JSON-ready data for the pages (exact fractions kept as text)."""

from __future__ import annotations

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


def field(data: Mapping[str, Any], name: str, kind: type, default: Any = None) -> Any:
    """``data[name]`` checked to be of ``kind`` (``default`` when absent and given)."""
    if name not in data or data[name] is None:
        if default is not None:
            return default
        raise RequestError(f"missing field {name!r}")
    value = data[name]
    if kind is int and isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, kind):
        raise RequestError(f"field {name!r} must be {kind.__name__}: {value!r}")
    return value
