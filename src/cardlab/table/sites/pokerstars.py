"""PokerStars hand histories (and the sites that write the same text: GGPoker's export
is read by :mod:`cardlab.table.sites.ggpoker` with this reader's grammar).

A hand starts ``PokerStars Hand #...:`` (``Game``, ``Zoom Hand``, ``Home Game Hand``),
names the game and stakes on that line, the table and the button's seat on the next,
then one ``Seat N: name (stack in chips)`` line per player, the forced bets
(``name: posts small blind 0.05``), ``*** HOLE CARDS ***`` and each street's actions as
``name: verb amount``, boards as ``*** FLOP *** [8h Jh Kh]``, the uncalled bet
(``Uncalled bet (0.50) returned to name``), what each collected (``name collected 0.38
from pot``), and ``*** SUMMARY ***`` with ``Total pot 0.40 | Rake 0.02``.
"""

from __future__ import annotations

import re
from decimal import Decimal

from cardlab.errors import HistoryError
from cardlab.table.sites._text import HandBuilder, Unsupported, amount, cards

__all__ = ["START", "HandBuilder", "Reader"]

START = re.compile(r"PokerStars (?:Zoom |Home Game |Rush )?(?:Hand|Game) #")
"""The first line of a PokerStars hand."""

_HAND_ID = re.compile(r"(?:Hand|Game) #([\w-]+):")
_SEAT = re.compile(r"Seat (\d+): (.+?) \(([^()]*?) in chips(?:[^()]*(?:\([^()]*\))?)*\)(.*)$")
_BUTTON = re.compile(r"Seat #(\d+) is the button")
_STAKES = re.compile(  # "(a/b)" and "(Game, a/b)", the amounts with thousands commas
    r"[(,]\s*((?:[^()/,]|,(?=\d))*\d)/((?:[^()/ ,]|,(?=\d))*\d)[^()]*\)"
)
_AMOUNT = r"(\S*\d\S*)"
_ALL_IN = r"(?: and is all-in)?(?: and has reached the [^ ]+ cap)?"
_VERBS: list[tuple[str, re.Pattern[str]]] = [
    ("sb", re.compile(rf"posts (?:the )?small blind {_AMOUNT}{_ALL_IN}$")),
    ("bb", re.compile(rf"posts (?:the )?big blind {_AMOUNT}{_ALL_IN}$")),
    ("ante", re.compile(rf"posts (?:the )?ante {_AMOUNT}{_ALL_IN}$")),
    ("sbbb", re.compile(rf"posts small & big blinds {_AMOUNT}{_ALL_IN}$")),
    ("straddle", re.compile(rf"posts straddle {_AMOUNT}{_ALL_IN}$")),
    ("dead", re.compile(rf"posts missed blind {_AMOUNT}{_ALL_IN}$")),
    ("f", re.compile(r"folds(?: \[.*\])?$")),
    ("check", re.compile(r"checks$")),
    ("call", re.compile(rf"calls {_AMOUNT}{_ALL_IN}$")),
    ("bet", re.compile(rf"bets {_AMOUNT}{_ALL_IN}$")),
    ("raise", re.compile(rf"raises {_AMOUNT} to {_AMOUNT}{_ALL_IN}$")),
    ("bring", re.compile(rf"brings in for {_AMOUNT}{_ALL_IN}$")),
    ("complete", re.compile(rf"completes it to {_AMOUNT}{_ALL_IN}$")),
    ("shows", re.compile(r"shows \[([^\]]*)\]")),
    ("mucks", re.compile(r"mucks hand")),
    ("discard", re.compile(r"(?:discards|stands pat)")),
    ("pat", re.compile(r"is (?:sitting out|disconnected|connected)")),
]
_BY_WORD: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
for _verb, _pattern in _VERBS:  # the verbs by the first word they start with
    _first = re.match(r"\(\?:([\w| ]+)\)|(\w+)", _pattern.pattern)
    assert _first is not None
    for _words in (_first.group(1) or _first.group(2)).split("|"):
        _BY_WORD.setdefault(_words.split()[0], []).append((_verb, _pattern))
