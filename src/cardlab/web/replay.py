"""The hand replayer: a finished hand, step by step, as its viewer may see it.

A hand comes as PHH (:mod:`cardlab.table.phh`) and is played again on the engine
(:func:`cardlab.table.history.replay`); the state after the forced bets and after each
action is a *frame*: the street, what happened in words, the board, each player's stack,
bet and cards, the pots. Hole cards dealt one after another make one frame; the action
that ends the hand makes two, the pots before they are paid, then the awards with each
player's winnings (the last frame).

The hands come from three places, each seen as its viewer may see it:

- a web table's last hands (``Room.finished``): written for the caller's seat by
  :meth:`~cardlab.web.table_phh.FinishedHand.for_seat`, as the PHH download is (a
  spectator sees cards dealt face up and those shown at the showdown, nothing else);
- the hand store, by id: a web table's hand only with its table id in the address
  (``?table=``; store ids count up, table ids are secret) and written for the caller's
  seat the same way; any other hand (``cardlab play``, arena runs, imports) as stored;
- a PHH file the page reads and posts: everything in it.

Routes (mounted by :func:`cardlab.web.app.create_app`)::

    GET  /replay                              the replayer: open or drop a PHH file
    POST /api/replay                          {"phh": text, "hand"?: k} -> the frames
    GET  /tables/{id}/hands/{n}/replay        hand n of a table, replayed
    GET  /api/tables/{id}/hands/{n}/replay    its frames
    GET  /hands/{id}/replay[?table=T]         a hand of the store, replayed
    GET  /api/hands/{id}/replay[?table=T]     its frames

A bad request is a 400 ``{"error": ...}``, an unknown table or hand a 404 and a body
or PHH text over :data:`MAX_PHH` bytes a 413; never a 500.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.templating import Jinja2Templates

from cardlab import render
from cardlab.cards import Card, format_cards
from cardlab.errors import CardlabError, HistoryError
from cardlab.table import events as ev
from cardlab.table import narrate, phh
from cardlab.table import phh_actions as pa
from cardlab.table.history import Replay, replay
from cardlab.table.odds import AllInOdds, all_in_board_odds, all_in_odds
from cardlab.table.state import HandState
from cardlab.web.hands import card_name
from cardlab.web.payload import RequestError
from cardlab.web.table_manager import TableNotFound
from cardlab.web.table_phh import FinishedHand, showdown_summary, viewer_of
from cardlab.web.table_routes import browser_hash

if TYPE_CHECKING:
    from cardlab.web.table_routes import TableManager

log = logging.getLogger(__name__)

MAX_PHH = 1024 * 1024
"""The longest PHH text ``POST /api/replay`` replays (bytes of UTF-8)."""
MAX_BODY = 2 * MAX_PHH
"""The largest request body ``POST /api/replay`` reads (bytes): the text, JSON-escaped."""
MAX_ACTIONS = 2000
"""The most actions a replayed hand may have (a real hand has a few dozen)."""
MAX_AMOUNT = 10**15
"""The largest amount (stack, blind, bet) of a replayed hand."""
MAX_PLACES = 6
"""The most decimal places of an amount (online cash games write two)."""
MAX_MESSAGE = 300
UNKNOWN = "??"


class ReplayNotFound(CardlabError):
    """No such table or hand (HTTP 404)."""


class ReplayTooLarge(RequestError):
    """A request body or PHH text over the limits (HTTP 413)."""


# --- frames ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Step:
    """The hand after one step, in the engine's integer chips."""

    street: str  # the street the step happened in
    events: tuple[ev.Event, ...]  # what the step did
    index: int  # the last PHH action taken (-1: none, the forced bets)
    actor: int | None  # the position that acted
    hole_deal: bool  # the step dealt hole cards only
    board: tuple[str, ...]
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    cards: tuple[tuple[str, ...], ...]
    up: tuple[tuple[bool, ...], ...]
    alive: tuple[bool, ...]
    pots: tuple[tuple[int, tuple[int, ...]], ...]
    total_pot: int
    second_board: tuple[str, ...] | None = None  # a double board's second (home-games.md)
    run: int = 1  # which run of a board run more than once is being dealt
    runs_done: tuple[tuple[str, ...], ...] = ()  # the boards of the runs before it
    odds: Any = None  # the exact all-in odds (everyone all in), as the table shows them


