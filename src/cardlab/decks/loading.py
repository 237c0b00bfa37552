"""Decks from TOML: the built-in ones ship as TOML files, and users write their own.

A deck file::

    name = "FESCA73"
    description = "FESCA78 without the five element voids"
    suits = ["M", "K", "D", "G", "S", "Y"]      # weakest first; keys, symbols or tables
    ranks = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "Z"]
    wrap = "ring"                                # "line", "ace-low" or "ring"
    full_suits = ["Y"]                           # suits with every rank (default: all)
    extra_cards = []                             # cards outside the full suits
    remove = []                                  # cards taken out of the grid

A suit or rank not known to cardlab is given as a table, e.g.
``{key = "L", symbol = "光", name = "Light", role = "element"}`` or
``{key = "0", name = "zero", value = 0}``.
"""

from __future__ import annotations

import stat
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from cardlab import _toml_numbers
from cardlab.cards import Card, Notation, Rank, Suit, SuitRole
from cardlab.decks.deck import MAX_RANKS, MAX_SUITS, Deck, Wrap
from cardlab.errors import CardlabError, DeckError

BUILTIN_DECKS = (
    "FESCA78",
    "FESCA73",
    "FESCA65",
    "FESCA60",
    "FESCA54",
    "FESCA42",
    "TESCA52",
    "TESCA54",
    "standard52",
)
MAX_FILE_BYTES = 1 << 20  # a deck file is a few hundred bytes; refuse anything huge
_FIELDS = {"name", "description", "suits", "ranks", "wrap", "full_suits", "extra_cards", "remove"}
_cache: dict[str, Deck] = {}


def get_deck(name: str | Deck) -> Deck:
    """A built-in deck by name (case-insensitive), or a deck file's path."""
    if isinstance(name, Deck):
        return name
    key = {n.lower(): n for n in BUILTIN_DECKS}.get(name.strip().lower())
    if key is None:
        if name.endswith(".toml") or "/" in name:
            return load_deck(name)
        raise DeckError(f"unknown deck {name!r} (built in: {', '.join(BUILTIN_DECKS)})")
    if key not in _cache:
        text = resources.files("cardlab.decks").joinpath(f"builtin/{key}.toml").read_text("utf-8")
        _cache[key] = deck_from_toml(text, source=f"built-in deck {key}")
    return _cache[key]


def load_deck(path: str | Path) -> Deck:
    """A user deck from a TOML file."""
    p = Path(path)
    shown = repr(str(p))
    try:
        # the type first: reading a FIFO blocks, /dev/zero never ends
        regular = stat.S_ISREG(p.stat().st_mode)
        if regular:
            with p.open("rb") as handle:
                data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise DeckError(f"cannot read deck file {shown}: {exc.strerror}") from None
    except ValueError:  # a NUL in the name
        raise DeckError(f"cannot read deck file {shown}: not a file name") from None
    if not regular:
        raise DeckError(f"deck file {shown} is not a regular file")
    if len(data) > MAX_FILE_BYTES:
        raise DeckError(f"deck file {shown} is larger than {MAX_FILE_BYTES >> 10} KiB")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise DeckError(f"deck file {shown} is UTF-16 text; save it as UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DeckError(
            f"deck file {shown} is not UTF-8 text (byte {exc.start}: {data[exc.start]:#04x})"
        ) from None
    return deck_from_toml(text, source=f"deck file {shown}")


def deck_from_toml(text: str, *, source: str = "deck") -> Deck:
    """A deck from TOML text; any problem raises :class:`DeckError` naming it."""
    _toml_numbers.check_text(text, source, DeckError)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DeckError(f"{source} is not valid TOML: {exc}") from None
    except RecursionError:
        raise DeckError(f"{source} is not a deck: its TOML nests too deeply") from None
    _toml_numbers.check_values(data, source, DeckError)
    return deck_from_data(data, source=source)


def deck_from_data(data: Any, *, source: str = "deck") -> Deck:
    """A deck from the data of a deck file (a dict, e.g. :meth:`Deck.definition`); any
    problem raises :class:`DeckError` naming ``source``."""
    if not isinstance(data, dict):
        raise DeckError(f"{source} is not a deck definition (a table of fields): {data!r}"[:200])
    try:
        return _deck_from_data(data)
    except CardlabError as exc:
        raise DeckError(f"{source}: {exc}") from None


def builtin_name(deck: Deck) -> str | None:
    """The name of the built-in deck ``deck`` is, or None: a user's deck, even one named
    like a built-in deck, is not one unless every card and rule of it is the same."""
    key = {n.lower(): n for n in BUILTIN_DECKS}.get(deck.name.strip().lower())
    return key if key is not None and get_deck(key) == deck else None


