"""PHH action notation: one frozen record per action line, and the cards in it.

The grammar (PHH specification, "Actions"), one action per string, words separated by
whitespace, an optional ``# commentary`` at the end:

====================  ==========================  ============================
action                text                        record
====================  ==========================  ============================
deal hole cards       ``d dh p1 AcKd``            ``DealHole(0, "AcKd")``
deal board cards      ``d db AcKdQh``             ``DealBoard("AcKdQh")``
fold                  ``p1 f``                    ``Fold(0)``
check or call         ``p1 cc``                   ``CheckCall(0)``
complete/bet/raise    ``p1 cbr 100``              ``CompleteBetRaiseTo(0, 100)``
post the bring-in     ``p1 pb``                   ``PostBringIn(0)``
stand pat / discard   ``p1 sd`` / ``p1 sd 7c8d``  ``StandPatDiscard(0, None)`` / ``(0, "7c8d")``
show or muck          ``p1 sm AcKd``              ``ShowMuck(0, "AcKd")``
                      ``p1 sm -``                 ``ShowMuck(0, "-")``: show the cards dealt
                      ``p1 sm``                   ``ShowMuck(0, None)``: muck
no operation          ``# commentary`` or empty   ``NoOp("commentary")``
====================  ==========================  ============================

A record's ``player`` is the player's position, counted from 0 as everywhere in cardlab
(``p1`` in the file is ``player=0``, the first player of ``starting_stacks``).

Every record here is also the event a hand records when it is played
(:mod:`cardlab.table.events` uses these very types): one type for each action, whether
read from a file or played, its ``player`` counted the one way. A record compares by
what its line writes; what only a played hand knows rides along in keyword-only fields
that take no part in comparing: the chips a call or bring-in put in (``amount``), and
for the deals, the discard and the show the :class:`~cardlab.cards.Card` values
(``cards``) and which hole cards are face up (``up``). A played record is made by its
``played(...)`` constructor, which writes the cards' ``token``; one read from a file has
only the ``token`` (``cards_in(deck)`` reads a deal's cards). :class:`Event` is the
base of every record in a hand's history. Cards stay the raw token of the file;
:func:`split_cards` and :func:`join_cards` turn a token into
:class:`~cardlab.cards.Card` values of a deck and back. A standard52 token is rank+suit
pairs run together (``AcKd``); a FESCA/TESCA token is cardlab's ASCII codes run together
(``M12K3YZ``); ``??`` is one unknown card.

``str(record)`` is the canonical PHH text and ``parse_action(str(record)) == record``.
Amounts are ``int`` or, when written with a decimal point, ``decimal.Decimal`` (exact).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, TypeAlias

from cardlab.cards import Card, format_cards
from cardlab.decks import Deck
from cardlab.errors import CardError, HistoryError

Amount: TypeAlias = int | Decimal
"""A chip amount: an integer, or an exact decimal when the file writes one (``0.50``)."""

UNKNOWN_CARD = "??"

_PLAYER_RE = re.compile(r"p([1-9][0-9]*)")
_AMOUNT_RE = re.compile(r"[0-9]+(\.[0-9]+)?")
_TOKEN_RE = re.compile(r"[^\s#]+")


def _check_player(player: object) -> None:
    if isinstance(player, bool) or not isinstance(player, int) or player < 0:
        raise HistoryError(f"a player is a position from 0 (p1 is 0), got {player!r}")


def _check_cards(cards: object, *, dash: bool = False) -> None:
    if not isinstance(cards, str) or not _TOKEN_RE.fullmatch(cards):
        raise HistoryError(f"cards are one token without spaces or '#', got {cards!r}")
    if cards == "-" and not dash:
        raise HistoryError("'-' (the cards dealt) is only for showing, in 'sm'")


def _check_comment(comment: object) -> None:
    if comment is not None and (not isinstance(comment, str) or comment != comment.strip()):
        raise HistoryError(f"a comment is text without surrounding spaces, got {comment!r}")


def _with_comment(body: str, comment: str | None) -> str:
    if comment is None:
        return body
    return f"{body} # {comment}" if body else f"# {comment}"


def format_amount(amount: Amount) -> str:
    """An amount as PHH writes it: ``100``, ``0.50``."""
    if isinstance(amount, Decimal):
        return format(amount, "f")
    return str(amount)


def _check_amount(amount: object) -> None:
    ok = isinstance(amount, int | Decimal) and not isinstance(amount, bool)
    if isinstance(amount, Decimal):
        ok = amount.is_finite()
    if not ok or amount <= 0:  # type: ignore[operator]
        raise HistoryError(f"an amount is a positive integer or decimal, got {amount!r}")


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every record in a hand's history (:mod:`cardlab.table.events`)."""

    @property
    def phh_action(self) -> Action | None:
        """The event as a PHH action record, or None (a step PHH leaves implicit)."""
        return None

    @property
    def phh(self) -> str | None:
        """The event's PHH action line, or None (a step PHH leaves implicit)."""
        action = self.phh_action
        return None if action is None else str(action)

    def as_dict(self) -> dict[str, Any]:
        """The record as JSON-ready data: its kind, positions counted from 1 as the
        file writes them, cards as text; a comment only when there is one."""
        out: dict[str, Any] = {"event": _kind(self)}
        name: str
        played = bool(getattr(self, "cards", None))
        for name in self.__slots__:
            value = getattr(self, name)
            if value is None and name in ("comment", "token", "cards"):
                continue  # nothing to say: no comment, a muck, a stand pat
            if (name == "token" and played) or (name in ("cards", "up") and value == ()):
                continue  # played, its cards say what its token does; read, the token
            if isinstance(value, tuple) and value and isinstance(value[0], Card):
                value = format_cards(value)
            elif name == "player" or name == "players":
                value = value + 1 if isinstance(value, int) else [p + 1 for p in value]
            out[name] = value
        return out


