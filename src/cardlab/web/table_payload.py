"""What a web table sends each client: the state as one seat sees it.

Everything comes from :func:`~cardlab.table.seat_view` for the client's own seat (a
spectator's view for a client with no seat), so no hidden card and no seed leaves the
server; the fair deal shows only its commitment and the seeds already revealed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardlab.table import Action, HandState, Legal, Phase, seat_view
from cardlab.table.house import seven_deuce_ranks
from cardlab.table.showdown import wins_a_share
from cardlab.web.table_errors import AWAY
from cardlab.web.table_phh import describe

if TYPE_CHECKING:  # the parts: a payload is drawn from them (none imports this module)
    from cardlab.web.table_chat import Chat
    from cardlab.web.table_fair import TableSeeds
    from cardlab.web.table_hand import HandRunner
    from cardlab.web.table_host import HostControls
    from cardlab.web.table_odds import TableOdds
    from cardlab.web.table_seats import Seating
    from cardlab.web.table_tournament import Director

LOG_LINES = 200


def default_action(legal: Legal, hand: HandState | None = None) -> Action:
    """What the clock plays: check if free, else fold; stand pat; bring in; run the
    board once; at the
    showdown show a hand the rules turn up or that wins or ties a pot (against the hands
    shown so far, :func:`shows_by_default`), else muck (``hand`` None: show)."""
    if legal.phase is Phase.DRAW:
        return Action.discard()
    if legal.phase is Phase.RUNS:
        return Action.runs(1)  # nobody answered: the board is run once
    if legal.phase is not Phase.BET:
        if hand is None or shows_by_default(hand, legal.player):
            return Action.show()
        return Action.muck()
    if legal.call == 0:
        return Action.call()
    if legal.call is None and legal.bring_in is not None:
        return Action.bring_in()
    return Action.fold() if legal.fold else Action.call()


def shows_by_default(hand: HandState, player: int) -> bool:
    """Whether ``player``, at the showdown, shows when nobody decides for them: when the
    rules turn the hand up (:meth:`HandState.must_show`), or when it wins or ties at
    least part of a pot it is in against the hands shown so far in that pot (a pot
    where nobody has shown yet is theirs so far)."""
    if hand.must_show():
        return True
    shown = {p for p in hand.shown_hands() if hand.alive[p]}
    mine = [pot for pot in hand.pots() if player in pot.players]
    rivals = {p for pot in mine for p in pot.players if p in shown}
    if not mine or not rivals:
        return True
    for pot in mine:
        in_pot = [p for p in pot.players if p in rivals]
        # the high hand or, in a split game, a qualifying low that no rival's beats
        if wins_a_share(hand, player, in_pot):
            return True
    return False


def presets(
    legal: Legal, pot: int, top_bet: int, to_call: int, all_in: int | None = None
) -> list[dict[str, Any]]:
    """Bet or raise sizes for the buttons: min, half pot, pot, and the top (all-in when
    the top is the player's whole stack, ``all_in``, else the limit: "max"), each a legal
    *to* amount (duplicates dropped)."""
    lo, hi = legal.raise_min, legal.raise_max
    if lo is None or hi is None:
        return []
    after_call = pot + to_call
    pot_raise = top_bet + after_call
    top = "all-in" if all_in is None or hi >= all_in else "max"
    if top == "max" and pot_raise == hi:
        top = "pot"  # pot-limit: the pot raise is the limit, and says so
    out: list[dict[str, Any]] = []
    seen: set[int] = set()
    for label, amount in (("min", lo), ("½ pot", top_bet + after_call // 2), ("pot", pot_raise)):
        amount = max(lo, min(hi, amount))
        if amount < hi and amount not in seen:
            seen.add(amount)
            out.append({"label": label, "amount": amount})
    out.append({"label": top, "amount": hi})
    return out


def payload(
    seat: int | None,
    *,
    host: bool,
    table_id: str,
    controls: HostControls,
    seating: Seating,
    runner: HandRunner,
    director: Director,
    fair: TableSeeds,
    chat: Chat,
    notices: list[str],
    connected: set[int],
    clock: float | None,
    status: str,
    closed: bool,
    closing: bool,
    odds: TableOdds | None = None,
) -> dict[str, Any]:
    """Everything the client of ``seat`` (None: a spectator) is sent; ``host``: the
    client is the table's host; ``clock``: seconds left to the decision in play;
    ``odds``: the table's exact odds (all-in odds for all, the viewer's own hint)."""
    session = runner.session
    config, game = controls.config, controls.game
    hand = session.hand
    position = None if hand is None or seat is None else session.position_of(seat)
    view = None if hand is None else seat_view(hand, position)
    names = runner.hand_names if hand is not None else []
    live = runner.live()
    # a closed table has nobody seated: the viewer's old seat is not theirs any more
    seat = None if seat is not None and seating.seats[seat].kind != "human" else seat
    players = []
    for i, info in enumerate(seating.seats):
        p = None if hand is None else session.position_of(i)
        pv = None if view is None or p is None else view.players[p]
        over = view is None or view.over
        players.append(
            {
                "seat": i + 1,
                "name": info.name,
                "kind": info.kind,
                "bot": info.bot,
                "stack": session.seats[i].stack if pv is None or over else pv.stack,
                "bet": 0 if pv is None else pv.bet,
                "in_hand": pv is not None and pv.in_hand,
                "all_in": pv is not None and pv.all_in and not over,
                "cards": [] if pv is None else ["??" if c is None else str(c) for c in pv.cards],
                "up": [] if pv is None else list(pv.up),
                "button": session.button == i,
                "actor": view is not None and p is not None and view.actor == p and not view.over,
                "connected": i in connected,
                "leaving": info.leaving,
                "sitting_out": info.sitting_out,
                "waiting": info.waiting,  # new here: comes in at the big blind or posts
                "you": seat == i,
                **_house_seat(runner, i),
            }
        )
    tournament = director.payload(live)
    stakes = game.stakes.describe()
    if tournament is not None:  # the level's stakes, not the table's first ones
        stakes = f"{game.stakes.betting.value}, {tournament['stakes']}"
    fair_shown = fair.public()
    if closed:  # no deal comes: no new commitment to promise, no client seed to send
        fair_shown = fair_shown | {"commitment": None, "next_deal": None}
    out: dict[str, Any] = {
        "type": "state",
        "table": {
            "id": table_id,
            "name": config.name,
            "game": config.game,
            "game_name": game.title,
            "base": game.game.base.key,
            "stakes": stakes,
            "config": config.shown(),
            "hand_number": session.hands_played + (1 if live else 0),
            "started": seating.started,
            "status": status,
            "open_seats": seating.open_seats,
            "practice": config.practice,
            "public": config.public,
            "closed": closed,
            "closing": closing,
            "paused": controls.paused,
            "buy_in_cap": config.buy_in_cap,
            "tournament": config.tournament,
            "house": _house_table(runner, config),
        },
        "fair": fair_shown,
        "notices": notices,
        "seats": players,
        "you": None if seat is None else {"seat": seat + 1, "name": seating.seats[seat].name},
        "host": host,
        "turn": runner.turn,
        "hand": None,
        "legal": None,
        "clock": None,
        "log": [],
        "last": runner.last,
        "tournament": tournament,
        # the uncontested winner may show (type "show")
        "can_show": runner.show_refusal(seat, closed) is None,
        "seat_requests": seating.requests.shown() if host else [],  # the host's alone
        "chat": chat.recent(host=host),  # the same for every client of (seat, host)
        "chat_mutes": chat.mutes() if host else [],
        # exact odds: every hand's when everyone left is all in, face up (street by
        # street, each run); the viewer's own hint when they turned hints on
        "odds": None if odds is None else odds.all_in(hand),
        "hints_on": odds is not None and seat is not None and seat in odds.hints_on,
        "hints_against": None if odds is None else odds.against_text(seat),
        "hint": None if odds is None or seat is None else odds.hint(hand, seat, position),
    }
    if view is not None and hand is not None:
        deal = runner.deal
        out["hand"] = {
            "street": view.street,
            "phase": view.phase.value,
            "board": [str(c) for c in view.board],
            "pots": [
                {"amount": p.amount, "players": [names[i] for i in p.players]} for p in view.pots
            ],
            "total_pot": view.total_pot,
            "over": view.over,
            "deal_number": deal.hand_number if deal is not None else None,
            "client_seeds": list(deal.client_seeds) if deal is not None else [],
            # the viewer was dealt into this hand (their client seed counts in it)
            "dealt_in": position is not None,
            **_house_hand(runner, hand),
            # a board run more than once: the runs dealt before this one, the choices
            "runs": hand.runs,
            "run_boards": [[str(c) for c in b] for b in hand.run_boards],
            "run_choices": {names[p]: c for p, c in hand.run_choices.items()},
        }
        out["log"] = [describe(e, names) for e in view.history][-LOG_LINES:]
        # a hand the rules turn up at the showdown is shown at once: nobody is asked
        asked = view.legal is not None and not (
            view.legal.phase is Phase.SHOWDOWN and hand.must_show()
        )
        if view.legal is not None and asked and not view.over:
            out["legal"] = _legal_payload(view.legal, view, hand)
        if clock is not None and hand.actor is not None:
            out["clock"] = {
                "seat": (session.seat_of(hand.actor) or 0) + 1,
                "remaining": clock,
                "total": config.clock,
            }
    return out


def _house_seat(runner: HandRunner, seat: int) -> dict[str, Any]:
    """A seat's home-game state: wants to straddle, the blinds it missed."""
    house = runner.house
    if house is None:
        return {}
    return {"straddles": house.straddles(seat), "owes": house.owes(seat)}


