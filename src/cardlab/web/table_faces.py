"""How the players at a web table look and react: avatars and emoji reactions.

**Avatars.** A seated person picks one of the built-in pictures (:data:`AVATARS`, each an
emoji the page draws large) or their initials (``"initials"``, the default); there are no
uploads. The choice belongs to the sitting (:attr:`SeatInfo.sitting`), is saved with the
table's state and is forgotten when the person stands up. A bot is drawn as a bot.

**Reactions.** Anyone at the table (a seated player or a spectator, known by their
browser's key) may send one of :data:`REACTIONS`; every client sees the last
:data:`SHOWN` for a few seconds over the sender's seat (or the spectators' corner).
Reactions are limited like chat messages (:data:`cardlab.web.table_chat.LIMITS`: at most
one per half second and five per ten seconds per browser), an author the host muted in
the chat cannot send them; unlike the chat they live in memory only.
"""

from __future__ import annotations

import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardlab.web.payload import RequestError, shown
from cardlab.web.table_chat import LIMITS, MAX_AUTHORS, rate_wait
from cardlab.web.table_seats import SeatInfo

__all__ = ["AVATARS", "REACTIONS", "FaceError", "Faces"]

AVATARS: dict[str, str] = {
    "fox": "🦊",
    "owl": "🦉",
    "cat": "🐱",
    "bear": "🐻",
    "frog": "🐸",
    "panda": "🐼",
    "octopus": "🐙",
    "penguin": "🐧",
    "lion": "🦁",
    "whale": "🐳",
}
"""The built-in pictures: a name and the emoji the page draws."""

REACTIONS = ("👍", "👏", "😂", "😮", "😢", "😡", "🔥", "🤔", "🍀", "🎉")
SHOWN = 12  # reactions in each state
KEEP_SECONDS = 8.0  # a reaction older than this is not sent


class FaceError(RequestError):
    """An avatar or a reaction the table refuses; the message says why."""


@dataclass(frozen=True, slots=True)
class Reaction:
    id: int
    emoji: str
    seat: int | None  # from 1; None: a spectator
    name: str
    at: float  # monotonic seconds

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "emoji": self.emoji, "seat": self.seat, "name": self.name}


class Faces:
    """The avatars and reactions of one table. ``seats()``: who sits where;
    ``muted(author)``: the host muted that browser in the chat; ``on_change``: the room
    pushes the state; ``clock``: seconds (injected so tests control time)."""

    def __init__(
        self,
        seats: Callable[[], Sequence[SeatInfo]],
        *,
        muted: Callable[[str | None], bool] = lambda author: False,
        on_change: Callable[[], None] = lambda: None,
        clock: Callable[[], float] = time.monotonic,
        saved: dict[str, Any] | None = None,
    ) -> None:
        self.seats = seats
        self.muted = muted
        self.on_change = on_change
        self.clock = clock
        self.avatars: dict[str, str] = {
            str(k): str(v)
            for k, v in dict((saved or {}).get("avatars", {})).items()
            if v in AVATARS
        }
        self.reactions: deque[Reaction] = deque(maxlen=SHOWN)
        self._next = 1
        self._sent: OrderedDict[str, deque[float]] = OrderedDict()

    def state(self) -> dict[str, Any]:
        here = {s.sitting for s in self.seats() if s.kind == "human"}
        return {"avatars": {k: v for k, v in self.avatars.items() if k in here}}

    # --- avatars ------------------------------------------------------------------------

    def choose(self, seat: int | None, avatar: object) -> None:
        """The person in ``seat`` (from 0) picks ``avatar`` (a name of :data:`AVATARS`
        or "initials")."""
        if seat is None:
            raise FaceError("only a seated player has an avatar (join first)")
        if not isinstance(avatar, str) or (avatar not in AVATARS and avatar != "initials"):
            names = ", ".join(["initials", *AVATARS])
            raise FaceError(f"an avatar is one of {names}: {shown(avatar, 40)}")
        sitting = self.seats()[seat].sitting
        if avatar == "initials":
            self.avatars.pop(sitting, None)
        else:
            self.avatars[sitting] = avatar
        self.on_change()

    def avatar_of(self, info: SeatInfo) -> dict[str, str] | None:
        """What the page draws for a seat: ``{"kind": "picture", "name", "emoji"}``,
        ``{"kind": "initials", "text"}`` or ``{"kind": "bot"}`` (None: an open seat)."""
        if info.kind == "open":
            return None
        if info.kind == "bot":
            return {"kind": "bot", "emoji": "🤖"}
        name = self.avatars.get(info.sitting)
        if name is not None:
            return {"kind": "picture", "name": name, "emoji": AVATARS[name]}
        words = info.name.split()
        letters = "".join(w[0] for w in words[:2]) if len(words) > 1 else info.name[:2]
        return {"kind": "initials", "text": letters.upper()}

    # --- reactions ----------------------------------------------------------------------

    def react(self, author: str | None, seat: int | None, emoji: object) -> Reaction:
        """``author`` (a browser's key; seated in ``seat`` from 0, or None) sends
        ``emoji``; :class:`FaceError` (nothing changes) when it is not one of
        :data:`REACTIONS`, the author is muted or sends too fast."""
        if not author:
            raise FaceError("to react, open the table's page first (it gives your browser its key)")
        if not isinstance(emoji, str) or emoji not in REACTIONS:
            raise FaceError(f"a reaction is one of {' '.join(REACTIONS)}: {shown(emoji, 40)}")
        if self.muted(author):
            raise FaceError("the host has muted you")
        now = self.clock()
        sent = self._sent.get(author)
        wait = 0.0 if sent is None else rate_wait(sent, now)
        if wait > 0:
            raise FaceError(f"you are sending reactions too fast: wait {wait:.1f} s")
        if sent is None:
            sent = self._sent[author] = deque(maxlen=max(n for n, _ in LIMITS))
            while len(self._sent) > MAX_AUTHORS:
                self._sent.popitem(last=False)
        self._sent.move_to_end(author)
        sent.append(now)
        name = "a spectator" if seat is None else self.seats()[seat].name
        reaction = Reaction(self._next, emoji, None if seat is None else seat + 1, name, now)
        self._next += 1
        self.reactions.append(reaction)
        self.on_change()
        return reaction

    def recent(self) -> list[dict[str, Any]]:
        """The reactions of the last :data:`KEEP_SECONDS` seconds, oldest first."""
        now = self.clock()
        return [r.as_dict() for r in self.reactions if now - r.at <= KEEP_SECONDS]
