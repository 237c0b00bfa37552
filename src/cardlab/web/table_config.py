"""How a web table is set up: the game, its stakes, the seats and the bots, the clock.

:func:`parse_config` reads the JSON a person sends to create a table and checks every
field (a :class:`~cardlab.web.payload.RequestError` or the engine's
:class:`~cardlab.errors.GameError` says what was wrong); :class:`TableConfig` is the
checked value, saved with the table so a restarted server deals the same game.
"""

from __future__ import annotations

import contextlib
import re
import unicodedata
from dataclasses import asdict, dataclass, field
from typing import Any

from cardlab.bots import BOTS, get_bot
from cardlab.errors import GameError
from cardlab.table import TableGame
from cardlab.table.house import Straddle, seven_deuce_allowed, straddles_allowed
from cardlab.table.state import MAX_RUNS
from cardlab.table.structure import split_game_key, table_game_names
from cardlab.table.tournament import MAX_LEVELS, Schedule, check_payouts
from cardlab.web.payload import RequestError

MAX_CHIPS = 10**9
MAX_NAME = 24
MAX_TABLE_NAME = 60
DEFAULT_CLOCK = 30.0
DEFAULT_BOT_DELAY = 0.8
DEFAULT_PAUSE = 3.0
DEFAULT_RUNOUT_PAUSE = 2.0
NEW_PLAYERS = ("wait", "post")
FORMATS = ("cash", "tournament")  # a new seat waits for its big blind, or posts one
DEFAULT_BLIND_MINUTES = 15
MAX_TIME_BANK = 600.0


