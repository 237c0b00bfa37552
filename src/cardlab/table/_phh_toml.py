"""A fast reader for the TOML that PHH files are written in, or None to let tomllib read it.

PHH files (pokerkit's, the public dataset's, cardlab's own) use a small part of TOML:
table headers ``[1]``, ``key = value`` lines with bare keys, and values that are literal
or plain basic strings, integers, decimals, ``inf``/``nan``, booleans, local times and
arrays of these, possibly over several lines, with ``#`` comments. :func:`loads` reads
exactly that part, about four times as fast as :mod:`tomllib`, and gives the same
values (decimals as :class:`~decimal.Decimal`, as ``tomllib.loads(text,
parse_float=Decimal)`` does). On anything else (escapes, dotted or quoted keys, inline
tables, dates, a key given twice, any syntax error) it answers None, and the caller
reads the text with :mod:`tomllib`, which gives its own result or error message.
"""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from typing import Any

_KEY_RE = re.compile(r"[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*")
_CTRL = r"\x00-\x08\x0a-\x1f\x7f"  # the control characters TOML strings and comments refuse
_HEADER_RE = re.compile(rf"[ \t]*\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\][ \t]*(?:#[^{_CTRL}]*)?(?:\n|\Z)")
_TOKEN_RE = re.compile(
    rf"""[ \t]*(?:'([^'{_CTRL}]*)'"""  # 1: a literal string
    rf'|"([^"\\{_CTRL}]*)"'  # 2: a basic string without escapes
    r"""|([\[\],])|(\n)"""  # 3: punctuation, 4: the end of a line
    rf"""|(\#[^{_CTRL}]*)"""  # 5: a comment
    r"""|([^\s,\[\]#'"]+))"""  # 6: a bare word (number, boolean, time)
)
_INT_RE = re.compile(r"[+-]?(?:0|[1-9][0-9]*)")
_FLOAT_RE = re.compile(r"[+-]?(?:0|[1-9][0-9]*)\.[0-9]+")
_TIME_RE = re.compile(r"[0-2][0-9]:[0-5][0-9]:[0-5][0-9](?:\.[0-9]+)?")
_EMPTY_RE = re.compile(rf"[ \t]*(?:#[^{_CTRL}]*)?(?:\n|\Z)")
_SPECIAL = {"inf", "+inf", "-inf", "nan", "+nan", "-nan"}


class _Unsupported(Exception):
    """Text outside the subset: tomllib decides."""


def loads(text: str) -> dict[str, Any] | None:
    """The TOML document ``text`` as tomllib reads it, or None (see the module)."""
    try:
        return _plain_lines(text)
    except (_Unsupported, ValueError, IndexError):
        pass
    try:
        return _document(text)
    except (_Unsupported, ValueError, IndexError):
        return None


_BARE_RE = re.compile(r"[A-Za-z0-9_-]+")
_PLAIN_HEADER_RE = re.compile(r"\[([A-Za-z0-9_-]+)\]")
_NATURALS_RE = re.compile(r"\[(?:0|[1-9][0-9]*)(?:, (?:0|[1-9][0-9]*))*\]")
_PLAIN_LITERAL_RE = re.compile(r"'[^'\x00-\x08\x0a-\x1f\x7f]*'")


def _plain_lines(text: str) -> dict[str, Any]:
    """The usual document, quickly: every line empty, a header ``[name]`` or ``key =
    value`` with one space either side of ``=``, a bare key, a value on its own line
    without a comment. Anything else raises :class:`_Unsupported` (the general reader
    decides)."""
    root: dict[str, Any] = {}
    table = root
    bare, literal = _BARE_RE.fullmatch, _PLAIN_LITERAL_RE.fullmatch
    strings, words = _STRINGS_RE.fullmatch, _WORDS_RE.fullmatch
    naturals = _NATURALS_RE.fullmatch
    for line in text.split("\n"):
        key, equals, value = line.partition(" = ")
        if equals and bare(key) and key not in table:
            first = value[:1]
            if first == "'":
                if not literal(value):
                    raise _Unsupported
                table[key] = value[1:-1]
            elif first == "[":
                if naturals(value):  # chips: most arrays of numbers
                    table[key] = list(map(int, value[1:-1].split(", ")))
                elif strings(value):
                    table[key] = _LITERAL_RE.findall(value)
                elif (m := words(value)) is not None:
                    items = [w.strip() for w in m.group(1).split(",")]
                    if items[-1] == "":
                        items.pop()  # a trailing comma
                    table[key] = [_word(w) for w in items]
                else:
                    raise _Unsupported
            else:
                table[key] = _word(value)
        elif not line:
            continue
        elif (m := _PLAIN_HEADER_RE.fullmatch(line)) is not None and m.group(1) not in root:
            table = root[m.group(1)] = {}
        else:
            raise _Unsupported
    return root