def _double_board_odds(each: Sequence[AllInOdds]) -> dict[str, Any] | None:
    """A double board's odds as a frame shows them: each hand's share of the pot (the
    mean of its shares of the two boards, which split the pot), and each board's."""
    if not each:
        return None
    out = each[0].as_dict() | {"board": "", "boards": [o.as_dict() for o in each]}
    hands = []
    for k, first in enumerate(each[0].hands):
        share = {
            name: sum((getattr(o.hands[k], name) for o in each), Fraction(0)) / len(each)
            for name in ("win", "tie", "equity")
        }
        hands.append(
            {"player": first.player + 1, "cards": format_cards(first.cards)}
            | {name: float(v) for name, v in share.items()}
            | {"exact": {name: str(v) for name, v in share.items()}}
        )
    out["hands"] = hands
    return out


def _texts(cards: Sequence[Card | None]) -> tuple[str, ...]:
    return tuple(UNKNOWN if c is None else str(c) for c in cards)


def _step(
    hand: HandState,
    street: str,
    events: Sequence[ev.Event],
    index: int,
    action: pa.Action | None,
    odds: dict[tuple[Any, ...], Any] | None = None,
    *,
    run_over: bool = False,
) -> _Step:
    """``run_over``: the step dealt the last card of a run (the hand is at the next
    run's start already): the run's board as it ended."""
    player = getattr(action, "player", None)
    done = hand.run_boards[: hand.runs - 1] if hand.is_over else hand.run_boards
    board = tuple(hand.board)
    if run_over:  # the run this step completed
        done, board = done[:-1], done[-1]
    found = None
    key: tuple[Any, ...]
    if odds is not None and len(hand.boards) > 1:  # a double board: each board's odds
        key = (tuple(c for b in hand.boards for c in b), hand.all_in_board is not None)
        if key not in odds:
            odds[key] = _double_board_odds(all_in_board_odds(hand))
        found = odds[key]
    elif odds is not None:  # counted once per board and run (the steps between deals
        # share it; a later run's first board is the earlier runs' too, other odds)
        key = (board, len(done), hand.all_in_board is not None)
        if key not in odds:
            counted = all_in_odds(hand) if board == tuple(hand.board) else None
            odds[key] = None if counted is None else counted.as_dict()
        found = odds[key]
    acted = isinstance(player, int) and not isinstance(action, pa.DealHole | pa.DealBoard)
    return _Step(
        street=street,
        events=tuple(events),
        index=index,
        actor=player if acted and isinstance(player, int) else None,
        hole_deal=isinstance(action, pa.DealHole),
        board=_texts(board),
        stacks=tuple(hand.stacks),
        bets=tuple(hand.bets),
        cards=tuple(_texts(h) for h in hand.hole),
        up=tuple(tuple(u) for u in hand.up),
        alive=tuple(hand.alive),
        pots=tuple((p.amount, tuple(p.players)) for p in hand.pots()),
        total_pot=hand.total_pot,
        second_board=_texts(hand.boards[1]) if len(hand.boards) > 1 else None,
        run=len(done) + 1,
        runs_done=tuple(_texts(b) for b in done),
        odds=found,
    )