@dataclass(frozen=True)
class TableConfig:
    """A table's set-up. ``bots``: seat number (from 1) to bot name; the other seats
    are for people. ``stacks``: each seat's starting stack (None: ``stack`` for all).
    ``clock``: seconds per decision (0: no clock); ``bot_delay``: seconds a bot waits
    before acting; ``pause``: seconds between hands. ``public``: listed in the lobby
    (else only its link finds it). ``seed``: set only on a *practice* table, whose
    creator fixed every deal and which seats nobody else (docs/fair-dealing.md); other
    tables deal from a committed server seed and the players' client seeds.
    ``approve_seats``: a person who asks for a seat waits for the host's approval;
    ``runout_pause``: seconds between the streets of a runout when everyone left is all
    in, so every page shows the exact odds street by street (not given: 2, or ``pause``
    if that is shorter). ``new_players``: a person who sits down at a running table (or
    back in after sitting out) is dealt in at their big blind ("wait") or at once,
    posting a big blind ("post").

    ``format``: "cash" or "tournament" (a sit-and-go, :mod:`cardlab.table.tournament`:
    ``levels`` like "10/20,15/30+3" or the default ladder from the stack, each lasting
    ``level_hands`` hands or ``level_minutes`` minutes; ``tournament_buy_in`` per
    entrant makes the prize pool, paid by place as ``payouts`` percents).

    ``time_bank``: the seconds each player's time bank holds (0: none), taken on request
    when their clock runs, refilled every ``time_bank_refill`` hands (0: never);
    ``blind_levels``: a cash table's timed blinds, written as a tournament's levels, each
    lasting ``blind_minutes`` minutes of play (:mod:`cardlab.web.table_blinds`); ``hud``:
    every seat shows its player's statistics at this table
    (:mod:`cardlab.web.table_hud`)."""

    game: str
    seats: int
    stack: int
    betting: str | None = None
    blinds: tuple[int, ...] | None = None
    ante: int | None = None
    bring_in: int | None = None
    small_bet: int | None = None
    big_bet: int | None = None
    bots: dict[int, str] = field(default_factory=dict)
    stacks: tuple[int, ...] | None = None
    clock: float = DEFAULT_CLOCK
    bot_delay: float = DEFAULT_BOT_DELAY
    pause: float = DEFAULT_PAUSE
    runout_pause: float = DEFAULT_RUNOUT_PAUSE
    name: str = ""
    seed: int | None = None
    public: bool = False
    max_buy_in: int | None = None
    max_missed: int = 10
    approve_seats: bool = False
    new_players: str = "wait"
    format: str = "cash"
    levels: str | None = None
    level_hands: int | None = None
    level_minutes: int | None = None
    tournament_buy_in: int = 0
    payouts: tuple[int, ...] | None = None
    time_bank: float = 0.0
    time_bank_refill: int = 0
    blind_levels: str | None = None
    blind_minutes: int = DEFAULT_BLIND_MINUTES
    hud: bool = False
    run_it: int = 1

    # home-game rules (docs/home-games.md, web/table_house.py)
    straddle: str = "off"
    bomb_pot_every: int = 0
    bomb_pot_ante: int | None = None
    bomb_pot_boards: int = 1
    seven_deuce: int = 0
    dead_button: bool = False

    def bomb_pot_refusal(self) -> str | None:
        """Why this table deals no bomb pot (None: it may)."""
        if self.tournament:
            return "a tournament has no bomb pots"
        if split_game_key(self.game)[1].base not in ("holdem", "omaha"):
            return "a bomb pot is for games with a flop (Hold'em and Omaha)"
        return None

    def seven_deuce_refusal(self) -> str | None:
        """Why this table has no seven-deuce bounty (None: it may)."""
        if self.tournament:
            return "a tournament has no seven-deuce bounty"
        if split_game_key(self.game)[1].key != "holdem":
            return seven_deuce_allowed(self.table_game())  # says why
        return None

    @property
    def tournament(self) -> bool:
        return self.format == "tournament"

    def cash_schedule(self) -> Schedule | None:
        """A cash table's timed blinds (``blind_levels``, each lasting ``blind_minutes``
        minutes of play), None when its stakes stay as they are."""
        if self.tournament or not self.blind_levels:
            return None
        return Schedule.parse(
            self.blind_levels, self.table_game(), every=self.blind_minutes, unit="minutes"
        )

    def schedule(self) -> Schedule:
        """The tournament's blind schedule."""
        every, unit = (
            (self.level_minutes, "minutes")
            if self.level_minutes
            else (self.level_hands or 10, "hands")
        )
        game = self.table_game()
        if self.levels:
            return Schedule.parse(self.levels, game, every=every, unit=unit)
        return Schedule.default(game, self.stack, every=every, unit=unit)

    @property
    def buy_in_cap(self) -> int:
        """The most chips a person may have after a rebuy or top-up (default: the
        largest starting stack)."""
        if self.max_buy_in is not None:
            return self.max_buy_in
        return self.stack if self.stacks is None else max(self.stacks)

    @property
    def practice(self) -> bool:
        """The creator fixed the deals: a table for the creator and bots only."""
        return self.seed is not None

    @property
    def person_seats(self) -> int:
        return self.seats - len(self.bots)

    def table_game(self) -> TableGame:
        return TableGame.create(
            self.game,
            betting=self.betting,
            blinds=self.blinds,
            antes=self.ante,
            bring_in=self.bring_in,
            small_bet=self.small_bet,
            big_bet=self.big_bet,
        )

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["blinds"] = None if self.blinds is None else list(self.blinds)
        out["bots"] = {str(k): v for k, v in self.bots.items()}
        out["stacks"] = None if self.stacks is None else list(self.stacks)
        out["payouts"] = None if self.payouts is None else list(self.payouts)
        return out

    def stack_of(self, seat: int) -> int:
        """The starting stack of ``seat`` (from 0)."""
        return self.stack if self.stacks is None else self.stacks[seat]

    def shown(self) -> dict[str, Any]:
        """What anybody may know of the set-up (not the seed)."""
        out = self.as_dict()
        del out["seed"]
        out["practice"] = self.practice
        return out