def _kind(event: Event) -> str:
    name = type(event).__name__
    return "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")


@dataclass(frozen=True, slots=True)
class DealHole(Event):
    """The dealer deals hole (or, in stud, up) cards to a player: ``d dh p1 AcKd``.

    ``token`` is the cards as the file writes them (``??`` an unknown card). A played
    deal (:meth:`played`) also keeps its :class:`Card` values (``cards``, None for a card
    hidden from a viewer) and which are dealt face up (``up``); a deal read from a file
    has neither (``cards_in(deck)`` reads the token): they take no part in comparing."""

    player: int
    token: str
    comment: str | None = None
    cards: tuple[Card | None, ...] = field(default=(), kw_only=True, compare=False)
    up: tuple[bool, ...] = field(default=(), kw_only=True, compare=False)

    @classmethod
    def played(cls, player: int, cards: tuple[Card | None, ...], up: tuple[bool, ...]) -> DealHole:
        """The deal as a hand records it (no check: the engine dealt the cards)."""
        record = object.__new__(cls)
        _set_dh_player(record, player)
        _set_dh_token(record, card_token(cards))
        _set_dh_comment(record, None)
        _set_dh_cards(record, cards)
        _set_dh_up(record, up)
        return record

    @property
    def phh_action(self) -> DealHole | None:
        return self if self.token else None  # a deal of no cards is no action

    def cards_in(self, deck: Deck) -> tuple[Card | None, ...]:
        """The cards dealt: the played values, else the token read in ``deck``."""
        return self.cards or split_cards(self.token, deck)

    def __post_init__(self) -> None:
        _check_player(self.player)
        _check_cards(self.token)
        _check_comment(self.comment)

    def __str__(self) -> str:
        return _with_comment(f"d dh p{self.player + 1} {self.token}", self.comment)


@dataclass(frozen=True, slots=True)
class DealBoard(Event):
    """The dealer deals board cards: ``d db AcKdQh`` (``token``; a played deal also keeps
    its :class:`Card` values, ``cards``, not compared)."""

    token: str
    comment: str | None = None
    cards: tuple[Card, ...] = field(default=(), kw_only=True, compare=False)

    @classmethod
    def played(cls, cards: tuple[Card, ...]) -> DealBoard:
        """The board cards as a hand records them."""
        record = object.__new__(cls)
        _set_db_token(record, card_token(cards))
        _set_db_comment(record, None)
        _set_db_cards(record, cards)
        return record

    @property
    def phh_action(self) -> DealBoard | None:
        return self if self.token else None

    def cards_in(self, deck: Deck) -> tuple[Card | None, ...]:
        """The cards dealt: the played values, else the token read in ``deck``."""
        return self.cards or split_cards(self.token, deck)

    def __post_init__(self) -> None:
        _check_cards(self.token)
        _check_comment(self.comment)

    def __str__(self) -> str:
        return _with_comment(f"d db {self.token}", self.comment)


@dataclass(frozen=True, slots=True)
class Fold(Event):
    """``p1 f``."""

    player: int
    comment: str | None = None

    @property
    def phh_action(self) -> Fold:
        return self

    def __post_init__(self) -> None:
        _check_player(self.player)
        _check_comment(self.comment)

    def __str__(self) -> str:
        return _with_comment(f"p{self.player + 1} f", self.comment)