def _steps(history: phh.HandHistory, label: str) -> tuple[Replay, list[_Step]]:
    """Replay ``history``: the hand after its forced bets and after each action that did
    something, consecutive hole-card deals taken together."""
    steps: list[_Step] = []
    seen = 0
    street = ""
    odds: dict[tuple[Any, ...], Any] = {}

    def on_step(k: int, action: pa.Action | None, hand: HandState) -> None:
        nonlocal seen, street
        if action is None:
            street = hand.street_name
        new = hand.history[seen:]
        seen = len(hand.history)
        if new or action is None:  # a no-op line changes nothing
            cut = next((j for j, e in enumerate(new) if isinstance(e, ev.NewRun)), None)
            if cut is not None:  # a run ended: its last board, then the next run's start
                steps.append(_step(hand, street, new[:cut], k, action, odds, run_over=True))
                step = _step(hand, _board_street(hand), new[cut:], k, None, odds)
            else:
                step = _step(hand, street, new, k, action, odds)
            if step.hole_deal and steps and steps[-1].hole_deal:
                step = dataclasses.replace(step, events=steps.pop().events + step.events)
            steps.append(step)
        street = hand.street_name

    r = replay(history, label=label, on_step=on_step)
    if len(r.hand.history) > seen:  # shown down after the last line (no show lines)
        tail = r.hand.history[seen:]
        steps.append(_step(r.hand, street, tail, len(history.actions) - 1, None))
    return r, steps


def _board_street(hand: HandState) -> str:
    """The street whose cards the board shows (the runs' shared board at a run's start)."""
    dealt = 0
    name = hand.streets[0].name
    for street in hand.streets:
        dealt += street.board
        if dealt > len(hand.board):
            break
        if street.board:
            name = street.name
    return name


def _scaled(event: ev.Event, scale: int) -> Any:
    """The event with its chips in the file's units, for the words."""
    if scale == 1:
        return event
    if isinstance(event, ev.Award):
        return dataclasses.replace(event, amounts=tuple(Decimal(a) / scale for a in event.amounts))  # type: ignore[misc]
    amount = getattr(event, "amount", None)
    if isinstance(amount, int):
        return dataclasses.replace(event, amount=Decimal(amount) / scale)  # type: ignore[call-arg]
    return event


def _words(events: Sequence[ev.Event], names: Sequence[str], street: str, scale: int) -> list[str]:
    out = []
    for event in events:
        if isinstance(event, ev.DealBoard):
            out.append(f"{street}: {' '.join(_texts(event.cards))}")
            continue
        text = narrate.describe(_scaled(event, scale), names, deals=True)
        if text:
            out.append(text)
    return out


def _number(value: int, scale: int) -> int | float:
    """Engine chips in the file's units: exact when whole, else a float for display."""
    if scale == 1:
        return value
    exact = Decimal(value) / scale
    return int(exact) if exact == exact.to_integral_value() else float(exact)


INFINITE = "∞"  # an ``inf`` starting stack (HandHQ's iPoker hands): played as no bet reaches


def _frame(
    step: _Step, names: Sequence[str], scale: int, gone: dict[int, str], infinite: Sequence[bool]
) -> dict[str, Any]:
    """One frame; ``gone`` (position -> "folded" or "mucked", so far) is updated; the
    stacks of ``infinite`` players are shown as such."""
    for event in step.events:
        if isinstance(event, ev.Fold):
            gone[event.player] = "folded"
        elif isinstance(event, ev.ShowMuck) and event.cards is None:
            gone[event.player] = "mucked"
    lines = _words(step.events, names, step.street, scale)
    endless = list(infinite) or [False] * len(names)
    players = []
    for p, name in enumerate(names):
        players.append(
            {
                "name": name,
                "stack": INFINITE if endless[p] else _number(step.stacks[p], scale),
                "bet": _number(step.bets[p], scale),
                "cards": list(step.cards[p]),
                "up": list(step.up[p]),
                "in_hand": step.alive[p],
                "folded": gone.get(p) == "folded",
                "mucked": gone.get(p) == "mucked",
                "all_in": step.alive[p] and step.stacks[p] == 0,
            }
        )
    street = step.street
    if step.run > 1 and street != "result":
        street = f"run {step.run}: {street}"
    return {
        "street": street,
        "text": "; ".join(lines),
        "lines": lines,
        "index": step.index,
        "actor": None if step.actor is None else names[step.actor],
        "board": list(step.board),
        **({} if step.second_board is None else {"second_board": list(step.second_board)}),
        "players": players,
        "pots": [
            {"amount": _number(amount, scale), "players": [names[p] for p in who]}
            for amount, who in step.pots
        ],
        "total_pot": _number(step.total_pot, scale),
        "run": step.run,
        "runs_done": [list(b) for b in step.runs_done],
        "odds": step.odds,
    }


