"""The hands of a web table, one after another: each deal recorded in the store before
any card is shown, each action checked and turned into its write-ahead steps
(:mod:`cardlab.web.table_steps`), the end of a hand stored with the table's new state,
a hand in play replayed after a restart, and a show after a hand won uncontested.

:class:`HandRunner` owns the hand in play's fair deal and dealer, its players' names
and sittings, the count of its stored actions, the ``turn`` (every change of the live
hand, which a client may echo), whether an action is being stored, the finished hands
kept for the PHH download, the last hand's summary and its show window. It is given the
table's :class:`~cardlab.web.table_outlets.Outlets`, the session, the seating, the fair
seeds and the tournament director in its constructor; what happens next after a change
(a decision's clock or bot, the end of the hand) is the room's ``on_change`` callback.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import re
from collections import deque
from collections.abc import Callable
from typing import Any

from cardlab.errors import ActionError, CardlabError
from cardlab.table import Action, HandState, Session, TableGame, apply
from cardlab.table.actions import check_action
from cardlab.table.dealing import Dealer, FairDeal, parse_server_seed
from cardlab.table.history import record
from cardlab.table.phh import dumps as phh_text
from cardlab.web.table_config import TableConfig
from cardlab.web.table_fair import TableSeeds
from cardlab.web.table_house import DealPlan, HouseRules
from cardlab.web.table_outlets import Outlets
from cardlab.web.table_phh import FinishedHand, finished, showdown_summary
from cardlab.web.table_seats import Seating
from cardlab.web.table_steps import Announce, ApplyAction, NextDecision, Step, StoreAction
from cardlab.web.table_tournament import Director

__all__ = ["KEEP_HANDS", "HandRunner"]

log = logging.getLogger(__name__)

KEEP_HANDS = 100  # finished hands kept in memory per table for the PHH download


class HandRunner:
    """The hands of one table; see the module documentation. ``state()``: the table's
    state as stored with a deal or a hand's end; ``on_change()``: the room schedules
    the next decision (or the end of the hand) and tells the clients."""

    def __init__(
        self,
        outlets: Outlets,
        session: Session,
        seating: Seating,
        fair: TableSeeds,
        director: Director,
        config: Callable[[], TableConfig],
        game: Callable[[], TableGame],
        *,
        state: Callable[[], dict[str, Any]],
        on_change: Callable[[], None] = lambda: None,
        deals: int = 0,
        house: HouseRules | None = None,
    ) -> None:
        self.out = outlets
        self.session = session
        self.seating = seating
        self.fair = fair
        self.director = director
        self.config = config
        self.game = game
        self.state = state
        self.on_change = on_change
        self.deals = deals  # deal numbers used so far (never repeated)
        self.house = house  # the home-game rules (straddles, bomb pots...)
        self.plan_in_play: DealPlan | None = None  # how the hand in play was dealt
        self.deal: FairDeal | None = None
        self.dealer: Dealer | None = None
        self.hand_names: list[str] = []  # the players of the current hand by position
        self.hand_sittings: list[str] = []
        self.action_seq = 0  # actions of the hand in play stored so far
        self.ended = True  # the current hand (if any) has been stored as finished
        self.turn = 0  # counts changes of the live hand; a client may echo it
        self.storing = False  # an action is being stored (off the event loop)
        self.unwatched = 0  # hands dealt in a row with nobody watching
        self.finished: deque[FinishedHand] = deque(maxlen=KEEP_HANDS)
        self._last: tuple[int, HandState, list[str]] | None = None
        self._last_summary: dict[str, Any] | None = None
        # the last hand as stored (its id), while its uncontested winner may show
        self._show_window: tuple[int, HandState, int] | None = None

    @property
    def hand(self) -> HandState | None:
        return self.session.hand

    def live(self) -> bool:
        hand = self.session.hand
        return hand is not None and not hand.is_over

    def in_hand(self, seat: int) -> bool:
        """``seat`` is dealt into the hand in play."""
        return self.live() and self.session.position_of(seat) is not None

    def waiting_to_end(self) -> bool:
        """The hand is over but not yet stored as finished."""
        return self.session.hand is not None and not self.live() and not self.ended

    # --- an action --------------------------------------------------------------------------

    def act(self, seat: int | None, text: str, *, turn: int | None = None) -> list[Step]:
        """The steps that play ``text`` (``f``, ``c``, ``r 20``, ``b``, ``d 木7``, ``s``,
        ``m``) for ``seat``; :class:`ActionError` (nothing changes) when it is not that
        seat's turn, the action is illegal, or ``turn`` shows the client saw an older
        state."""
        hand = self.session.hand
        if seat is None:
            raise ActionError("you have no seat at this table (join first)")
        if hand is None or hand.is_over:
            raise ActionError("no hand is being played: wait for the next deal")
        if turn is not None and turn != self.turn:
            raise ActionError(
                f"the hand moved on (your screen showed turn {turn}, now {self.turn})"
            )
        if self.storing:  # a double click: the first is being stored
            raise ActionError(f"the hand moved on (the action of turn {self.turn} is being stored)")
        actor = hand.actor
        if actor is None or self.session.seat_of(actor) != seat:
            who = (
                "nobody"
                if actor is None
                else self.seating.seats[self.session.seat_of(actor) or 0].name
            )
            raise ActionError(f"it is not your turn (waiting for {who})")
        self.out.touch()
        try:
            return self.plan(Action.parse(text, self.game().game.deck))
        except ActionError as error:
            # the engine names players by position ("p2 must ..."): say "you"
            message = re.sub(rf"\bp{actor + 1}\b", "you", str(error))
            message = message.replace("you has ", "you have ").replace("you is ", "you are ")
            raise ActionError(message) from None

    def plan(self, action: Action) -> list[Step]:
        """Check ``action`` against the hand in play and return its write-ahead steps:
        store it, apply it, tell everyone, schedule the next decision. From now until
        the steps are carried out (or the store refuses), no other action is planned."""
        hand = self.session.hand
        if hand is None or hand.is_over or self.deal is None:
            raise ActionError("no hand is being played")
        if self.storing:
            raise ActionError("the last action is still being stored: try again")
        check_action(hand, action)
        self.storing = True
        number = self.deal.hand_number
        return [
            StoreAction(self.out.table_id, number, self.action_seq, str(action)),
            ApplyAction(action, self.turn),
            Announce(),
            NextDecision(),
        ]

    # the steps' side (table_steps.Doer)

    def store(self, step: StoreAction) -> None:
        self.out.store.add_action(step.table_id, step.seq, step.text, deal_number=step.deal_number)

    def not_stored(self, step: StoreAction) -> None:
        self.storing = False
        log.error("table %s: action %d could not be stored; not played", step.table_id, step.seq)
        self.out.notice("the server could not store an action: it was not played")
        self.out.notify()

    def do(self, step: ApplyAction | Announce | NextDecision) -> bool:
        if isinstance(step, ApplyAction):
            self.storing = False
            hand = self.session.hand
            if hand is None or hand.is_over or self.turn != step.turn:
                return False  # cancelled while it was stored: the store holds nothing of it
            self.action_seq += 1
            apply(hand, step.action)
            self.turn += 1
            if hand.is_over:  # stored as finished before anyone is told the hand is over,
                self.finish()  # so no client sees its end beside the hand before
            return True
        if isinstance(step, Announce):
            self.out.notify()
            return True
        self.on_change()
        return True

    # --- an all-in runout, street by street ---------------------------------------------------

    def runout_due(self) -> bool:
        """The hand in play waits for the next street of its all-in runout."""
        hand = self.session.hand
        return hand is not None and hand.runout_paused and not self.storing

    def deal_runout(self, turn: int) -> bool:
        """Deal the next street of the all-in runout, if the hand is still at ``turn``
        (False: it moved on). Nothing is stored: the hand's dealer deals the same cards
        after a restart, where the runout starts again from the street the betting ended
        on (its stored actions replay to the same pause)."""
        hand = self.session.hand
        if hand is None or turn != self.turn or not self.runout_due():
            return False
        hand.deal_runout()
        self.turn += 1
        if hand.is_over:  # stored as finished before anyone sees the river
            self.finish()
        self.out.notify()
        self.on_change()
        return True

    # --- dealing ----------------------------------------------------------------------------

    def deal_next(self, watched: bool) -> bool:
        """Deal the next hand: recorded in the store before any card is shown (False: the
        store refused it, nothing was dealt)."""
        seating = self.seating
        level = self.director.before_deal()
        seating.count_missed(self.session.next_order(seating.sitting_out()))
        candidates = self.session.next_order(seating.sitting_out())
        order, posts = seating.dealt_in(candidates, self.game().stakes.blinds)
        plan = DealPlan(order, posts)
        if self.house is not None:
            waiting = {s for s in candidates if seating.seats[s].waiting}
            plan = self.house.plan(order, posts, set(candidates), waiting)
            order, posts = plan.order, plan.posts
        joining = [s for s in order if seating.seats[s].waiting]
        for s in joining:
            seating.seats[s].waiting = False
        number = self.deals
        deal = self.fair.deal(number, order, seating.people)
        dealer = Dealer(self.game().game.deck, self.fair.server_seed, deal)
        start: dict[str, Any] = {
            "order": order,
            "button": self.session.button,
            "client_seeds": list(deal.client_seeds),
            "commitment": deal.commitment,
            "names": [seating.seats[s].name for s in order],
            "sittings": [seating.seats[s].sitting for s in order],
            "posts": posts,
            "turn": self.turn + 1,  # so a restarted server counts on from here
            **plan.record(),
            # the most runs this hand's players may agree to (a double board: once)
            "runs": self.config().run_it if plan.boards == 1 else 1,
        }
        if level is not None:
            start["level"] = level
        self.deals = number + 1
        try:
            self.out.store.begin_hand(self.out.table_id, number, start, self.state())
        except CardlabError:
            for s in joining:
                seating.seats[s].waiting = True
            log.exception(
                "table %s: deal %d could not be stored; not dealt", self.out.table_id, number
            )
            self.out.notice("the server could not store the next deal; it was not dealt")
            self.out.notify()
            return False
        self.session.new_hand(
            dealer=dealer,
            order=order,
            posts=posts,
            stakes=plan.stakes,
            bomb_pot=plan.bomb_pot,
            boards=plan.boards,
            showdown="manual",
            runs=start["runs"],
            runout="street",
        )
        if self.house is not None:
            self.house.dealt(plan)
            if plan.bomb_pot:
                self.out.notice(
                    f"bomb pot: everyone antes {plan.stakes.ante if plan.stakes else 0}"
                )
        self.plan_in_play = plan
        self.deal, self.dealer = deal, dealer
        self.hand_names, self.hand_sittings = start["names"], start["sittings"]
        self.action_seq = 0
        self.ended = False
        self._show_window = None
        self.unwatched = 0 if watched else self.unwatched + 1
        self.turn += 1
        self.out.notify()
        self.on_change()
        return True

    # --- the end of a hand ------------------------------------------------------------------

    def finish(self) -> bool:
        """Store the hand just over with the table's new state (people who left stand
        up); False when there is no such hand."""
        hand = self.session.hand
        if hand is None or hand.result is None or self.ended or self.deal is None:
            return False
        self.ended = True
        self._show_window = None
        names = list(self.hand_names)
        order = self.session.order
        number = self.session.hands_played + 1
        table_id = self.out.table_id
        fields = self.deal.user_fields() | {
            "_seats": [s + 1 for s in order],
            "_table": table_id,
            "_sittings": list(self.hand_sittings),
        }
        if self.dealer is not None and self.dealer.piles:
            fields["_reshuffled"] = [" ".join(c.ascii for c in p) for p in self.dealer.piles]
        bounty: list[int] = []
        if self.plan_in_play is not None:
            fields |= self.plan_in_play.user_fields()
        if self.house is not None:
            bounty = self.house.seven_deuce(hand)
            if any(bounty):
                fields["_seven_deuce"] = bounty
        done = finished(hand, number, order, names, fields)
        stored = record(hand, players=names, source="web", table_id=table_id, history=done.history)
        before = {seat: self.session.seats[seat].stack for seat in order}
        self.session.end_hand()
        for position, amount in enumerate(bounty):  # paid between hands, beside the pots
            self.session.seats[order[position]].stack += amount
        try:
            # one transaction: the hand, the table's new state and what a tournament
            # records of it (places, players out and moved, the other tables' seats) are
            # all kept or all lost, so a server killed between two of these writes resumes
            # the hand and ends it again, never recording it twice or not at all
            with self.out.store.transaction():
                try:
                    self.director.after_hand(before)
                except CardlabError:
                    log.exception("table %s: the tournament's places could not be given", table_id)
                hand_id = self.out.store.end_hand(table_id, stored, self.state())
                self._ledger_bounty(bounty, order, names)
                self.seating.stand_up_leaving()
            self._show_window = (hand_id, hand, number)
        except CardlabError:
            log.exception("saving hand %d of table %s failed", number, table_id)
        self.finished.append(done)
        self._last = (number, hand, names)
        self._last_summary = None
        return True

    def _ledger_bounty(self, bounty: list[int], order: list[int], names: list[str]) -> None:
        """The seven-deuce bounty in the ledger: what each player collected or paid."""
        if not any(bounty):
            return
        winner = max(range(len(bounty)), key=lambda p: bounty[p])
        for position, amount in enumerate(bounty):
            kind = "bounty-won" if amount > 0 else "bounty-paid"
            if amount:
                self.out.store.add_ledger(
                    self.out.table_id, order[position], names[position], kind, abs(amount)
                )
        self.out.notice(
            f"{names[winner]} won with seven-deuce: {bounty[winner]} collected in bounties"
        )

    def cancel(self, why: str) -> None:
        """Cancel the hand in play: every chip goes back to where it was before the deal."""
        number = self.session.hands_played + 1
        self.session.hand = None
        self.deal = self.dealer = None
        self.ended = True
        self.turn += 1
        self.out.store.cancel_hand(self.out.table_id, self.state())
        self.out.notice(f"hand {number} was cancelled ({why}); every chip returned")

    # --- after a restart --------------------------------------------------------------------

    def load_finished(self) -> None:
        """The table's last stored hands, for the PHH download after a restart."""
        try:
            records = self.out.store.hands(table_id=self.out.table_id, limit=KEEP_HANDS)
        except CardlabError:
            return
        for rec in reversed(records):
            with contextlib.suppress(CardlabError, KeyError, TypeError, ValueError):
                self.finished.append(FinishedHand.from_record(rec))

    def resume(self, live: Any) -> float | None:
        """Replay the stored hand in play (its clock's remaining seconds, if saved);
        cancel it if it cannot be replayed."""
        start = live.start
        table_id = self.out.table_id
        try:
            deal = FairDeal(
                str(start["commitment"]),
                tuple(str(s) for s in start["client_seeds"]),
                int(live.deal_number),
                self.config().practice,
            )
            seed = parse_server_seed(self.out.store.seed(table_id, deal.commitment).server_seed)
            deck = self.game().game.deck
            dealer = Dealer(deck, seed, deal)
            self.session.button = int(start["button"])
            posts = [int(p) for p in start.get("posts", [])]
            self.director.resume_level(start)
            plan = DealPlan.from_record(start, self.game())
            hand = self.session.new_hand(
                dealer=dealer,
                order=[int(s) for s in start["order"]],
                posts=posts,
                stakes=plan.stakes,
                bomb_pot=plan.bomb_pot,
                boards=plan.boards,
                showdown="manual",
                runs=int(start.get("runs", 1)),
                runout="street",
            )
            self.plan_in_play = plan
            if self.house is not None:  # the table was saved before this deal counted
                self.house.dealt(plan)
            for text in live.actions:
                action = Action.parse(text, deck)
                check_action(hand, action)
                apply(hand, action)
        except (CardlabError, KeyError, TypeError, ValueError) as error:
            self.session.hand = None
            self.deal = self.dealer = None
            log.warning(
                "table %s: hand %s cannot be resumed: %s", table_id, live.deal_number, error
            )
            self.out.store.cancel_hand(table_id, self.state())
            self.out.notice(
                f"deal {live.deal_number} could not be resumed after a restart ({error}); "
                "it was cancelled and every chip returned"
            )
            return None
        self.deal, self.dealer = deal, dealer
        names = [self.seating.seats[s].name for s in self.session.order]
        self.hand_names = [str(n) for n in start.get("names", names)]
        self.hand_sittings = [str(n) for n in start.get("sittings", [""] * len(names))]
        self.action_seq = len(live.actions)
        self.ended = False
        # the turn a client saw before the restart is the turn now: an old screen's
        # echo is refused, the current one's accepted
        self.turn = int(start.get("turn", 0)) + len(live.actions)
        self.out.notice(
            f"hand {self.session.hands_played + 1} resumed after a server restart "
            f"at action {self.action_seq}"
        )
        return None if live.clock_remaining is None else float(live.clock_remaining)

    # --- the last hand ----------------------------------------------------------------------

    @property
    def last(self) -> dict[str, Any] | None:
        """The showdown summary of the last finished hand (worked out when first asked:
        a table nobody watches never pays for the best fives)."""
        if self._last is None:
            return None
        if self._last_summary is None:
            number, hand, names = self._last
            replay = f"/tables/{self.out.table_id}/hands/{number}/replay"  # web/replay.py
            self._last_summary = {"hand": number, "replay": replay, **showdown_summary(hand, names)}
        return self._last_summary

    @property
    def last_number(self) -> int | None:
        return None if self._last is None else self._last[0]

    def revealed(self, commitment: str, seed: bytes) -> None:
        """The seed of ``commitment`` was revealed: the finished hands dealt under it
        carry it."""
        self.finished = deque(
            (h.revealed(seed) if h.commitment == commitment else h for h in self.finished),
            maxlen=KEEP_HANDS,
        )

    def rabbit_hunt(self) -> None:
        """Anyone at the table asks to see the board cards the last hand, won before
        its last street, would have dealt: from the same deck, shown to all, written in
        the stored hand's ``_rabbit`` field (no part of the hand) before anyone sees them."""
        window = self._last
        if window is None or self.live():
            raise ActionError("there is no finished hand to hunt the rabbit of")
        number, hand, _names = window
        if hand.rabbit is not None:
            return  # already shown
        hand.verify_rabbit_hunt()
        k = next((k for k, h in enumerate(self.finished) if h.number == number), None)
        if k is None:
            raise ActionError("there is no finished hand to hunt the rabbit of")
        cards = hand.rabbit_hunt()
        done = self.finished[k].with_rabbit(cards)
        hand_id = self._show_window[0] if self._show_window is not None else None
        if hand_id is not None and self._show_window is not None and self._show_window[1] is hand:
            try:
                self.out.store.amend_hand(
                    self.out.table_id, hand_id, phh_text(done.history), done.decisions
                )
            except CardlabError:
                log.exception(
                    "table %s: the rabbit of hand %d not stored", self.out.table_id, number
                )
        self.finished[k] = done
        self._last_summary = None
        self.out.notice(f"the rabbit of hand {number}: {' '.join(str(c) for c in cards)}")
        self.out.touch()
        self.out.notify()

    def show_refusal(self, seat: int | None, closed: bool = False) -> str | None:
        """Why the person in ``seat`` may not show their cards now (None: they may)."""
        seats = self.seating.seats
        if seat is None or seats[seat].kind != "human":
            return "you have no seat at this table"
        if self.live():
            return "the hand is still being played: at the showdown you are asked to show"
        hand, window = self.session.hand, self._show_window
        if hand is None or window is None or window[1] is not hand or closed:
            return "there is no finished hand to show your cards from"
        position = self.session.position_of(seat)
        if position is None or self.hand_sittings[position] != seats[seat].sitting:
            return "you did not play the last hand"
        if hand.has_shown(position):
            return "your cards are already shown"
        if hand.winner_may_show != position:
            return "only the winner of a hand everyone else folded to may show after it"
        return None

    def show_hand(self, seat: int | None, closed: bool = False) -> None:
        """The person in ``seat``, who won the last hand with everyone else folded, shows
        their cards before the next deal: the stored hand gets its ``pN sm CARDS`` line
        first (write-ahead), then every client sees the cards."""
        why = self.show_refusal(seat, closed)
        if why is not None:
            raise ActionError(why)
        assert seat is not None and self._show_window is not None
        hand_id, hand, number = self._show_window
        position = self.session.position_of(seat)
        k = next((k for k, h in enumerate(self.finished) if h.number == number), None)
        if position is None or k is None:
            raise ActionError("there is no finished hand to show your cards from")
        hand.verify_show_or_muck(True, position)
        done = self.finished[k].shown_after(hand, position)
        bounty = [] if self.house is None else self.house.seven_deuce(hand, showing=position)
        if any(bounty):  # the shown cards win the seven-deuce bounty
            fields = done.history.user_fields | {"_seven_deuce": bounty}
            done = dataclasses.replace(
                done, history=dataclasses.replace(done.history, user_fields=fields)
            )
        try:
            self.out.store.amend_hand(
                self.out.table_id, hand_id, phh_text(done.history), done.decisions
            )
        except CardlabError:
            log.exception(
                "table %s: the show after hand %d could not be stored", self.out.table_id, number
            )
            raise ActionError("the server could not store your show: try again") from None
        hand.show_or_muck(True, player=position)
        if any(bounty):
            order = self.session.order
            for p, amount in enumerate(bounty):
                self.session.seats[order[p]].stack += amount
            with contextlib.suppress(CardlabError), self.out.store.transaction():
                self.out.save()
                self._ledger_bounty(bounty, order, self.hand_names)
        self.finished[k] = done
        self._last_summary = None
        self.out.touch()
        self.out.notify()