@dataclass(frozen=True, slots=True)
class CheckCall(Event):
    """``p1 cc``: check when nothing is owed, else call (all-in if short). Played, it
    records the chips it put in (``amount``, 0 for a check); a file does not write them
    (read from one, ``amount`` is 0 and takes no part in comparing records)."""

    player: int
    comment: str | None = None
    amount: int = field(default=0, kw_only=True, compare=False)

    @property
    def phh_action(self) -> CheckCall:
        return self

    def __post_init__(self) -> None:
        _check_player(self.player)
        _check_comment(self.comment)

    def __str__(self) -> str:
        return _with_comment(f"p{self.player + 1} cc", self.comment)


@dataclass(frozen=True, slots=True)
class CompleteBetRaiseTo(Event):
    """``p1 cbr 100``: complete, bet, or raise *to* a total of ``amount`` this street
    (the player's whole bet this round; a played one is always whole chips)."""

    player: int
    amount: Amount
    comment: str | None = None

    @property
    def phh_action(self) -> CompleteBetRaiseTo:
        return self

    @property
    def chips(self) -> int:
        """``amount`` in whole chips, as a hand played by cardlab always has it (a file
        may write a decimal amount, which a played hand never holds: HistoryError)."""
        if isinstance(self.amount, int):
            return self.amount
        raise HistoryError(f"{self}: a bet in whole chips was expected, got {self.amount}")

    def __post_init__(self) -> None:
        _check_player(self.player)
        _check_amount(self.amount)
        _check_comment(self.comment)

    def __str__(self) -> str:
        return _with_comment(f"p{self.player + 1} cbr {format_amount(self.amount)}", self.comment)


@dataclass(frozen=True, slots=True)
class PostBringIn(Event):
    """``p1 pb``: the stud bring-in. Played, it records the chips (``amount``); a file
    does not write them (0 when read, and no part of comparing records)."""

    player: int
    comment: str | None = None
    amount: int = field(default=0, kw_only=True, compare=False)

    @property
    def phh_action(self) -> PostBringIn:
        return self

    def __post_init__(self) -> None:
        _check_player(self.player)
        _check_comment(self.comment)

    def __str__(self) -> str:
        return _with_comment(f"p{self.player + 1} pb", self.comment)


@dataclass(frozen=True, slots=True)
class StandPatDiscard(Event):
    """Draw: ``p1 sd 7c8d`` discards those cards; ``p1 sd`` (``token`` None) stands pat.
    A played one also keeps the :class:`Card` values thrown (``cards``: none when
    standing pat, None for a card hidden from a viewer), not compared."""

    player: int
    token: str | None = None
    comment: str | None = None
    cards: tuple[Card | None, ...] = field(default=(), kw_only=True, compare=False)

    @classmethod
    def played(cls, player: int, cards: tuple[Card | None, ...]) -> StandPatDiscard:
        """The discard as a hand records it (no cards: stands pat)."""
        record = object.__new__(cls)
        _set_sd_player(record, player)
        _set_sd_token(record, card_token(cards) or None)
        _set_sd_comment(record, None)
        _set_sd_cards(record, cards)
        return record

    @property
    def phh_action(self) -> StandPatDiscard:
        return self

    def __post_init__(self) -> None:
        _check_player(self.player)
        if self.token is not None:
            _check_cards(self.token)
        _check_comment(self.comment)

    def __str__(self) -> str:
        tail = "" if self.token is None else f" {self.token}"
        return _with_comment(f"p{self.player + 1} sd{tail}", self.comment)


@dataclass(frozen=True, slots=True)
class ShowMuck(Event):
    """Showdown: ``p1 sm AcKd`` shows those cards; ``p1 sm -`` shows the cards dealt to
    the player; ``p1 sm`` (``token`` None) mucks. Shown cards may be partly unknown
    (``??Ad``) in cash games. A played one also keeps the :class:`Card` values shown
    (``cards``; None: mucked), not compared; a show of no known card writes a bare
    ``sm``, as a muck."""

    player: int
    token: str | None = None
    comment: str | None = None
    cards: tuple[Card, ...] | None = field(default=None, kw_only=True, compare=False)

    @classmethod
    def played(cls, player: int, cards: tuple[Card, ...] | None) -> ShowMuck:
        """The show (``cards``) or muck (None) as a hand records it."""
        record = object.__new__(cls)
        _set_sm_player(record, player)
        _set_sm_token(record, card_token(cards or ()) or None)
        _set_sm_comment(record, None)
        _set_sm_cards(record, cards)
        return record

    @property
    def phh_action(self) -> ShowMuck:
        return self

    def __post_init__(self) -> None:
        _check_player(self.player)
        if self.token is not None:
            _check_cards(self.token, dash=True)
        _check_comment(self.comment)

    @property
    def mucks(self) -> bool:
        return self.token is None

    def __str__(self) -> str:
        tail = "" if self.token is None else f" {self.token}"
        return _with_comment(f"p{self.player + 1} sm{tail}", self.comment)


