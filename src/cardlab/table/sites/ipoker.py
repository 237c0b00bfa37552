"""iPoker network hand histories (XML): ``<session>``, its ``<gametype>``, and one
``<game gamecode="...">`` per hand.

A game lists its ``<player>`` elements (``seat``, ``name``, ``chips``: the starting
stack, ``dealer="1"``: the button, ``win``: what the player got back, the uncalled bet
with it) and its ``<round>`` elements, whose ``<action no="7" type="23" sum="€0.70"
player="name"/>`` are numbered in the order they happened (a file may list them in
another order) and whose ``<cards type="Flop">C7 D10 S4</cards>`` are the boards and
``<cards type="Pocket" player="name">S8 HK C6 C8</cards>`` the hole cards (``X``: not
seen; suit first). Each ``sum`` is what the action adds. Action types: 0 fold, 1 small
blind, 2 big blind, 3 call, 4 check, 5 bet, 7 all-in, 15 ante, 23 raise (8 and 9: not
in the hand). iPoker writes no rake and no total pot. The file is cut into games as it
is read (a game at a time), whatever its line breaks; stud is reported as unsupported.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from cardlab.errors import HistoryError
from cardlab.table.sites._text import HandBuilder, Unsupported, amount

_GAME_START = re.compile(r"<game\b")
_GAME_END = "</game>"
_GAMETYPE = re.compile(r"<gametype>([^<]*)</gametype>")
_CARD = re.compile(r"([SHDC])(10|[2-9TJQKA])", re.I)
_GAMES = [
    ("6+", None),
    ("stud", None),
    ("5 card omaha", None),
    ("5cplo", None),
    ("omaha hi-lo", {"FL": "FO/8", "PL": "PO/8", "NL": "NO/8"}),
    ("omaha", {"FL": "FO", "PL": "PO", "NL": "NO"}),
    ("holdem", {"FL": "FT", "PL": "PT", "NL": "NT"}),
    ("hold'em", {"FL": "FT", "PL": "PT", "NL": "NT"}),
]


def blocks(lines: Iterator[tuple[int, str]]) -> Iterator[list[tuple[int, str]]]:
    """Each game as [(its first line, ``gametype``), (its first line, its XML)]."""
    gametype = ""
    buffer: list[str] = []
    first = 0
    for number, line in lines:
        found = _GAMETYPE.search(line)
        if found is not None and not buffer:
            gametype = found.group(1)
        rest = line
        while rest:
            if not buffer:
                start = _GAME_START.search(rest)
                if start is None:
                    break
                first, rest = number, rest[start.start() :]
            end = rest.find(_GAME_END)
            if end < 0:
                buffer.append(rest)
                break
            buffer.append(rest[: end + len(_GAME_END)])
            yield [(first, gametype), (first, "\n".join(buffer))]
            buffer, rest = [], rest[end + len(_GAME_END) :]
    if buffer:  # the file ends inside a game
        yield [(first, gametype), (first, "\n".join(buffer))]


def _cards(text: str) -> str:
    out = []
    for word in text.split():
        m = _CARD.fullmatch(word)
        if m is None:
            out.append("??")
        else:
            rank = "T" if m.group(2) == "10" else m.group(2).upper()
            out.append(rank + m.group(1).lower())
    return "".join(out)


def _betting(gametype: str) -> str:
    words = gametype.lower()
    if " pl" in words or "pot limit" in words:
        return "PL"
    if " nl" in words or "no limit" in words or "бл" in words:
        return "NL"
    return "FL"


class Reader:
    site = "ipoker"
    start = _GAME_START

    def hand_id(self, header: str, line: int) -> str:
        m = re.search(r'gamecode="([^"]*)"', header)
        if m is None:
            raise HistoryError(f"line {line}: no gamecode")
        return m.group(1)

    def hand(self, block: list[tuple[int, str]]) -> HandBuilder:
        (first, gametype), (_, text) = block
        b = HandBuilder(self.site, self.hand_id(text, first), first)
        for words, codes in _GAMES:
            if words in gametype.lower():
                if codes is None:
                    raise Unsupported(f"{gametype!r} is not read (only Hold'em and Omaha)")
                b.variant = codes[_betting(gametype)]
                b.hole_cards = 4 if "O" in b.variant else 2
                break
        else:
            raise Unsupported(f"no game cardlab plays in {gametype!r}")
        if not text.rstrip().endswith(_GAME_END):
            raise Unsupported("a partial hand: the file ends inside it")
        try:
            game = ET.fromstring(text)
        except ET.ParseError as exc:
            raise HistoryError(f"line {first}: not XML: {exc}") from None
        self.players(b, game, first)
        self.play(b, game, first)
        stakes = re.search(r"(\S*\d[\d.,]*)\s*/\s*(\S*\d[\d.,]*)", gametype)
        big = b.blinds.get(b.big_blind or "", 0)
        if b.variant.startswith("F"):
            if stakes is None:
                raise HistoryError(f"line {first}: no stakes in {gametype!r}")
            b.stakes = {"small_bet": amount(stakes.group(1)), "big_bet": amount(stakes.group(2))}
        else:
            b.stakes = {"min_bet": amount(stakes.group(2)) if stakes is not None else big or 1}
        b.figures.collected_with_uncalled = "always"
        return b

    @staticmethod
    def players(b: HandBuilder, game: ET.Element, line: int) -> None:
        for player in game.iter("player"):
            name, seat = player.get("name", ""), player.get("seat", "")
            if not name and player.get("chips", "0").strip("$€£0.,") == "":
                continue  # an empty seat
            if not name or not seat.isdigit():
                raise HistoryError(f"line {line}: a player without a name or seat")
            b.seat(int(seat), name, amount(player.get("chips") or "0"), line)
            if player.get("dealer") == "1":
                b.button = int(seat)

    @staticmethod
    def play(b: HandBuilder, game: ET.Element, line: int) -> None:
        actions = []
        boards: dict[int, str] = {}
        for rnd in game.iter("round"):
            number = int(rnd.get("no", "0"))
            for item in rnd:
                if item.tag == "action":
                    actions.append((int(item.get("no", "0")), number, item))
                elif item.tag == "cards":
                    kind, who = item.get("type", ""), item.get("player", "")
                    if kind == "Pocket" and who in b.seats:
                        b.deal(who, _cards(item.text or ""))
                    elif kind in ("Flop", "Turn", "River"):
                        boards[number] = _cards(item.text or "")
        actions.sort(key=lambda a: a[0])
        street = 1
        for _, number, item in actions:
            while number > street and street >= 1:
                street += 1
                b.street()
                if street in boards:
                    b.board(boards[street])
            name = item.get("player", "")
            kind = item.get("type", "")
            value = amount(item.get("sum") or "0")
            if kind in ("8", "9") or name not in b.seats:
                continue
            if kind == "1":
                b.post(name, "sb", value, line)
            elif kind == "2":
                b.post(name, "bb", value, line)
            elif kind == "15":
                b.post(name, "ante", value, line)
            elif kind == "0":
                b.act(name, "f", None, line)
            elif kind == "4":
                b.act(name, "cc", None, line)
            elif kind == "3":
                b.act(name, "cc", value, line)
            elif kind in ("5", "23", "7"):
                b.raise_by(name, value, line, all_in=kind == "7")
            else:
                raise Unsupported(f"line {line}: action type {kind} is not read")
        while street < 4 and any(r > street for r in boards):  # an all-in's runout
            street += 1
            b.street()
            if street in boards:
                b.board(boards[street])
        for player in game.iter("player"):
            won = amount(player.get("win") or "0")
            if won and player.get("name") in b.seats:
                b.collected(player.get("name", ""), won, line)
