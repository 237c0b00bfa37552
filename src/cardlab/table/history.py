"""Hand histories and the engine: write a finished hand as PHH, replay PHH on the engine.

:func:`to_history` turns a finished :class:`~cardlab.table.state.HandState` into a
:class:`~cardlab.table.phh.HandHistory` in the variant codes of pokerkit and the public
datasets (NT, FT, PO, F7S) or cardlab's own where PHH has none (docs/phh.md), with the
deck, game and rule options in user fields for FESCA/TESCA decks. :func:`replay` plays
a history on the engine, dealing its cards and taking its actions in order; an action
the rules refuse is a :class:`~cardlab.errors.HistoryError` naming the hand's action.

Amounts written with decimals (online cash games, ``0.25``) are played in integer
units of the smallest decimal and reported back in the file's units.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from cardlab.decks import builtin_name
from cardlab.errors import ActionError, CardError, CardlabError, HistoryError
from cardlab.poker.games import BASE_GAMES, Game, get_game
from cardlab.store import HandRecord
from cardlab.table import phh
from cardlab.table import phh_actions as pa
from cardlab.table.state import HandState, Phase
from cardlab.table.structure import Betting, TableGame

# (base game, betting) -> PHH variant code; the codes beyond the standard's are cardlab's
_CODES = {
    ("holdem", Betting.NO_LIMIT): "NT",
    ("holdem", Betting.FIXED_LIMIT): "FT",
    ("holdem", Betting.POT_LIMIT): "PT",
    ("omaha", Betting.POT_LIMIT): "PO",
    ("omaha", Betting.NO_LIMIT): "NO",
    ("omaha", Betting.FIXED_LIMIT): "FO",
    ("stud", Betting.FIXED_LIMIT): "F7S",
    ("stud", Betting.NO_LIMIT): "N7S",
    ("stud", Betting.POT_LIMIT): "P7S",
    ("draw", Betting.NO_LIMIT): "N5CD",
    ("draw", Betting.POT_LIMIT): "P5CD",
    ("draw", Betting.FIXED_LIMIT): "F5CD",
}
_GAMES = {code: key for key, code in _CODES.items()}


def variant_code(game: TableGame) -> str:
    """The PHH variant code of a game's base game and betting structure."""
    return _CODES[game.game.base.key, game.stakes.betting]


def to_history(
    hand: HandState, /, *, players: Sequence[str] | None = None, **fields: Any
) -> phh.HandHistory:
    """A finished hand as a PHH hand history (``fields``: more PHH fields, e.g.
    ``event``, ``table``, ``hand``)."""
    if hand.result is None:
        raise HistoryError("only a finished hand can be written as a history")
    game = hand.game
    stakes = game.stakes
    n = hand.players
    raw_antes = [stakes.ante + a for a in _padded(stakes.antes, n)]
    user: dict[str, Any] = {}
    deck = game.game.deck
    builtin = builtin_name(deck)
    if builtin is None:
        user["_deck"] = deck.definition()  # a user's deck goes with the hand
    elif builtin != "standard52":
        user["_deck"] = builtin
    if builtin is not None:
        user["_game"] = game.game.key
    changed = _changed_options(game)
    if changed:
        user["_rules"] = changed
    values: dict[str, Any] = {
        "variant": variant_code(game),
        "ante_trimming_status": stakes.ante_trimming,
        "antes": tuple(raw_antes),
        "starting_stacks": hand.starting_stacks,
        "actions": tuple(e.phh for e in hand.history if e.phh is not None),
        "finishing_stacks": hand.result.finishing_stacks,
    }
    if game.game.base.key == "stud":
        values |= {"bring_in": stakes.bring_in, "small_bet": stakes.small_bet}
        values["big_bet"] = stakes.big
    else:
        values["blinds_or_straddles"] = tuple(_padded(stakes.blinds, n))
        if stakes.betting is Betting.FIXED_LIMIT:
            values |= {"small_bet": stakes.small_bet, "big_bet": stakes.big}
        else:
            values["min_bet"] = stakes.small_bet
    if players is not None:
        values["players"] = tuple(players)
    values |= fields
    values["user_fields"] = user | values.get("user_fields", {})
    return phh.HandHistory(**values)


