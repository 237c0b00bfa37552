"""What every site reader shares: reading a file of any encoding line by line, amounts
and cards as the sites write them, and :class:`HandBuilder`, which turns what a site
says happened (seats, posts, actions, boards, shows, what each player collected) into a
PHH :class:`~cardlab.table.phh.HandHistory` plus the site's own :class:`Figures`.

The sites write a hand as its players see it: names, seat numbers, the button's seat,
amounts with a currency sign and thousands separators. PHH numbers players from the
first one dealt (the small blind; heads-up the big blind, the button last), so the
builder keeps everything by name and numbers the players only at the end, when the
blinds say who is where.
"""

from __future__ import annotations

import codecs
import io
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from cardlab.errors import HistoryError
from cardlab.table import phh

MAX_FILE_BYTES = 512 * 1024 * 1024
"""The largest site file read (streamed: memory does not grow with it)."""

_SNIFF = 65536


def encoding_of(head: bytes) -> str:
    """The encoding of a file from its first bytes: a BOM says it (UTF-8, UTF-16 LE/BE);
    UTF-16 without one shows as a NUL in every other byte; else UTF-8 when the bytes
    are UTF-8, cp1252 (the sites' Windows exports) when they are not."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    sample = head[:4096]
    if len(sample) >= 2:
        odd, even = sample[1::2].count(0), sample[0::2].count(0)
        if odd > len(sample) // 4 and even == 0:
            return "utf-16-le"
        if even > len(sample) // 4 and odd == 0:
            return "utf-16-be"
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(head) - 4:  # not just a character cut at the sniff's end
            return "cp1252"
    return "utf-8"


def open_text(path: Path) -> tuple[io.TextIOWrapper, str]:
    """The file as text lines (any newline) in its encoding, and the first bytes' text
    (to recognise the site). :class:`HistoryError` when it cannot be read."""
    try:
        info = path.stat()
        if not stat.S_ISREG(info.st_mode):  # a FIFO would block, a device never end
            raise HistoryError(f"{str(path)!r} is not a regular file")
        size = info.st_size
        if size > MAX_FILE_BYTES:
            raise HistoryError(f"{path}: {size:,} bytes, more than the {MAX_FILE_BYTES:,} read")
        raw = path.open("rb")
    except OSError as exc:
        raise HistoryError(f"cannot read {str(path)!r}: {exc.strerror}") from None
    head = raw.read(_SNIFF)
    raw.seek(0)
    encoding = encoding_of(head)
    text = io.TextIOWrapper(raw, encoding=encoding, errors="replace", newline=None)
    start = head.decode(encoding, errors="replace")[:4096].lstrip("\ufeff")
    return text, start


def numbered_lines(text: io.TextIOWrapper) -> Iterator[tuple[int, str]]:
    """(line number, line without its newline and surrounding blanks), the non-breaking
    spaces of some exports read as spaces."""
    for number, line in enumerate(text, 1):
        yield number, line.replace("\xa0", " ").replace("\ufeff", "").strip()


def hand_blocks(
    lines: Iterator[tuple[int, str]], starts: re.Pattern[str]
) -> Iterator[list[tuple[int, str]]]:
    """The lines of each hand: from a line ``starts`` matches to the next one (blank
    lines dropped); lines before the first hand are skipped."""
    block: list[tuple[int, str]] = []
    for number, line in lines:
        if starts.match(line):
            if block:
                yield block
            block = [(number, line)]
        elif block and line:
            block.append((number, line))
    if block:
        yield block


_MONEY_RE = re.compile(r"[^\d.,\-]")


def amount(text: str, *, dotted_thousands: bool = False) -> int | Decimal:
    """An amount as a site writes it: ``€0.05``, ``$1,289.63``, ``1 500``, ``2,50 €``
    (a comma with two decimals after it and no point: a decimal comma), and with
    ``dotted_thousands`` ``3.000`` (three thousand). An integer when written without
    decimals."""
    thousands = text.rstrip().endswith("k")  # Winamax's tournament chips: 6.02k
    s = _MONEY_RE.sub("", text)
    if "," in s and "." not in s and re.fullmatch(r"-?\d+,\d{1,2}", s):
        s = s.replace(",", ".")
    elif dotted_thousands and re.fullmatch(r"[1-9]\d{0,2}(?:\.\d{3})+(?:,\d{1,2})?", s):
        # 888.ro and others: 3.000 chips, 1.234,50
        s = s.replace(".", "").replace(",", ".")
    s = s.replace(",", "")
    try:
        value = Decimal(s)
    except InvalidOperation:
        raise HistoryError(f"not an amount: {text!r}") from None
    if not value.is_finite():
        raise HistoryError(f"not an amount: {text!r}")
    if thousands:
        value *= 1000
        return int(value) if value == value.to_integral_value() else value
    if "." not in s:
        return int(value)
    return value


_CARD_RE = re.compile(r"(10|[2-9TJQKA])([cdhs])", re.I)


def cards(text: str) -> str:
    """PHH card text of a site's cards: ``[Js 3d]``, ``Js, 3d``, ``10♥`` -> ``Js3d``;
    an unknown card (``X``, ``[]``) is ``??``."""
    out = []
    text = text.translate(_SUITS)
    for word in re.split(r"[\s,\[\]]+", text):
        if not word:
            continue
        for m in _CARD_RE.finditer(word):
            rank = "T" if m.group(1) == "10" else m.group(1).upper()
            out.append(rank + m.group(2).lower())
        if not _CARD_RE.search(word) and word.upper() in ("X", "XX", "??"):
            out.append("??")
    return "".join(out)


_SUITS = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"})


@dataclass
class Figures:
    """What the site's text says a hand came to, each figure with the line it is on:
    what each player collected (after the rake), the uncalled bets returned, the total
    pot and the rake (with jackpot and other fees)."""

    collected: dict[str, list[tuple[int | Decimal, int]]] = field(default_factory=dict)
    returned: dict[str, list[tuple[int | Decimal, int]]] = field(default_factory=dict)
    total_pot: tuple[int | Decimal, int] | None = None
    rake: tuple[int | Decimal, int] | None = None
    player_line: dict[str, int] = field(default_factory=dict)
    uncalled: dict[str, int | Decimal] = field(default_factory=dict)  # by the actions
    pot_after_rake: bool = False  # Winamax's total pot: what was collected
    # the uncalled bet counted in what the text says was collected: "always" (Winamax),
    # "uncontested" (888, partypoker: when one player collects), or never ("")
    collected_with_uncalled: str = ""


class Unsupported(HistoryError):
    """A hand the reader understands but cardlab does not play (a game, run it twice):
    reported as unsupported, with why."""


@dataclass
class HandBuilder:
    """One hand as a site tells it, by player name; :meth:`build` numbers the players
    the PHH way and gives the history and the site's figures."""

    site: str
    hand_id: str
    line: int
    variant: str = "NT"
    hole_cards: int = 2
    dealing: str = "flop"  # "stud": cards dealt street by street; "draw": drawn
    stakes: dict[str, Any] = field(default_factory=dict)  # min_bet / small_bet / big_bet
    seats: dict[str, tuple[int, int | Decimal]] = field(default_factory=dict)
    button: int | None = None
    antes: dict[str, int | Decimal] = field(default_factory=dict)  # dead money
    blinds: dict[str, int | Decimal] = field(default_factory=dict)
    posts: dict[str, int | Decimal] = field(default_factory=dict)  # live, out of turn
    small_blind: str | None = None
    big_blind: str | None = None
    straddles: list[str] = field(default_factory=list)
    events: list[tuple[Any, ...]] = field(default_factory=list)
    known: dict[str, str] = field(default_factory=dict)  # hole cards seen
    figures: Figures = field(default_factory=Figures)
    notes: list[str] = field(default_factory=list)
    fields: dict[str, Any] = field(default_factory=dict)  # more PHH fields
    runs: int = 1  # the board was run this many times (GGPoker's run it twice)
    # what each has put in: this street (as the sites' "raises to" count) and before
    _street: dict[str, int | Decimal] = field(default_factory=dict)
    _before: dict[str, int | Decimal] = field(default_factory=dict)
    _streets: int = 0
    _involved: set[str] = field(default_factory=set)  # who posted, acted or was dealt
    folded: set[str] = field(default_factory=set)
    dealt: set[str] = field(default_factory=set)  # stud: who has been dealt cards
    _draws: list[tuple[str, int]] = field(default_factory=list)  # discards to replace
    _drawn: dict[str, str] = field(default_factory=dict)  # the replacements seen

    # --- what happened ---------------------------------------------------------------

    def seat(self, number: int, name: str, stack: int | Decimal, line: int) -> None:
        if name in self.seats:
            raise HistoryError(f"line {line}: {name!r} sits twice")
        self.seats[name] = (number, stack)
        self.figures.player_line[name] = line

    def player(self, name: str, line: int) -> str:
        if name not in self.seats:
            raise HistoryError(f"line {line}: {name!r} has no seat")
        self._involved.add(name)
        return name

    def post(self, name: str, kind: str, value: int | Decimal, line: int) -> None:
        """A forced bet: ``ante`` and ``dead`` (dead money), ``sb``, ``bb``, ``straddle``
        (the blinds), ``post`` (a live post out of turn: PHH's negative blind)."""
        self.player(name, line)
        if kind in ("ante", "dead"):
            self.antes[name] = self.antes.get(name, 0) + value
            self._before[name] = self._before.get(name, 0) + value
            return
        if kind == "sb" and self.small_blind is None and name not in self.blinds:
            self.small_blind = name
            self.blinds[name] = value
        elif kind == "bb" and self.big_blind is None and name not in self.blinds:
            self.big_blind = name
            self.blinds[name] = value
        elif kind == "straddle" and name not in self.blinds:
            self.straddles.append(name)
            self.blinds[name] = value
        elif kind in ("sb", "bb", "post") and name not in self.blinds and name not in self.posts:
            if kind == "sb":  # a small blind posted out of turn: dead money
                self.post(name, "dead", value, line)
                return
            self.posts[name] = value
        else:
            raise Unsupported(f"line {line}: {name!r} posts twice ({kind} {value})")
        self._street[name] = self._street.get(name, 0) + value

    def street(self) -> None:
        # the part of the street's biggest bet nobody matched goes back (whether or
        # not the text says so: old exports leave it out)
        put = sorted(self._street.values(), reverse=True)
        if put and put[0] > (put[1] if len(put) > 1 else 0):
            top = next(n for n, v in self._street.items() if v == put[0])
            back = put[0] - (put[1] if len(put) > 1 else 0)
            self._street[top] -= back
            self.figures.uncalled[top] = self.figures.uncalled.get(top, 0) + back
        for name, value in self._street.items():
            self._before[name] = self._before.get(name, 0) + value
        self._street = {}
        self._streets += 1

    def dealt_in(self) -> set[str]:
        """Who has posted, acted or been dealt cards so far."""
        return self._involved

    def street_bets(self) -> list[int | Decimal]:
        """What each player has put in on this street so far."""
        return list(self._street.values())

    def this_street(self, name: str) -> int | Decimal:
        """What ``name`` has put in on this street so far."""
        return self._street.get(name, 0)

    def deal(self, name: str, text: str) -> None:
        self._involved.add(name)
        if text and "?" not in text:
            self.known[name] = text

    def raise_by(self, name: str, value: int | Decimal, line: int, *, all_in: bool = False) -> None:
        """A bet or raise written as the amount added (iPoker, 888): to this street's
        bet plus ``value``; an all-in that does not get above the bet to call is a call."""
        to = self.this_street(name) + value
        if all_in and to <= max(self.street_bets(), default=0):
            self.act(name, "cc", value, line)
        else:
            self.act(name, "cbr", to, line)

    def act(self, name: str, verb: str, value: int | Decimal | None, line: int) -> None:
        """``f``, ``cc`` (``value``: the amount called, or None for a check) or
        ``cbr`` (``value``: the street total the bet or raise goes to)."""
        self.player(name, line)
        self.replace_draws()
        if verb == "f":
            self.folded.add(name)
        # a bet or call written bigger than the stack (iPoker's all-ins): the stack
        left = self.seats[name][1] - self._before.get(name, 0)
        if verb == "cbr" and value is not None and value > left:
            value = left
        elif verb == "cc" and value is not None and value > left - self.this_street(name):
            value = left - self.this_street(name)
        if verb in ("cc", "pb") and value is not None:
            self._street[name] = self._street.get(name, 0) + value
        elif verb == "cbr" and value is not None:
            self._street[name] = value
        self.events.append(("act", name, verb, value, line))

    def deal_up(self, name: str, token: str) -> None:
        """Stud: cards dealt to ``name`` (``??`` for each face-down card not seen)."""
        self._involved.add(name)
        self.dealt.add(name)
        self.events.append(("dh", name, token))

    def discard(self, name: str, count: int, token: str, line: int) -> None:
        """Draw: ``name`` throws ``count`` cards (``token``: the cards, when seen);
        their replacements are dealt once everybody has drawn."""
        self.player(name, line)
        if self.events and self.events[-1][0] == "act":  # a draw with no header
            self.street()
        self.events.append(("sd", name, token or "??" * count))
        if count:
            self._draws.append((name, count))

    def drawn(self, name: str, token: str) -> None:
        """Draw: the replacements ``name`` was dealt, when seen."""
        self._drawn[name] = token

    def replace_draws(self) -> None:
        """Deal the replacements of the draw just done (before the next bet)."""
        for name, count in self._draws:
            token = self._drawn.get(name, "")
            self.events.append(("dh", name, token if len(token) == 2 * count else "??" * count))
        self._draws, self._drawn = [], {}

    def board(self, text: str) -> None:
        self.events.append(("db", text))

    def show(self, name: str, text: str) -> None:
        """A show at the showdown (stud and draw: the cards the hand ends with)."""
        self.replace_draws()
        if text:
            self.events.append(("sm", name, text))

    def returned(self, name: str, value: int | Decimal, line: int) -> None:
        self.player(name, line)
        self.figures.returned.setdefault(name, []).append((value, line))

    def collected(self, name: str, value: int | Decimal, line: int) -> None:
        self.player(name, line)
        self.figures.collected.setdefault(name, []).append((value, line))

    # --- the PHH hand ----------------------------------------------------------------

    def order(self) -> list[str]:
        """The players dealt in, in PHH order: from the small blind (or the seat before
        the big blind) round the table; heads-up the big blind first; in stud, by
        seat."""
        # a player seated but not dealt in (sitting out, waiting for the big blind)
        # neither posts nor acts
        names = sorted(self._involved, key=lambda n: self.seats[n][0])
        if not names:
            raise HistoryError("no player")
        if self.dealing == "stud":
            return names
        first = None
        if len(names) == 2:
            bb = self.big_blind
            if bb is not None:
                first = names.index(bb)
            elif self.small_blind is not None:
                first = 1 - names.index(self.small_blind)
        elif self.small_blind is not None:
            first = names.index(self.small_blind)
        elif self.big_blind is not None:
            first = names.index(self.big_blind) - 1
        if first is None and self.button is not None:
            seats = [self.seats[n][0] for n in names]
            after = [i for i, s in enumerate(seats) if s > self.button]
            first = after[0] if after else 0
        first = (first or 0) % len(names)
        return names[first:] + names[:first]

    def build(self) -> tuple[phh.HandHistory, Figures]:
        self.replace_draws()
        self.street()
        names = self.order()
        index = {name: i + 1 for i, name in enumerate(names)}
        blinds: list[int | Decimal] = [0] * len(names)
        heads_up = len(names) == 2
        for name, value in self.blinds.items():
            i = index[name] - 1
            if heads_up and name in (self.small_blind, self.big_blind):
                i = 0 if name == self.small_blind else 1  # the engine swaps them
            blinds[i] = value
        for name, value in self.posts.items():
            blinds[index[name] - 1] = -value
        actions: list[str] = []
        # a hand seen whole but drawn from unseen cannot say which it threw: unseen
        blind = {e[1] for e in self.events if e[0] == "sd" and "?" in e[2]}
        for name in names if self.dealing != "stud" else ():
            token = self.known.get(name, "??" * self.hole_cards)
            if name in blind:
                token = "??" * self.hole_cards
            actions.append(f"d dh p{index[name]} {token}")
        for event in self.events:
            kind = event[0]
            if kind == "db":
                actions.append(f"d db {event[1]}")
            elif kind == "#":
                actions.append(f"# {event[1]}")
            elif kind == "sm":
                actions.append(f"p{index[event[1]]} sm {event[2]}")
            elif kind == "dh":
                actions.append(f"d dh p{index[event[1]]} {event[2]}")
            elif kind == "sd":
                actions.append(f"p{index[event[1]]} sd {event[2]}".rstrip())
            else:
                _, name, verb, value, _ = event
                if verb == "cbr":
                    actions.append(f"p{index[name]} cbr {value}")
                else:
                    actions.append(f"p{index[name]} {verb}")
        starting = [self.seats[n][1] for n in names]
        put_in = {n: self._before.get(n, 0) for n in names}
        figures = self.figures
        if figures.collected_with_uncalled and not figures.returned:
            for n, back in figures.uncalled.items():
                found = figures.collected.get(n)
                alone = len(figures.collected) == 1 and found is not None and found[0][0] >= back
                if found and back and (figures.collected_with_uncalled == "always" or alone):
                    figures.collected[n] = [(found[0][0] - back, found[0][1]), *found[1:]]
                    if figures.total_pot is not None:
                        pot, line = figures.total_pot
                        figures.total_pot = (pot - back, line)
        finishing = []
        winnings = []
        for n, start in zip(names, starting, strict=True):
            won = sum((v for v, _ in figures.collected.get(n, ())), 0)
            finishing.append(start - put_in[n] + won)
            winnings.append(won)
        user: dict[str, Any] = {"_site": self.site}
        if figures.rake is not None:
            user["_rake"] = figures.rake[0]
        if figures.total_pot is not None:
            user["_total_pot"] = figures.total_pot[0]
        if self.notes:
            user["_notes"] = list(self.notes)
        if self.runs > 1:
            user["_runs"] = self.runs
        history = phh.HandHistory(
            variant=self.variant,
            antes=tuple(self.antes.get(n, 0) for n in names),
            blinds_or_straddles=tuple(blinds),
            starting_stacks=tuple(starting),
            actions=tuple(actions),  # type: ignore[arg-type]  # parsed on construction
            players=tuple(names),
            seats=tuple(self.seats[n][0] for n in names),
            finishing_stacks=tuple(finishing),
            winnings=tuple(winnings),
            hand=self.hand_id,
            user_fields=user,
            **self.stakes,
            **self.fields,
        )
        return history, figures