def _ending(last: _Step, hand: HandState) -> tuple[_Step | None, _Step]:
    """The step that ended the hand as two: up to the pots (None if it only paid them),
    then the awards."""
    result = hand.result
    assert result is not None
    first = next((i for i, e in enumerate(last.events) if isinstance(e, ev.Award)), None)
    if first is None:
        return None, last
    paid = [0] * hand.players
    for award in result.awards:
        for p, amount in zip(award.players, award.amounts, strict=True):
            paid[p] += amount
    before = dataclasses.replace(
        last,
        events=last.events[:first],
        stacks=tuple(s - a for s, a in zip(last.stacks, paid, strict=True)),
        bets=(0,) * hand.players,
        pots=tuple((pot.amount, pot.players) for pot in result.pots),
        total_pot=sum(paid),
    )
    awards = dataclasses.replace(last, street="result", events=last.events[first:], actor=None)
    return (before if before.events else None), awards


def _stacks(values: Sequence[int], scale: int, infinite: Sequence[bool]) -> list[Any]:
    endless = list(infinite) or [False] * len(values)
    return [INFINITE if e else _number(v, scale) for v, e in zip(values, endless, strict=True)]


def _card_info(hand: HandState, extra: Sequence[Card] = ()) -> dict[str, dict[str, str]]:
    """Each card the hand shows: its suit (for colour) and its name in words."""
    cards: dict[str, Card] = {}
    held = [c for h in hand.hole for c in h]
    for event in hand.history:
        held += list(getattr(event, "cards", None) or ())
    for c in [*held, *hand.board, *(c for b in hand.run_boards for c in b), *extra]:
        if isinstance(c, Card):
            cards[str(c)] = c
    return {text: {"suit": c.suit.key, "name": card_name(c)} for text, c in cards.items()}


def hand_frames(history: phh.HandHistory, *, label: str = "hand") -> dict[str, Any]:
    """The replay of one hand: its frames, the streets (the first frame of each) and
    what the page needs to draw them; a hand the engine cannot play is a
    :class:`~cardlab.errors.HistoryError`."""
    _check_size(history, label)
    r, steps = _steps(history, label)
    hand = r.hand
    names = [str(n) for n in history.players or [f"p{i + 1}" for i in range(hand.players)]]
    scale = r.scale
    before, last = _ending(steps[-1], hand)
    steps = steps[:-1] + ([before] if before is not None else []) + [last]
    gone: dict[int, str] = {}
    frames = [_frame(s, names, scale, gone, r.infinite) for s in steps]
    frames[0]["text"] = frames[0]["text"] or "the hand begins"
    winnings = [_number(w, scale) for w in hand.result.winnings] if hand.result else []
    frames[-1]["winnings"] = winnings
    streets: list[dict[str, Any]] = []
    for k, frame in enumerate(frames):
        if not streets or streets[-1]["name"] != frame["street"]:
            streets.append({"name": frame["street"], "frame": k})
    game = hand.game
    rabbit = _rabbit(history)
    return {
        "variant": history.variant,
        "game": game.key,
        "game_name": game.title,
        "stakes": game.stakes.describe() if scale == 1 else None,
        "players": names,
        "starting_stacks": _stacks(hand.starting_stacks, scale, r.infinite),
        "finishing_stacks": _stacks(hand.stacks, scale, r.infinite),
        "winnings": winnings,
        "cards": _card_info(hand, rabbit),
        "streets": streets,
        "frames": frames,
        "result": _summary(hand, names, scale),
        # a rabbit hunt's cards (the history's _rabbit field): shown, no part of the hand
        "rabbit": [str(c) for c in rabbit] or None,
    }


def _rabbit(history: phh.HandHistory) -> tuple[Card, ...]:
    value = history.user_fields.get("_rabbit")
    if not isinstance(value, str):
        return ()
    try:
        return tuple(history.deck.parse_cards(value))
    except CardlabError:
        return ()