_DISCARD = re.compile(r"discards (\d+) cards?(?: \[([^\]]*)\])?")
_COLLECTED = re.compile(
    rf"(.+?) (?:collected|wins|won) {_AMOUNT} from (?:the )?(?:main |side )?pot"
)
_RETURNED = re.compile(rf"Uncalled bet \({_AMOUNT}\) returned to (.+)$")
_TOTAL = re.compile(rf"Total pot {_AMOUNT}")
_FEES = re.compile(rf"\| (Rake|Jackpot|Bingo|Fortune|Tax|JP Fee|Fee) {_AMOUNT}")
_SUMMARY_WON = re.compile(r"Seat \d+: (.+?) (?:\([^()]*\) )*(?:.* )?(?:collected|won) \((\S+)\)")
_SUMMARY_SHOW = re.compile(r"Seat \d+: (.+?) (?:\([^()]*\) )*(?:showed|mucked) \[([^\]]*)\]")

# game words of the first line -> PHH variant code per betting, and hole cards
_GAMES: list[tuple[str, dict[str, str] | str, int]] = [
    ("6 Card Omaha", "six-card Omaha", 6),
    ("5 Card Omaha", "five-card Omaha", 5),
    ("Courchevel", "Courchevel", 5),
    ("6+ Hold'em", "six-plus (short deck) Hold'em with a button blind", 2),
    ("Omaha Hi/Lo", {"FL": "FO/8", "PL": "PO/8", "NL": "NO/8"}, 4),
    ("Omaha", {"FL": "FO", "PL": "PO", "NL": "NO"}, 4),
    ("Hold'em", {"FL": "FT", "PL": "PT", "NL": "NT"}, 2),
    ("7 Card Stud Hi/Lo", {"FL": "F7S/8"}, 7),
    ("7 Card Stud", {"FL": "F7S", "NL": "N7S", "PL": "P7S"}, 7),
    ("Razz", {"FL": "FR"}, 7),
    ("Triple Draw 2-7", {"FL": "F2L3D"}, 5),
    ("Single Draw 2-7", {"NL": "N2L1D"}, 5),
    ("5 Card Draw", {"FL": "F5CD", "NL": "N5CD", "PL": "P5CD"}, 5),
    ("Badugi", {"FL": "FB"}, 4),
    ("Draw", "this draw game", 5),
]
_STUD = ("F7S", "F7S/8", "FR", "N7S", "P7S")
_DRAW = ("F2L3D", "N2L1D", "F5CD", "N5CD", "P5CD", "FB")


def betting_of(header: str) -> str:
    if "Pot Limit" in header or " PL" in header:
        return "PL"
    if "No Limit" in header or " NL" in header:
        return "NL"
    return "FL"


def game_of(header: str) -> tuple[str, int, str]:
    """The PHH variant code, hole cards and dealing (flop, stud, draw) of a hand's
    first line, or :class:`Unsupported` naming the game."""
    for words, codes, hole in _GAMES:
        if words in header:
            if isinstance(codes, str):
                raise Unsupported(f"{codes} is not played by cardlab")
            betting = betting_of(header)
            if betting not in codes:
                raise Unsupported(f"{words} {betting} is not played by cardlab")
            code = codes[betting]
            dealing = "stud" if code in _STUD else "draw" if code in _DRAW else "flop"
            return code, hole, dealing
    raise Unsupported(f"no game cardlab plays in {header[:80]!r}")


