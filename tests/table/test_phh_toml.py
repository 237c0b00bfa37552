"""The fast PHH TOML reader gives exactly what tomllib gives, or steps aside (None)."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlab.table import _phh_toml

DATA = Path(__file__).parent.parent / "data" / "phh"


def _tomllib(text: str) -> Any:
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError:
        return "error"


@pytest.mark.parametrize("path", sorted(DATA.glob("*.phh*")), ids=lambda p: p.name)
def test_real_files_read_fast_and_the_same(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    fast = _phh_toml.loads(text)
    assert fast is not None  # the files PHH writers write are the fast reader's subset
    assert fast == _tomllib(text)


_words = st.sampled_from(
    [
        "0",
        "7",
        "-3",
        "+4",
        "012",
        "1_000",
        "0.50",
        "1.0",
        "-0.0",
        "1e5",
        "inf",
        "-inf",
        "nan",
        "true",
        "false",
        "TRUE",
        "00:00:20",
        "23:59:60.5",
        "2009-07-01",
        "x",
        "",
    ]
)
_strings = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\r"), max_size=8).map(
    lambda s: f"'{s}'"
) | st.text(max_size=6).map(lambda s: f'"{s}"')
_scalars = _words | _strings
_arrays = st.lists(_scalars, max_size=4).flatmap(
    lambda items: st.sampled_from([", ", ",", " , ", ",\n  ", ", # c\n "]).map(
        lambda sep: "[" + sep.join(items) + st_trailing(items) + "]"
    )
)


def st_trailing(items: list[str]) -> str:
    return ","[: len(items) % 2]  # a trailing comma now and then


_keys = st.sampled_from(["variant", "antes", "a-b", "x_1", "a.b", '"q"', "actions", "antes"])
_lines = st.tuples(_keys, _scalars | _arrays, st.sampled_from(["", " # note", "  ", " x"])).map(
    lambda t: f"{t[0]} = {t[1]}{t[2]}"
) | st.sampled_from(["", "# comment", "[1]", "[2]", "[1]", "  [ 3 ]  # h", "[a.b]", "= 1"])


@settings(max_examples=600, deadline=None)
@given(st.lists(_lines, max_size=8), st.sampled_from(["\n", "\r\n"]), st.booleans())
def test_the_fast_reader_agrees_with_tomllib_or_steps_aside(
    lines: list[str], newline: str, final: bool
) -> None:
    text = newline.join(lines) + (newline if final else "")
    fast = _phh_toml.loads(text)
    if fast is not None:
        # compared by repr: a NaN (nan is TOML) equals nothing, not even itself
        assert repr(fast) == repr(_tomllib(text)), text
