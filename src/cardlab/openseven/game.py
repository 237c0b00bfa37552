"""Open Seven (Open-N): the game description, its moves and its states.

The rules are those of ``docs/open-seven.md``: N cards face down in a row, positions
1..N from the left; turn any card up, then keep turning the card at position n from
the left or from the right, n being the value just turned. A :class:`Game` is the
immutable description (how many cards); a :class:`State` is an immutable position in
one deal, whose :meth:`State.apply` returns the next state.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Union

from cardlab.errors import GameError

MAX_CARDS = 1000  # a sanity bound for user input; the analyses have their own limits


class OpenSevenError(GameError):
    """An illegal Open Seven move, a bad arrangement or a request out of range."""


def check_cards(cards: int, *, low: int = 1, high: int = MAX_CARDS, what: str = "") -> int:
    """``cards`` if ``low <= cards <= high``, else an :class:`OpenSevenError`."""
    if isinstance(cards, bool) or not isinstance(cards, int) or not low <= cards <= high:
        purpose = f" for {what}" if what else ""
        raise OpenSevenError(f"number of cards{purpose} must be {low}..{high}: {cards!r}")
    return cards


def parse_arrangement(text: str | Iterable[int], cards: int | None = None) -> tuple[int, ...]:
    """``"2 3 1"`` or ``[2, 3, 1]`` -> ``(2, 3, 1)``: the values left to right.

    Accepts spaces or commas between values. The result must be a permutation of
    1..N (N = ``cards`` if given, else its length).
    """
    raw = text
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
        try:
            values = tuple(int(part) for part in parts)
        except ValueError:
            raise OpenSevenError(f"arrangement must be whole numbers: {raw!r}") from None
    else:
        values = tuple(text)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            raise OpenSevenError(f"arrangement must be whole numbers: {raw!r}")
    n = len(values) if cards is None else cards
    if n < 1 or len(values) != n or sorted(values) != list(range(1, n + 1)):
        shown = raw if isinstance(raw, str) else " ".join(map(str, values))
        raise OpenSevenError(f"not a permutation of 1..{max(n, 1)}: {shown!r}")
    return values


def format_arrangement(values: Sequence[int]) -> str:
    """``(2, 3, 1)`` -> ``"2 3 1"`` (the inverse of :func:`parse_arrangement`)."""
    return " ".join(str(v) for v in values)


class Side(enum.Enum):
    """Which end of the row a call counts from."""

    LEFT = "left"
    RIGHT = "right"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Start:
    """The first move: turn up the card at ``position`` (1 = leftmost)."""

    position: int

    def __str__(self) -> str:
        return str(self.position)


@dataclass(frozen=True, slots=True)
class Call:
    """A later move: turn up the n-th card from the left or from the right."""

    side: Side

    def __str__(self) -> str:
        return str(self.side)


Move = Union[Start, Call]  # noqa: UP007  (a runtime alias; isinstance-friendly pieces)

_SIDES = {"l": Side.LEFT, "left": Side.LEFT, "r": Side.RIGHT, "right": Side.RIGHT}


def parse_move(text: str) -> Move:
    """``"3"`` -> ``Start(3)``; ``"left"``/``"l"`` and ``"right"``/``"r"`` -> a :class:`Call`."""
    word = text.strip().lower()
    if word in _SIDES:
        return Call(_SIDES[word])
    # ASCII digits only: "²".isdigit() holds but int("²") fails; no position has 10 digits
    if word.isascii() and word.isdigit() and len(word) < 10:
        return Start(int(word))
    shown = text if len(text) <= 40 else text[:36] + "..."
    raise OpenSevenError(f"a move is a position number, 'left' or 'right': {shown!r}")


@dataclass(frozen=True, slots=True)
class Game:
    """Open-N with ``cards`` cards (the classic game is N = 7)."""

    cards: int = 7

    def __post_init__(self) -> None:
        check_cards(self.cards)

    def mirror(self, position: int) -> int:
        """The position counted the same distance from the other end."""
        return self.cards + 1 - position

    def named(self, value: int) -> tuple[int, int]:
        """The positions a value names: (n-th from the left, n-th from the right)."""
        return value, self.mirror(value)

    @property
    def middle(self) -> int | None:
        """The middle position (and value) when N is odd, else ``None``."""
        return (self.cards + 1) // 2 if self.cards % 2 else None

    def deal(self, seed: int | None = None, *, rng: random.Random | None = None) -> State:
        """A new game on a shuffled row; the same seed gives the same deal."""
        generator = rng if rng is not None else random.Random(seed)
        values = list(range(1, self.cards + 1))
        generator.shuffle(values)
        return State(self, tuple(values))

    def new(self, arrangement: str | Iterable[int]) -> State:
        """A new game on the given row (values left to right)."""
        return State(self, parse_arrangement(arrangement, self.cards))


@dataclass(frozen=True, slots=True)
class View:
    """What the player sees: face-up values (``None`` = face down) and the named cards."""

    cards: int
    faces: tuple[int | None, ...]
    last: int | None  # the value turned last, None before the start
    named: tuple[int, ...]  # face-down positions the next call may turn

    def __str__(self) -> str:
        return " ".join("?" if v is None else str(v) for v in self.faces)


def _call_for(state: State, position: int) -> Call:
    for side, target in state.targets().items():
        if target == position:
            return Call(side)
    raise OpenSevenError(
        f"position {position} cannot be turned after {state.last}: {(*state.turned, position)!r}"
    )


@dataclass(frozen=True, slots=True)
class State:
    """One moment of one deal: which cards are up, in the order they were turned."""

    game: Game
    arrangement: tuple[int, ...]
    turned: tuple[int, ...] = ()  # positions, in the order they were turned

    def __post_init__(self) -> None:
        parse_arrangement(self.arrangement, self.game.cards)
        if self.turned:  # replay: the history must be a legal game
            state = State(self.game, self.arrangement)
            for position in self.turned:
                move: Move = Start(position) if not state.turned else _call_for(state, position)
                state = state.apply(move)

    def __repr__(self) -> str:
        return f"State(Game({self.game.cards}), {self.arrangement!r}, turned={self.turned!r})"

    @property
    def last(self) -> int | None:
        """The value turned last (the n of the rules), ``None`` before the start."""
        return self.arrangement[self.turned[-1] - 1] if self.turned else None

    def face_up(self, position: int) -> bool:
        return position in self.turned

    def targets(self) -> dict[Side, int]:
        """Each legal call and the face-down position it turns (empty before the start)."""
        if self.last is None:
            return {}
        left, right = self.game.named(self.last)
        found = {}
        if not self.face_up(left):
            found[Side.LEFT] = left
        if not self.face_up(right):
            found[Side.RIGHT] = right
        return found

    def legal_moves(self) -> list[Move]:
        """Start positions before the start; then the calls naming a face-down card."""
        if not self.turned:
            return [Start(p) for p in range(1, self.game.cards + 1)]
        if self.is_over:
            return []
        return [Call(side) for side in self.targets()]

    def verify(self, move: Move) -> int:
        """The position ``move`` turns, or an :class:`OpenSevenError` saying why not."""
        n = self.game.cards
        if isinstance(move, Start):
            if self.turned:
                raise OpenSevenError(f"the game has started; call left or right: {move}")
            if not 1 <= move.position <= n:
                raise OpenSevenError(f"start position must be 1..{n}: {move.position!r}")
            return move.position
        if not self.turned:
            raise OpenSevenError(f"choose a start position 1..{n} first: {str(move)!r}")
        if self.is_over:
            raise OpenSevenError(f"the game is over: {str(move)!r}")
        targets = self.targets()
        if move.side not in targets:
            position = self.game.named(self.last or 0)[0 if move.side is Side.LEFT else 1]
            raise OpenSevenError(f"position {position} is already face up: {str(move)!r}")
        return targets[move.side]

    def can(self, move: Move) -> bool:
        try:
            self.verify(move)
        except OpenSevenError:
            return False
        return True

    def apply(self, move: Move | str) -> State:
        """The state after ``move`` (a move or its text); illegal moves raise."""
        if isinstance(move, str):
            move = parse_move(move)
        position = self.verify(move)
        after = object.__new__(State)  # the arrangement is already checked
        object.__setattr__(after, "game", self.game)
        object.__setattr__(after, "arrangement", self.arrangement)
        object.__setattr__(after, "turned", (*self.turned, position))
        return after

    @property
    def is_won(self) -> bool:
        return len(self.turned) == self.game.cards

    @property
    def is_lost(self) -> bool:
        return bool(self.turned) and not self.is_won and not self.targets()

    @property
    def is_over(self) -> bool:
        return self.is_won or self.is_lost

    @property
    def status(self) -> str:
        """``"won"``, ``"lost"`` or ``"playing"``."""
        return "won" if self.is_won else "lost" if self.is_lost else "playing"

    def view(self) -> View:
        """The player's view: face-down values are hidden."""
        faces = tuple(
            v if p in self.turned else None for p, v in enumerate(self.arrangement, start=1)
        )
        named = tuple(sorted(set(self.targets().values()))) if self.turned else ()
        return View(self.game.cards, faces, self.last, named)