def parse_config(
    data: dict[str, Any], *, saved: bool = False, changed: bool = False
) -> TableConfig:
    """A checked :class:`TableConfig` from JSON (a create request or a saved table).

    A ``seed`` makes a practice table: every deal follows from it, so the table must have
    one seat for a person (its creator) and bots in the others. ``saved``: a table
    restored as it was saved; ``changed``: a saved table's set-up the host changes. A
    new or changed set-up must also keep the stakes in order (:func:`check_stakes`)
    and have a name that imitates nothing (:func:`check_table_name`); a table restored
    keeps its stakes, and a name saved before names were checked is dropped."""
    known = set(TableConfig.__dataclass_fields__)
    unknown = sorted(str(k)[:40] for k in data if k not in known)
    if unknown:
        raise RequestError(
            f"unknown table field(s) {unknown!r} (known: {', '.join(sorted(known))})"
        )
    game = _text(data, "game", "fesca78-holdem").strip().lower()
    if game not in table_game_names():
        raise RequestError(f"unknown game {game[:60]!r} (known: {', '.join(table_game_names())})")
    seats = _whole(data, "seats", 6, 2, 10)
    stack = _whole(data, "stack", 200, 1, MAX_CHIPS)
    betting = data.get("betting")
    if betting is not None:
        betting = _text(data, "betting", "")
        if not betting.strip():
            betting = None
    blinds_raw = data.get("blinds")
    blinds: tuple[int, ...] | None = None
    if blinds_raw is not None:
        if not isinstance(blinds_raw, list) or len(blinds_raw) > seats:
            raise RequestError(
                f"field 'blinds' must be a list of at most {seats} whole numbers: "
                f"{_shown(blinds_raw)}"
            )
        blinds = tuple(_number(v, "blinds", 0, MAX_CHIPS) for v in blinds_raw)
    stacks_raw = data.get("stacks")
    stacks: tuple[int, ...] | None = None
    if stacks_raw is not None:
        if not isinstance(stacks_raw, list) or len(stacks_raw) != seats:
            raise RequestError(
                f"field 'stacks' must be a list of {seats} whole numbers: {_shown(stacks_raw)}"
            )
        stacks = tuple(_number(v, "stacks", 1, MAX_CHIPS) for v in stacks_raw)
    optional: dict[str, int | None] = {}
    for name in ("ante", "bring_in", "small_bet", "big_bet"):
        optional[name] = None if data.get(name) is None else _whole(data, name, 0, 0, MAX_CHIPS)
    bots = _bots(data.get("bots"), seats)
    clock = _seconds(data, "clock", DEFAULT_CLOCK, 3600.0)
    bot_delay = _seconds(data, "bot_delay", DEFAULT_BOT_DELAY, 10.0)
    pause = _seconds(data, "pause", DEFAULT_PAUSE, 60.0)
    runout_pause = _seconds(data, "runout_pause", min(DEFAULT_RUNOUT_PAUSE, pause), 10.0)
    name = " ".join(_text(data, "name", "").split())
    strict = not saved or changed  # a new set-up, or one the host changes
    try:
        name = check_table_name(name)
    except RequestError:
        if strict:
            raise
        name = ""  # saved before names were checked: the table is shown without it
    max_buy_in = (
        None if data.get("max_buy_in") is None else _whole(data, "max_buy_in", 0, 1, MAX_CHIPS)
    )
    max_missed = _whole(data, "max_missed", 10, 1, 1000)
    seed = data.get("seed")
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63
    ):
        raise RequestError(
            f"field 'seed' must be a whole number from 0 to 2**63 - 1: {_shown(seed)}"
        )
    if seed is not None and seats - len(bots) != 1 and saved:
        seed = None  # a table saved before practice tables: it deals fairly now
    if seed is not None and seats - len(bots) != 1:
        raise RequestError(
            "a fixed 'seed' is only for a practice table (one seat for you, bots in the "
            f"others): this table has {seats - len(bots)} seats for people; without a seed "
            "the cards are dealt fairly from seeds nobody can choose"
        )
    public = data.get("public", False) if data.get("public") is not None else False
    if not isinstance(public, bool):
        raise RequestError(f"field 'public' must be true or false: {_shown(public)}")
    approve_seats = data.get("approve_seats")
    if approve_seats is None:
        approve_seats = False
    if not isinstance(approve_seats, bool):
        raise RequestError(f"field 'approve_seats' must be true or false: {_shown(approve_seats)}")
    new_players = _text(data, "new_players", "wait").strip().lower()
    if new_players not in NEW_PLAYERS:
        raise RequestError(
            f"field 'new_players' is {' or '.join(map(repr, NEW_PLAYERS))}: {_shown(new_players)}"
        )
    run_it = _whole(data, "run_it", 1, 1, MAX_RUNS)
    fmt = _text(data, "format", "cash").strip().lower()
    if fmt not in FORMATS:
        raise RequestError(f"field 'format' is 'cash' or 'tournament': {_shown(fmt)}")
    levels = data.get("levels")
    if levels is not None:
        levels = _text(data, "levels", "").strip() or None
    if levels is not None and len(levels) > 20 * MAX_LEVELS:
        raise RequestError("field 'levels' is too long")
    level_hands = (
        None if data.get("level_hands") is None else _whole(data, "level_hands", 10, 1, 10_000)
    )
    level_minutes = (
        None if data.get("level_minutes") is None else _whole(data, "level_minutes", 10, 1, 10_000)
    )
    if level_hands is not None and level_minutes is not None:
        raise RequestError("a level lasts 'level_hands' hands or 'level_minutes' minutes, not both")
    tournament_buy_in = _whole(data, "tournament_buy_in", 0, 0, MAX_CHIPS)
    payouts_raw = data.get("payouts")
    payouts: tuple[int, ...] | None = None
    if payouts_raw is not None:
        if not isinstance(payouts_raw, list) or not 1 <= len(payouts_raw) <= seats:
            raise RequestError(
                f"field 'payouts' must be a list of 1 to {seats} percents: {_shown(payouts_raw)}"
            )
        payouts = tuple(_number(v, "payouts", 1, 100) for v in payouts_raw)
        try:
            check_payouts(payouts, seats)
        except GameError as error:
            raise RequestError(str(error)) from None
    extras = _extras(data, fmt)
    if fmt == "tournament":
        if stacks is not None and len(set(stacks)) > 1:
            raise RequestError("in a tournament everyone starts with the same stack: use 'stack'")
        if seed is not None:
            raise RequestError("a tournament deals fairly: a practice 'seed' is for cash tables")
    elif levels or level_hands or level_minutes or tournament_buy_in or payouts:
        raise RequestError(
            "'levels', 'level_hands', 'level_minutes', 'tournament_buy_in' and 'payouts' "
            'are for a tournament: add "format": "tournament"'
        )
    config = TableConfig(
        **parse_house(data),
        format=fmt,
        levels=levels,
        level_hands=level_hands,
        level_minutes=level_minutes,
        tournament_buy_in=tournament_buy_in,
        payouts=payouts,
        game=game,
        seats=seats,
        stack=stack,
        betting=betting,
        blinds=blinds,
        bots=bots,
        stacks=stacks,
        clock=clock,
        bot_delay=bot_delay,
        pause=pause,
        runout_pause=runout_pause,
        name=name,
        seed=seed,
        public=public,
        max_buy_in=max_buy_in,
        max_missed=max_missed,
        approve_seats=approve_seats,
        new_players=new_players,
        run_it=run_it,
        ante=optional["ante"],
        bring_in=optional["bring_in"],
        small_bet=optional["small_bet"],
        big_bet=optional["big_bet"],
        **extras,
    )
    table_game = config.table_game()  # GameError on stakes the engine refuses
    table_game.check_seats(seats)
    if config.tournament:
        try:
            table_game = config.schedule().level(0).apply(table_game)
        except GameError as error:
            raise RequestError(f"field 'levels': {error}") from None
    try:
        cash = config.cash_schedule()
    except GameError as error:
        raise RequestError(f"field 'blind_levels': {error}") from None
    if cash is not None:
        if strict:  # every level's blinds must be postable from the smallest stack
            for index in range(len(cash.levels)):
                check_stakes(config, cash.level(index).apply(table_game), "blind_levels")
        table_game = cash.level(0).apply(table_game)
    if strict:
        check_stakes(config, table_game)
    _check_house(config, table_game, strict)
    return config


