"""Small poker games as data: a deck, cards per street, fixed-limit betting.

A game file (TOML)::

    name = "Leduc Hold'em"
    deck = "standard52"        # a built-in deck or a deck TOML file
    ranks = ["J", "Q", "K"]    # the ranks in play (keys), or a count: the highest n
    suits = ["s", "h"]         # the suits in play (keys or symbols), or a count: the strongest n
    private = 1                # private cards dealt to each of the two players
    ante = 1                   # chips each player puts in before the deal
    unit = 1                   # chips in one big blind, for milli-blinds per hand

    [[rounds]]                 # one table per betting round, in order
    public = 0                 # public cards dealt before the round's betting
    bet = 2                    # the fixed size of every bet and raise in the round
    cap = 2                    # the most bets and raises in the round

Player 1 (index 0) acts first in every round. A round ends when both players check
or one calls; a fold ends the hand. After the last round the best hand of private and
public cards wins the pot (see :mod:`cardlab.solve.hands` for the order).

``--deck D`` plays a game on another deck: it keeps the *number* of ranks and suits
the game selects and takes the highest ranks and strongest suits of ``D``.
"""

from __future__ import annotations

import math
import stat
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from cardlab import _toml_numbers
from cardlab.cards import Card, Rank, Suit
from cardlab.decks import Deck, get_deck
from cardlab.errors import GameError
from cardlab.poker.rules import RuleSet

BUILTIN_GAMES = ("kuhn", "leduc", "leduc-fesca")
_FIELDS = {"name", "description", "deck", "ranks", "suits", "private", "ante", "unit", "rounds"}
_ROUND_FIELDS = {"public", "bet", "cap"}
MAX_FILE_BYTES = 1 << 16
MAX_ROUNDS = 4
MAX_CAP = 8
MAX_HAND = 7  # private + public cards: a showdown takes the best five of at most seven
# the solver keeps a hands x hands matrix per final board: bound its size
MAX_MATRIX_CELLS = 20_000_000
MAX_NODES = 300_000  # the public tree has a copy of the betting for each board
MAX_NODE_HANDS = 15_000_000  # each [node, hand] array of the solver


@dataclass(frozen=True, slots=True)
class Round:
    """One betting round: public cards dealt before it, the bet size, the raise cap."""

    public: int
    bet: int
    cap: int


@dataclass(frozen=True, slots=True)
class PokerGame:
    """A two-player fixed-limit poker game on a sub-deck.

    ``cards`` are the cards in play, lowest rank first (then weakest suit first);
    ``rules`` is the full deck's rule set, whose hand order and suit tie-breaks decide
    showdowns.
    """

    name: str
    deck: Deck
    cards: tuple[Card, ...]
    private: int
    rounds: tuple[Round, ...]
    ante: int
    unit: float
    rules: RuleSet
    description: str = ""

    def __str__(self) -> str:
        return f"{self.name} on {self.deck.name} ({' '.join(map(str, self.cards))})"

    @property
    def hand_size(self) -> int:
        """Cards in a player's final hand: private plus every public card."""
        return self.private + sum(r.public for r in self.rounds)

    def definition(self) -> dict[str, Any]:
        """The game as the data of a game file (ranks and suits written out)."""
        ranks = sorted({c.rank for c in self.cards}, key=lambda r: r.value)
        suits = [s for s in self.rules.suit_order if any(c.suit == s for c in self.cards)]
        return {
            "name": self.name,
            "description": self.description,
            "deck": self.deck.name,
            "ranks": [r.key for r in ranks],
            "suits": [s.key for s in suits],
            "private": self.private,
            "ante": self.ante,
            "unit": self.unit,
            "rounds": [{"public": r.public, "bet": r.bet, "cap": r.cap} for r in self.rounds],
        }


def get_game(name: str, *, deck: str | Deck | None = None) -> PokerGame:
    """A built-in game by name (``kuhn``, ``leduc``, ``leduc-fesca``) or a game file;
    ``deck`` plays it on another deck (same number of ranks and suits)."""
    key = name.strip().lower()
    if key in BUILTIN_GAMES:
        text = resources.files("cardlab.solve").joinpath(f"builtin/{key}.toml").read_text("utf-8")
        return game_from_toml(text, source=f"built-in game {key}", deck=deck)
    if key.endswith(".toml") or "/" in key:
        return load_game(name, deck=deck)
    raise GameError(
        f"unknown game {name!r} (built in: {', '.join(BUILTIN_GAMES)}, or a .toml file)"
    )


