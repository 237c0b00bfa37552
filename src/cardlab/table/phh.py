"""Poker Hand History (PHH) files: one hand per ``.phh``, many per ``.phhs``.

PHH is the TOML format of the PHH specification (uoftcprg/phh-std), read and written
by pokerkit and used by the public hand-history dataset. A hand is a TOML table of
*fields*: required ones that let a program replay the hand (``variant``, ``antes``,
``blinds_or_straddles`` or ``bring_in``, the bet sizes, ``starting_stacks``,
``actions``), optional ones about where and when it was played, and user-defined ones
whose names start with ``_`` (cardlab writes ``_deck``, ``_rules`` and ``_game`` there
for FESCA and TESCA decks; see ``docs/phh.md``). A ``.phhs`` file is one TOML table per
hand, named ``[1]``, ``[2]``, ...

>>> hand = load(Path("tests/data/phh/pluribus-100-0.phh"))
>>> hand.variant, hand.player_count, str(hand.actions[6])
('NT', 6, 'p3 f')
>>> loads(dumps(hand)) == hand
True

This module is plain data and text; it knows nothing of the rules. Amounts are exact:
``int``, or ``decimal.Decimal`` where the file writes a decimal point (``0.50``). The
action lines are records from :mod:`cardlab.table.phh_actions`. Every malformed input
raises :class:`~cardlab.errors.HistoryError` naming the line. :func:`load` reads a file
(a path or a file object) and :func:`loads` text, as :mod:`json` and :mod:`tomllib` do;
:func:`load_all` and :func:`loads_all` the hands of a ``.phhs``. :func:`iter_file` reads a
file hand by hand, never holding it whole, a hand that cannot be read being an entry
with its error rather than the end of the file.

One rule of size: a hand (a ``.phh``, or one table of a ``.phhs``) is at most
:data:`MAX_FILE_BYTES`. A file read hand by hand (:func:`iter_file`: ``cardlab replay``,
``verify`` and ``history import``) may be of any size; :func:`load` and :func:`load_all`,
which hold a whole file, take files up to that size.
"""

from __future__ import annotations

import datetime
import functools
import operator
import os
import re
import stat
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields
from decimal import Decimal
from itertools import compress, count, repeat
from pathlib import Path
from typing import IO, Any

from cardlab import _toml_numbers
from cardlab.decks import BUILTIN_DECKS, Deck, deck_from_data, get_deck
from cardlab.errors import CardError, DeckError, HistoryError
from cardlab.table import _phh_toml
from cardlab.table.phh_actions import (
    ACTION_TYPES,
    Action,
    Amount,
    NoOp,
    action_problem,
    split_cards,
)

MAX_FILE_BYTES = 64 * 1024 * 1024
"""The largest PHH text held at once: one hand read by :func:`iter_file` (which streams
a file of any size, so ``replay``, ``verify`` and ``history import`` take the same files),
or a whole file read by :func:`load` and :func:`load_all`."""

_CAP_RULE = (
    "a PHH hand is at most {mb} MB; replay, verify and history import read a file of any "
    "size hand by hand"
)


def _over_cap(what: str, whole: bool = True) -> HistoryError:
    """The one message of the cap: ``what`` is over it (``whole``: a file held whole, by
    :func:`load` or :func:`load_all`)."""
    mb = MAX_FILE_BYTES >> 20
    held = " (phh.load and phh.load_all hold a file whole: phh.iter_file reads it hand by hand)"
    return HistoryError(
        f"{what} is over {mb} MB{held if whole else ''}: " + _CAP_RULE.format(mb=mb)
    )


VARIANTS: dict[str, str] = {
    "FT": "Fixed-limit Texas hold 'em",
    "NT": "No-limit Texas hold 'em",
    "NS": "No-limit short-deck hold 'em",
    "PO": "Pot-limit Omaha hold 'em",
    "FO/8": "Fixed-limit Omaha hold 'em high/low-split eight or better",
    "F7S": "Fixed-limit seven card stud",
    "F7S/8": "Fixed-limit seven card stud high/low-split eight or better",
    "FR": "Fixed-limit razz",
    "N2L1D": "No-limit deuce-to-seven lowball single draw",
    "F2L3D": "Fixed-limit deuce-to-seven lowball triple draw",
    "FB": "Fixed-limit badugi",
}
"""The variant codes of the PHH specification. Other codes are read and written too
(cardlab's own games, see ``docs/phh.md``); only these have per-variant required fields."""

