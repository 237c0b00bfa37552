"""GGPoker hand histories: PokerStars' grammar (:mod:`.pokerstars`) with GGPoker's first
line (``Poker Hand #RC123: Hold'em No Limit ($0.02/$0.05)``), its game names (``PLO``,
``PLO-5``, ``ShortDeck``), straddles, and fees after the rake (``| Jackpot 0 | Bingo
0``, counted with it). A hand run twice (``*** FIRST FLOP ***``, ``*** SECOND FLOP
***``) replays with the engine's runs (``_runs``, docs/phh.md); all-in insurance and
cash-out lines are kept as the hand's notes.
"""

from __future__ import annotations

import re

from cardlab.table.sites import pokerstars
from cardlab.table.sites._text import Unsupported

START = re.compile(r"Poker Hand #")
"""The first line of a GGPoker hand."""

_NAMES = [
    ("PLO-6", "six-card Omaha is not played by cardlab"),
    ("PLO-5", "five-card Omaha is not played by cardlab"),
    ("ShortDeck", "GGPoker's short deck (ante and button blind) is not read yet"),
    ("(NL postflop)", "Omaha no-limit after the flop only is not played by cardlab"),
]


class Reader(pokerstars.Reader):
    site = "ggpoker"
    start = START

    def hand(self, block: list[tuple[int, str]]) -> pokerstars.HandBuilder:
        header = block[0][1]
        for words, why in _NAMES:
            if words in header:
                raise Unsupported(why)
        if re.search(r": PLO[ (]", header):
            block = [(block[0][0], header.replace(": PLO", ": Omaha Pot Limit", 1)), *block[1:]]
        return super().hand(block)
