"""A web table's home-game rules from deal to deal: straddles, bomb pots, the seven-deuce
bounty, missed blinds and the dead button (the rules: docs/home-games.md; the forced
bets of one hand: :mod:`cardlab.table.house`).

:class:`HouseRules` owns what these rules remember between hands: the hands since the
last bomb pot and whether the host called one for the next hand, the last hand's
button and blinds (the dead button moves from them), who wants to straddle (by
sitting: a person's choice ends when they stand up) and the blinds each seat missed
while it sat out. :meth:`HouseRules.plan` turns the seats of the next deal into a
:class:`DealPlan` (the hand's own stakes, bomb pot, boards, order), which the hand's
start record keeps, so a restarted server deals the same hand
(:meth:`DealPlan.from_record`). :meth:`HouseRules.seven_deuce` says who pays whom
after a hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from cardlab.errors import ActionError
from cardlab.table import HandState, Session, TableGame
from cardlab.table.house import (
    Blinds,
    Straddle,
    bomb_pot_stakes,
    hand_stakes,
    next_blinds,
    order_of,
    seven_deuce_winner,
    straddler,
)
from cardlab.table.structure import Stakes
from cardlab.web.table_config import TableConfig
from cardlab.web.table_outlets import Outlets

__all__ = ["DealPlan", "HouseRules"]


@dataclass(frozen=True)
class DealPlan:
    """How the next hand is dealt: the seats by position, the posts of new players,
    the hand's own stakes (None: the game's), whether it is a bomb pot and on how many
    boards, the straddler's position and the button and blinds by seat."""

    order: list[int]
    posts: list[int]
    stakes: Stakes | None = None
    bomb_pot: bool = False
    boards: int = 1
    straddle: int | None = None
    blinds: Blinds | None = None
    owed: tuple[tuple[int, int, int], ...] = ()  # (position, live, dead) of missed blinds

    def record(self) -> dict[str, Any]:
        """What the hand's start record keeps of the plan (beside order and posts)."""
        out: dict[str, Any] = {}
        if self.stakes is not None:
            out["hand_stakes"] = {"blinds": list(self.stakes.blinds), "antes": self.stakes.antes}
            out["hand_stakes"]["antes"] = list(self.stakes.antes)
            out["hand_stakes"]["ante"] = self.stakes.ante
        if self.bomb_pot:
            out["bomb_pot"] = True
            out["boards"] = self.boards
        if self.straddle is not None:
            out["straddle"] = self.straddle
        if self.blinds is not None:
            out["blind_seats"] = [self.blinds.button, self.blinds.small, self.blinds.big]
        return out

    def user_fields(self) -> dict[str, Any]:
        """The hand history's fields for the plan: ``_bomb_pot`` (the ante) and
        ``_straddle`` (the straddler, as pN); a double board's ``_boards`` comes from
        the history's writer."""
        out: dict[str, Any] = {}
        if self.bomb_pot and self.stakes is not None:
            out["_bomb_pot"] = self.stakes.ante
        if self.straddle is not None:
            out["_straddle"] = f"p{self.straddle + 1}"
        return out

    @classmethod
    def from_record(cls, start: dict[str, Any], game: TableGame) -> DealPlan:
        """The plan of a stored hand's start record (a restart replays it)."""
        stakes = None
        saved = start.get("hand_stakes")
        if isinstance(saved, dict):
            stakes = dataclasses.replace(
                game.stakes,
                blinds=tuple(int(v) for v in saved.get("blinds", ())),
                ante=int(saved.get("ante", 0)),
                antes=tuple(int(v) for v in saved.get("antes", ())),
                ante_trimming=False if start.get("bomb_pot") else game.stakes.ante_trimming,
            )
        seats = start.get("blind_seats")
        blinds = Blinds(*(int(s) for s in seats)) if isinstance(seats, list) else None
        straddle = start.get("straddle")
        return cls(
            [int(s) for s in start["order"]],
            [int(p) for p in start.get("posts", [])],
            stakes,
            bool(start.get("bomb_pot", False)),
            int(start.get("boards", 1)),
            None if straddle is None else int(straddle),
            blinds,
        )