def _house_table(runner: HandRunner, config: Any) -> dict[str, Any]:
    """The table's home-game rules as the page shows them (docs/home-games.md)."""
    house = runner.house
    out: dict[str, Any] = {
        "straddle": config.straddle,
        "bomb_pot_every": config.bomb_pot_every,
        "bomb_pot_boards": config.bomb_pot_boards,
        "seven_deuce": config.seven_deuce,
        "dead_button": config.dead_button,
        "bomb_next": False,
    }
    if house is not None:
        out["bomb_next"] = house.bomb_due()
        if config.seven_deuce:
            out["seven_deuce_ranks"] = list(seven_deuce_ranks(runner.game().game.deck))
    return out


def _house_hand(runner: HandRunner, hand: HandState) -> dict[str, Any]:
    """The hand's home-game facts: a bomb pot, its second board, the straddler's seat."""
    plan = runner.plan_in_play
    out: dict[str, Any] = {}
    if plan is not None and plan.bomb_pot:
        out["bomb_pot"] = True
    if len(hand.boards) > 1:
        out["boards"] = [[str(c) for c in board] for board in hand.boards]
    if plan is not None and plan.straddle is not None:
        seat = runner.session.seat_of(plan.straddle)
        out["straddle_seat"] = None if seat is None else seat + 1
    return out