def _summary(hand: HandState, names: Sequence[str], scale: int) -> dict[str, Any]:
    summary = showdown_summary(hand, names)
    for pot in summary["pots"]:
        pot["amount"] = _number(pot["amount"], scale)
    for row in summary["results"]:
        row["won"] = _number(row["won"], scale)
    return summary


def _is_endless(amount: object) -> bool:
    return isinstance(amount, Decimal) and amount.is_infinite() and amount > 0


def _check_size(history: phh.HandHistory, label: str) -> None:
    """Refuse a hand too big to replay on the web: too many actions, or amounts past
    :data:`MAX_AMOUNT` or finer than :data:`MAX_PLACES` decimal places (the engine counts
    in units of the finest amount)."""
    if len(history.actions) > MAX_ACTIONS:
        raise HistoryError(
            f"{label}: {len(history.actions)} actions; the replayer plays at most {MAX_ACTIONS}"
        )
    # an ``inf`` starting stack is a real convention (HandHQ's iPoker): played as a stack
    # no bet reaches; any other amount must be a number
    stacks = [s for s in history.starting_stacks if not _is_endless(s)]
    amounts: list[Any] = [*history.antes, *stacks]
    amounts += list(history.blinds_or_straddles or ())
    amounts += [history.bring_in, history.small_bet, history.big_bet, history.min_bet]
    amounts += [a.amount for a in history.actions if isinstance(a, pa.CompleteBetRaiseTo)]
    for amount in amounts:
        if amount is None:
            continue
        if isinstance(amount, Decimal) and not amount.is_finite():
            raise HistoryError(f"{label}: amount {amount} is not a number of chips")
        if amount > MAX_AMOUNT:
            raise HistoryError(f"{label}: amount {amount} is over the limit of {MAX_AMOUNT}")
        if isinstance(amount, Decimal):
            exponent = amount.normalize().as_tuple().exponent
            if isinstance(exponent, int) and exponent < -MAX_PLACES:
                raise HistoryError(
                    f"{label}: amount {amount} has more than {MAX_PLACES} decimal places"
                )


# --- where the hands come from ----------------------------------------------------------


def histories_of(text: str) -> list[phh.HandHistory]:
    """The hands of PHH text: one hand (``.phh``) or tables ``[1]``, ``[2]``, ... (``.phhs``)."""
    try:
        table = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        table = {}  # phh.loads says what is wrong
    if not table or "variant" in table or not all(isinstance(v, dict) for v in table.values()):
        return [phh.loads(text)]
    return phh.loads_all(text)


def uploaded(data: dict[str, Any]) -> dict[str, Any]:
    """``POST /api/replay``: hand ``hand`` (from 1) of the PHH text ``phh``."""
    text = data.get("phh")
    if not isinstance(text, str):
        raise RequestError(f"field 'phh' must be PHH text, got {type(text).__name__}")
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as exc:
        raise RequestError(
            f"the PHH text is not valid Unicode (at character {exc.start})"
        ) from None
    if size > MAX_PHH:
        raise ReplayTooLarge(f"the PHH text is {size} bytes; the replayer reads at most {MAX_PHH}")
    number = data.get("hand")
    number = 1 if number is None else number
    if isinstance(number, bool) or not isinstance(number, int):
        raise RequestError(f"field 'hand' must be a hand number from 1, got {str(number)[:40]!r}")
    try:
        hands = histories_of(text.removeprefix("\ufeff"))
    except (ValueError, TypeError, RecursionError, ArithmeticError) as exc:
        if isinstance(exc, CardlabError):
            raise
        raise HistoryError(f"not a PHH hand history: {exc}") from None
    if not 1 <= number <= len(hands):
        raise RequestError(
            f"the file has {len(hands)} hand(s): 'hand' is 1 to {len(hands)}, got {number}"
        )
    history = hands[number - 1]
    payload = _replayed(history, f"hand {number}")
    return payload | {
        "hand": number,
        "hands": len(hands),
        "title": f"hand {number} of {len(hands)}" if len(hands) > 1 else "the hand",
        "view": "everything in the file",
    }