_BLINDS_FIXED = ("blinds_or_straddles", "small_bet", "big_bet")
_BLINDS_NO_LIMIT = ("blinds_or_straddles", "min_bet")
_STUD = ("bring_in", "small_bet", "big_bet")
VARIANT_FIELDS: dict[str, tuple[str, ...]] = {
    "FT": _BLINDS_FIXED,
    "NT": _BLINDS_NO_LIMIT,
    "NS": _BLINDS_NO_LIMIT,
    "PO": _BLINDS_NO_LIMIT,
    "FO/8": _BLINDS_FIXED,
    "F7S": _STUD,
    "F7S/8": _STUD,
    "FR": _STUD,
    "N2L1D": _BLINDS_NO_LIMIT,
    "F2L3D": _BLINDS_FIXED,
    "FB": _BLINDS_FIXED,
}
CARDLAB_VARIANTS: dict[str, str] = {
    "N5CD": "No-limit five-card draw high, one draw (cardlab's own code)",
    "P5CD": "Pot-limit five-card draw high, one draw (cardlab's own code)",
    "F5CD": "Fixed-limit five-card draw high, one draw (cardlab's own code)",
}
"""Codes cardlab adds for games the specification has no code for (``docs/phh.md``)."""
VARIANT_FIELDS |= {"N5CD": _BLINDS_NO_LIMIT, "P5CD": _BLINDS_NO_LIMIT, "F5CD": _BLINDS_FIXED}
"""The fields each known variant requires besides ``variant``, ``antes``,
``starting_stacks`` and ``actions``, which every hand requires."""

REQUIRED_FIELDS = ("variant", "antes", "starting_stacks", "actions")

FIELD_ORDER = (
    "variant",
    "ante_trimming_status",
    "antes",
    "blinds_or_straddles",
    "bring_in",
    "small_bet",
    "big_bet",
    "min_bet",
    "starting_stacks",
    "actions",
    "author",
    "event",
    "url",
    "venue",
    "address",
    "city",
    "region",
    "postal_code",
    "country",
    "time",
    "time_zone",
    "day",
    "month",
    "year",
    "hand",
    "level",
    "seats",
    "seat_count",
    "table",
    "players",
    "finishing_stacks",
    "winnings",
    "currency",
    "currency_symbol",
    "time_limit",
    "time_banks",
    "time_zone_abbreviation",
)
"""Every standard field in the order :func:`dumps` writes them: pokerkit's order, and
``time_zone_abbreviation`` (which pokerkit 0.7 keeps as an extra field) last, as the
dataset's files have it. User-defined fields follow, in their own order."""

# what each field holds, checked on construction
_KINDS: dict[str, str] = {
    "variant": "str",
    "ante_trimming_status": "bool",
    "antes": "amounts",
    "blinds_or_straddles": "signed amounts",  # negative: a post (pokerkit's reading)
    "bring_in": "amount",
    "small_bet": "amount",
    "big_bet": "amount",
    "min_bet": "amount",
    "starting_stacks": "amounts",
    "actions": "actions",
    "time": "time",
    "day": "int",
    "month": "int",
    "year": "int",
    "hand": "str|int",
    "level": "int",
    "seats": "ints",
    "seat_count": "int",
    "table": "str|int",
    "players": "strs",
    "finishing_stacks": "amounts",
    "winnings": "amounts",
    "time_limit": "amount",
    "time_banks": "amounts",
}
_PER_PLAYER = (
    "antes",
    "blinds_or_straddles",
    "finishing_stacks",
    "winnings",
    "seats",
    "players",
    "time_banks",
)


class HistoryFieldError(HistoryError):
    """A bad field of a :class:`HandHistory`: ``name``, the ``index`` in an array (or
    None), and the ``reason``. :func:`load` turns it into a plain
    :class:`~cardlab.errors.HistoryError` that also names the line."""

    def __init__(self, name: str, index: int | None, reason: str, quote: str | None = None) -> None:
        where = name if index is None else f"{name}[{index}]"
        where = where if quote is None else f"{where} {quote!r}"
        super().__init__(f"{where}: {reason}")
        self.name, self.index, self.reason = name, index, reason