def status(
    *,
    runner: HandRunner,
    seating: Seating,
    director: Director,
    closed: bool,
    closing: bool,
    paused: bool,
    can_deal: Callable[[], bool],
    away: bool = False,
) -> str:
    """The table's status line (``away``: the table's store is unreachable)."""
    session = runner.session
    if closed:
        return "the table is closed"
    if away:
        return AWAY
    waits = seating.waiting_note()
    hand = session.hand
    if runner.live() and hand is not None:
        seat = session.seat_of(hand.actor) if hand.actor is not None else None
        who = "" if seat is None else f": {seating.seats[seat].name} to act"
        after = " (the table closes after this hand)" if closing else ""
        return f"hand {session.hands_played + 1}, {hand.street_name}{who}{after}{waits}"
    t = director.tournament
    if t is not None and t.over:
        return f"the tournament is over: {t.winner} wins"
    if len(session.next_order()) < 2:
        if sum(1 for s in seating.seats if s.kind != "open") < 2:
            return "waiting for players"
        return "the table is over: fewer than two players have chips"
    if not seating.started:
        return f"waiting for players ({seating.open_seats} open seats) or a start"
    if paused:
        return f"paused by the host{waits}"
    if not director.may_deal():
        return "hand for hand on the bubble: waiting for the other tables' hands"
    if not can_deal():
        return f"paused: nobody has watched the last {runner.unwatched} hands"
    if runner.last_number is not None:
        return f"hand {runner.last_number} is over: the next one comes shortly{waits}"
    return "the next hand is being dealt"


def _legal_payload(legal: Legal, view: Any, hand: HandState) -> dict[str, Any]:
    top = max(p.bet for p in view.players)
    me = view.players[legal.player]
    to_call = 0 if legal.call is None else legal.call
    return {
        "phase": legal.phase.value,
        "fold": legal.fold,
        "call": legal.call,
        "check": legal.call == 0,
        "bring_in": legal.bring_in,
        "raise_min": legal.raise_min,
        "raise_max": legal.raise_max,
        "complete": legal.complete,
        "bet": top == 0,
        "discard": legal.discard,
        "runs": legal.runs,  # the most runs this player may ask for (Phase.RUNS)
        # at the showdown: whether this hand may be mucked (the last one in cannot)
        "muck": hand.can_show_or_muck(False, legal.player)
        if legal.phase is Phase.SHOWDOWN
        else None,
        "hole": [str(c) for c in me.cards if c is not None],
        "presets": presets(legal, view.total_pot, top, to_call, me.stack + me.bet),
        "default": str(default_action(legal, hand)),
    }