def _replayed(history: phh.HandHistory, label: str) -> dict[str, Any]:
    try:
        return hand_frames(history, label=label)
    except CardlabError:
        raise
    except (ValueError, TypeError, ArithmeticError, IndexError, KeyError) as exc:
        log.warning("replaying %s failed", label, exc_info=True)
        raise HistoryError(
            f"{label}: this hand cannot be replayed ({type(exc).__name__})"
        ) from None


def _viewer_position(hand: FinishedHand, seat: int | None, sitting: str | None) -> int | None:
    """The position whose cards :meth:`FinishedHand.for_seat` leaves open (None: none)."""
    if seat is None or seat not in hand.seats:
        return None
    position = hand.seats.index(seat)
    sittings = hand.sittings
    if sittings and (not sittings[position] or sittings[position] != (sitting or "")):
        return None
    return position


@dataclass(frozen=True, slots=True)
class Source:
    """A hand to replay as its viewer may see it, and what the page says of it."""

    history: phh.HandHistory
    label: str
    about: dict[str, Any]
    you: int | None = None  # the viewer's position, whose cards are open

    def frames(self) -> dict[str, Any]:
        """The replay (a :class:`~cardlab.errors.HistoryError` if it cannot be played)."""
        payload = _replayed(self.history, self.label)
        names = payload["players"]
        you = None if self.you is None else names[self.you]
        return payload | self.about | {"you": you}


def _as_seen(hand: FinishedHand, seat: int | None, sitting: str | None, label: str) -> Source:
    """A table's hand as the person in ``seat`` may see it, exactly as the PHH download."""
    position = _viewer_position(hand, seat, sitting)
    if position is None:
        view = "as a spectator sees it: cards dealt face up and those shown at the showdown"
    else:
        view = "as you saw it: your cards, and those shown at the showdown"
    return Source(hand.for_seat(seat, sitting), label, {"view": view}, position)


def table_hand(manager: TableManager, request: Request) -> Source:
    """``GET /api/tables/{id}/hands/{n}/replay``: hand ``n`` of a live table."""
    table_id = request.path_params["table_id"]
    browser = browser_hash(request, table_id)
    try:
        room = manager.find(table_id, browser)
    except TableNotFound:
        raise ReplayNotFound(f"no table {table_id[:40]!r}") from None
    number = _whole(request.path_params["number"], "hand")
    kept = list(room.runner.finished)
    hand = next((h for h in kept if h.number == number), None)
    if hand is None:
        numbers = sorted(h.number for h in kept)
        held = f"hands {numbers[0]} to {numbers[-1]}" if numbers else "no finished hands yet"
        raise ReplayNotFound(f"no hand {number} at this table (it keeps {held})")
    seat = room.seating.seat_of_hash(browser)
    sitting = None if seat is None else room.seats[seat].sitting
    seat, sitting = viewer_of(hand, seat, sitting, room.seating.sittings_of(browser))
    source = _as_seen(hand, seat, sitting, f"hand {number}")
    about = {
        "hand": number,
        "title": f"{room.config.name or room.game.game.name}: hand {number}",
        "table": {"id": room.id, "url": f"/tables/{room.id}", "name": room.config.name},
        "phhs": f"/api/tables/{room.id}/hands.phhs",
    }
    return dataclasses.replace(source, about=source.about | about)


