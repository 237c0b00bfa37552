"""Who sits where at a web table: a person sitting down (with a secret browser token,
of which the table keeps only the SHA-256) or leaving, sitting out, adding chips, the
host's seat operations (remove, seat a bot, hand over the table), requests for a seat
at a table with ``approve_seats`` (:class:`~cardlab.web.table_arrivals.SeatRequests`),
and the ledger of every buy-in and cash-out.

:class:`Seating` owns the seats, the host's token hash, the requests and whether the
table has started; the chips in front of each seat are the session's
(:class:`~cardlab.table.Session`), which it is given with the table's
:class:`~cardlab.web.table_outlets.Outlets`. What it must ask of the rest of the table
(is this seat in the hand in play, does a tournament keep it) comes as callables.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import secrets
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from cardlab.bots import get_bot
from cardlab.errors import ActionError, CardlabError, GameError
from cardlab.table import Session
from cardlab.web.table_arrivals import SeatRequest, SeatRequests, dealt_in
from cardlab.web.table_config import TableConfig, check_name, name_key
from cardlab.web.table_errors import TableFull
from cardlab.web.table_outlets import Outlets

__all__ = ["SeatInfo", "Seating", "TournamentSeats", "digest"]


@dataclass
class SeatInfo:
    """Who sits in a seat: ``kind`` is "open" (free for a person), "human" or "bot";
    ``leaving``: the person left during a hand and stands up when it ends."""

    kind: str
    name: str
    bot: str = ""
    token_sha256: str = ""
    leaving: bool = False
    sitting: str = ""  # a random id per person and sitting-down (who played which hand)
    sitting_out: bool = False  # dealt no cards, posts nothing
    missed: int = 0  # hands missed while sitting out
    waiting: bool = False  # new at a running table: waits for the big blind or to post

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "bot": self.bot,
            "token_sha256": self.token_sha256,
            "leaving": self.leaving,
            "sitting": self.sitting,
            "sitting_out": self.sitting_out,
            "missed": self.missed,
            "waiting": self.waiting,
        }

    @classmethod
    def from_dict(cls, s: dict[str, Any]) -> SeatInfo:
        return cls(
            str(s["kind"]),
            str(s["name"]),
            str(s.get("bot", "")),
            str(s.get("token_sha256", "")),
            bool(s.get("leaving", False)),
            str(s.get("sitting", "")),
            bool(s.get("sitting_out", False)),
            int(s.get("missed", 0)),
            waiting=bool(s.get("waiting", False)),
        )


def opening_seats(
    config: TableConfig, seats: list[SeatInfo] | None, stacks: list[int] | None
) -> tuple[list[SeatInfo], list[int]]:
    """A table's seats and stacks: as saved, or a new table's (its bots with their
    starting stacks, every other seat open); :class:`GameError` when they do not fit."""
    n = config.seats
    if seats is None:
        seats = [
            SeatInfo("bot", f"{config.bots[i + 1]} bot {i + 1}", config.bots[i + 1])
            if i + 1 in config.bots
            else SeatInfo("open", f"seat {i + 1}")
            for i in range(n)
        ]
    if stacks is None:
        stacks = [config.stack_of(i) if s.kind == "bot" else 0 for i, s in enumerate(seats)]
    if len(seats) != n or len(stacks) != n:
        raise GameError(f"a saved table of {n} seats has {len(seats)} seats")
    return seats, stacks


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class TournamentSeats(Protocol):
    """What a sit-and-go decides about seats (:class:`~cardlab.web.table_tournament.Director`)."""

    def check_join(self) -> None: ...

    def check_rebuy(self) -> None: ...

    def stays_in(self, seat: int) -> bool: ...

    def ledger(self) -> dict[str, Any] | None: ...


def _no(_seat: int) -> bool:
    return False


def _yes() -> bool:
    return True


def _pass(*_args: object) -> None:
    return None


class Seating:
    """The seats of one table; see the module documentation.

    ``config``: the table's settings now; ``tournament``: its sit-and-go rules;
    ``in_hand(seat)``: the seat is dealt into the hand in play; ``accepting()``: people
    may sit down (the table is not closing); ``dealt_before()``: a hand was dealt here;
    ``on_seated(seat, sends_seeds)``, ``on_left(seat)`` and ``on_change()`` (a hand may
    be dealt now): the room's follow-ups."""

    def __init__(
        self,
        outlets: Outlets,
        session: Session,
        config: Callable[[], TableConfig],
        seats: list[SeatInfo],
        tournament: TournamentSeats,
        *,
        host_sha256: str = "",
        started: bool = False,
        requests: SeatRequests | None = None,
        sat: dict[str, list[str]] | None = None,
        in_hand: Callable[[int], bool] = _no,
        accepting: Callable[[], bool] = _yes,
        dealt_before: Callable[[], bool] = lambda: False,
        on_seated: Callable[[int, bool], None] = _pass,
        on_left: Callable[[int], None] = _pass,
        on_change: Callable[[], None] = _pass,
    ) -> None:
        self.out = outlets
        self.session = session
        self.config = config
        self.seats = seats
        self.tournament = tournament
        self.host_sha256 = host_sha256
        self.started = started or all(s.kind == "bot" for s in seats)
        self.requests = requests if requests is not None else SeatRequests()
        # every person who sat here (token hash -> their sittings): after the table
        # closes they still see its ledger and their own cards in its hands
        self.sat: dict[str, list[str]] = {k: list(v) for k, v in (sat or {}).items()}
        self.in_hand = in_hand
        self.accepting = accepting
        self.dealt_before = dealt_before
        self.on_seated = on_seated
        self.on_left = on_left
        self.on_change = on_change

    # --- who sits where -------------------------------------------------------------------

    @property
    def open_seats(self) -> int:
        return sum(1 for s in self.seats if s.kind == "open")

    @property
    def people(self) -> set[int]:
        """The seats of people still seated (not leaving)."""
        return {i for i, s in enumerate(self.seats) if s.kind == "human" and not s.leaving}

    def seat_of_hash(self, token_sha256: str | None) -> int | None:
        """The seat of the person whose token hashes to ``token_sha256``."""
        if not token_sha256:
            return None
        found = None
        for i, s in enumerate(self.seats):
            if (
                s.kind == "human"
                and s.token_sha256
                and hmac.compare_digest(s.token_sha256, token_sha256)
            ):
                found = i
        return found

    def is_host(self, token_sha256: str | None) -> bool:
        return (
            bool(token_sha256)
            and bool(self.host_sha256)
            and hmac.compare_digest(self.host_sha256, str(token_sha256))
        )

    def sittings_of(self, token_sha256: str | None) -> set[str]:
        """Every sitting of the person whose token hashes to ``token_sha256`` here."""
        if not token_sha256:
            return set()
        return {s for k, v in self.sat.items() if hmac.compare_digest(k, token_sha256) for s in v}

    def sat_here(self, token_sha256: str | None) -> bool:
        """The person sat at this table (or is its host)."""
        return self.is_host(token_sha256) or bool(self.sittings_of(token_sha256))

    def seat_index(self, seat: object) -> int:
        """The seat (from 0) of ``seat`` as a client writes it (from 1), checked."""
        n = len(self.seats)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= n:
            raise ActionError(f"a seat is a number from 1 to {n}: {seat!r:.40}")
        return seat - 1

    # --- sitting down ---------------------------------------------------------------------

    def join(
        self, name: object, seat: int | None, token_sha256: str, *, sends_seeds: bool = False
    ) -> int | SeatRequest:
        """Seat the person whose browser token hashes to ``token_sha256`` (the first open
        seat, or ``seat`` counted from 0); a browser that already has a seat here gets
        that seat again. Returns the seat. ``sends_seeds``: the person's page will send
        client seeds, so the next deal waits a moment for its first one. With
        ``approve_seats`` anybody but the host gets a pending request for the host to
        answer instead."""
        if not self.accepting():
            raise TableFull(f"table {self.out.table_id!r} is closed")
        mine = self.seat_of_hash(token_sha256)
        if mine is not None:
            return mine
        self.tournament.check_join()
        config = self.config()
        if config.practice and token_sha256 != self.host_sha256:
            raise TableFull(
                "this is a practice table (its creator fixed the cards): it seats only its creator"
            )
        text = check_name(name)
        if config.approve_seats and not self.is_host(token_sha256):
            return self.ask_for_seat(text, seat, token_sha256, sends_seeds)
        seat = self.free_seat(text, seat)
        self.requests.withdraw(token_sha256)  # asked before approval was turned off
        return self.sit_down(text, seat, token_sha256, sends_seeds)

    def free_seat(self, name: str, seat: int | None, taken: Collection[str] = ()) -> int:
        """The seat for a person called ``name`` (``seat``, else the first open one);
        :class:`TableFull` when the name is taken (or among ``taken``) or no seat is."""
        keys = {name_key(s.name) for s in self.seats if s.kind != "open"}
        if name_key(name) in keys | {name_key(t) for t in taken}:
            raise TableFull(f"the name {name!r} is taken at this table: choose another")
        open_seats = [i for i, s in enumerate(self.seats) if s.kind == "open"]
        if not open_seats:
            raise TableFull(f"table {self.out.table_id!r} is full: every seat is taken")
        if seat is None:
            return open_seats[0]
        if seat not in open_seats:
            free = ", ".join(str(i + 1) for i in open_seats)
            raise TableFull(f"seat {seat + 1} is not free (free: {free})")
        return seat

    def sit_down(self, text: str, seat: int, token_sha256: str, sends_seeds: bool) -> int:
        """Seat a person (checked) with the seat's starting stack, a buy-in in the
        ledger; at a running table they wait to come in (:func:`dealt_in`)."""
        stack = self.config().stack_of(seat)
        self.seats[seat] = SeatInfo(
            "human",
            text,
            token_sha256=token_sha256,
            sitting=secrets.token_urlsafe(12),
            waiting=self.dealt_before(),
        )
        self.session.seats[seat].name = text
        self.session.seats[seat].stack = stack
        self.sat.setdefault(token_sha256, []).append(self.seats[seat].sitting)
        with self.out.store.transaction():
            self.out.save()
            self.out.store.add_ledger(self.out.table_id, seat, text, "buy-in", stack)
        self.out.touch()
        self.out.notify()
        self.on_seated(seat, sends_seeds)
        return seat

    def start_now(self, seat: int | None) -> None:
        """A seated person deals the first hand without waiting for the open seats."""
        if seat is None:
            raise ActionError("only a seated player can start the table")
        if not self.started:
            self.started = True
            self.out.save()
            self.on_change()
            self.out.notify()

    # --- leaving and sitting out ----------------------------------------------------------

    def leave(self, seat: int | None) -> None:
        """The person in ``seat`` gives it back: their token stops working at once; the
        stack goes to the ledger now, or when the hand they are in ends (their
        decisions meanwhile are the clock's: check if free, else fold)."""
        if seat is None or self.seats[seat].kind != "human":
            raise ActionError("you have no seat at this table")
        info = self.seats[seat]
        info.token_sha256 = ""
        if self.tournament.stays_in(seat):  # a tournament seat plays on, folded by the clock
            info.sitting_out = True
            self.out.save()
            self.out.notice(f"{info.name} left: their hands fold until they are out")
        elif self.in_hand(seat):
            info.leaving = True
            self.out.save()
            self.out.notice(f"{info.name} is leaving after this hand")
        else:
            self.stand_up(seat)
        self.on_left(seat)
        self.out.touch()
        self.out.notify()

    def stand_up(self, seat: int) -> None:
        """The seat is open again; its stack goes to the ledger."""
        info = self.seats[seat]
        amount = self.session.seats[seat].stack
        self.seats[seat] = SeatInfo("open", f"seat {seat + 1}")
        self.session.seats[seat].stack = 0
        self.session.seats[seat].name = f"seat {seat + 1}"
        with self.out.store.transaction():
            self.out.save()
            self.out.store.add_ledger(self.out.table_id, seat, info.name, "cash-out", amount)

    def stand_up_leaving(self) -> None:
        """The people who left during the hand just ended stand up."""
        for seat, info in enumerate(self.seats):
            if info.leaving:
                self.stand_up(seat)

    def stand_up_everyone(self) -> None:
        """Every person stands up (the table closes)."""
        for seat, info in enumerate(self.seats):
            if info.kind == "human":
                self.stand_up(seat)

    def sit_out(self, seat: int | None, out: bool = True) -> None:
        """The person in ``seat`` sits out (dealt no cards, posts nothing, from the next
        hand) or back in. After ``max_missed`` missed hands a seat is stood up."""
        if seat is None or self.seats[seat].kind != "human":
            raise ActionError("you have no seat at this table")
        info = self.seats[seat]
        if not out and info.sitting_out and info.missed:  # back after missing hands
            info.waiting = True
        info.sitting_out = out
        info.missed = 0
        self.out.save()
        self.out.touch()
        self.out.notify()
        if not out:
            self.on_change()

    def add_chips(self, seat: int | None, amount: object) -> None:
        """A rebuy or top-up of ``amount`` chips for ``seat``, between its hands, up to
        the table's buy-in cap; a buy-in in the ledger."""
        if seat is None or self.seats[seat].kind != "human":
            raise ActionError("you have no seat at this table")
        self.tournament.check_rebuy()
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise ActionError(f"a rebuy is a positive whole number of chips: {amount!r:.40}")
        if self.in_hand(seat):
            raise ActionError("chips can be added between your hands, not during one")
        stack = self.session.seats[seat].stack
        cap = self.config().buy_in_cap
        if stack + amount > cap:
            raise ActionError(
                f"the table allows at most {cap} chips in front of you: you have {stack}, "
                f"so add at most {max(0, cap - stack)}"
            )
        self.session.seats[seat].stack = stack + amount
        self.seats[seat].missed = 0
        name = self.seats[seat].name
        with self.out.store.transaction():
            self.out.save()
            self.out.store.add_ledger(self.out.table_id, seat, name, "buy-in", amount)
        self.out.notice(f"{name} added {amount} chips")
        self.out.touch()
        self.out.notify()
        self.on_change()

    # --- the next deal --------------------------------------------------------------------

    def sitting_out(self) -> set[int]:
        """The seats dealt no cards (in a tournament nobody: the clock folds them)."""
        if self.config().tournament:
            return set()
        return {i for i, s in enumerate(self.seats) if s.sitting_out}

    def count_missed(self, order: Sequence[int]) -> None:
        """Each seat with chips that sits this deal out missed a hand; one that missed
        ``max_missed`` hands is stood up (its stack to the ledger)."""
        limit = self.config().max_missed
        for i, info in enumerate(self.seats):
            if info.sitting_out and i not in order and self.session.seats[i].stack > 0:
                info.missed += 1
                if info.missed >= limit and info.kind == "human":
                    self.out.notice(f"{info.name} missed {info.missed} hands: stood up")
                    self.stand_up(i)

    def dealt_in(self, order: list[int], blinds: Sequence[int]) -> tuple[list[int], list[int]]:
        """Of the seats that may play (by position), those dealt in and the positions
        that post to come in: the waiting seats come in by the table's ``new_players``."""
        waiting = {s for s in order if self.seats[s].waiting}
        return dealt_in(order, waiting, blinds, self.config().new_players)

    def waiting_note(self) -> str:
        """The status's words on the people waiting to come in ("" if nobody waits)."""
        names = [
            s.name for s in self.seats if s.kind == "human" and s.waiting and not s.sitting_out
        ]
        if not names:
            return ""
        post = self.config().new_players == "post"
        how = "to post a big blind" if post else "for the big blind"
        verb = "waits" if len(names) == 1 else "wait"
        return f" ({', '.join(names)} {verb} {how})"

    # --- the host's seat operations -------------------------------------------------------

    def remove(self, seat: object) -> None:
        """The host removes a person or a bot from ``seat`` (from 1): its stack goes to
        the ledger now, or when the hand it plays ends."""
        index = self.seat_index(seat)
        info = self.seats[index]
        if info.kind == "open":
            raise ActionError(f"seat {index + 1} is empty")
        if info.kind == "bot":
            info.kind = "human"  # leaves like a person: check or fold, then stands up
        self.leave(index)
        self.out.notice(f"the host removed {info.name}")

    def add_bot(self, seat: object, bot: object) -> None:
        """The host seats a bot in an open seat, with the table's starting stack."""
        index = self.seat_index(seat)
        if self.seats[index].kind != "open":
            raise ActionError(f"seat {index + 1} is not free")
        if not isinstance(bot, str):
            raise ActionError(f"a bot is named by a string: {bot!r:.40}")
        name = get_bot(bot).name
        label = f"{name} bot {index + 1}"
        stack = self.config().stack_of(index)
        self.seats[index] = SeatInfo("bot", label, name)
        self.session.seats[index].name = label
        self.session.seats[index].stack = stack
        with self.out.store.transaction():
            self.out.save()
            self.out.store.add_ledger(self.out.table_id, index, label, "buy-in", stack)
        self.out.notify()
        self.on_change()

    def transfer_host(self, seat: object) -> None:
        """The host hands the table to the person in ``seat`` (from 1)."""
        index = self.seat_index(seat)
        info = self.seats[index]
        if info.kind != "human" or not info.token_sha256:
            raise ActionError(f"seat {index + 1} has no person to be the host")
        self.host_sha256 = info.token_sha256
        self.out.save()
        self.out.notice(f"{info.name} is the host now")
        self.out.notify()

    # --- requests for a seat (approve_seats) ----------------------------------------------

    def ask_for_seat(
        self, name: str, seat: int | None, token_sha256: str, sends_seeds: bool
    ) -> SeatRequest:
        """A person's request for a seat (``name`` checked; ``seat`` from 0 or None: any).
        A browser with a pending request gets it back; the name must be free at the
        table and among the requests, and a seat open."""
        self.expire_requests()
        mine = self.requests.of(token_sha256)
        if mine is None:
            self.free_seat(name, seat, self.requests.names())  # TableFull: name or seat
        request = self.requests.ask(name, seat, token_sha256, sends_seeds)
        if mine is None:
            self.out.save()
            self.out.touch()
            self.out.notify()
        return request

    def approve(self, request_id: object) -> int:
        """The host seats the person of a pending request: in the seat asked for if it
        is still open, else the first open one; the request stays if no seat is open."""
        self.expire_requests()
        if not self.accepting():
            raise ActionError("the table is closing: nobody can sit down")
        request = self.requests.get(request_id)
        seated = self.seat_of_hash(request.token_sha256)
        if seated is None:
            wanted = request.seat
            if wanted is not None and (
                not 0 <= wanted < len(self.seats) or self.seats[wanted].kind != "open"
            ):
                wanted = None
            others = [r.name for r in self.requests.pending.values() if r.id != request.id]
            try:
                seat = self.free_seat(request.name, wanted, others)
            except GameError as error:
                raise ActionError(f"{request.name!r} cannot sit down now: {error}") from None
        self.requests.close(request, None)
        if seated is not None:  # sat down meanwhile (the host turned approval off)
            self.out.save()
            return seated
        self.out.notice(f"the host seated {request.name}")
        return self.sit_down(request.name, seat, request.token_sha256, request.sends_seeds)

    def refuse(self, request_id: object) -> None:
        """The host refuses a pending request; the person may ask again later."""
        self.expire_requests()
        request = self.requests.get(request_id)
        self.requests.close(request, "refused")
        self.out.notice(f"the host refused {request.name}'s request for a seat")
        self.out.save()
        self.out.notify()

    def withdraw(self, token_sha256: str | None) -> bool:
        """The requester leaves: their pending request goes (True if there was one)."""
        if self.requests.withdraw(token_sha256) is None:
            return False
        self.out.save()
        self.out.notify()
        return True

    def request_status(self, token_sha256: str | None) -> dict[str, Any]:
        """What became of the caller's request: ``{"status": "seated", "seat": n}``,
        ``"pending"`` (with the request's id), ``"refused"`` (with ``retry_after``),
        ``"expired"``, ``"withdrawn"`` or ``"none"``."""
        self.expire_requests()
        seat = self.seat_of_hash(token_sha256)
        if seat is not None:
            return {"status": "seated", "seat": seat + 1, "name": self.seats[seat].name}
        return self.requests.status(token_sha256)

    def expire_requests(self) -> None:
        """Drop the requests past their time (a notice for each), and save."""
        gone = self.requests.expire()
        if not gone:
            return
        for request in gone:
            self.out.notice(f"{request.name}'s request for a seat expired")
        with contextlib.suppress(CardlabError):  # the next save keeps it
            self.out.save()
        self.out.notify()

    # --- the ledger -----------------------------------------------------------------------

    def ledger(self) -> dict[str, Any]:
        """The ledger: every buy-in and cash-out, each person's totals and net (what
        they took away and have on the table, less what they brought), and the check
        that chips brought less chips taken equal the chips at the table; a sit-and-go's
        prizes under ``tournament`` (None at a cash table)."""
        entries = self.out.store.ledger(self.out.table_id)
        return ledger(entries, self.seats, self.session) | {"tournament": self.tournament.ledger()}


