"""Winamax hand histories: PokerStars' grammar (:mod:`.pokerstars`) with Winamax's words.

A hand starts ``Winamax Poker - CashGame - HandId: #4489532-965-1366095481 - Holdem no
limit (0.50/1) - ...`` (tournaments: ``Tournament "name" buyIn: ... level: 2 - HandId:
... (ante/small/big)``), the table line is ``Table: 'name' 5-max ... Seat #2 is the
button``, seats carry no ``in chips`` (``Seat 1: name (212.27€)``), actions have no
colon after the name (``name raises 11.29 to 12.29``), the blinds come under ``***
ANTE/BLINDS ***`` and ``*** PRE-FLOP ***``, a big blind posted out of turn says ``out of
position``, and the summary says ``Total pot 102.66 | Rake 2.50`` or ``| No rake``.
Hold'em and Omaha (hi and hi-lo) are read; the stud and draw games are reported as
unsupported.
"""

from __future__ import annotations

import re

from cardlab.errors import HistoryError
from cardlab.table.sites import pokerstars
from cardlab.table.sites._text import HandBuilder, Unsupported

START = re.compile(r"Winamax Poker - ")
"""The first line of a Winamax hand."""

_HAND_ID = re.compile(r"HandId: #([\w-]+)")
_SEAT = re.compile(r"Seat (\d+): (.+?) \(([^(),]*)(?:,[^()]*)?\)(.*)$")
_GAMES = [
    ("omaha5", "five-card Omaha is not played by cardlab"),
    ("omaha8 pot limit", "PO/8"),
    ("omaha8 fixed limit", "FO/8"),
    ("omaha pot limit", "PO"),
    ("omaha no limit", "NO"),
    ("holdem no limit", "NT"),
    ("holdem pot limit", "PT"),
    ("holdem fixed limit", "FT"),
]


class Reader(pokerstars.Reader):
    site = "winamax"
    start = START
    hand_number = _HAND_ID

    def hand(self, block: list[tuple[int, str]]) -> HandBuilder:
        first, header = block[0]
        lower = header.lower()
        for words, code in _GAMES:
            if words in lower:
                if " " in code:
                    raise Unsupported(code)
                name = "Omaha Hi/Lo" if "/8" in code else "Omaha" if "omaha" in words else "Hold'em"
                text = f"{name} {_BETTING[code[0]]}"
                break
        else:
            raise Unsupported(f"no game cardlab plays (or reads at Winamax) in {header[:90]!r}")
        stakes = re.findall(r"\(([^()]*\d[^()]*/[^()]*)\)", header)
        if not stakes:
            raise HistoryError(f"line {first}: no stakes in {header[:80]!r}")
        parts = stakes[-1].split("/")
        small, big = (re.sub(r"[^\d.,]", "", p) for p in parts[-2:])  # (ante/sb/bb) in MTTs
        hand_id = self.hand_id(header, first)
        rewritten = f"PokerStars Hand #{hand_id}: HandId: #{hand_id} {text} ({small}/{big})"
        if "Tournament" in header:
            rewritten += " Tournament"
        lines = [(first, rewritten)]
        for number, line in block[1:]:
            lines.append((number, self.translate(line)))
        b = super().hand(lines)
        b.site = self.site
        b.figures.pot_after_rake = True
        b.figures.collected_with_uncalled = "always"
        return b

    @staticmethod
    def translate(line: str) -> str:
        """A Winamax line in PokerStars' words."""
        if line.startswith("Table: "):
            return "Table " + line[7:]
        if line.startswith("Seat ") and " in chips" not in line:
            m = _SEAT.match(line)
            if m is not None and re.search(r"\d", m.group(3)):
                return f"Seat {m.group(1)}: {m.group(2)} ({m.group(3)} in chips){m.group(4)}"
        if line.startswith("*** ANTE/BLINDS") or line.startswith("*** PRE-FLOP"):
            return "*** HOLE CARDS ***"
        if line.startswith("Total pot") and "No rake" in line:
            return line.replace("No rake", "Rake 0")
        return line.replace(" out of position", "")

    @staticmethod
    def split(line: str, names: list[str]) -> tuple[str | None, str]:
        for name in names:  # the longest first: no colon after the name
            if line.startswith(name + " "):
                rest = line[len(name) + 1 :]
                if rest[:1] == ":":
                    rest = rest[1:].lstrip()
                if not rest.startswith(("collected", "won ")):
                    return name, rest
        return None, line


_BETTING = {"N": "No Limit", "P": "Pot Limit", "F": "Limit"}