class Reader:
    """A PokerStars-grammar hand reader: :meth:`hand` reads one hand's lines."""

    site = "pokerstars"
    start = START
    hand_number = _HAND_ID  # the hand number in a hand's first line (a site's own)

    def hand_id(self, header: str, line: int) -> str:
        m = self.hand_number.search(header)
        if m is None:
            raise HistoryError(f"line {line}: no hand number in {header[:80]!r}")
        return m.group(1)

    def stakes(self, b: HandBuilder, header: str, line: int) -> None:
        found = _STAKES.findall(header)  # the last "(a/b)": tournaments name the buy-in first
        if not found:
            raise HistoryError(f"line {line}: no stakes in {header[:80]!r}")
        small, big = amount(found[-1][0]), amount(found[-1][1])
        if b.dealing == "stud" or b.variant.startswith("F"):
            b.stakes = {"small_bet": small, "big_bet": big}
        else:
            b.stakes = {"min_bet": big}

    def hand(self, block: list[tuple[int, str]]) -> HandBuilder:
        first, header = block[0]
        b = HandBuilder(self.site, self.hand_id(header, first), first)
        self._summary_won: list[tuple[str, int | Decimal, int]] = []
        b.variant, b.hole_cards, b.dealing = game_of(header)
        self.stakes(b, header, first)
        if "Tournament" in header:
            b.notes.append("tournament")
        names: list[str] = []
        summary = False
        showdown_seen = False
        river: set[str] | None = None  # stud: who was dealt a 7th card
        for number, line in block[1:]:
            if summary:
                self.summary_line(b, number, line)
                continue
            if river is not None and not line.startswith("Dealt to "):
                self.deal_river(b, river)  # the 7th card of each player still in
                river = None
            if line.startswith("***"):
                if "SUMMARY" in line:
                    summary = True
                    b.replace_draws()
                    b.street()
                elif "SHOW" in line:  # a board run twice has a showdown per run
                    showdown_seen = True
                else:
                    river = self.street_line(b, line, number)
                continue
            if line.startswith("Seat ") and not b.events:
                m = _SEAT.match(line)
                if m is not None:
                    b.seat(int(m.group(1)), m.group(2), amount(m.group(3)), number)
                    names = sorted(b.seats, key=len, reverse=True)
                continue
            if line.startswith("Table ") and b.button is None:
                m = _BUTTON.search(line)
                if m is not None:
                    b.button = int(m.group(1))
                continue
            if line.startswith("Dealt to "):
                self.dealt_line(b, line, river)
                continue
            m = _RETURNED.match(line)
            if m is not None:
                b.returned(m.group(2), amount(m.group(1)), number)
                continue
            who, rest = self.split(line, names)
            if who is None:
                m = _COLLECTED.match(line)
                if m is not None and m.group(1) in b.seats:
                    b.collected(m.group(1), amount(m.group(2)), number)
                elif line.startswith("Hand cancelled") or "cancelled" in line.lower():
                    raise Unsupported(f"line {number}: the hand was cancelled")
                elif "cashed out" in line or "Cash Out" in line:
                    b.notes.append(line)
                continue
            self.action(b, who, rest, number, showdown_seen)
        if not summary:
            raise Unsupported("a partial hand: it has no summary")
        if not b.figures.collected:  # no "collected" line: the summary's, if it has them
            for name, value, number in self._summary_won:
                b.collected(name, value, number)
        if b.dealing == "stud" and "bring_in" not in b.stakes:  # completed at once
            small = b.stakes["small_bet"]
            b.stakes["bring_in"] = small // 2 if isinstance(small, int) else small / 2
        return b

    def street_line(self, b: HandBuilder, line: str, number: int) -> set[str] | None:
        """A ``*** ... ***`` line: a new street (its board), a draw; the set to fill
        with who gets a 7th card in stud."""
        if "DRAW" in line:
            b.replace_draws()
            b.street()
        elif any(w in line for w in ("FIRST", "SECOND", "THIRD")):
            # a board run twice (GGPoker): each run's streets in turn, the cards they
            # share written once (the engine's runs: docs/phh.md)
            run = 3 if "THIRD" in line else 2 if "SECOND" in line else 1
            if b.dealing != "flop":
                raise Unsupported(f"line {number}: a {b.dealing} hand run more than once")
            if run > b.runs:
                b.runs = run
                b.events.append(("#", f"run {run}"))
            b.street()
            boards = re.findall(r"\[([^\]]*)\]", line)
            if boards:
                b.board(cards(boards[-1]))
        elif b.dealing == "stud":
            if "3rd" in line:
                return None
            boards = re.findall(r"\[([^\]]*)\]", line)
            if boards:
                raise Unsupported(f"line {number}: a stud card dealt to the board")
            b.street()
            return set() if "RIVER" in line else None
        elif "FLOP" in line or "TURN" in line or "RIVER" in line:
            b.street()
            boards = re.findall(r"\[([^\]]*)\]", line)
            if boards:
                b.board(cards(boards[-1]))
        return None

    def dealt_line(self, b: HandBuilder, line: str, river: set[str] | None) -> None:
        name, _, dealt = line[9:].partition(" [")
        if name not in b.seats or not dealt:
            return
        new = cards(dealt.rsplit("[", 1)[-1])
        if b.dealing == "stud":
            if name not in b.dealt:  # 3rd street: every card shown (or the up one)
                new = cards(dealt.replace("] [", " "))
                new = "????" + new if len(new) == 2 else new
            b.deal_up(name, new)
            if river is not None:
                river.add(name)
        elif b.dealing == "draw" and b.events:
            b.drawn(name, new)
        elif b.dealing != "stud":
            b.deal(name, new)

    @staticmethod
    def deal_river(b: HandBuilder, dealt: set[str]) -> None:
        for name in sorted(b.seats, key=lambda n: b.seats[n][0]):
            if name in b.dealt_in() and name not in b.folded and name not in dealt:
                b.deal_up(name, "??")

    @staticmethod
    def split(line: str, names: list[str]) -> tuple[str | None, str]:
        head, sep, rest = line.partition(": ")
        if sep and head in names:
            return head, rest
        for name in names:
            if line.startswith(name + ": "):
                return name, line[len(name) + 2 :]
        return None, line

    def action(self, b: HandBuilder, name: str, rest: str, number: int, showdown: bool) -> None:
        for verb, pattern in _BY_WORD.get(rest.split(" ", 1)[0], ()):
            m = pattern.match(rest)
            if m is None:
                continue
            if verb in ("sb", "bb", "ante", "straddle", "dead"):
                b.post(name, verb, amount(m.group(1)), number)
            elif verb == "sbbb":  # a live big blind and the small one dead
                total = amount(m.group(1))
                big = b.stakes.get("min_bet") or b.stakes.get("small_bet") or total
                big = min(big, total)
                b.post(name, "post", big, number)
                if total - big:
                    b.post(name, "dead", total - big, number)
            elif verb == "f":
                b.act(name, "f", None, number)
            elif verb == "check":
                b.act(name, "cc", None, number)
            elif verb == "call":
                b.act(name, "cc", amount(m.group(1)), number)
            elif verb == "bet":
                b.act(name, "cbr", amount(m.group(1)), number)
            elif verb == "raise" or verb == "complete":
                b.act(name, "cbr", amount(m.group(m.lastindex or 1)), number)
            elif verb == "shows":
                if b.dealing == "flop":
                    b.deal(name, cards(m.group(1)))
                elif showdown:
                    b.show(name, cards(m.group(1)))
            elif verb == "bring":
                b.stakes.setdefault("bring_in", amount(m.group(1)))
                b.act(name, "pb", amount(m.group(1)), number)
            elif verb == "discard":
                d = _DISCARD.match(rest)
                count = int(d.group(1)) if d is not None else 0
                shown = cards(d.group(2) or "") if d is not None else ""
                b.discard(name, count, shown, number)
            return
        # chat, time-outs, joins and leaves: not the hand's

    def summary_line(self, b: HandBuilder, number: int, line: str) -> None:
        if line.startswith("Total pot"):
            m = _TOTAL.match(line)
            if m is not None:
                b.figures.total_pot = (amount(m.group(1)), number)
            fees: int | Decimal = 0
            for _, value in _FEES.findall(line):
                fees += amount(value)
            b.figures.rake = (fees, number)
            return
        won = _SUMMARY_WON.match(line)
        if won is not None and won.group(1) in b.seats:
            self._summary_won.append((won.group(1), amount(won.group(2)), number))
        m = _SUMMARY_SHOW.match(line) if b.dealing == "flop" else None
        if m is not None and m.group(1) in b.seats:
            b.deal(m.group(1), cards(m.group(2)))
