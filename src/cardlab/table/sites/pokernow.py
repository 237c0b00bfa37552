"""PokerNow's log, as its CSV export (``entry,at,order``; newest row first).

The rows are put in ``order`` (the log is written newest first, so the file is read
whole: a PokerNow log is one session's, a few thousand rows), then each hand runs from
``-- starting hand #3 (id: uyg5zrdy2bt7)  No Limit Texas Hold'em (dealer: "bob @
NiO4b7CURk") --`` to ``-- ending hand #3 --``. Players are named as the log names them,
``"bob @ NiO4b7CURk"`` (the name and the player's id: names repeat, ids do not).
PokerNow takes no rake and writes no total pot: what each player collected and the
uncalled bets are the figures checked.

A hand run twice (``All players in hand choose to run it twice.``) writes the second
run's streets as ``Flop (second run):  [K♣, Q♣, J♣]``, ``Turn (second run): K♣, Q♣, J♣
[5♥]``, either after the first run's or street by street between them; the cards before
the brackets are that run's board so far, so a run from the turn starts with ``Turn
(second run):`` and the flop both runs share. The hand replays with the engine's runs
(``_runs = 2``, docs/phh.md): the first run's board cards, ``# run 2``, the second
run's. Each run's winners have a ``collected ... from pot`` line of their own (one per
pot and run), so a player's lines add up to what the replay pays them over both runs.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from decimal import Decimal

from cardlab.errors import HistoryError
from cardlab.table.sites._text import HandBuilder, Unsupported, amount, cards

SITE = "pokernow"
_START = re.compile(
    r"-- starting hand #(\d+)\s*(?:\(id: ([^)]*)\))?\s*\(?(.*?)\)?\s*"
    r"\((?:dead button|dealer: \"(.*)\")\) --(?: at (\S+))?"
)
_END = re.compile(r"-- ending hand #(\d+) --")
_STACKS = re.compile(r"#(\d+) \"(.+?)\" \(([\d.,]+)\)")
_NAMED = re.compile(r"\"(.+?)\" (.*)$")
_GAMES = {
    "No Limit Texas Hold'em": ("NT", 2),
    "Pot Limit Texas Hold'em": ("PT", 2),
    "Pot Limit Omaha Hi": ("PO", 4),
    "Pot Limit Omaha Hi/Lo 8 or Better": ("PO/8", 4),
    "No Limit Omaha Hi": ("NO", 4),
}
_A = r"([\d.,]+)"
_VERBS = [
    ("sb", re.compile(rf"posts a (?:small blind|missing small blind) of {_A}")),
    ("bb", re.compile(rf"posts a big blind of {_A}")),
    ("post", re.compile(rf"posts a (?:missed big blind|missing big blind) of {_A}")),
    ("ante", re.compile(rf"posts an ante of {_A}")),
    ("straddle", re.compile(rf"posts a straddle of {_A}")),
    ("f", re.compile(r"folds")),
    ("check", re.compile(r"checks")),
    ("call", re.compile(rf"calls {_A}")),
    ("bet", re.compile(rf"bets {_A}")),
    ("raise", re.compile(rf"raises to {_A}")),
    ("shows", re.compile(r"shows a (.*?)\.?$")),
    ("collected", re.compile(rf"collected {_A} from pot")),
]


def rows(text: io.TextIOBase) -> list[tuple[int, str]]:
    """(line in the file, entry) of each row of the CSV, in the log's ``order``."""
    reader = csv.reader(text)
    found: list[tuple[int, int, str]] = []
    header = next(reader, None)
    if header is None or [h.strip().lower() for h in header[:3]] != ["entry", "at", "order"]:
        raise HistoryError("a PokerNow log's CSV starts with the columns entry,at,order")
    for row in reader:
        if len(row) < 3:
            continue
        try:
            order = int(row[2])
        except ValueError:
            continue
        entry = row[0].replace("\xa0", " ").strip()
        if entry.startswith("-- starting hand"):
            entry += f" at {row[1].strip()}"  # the time names a hand the log gives no id
        found.append((order, reader.line_num, entry))
    found.sort()
    return [(line, entry) for _, line, entry in found]


def entries_of(text: io.TextIOBase) -> Iterator[list[tuple[int, str]]]:
    """The rows of each hand, in order."""
    block: list[tuple[int, str]] = []
    for line, entry in rows(text):
        if entry.startswith("-- starting hand"):
            if block:
                yield block  # a hand with no end: partial
            block = [(line, entry)]
        elif block:
            block.append((line, entry))
            if entry.startswith("-- ending hand"):
                yield block
                block = []
    if block:
        yield block


