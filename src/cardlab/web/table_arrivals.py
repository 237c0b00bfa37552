"""Who comes to a web table's seats, and when they are first dealt in.

**Seat requests** (a table with ``approve_seats``). A person who asks for a seat (the
join route), unless it is the host, gets a pending :class:`SeatRequest` instead of a
seat: a random id, the name asked for, the seat wanted and the SHA-256 of the browser
token. The host sees the requests (only the host's state carries them) and approves one
(the person sits down, with the buy-in in the ledger as usual) or refuses it. The
requester's page asks ``GET /api/tables/<id>/request`` (:meth:`SeatRequests.status`)
until it is seated or refused: a spectator's state is shared by every spectator, so it
cannot say. Limits: at most :data:`MAX_REQUESTS` wait at once; a request lasts
:data:`LIFETIME` seconds, or until its requester withdraws it (leaves) or stops asking
for news for :data:`GONE` seconds (the page was closed); a refused person may ask again
after :data:`ASK_AGAIN` seconds. Pending requests are saved with the table, so a restart
keeps them (with their age; the time since the last news starts again).

**New players** (:func:`dealt_in`). A person who sits down at a running table, or back
in after missing hands, *waits*: they are dealt no cards and post nothing until they
come in at the big blind (``new_players = "wait"``), or come in at once and post a big
blind from their position (``"post"``; the post is their live bet, written as a
negative ``blinds_or_straddles`` entry as pokerkit reads it:
:meth:`~cardlab.table.structure.Stakes.with_posts`). Card rooms' rule is kept that
nobody comes in between the blinds and the button: a waiting seat in the small blind's
position or on the button waits one more hand. A table that has dealt no hand yet seats
nobody as waiting, and when fewer than two other seats would play, or the game has no
big blind (stud), the waiting seats are dealt in at once.
"""

from __future__ import annotations

import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any

from cardlab.errors import ActionError, GameError
from cardlab.web.table_config import NEW_PLAYERS

LIFETIME = 600.0  # seconds a seat request waits for the host at most
GONE = 90.0  # seconds without news after which the requester has left the page
ASK_AGAIN = 60.0  # seconds a refused person waits before asking again
MAX_REQUESTS = 20  # pending requests per table
REMEMBERED = 200  # answers remembered for the requesters' pages (least recent go)


class AskLater(GameError):
    """Too many requests, or asked again too soon: ``retry_after`` seconds."""

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class SeatRequest:
    """A person's pending request for a seat: ``seat`` from 0 (None: any), ``asked`` in
    Unix seconds, ``seen`` (the last news the page asked for) in monotonic seconds."""

    id: str
    name: str
    token_sha256: str
    seat: int | None
    asked: float
    sends_seeds: bool = False
    seen: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "token_sha256": self.token_sha256,
            "seat": self.seat,
            "asked": self.asked,
            "sends_seeds": self.sends_seeds,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatRequest:
        seat = data.get("seat")
        return cls(
            str(data["id"]),
            str(data["name"]),
            str(data["token_sha256"]),
            None if seat is None else int(seat),
            float(data["asked"]),
            bool(data.get("sends_seeds", False)),
        )