def _document(text: str) -> dict[str, Any]:
    root: dict[str, Any] = {}
    table = root
    at, end = 0, len(text)
    while at < end:
        m = _KEY_RE.match(text, at)
        if m is not None:  # most lines: key = value
            if m.group(1) in table:
                raise _Unsupported
            value, at = _value(text, m.end())
            table[m.group(1)] = value
            at = _line_end(text, at)
            continue
        m = _HEADER_RE.match(text, at)
        if m is not None:
            if m.group(1) in root:
                raise _Unsupported
            table = root[m.group(1)] = {}
            at = m.end()
            continue
        m = _EMPTY_RE.match(text, at)  # a blank line or a comment
        if m is None or m.end() == at:
            raise _Unsupported
        at = m.end()
    return root


def _line_end(text: str, at: int) -> int:
    """After a value: spaces, an optional comment, then the end of the line."""
    m = _TOKEN_RE.match(text, at)
    if m is not None and m.group(5) is not None:  # a comment
        at = m.end()
        m = _TOKEN_RE.match(text, at)
    if m is None:  # the end of the document, or something else
        if text[at:].strip(" \t"):
            raise _Unsupported
        return len(text)
    if m.group(4) is None:
        raise _Unsupported
    return m.end()


def _value(text: str, at: int) -> tuple[Any, int]:
    if text.startswith("[", at):
        # the usual arrays, on one line: literal strings (actions, players), or numbers
        m = _STRINGS_RE.match(text, at)
        if m is not None:
            return _LITERAL_RE.findall(m.group()), m.end()
        m = _WORDS_RE.match(text, at)
        if m is not None:
            words = [w.strip() for w in m.group(1).split(",")]
            if words[-1] == "":
                words.pop()  # a trailing comma
            return [_word(w) for w in words], m.end()
    m = _TOKEN_RE.match(text, at)
    if m is None:
        raise _Unsupported
    if m.group(3) == "[":
        return _array(text, m.end())
    return _scalar(m), m.end()


_CHARS = r"[^'\x00-\x08\x0a-\x1f\x7f]*"  # a literal string's: no control but the tab
_STRINGS_RE = re.compile(rf"\[[ \t]*'{_CHARS}'(?:[ \t]*,[ \t]*'{_CHARS}')*[ \t]*,?[ \t]*\]")
_LITERAL_RE = re.compile(rf"'({_CHARS})'")
_WORDS_RE = re.compile(r"\[([^\[\]'\"#\x00-\x08\x0a-\x1f\x7f]*)\]")


def _scalar(m: re.Match[str]) -> Any:
    literal, basic, *_, word = m.groups()
    if literal is not None:
        return literal
    if basic is not None:
        return basic
    if word is None:
        raise _Unsupported
    return _word(word)


def _word(word: str) -> Any:
    if word.isdigit() and (word[0] != "0" or word == "0") and word.isascii():
        return int(word)
    if _INT_RE.fullmatch(word):
        return int(word)
    if _FLOAT_RE.fullmatch(word) or word in _SPECIAL:
        return Decimal(word)
    if word == "true":
        return True
    if word == "false":
        return False
    if _TIME_RE.fullmatch(word):
        return datetime.time.fromisoformat(word)
    raise _Unsupported


def _array(text: str, at: int) -> tuple[list[Any], int]:
    items: list[Any] = []
    expect_item = True
    while True:
        m = _TOKEN_RE.match(text, at)
        if m is None:
            raise _Unsupported
        at = m.end()
        if m.group(4) is not None or m.group(5) is not None:  # newlines, comments
            continue
        punct = m.group(3)
        if punct == "]":
            return items, at
        if punct == ",":
            if expect_item:
                raise _Unsupported
            expect_item = True
            continue
        if not expect_item:
            raise _Unsupported
        if punct == "[":
            value, at = _array(text, at)
        else:
            value = _scalar(m)
        items.append(value)
        expect_item = False