class Reader:
    site = SITE
    start = re.compile(r"-- starting hand")

    def hand_id(self, header: str, line: int) -> str:
        m = _START.match(header)
        if m is None:
            raise HistoryError(f"line {line}: not a hand's first row: {header[:80]!r}")
        return m.group(2) or f"{m.group(1)}@{m.group(5)}"

    def hand(self, block: list[tuple[int, str]]) -> HandBuilder:
        first, header = block[0]
        m = _START.match(header)
        if m is None:
            raise HistoryError(f"line {first}: not a hand's first row: {header[:80]!r}")
        b = HandBuilder(SITE, self.hand_id(header, first), first)
        b.fields["table"] = f"hand #{m.group(1)}"
        game = _GAMES.get(m.group(3))
        if game is None:
            raise Unsupported(f"{m.group(3)!r} is not read (games: {', '.join(_GAMES)})")
        b.variant, b.hole_cards = game
        dealer = m.group(4)
        bb: int | object = None
        ended = False
        first_run = ""  # the first run's board, as PHH card text
        second: list[tuple[int, str]] = []  # the second run's streets, dealt after it
        for number, line in block[1:]:
            if line.startswith("Player stacks:"):
                for seat, name, stack in _STACKS.findall(line):
                    b.seat(int(seat), name, amount(stack), number)
                if dealer is not None and dealer in b.seats:
                    b.button = b.seats[dealer][0]
                continue
            if line.startswith(("Flop", "Turn", "River")):
                label = line.split(":")[0]
                if "run" in label:
                    if "second run" not in label:
                        raise Unsupported(f"line {number}: {label!r}: only a second run is read")
                    second.append((number, line))
                    continue
                b.street()
                board = re.findall(r"\[([^\]]*)\]", line)
                if board:
                    b.board(cards(board[-1]))
                    first_run = cards(line.split(":", 1)[1])
                continue
            if line.startswith("Uncalled bet of"):
                u = re.match(rf"Uncalled bet of {_A} returned to \"(.+)\"", line)
                if u is not None:
                    b.returned(u.group(2), amount(u.group(1)), number)
                continue
            if line.startswith("-- ending hand"):
                ended = True
                continue
            named = _NAMED.match(line)
            if named is None or named.group(1) not in b.seats:
                continue
            name, rest = named.groups()
            for verb, pattern in _VERBS:
                v = pattern.match(rest)
                if v is None:
                    continue
                value = amount(v.group(1)) if v.groups() and verb not in ("shows",) else None
                if verb in ("sb", "bb", "post", "ante", "straddle"):
                    assert value is not None
                    b.post(name, verb, value, number)
                    if verb == "bb":
                        bb = value
                elif verb == "f":
                    b.act(name, "f", None, number)
                elif verb == "check":
                    b.act(name, "cc", None, number)
                elif verb == "call":
                    b.act(name, "cc", self.called(b, name, value), number)
                elif verb in ("bet", "raise"):
                    b.act(name, "cbr", value, number)
                elif verb == "shows":
                    b.deal(name, cards(v.group(1)))
                elif verb == "collected":
                    assert value is not None
                    b.collected(name, value, number)
                break
        if not ended:
            raise Unsupported("a partial hand: the log has no end for it")
        if second:
            self.second_run(b, first_run, second)
        if not b.seats:
            raise HistoryError(f"line {first}: no Player stacks row")
        b.stakes = {"min_bet": bb if bb is not None else max(b.blinds.values(), default=1)}
        b.figures.rake = (0, first)
        return b

    @staticmethod
    def second_run(b: HandBuilder, first_run: str, streets: list[tuple[int, str]]) -> None:
        """Deal the second run after the first (PHH's order: every run's cards run after
        run), each of its streets from the board that run has so far: the cards both
        runs share (a prefix of the first run's board), then its own."""
        b.runs = 2
        b.events.append(("#", "run 2"))
        board: str | None = None
        for number, line in streets:
            before, bracket, dealt = line.split(":", 1)[1].rpartition("[")
            if not bracket or not cards(dealt):
                raise HistoryError(f"line {number}: no cards dealt: {line[:80]!r}")
            so_far = cards(before)
            if board is None:
                if not first_run.startswith(so_far) or len(so_far) >= len(first_run):
                    raise HistoryError(
                        f"line {number}: the second run goes on from {so_far or 'no card'}, "
                        f"not from the first run's board ({first_run or 'no card'})"
                    )
            elif so_far != board:
                raise HistoryError(
                    f"line {number}: the second run so far is {board}, the line gives "
                    f"{so_far or 'no card'}"
                )
            b.street()
            b.board(cards(dealt))
            board = so_far + cards(dealt)

    @staticmethod
    def called(b: HandBuilder, name: str, to: int | Decimal | None) -> int | Decimal:
        """PokerNow writes a call as the street total called to; the builder counts
        what the call adds."""
        return (to or 0) - b.this_street(name)