@dataclass(frozen=True, slots=True, kw_only=True, repr=False)
class HandHistory:
    """One hand in the PHH format: every standard field, and ``user_fields``.

    Lists are tuples; ``actions`` are records (strings given to the constructor are
    parsed); ``user_fields`` keeps every other key of the file in its order: the
    ``_``-prefixed user-defined fields and any unknown key. Per-player arrays list the
    players in PHH order (``p1`` first: the small blind in button games).
    """

    variant: str
    ante_trimming_status: bool = False
    antes: tuple[Amount, ...]
    blinds_or_straddles: tuple[Amount, ...] | None = None
    bring_in: Amount | None = None
    small_bet: Amount | None = None
    big_bet: Amount | None = None
    min_bet: Amount | None = None
    starting_stacks: tuple[Amount, ...]
    actions: tuple[Action, ...]
    author: str | None = None
    event: str | None = None
    url: str | None = None
    venue: str | None = None
    address: str | None = None
    city: str | None = None
    region: str | None = None
    postal_code: str | None = None
    country: str | None = None
    time: datetime.time | None = None
    time_zone: str | None = None
    time_zone_abbreviation: str | None = None
    day: int | None = None
    month: int | None = None
    year: int | None = None
    hand: str | int | None = None
    level: int | None = None
    seats: tuple[int, ...] | None = None
    seat_count: int | None = None
    table: str | int | None = None
    players: tuple[str, ...] | None = None
    finishing_stacks: tuple[Amount, ...] | None = None
    winnings: tuple[Amount, ...] | None = None
    currency: str | None = None
    currency_symbol: str | None = None
    time_limit: Amount | None = None
    time_banks: tuple[Amount, ...] | None = None
    user_fields: dict[str, Any] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        for name in FIELD_ORDER:
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, _convert(name, value))
        if not isinstance(self.user_fields, dict):
            raise HistoryFieldError(
                "user_fields", None, f"expected a dict, got {_short(self.user_fields)}"
            )
        object.__setattr__(self, "user_fields", dict(self.user_fields))
        _check_hand(self)

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def deck(self) -> Deck:
        """The deck of the cards: the built-in deck named by ``_deck``, else standard52."""
        return _deck_of(self.user_fields)

    def __repr__(self) -> str:
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "user_fields" and not value:
                continue
            if f.name == "ante_trimming_status" or value is not None:
                parts.append(f"{f.name}={value!r}")
        return f"HandHistory({', '.join(parts)})"


# --- checks --------------------------------------------------------------------


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_number(value: object) -> bool:
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        return False
    return not (isinstance(value, Decimal) and value.is_nan())


def _convert(name: str, value: Any) -> Any:
    return _CONVERTERS[_KINDS.get(name, "str")](name, value)


def _to_str(name: str, value: Any) -> Any:
    if type(value) is not str and not isinstance(value, str):
        raise HistoryFieldError(name, None, f"expected a string, got {_short(value)}")
    return value


def _to_bool(name: str, value: Any) -> Any:
    if not isinstance(value, bool):
        raise HistoryFieldError(name, None, f"expected true or false, got {_short(value)}")
    return value


def _to_int(name: str, value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, int):
        raise HistoryFieldError(name, None, f"expected an integer, got {_short(value)}")
    return value


def _to_str_or_int(name: str, value: Any) -> Any:
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise HistoryFieldError(name, None, f"expected a string or an integer, got {_short(value)}")
    return value


def _to_time(name: str, value: Any) -> Any:
    if not isinstance(value, datetime.time):
        raise HistoryFieldError(
            name, None, f"expected a local time like 20:15:00, got {_short(value)}"
        )
    return value


def _to_amount(name: str, value: Any) -> Any:
    if not _is_number(value) or value < 0:
        raise HistoryFieldError(name, None, f"expected a number >= 0, got {_short(value)}")
    return value


def _to_actions(name: str, value: Any) -> tuple[Action, ...]:
    if not isinstance(value, list | tuple):
        raise HistoryFieldError(name, None, f"expected an array, got {_short(value)}")
    known = _ACTIONS_READ
    try:  # the usual case, quickly: every text read before
        parsed = list(map(known.get, value))
    except TypeError:  # an unhashable item
        parsed = []
    if len(parsed) != len(value):
        parsed = [None] * len(value)
    # the others (records are true, None is not)
    for i in compress(count(), map(operator.not_, parsed)):
        item = value[i]
        parsed[i] = record = _convert_action(i, item)
        if type(item) is str:
            if len(known) >= 16384:
                known.clear()
            known[item] = record
    return tuple(parsed)  # type: ignore[arg-type]  # every item is a record now


_ACTIONS_READ: dict[str, Action] = {}  # records are immutable: real files repeat lines


_INT = {int}
_STR = {str}