def ledger(entries: Sequence[Any], seats: Sequence[SeatInfo], session: Session) -> dict[str, Any]:
    """The ledger of a table's ``entries`` with the chips now in front of ``seats``."""
    people: dict[str, dict[str, int]] = {}
    for e in entries:
        row = people.setdefault(e.player, {"bought": 0, "cashed": 0, "on_table": 0})
        if e.kind in ("buy-in", "cash-out"):
            row["bought" if e.kind == "buy-in" else "cashed"] += e.amount
        else:  # a seven-deuce bounty: chips moved between stacks, already on the table
            row["bounties"] = row.get("bounties", 0) + (
                e.amount if e.kind == "bounty-won" else -e.amount
            )
    # a hand in play counts as it started: its bets are nobody's yet
    stacks = [s.stack for s in session.seats]
    for i, info in enumerate(seats):
        if info.kind != "open":
            row = people.setdefault(info.name, {"bought": 0, "cashed": 0, "on_table": 0})
            row["on_table"] += stacks[i]
    rows = [
        {"player": name, **row, "net": row["cashed"] + row["on_table"] - row["bought"]}
        for name, row in people.items()
    ]
    brought = sum(e.amount for e in entries if e.kind == "buy-in")
    taken = sum(e.amount for e in entries if e.kind == "cash-out")
    return {
        "entries": [
            {
                "at": e.at.isoformat(),
                "seat": e.seat + 1,
                "player": e.player,
                "kind": e.kind,
                "amount": e.amount,
            }
            for e in entries
        ],
        "players": rows,
        "chips_brought": brought,
        "chips_taken": taken,
        "chips_on_table": sum(stacks),
        "balanced": brought - taken == sum(stacks),
    }