class SeatRequests:
    """A table's pending seat requests, oldest first, and the recent answers.
    ``clock`` gives Unix seconds and ``monotonic`` the seconds of the page's news (both
    injectable for tests)."""

    def __init__(
        self,
        saved: Sequence[dict[str, Any]] = (),
        *,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.clock = clock
        self.monotonic = monotonic
        self.pending: dict[str, SeatRequest] = {}
        # token hash -> (the answer, Unix seconds): "refused", "expired", "withdrawn"
        self._answers: OrderedDict[str, tuple[str, float]] = OrderedDict()
        for item in saved:
            request = SeatRequest.from_dict(item)
            request.seen = self.monotonic()  # the page has GONE seconds to ask again
            self.pending[request.id] = request

    def state(self) -> list[dict[str, Any]]:
        return [r.as_dict() for r in self.pending.values()]

    def of(self, token_sha256: str) -> SeatRequest | None:
        """The pending request of a browser."""
        return next(
            (r for r in self.pending.values() if hmac.compare_digest(r.token_sha256, token_sha256)),
            None,
        )

    def names(self) -> list[str]:
        return [r.name for r in self.pending.values()]

    def ask(self, name: str, seat: int | None, token_sha256: str, sends_seeds: bool) -> SeatRequest:
        """A new request (the caller checked the name and the seat); a browser that has
        one gets it back. :class:`AskLater` when too many wait, or when the host refused
        this browser less than :data:`ASK_AGAIN` seconds ago."""
        mine = self.of(token_sha256)
        if mine is not None:
            mine.seen = self.monotonic()
            return mine
        answer = self._answers.get(token_sha256)
        if answer is not None and answer[0] == "refused":
            wait = answer[1] + ASK_AGAIN - self.clock()
            if wait > 0:
                raise AskLater(
                    f"the host refused your request for a seat: ask again in {wait:.0f} s",
                    wait,
                )
        if len(self.pending) >= MAX_REQUESTS:
            oldest = min(r.asked for r in self.pending.values())
            wait = max(1.0, min(ASK_AGAIN, oldest + LIFETIME - self.clock()))
            raise AskLater(
                f"{MAX_REQUESTS} requests for a seat are waiting for the host: try again later",
                wait,
            )
        request_id = secrets.token_urlsafe(6)
        while request_id in self.pending:
            request_id = secrets.token_urlsafe(6)
        request = SeatRequest(
            request_id, name, token_sha256, seat, self.clock(), sends_seeds, self.monotonic()
        )
        self.pending[request_id] = request
        self._answers.pop(token_sha256, None)
        return request

    def get(self, request_id: object) -> SeatRequest:
        """The pending request ``request_id``; :class:`ActionError` when there is none."""
        if not isinstance(request_id, str) or request_id not in self.pending:
            shown = repr(request_id)[:40]
            raise ActionError(
                f"no pending seat request {shown} (it may have been withdrawn or expired)"
            )
        return self.pending[request_id]

    def close(self, request: SeatRequest, outcome: str | None) -> None:
        """Take a request away; its page is told ``outcome`` ("refused", "expired",
        "withdrawn"; None: the person sat down)."""
        self.pending.pop(request.id, None)
        self._answers.pop(request.token_sha256, None)
        if outcome is not None:
            self._answers[request.token_sha256] = (outcome, self.clock())
            while len(self._answers) > REMEMBERED:
                self._answers.popitem(last=False)

    def withdraw(self, token_sha256: str | None) -> SeatRequest | None:
        """The requester leaves: their request (if any) goes."""
        mine = None if not token_sha256 else self.of(token_sha256)
        if mine is not None:
            self.close(mine, "withdrawn")
        return mine

    def expire(self) -> list[SeatRequest]:
        """Remove and return the requests older than :data:`LIFETIME` and those whose
        page gave no news for :data:`GONE` seconds."""
        now, moment = self.clock(), self.monotonic()
        gone = [r for r in self.pending.values() if now - r.asked >= LIFETIME]
        gone += [r for r in self.pending.values() if r not in gone and moment - r.seen >= GONE]
        for r in gone:
            self.close(r, "expired")
        return gone

    def status(self, token_sha256: str | None) -> dict[str, Any]:
        """What the requester's page is told (asking counts as news: the page is open)."""
        if not token_sha256:
            return {"status": "none"}
        mine = self.of(token_sha256)
        if mine is not None:
            mine.seen = self.monotonic()
            return {
                "status": "pending",
                "request": mine.id,
                "name": mine.name,
                "message": "waiting for the host to approve",
            }
        answer = self._answers.get(token_sha256)
        if answer is None:
            return {"status": "none"}
        outcome, at = answer
        out: dict[str, Any] = {"status": outcome}
        if outcome == "refused":
            out["retry_after"] = round(max(0.0, at + ASK_AGAIN - self.clock()), 1)
        return out

    def shown(self) -> list[dict[str, Any]]:
        """The requests as the host sees them (no token hashes), oldest first; those
        past their time are left out (:meth:`expire` removes them)."""
        now, moment = self.clock(), self.monotonic()
        return [
            {
                "request": r.id,
                "name": r.name,
                "seat": None if r.seat is None else r.seat + 1,
                "waiting": round(max(0.0, now - r.asked)),
            }
            for r in self.pending.values()
            if now - r.asked < LIFETIME and moment - r.seen < GONE
        ]


# --- new players ---------------------------------------------------------------------


def dealt_in(
    order: Sequence[int], waiting: Collection[int], blinds: Sequence[int], rule: str
) -> tuple[list[int], list[int]]:
    """The seats dealt the next hand and the positions that post to come in.

    ``order``: the seats that may play, by position (first left of the button to the
    button); ``waiting``: the seats among them that wait to come in; ``blinds``: the
    game's blinds by position; ``rule``: "wait" (a waiting seat comes in at the big
    blind) or "post" (it comes in at once and posts a big blind, but not in the small
    blind's position nor on the button). With fewer than two other seats, or no big
    blind, every waiting seat comes in at once.

    >>> dealt_in([1, 2, 3, 4, 0], {3}, (1, 2), "wait")
    ([1, 2, 4, 0], [])
    >>> dealt_in([1, 3, 2, 4, 0], {3}, (1, 2), "wait")
    ([1, 3, 2, 4, 0], [])
    >>> dealt_in([1, 2, 3, 4, 0], {3}, (1, 2), "post")
    ([1, 2, 3, 4, 0], [2])
    """
    if rule not in NEW_PLAYERS:
        raise GameError(f"new players 'wait' or 'post', not {rule!r}")
    regular = [s for s in order if s not in waiting]
    big = blinds[1] if len(blinds) > 1 else 0
    if len(regular) == len(order) or len(regular) < 2 or big <= 0:
        return list(order), []
    dealt: list[int] = []
    posting: list[int] = []
    for s in order:
        if s not in waiting or len(dealt) == 1:  # a player, or the big blind's position
            dealt.append(s)
        elif rule == "post" and len(dealt) >= 2:  # past the blinds: posts
            dealt.append(s)
            posting.append(s)
        # else: the small blind's position, or waiting for the big blind
    while dealt[-1] in posting:  # the button does not post: it waits a hand more
        posting.remove(dealt.pop())
    return dealt, [dealt.index(s) for s in posting]
