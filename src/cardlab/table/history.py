"""Hand histories and the engine: write a finished hand as PHH, replay PHH on the engine.

:func:`to_history` turns a finished :class:`~cardlab.table.state.HandState` into a
:class:`~cardlab.table.phh.HandHistory` in the variant codes of pokerkit and the public
datasets (NT, FT, PO, F7S) or cardlab's own where PHH has none (docs/phh.md), with the
deck, game and rule options in user fields for FESCA/TESCA decks. :func:`replay` plays
a history on the engine, dealing its cards and taking its actions in order; an action
the rules refuse is a :class:`~cardlab.errors.HistoryError` naming the hand's action.

Amounts written with decimals (online cash games, ``0.25``) are played in integer
units of the smallest decimal (finer when a split pot needs it: money splits exactly, as
in pokerkit) and reported back in the file's units; an ``inf`` starting stack is played
as a stack no bet reaches and reported as ``inf``. The real sites' conventions a replay
reads (``sm ????``, shows after an uncontested pot, posts) are in docs/phh.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import repeat
from typing import Any

from cardlab.cards import Card
from cardlab.decks import builtin_name
from cardlab.errors import ActionError, CardError, CardlabError, GameError, HistoryError
from cardlab.store import HandRecord
from cardlab.table import events as ev
from cardlab.table import phh
from cardlab.table import phh_actions as pa
from cardlab.table.state import MAX_RUNS, HandState, Phase, card_codes
from cardlab.table.structure import Betting, TableGame, phh_code, phh_game


def variant_code(game: TableGame) -> str:
    """The PHH variant code of a game's variant and betting structure."""
    try:
        return phh_code(game)
    except GameError as e:  # a variant with a betting PHH has no code for
        raise HistoryError(str(e)) from None


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
    if len(hand.boards) > 1:  # a double board: PHH has no field for it (docs/home-games.md)
        user["_boards"] = len(hand.boards)
    if hand.runs > 1:
        user["_runs"] = hand.runs  # PHH has no action for it (docs/phh.md)
    if hand.rabbit is not None:
        user["_rabbit"] = " ".join(c.ascii for c in hand.rabbit)
    values: dict[str, Any] = {
        "variant": variant_code(game),
        "ante_trimming_status": stakes.ante_trimming,
        "antes": tuple(raw_antes),
        "starting_stacks": hand.starting_stacks,
        "actions": tuple(a for e in hand.history if (a := e.phh_action) is not None),
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
    engine counts chips in units of 1/scale of the file's amounts). A starting stack of
    ``inf`` (HandHQ's iPoker hands) is played as a stack no bet can reach, and
    reported as ``inf`` again (``infinite``: which players had one)."""

    history: phh.HandHistory
    hand: HandState
    scale: int
    infinite: tuple[bool, ...] = ()

    def amounts(self, values: Sequence[int]) -> list[int | Decimal]:
        """Engine chips back in the file's units."""
        if self.scale == 1:
            return list(values)
        return [Decimal(v) / self.scale for v in values]

    def _stacks(self, values: Sequence[int]) -> list[int | Decimal]:
        out = self.amounts(values)
        for i, endless in enumerate(self.infinite):
            if endless:
                out[i] = _INFINITY
        return out

    @property
    def starting_stacks(self) -> list[int | Decimal]:
        return self._stacks(self.hand.starting_stacks)

    @property
    def finishing_stacks(self) -> list[int | Decimal]:
        return self._stacks(self.hand.stacks)

    @property
    def net(self) -> list[int | Decimal]:
        """Each player's finishing minus starting stack (finite with ``inf`` stacks too)."""
        return self.amounts(
            [f - s for f, s in zip(self.hand.stacks, self.hand.starting_stacks, strict=True)]
        )

    @property
    def winnings(self) -> list[int | Decimal]:
        """What each player collected from the pots (PHH's ``winnings``, as pokerkit
        counts them: the uncontested winner collects their own bet as far as it was
        called, and only the part nobody called goes back as uncalled)."""
        return self.amounts(collected(self.hand))

    def mismatches(self) -> list[str]:
        """How the history's recorded ``finishing_stacks`` differ from the replay's, one
        line per player; empty when they agree or the history records none. (Recorded
        ``winnings`` are not compared: sites write them after the rake.) A site's hand
        (a ``_rake`` user field) records its stacks after the rake: they agree when the
        replay's are as big or bigger by shares that add up to the rake."""
        recorded = self.history.finishing_stacks
        if recorded is None:
            return []
        names = self.history.players or tuple(f"p{i + 1}" for i in range(self.hand.players))
        rake = self.history.user_fields.get("_rake")  # a site's hand: stacks after the rake
        if isinstance(rake, int | Decimal) and rake:
            mine = self.finishing_stacks
            shares = [Decimal(m) - Decimal(t) for t, m in zip(recorded, mine, strict=True)]
            if all(s >= 0 for s in shares) and sum(shares) == rake:
                return []
        return [
            f"finishing_stacks[{i}] ({names[i]}): the file says {pa.format_amount(theirs)}, "
            f"the replay gives {pa.format_amount(mine)}"
            for i, (theirs, mine) in enumerate(zip(recorded, self.finishing_stacks, strict=True))
            if theirs != mine
        ]


_INFINITY = Decimal("Infinity")
# the events that are a player's action (the rest: forced bets, deals, returns, awards)
_PLAYER_ACTIONS = (
    ev.Fold,
    ev.CheckCall,
    ev.CompleteBetRaiseTo,
    ev.PostBringIn,
    ev.StandPatDiscard,
    ev.ShowMuck,
)


def collected(hand: HandState) -> list[int]:
    """What each player of a finished hand collected from the pots, in chips.

    The engine gives the last player left their whole last bet back and the pot
    without it; pokerkit (and PHH's ``winnings``) returns only the part of that bet
    nobody called and pays the called part with the pot. Same stacks, other words:
    the called part is counted here as collected."""
    n = hand.players
    won = [0] * n
    bets = [0] * n
    returned: tuple[int, int] | None = None
    for event in hand.history:
        if isinstance(event, ev.NewStreet):
            if event.index > 0:
                bets, returned = [0] * n, None
        elif isinstance(event, ev.PostBlind | ev.CheckCall | ev.PostBringIn):
            bets[event.player] += event.amount
        elif isinstance(event, ev.CompleteBetRaiseTo):
            bets[event.player] = event.chips
        elif isinstance(event, ev.ReturnBet):
            returned = (event.player, event.amount)
        elif isinstance(event, ev.Award):
            for p, amount in zip(event.players, event.amounts, strict=True):
                won[p] += amount
    result = hand.result
    if result is not None and not result.showdown and returned is not None:
        winner, amount = returned
        if amount == bets[winner]:  # the whole last bet came back
            called = max((b for i, b in enumerate(bets) if i != winner), default=0)
            won[winner] += min(amount, called)
    return won


def table_game_of(history: phh.HandHistory, scale: int = 1) -> TableGame:
    """The game and stakes a history is played with."""
    code = history.variant
    try:  # the variant codes are data of structure.py
        game, variant, betting = phh_game(code, history.deck, history.user_fields.get("_game"))
    except GameError as e:
        raise HistoryError(str(e)) from None
    base = variant.base
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
    return TableGame.create(game, variant=variant, **kwargs, **stud_options, **rule_options)


_GAMES_SEEN: dict[tuple[Any, ...], TableGame] = {}


def _table_game(history: phh.HandHistory, scale: int) -> TableGame:
    """:func:`table_game_of`, remembered (the hands of a file share a few games)."""
    fields = history.user_fields
    key = (
        history.variant,
        history.ante_trimming_status,
        history.antes,
        history.blinds_or_straddles,
        history.bring_in,
        history.small_bet,
        history.big_bet,
        history.min_bet,
        scale,
        *((repr(fields.get(name)) for name in ("_deck", "_game", "_rules")) if fields else ()),
    )
    game = _GAMES_SEEN.get(key)
    if game is None:
        game = table_game_of(history, scale)
        if len(_GAMES_SEEN) >= 512:
            _GAMES_SEEN.clear()
        _GAMES_SEEN[key] = game
    return game


def _units(value: Any, scale: int) -> int:
    if scale == 1 and type(value) is int:
        return value
    scaled = Decimal(value) * scale
    if not scaled.is_finite():
        raise HistoryError(f"amount {value} is not a finite number")
    if scaled != scaled.to_integral_value():
        raise HistoryError(f"amount {value} is finer than the history's smallest unit")
    return int(scaled)


def _places(history: phh.HandHistory) -> int | None:
    """The most decimal places of the history's amounts; None when every amount is an
    integer (chips), 0 when some are written with a decimal point but no digit after
    it needs one (``1.0``): money, which pokerkit splits exactly."""
    amounts: list[Any] = [*history.antes, *history.starting_stacks]
    amounts += list(history.blinds_or_straddles or ())
    amounts += [history.bring_in, history.small_bet, history.big_bet, history.min_bet]
    # the bets' amounts (the other records have none: 0)
    amounts += map(getattr, history.actions, repeat("amount"), repeat(0))
    if set(map(type, amounts)) <= _CHIPS:
        return None  # the usual case, quickly: every amount in chips
    places: int | None = None
    for a in amounts:
        if type(a) is int or a is None:  # chips: most amounts of most files
            continue
        if isinstance(a, Decimal) and a.is_finite():
            exponent = a.normalize().as_tuple().exponent
            if isinstance(exponent, int):
                places = max(places or 0, -exponent)
    return places


_CHIPS = {int, type(None)}
_INT = {int}


def _is_infinite(amount: int | Decimal) -> bool:
    return isinstance(amount, Decimal) and amount.is_infinite()


def _endless_stack(history: phh.HandHistory, scale: int) -> int:
    """A stack no bet of the history can reach, for its ``inf`` starting stacks: ten
    times every finite amount it names together (and at least a billion)."""
    amounts: list[Any] = [*history.antes, *(history.blinds_or_straddles or ())]
    amounts += [s for s in history.starting_stacks if not _is_infinite(s)]
    amounts += [history.bring_in, history.small_bet, history.big_bet, history.min_bet]
    amounts += [a.amount for a in history.actions if isinstance(a, pa.CompleteBetRaiseTo)]
    total = sum((abs(Decimal(a)) for a in amounts if a is not None), Decimal(0))
    return max(10**9 * scale, 10 * _units(total, scale) + 1)


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

    A split pot of a history in integers (chips) gives the odd chips to the first
    winner; in a history whose amounts are written with a decimal point (money) it
    splits exactly, as pokerkit splits ``Decimal`` amounts (docs/phh.md).
    """
    places = _places(history)
    scale = 10 ** (places or 0)
    if places is None:  # chips
        return _replay(history, scale, label, on_step)
    r = _replay(history, scale, label, None)
    awards = r.hand.result.awards if r.hand.result is not None else ()
    ways = [len(a.players) for a in awards if len(set(a.amounts)) > 1]
    if ways:  # an uneven split of money: play again in units that split exactly
        r = _replay(history, scale * math.lcm(*ways), label, None)
    if on_step is not None:  # the steps, in the units the hand is reported in
        r = _replay(history, r.scale, label, on_step)
    return r


def _replay(
    history: phh.HandHistory,
    scale: int,
    label: str,
    on_step: Callable[[int, pa.Action | None, HandState], None] | None,
) -> Replay:
    chips = scale == 1 and set(map(type, history.starting_stacks)) == _INT
    # an inf stack is a Decimal: none among stacks in chips
    infinite = () if chips else tuple(map(_is_infinite, history.starting_stacks))
    try:
        game = _table_game(history, scale)
        endless = _endless_stack(history, scale) if any(infinite) else 0
        stacks: list[int] = (
            list(history.starting_stacks)  # type: ignore[arg-type]  # chips: all int
            if chips
            else [
                endless if inf else _units(s, scale)
                for s, inf in zip(history.starting_stacks, infinite, strict=True)
            ]
        )
        boards = history.user_fields.get("_boards", 1)
        if boards not in (1, 2):
            raise HistoryError(f"_boards is 1 or 2 (a double board), got {boards!r}")
        runs = _runs_of(history)
        hand = HandState(game, stacks, deal="manual", showdown="manual", boards=boards, runs=runs)
    except HistoryError as exc:
        raise HistoryError(f"{label}: {exc}") from None
    except CardlabError as exc:
        raise HistoryError(f"{label}: {exc}") from None
    deck = game.game.deck
    tokens = _tokens(deck)
    if on_step is not None:
        on_step(-1, None, hand)
    for k, action in enumerate(history.actions):
        try:
            if hand.phase is Phase.RUNS:  # everyone agreed to the count the file keeps
                while hand.phase is Phase.RUNS:
                    hand.choose_runs(runs)
            _apply(hand, action, tokens, deck, scale)
        except (ActionError, CardError, HistoryError) as exc:
            raise HistoryError(f"{label}: actions[{k}] {str(action)!r}: {exc}") from None
        if on_step is not None:
            on_step(k, action, hand)
    while hand.phase is Phase.RUNS:
        hand.choose_runs(runs)
    if not hand.is_over:
        if hand.phase is Phase.SHOWDOWN:
            try:
                hand.finish_showdown()
            except CardlabError as exc:
                raise HistoryError(f"{label}: at the showdown: {exc}") from None
        else:
            raise HistoryError(
                f"{label}: the history ends before the hand does ({hand.street_name}, "
                f"waiting for {'cards' if hand.actor is None else f'p{hand.actor + 1}'})"
            )
    return Replay(history, hand, scale, infinite if any(infinite) else ())


def _runs_of(history: phh.HandHistory) -> int:
    """How many times the history ran its board (the user field ``_runs``, 1 without)."""
    runs = history.user_fields.get("_runs", 1)
    if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= MAX_RUNS:
        raise HistoryError(f"_runs is a whole number of runs from 1 to {MAX_RUNS}: {runs!r}")
    return runs


def _cards(token: str, deck: Any) -> tuple[Card | None, ...]:
    """:func:`phh_actions.split_cards`, remembered per deck without hashing the deck."""
    return _dealt(_tokens(deck), token, deck)[0]


def _tokens(deck: Any) -> dict[str, _Dealt]:
    """The card tokens read so far with ``deck`` (found by identity, not by hashing it)."""
    found = _TOKENS.get(id(deck))
    if found is None or found[0] is not deck:
        if len(_TOKENS) >= 16:
            _TOKENS.clear()
        found = _TOKENS[id(deck)] = (deck, {})
    return found[1]


def _dealt(tokens: dict[str, _Dealt], token: str, deck: Any) -> _Dealt:
    """A card token's cards, and the bit mask of their codes in ``deck`` for the
    engine's dealing (-1: a card given twice, so the engine's full checks say why)."""
    found = tokens.get(token)
    if found is None:
        cards = pa.split_cards(token, deck)
        codes = card_codes(deck)
        mask = 0
        for c in cards:
            if c is not None:
                code = codes.get(id(c))  # split_cards gives the deck's own cards
                bit = 0 if code is None else 1 << code
                mask = -1 if not bit or mask & bit or mask < 0 else mask | bit
        found = (cards, mask)
        if len(tokens) >= 8192:
            tokens.clear()
        tokens[token] = found
    return found


_Dealt = tuple[tuple[Card | None, ...], int]
_TOKENS: dict[int, tuple[Any, dict[str, _Dealt]]] = {}


def _apply(
    hand: HandState, action: pa.Action, tokens: dict[str, _Dealt], deck: Any, scale: int
) -> None:
    kind = type(action)
    if kind not in _RECORDS:  # a subclass of a record: played as the record
        kind = next(k for k in pa.ACTION_TYPES if isinstance(action, k))
    if kind is pa.DealHole:  # the most common action first
        cards, mask = _dealt(tokens, action.token, deck)  # type: ignore[union-attr,arg-type]
        hand._deal_hole_masked(action.player, cards, mask)  # type: ignore[union-attr]
        return
    if kind is pa.NoOp:
        return
    if kind is pa.DealBoard:
        cards, mask = _dealt(tokens, action.token, deck)  # type: ignore[union-attr,arg-type]
        if None in cards:
            raise HistoryError("board cards cannot be unknown")
        hand._deal_board_masked(cards, mask)  # type: ignore[arg-type]
        return
    player = action.player  # type: ignore[union-attr]
    if kind is pa.ShowMuck:
        _show_or_muck(hand, player, action.token, deck)  # type: ignore[union-attr]
        return
    if hand.actor != player:
        if hand.phase is Phase.BET and player in hand.to_act:
            # a recorded hand may leave out folds (pokerkit's replay folds the players
            # it skips): fold those before ``player``, each of whom faces a bet; unless
            # that would end the hand (heads-up, the other player): then ``player`` is
            # out of turn
            skipped = hand.to_act[: hand.to_act.index(player)]
            if len(hand.in_hand()) - len(skipped) >= 2:
                while hand.actor != player and hand.can_fold():
                    hand.fold()
        if hand.actor != player:
            raise HistoryError(f"p{player + 1} acts out of turn ({_whose_turn(hand)})")
    if kind is pa.Fold:
        hand.fold()
    elif kind is pa.CheckCall:
        hand.check_or_call()
    elif kind is pa.CompleteBetRaiseTo:
        hand.bet_or_raise_to(_units(action.amount, scale))  # type: ignore[union-attr]
    elif kind is pa.PostBringIn:
        hand.bring_in()
    elif kind is pa.StandPatDiscard:
        cards = _cards(action.token, deck) if action.token else ()  # type: ignore[union-attr]
        hand.discard(cards)


_RECORDS = frozenset(pa.ACTION_TYPES)


def _show_or_muck(hand: HandState, player: int, token: str | None, deck: Any) -> None:
    shown = _cards(token, deck) if token is not None and token != "-" else ()
    if token is not None and hand.has_shown(player):
        # pokerkit shows again after an all-in runout, with the cards dealt since
        held = hand.hole[player]
        if any(c is not None and c not in held for c in shown):
            raise HistoryError(f"p{player + 1} shows cards they do not hold")
        return
    if token is None:
        hand.show_or_muck(False, player=player)
    elif token == "-":
        hand.show_or_muck(True, player=player)
    elif any(c is None for c in shown):
        # shown face down ("????", or partly, "??Ad"): HandHQ writes "????" for every
        # all-in player on each street of the runout, then the real cards. During the
        # runout it changes nothing (the player stays at the showdown); at the last
        # showdown nobody can read the hand, as in pokerkit: it wins only a pot no
        # readable hand can win, split among its players (showdown.settle_pots)
        if not hand.is_over:
            hand.verify_show_or_muck(False, player)  # at the showdown, or why not
        if hand.phase is Phase.SHOWDOWN:
            hand.hole[player] = [None] * len(hand.hole[player])
    else:
        hand.show_or_muck(True, shown, player=player)


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
        game=hand.game.key,
        variant=history.variant,
        phh=phh.dumps(history),
        players=names,
        starting_stacks=hand.starting_stacks,
        finishing_stacks=hand.result.finishing_stacks,
        board=format_cards(hand.board),
        actions=_player_actions(hand),
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
        replay(phh.loads(phh.dumps(to_history(hand))))
    except HistoryError as exc:
        why = str(exc) if len(str(exc)) <= 160 else str(exc)[:157] + "..."
        raise HistoryError(
            f"hands with the {game.game.deck.name} deck cannot be kept as hand histories: {why}"
        ) from None


def imported(r: Replay, *, source: str = "import", text: str | None = None) -> HandRecord:
    """A replayed history as a row of the hand store: its own PHH text (``text``, when
    the caller has written it already), and its stacks in the engine's integer units
    (1/``r.scale`` of the file's amounts; an ``inf`` stack as the stack it was played
    with, so that finishing minus starting is the player's net)."""
    from cardlab.cards import format_cards

    hand = r.hand
    assert hand.result is not None
    names = tuple(r.history.players or (f"p{i + 1}" for i in range(hand.players)))
    return HandRecord(
        game=hand.game.key,
        variant=r.history.variant,
        phh=phh.dumps(r.history) if text is None else text,
        players=names,
        starting_stacks=hand.starting_stacks,
        finishing_stacks=hand.result.finishing_stacks,
        board=format_cards(hand.board),
        actions=_player_actions(hand),
        showdown=hand.result.showdown,
        decided_by=hand.result.decided_by,
        source=source,
    )


def _player_actions(hand: HandState) -> int:
    """How many of the hand's events are a player's action."""
    return sum(map(_PLAYER_ACTION_TYPES.__contains__, map(type, hand.history)))


_PLAYER_ACTION_TYPES = frozenset(_PLAYER_ACTIONS)