def _deck_from_data(data: dict[str, Any]) -> Deck:
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise DeckError(
            f"unknown field(s) {', '.join(unknown)} (known: {', '.join(sorted(_FIELDS))})"
        )
    for required in ("name", "suits", "ranks"):
        if required not in data:
            raise DeckError(f"missing field {required!r}")
    name = _string(data["name"], "name")
    # limits before any work: the checks below are quadratic in the number of suits
    for field, most in (("suits", MAX_SUITS), ("ranks", MAX_RANKS)):
        given = len(_list(data[field], field))
        if given > most:
            raise DeckError(
                f"a deck has at most {MAX_RANKS} ranks and {MAX_SUITS} suits, "
                f"this one lists {given} {field}"
            )
    for field in ("extra_cards", "remove"):
        given = len(_list(data.get(field, []), field))
        if given > MAX_SUITS * MAX_RANKS:
            raise DeckError(f"{field} lists {given} cards, more than a deck can have")
    suits = tuple(_suit(s) for s in _list(data["suits"], "suits"))
    ranks = tuple(_rank(r) for r in _list(data["ranks"], "ranks"))
    if not suits or not ranks:
        raise DeckError("a deck needs at least one suit and one rank")
    wrap_text = _string(data.get("wrap", "line"), "wrap")
    try:
        wrap = Wrap(wrap_text)
    except ValueError:
        raise DeckError(f"wrap must be line, ace-low or ring, not {wrap_text!r}") from None
    suit_by_text = {t: s for s in suits for t in (s.key, s.symbol, s.name)}
    full_names = _list(data.get("full_suits", [s.key for s in suits]), "full_suits")
    full = []
    for text in full_names:
        if not isinstance(text, str) or text not in suit_by_text:
            raise DeckError(f"full_suits names {text!r}, which is not one of the deck's suits")
        full.append(suit_by_text[text])
    cards = [Card(s, r) for s in suits if s in full for r in ranks]
    by_text = {t: Card(s, r) for s in suits for r in ranks for t in _card_texts(s, r)}

    def lookup(text: Any, what: str) -> Card:
        if not isinstance(text, str) or text.strip() not in by_text:
            raise DeckError(f"{what} lists {text!r}, which is not a card of these suits and ranks")
        return by_text[text.strip()]

    for text in _list(data.get("extra_cards", []), "extra_cards"):
        card = lookup(text, "extra_cards")
        if card in cards:
            raise DeckError(f"extra_cards lists {card}, which is already in the deck")
        cards.append(card)
    for text in _list(data.get("remove", []), "remove"):
        card = lookup(text, "remove")
        if card not in cards:
            raise DeckError(f"remove lists {card}, which is not in the deck")
        cards.remove(card)
    order = {s: i for i, s in enumerate(suits)}
    cards.sort(key=lambda c: (order[c.suit], ranks.index(c.rank)))
    description = _string(data.get("description", ""), "description")
    return Deck(name, suits, ranks, wrap, tuple(cards), description)


def _card_texts(s: Suit, r: Rank) -> tuple[str, ...]:
    card = Card(s, r)
    return (str(card), card.ascii, f"{s.symbol}{r.key}", f"{s.key}{r.key}")


def _suit(item: Any) -> Suit:
    if isinstance(item, str):
        return Suit.parse(item)
    if isinstance(item, dict):
        allowed = {"key", "symbol", "name", "role", "notation", "void_name"}
        if set(item) - allowed or "key" not in item:
            raise DeckError(f"a suit table needs key (and may have {sorted(allowed)}): {item!r}")
        try:
            role = SuitRole(item.get("role", "extra"))
            notation = Notation(item.get("notation", "suit-first"))
        except ValueError as exc:
            raise DeckError(f"suit {item.get('key')!r}: {exc}") from None
        key = _string(item["key"], "suit key")
        return Suit(
            key,
            _string(item.get("symbol", key), "suit symbol"),
            _string(item.get("name", key), "suit name"),
            role,
            notation,
            _string(item.get("void_name", ""), "void_name"),
        )
    raise DeckError(f"a suit is a key like 'M' or a table, not {item!r}")


def _rank(item: Any) -> Rank:
    if isinstance(item, str):
        return (
            Rank.parse(item) if item.upper() not in _STANDARD_KEYS else _STANDARD_KEYS[item.upper()]
        )
    if isinstance(item, dict):
        if set(item) - {"key", "name", "value"} or not {"key", "value"} <= set(item):
            raise DeckError(f"a rank table needs key and value (and may have name): {item!r}")
        value = item["value"]
        if not isinstance(value, int) or isinstance(value, bool):
            raise DeckError(f"rank value must be an integer, not {value!r}")
        key = _string(item["key"], "rank key")
        return Rank(key, _string(item.get("name", key), "rank name"), value)
    raise DeckError(f"a rank is a key like '7' or a table, not {item!r}")


def _standard_keys() -> dict[str, Rank]:
    from cardlab.cards import STANDARD_RANKS

    return {r.key: r for r in STANDARD_RANKS if not r.key.isdigit()}


_STANDARD_KEYS = _standard_keys()


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise DeckError(f"{what} must be a list, not {value!r}")
    return value


def _string(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise DeckError(f"{what} must be a string, not {value!r}")
    return value