HOUSE_FIELDS = (
    "straddle",
    "bomb_pot_every",
    "bomb_pot_ante",
    "bomb_pot_boards",
    "seven_deuce",
    "dead_button",
)


def parse_house(data: dict[str, Any]) -> dict[str, Any]:
    """The home-game fields of a set-up, checked one by one."""
    straddle = _text(data, "straddle", "off").strip().lower()
    try:
        Straddle.parse(straddle)
    except GameError as error:
        raise RequestError(f"field 'straddle': {error}") from None
    ante = data.get("bomb_pot_ante")
    dead = data.get("dead_button", False)
    if dead is None:
        dead = False
    if not isinstance(dead, bool):
        raise RequestError(f"field 'dead_button' must be true or false: {_shown(dead)}")
    return {
        "straddle": straddle,
        "bomb_pot_every": _whole(data, "bomb_pot_every", 0, 0, 1000),
        "bomb_pot_ante": None if ante is None else _number(ante, "bomb_pot_ante", 1, MAX_CHIPS),
        "bomb_pot_boards": _whole(data, "bomb_pot_boards", 1, 1, 2),
        "seven_deuce": _whole(data, "seven_deuce", 0, 0, MAX_CHIPS),
        "dead_button": dead,
    }


def _check_house(config: TableConfig, game: TableGame, strict: bool) -> None:
    """The home-game rules the game allows (one :class:`RequestError` naming the
    field); a table restored keeps what it was saved with."""
    if not strict:
        return
    checks = (
        ("straddle", config.straddle != "off", straddles_allowed(game)),
        (
            "bomb_pot_every",
            config.bomb_pot_every > 0 or config.bomb_pot_boards > 1,
            config.bomb_pot_refusal(),
        ),
        ("seven_deuce", config.seven_deuce > 0, config.seven_deuce_refusal()),
        (
            "dead_button",
            config.dead_button,
            "a tournament moves its button as it always did"
            if config.tournament
            else ("stud has no button" if game.game.base.key == "stud" else None),
        ),
    )
    for name, used, why in checks:
        if used and why is not None:
            raise RequestError(f"field {name!r}: {why}")
    if config.straddle != "off" and config.tournament:
        raise RequestError("field 'straddle': a tournament has no straddles")