class HouseRules:
    """The home-game rules of one table; see the module documentation. ``config``:
    the settings now; ``seats``: the seats (their ``kind``, ``sitting``, ``waiting``)."""

    def __init__(
        self,
        outlets: Outlets,
        session: Session,
        config: Callable[[], TableConfig],
        game: Callable[[], TableGame],
        seats: Callable[[], Sequence[Any]],
        saved: dict[str, Any] | None = None,
    ) -> None:
        self.out = outlets
        self.session = session
        self.config = config
        self.game = game
        self.seats = seats
        saved = saved or {}
        self.since_bomb = int(saved.get("since_bomb", 0))
        self.bomb_next = bool(saved.get("bomb_next", False))
        last = saved.get("last_blinds")
        self.last: Blinds | None = Blinds(*map(int, last)) if isinstance(last, list) else None
        self.straddlers: set[str] = {str(s) for s in saved.get("straddlers", [])}
        # sitting -> the blinds that person missed while out: "small", "big"
        self.missed: dict[str, set[str]] = {
            str(k): set(map(str, v)) for k, v in dict(saved.get("missed", {})).items()
        }

    def state(self) -> dict[str, Any]:
        last = self.last
        return {
            "since_bomb": self.since_bomb,
            "bomb_next": self.bomb_next,
            "last_blinds": None if last is None else [last.button, last.small, last.big],
            "straddlers": sorted(self.straddlers),
            "missed": {k: sorted(v) for k, v in self.missed.items() if v},
        }

    # --- what people ask ------------------------------------------------------------------

    def want_straddle(self, seat: int | None, on: bool) -> None:
        """The person in ``seat`` straddles whenever the table's rule gives them the
        chance (or stops)."""
        seats = self.seats()
        if seat is None or seats[seat].kind != "human":
            raise ActionError("you have no seat at this table")
        if Straddle.parse(self.config().straddle) is Straddle.OFF:
            raise ActionError("this table has no straddles (the host may allow them)")
        sitting = self._sitting(seat)
        if on:
            self.straddlers.add(sitting)
        else:
            self.straddlers.discard(sitting)
        self.out.save()
        self.out.notify()

    def straddles(self, seat: int) -> bool:
        """The player in ``seat`` straddles when the rule gives them the chance."""
        return self._sitting(seat) in self.straddlers

    def call_bomb_pot(self) -> None:
        """The host makes the next hand a bomb pot."""
        reason = self.config().bomb_pot_refusal()
        if reason is not None:
            raise ActionError(reason)
        self.bomb_next = True
        self.out.save()
        self.out.notice("the host called a bomb pot: the next hand")
        self.out.notify()

    # --- the next deal --------------------------------------------------------------------

    def bomb_due(self) -> bool:
        """The next hand is a bomb pot (the host called one, or its turn has come)."""
        config = self.config()
        every = config.bomb_pot_every
        due = self.bomb_next or (every > 0 and self.since_bomb + 1 >= every)
        return due and config.bomb_pot_refusal() is None

    def plan(
        self, order: list[int], posts: list[int], playing: Collection[int], waiting: Collection[int]
    ) -> DealPlan:
        """The plan of the next deal. ``order`` and ``posts``: the seats dealt in by
        position and the posting positions as the moving button and the new-player rule
        make them; ``playing``: every seat that could play (with chips, not sitting
        out, waiting ones included); ``waiting``: those waiting to come in."""
        config = self.config()
        stakes = self.game().stakes
        nseats = len(self.session.seats)
        blinds: Blinds | None = None
        if config.dead_button and len(playing) >= 3 and len(order) >= 2:
            blinds = next_blinds(self.last, self.session.button, nseats, playing, dead_button=True)
            every = order_of(blinds, nseats, playing)
            # a waiting seat comes in at the big blind, not before (docs/home-games.md)
            order = [s for s in every if s not in waiting or s == blinds.big]
            posts = []
            self.session.button = blinds.button
        # a post pays the small blind dead when its player missed it (before the count
        # below forgets what a seat dealt in owed)
        missed_small = {p for p in posts if "small" in self.missed.get(self._sitting(order[p]), ())}
        self._count_missed(order, playing, blinds)
        n = len(order)
        if self.bomb_due() and n >= 2:
            ante = config.bomb_pot_ante or 2 * max(stakes.blinds[:2], default=1)
            return DealPlan(
                order,
                [],
                bomb_pot_stakes(stakes, ante),
                bomb_pot=True,
                boards=config.bomb_pot_boards,
                blinds=blinds,
            )
        if n < 3 or config.tournament:
            return DealPlan(order, posts, blinds=blinds)
        big = 1
        small = True
        if blinds is not None:
            big = order.index(blinds.big)
            small = blinds.small in order and order.index(blinds.small) == big - 1
        owed: dict[int, tuple[int, int]] = {}
        bb = max(stakes.blinds[:2], default=0)
        sb = min(stakes.blinds[:2], default=0)
        for p in posts:
            owed[p] = (bb, sb if p in missed_small else 0)
        kind = Straddle.parse(config.straddle)
        willing = {p for p, s in enumerate(order) if self.straddles(s) and p not in owed}
        position = straddler(kind, n, willing, big=big)
        if blinds is None and not owed and position is None:
            return DealPlan(order, posts)
        hs = hand_stakes(
            stakes,
            n,
            big=big,
            small=small,
            straddle=None if position is None else (kind, position),
            owed=owed,
        )
        return DealPlan(order, [], hs, straddle=position, blinds=blinds, owed=())

    def _count_missed(
        self, order: Sequence[int], playing: Collection[int], blinds: Blinds | None
    ) -> None:
        """The seats with chips that sit this deal out and would have posted a blind
        missed it (a new player waiting to come in owes none); a seat dealt in owes
        nothing more after this hand (it comes in at the big blind or posts)."""
        dealt = set(order)
        for s in dealt:
            self.missed.pop(self._sitting(s), None)
        info = self.seats()
        seats = self.session.seats
        everyone = [i for i, seat in enumerate(seats) if seat.stack > 0]
        if len(everyone) < 3:
            return
        if blinds is None:
            hypothetical = self.session.next_order()
            small, big = hypothetical[0], hypothetical[1]
        else:
            small, big = blinds.small, blinds.big
            # the big blind passed over the seats between the last big blind and this one
            if self.last is not None:
                k = (self.last.big + 1) % len(seats)
                while k != big:
                    if k not in dealt and seats[k].stack > 0 and info[k].sitting_out:
                        self.missed.setdefault(self._sitting(k), set()).update(("small", "big"))
                    k = (k + 1) % len(seats)
        for s, which in ((small, "small"), (big, "big")):
            if s not in dealt and seats[s].stack > 0 and info[s].sitting_out:
                self.missed.setdefault(self._sitting(s), set()).add(which)

    def _sitting(self, seat: int) -> str:
        """Who sits in ``seat`` (a person's sitting; a bot's seat by number)."""
        sitting = str(self.seats()[seat].sitting)
        return sitting or f"seat {seat}"

    def owes(self, seat: int) -> list[str]:
        """The blinds the person in ``seat`` missed (and posts on coming back)."""
        return sorted(self.missed.get(self._sitting(seat), set()))

    def dealt(self, plan: DealPlan) -> None:
        """The plan's hand was dealt (stored): count it."""
        if plan.bomb_pot:
            self.bomb_next = False
            self.since_bomb = 0
        else:
            self.since_bomb += 1
        if plan.blinds is not None:
            self.last = plan.blinds
        elif len(plan.order) >= 2:
            self.last = None  # the moving button: the dead button starts from it again

    # --- after a hand ---------------------------------------------------------------------

    def seven_deuce(self, hand: HandState, showing: int | None = None) -> list[int]:
        """The seven-deuce bounty of a finished hand, by position: what each player
        pays (negative) or collects (all zero: no bounty). The winner of (a share of)
        the main pot who showed the deck's two lowest ranks (docs/home-games.md)
        collects the table's bounty from every other player dealt in, each paying at
        most the chips left after the hand. ``showing``: the winner of an uncontested
        pot who is showing their cards after the hand."""
        config = self.config()
        result = hand.result
        out = [0] * hand.players
        if not config.seven_deuce or result is None or config.seven_deuce_refusal() is not None:
            return out
        main = [a for a in result.awards if a.pot == 0]
        winners = {p for a in main for p in a.players}
        shown = set(hand.shown_hands()) | ({showing} if showing is not None else set())
        winner = seven_deuce_winner(hand.hole, winners, shown, hand.game.game.deck)
        if winner is None:
            return out
        for p in range(hand.players):
            if p != winner:
                paid = min(config.seven_deuce, result.finishing_stacks[p])
                out[p] -= paid
                out[winner] += paid
        return out