# the slots' setters, for records made without __init__'s checks (played, or a line
# the parser's pattern checked already)
_set_dh_player = DealHole.__dict__["player"].__set__
_set_dh_token = DealHole.__dict__["token"].__set__
_set_dh_comment = DealHole.__dict__["comment"].__set__
_set_dh_cards = DealHole.__dict__["cards"].__set__
_set_dh_up = DealHole.__dict__["up"].__set__
_set_db_token = DealBoard.__dict__["token"].__set__
_set_db_comment = DealBoard.__dict__["comment"].__set__
_set_db_cards = DealBoard.__dict__["cards"].__set__
_set_sd_player = StandPatDiscard.__dict__["player"].__set__
_set_sd_token = StandPatDiscard.__dict__["token"].__set__
_set_sd_comment = StandPatDiscard.__dict__["comment"].__set__
_set_sd_cards = StandPatDiscard.__dict__["cards"].__set__
_set_sm_player = ShowMuck.__dict__["player"].__set__
_set_sm_token = ShowMuck.__dict__["token"].__set__
_set_sm_comment = ShowMuck.__dict__["comment"].__set__
_set_sm_cards = ShowMuck.__dict__["cards"].__set__


@dataclass(frozen=True, slots=True)
class NoOp:
    """An empty action or a standalone commentary: ``# burn card 6s exposed``."""

    comment: str | None = None

    def __post_init__(self) -> None:
        _check_comment(self.comment)

    def __str__(self) -> str:
        return _with_comment("", self.comment)


Action: TypeAlias = (
    DealHole
    | DealBoard
    | Fold
    | CheckCall
    | CompleteBetRaiseTo
    | PostBringIn
    | StandPatDiscard
    | ShowMuck
    | NoOp
)
ACTION_TYPES = (
    DealHole,
    DealBoard,
    Fold,
    CheckCall,
    CompleteBetRaiseTo,
    PostBringIn,
    StandPatDiscard,
    ShowMuck,
    NoOp,
)

_SIMPLE: dict[str, type[Fold] | type[CheckCall] | type[PostBringIn]] = {
    "f": Fold,
    "cc": CheckCall,
    "pb": PostBringIn,
}


class _Syntax(Exception):
    """Why an action text is malformed; callers add where it was."""


@functools.lru_cache(maxsize=8192)  # records are immutable; real files repeat lines a lot
def action_problem(text: str) -> tuple[Action | None, str]:
    """The record of ``text``, or ``None`` and the reason it is malformed."""
    try:
        return _parse(text), ""
    except _Syntax as exc:
        return None, str(exc)
    except HistoryError as exc:  # a record's own check
        return None, str(exc)


def parse_action(text: str) -> Action:
    """The record of one PHH action text; :class:`HistoryError` quoting it if malformed."""
    if not isinstance(text, str):
        raise HistoryError(f"an action is a string, got {text!r}")
    action, reason = action_problem(text)
    if action is None:
        raise HistoryError(f"action {text!r}: {reason}")
    return action


_DEAL_HOLE_RE = re.compile(r"d dh p([1-9][0-9]*) ([^\s#]+)")


def _parse(text: str) -> Action:
    m = _DEAL_HOLE_RE.fullmatch(text)
    if m is not None and m.group(2) != "-":  # the most common line, quickly
        return _deal_hole(int(m.group(1)) - 1, m.group(2))
    body, hash_, rest = text.partition("#")
    comment = rest.strip() if hash_ else None
    words = body.split()
    if not words:
        return NoOp(comment)
    if words[0] == "d":
        return _parse_dealer(words, comment)
    m = _PLAYER_RE.fullmatch(words[0])
    if m is None:
        raise _Syntax(f"expected an actor 'd' or p1, p2, ..., got {words[0]!r}")
    player = int(m.group(1)) - 1
    if len(words) < 2:
        raise _Syntax("expected an action after the player (f, cc, cbr, pb, sd, sm)")
    verb, args = words[1], words[2:]
    if verb in _SIMPLE:
        _expect_args(verb, args, 0)
        return _SIMPLE[verb](player, comment)
    if verb == "cbr":
        _expect_args(verb, args, 1)
        if not _AMOUNT_RE.fullmatch(args[0]):
            raise _Syntax(f"amount must be a positive integer or decimal, got {args[0]!r}")
        amount: Amount = Decimal(args[0]) if "." in args[0] else int(args[0])
        if amount <= 0:
            raise _Syntax(f"amount must be positive, got {args[0]!r}")
        return CompleteBetRaiseTo(player, amount, comment)
    if verb in ("sd", "sm"):
        if len(args) > 1:
            raise _Syntax(f"'{verb}' takes at most one card token, got {len(args)}")
        cards = args[0] if args else None
        if verb == "sd":
            return StandPatDiscard(player, cards, comment)
        return ShowMuck(player, cards, comment)
    raise _Syntax(f"unknown action {verb!r} (expected f, cc, cbr, pb, sd or sm)")