def _array_of(kind: str) -> Any:
    def convert(name: str, value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            raise HistoryFieldError(name, None, f"expected an array, got {_short(value)}")
        types = set(map(type, value))  # the usual cases, quickly: names, chips
        if kind == "strs":
            if types <= _STR:
                return tuple(value)
        elif types <= _INT and (kind != "amounts" or not value or min(value) >= 0):
            return tuple(value)
        for i, item in enumerate(value):
            if kind == "strs":
                ok = isinstance(item, str)
            elif kind == "ints":
                ok = isinstance(item, int) and not isinstance(item, bool)
            elif kind == "signed amounts":
                ok = _is_number(item)
            else:
                ok = _is_number(item) and item >= 0
            if not ok:
                named = {"strs": "a string", "ints": "an integer", "signed amounts": "a number"}
                expected = named.get(kind, "a number >= 0")
                raise HistoryFieldError(name, i, f"expected {expected}, got {_short(item)}")
        return tuple(value)

    return convert


_CONVERTERS: dict[str, Any] = {
    "str": _to_str,
    "bool": _to_bool,
    "int": _to_int,
    "str|int": _to_str_or_int,
    "time": _to_time,
    "amount": _to_amount,
    "actions": _to_actions,
    "amounts": _array_of("amounts"),
    "signed amounts": _array_of("signed amounts"),
    "ints": _array_of("ints"),
    "strs": _array_of("strs"),
}


def _convert_action(index: int, item: Any) -> Action:
    if isinstance(item, ACTION_TYPES):
        return item
    if not isinstance(item, str):
        raise HistoryFieldError("actions", index, f"expected an action string, got {_short(item)}")
    action, reason = action_problem(item)
    if action is None:
        raise HistoryFieldError("actions", index, reason, item)
    return action


def _deck_of(user_fields: dict[str, Any]) -> Deck:
    if "_deck" not in user_fields:
        return _standard52()
    name = user_fields["_deck"]
    if isinstance(name, dict):  # a user's deck, written out in full (docs/phh.md)
        try:
            return deck_from_data(name, source="the deck")
        except DeckError as exc:
            raise HistoryFieldError("_deck", None, str(exc)) from None
    known = {d.lower(): d for d in BUILTIN_DECKS}
    # only built-in names: a history must not make cardlab open files it names
    if not isinstance(name, str) or name.lower() not in known:
        raise HistoryFieldError(
            "_deck", None, f"expected a built-in deck ({', '.join(BUILTIN_DECKS)}), got {name!r}"
        )
    return get_deck(known[name.lower()])


@functools.cache
def _standard52() -> Deck:
    return get_deck("standard52")


def _check_hand(hand: HandHistory) -> None:
    for name in (*REQUIRED_FIELDS, *VARIANT_FIELDS.get(hand.variant, ())):
        if getattr(hand, name) is None:
            raise HistoryFieldError(
                name, None, f"the field is required for variant {hand.variant!r}"
            )
    for name in hand.user_fields:
        if name in _FIELD_NAMES or not isinstance(name, str):
            raise HistoryFieldError(
                "user_fields", None, f"{name!r} is a standard field, not a user one"
            )
    players = hand.player_count
    if players < 2:
        raise HistoryFieldError(
            "starting_stacks", None, f"a hand needs 2 or more players, got {players}"
        )
    for i, stack in enumerate(hand.starting_stacks):
        if stack <= 0:
            raise HistoryFieldError("starting_stacks", i, f"a starting stack is > 0, got {stack}")
    for name in _PER_PLAYER:
        value = getattr(hand, name)
        if value is not None and len(value) != players:
            got = len(value)
            raise HistoryFieldError(
                name, None, f"expected one entry per player ({players}), got {got}"
            )
    for name, top in (("month", 12), ("day", 31)):
        value = getattr(hand, name)
        if value is not None and not 1 <= value <= top:
            raise HistoryFieldError(name, None, f"expected 1 to {top}, got {value}")
    deck = _deck_of(hand.user_fields)
    valid = _valid_tokens(deck)
    actions = hand.actions
    # the usual case, quickly: every player in range, every card token known good
    top = max(map(getattr, actions, repeat("player"), repeat(-1)), default=-1)  # from 0
    tokens: set[str | None] = set(map(getattr, actions, repeat("token"), repeat(None)))
    tokens.discard(None)  # the records without cards
    tokens.discard("-")
    if top < players:
        for token in tokens - valid:
            try:
                split_cards(token, deck)
            except CardError:
                break  # the loop below says where
            if len(valid) >= 8192:
                valid.clear()
            valid.add(token)  # type: ignore[arg-type]  # None is out
        else:
            return
    for i, action in enumerate(actions):
        player = getattr(action, "player", None)
        if player is not None and player >= players:
            raise HistoryFieldError("actions", i, f"player p{player + 1} of {players}", str(action))
        cards: str | None = None if type(action) is NoOp else getattr(action, "token", None)
        if cards is not None and cards not in valid and cards != "-":
            try:
                split_cards(cards, deck)
            except CardError as exc:
                raise HistoryFieldError("actions", i, str(exc), str(action)) from None
            if len(valid) >= 8192:
                valid.clear()
            valid.add(cards)


_VALID: dict[int, tuple[Deck, set[str]]] = {}


def _valid_tokens(deck: Deck) -> set[str]:
    """The card tokens known to be cards of ``deck`` (remembered per deck object, without
    hashing the deck for each token)."""
    found = _VALID.get(id(deck))
    if found is None or found[0] is not deck:
        if len(_VALID) >= 16:
            _VALID.clear()
        found = _VALID[id(deck)] = (deck, set())
    return found[1]


_FIELD_NAMES = frozenset(FIELD_ORDER)
_KIND_OF = {name: _CONVERTERS[_KINDS.get(name, "str")] for name in FIELD_ORDER}
_SLOTS = tuple(
    (f.name, HandHistory.__dict__[f.name].__set__, f.default)
    for f in fields(HandHistory)
    if f.name != "user_fields"
)
_SET_USER_FIELDS = HandHistory.__dict__["user_fields"].__set__


def _build(table: dict[str, Any]) -> HandHistory:
    """``HandHistory(**fields, user_fields=others)`` of a parsed table, quickly: the same
    conversions and checks for the fields present, without setting each field twice."""
    values: dict[str, Any] = {}
    user: dict[str, Any] = {}
    kind_of = _KIND_OF
    for name, value in table.items():
        convert = kind_of.get(name)
        if convert is None:
            user[name] = value
        elif value is not None:
            values[name] = convert(name, value)
    hand = object.__new__(HandHistory)
    _fill(hand, values.get, user)
    _check_hand(hand)
    return hand


def _filler() -> Any:
    """A function that sets every slot of a new :class:`HandHistory` from ``get(name,
    default)`` (a frozen dataclass's own ``__init__`` goes through
    ``object.__setattr__`` for each of its 38 fields)."""
    names = tuple(name for name, _, _ in _SLOTS)
    setters = tuple(setter for _, setter, _ in _SLOTS)
    defaults = tuple(default for _, _, default in _SLOTS)

    def fill(hand: HandHistory, get: Any, user: dict[str, Any]) -> None:
        # each setter(hand, value), looped in C (the setters return None)
        any(map(operator.call, setters, repeat(hand), map(get, names, defaults)))
        _SET_USER_FIELDS(hand, user)

    return fill


_fill = _filler()


# --- reading -------------------------------------------------------------------


Source = str | os.PathLike[str] | IO[bytes] | IO[str]
"""What :func:`load` and :func:`load_all` read: a path (``str`` or ``PathLike``), or a
file object open for reading, binary (UTF-8) or text."""


def load(source: Source) -> HandHistory:
    """One hand of a ``.phh`` file: a path, or a file object open for reading (as
    :func:`json.load` and :func:`tomllib.load`); PHH text goes to :func:`loads`."""
    text, where = _read(source)
    return _from_table(_parse_toml(text, where), text, where, None)


def loads(text: str) -> HandHistory:
    """One hand of PHH text."""
    return _from_table(_parse_toml(_text(text), ""), text, "", None)


def load_all(source: Source) -> list[HandHistory]:
    """Every hand of a ``.phhs`` file (a path or a file object, as :func:`load`), in
    file order; ``.phhs`` text goes to :func:`loads_all`."""
    text, where = _read(source)
    return _all(text, where)


def loads_all(text: str) -> list[HandHistory]:
    """Every hand of ``.phhs`` text, in order."""
    return _all(_text(text), "")


def _all(text: str, where: str) -> list[HandHistory]:
    hands = []
    for name, table in _parse_toml(text, where).items():
        if not isinstance(table, dict):
            line = _line_of(text, None, name, None)
            at = f"line {line}: " if line else ""
            raise HistoryError(
                f"{where}{at}a .phhs file is one table per hand ([1], [2], ...), "
                f"got the value {name!r}"
            )
        hands.append(_from_table(table, text, where, name))
    return hands


def _text(text: object) -> str:
    if not isinstance(text, str):
        raise HistoryError(
            f"expected PHH text (a str), got {type(text).__name__} (a path or a file: "
            "phh.load, phh.load_all)"
        )
    if len(text) > MAX_FILE_BYTES:
        raise HistoryError(
            f"PHH text of {len(text):,} characters is over the limit: "
            + _CAP_RULE.format(mb=MAX_FILE_BYTES >> 20)
        )
    return text


def _read(source: Source) -> tuple[str, str]:
    """The text of a path or a file object, and how messages name it."""
    if not isinstance(source, str | os.PathLike):
        if hasattr(source, "read"):
            return _read_file(source)
        raise HistoryError(f"expected a path or a file, got {type(source).__name__}")
    if isinstance(source, str) and ("\n" in source or " = " in source):
        raise HistoryError(
            f"phh.load reads a file, and {_short(source)} is PHH text, not a path "
            "(PHH text goes to phh.loads, phh.loads_all)"
        )
    path = Path(source)
    try:
        info = path.stat()
        _check_file(path, info)
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise HistoryError(f"cannot read {str(path)!r}: {exc.strerror}") from None
    return _decoded(data, repr(str(path))), f"{path}: "


def _check_file(path: Path, info: os.stat_result, *, whole: bool = True) -> None:
    """Refuse a path that is not a regular file (a FIFO would block, a device never
    end) or, to be held ``whole``, is over :data:`MAX_FILE_BYTES`."""
    if not stat.S_ISREG(info.st_mode):
        raise HistoryError(f"{str(path)!r} is not a regular file")
    if whole and info.st_size > MAX_FILE_BYTES:
        raise _over_cap(repr(str(path)))


def _read_file(handle: IO[bytes] | IO[str]) -> tuple[str, str]:
    name = getattr(handle, "name", None)
    label = repr(name) if isinstance(name, str) else "the file"
    try:
        data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise HistoryError(f"cannot read {label}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise HistoryError(f"{label} is not UTF-8 text (byte {exc.start})") from None
    where = f"{name}: " if isinstance(name, str) else ""
    if isinstance(data, str):
        if len(data) > MAX_FILE_BYTES:
            raise _over_cap(label)
        return data.removeprefix("\ufeff"), where
    if not isinstance(data, bytes | bytearray):
        raise HistoryError(f"expected a file of text or bytes, got {type(data).__name__}")
    return _decoded(bytes(data), label), where


def _decoded(data: bytes, label: str) -> str:
    if len(data) > MAX_FILE_BYTES:
        raise _over_cap(label)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise HistoryError(f"{label} is not UTF-8 text (byte {exc.start})") from None
    return text.removeprefix("\ufeff")


def _parse_toml(text: str, where: str) -> dict[str, Any]:
    _toml_numbers.check_text(text, where.removesuffix(": ") or "PHH text", HistoryError)
    table = _phh_toml.loads(text)
    if table is None:
        try:
            table = tomllib.loads(text, parse_float=Decimal)
        except tomllib.TOMLDecodeError as exc:
            raise HistoryError(f"{where}not valid TOML: {exc}") from None
        except RecursionError:
            raise HistoryError(f"{where}not valid TOML: nested too deeply") from None
    return table


def _from_table(
    table: dict[str, Any], text: str, where: str, section: str | None, first_line: int = 1
) -> HandHistory:
    """The hand of a parsed TOML table (``text``: its source, which starts at line
    ``first_line`` of the file, for the messages)."""
    hand_at = "" if section is None else f"hand [{section}]: "
    for name in REQUIRED_FIELDS:
        if name not in table:
            raise HistoryError(f"{where}{hand_at}the required field {name!r} is missing")
    try:
        return _build(table)
    except HistoryFieldError as problem:
        name = problem.name if problem.name != "user_fields" else ""
        index = problem.index if name == "actions" else None
        line = _line_of(text, section, name, index) if name else None
        at = f"line {line + first_line - 1}: " if line else ""
        raise HistoryError(f"{where}{hand_at}{at}{problem}") from None


# --- reading hand by hand ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """One hand of a PHH file as :func:`iter_file` reads it: its ``number`` in the file
    (from 1), its table name (``"1"`` for ``[1]``; None in a ``.phh``), the ``line`` it
    starts on, and either the ``history`` or the ``error`` that kept it from being read."""

    number: int
    name: str | None
    line: int
    history: HandHistory | None = None
    error: str | None = None
    end: int = 0  # characters of the file read up to the end of the hand (progress)


def iter_file(path: str | os.PathLike[str]) -> Iterator[Entry]:
    """Every hand of a ``.phh`` or ``.phhs`` file of any size, read one at a time (never
    held whole; a hand over :data:`MAX_FILE_BYTES` is refused), in file order. A hand
    that cannot be read is an :class:`Entry` with its ``error`` (and line): it does not
    stop the others. A file that cannot be read at
    all (missing, not UTF-8, no hand, values outside any hand, a one-hand file that is
    not TOML) raises :class:`HistoryError`.

    A file whose first table header (``[1]``) comes before any key is read as
    ``.phhs``, one hand per table; any other as one hand."""
    where = f"{path}: "
    for number, (name, first, text, end) in enumerate(_chunks(Path(path)), 1):
        entry = _entry(number, name, first, text, where, end)
        if name is None and entry.error is not None and "not valid TOML" in entry.error:
            raise HistoryError(entry.error)  # a .phh that is not TOML: not read at all
        yield entry


def _entry(number: int, name: str | None, first: int, text: str, where: str, end: int) -> Entry:
    hand_at = "" if name is None else f"hand [{name}]: "
    try:
        _toml_numbers.check_text(text, f"{where}{hand_at}".removesuffix(": "), HistoryError)
        table = _phh_toml.loads(text) or tomllib.loads(text, parse_float=Decimal)
    except HistoryError as exc:
        return Entry(number, name, first, error=str(exc), end=end)
    except tomllib.TOMLDecodeError as exc:
        reason = _shift_toml_line(str(exc), first - 1)
        error = f"{where}{hand_at}not valid TOML: {reason}"
        return Entry(number, name, first, error=error, end=end)
    except RecursionError:
        error = f"{where}{hand_at}not valid TOML: nested"
        return Entry(number, name, first, error=error, end=end)
    if name is not None:
        inner = table.get(name)
        if not isinstance(inner, dict):  # [1.x] and the like
            error = f"{where}{hand_at}not a hand table"
            return Entry(number, name, first, error=error, end=end)
        table = inner
    try:
        return Entry(number, name, first, _from_table(table, text, where, name, first), end=end)
    except HistoryError as exc:
        return Entry(number, name, first, error=str(exc), end=end)


_LINE_RE = re.compile(r"\(at line (\d+)")


def _shift_toml_line(message: str, offset: int) -> str:
    return _LINE_RE.sub(lambda m: f"(at line {int(m.group(1)) + offset}", message)


def _chunks(path: Path) -> Iterator[tuple[str | None, int, str, int]]:
    """(table name or None, first line, text) of each hand of the file, streamed: no
    more than :data:`MAX_FILE_BYTES` (and a line) is held at once."""
    try:
        _check_file(path, path.stat(), whole=False)
        handle = path.open("r", encoding="utf-8", newline="")
    except OSError as exc:
        raise HistoryError(f"cannot read {str(path)!r}: {exc.strerror}") from None
    with handle:
        name: str | None = None
        first = 1
        lines: list[str] = []
        seen_key = False
        number = read = held = 0
        lines_of = iter(functools.partial(handle.readline, MAX_FILE_BYTES + 1), "")
        try:
            for number, line in enumerate(lines_of, 1):
                read += len(line)
                if number == 1:
                    line = line.removeprefix("\ufeff")
                m = _HEADER_RE.match(line) if line.startswith("[") else None
                header = m is not None and line[m.end() :].strip()[:1] in ("", "#")
                if m is not None and header:
                    if name is None and seen_key:
                        raise HistoryError(
                            f"{path}: line {number}: a .phhs file is one table per hand "
                            "([1], [2], ...), but keys come before its first table"
                        )
                    if name is not None or lines:
                        yield name, first, "".join(lines), read - len(line)
                    name = next(g for g in m.groups() if g is not None)
                    first, lines, held = number, [], 0
                held += len(line)
                if held > MAX_FILE_BYTES:
                    hand = "the hand" if name is None else f"hand [{name}]"
                    raise _over_cap(f"{path}: {hand} (line {first})", whole=False)
                if header:
                    lines.append(line)
                    continue
                if name is None and not seen_key:
                    stripped = line.strip()
                    seen_key = bool(stripped) and not stripped.startswith("#")
                lines.append(line)
        except UnicodeDecodeError as exc:
            raise HistoryError(
                f"{str(path)!r} is not UTF-8 text (line {number + 1}, byte {exc.start})"
            ) from None
        if name is None and not seen_key:
            raise HistoryError(f"{path}: no hand in the file")
        yield name, first, "".join(lines), read


# --- where a field is, for messages ---------------------------------------------------

_HEADER_RE = re.compile(r"\s*\[\s*(?:\"([^\"]*)\"|'([^']*)'|([A-Za-z0-9_-]+))\s*\]")
_TOKEN_RE = re.compile(
    r"#[^\n]*|'''.*?'''|\"\"\"(?:\\.|[^\\])*?\"\"\"|'[^'\n]*'|\"(?:\\.|[^\"\\\n])*\"|[\[\]]",
    re.S,
)


def _line_of(text: str, section: str | None, name: str, index: int | None) -> int | None:
    """The 1-based line of field ``name`` (of table ``section``), or of its
    ``index``-th array string; None when it cannot be found."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    first, last = 0, len(lines)
    if section is not None:
        headers = [
            (i, next(g for g in m.groups() if g is not None))
            for i, line in enumerate(lines)
            if (m := _HEADER_RE.match(line))
        ]
        spots = [i for i, key in headers if key == section]
        if not spots:
            return None
        first = spots[0] + 1
        last = next((i for i, _ in headers if i > spots[0]), len(lines))
    key = re.compile(rf"\s*(?:{re.escape(name)}|\"{re.escape(name)}\"|'{re.escape(name)}')\s*=")
    for i in range(first, last):
        m = key.match(lines[i])
        if m is None:
            continue
        if index is None:
            return i + 1
        depth, count = 0, -1
        for token in _TOKEN_RE.finditer(text, starts[i] + m.end()):
            t = token.group()
            if t == "[":
                depth += 1
            elif t == "]":
                depth -= 1
                if depth <= 0:
                    return None
            elif t[0] in "'\"" and depth >= 1:
                count += 1
                if count == index:
                    return text.count("\n", 0, token.start()) + 1
        return None
    return None


# --- writing -------------------------------------------------------------------


def dumps(hand: HandHistory) -> str:
    """The hand as PHH text, fields in pokerkit's order, ``key = value`` per line."""
    lines = []
    for name in FIELD_ORDER:
        value = getattr(hand, name)
        if value is None:
            continue
        if name == "actions":
            lines.append(f"actions = [{', '.join(map(_action_text, value))}]")
        elif type(value) is tuple and all(type(v) is int for v in value):
            lines.append(f"{name} = [{', '.join(map(str, value))}]")  # chips, quickly
        else:
            lines.append(f"{name} = {_value(value)}")
    for key, value in hand.user_fields.items():
        if value is not None:
            lines.append(f"{_key(key)} = {_value(value)}")
    return "\n".join(lines) + "\n"


def _action_text(action: Action) -> str:
    """``_value(action)``, remembered per record (a history's records are mostly the
    very objects :func:`load` read, shared by the hands that repeat a line)."""
    found = _ACTION_TEXTS.get(id(action))
    if found is not None and found[0] is action:
        return found[1]
    text = _string(str(action))
    if len(_ACTION_TEXTS) >= 16384:
        _ACTION_TEXTS.clear()
    _ACTION_TEXTS[id(action)] = (action, text)  # the record is kept: its id stays its own
    return text


_ACTION_TEXTS: dict[int, tuple[Action, str]] = {}


def dumps_all(hands: Iterable[HandHistory]) -> str:
    """Hands as ``.phhs`` text: tables ``[1]``, ``[2]``, ... separated by a blank line."""
    return "\n".join(f"[{i}]\n{dumps(hand)}" for i, hand in enumerate(hands, 1))


_BARE_KEY_RE = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _key(key: str) -> str:
    return key if _BARE_KEY_RE.fullmatch(key) else _basic_string(key)


def _basic_string(text: str) -> str:
    out = []
    for ch in text:
        code = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDFFF:
            raise HistoryError(f"cannot write the lone surrogate {ch!r} in {_short(text)}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


_PLAIN_RE = re.compile(r"[\t\x20-\x26\x28-\x7e]*")  # printable ASCII but "'"


def _string(text: str) -> str:
    # pokerkit's style, literal strings, wherever TOML allows them
    if _PLAIN_RE.fullmatch(text):
        return f"'{text}'"  # the usual text, quickly
    plain = all(ch == "\t" or (ord(ch) >= 0x20 and ord(ch) != 0x7F) for ch in text)
    if plain and not any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        if "'" not in text:
            return f"'{text}'"
        if "'''" not in text and not text.endswith("'") and not text.startswith("'"):
            return f"'''{text}'''"
    return _basic_string(text)


def _value(value: Any) -> str:
    if type(value) is str:
        return _string(value)
    if type(value) is tuple and value and all(isinstance(v, ACTION_TYPES) for v in value):
        return "[" + ", ".join(_string(str(v)) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        if value.is_nan():
            return "nan"
        if value.is_infinite():
            return "inf" if value > 0 else "-inf"
        text = str(value)
        return text if any(c in text for c in ".eE") else f"{text}.0"
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, ACTION_TYPES):
        return _string(str(value))
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(map(_value, value)) + "]"
    if isinstance(value, dict):
        pairs = (f"{_key(str(k))} = {_value(v)}" for k, v in value.items() if v is not None)
        return "{" + ", ".join(pairs) + "}"
    raise HistoryError(f"cannot write a {type(value).__name__} to PHH: {_short(value)}")