def _extras(data: dict[str, Any], fmt: str) -> dict[str, Any]:
    """The time bank, a cash table's timed blinds and the HUD, checked."""
    time_bank = _seconds(data, "time_bank", 0.0, MAX_TIME_BANK)
    refill = _whole(data, "time_bank_refill", 0, 0, 10_000)
    levels = data.get("blind_levels")
    if levels is not None:
        levels = _text(data, "blind_levels", "").strip() or None
    if levels is not None and len(levels) > 20 * MAX_LEVELS:
        raise RequestError("field 'blind_levels' is too long")
    if levels is not None and fmt == "tournament":
        raise RequestError(
            "'blind_levels' are a cash table's timed blinds: a tournament has 'levels'"
        )
    minutes = _whole(data, "blind_minutes", DEFAULT_BLIND_MINUTES, 1, 10_000)
    hud = data.get("hud")
    if hud is None:
        hud = False
    if not isinstance(hud, bool):
        raise RequestError(f"field 'hud' must be true or false: {_shown(hud)}")
    return {
        "time_bank": time_bank,
        "time_bank_refill": refill,
        "blind_levels": levels,
        "blind_minutes": minutes,
        "hud": hud,
    }


def check_stakes(config: TableConfig, table_game: TableGame, field_name: str | None = None) -> None:
    """The bounds of a new or changed set-up's stakes (``table_game``: the game as it
    deals the first hand), beyond what the engine refuses:

    - the blinds in order: the small blind at most the big blind, each straddle at least
      the blind before it (``5/2`` is refused, ``0/2`` is a big blind alone);
    - a blind game has a big blind of at least 1 (or antes: the engine wants a forced
      bet);
    - no forced bet (the biggest blind, the ante, the bring-in) above the smallest
      starting stack: every seat can post it once;
    - fixed-limit's big bet at least the small bet.

    One :class:`RequestError` naming the field."""
    stakes = table_game.stakes
    if field_name is None:
        field_name = "levels" if config.tournament and config.levels else "blinds"
    blinds = stakes.blinds
    for k in range(1, len(blinds)):
        if blinds[k] < blinds[k - 1]:
            what = "the small blind" if k == 1 else f"blind {k}"
            after = "the big blind" if k == 1 else f"blind {k + 1}"
            raise RequestError(
                f"field {field_name!r}: {what} ({blinds[k - 1]}) must be at most {after} "
                f"({blinds[k]}): {'/'.join(map(str, blinds))}"
            )
    if len(blinds) >= 2 and blinds[1] < 1 and not stakes.ante and not any(stakes.antes):
        raise RequestError(
            f"field {field_name!r}: the big blind must be at least 1: {'/'.join(map(str, blinds))}"
        )
    smallest = min(config.stacks) if config.stacks is not None else config.stack
    stack_field = "stacks" if config.stacks is not None else "stack"
    forced = [
        (
            field_name,
            "the big blind" if len(blinds) <= 2 else "the biggest blind",
            max(blinds, default=0),
        ),
        ("ante", "the ante", stakes.ante + max(stakes.antes, default=0)),
        ("bring_in", "the bring-in", stakes.bring_in),
    ]
    for name, what, amount in forced:
        if amount > smallest:
            raise RequestError(
                f"field {name!r}: {what} ({amount}) is more than the smallest starting "
                f"stack ({smallest}, field {stack_field!r}): a seat could not post it"
            )
    if stakes.big_bet and stakes.big_bet < stakes.small_bet:
        raise RequestError(
            f"field 'big_bet': the big bet ({stakes.big_bet}) must be at least the small "
            f"bet ({stakes.small_bet})"
        )


