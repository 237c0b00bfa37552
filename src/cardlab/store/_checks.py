"""The store's checks of what it is given: counts, ids, text and JSON values."""

from __future__ import annotations

import json
import math

from cardlab.errors import StoreError
from cardlab.store.records import INT64_MAX


def _check_count(value: object, name: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= INT64_MAX:
        raise StoreError(f"{name} must be an integer from 0 to 2**63 - 1, got {value!r}")


def _check_id(table_id: object) -> None:
    if not isinstance(table_id, str) or not table_id:
        raise StoreError(f"a table id must be a non-empty string, got {table_id!r}")
    _check_text(table_id, "a table id")


def _check_text(value: str, name: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise StoreError(f"{name} is not valid Unicode text: {value!r}") from None
    if "\x00" in value:  # PostgreSQL's text cannot hold it, so no store keeps it
        raise StoreError(f"{name} holds a NUL character: {value!r}")


def _json(value: object, name: str) -> str:
    """``value`` as JSON text, refused unless it comes back equal (str keys, finite numbers)."""
    if not isinstance(value, dict):
        raise StoreError(f"the {name} must be a dict, got {value!r}")
    _check_json(value, name)
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _check_json(value: object, where: str) -> None:
    if value is None or isinstance(value, bool | int):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise StoreError(f"the {where} holds a number JSON cannot keep: {value!r}")
    elif isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise StoreError(
                f"the {where} holds text that is not valid Unicode: {value!r}"
            ) from None
    elif isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise StoreError(f"the {where} has a key that is not a string: {key!r}")
            _check_json(key, where)
            _check_json(item, where)
    elif isinstance(value, list):
        for item in value:
            _check_json(item, where)
    else:
        raise StoreError(
            f"the {where} holds a {type(value).__name__} JSON cannot keep: {value!r} "
            "(use dicts with string keys, lists, strings, numbers, booleans and None)"
        )