def stored_hand(manager: TableManager, request: Request) -> Source:
    """``GET /api/hands/{id}/replay[?table=T]``: a hand of the store."""
    hand_id = _whole(request.path_params["hand_id"], "hand")
    missing = ReplayNotFound(f"no hand {hand_id} in the hand store")
    try:
        record = manager.store.hand(hand_id)
    except CardlabError:
        raise missing from None
    label = f"hand {hand_id}"
    about = {"hand": hand_id, "title": f"stored hand {hand_id}"}
    if record.table_id is None:
        # a hand of `cardlab play`, the arena or an import: the store's owner's, so only
        # for a browser on this machine (not through a proxy): ids count up, and a
        # stranger must not page through someone's hands
        if not _local(request):
            raise missing
        return Source(phh.loads(record.phh), label, about | {"view": "every card of the hand"})
    if request.query_params.get("table") != record.table_id:
        raise missing  # a table's hands are for those who know the table
    browser = browser_hash(request, record.table_id)
    try:
        room: Any = manager.find(record.table_id, browser, wake=False)
    except TableNotFound:
        room = None
    seat = None if room is None else room.seating.seat_of_hash(browser)
    sitting = None if room is None or seat is None else room.seats[seat].sitting
    try:
        finished = FinishedHand.from_record(record)
    except (CardlabError, KeyError, TypeError, ValueError):
        raise HistoryError(f"{label}: the stored hand cannot be read") from None
    if room is not None:
        seat, sitting = viewer_of(finished, seat, sitting, room.seating.sittings_of(browser))
    source = _as_seen(finished, seat, sitting, label)
    table = {"id": record.table_id, "url": f"/tables/{record.table_id}", "name": None}
    return dataclasses.replace(source, about=source.about | about | {"table": table})


def _local(request: Request) -> bool:
    """A request from this machine, not relayed by a proxy."""
    host = request.client.host if request.client is not None else ""
    relayed = any(h in request.headers for h in ("x-forwarded-for", "forwarded", "x-real-ip"))
    return host in ("127.0.0.1", "::1") and not relayed


def _whole(text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 18:
        raise ReplayNotFound(f"no {what} {text[:40]!r}")
    return int(text)


# --- routes ---------------------------------------------------------------------------


async def _read(request: Request) -> dict[str, Any]:
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        raise ReplayTooLarge(
            f"the request is {declared} bytes; the replayer reads at most {MAX_BODY}"
        )
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise ReplayTooLarge(
                f"the request is over {MAX_BODY} bytes (a PHH file of 1 MB at most)"
            )
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        start = raw[:60].decode("utf-8", "replace")
        raise RequestError(f"the request body must be a JSON object: {start!r}") from None
    if not isinstance(data, dict):
        raise RequestError(f"the request body must be a JSON object: {str(data)[:60]!r}")
    return data


def _error(exc: Exception) -> Response:
    message = str(exc)
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 3] + "..."
    status = (
        404 if isinstance(exc, ReplayNotFound) else 413 if isinstance(exc, ReplayTooLarge) else 400
    )
    return JSONResponse({"error": message}, status_code=status)


def _json(value: Any) -> Response:
    return Response(render.to_json(value), media_type="application/json")


def replay_routes(manager: TableManager, templates: Jinja2Templates) -> list[BaseRoute]:
    """The replayer's pages and JSON (see the module documentation)."""

    def page(request: Request) -> Response:
        path = request.url.path
        api = None if path == "/replay" else "/api" + path
        if api is not None and request.url.query:
            api += "?" + request.url.query
        context = {"title": "Hand replayer", "page": "replay", "api": api}
        return templates.TemplateResponse(request, "replay.html", context)

    async def page_endpoint(request: Request) -> Response:
        return page(request)

    async def api_upload(request: Request) -> Response:
        try:
            data = await _read(request)
            return _json(await run_in_threadpool(uploaded, data))
        except CardlabError as exc:
            return _error(exc)

    async def api_table(request: Request) -> Response:
        try:
            source = table_hand(manager, request)  # on the loop, which changes the rooms
            return _json(await run_in_threadpool(source.frames))
        except CardlabError as exc:
            return _error(exc)

    async def api_stored(request: Request) -> Response:
        try:
            source = stored_hand(manager, request)
            return _json(await run_in_threadpool(source.frames))
        except CardlabError as exc:
            return _error(exc)

    return [
        Route("/replay", page_endpoint),
        Route("/api/replay", api_upload, methods=["POST"]),
        Route("/tables/{table_id}/hands/{number}/replay", page_endpoint),
        Route("/api/tables/{table_id}/hands/{number}/replay", api_table),
        Route("/hands/{hand_id}/replay", page_endpoint),
        Route("/api/hands/{hand_id}/replay", api_stored),
    ]
