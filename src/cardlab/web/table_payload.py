"""What a web table sends each client: the state as one seat sees it.

Everything comes from :func:`~cardlab.table.seat_view` for the client's own seat (a
spectator's view for a client with no seat), so no hidden card and no seed leaves the
server; the fair deal shows only its commitment and the seeds already revealed.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from cardlab.table import Action, HandState, Legal, Phase, seat_view
from cardlab.table.showdown import wins_a_share
from cardlab.web.table_phh import describe
from cardlab.web.table_tournament import payload as tournament_payload

if TYPE_CHECKING:
    from cardlab.web.table_room import Room

LOG_LINES = 200


def default_action(legal: Legal, hand: HandState | None = None) -> Action:
    """What the clock plays: check if free, else fold; stand pat; bring in; at the
    showdown show a hand the rules turn up or that wins or ties a pot (against the hands
    shown so far, :func:`shows_by_default`), else muck (``hand`` None: show)."""
    if legal.phase is Phase.DRAW:
        return Action.discard()
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


def payload(room: Room, seat: int | None, *, host: bool = False) -> dict[str, Any]:
    """Everything the client of ``seat`` (None: a spectator) is sent; ``host``: the
    client is the table's host (may close it)."""
    session = room.session
    hand = session.hand
    position = None if hand is None or seat is None else session.position_of(seat)
    view = None if hand is None else seat_view(hand, position)
    names = room.hand_names if hand is not None else []
    connected = room.connected_seats()
    players = []
    for i, info in enumerate(room.seats):
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
            }
        )
    tournament = tournament_payload(room)
    stakes = room.game.stakes.describe()
    if tournament is not None:  # the level's stakes, not the table's first ones
        stakes = f"{room.game.stakes.betting.value}, {tournament['stakes']}"
    out: dict[str, Any] = {
        "type": "state",
        "table": {
            "id": room.id,
            "name": room.config.name,
            "game": room.config.game,
            "game_name": room.game.title,
            "base": room.game.game.base.key,
            "stakes": stakes,
            "config": room.config.shown(),
            "hand_number": session.hands_played + (1 if room.live() else 0),
            "started": room.started,
            "status": room.status(),
            "open_seats": room.open_seats,
            "practice": room.config.practice,
            "public": room.config.public,
            "closed": room.closed,
            "closing": room.closing,
            "paused": room.paused,
            "buy_in_cap": room.config.buy_in_cap,
        },
        "fair": room.fair.public(),
        "notices": list(room.notices),
        "seats": players,
        "you": None if seat is None else {"seat": seat + 1, "name": room.seats[seat].name},
        "host": host,
        "turn": room.turn,
        "hand": None,
        "legal": None,
        "clock": None,
        "log": [],
        "last": room.last,
        "tournament": tournament,
        "can_show": room.can_show(seat),  # the uncontested winner may show (type "show")
        "seat_requests": room.seat_requests.shown() if host else [],  # the host's alone
        "chat": room.chat.recent(host=host),  # the same for every client of (seat, host)
        "chat_mutes": room.chat.mutes() if host else [],
    }
    if view is not None and hand is not None:
        out["hand"] = {
            "street": view.street,
            "phase": view.phase.value,
            "board": [str(c) for c in view.board],
            "pots": [
                {"amount": p.amount, "players": [names[i] for i in p.players]} for p in view.pots
            ],
            "total_pot": view.total_pot,
            "over": view.over,
            "deal_number": room.deal.hand_number if room.deal is not None else None,
            "client_seeds": list(room.deal.client_seeds) if room.deal is not None else [],
        }
        out["log"] = [describe(e, names) for e in view.history][-LOG_LINES:]
        # a hand the rules turn up at the showdown is shown at once: nobody is asked
        asked = view.legal is not None and not (
            view.legal.phase is Phase.SHOWDOWN and hand.must_show()
        )
        if view.legal is not None and asked and not view.over:
            out["legal"] = _legal_payload(view.legal, view, hand)
        if room.deadline is not None and hand.actor is not None:
            loop = asyncio.get_running_loop()
            out["clock"] = {
                "seat": (session.seat_of(hand.actor) or 0) + 1,
                "remaining": max(0.0, room.deadline - loop.time()),
                "total": room.config.clock,
            }
    return out


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
        # at the showdown: whether this hand may be mucked (the last one in cannot)
        "muck": hand.can_show_or_muck(False, legal.player)
        if legal.phase is Phase.SHOWDOWN
        else None,
        "hole": [str(c) for c in me.cards if c is not None],
        "presets": presets(legal, view.total_pot, top, to_call, me.stack + me.bet),
        "default": str(default_action(legal, hand)),
    }
