"""The bet-size grammar of the established postflop solvers, parsed and printed.

A list of sizes is written comma-separated; each size ends in one letter:

=============  ===================================================================
``70%``        a bet of 70% of the pot (for a raise: the previous bet plus 70% of the
               pot after calling it, PioSOLVER's convention)
``2.5x``       a raise to 2.5 times the previous bet (raises only)
``100c``       a constant 100 chips (for a raise: the previous bet plus 100)
``20c3r``      a constant raise with a cap: at most 3 raises after the first bet, no
               raise once 4 bets were made (raises only; fixed-limit games)
``e``          the geometric size: the same fraction of the pot on every street left
               ends all in (3 streets on the flop, 2 on the turn, 1 on the river)
``2e``         geometric over 2 streets; ``3e200%``: at most 200% of the pot. For a
               raise, the raises already made are taken off the streets
``a``          all in
=============  ===================================================================

>>> parse_sizes("60%, e, a")
(BetSize('60%'), BetSize('e'), BetSize('a'))
>>> parse_sizes("2.5x", raise_sizes=True)[0].kind
'x'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from cardlab.errors import GameError

POT, PREVIOUS, CONSTANT, GEOMETRIC, ALL_IN = "%", "x", "c", "e", "a"

_NUMBER = r"(\d+(?:\.\d+)?)"
_PATTERNS = (
    (POT, re.compile(rf"^{_NUMBER}%$")),
    (PREVIOUS, re.compile(rf"^{_NUMBER}x$")),
    (CONSTANT, re.compile(r"^(\d+)c(?:(\d+)r)?$")),
    (GEOMETRIC, re.compile(rf"^(\d*)e(?:{_NUMBER}%)?$")),
    (ALL_IN, re.compile(r"^a$")),
)
MAX_SIZES = 8  # sizes in one list: more would make trees no computer holds


@dataclass(frozen=True, slots=True)
class BetSize:
    """One size of the grammar (see the module's table); ``str`` gives it back."""

    kind: str
    value: float = 0.0  # percent of the pot, multiple of the bet, or chips
    streets: int = 0  # geometric: streets to be all in after (0: those left)
    cap: int = 0  # constant raises: raises allowed after the first bet (0: any); geometric: unused
    max_percent: float = math.inf  # geometric: the largest size, in % of the pot

    def __str__(self) -> str:
        if self.kind == POT:
            return f"{_number(self.value)}%"
        if self.kind == PREVIOUS:
            return f"{_number(self.value)}x"
        if self.kind == CONSTANT:
            return f"{int(self.value)}c" + (f"{self.cap}r" if self.cap else "")
        if self.kind == GEOMETRIC:
            top = "" if math.isinf(self.max_percent) else f"{_number(self.max_percent)}%"
            return f"{self.streets or ''}e{top}"
        return "a"

    def __repr__(self) -> str:
        return f"BetSize({str(self)!r})"


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def parse_size(text: str, *, raise_sizes: bool = False, donk: bool = False) -> BetSize:
    """One size; an error names the text and what the grammar allows."""
    item = text.strip().lower()
    for kind, pattern in _PATTERNS:
        match = pattern.match(item)
        if not match:
            continue
        if kind == POT:
            value = float(match.group(1))
            if not 0 < value <= 100_000:
                raise GameError(f"a pot-relative size must be above 0%, got {text!r}")
            return BetSize(POT, value)
        if kind == PREVIOUS:
            if not raise_sizes:
                raise GameError(f"{text!r}: sizes in x of the previous bet are for raises only")
            value = float(match.group(1))
            if not 1 < value <= 1000:
                raise GameError(f"a raise must be more than 1x the previous bet, got {text!r}")
            return BetSize(PREVIOUS, value)
        if kind == CONSTANT:
            chips, cap = int(match.group(1)), int(match.group(2) or 0)
            if chips <= 0:
                raise GameError(f"a constant size must be at least 1 chip, got {text!r}")
            if match.group(2) is not None and not raise_sizes:
                raise GameError(f"{text!r}: a raise cap (r) is for raises only")
            if match.group(2) is not None and cap <= 0:
                raise GameError(f"a raise cap must be at least 1, got {text!r}")
            return BetSize(CONSTANT, float(chips), cap=cap)
        if kind == GEOMETRIC:
            streets = int(match.group(1) or 0)
            if match.group(1) and not 1 <= streets <= 100:
                raise GameError(f"a geometric size takes 1 to 100 streets, got {text!r}")
            top = float(match.group(2)) if match.group(2) else math.inf
            if top <= 0:
                raise GameError(f"a geometric size's largest size must be above 0%, got {text!r}")
            return BetSize(GEOMETRIC, streets=streets, max_percent=top)
        return BetSize(ALL_IN)
    kinds = "N% (of the pot), Nx (raises), Nc, NcMr (raises), e, Ne, NeM%, a (all in)"
    what = "donk size" if donk else "raise size" if raise_sizes else "bet size"
    raise GameError(f"not a {what}: {text!r} (expected {kinds})")


def parse_sizes(text: str, *, raise_sizes: bool = False, donk: bool = False) -> tuple[BetSize, ...]:
    """A comma-separated list of sizes; the empty text is no size (the action is not
    offered)."""
    if not isinstance(text, str):
        raise GameError(f"bet sizes must be text like '60%, a', got {text!r}")
    items = [t for t in (s.strip() for s in text.split(",")) if t]
    if len(items) > MAX_SIZES:
        raise GameError(f"at most {MAX_SIZES} sizes in one list, got {len(items)}: {text!r}")
    out = [parse_size(t, raise_sizes=raise_sizes, donk=donk) for t in items]
    return tuple(dict.fromkeys(out))


def format_sizes(sizes: tuple[BetSize, ...]) -> str:
    """The list as it is written: ``parse_sizes(format_sizes(s)) == s``."""
    return ", ".join(map(str, sizes))


@dataclass(frozen=True, slots=True)
class StreetSizes:
    """One player's sizes on one street: first bets and raises."""

    bets: tuple[BetSize, ...] = ()
    raises: tuple[BetSize, ...] = ()

    @classmethod
    def parse(cls, bets: str, raises: str) -> StreetSizes:
        return cls(parse_sizes(bets), parse_sizes(raises, raise_sizes=True))

    def as_dict(self) -> dict[str, str]:
        return {"bets": format_sizes(self.bets), "raises": format_sizes(self.raises)}