_BOT_WORD = re.compile(r"(?<![a-z])bots?(?![a-z])")
# control, format (bidi overrides and isolates, zero-width joiners), private use,
# surrogates, unassigned, and line/paragraph separators
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})


_SCRIPT_GROUPS = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HANGUL": "CJK", "IDEOGRAPHIC": "CJK"}


def _scripts(text: str) -> set[str]:
    """The scripts of the letters of ``text`` (NFKC: full-width Latin is Latin), with
    the Chinese, Japanese and Korean scripts as one: mixing Latin and Cyrillic (``Аnn``
    with a Cyrillic А) is how one name imitates another (Unicode TR 39)."""
    out = set()
    for c in unicodedata.normalize("NFKC", text):
        if unicodedata.category(c).startswith("L"):
            word = unicodedata.name(c, "UNKNOWN").split()[0]
            out.add(_SCRIPT_GROUPS.get(word, word))
    return out


def name_key(name: str) -> str:
    """What two names must not share at one table: their NFKC case-folded form with
    spaces removed ("Ann", "ａｎｎ" and "a nn" are one name)."""
    return "".join(unicodedata.normalize("NFKC", name).casefold().split())


# letters that show as nothing (Hangul fillers, the Braille blank, Khmer inherent
# vowels, Mongolian variation selectors, the combining grapheme joiner): a name of them
# looks empty, or like another name with them added
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u034f\u180b\u180c\u180d")
# words a person's name may not hold: the page's own labels and the house's roles
_ROLE_WORD = re.compile(
    r"(?<![^\W_])(?:host|dealer|cardlab|admin|administrator|moderator|system|server"
    r"|croupier|official)(?![^\W_])"
)
# a whole name that reads as the page's label of a seat or a player: "seat 3", "p2",
# "player #4", "you"
_LABEL = re.compile(r"(?:the\s*)?(?:seat|player|p)\s*(?:no\.?|#)?\s*\d+|you|nobody|empty")
# words a table's name may not hold: it must not pass for the site's own table
_HOUSE_WORD = re.compile(r"(?<![^\W_])(?:cardlab|official|admin|administrator|moderator)(?![^\W_])")


def _check_characters(text: str, original: object, what: str) -> None:
    """Refuse control, text-direction, other format and invisible characters, and a
    mix of scripts (Unicode TR 39: a Cyrillic letter in a Latin name imitates it)."""
    bad = [c for c in text if unicodedata.category(c) in _REFUSED_CATEGORIES or c in _INVISIBLE]
    if bad or not text.isprintable():
        shown = ", ".join(f"U+{ord(c):04X}" for c in (bad or [c for c in text][:1]))
        raise RequestError(
            f"{what} may not hold control or text-direction characters, nor invisible "
            f"ones ({shown}): {_shown(original)}"
        )
    if all(unicodedata.category(c).startswith(("M", "Z")) for c in text):
        raise RequestError(f"{what} shows nothing but marks and spaces: {_shown(original)}")
    scripts = _scripts(text)
    if len(scripts) > 1:
        raise RequestError(
            f"{what} is written in one script (this one mixes {' and '.join(sorted(scripts))}, "
            f"which can imitate another name): {text!r}"
        )