def _padded(values: tuple[int, ...], n: int) -> list[int]:
    return list(values[:n]) + [0] * max(0, n - len(values))


def _changed_options(game: TableGame) -> dict[str, str]:
    from cardlab.poker.rules import OPTIONS, RuleSet

    default = RuleSet.for_deck(game.game.deck)
    out = {}
    for name in OPTIONS:
        ours, theirs = getattr(game.game.rules, name), getattr(default, name)
        if ours != theirs:
            out[name] = _option_text(ours)
    if game.stud.bring_in.value != "low-card":
        out["stud_bring_in"] = game.stud.bring_in.value
    if game.stud.opener.value != "best-showing":
        out["stud_opener"] = game.stud.opener.value
    return out


def _option_text(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return " ".join(getattr(v, "key", str(v)) for v in value)
    return str(getattr(value, "value", value))


# --- replay -----------------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """A replayed hand: the engine's state, and the history's units (``scale``: the
    engine counts chips in units of 1/scale of the file's amounts)."""

    history: phh.HandHistory
    hand: HandState
    scale: int

    def amounts(self, values: Sequence[int]) -> list[int | Decimal]:
        """Engine chips back in the file's units."""
        if self.scale == 1:
            return list(values)
        return [Decimal(v) / self.scale for v in values]

    @property
    def finishing_stacks(self) -> list[int | Decimal]:
        return self.amounts(self.hand.stacks)

    @property
    def starting_stacks(self) -> list[int | Decimal]:
        return self.amounts(self.hand.starting_stacks)

    @property
    def winnings(self) -> list[int | Decimal]:
        return self.amounts(
            [f - s for f, s in zip(self.hand.stacks, self.hand.starting_stacks, strict=True)]
        )


def table_game_of(history: phh.HandHistory, scale: int = 1) -> TableGame:
    """The game and stakes a history is played with."""
    code = history.variant
    if code not in _GAMES:
        known = ", ".join(sorted(_GAMES))
        raise HistoryError(f"variant {code!r} is not played by cardlab (high poker only: {known})")
    base, betting = _GAMES[code]
    deck = history.deck
    game: str | Game
    if builtin_name(deck) is None:  # a user's deck, from its definition in _deck
        from cardlab.poker.rules import RuleSet

        game = Game(RuleSet.for_deck(deck), BASE_GAMES[base])
    else:
        game = f"{deck.name.lower()}-{base}"
        given = history.user_fields.get("_game")
        if isinstance(given, str) and given.strip():
            if get_game(given).base.key != base:
                raise HistoryError(f"_game {given!r} does not match variant {code!r}")
            game = given
    rules = history.user_fields.get("_rules", {})
    if not isinstance(rules, dict):
        raise HistoryError(f"_rules must be a table of options, got {rules!r}")
    options = {str(k): str(v) for k, v in rules.items()}
    stud_options: dict[str, Any] = {
        k: options.pop(k) for k in ("stud_bring_in", "stud_opener") if k in options
    }
    rule_options: dict[str, Any] = options

    def units(value: Any) -> int:
        return _units(value, scale)

    antes = tuple(units(a) for a in history.antes)
    kwargs: dict[str, Any] = {
        "betting": betting,
        "ante_trimming": history.ante_trimming_status,
        "antes": antes if any(antes) else 0,
    }
    if base == "stud":
        kwargs |= {
            "bring_in": units(history.bring_in or 0),
            "small_bet": units(history.small_bet),
            "big_bet": units(history.big_bet or 0),
        }
    else:
        kwargs["blinds"] = tuple(units(b) for b in history.blinds_or_straddles or ())
        if betting is Betting.FIXED_LIMIT:
            kwargs |= {"small_bet": units(history.small_bet), "big_bet": units(history.big_bet)}
        else:
            kwargs["small_bet"] = units(history.min_bet)
    return TableGame.create(game, **kwargs, **stud_options, **rule_options)


def _units(value: Any, scale: int) -> int:
    scaled = Decimal(value) * scale
    if scaled != scaled.to_integral_value():
        raise HistoryError(f"amount {value} is finer than the history's smallest unit")
    return int(scaled.to_integral_value())


def _scale(history: phh.HandHistory) -> int:
    amounts: list[Any] = [*history.antes, *history.starting_stacks]
    amounts += list(history.blinds_or_straddles or ())
    amounts += [history.bring_in, history.small_bet, history.big_bet, history.min_bet]
    amounts += [a.amount for a in history.actions if isinstance(a, pa.CompleteBetRaiseTo)]
    places = 0
    for a in amounts:
        if isinstance(a, Decimal):
            exponent = a.normalize().as_tuple().exponent
            if isinstance(exponent, int):
                places = max(places, -exponent)
    return int(10**places)


def replay(
    history: phh.HandHistory,
    *,
    label: str = "hand",
    on_step: Callable[[int, pa.Action | None, HandState], None] | None = None,
) -> Replay:
    """Play a history on the engine; a refused action names the hand and the action.

    A history that ends at the showdown without its show/muck lines is shown down in
    order (as pokerkit does); one that ends before the hand does is an error.
    ``on_step(k, action, hand)`` is called with the hand after each action ``k`` is
    taken, and once before the first with ``k`` -1 and no action (a replayer's steps).
    """
    scale = _scale(history)
    try:
        game = table_game_of(history, scale)
        stacks = [_units(s, scale) for s in history.starting_stacks]
        hand = HandState(game, stacks, deal="manual", showdown="manual")
    except HistoryError:
        raise
    except CardlabError as exc:
        raise HistoryError(f"{label}: {exc}") from None
    deck = game.game.deck
    if on_step is not None:
        on_step(-1, None, hand)
    for k, action in enumerate(history.actions):
        try:
            _apply(hand, action, deck, scale)
        except (ActionError, CardError, HistoryError) as exc:
            raise HistoryError(f"{label}: actions[{k}] {str(action)!r}: {exc}") from None
        if on_step is not None:
            on_step(k, action, hand)
    if not hand.is_over:
        if hand.phase is Phase.SHOWDOWN:
            hand.finish_showdown()
        else:
            raise HistoryError(
                f"{label}: the history ends before the hand does ({hand.street_name}, "
                f"waiting for {'cards' if hand.actor is None else f'p{hand.actor + 1}'})"
            )
    return Replay(history, hand, scale)


def _apply(hand: HandState, action: pa.Action, deck: Any, scale: int) -> None:
    if isinstance(action, pa.NoOp):
        return
    if isinstance(action, pa.DealHole):
        hand.deal_hole(action.player - 1, pa.split_cards(action.cards, deck))
        return
    if isinstance(action, pa.DealBoard):
        cards = pa.split_cards(action.cards, deck)
        if any(c is None for c in cards):
            raise HistoryError("board cards cannot be unknown")
        hand.deal_board([c for c in cards if c is not None])
        return
    player = action.player - 1
    if isinstance(action, pa.ShowMuck):
        if hand.has_shown(player) and action.cards is not None:
            # pokerkit shows again after an all-in runout, with the cards dealt since
            shown = pa.split_cards(action.cards, deck) if action.cards != "-" else ()
            held = hand.hole[player]
            if any(c is not None and c not in held for c in shown):
                raise HistoryError(f"p{player + 1} shows cards they do not hold")
            return
        if action.cards is None:
            hand.show_or_muck(False, player=player)
        elif action.cards == "-":
            hand.show_or_muck(True, player=player)
        else:
            shown = pa.split_cards(action.cards, deck)
            if any(c is None for c in shown) and any(c is None for c in hand.hole[player]):
                # shown face down in the record ("????"): a hand nobody can read wins
                # nothing, as in pokerkit
                hand.show_or_muck(False, player=player)
            else:
                hand.show_or_muck(True, shown, player=player)
        return
    if hand.phase is Phase.BET and hand.actor != player and player in hand.to_act:
        # a recorded hand may leave out folds (pokerkit's replay folds the players it
        # skips): fold those before ``player``, each of whom faces a bet; unless that
        # would end the hand (heads-up, the other player): then ``player`` is out of turn
        skipped = hand.to_act[: hand.to_act.index(player)]
        if len(hand.in_hand()) - len(skipped) >= 2:
            while hand.actor != player and hand.can_fold():
                hand.fold()
    if hand.actor != player:
        raise HistoryError(f"p{player + 1} acts out of turn ({_whose_turn(hand)})")
    if isinstance(action, pa.Fold):
        hand.fold()
    elif isinstance(action, pa.CheckCall):
        hand.check_or_call()
    elif isinstance(action, pa.PostBringIn):
        hand.bring_in()
    elif isinstance(action, pa.CompleteBetRaiseTo):
        hand.bet_or_raise_to(_units(action.amount, scale))
    elif isinstance(action, pa.StandPatDiscard):
        cards = pa.split_cards(action.cards, deck) if action.cards else ()
        hand.discard(cards)


def _whose_turn(hand: HandState) -> str:
    if hand.actor is not None:
        return f"p{hand.actor + 1} is to act"
    if hand.is_over:
        return "the hand is over"
    if hand.phase is Phase.DEAL:
        return "the cards are not dealt yet"
    return "nobody is to act"


# --- the store ----------------------------------------------------------------------


def record(
    hand: HandState,
    /,
    *,
    players: Sequence[str] | None = None,
    source: str,
    table_id: str | None = None,
    history: phh.HandHistory | None = None,
    **fields: Any,
) -> HandRecord:
    """A finished hand as a row of the hand store (its PHH text is the source of truth;
    ``history``: the hand's history when the caller already wrote it)."""
    from cardlab.cards import format_cards

    default = (f"p{i + 1}" for i in range(hand.players))
    names = tuple(players) if players is not None else tuple(default)
    if history is None:
        history = to_history(hand, players=names, **fields)
    assert hand.result is not None
    return HandRecord(
        game=hand.game.game.key,
        variant=history.variant,
        phh=phh.dumps(history),
        players=names,
        starting_stacks=hand.starting_stacks,
        finishing_stacks=hand.result.finishing_stacks,
        board=format_cards(hand.board),
        actions=sum(1 for e in hand.history if e.phh is not None and not e.phh.startswith("d ")),
        showdown=hand.result.showdown,
        decided_by=hand.result.decided_by,
        source=source,
        table_id=table_id,
        commitment=history.user_fields.get("_commitment"),
    )


def check_recordable(game: TableGame) -> None:
    """Raise :class:`HistoryError` unless hands of ``game`` can be written as PHH and
    replayed from it: a quiet hand (the first choice each time, folding where one may)
    is written, read back and replayed. Call it before the first hand is dealt, so that
    no played hand is lost for want of a way to keep it."""
    from cardlab.table.actions import Kind, apply, legal_actions

    stakes = game.stakes
    unit = max(1, stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big, *stakes.blinds)
    hand = HandState(game, [100 * unit, 100 * unit], seed=0)
    while not hand.is_over:
        choices = legal_actions(hand)
        apply(hand, next((a for a in choices if a.kind is Kind.FOLD), choices[0]))
    try:
        replay(phh.load(phh.dumps(to_history(hand))))
    except HistoryError as exc:
        why = str(exc) if len(str(exc)) <= 160 else str(exc)[:157] + "..."
        raise HistoryError(
            f"hands with the {game.game.deck.name} deck cannot be kept as hand histories: {why}"
        ) from None


def imported(r: Replay, *, source: str = "import") -> HandRecord:
    """A replayed history as a row of the hand store: its own PHH text, and its stacks
    in the engine's integer units (1/``r.scale`` of the file's amounts)."""
    from cardlab.cards import format_cards

    hand = r.hand
    assert hand.result is not None
    names = tuple(r.history.players or (f"p{i + 1}" for i in range(hand.players)))
    return HandRecord(
        game=hand.game.game.key,
        variant=r.history.variant,
        phh=phh.dumps(r.history),
        players=names,
        starting_stacks=hand.starting_stacks,
        finishing_stacks=hand.result.finishing_stacks,
        board=format_cards(hand.board),
        actions=sum(1 for e in hand.history if e.phh is not None and not e.phh.startswith("d ")),
        showdown=hand.result.showdown,
        decided_by=hand.result.decided_by,
        source=source,
    )
