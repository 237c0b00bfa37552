"""888poker (Pacific Poker) hand histories, and the bracketed grammar partypoker shares.

A hand starts ``#Game No : 526119469`` and ``***** 888poker Hand History for Game ...
*****``, then the stakes and game (``$25/$50 Blinds Pot Limit Omaha - *** 03 12
2015``), the table, ``Seat 2 is the button``, ``Seat 2: name ( 15 788,50 $ )`` per
player, the forced bets and actions with their amounts in brackets (``name posts small
blind [25 $]``, ``name raises [125 $]``), streets as ``** Dealing flop ** [ 2d, Ks, 7d
]`` and what each collected (``name collected [ 299 $ ]``). Every bracketed amount is
what the action *adds* (a raise of ``[125]`` over a small blind of 25 goes to 150).
888 writes neither the uncalled bet (the actions say it), nor the rake, nor the total
pot: the check is the collected amounts (never more than the replay's) and the stacks.
"""

from __future__ import annotations

import re
from decimal import Decimal

from cardlab.errors import HistoryError
from cardlab.table.sites._text import HandBuilder, Unsupported, cards
from cardlab.table.sites._text import amount as _amount

__all__ = ["START", "HandBuilder", "Reader"]

START = re.compile(r"#Game No\s*:\s*\d+")
"""The first line of an 888poker (or partypoker) hand."""


def amount(text: str) -> int | Decimal:
    """An amount as 888 writes it (its Romanian site: ``3.000`` chips)."""
    return _amount(text, dotted_thousands=True)


_HAND_ID = re.compile(r"#Game No\s*:\s*(\d+)")
_SEAT = re.compile(r"[Ss]eat (\d+): (.+?) \(\s*([^()]*?)\s*\)(.*)$")
_BUTTON = re.compile(r"Seat (\d+) is the button")
_BR = r"[\[(]\s*([^\])]*?)\s*[\])]"  # an amount in brackets (or parentheses)
_VERBS: list[tuple[str, re.Pattern[str]]] = [
    ("sb", re.compile(rf"posts small blind {_BR}")),
    ("bb", re.compile(rf"posts big blind {_BR}")),
    ("ante", re.compile(rf"posts ante {_BR}")),
    ("dead", re.compile(rf"posts dead blind {_BR}")),
    ("f", re.compile(r"folds")),
    ("check", re.compile(r"checks")),
    ("call", re.compile(rf"calls {_BR}")),
    ("bet", re.compile(rf"bets {_BR}")),
    ("raise", re.compile(rf"raises {_BR}")),
    ("allin", re.compile(rf"is all-In\s+{_BR}")),
    ("shows", re.compile(r"shows \[([^\]]*)\]")),
    ("collected", re.compile(rf"collected {_BR}")),
    ("collected", re.compile(r"wins (\S*\d[\d,.]*(?: USD| EUR)?)(?: chips)?")),
]
_GAME_LINE = re.compile(r"Hold|Omaha|Stud|Razz|Draw|Badugi")
_GAMES = [
    ("Omaha Hi-Lo", {"FL": "FO/8", "PL": "PO/8", "NL": "NO/8"}, 4),
    ("Omaha", {"FL": "FO", "PL": "PO", "NL": "NO"}, 4),
    ("Hold", {"FL": "FT", "PL": "PT", "NL": "NT"}, 2),
]


def _betting(line: str) -> str:
    if "Pot Limit" in line or re.search(r"\bPL\b", line):
        return "PL"
    if "No Limit" in line or re.search(r"\bNL\b", line):
        return "NL"
    return "FL"  # "Fix Limit", "FL", and partypoker's old "Texas Hold'em" alone


class Reader:
    """The bracketed grammar; ``site`` names the site."""

    site = "pacific"
    start = START
    collected_with_uncalled = "uncontested"  # "collected" ("wins") holds the uncalled bet

    def hand_id(self, header: str, line: int) -> str:
        m = _HAND_ID.match(header)
        if m is None:
            raise HistoryError(f"line {line}: no hand number in {header[:80]!r}")
        return m.group(1)

    def game(self, b: HandBuilder, line: str, number: int) -> None:
        """The variant, hole cards and limits of the stakes-and-game line."""
        for words, codes, hole in _GAMES:
            if words in line:
                b.variant, b.hole_cards = codes[_betting(line)], hole
                break
        else:
            raise Unsupported(f"line {number}: no game cardlab plays in {line[:80]!r}")
        stakes = re.search(r"([^\s/(]*\d[^\s/]*)\s*/\s*([^\s/)]*\d[^\s)]*)", line)
        if stakes is not None:
            small, big = amount(stakes.group(1)), amount(stakes.group(2))
            if b.variant.startswith("F") and "Blinds" in line:  # 888: the blinds
                b.stakes = {"small_bet": big, "big_bet": 2 * big}
            elif b.variant.startswith("F"):
                b.stakes = {"small_bet": small, "big_bet": big}
            else:
                b.stakes = {"min_bet": big}

    def hand(self, block: list[tuple[int, str]]) -> HandBuilder:
        first, header = block[0]
        b = HandBuilder(self.site, self.hand_id(header, first), first)
        b.figures.collected_with_uncalled = self.collected_with_uncalled
        names: list[str] = []
        have_game = False
        for number, line in block[1:]:
            if not have_game and _GAME_LINE.search(line) and "Hand History" not in line:
                self.game(b, line, number)
                have_game = True
                continue
            if "cancelled" in line.lower():
                raise Unsupported(f"line {number}: the hand was cancelled")
            if line.startswith("** Dealing") or line.startswith("** Summary"):
                if "down cards" not in line and "Summary" not in line:
                    b.street()
                    board = re.findall(r"\[([^\]]*)\]", line)
                    if board:
                        b.board(cards(board[-1]))
                continue
            m = _BUTTON.match(line)
            if m is not None:
                b.button = int(m.group(1))
                continue
            m = _SEAT.match(line)
            if m is not None and not b.events and re.search(r"\d", m.group(3)):
                b.seat(int(m.group(1)), m.group(2), amount(m.group(3)), number)
                names = sorted(b.seats, key=len, reverse=True)
                continue
            if line.startswith("Dealt to "):
                name, _, dealt = line[9:].partition(" [")
                if name in b.seats:
                    b.deal(name, cards(dealt))
                continue
            for name in names:
                if line.startswith(name + " "):
                    self.action(b, name, line[len(name) + 1 :], number)
                    break
        if not have_game:
            raise HistoryError(f"line {first}: no game and stakes line")
        if not b.figures.collected:
            raise Unsupported("a partial hand: nobody collects")
        if "min_bet" not in b.stakes and not b.variant.startswith("F"):
            b.stakes = {"min_bet": b.blinds.get(b.big_blind or "", 0) or 1}
        return b

    def action(self, b: HandBuilder, name: str, rest: str, number: int) -> None:
        for verb, pattern in _VERBS:
            m = pattern.match(rest)
            if m is None:
                continue
            value = amount(m.group(1)) if verb not in ("f", "check", "shows") else 0
            if verb in ("sb", "bb", "ante", "dead"):
                b.post(name, verb, value, number)
            elif verb == "f":
                b.act(name, "f", None, number)
            elif verb == "check":
                b.act(name, "cc", None, number)
            elif verb == "call":
                b.act(name, "cc", value, number)
            elif verb in ("bet", "raise", "allin"):
                b.raise_by(name, value, number, all_in=verb == "allin")
            elif verb == "shows":
                b.deal(name, cards(m.group(1)))
            elif verb == "collected":
                b.collected(name, value, number)
            return