def check_name(name: object) -> str:
    """A player's display name: 1 to 24 printable characters, trimmed, with no control,
    text-direction or invisible characters, in one script, and nothing that passes for
    a bot's label, the page's labels ("seat 3", "you") or the house ("the host",
    "dealer", "cardlab")."""
    if not isinstance(name, str):
        raise RequestError(f"field 'name' must be a string: {_shown(name)}")
    text = " ".join(name.split())
    if not text or len(text) > MAX_NAME:
        raise RequestError(f"a name has 1 to {MAX_NAME} characters: {_shown(name)}")
    _check_characters(text, name, "a name")
    folded = unicodedata.normalize("NFKC", text).casefold()
    if _BOT_WORD.search(folded):
        raise RequestError(f"a person's name may not say 'bot' (bots are labelled so): {text!r}")
    role = _ROLE_WORD.search(folded)
    if role or _LABEL.fullmatch(folded):
        said = repr(role.group()) if role else "a seat's label"
        raise RequestError(
            f"a person's name may not say {said} (it would pass for the house or for a "
            f"label the page shows): {text!r}"
        )
    return text


def check_table_name(name: object) -> str:
    """A table's name as the lobby lists it: up to 60 printable characters (spaces
    joined), with no control, text-direction or invisible characters, in one script,
    and not passing for the site's own ("cardlab", "official"); "" for none."""
    if not isinstance(name, str):
        raise RequestError(f"field 'name' must be a string: {_shown(name)}")
    text = " ".join(name.split())
    if not text:
        return ""
    if len(text) > MAX_TABLE_NAME:
        raise RequestError(
            f"field 'name': a table's name has at most {MAX_TABLE_NAME} characters: {_shown(name)}"
        )
    _check_characters(text, name, "field 'name': a table's name")
    house = _HOUSE_WORD.search(unicodedata.normalize("NFKC", text).casefold())
    if house:
        raise RequestError(
            f"field 'name': a table's name may not say {house.group()!r} (it would pass "
            f"for the site's own): {text!r}"
        )
    return text


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _text(data: dict[str, Any], name: str, default: str) -> str:
    value = data.get(name)
    if value is None:
        return default
    if not isinstance(value, str) or len(value) > 200:
        raise RequestError(f"field {name!r} must be a short string: {_shown(value)}")
    return value


def _number(value: object, name: str, lo: int, hi: int) -> int:
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit():
        value = int(value.strip()) if len(value.strip()) < 19 else value
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise RequestError(
            f"field {name!r} must be a whole number from {lo} to {hi}: {_shown(value)}"
        )
    return value


def _whole(data: dict[str, Any], name: str, default: int, lo: int, hi: int) -> int:
    value = data.get(name)
    return default if value is None else _number(value, name, lo, hi)


def _seconds(data: dict[str, Any], name: str, default: float, hi: float) -> float:
    value = data.get(name)
    if value is None:
        return default
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = float(value)
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not 0 <= value <= hi  # exact for any int; false for nan and inf
    ):
        raise RequestError(f"field {name!r} must be seconds from 0 to {hi:g}: {_shown(value)}")
    return float(value)


def _bots(raw: object, seats: int) -> dict[int, str]:
    """``{"2": "random"}`` or ``["", "random", ...]`` (one entry per seat)."""
    if raw is None:
        return {}
    items: list[tuple[object, object]]
    if isinstance(raw, dict):
        items = list(raw.items())
    elif isinstance(raw, list):
        items = [(i + 1, v) for i, v in enumerate(raw)]
    else:
        raise RequestError(f"field 'bots' must map seats to bot names: {_shown(raw)}")
    out: dict[int, str] = {}
    for key, value in items:
        if value is None or value == "":
            continue
        seat = _number(key, "bots (seat)", 1, seats)
        if not isinstance(value, str):
            raise RequestError(f"a bot is named by a string: {_shown(value)}")
        get_bot(value)  # GameError names the known bots
        out[seat] = value.strip().lower()
    return dict(sorted(out.items()))


def bot_names() -> list[str]:
    return list(BOTS)