def load_game(path: str | Path, *, deck: str | Deck | None = None) -> PokerGame:
    """A game from a TOML file."""
    p = Path(path)
    shown = repr(str(p))
    try:
        if not stat.S_ISREG(p.stat().st_mode):
            raise GameError(f"game file {shown} is not a regular file")
        with p.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise GameError(f"cannot read game file {shown}: {exc.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise GameError(f"game file {shown} is larger than {MAX_FILE_BYTES >> 10} KiB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise GameError(f"game file {shown} is not UTF-8 text") from None
    return game_from_toml(text, source=f"game file {shown}", deck=deck)


def game_from_toml(text: str, *, source: str = "game", deck: str | Deck | None = None) -> PokerGame:
    """A game from TOML text; any problem raises :class:`GameError` naming ``source``."""
    _toml_numbers.check_text(text, source, GameError)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise GameError(f"{source} is not valid TOML: {exc}") from None
    except RecursionError:
        raise GameError(f"{source} is not valid TOML: it nests too deeply") from None
    _toml_numbers.check_values(data, source, GameError)
    return game_from_data(data, source=source, deck=deck)


def game_from_data(
    data: dict[str, Any], *, source: str = "game", deck: str | Deck | None = None
) -> PokerGame:
    """A game from the data of a game file (e.g. :meth:`PokerGame.definition`)."""
    try:
        return _game(data, deck)
    except GameError as exc:
        raise GameError(f"{source}: {exc}") from None
    except ValueError as exc:  # a DeckError or CardError from the deck's own checks
        raise GameError(f"{source}: {exc}") from None


def _game(data: dict[str, Any], deck_override: str | Deck | None) -> PokerGame:
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise GameError(
            f"unknown field(s) {', '.join(unknown)} (known: {', '.join(sorted(_FIELDS))})"
        )
    for required in ("name", "deck", "rounds"):
        if required not in data:
            raise GameError(f"missing field {required!r}")
    name = _text(data["name"], "name")
    deck = get_deck(deck_override if deck_override is not None else _text(data["deck"], "deck"))
    rules = RuleSet.for_deck(deck)
    ranks_spec = data.get("ranks", len(deck.ranks))
    suits_spec = data.get("suits", len(deck.suits))
    if deck_override is not None:  # keep the counts, take the top of the new deck
        ranks_spec = ranks_spec if isinstance(ranks_spec, int) else len(_list(ranks_spec, "ranks"))
        suits_spec = suits_spec if isinstance(suits_spec, int) else len(_list(suits_spec, "suits"))
    ranks = _ranks(deck, ranks_spec)
    suits = _suits(deck, rules, suits_spec)
    strength = {s: i for i, s in enumerate(rules.suit_order)}
    cards = tuple(
        sorted(
            (c for c in deck.cards if c.rank in ranks and c.suit in suits),
            key=lambda c: (c.rank.value, strength[c.suit]),
        )
    )
    private = _int(data.get("private", 1), "private", 1, 4)
    ante = _int(data.get("ante", 1), "ante", 0, 1000)
    unit = data.get("unit", 1)
    if isinstance(unit, bool) or not isinstance(unit, int | float) or not unit > 0:
        raise GameError(f"unit must be a positive number of chips, not {unit!r}")
    rounds = tuple(_round(r, i) for i, r in enumerate(_list(data["rounds"], "rounds"), 1))
    if not 1 <= len(rounds) <= MAX_ROUNDS:
        raise GameError(f"a game has 1 to {MAX_ROUNDS} betting rounds, not {len(rounds)}")
    hand = private + sum(r.public for r in rounds)
    if hand > MAX_HAND:
        raise GameError(
            f"a hand has at most {MAX_HAND} cards (private + public), this game deals {hand}"
        )
    if ante == 0 and all(r.cap == 0 for r in rounds):
        raise GameError("nothing is ever bet: give an ante or a cap above 0")
    game = PokerGame(
        name,
        deck,
        cards,
        private,
        rounds,
        ante,
        float(unit),
        rules,
        _text(data.get("description", ""), "description"),
    )
    _check_size(game)
    return game


def tree_size(game: PokerGame) -> tuple[int, int, int]:
    """(private hands, boards, public nodes) of the game's public tree, counted
    without building it. Boards count every stage (the empty board too); public
    cards come from every card not on the board, since the tree does not know the
    private cards."""
    counts = tree_counts(game)
    return counts.hands, counts.boards, counts.nodes


@dataclass(frozen=True, slots=True)
class TreeCounts:
    """The size of a game's public tree, counted from its definition (:func:`tree_counts`)."""

    hands: int  # private hands
    boards: int  # boards of every stage, the empty one too
    nodes: int  # public nodes
    decisions: int  # public decision nodes
    infosets: int  # decision nodes times the hands that share no card with their board


def tree_counts(game: PokerGame) -> TreeCounts:
    """The counts of the game's public tree without building it (as :func:`tree_size`),
    with its decision nodes and information sets: the rows of a solve's strategy."""
    n = len(game.cards)
    boards, stages = 1, 1  # boards of the current stage; of all stages
    paths = 1  # betting sequences that reach the round
    nodes = decisions = infosets = 0
    left = n
    for number, r in enumerate(game.rounds, 1):
        if r.public:
            nodes += paths * boards  # a chance node on each board each sequence reaches
            boards *= math.comb(left, r.public)
            stages += boards
            left -= r.public
        in_round, going_on, deciding = _betting_shape(r.cap)
        if number < len(game.rounds):
            in_round -= going_on  # a call ends the round: no leaf, the next round goes on
        nodes += paths * boards * in_round
        decisions += paths * boards * deciding
        infosets += paths * boards * deciding * math.comb(left, game.private)
        paths *= going_on
    return TreeCounts(math.comb(n, game.private), stages, nodes, decisions, infosets)


def _check_size(game: PokerGame) -> None:
    """Refuse, before any work, a game whose public tree or matrices would not fit."""
    n = len(game.cards)
    dealt = 2 * game.private + sum(r.public for r in game.rounds)
    if dealt > n:
        raise GameError(f"the game deals {dealt} cards but only {n} are in play")
    counts = tree_counts(game)
    hands, boards, nodes = counts.hands, counts.boards, counts.nodes
    if (
        nodes > MAX_NODES
        or nodes * hands > MAX_NODE_HANDS
        or boards * hands * hands > MAX_MATRIX_CELLS
    ):
        raise GameError(
            f"too large to solve: {hands} private hands, {boards:,} boards, {nodes:,} "
            f"public nodes, {counts.infosets:,} information sets (at most "
            f"{MAX_NODES:,} nodes, nodes x hands under "
            f"{MAX_NODE_HANDS:,}, hands x hands x boards under {MAX_MATRIX_CELLS:,})"
        )


def _betting_shape(cap: int) -> tuple[int, int, int]:
    """(decision and leaf nodes of one betting round, counting the showdown after each
    call or two checks; how many such sequences end it; its decision nodes) for a round
    with this cap."""

    def walk(player: int, facing: bool, raises: int) -> tuple[int, int, int]:
        nodes, going_on, decisions = 1, 0, 1
        if facing:
            nodes += 1  # fold
            going_on += 1  # call
            nodes += 1
        elif player == 1:
            going_on += 1  # check behind
            nodes += 1
        else:
            n, g, d = walk(1, False, raises)  # check
            nodes, going_on, decisions = nodes + n, going_on + g, decisions + d
        if raises < cap:
            n, g, d = walk(1 - player, True, raises + 1)
            nodes, going_on, decisions = nodes + n, going_on + g, decisions + d
        return nodes, going_on, decisions

    return walk(0, False, 0)


def _ranks(deck: Deck, spec: Any) -> set[Rank]:
    if isinstance(spec, int) and not isinstance(spec, bool):
        if not 1 <= spec <= len(deck.ranks):
            raise GameError(f"ranks: {deck.name} has {len(deck.ranks)} ranks, not {spec}")
        return set(deck.ranks[len(deck.ranks) - spec :])
    by_key = {r.key.upper(): r for r in deck.ranks}
    chosen: set[Rank] = set()
    for item in _list(spec, "ranks"):
        rank = by_key.get(str(item).strip().upper())
        if rank is None or isinstance(item, bool):
            keys = " ".join(r.key for r in deck.ranks)
            raise GameError(f"ranks: {item!r} is not a rank of {deck.name} ({keys})")
        chosen.add(rank)
    if not chosen:
        raise GameError("ranks: the list is empty")
    return chosen


def _suits(deck: Deck, rules: RuleSet, spec: Any) -> set[Suit]:
    order = rules.suit_order
    if isinstance(spec, int) and not isinstance(spec, bool):
        if not 1 <= spec <= len(order):
            raise GameError(f"suits: {deck.name} has {len(order)} suits, not {spec}")
        return set(order[len(order) - spec :])
    by_text = {t: s for s in deck.suits for t in (s.key, s.symbol, s.name)}
    chosen: set[Suit] = set()
    for item in _list(spec, "suits"):
        suit = by_text.get(item) if isinstance(item, str) else None
        if suit is None:
            keys = " ".join(s.key for s in deck.suits)
            raise GameError(f"suits: {item!r} is not a suit of {deck.name} ({keys})")
        chosen.add(suit)
    if not chosen:
        raise GameError("suits: the list is empty")
    return chosen


def _round(item: Any, number: int) -> Round:
    if not isinstance(item, dict):
        raise GameError(f"round {number} must be a table (public, bet, cap), not {item!r}")
    unknown = sorted(set(item) - _ROUND_FIELDS)
    if unknown:
        raise GameError(
            f"round {number}: unknown field(s) {', '.join(unknown)} (known: bet, cap, public)"
        )
    if "bet" not in item:
        raise GameError(f"round {number}: missing field 'bet'")
    return Round(
        _int(item.get("public", 0), f"round {number} public", 0, 5),
        _int(item["bet"], f"round {number} bet", 1, 10_000),
        _int(item.get("cap", 1), f"round {number} cap", 0, MAX_CAP),
    )


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise GameError(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise GameError(f"{what} must be a list or a count, not {value!r}")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise GameError(f"{what} must be a string, not {value!r}")
    return value