def _deal_hole(player: int, cards: str) -> DealHole:
    """``DealHole(player, cards)`` of values the pattern checked already (a position
    from 0, a card token without spaces, '#' or '-'), without checking them again."""
    record = object.__new__(DealHole)
    _set_dh_player(record, player)
    _set_dh_token(record, cards)
    _set_dh_comment(record, None)
    _set_dh_cards(record, ())
    _set_dh_up(record, ())
    return record


def _parse_dealer(words: list[str], comment: str | None) -> Action:
    if len(words) < 2 or words[1] not in ("dh", "db"):
        got = words[1] if len(words) > 1 else "nothing"
        raise _Syntax(f"the dealer deals 'dh' (hole) or 'db' (board), got {got!r}")
    if words[1] == "db":
        if len(words) != 3:
            raise _Syntax(f"'d db' takes one card token, got {len(words) - 2}")
        return DealBoard(words[2], comment)
    if len(words) != 4:
        raise _Syntax(f"'d dh' takes a player and one card token, got {len(words) - 2} words")
    m = _PLAYER_RE.fullmatch(words[2])
    if m is None:
        raise _Syntax(f"expected a player p1, p2, ..., got {words[2]!r}")
    return DealHole(int(m.group(1)) - 1, words[3], comment)


def _expect_args(verb: str, args: list[str], count: int) -> None:
    if len(args) != count:
        what = "no argument" if count == 0 else f"{count} argument"
        raise _Syntax(f"'{verb}' takes {what}, got {' '.join(args)!r}")


# --- cards ---------------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _splitter(deck: Deck) -> tuple[re.Pattern[str], dict[str, Card]]:
    codes = {card.ascii: card for card in deck.cards}
    # longest codes first, so "M12" wins over "M1" followed by a stray "2"
    alternatives = sorted(codes, key=len, reverse=True)
    pattern = re.compile("|".join([re.escape(UNKNOWN_CARD), *map(re.escape, alternatives)]))
    return pattern, codes


@functools.lru_cache(maxsize=8192)
def split_cards(token: str, deck: Deck) -> tuple[Card | None, ...]:
    """The cards of a PHH card token, ``None`` for each unknown ``??``.

    ``split_cards("AcKd", standard52)`` gives ace of clubs, king of diamonds;
    ``split_cards("M12K3YZ", FESCA78)`` gives 木12, 火3, 太極. Raises
    :class:`~cardlab.errors.CardError` for text that is not the deck's ASCII codes, or a
    card given twice. ``-`` (show the cards dealt) is not a card token.
    """
    pattern, codes = _splitter(deck)
    cards: list[Card | None] = []
    at = 0
    while at < len(token):
        m = pattern.match(token, at)
        if m is None:
            example = join_cards(deck.cards[:2], deck)
            raise CardError(
                f"card token {token!r}: {token[at:]!r} is not a {deck.name} card "
                f"(expected ASCII codes run together like {example!r}, ?? for unknown)"
            )
        cards.append(None if m.group() == UNKNOWN_CARD else codes[m.group()])
        at = m.end()
    if not cards:
        raise CardError("an empty card token")
    known = [c for c in cards if c is not None]
    if len(set(known)) != len(known):
        raise CardError(f"card token {token!r} names a card twice")
    return tuple(cards)


def join_cards(cards: Iterable[Card | None], deck: Deck) -> str:
    """The PHH token of cards of ``deck`` (``None`` is an unknown card, ``??``)."""
    cards = tuple(cards)
    for card in cards:
        if card is not None and card not in deck:
            raise CardError(f"card {card} is not in the {deck.name} deck")
    if not cards:
        raise CardError("no cards to write")
    return card_token(cards)


def card_token(cards: Iterable[Card | None]) -> str:
    """The PHH token of cards a hand dealt (``None`` is an unknown card, ``??``): their
    ASCII codes run together, the one way cardlab writes cards in an action line."""
    return "".join(UNKNOWN_CARD if card is None else card.ascii for card in cards)
