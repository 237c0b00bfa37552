"""Full Tilt Poker hand histories, read as PokerStars' grammar (:mod:`.pokerstars`).

Full Tilt wrote nearly PokerStars' text with other words, and each line is put in
PokerStars' words before the PokerStars reader reads it: the first line ``Full Tilt
Poker Game #29704107511: Table Jackrabbit (6 max) - $2.50/$5 - Limit Omaha H/L - ...``,
``The button is in seat #4``, seats without ``in chips`` (``Seat 2: name ($99.40)``),
actions with no colon after the name (``name posts the small blind of $1.25``, ``name
raises to $20``, ``name antes 150``, ``name completes it to 800``), ``Uncalled bet of
$5 returned to name``, what each won (``name wins the pot ($28.50)``, ``name ties for
the side pot ($3)``), stud streets ``*** 3RD STREET ***`` to ``*** 7TH STREET ***``.
Full Tilt wrote the rake (``Total pot $30 | Rake $1.50``) as PokerStars does.
"""

from __future__ import annotations

import re

from cardlab.errors import HistoryError
from cardlab.table.sites import pokerstars
from cardlab.table.sites._text import HandBuilder, Unsupported

START = re.compile(r"Full ?Tilt ?Poker Game #")
"""The first line of a Full Tilt hand."""

_HAND_ID = re.compile(r"Game #(\d+)")
_SEAT = re.compile(r"Seat (\d+): (.+?) \(([^()]*\d[^()]*)\)(.*)$")
# Full Tilt's game names -> PokerStars' (the betting is added from the same line)
_GAMES = [
    ("5 Card Omaha", None),
    ("Courchevel", None),
    ("Omaha H/L", "Omaha Hi/Lo"),
    ("Omaha", "Omaha"),
    ("Hold'em", "Hold'em"),
    ("Stud H/L", "7 Card Stud Hi/Lo"),
    ("Stud", "7 Card Stud"),
    ("Razz", "Razz"),
    ("2-7 Triple Draw", "Triple Draw 2-7 Lowball"),
    ("2-7 Single Draw", "Single Draw 2-7 Lowball"),
    ("5 Card Draw", "5 Card Draw"),
    ("Badugi", "Badugi"),
]
_VERBS = [
    (re.compile(r"posts the small blind of (\S+), and is all in$"), r"posts small blind \1"),
    (re.compile(r"posts the small blind of (.*)$"), r"posts small blind \1"),
    (re.compile(r"posts the big blind of (\S+), and is all in$"), r"posts big blind \1"),
    (re.compile(r"posts the big blind of (.*)$"), r"posts big blind \1"),
    (re.compile(r"posts a dead small blind of (.*)$"), r"posts missed blind \1"),
    (re.compile(r"antes (\S+), and is all in$"), r"posts the ante \1"),
    (re.compile(r"antes (.*)$"), r"posts the ante \1"),
    (re.compile(r"raises to (\S+)(?: and is all in)?$"), r"raises \1 to \1"),
    (re.compile(r"(bets|calls) (\S+)(?: and is all in)?$"), r"\1 \2"),
    (re.compile(r"completes it to (\S+)(?: and is all in)?$"), r"raises \1 to \1"),
    (re.compile(r"brings in for (\S+)(?: and is all in)?$"), r"brings in for \1"),
    (re.compile(r"(folds|checks)$"), r"\1"),
    (re.compile(r"shows (\[.*)$"), r"shows \1"),
    (re.compile(r"(discards|stands pat)(.*)$"), r"\1\2"),
]
_WINS = re.compile(
    r"(.+?) (?:wins|ties for) the (?:high |low |main |side )*pot(?: #?\d+)? \((\S+)\)"
)


class Reader(pokerstars.Reader):
    site = "fulltilt"
    start = START
    hand_number = _HAND_ID

    def hand(self, block: list[tuple[int, str]]) -> HandBuilder:
        first, header = block[0]
        hand_id = self.hand_id(header, first)
        for words, name in _GAMES:
            if words in header:
                if name is None:
                    raise Unsupported(f"{words} is not played by cardlab")
                break
        else:
            raise Unsupported(f"no game cardlab plays in {header[:90]!r}")
        betting = "Pot Limit" if "Pot Limit" in header or " PL " in header else None
        betting = betting or ("No Limit" if "No Limit" in header or " NL " in header else "Limit")
        stakes = re.search(r"(\S*\d[\d,.]*)/(\S*\d[\d,.]*)", header.split(" - ", 1)[-1])
        if stakes is None:
            raise HistoryError(f"line {first}: no stakes in {header[:80]!r}")
        text = f"PokerStars Game #{hand_id}: {name} {betting} ({stakes.group(1)}/{stakes.group(2)})"
        if "Sit & Go" in header or "Tournament" in header or "Guarantee" in header:
            text += " Tournament"
        names: list[str] = []
        lines = [(first, text)]
        button = ""
        for number, line in block[1:]:
            m = _SEAT.match(line)
            if m is not None and " in chips" not in line and number < first + 15 + len(names):
                lines.append((number, f"Seat {m.group(1)}: {m.group(2)} ({m.group(3)} in chips)"))
                names.append(m.group(2))
                continue
            found = re.match(r"The button is in seat #(\d+)", line)
            if found is not None:
                button = found.group(1)
                continue
            lines.append((number, self.translate(line, sorted(names, key=len, reverse=True))))
        if button:
            lines.insert(1, (first, f"Table 'ftp' Seat #{button} is the button"))
        b = super().hand(lines)
        b.site = self.site
        return b

    @staticmethod
    def translate(line: str, names: list[str]) -> str:
        """A Full Tilt line in PokerStars' words."""
        if line.startswith("***"):
            line = re.sub(r"\s*\(Total Pot.*$", "", line)
            line = line.replace("7TH STREET", "RIVER")
            return re.sub(
                r"(\d)(RD|TH) STREET", lambda m: f"{m.group(1)}{m.group(2).lower()} STREET", line
            )
        m = re.match(r"Uncalled bet of (\S+) returned to (.+)$", line)
        if m is not None:
            return f"Uncalled bet ({m.group(1)}) returned to {m.group(2)}"
        m = _WINS.match(line)
        if m is not None:
            return f"{m.group(1)} collected {m.group(2)} from pot"
        for name in names:
            if line.startswith(name + " "):
                rest = line[len(name) + 1 :]
                for pattern, words in _VERBS:
                    if pattern.match(rest):
                        return f"{name}: {pattern.sub(words, rest, count=1)}"
                return f"{name} said: {rest}"  # nothing the hand needs
        return line
