"""Chat at a web table: the seated players and the spectators talk; the host may mute.

**What is kept.** A table keeps its last :data:`KEEP` messages, in memory and in the
store (:mod:`cardlab.store.chat`, the table's last :data:`KEEP` lines), so a table
restored from the store (a restart, a handover to another process, a takeover after a
crash: :meth:`Chat.restore`) shows the chat its pages showed, with the same message ids.
A message is written before anyone is shown it (like an action, ``keep``): at once on
SQLite, from a worker thread on PostgreSQL (``off_loop``: the event loop goes on; the
message is shown and its author told it is posted once it is stored, messages in the
order they were sent); a message the store refuses is not shown, and its author is told
(a ``chat`` error). While the table's store is unreachable (``away``) messages are kept
in memory only, as they were before there was a store: they survive the store coming
back, not a later restart or handover. The mutes, the spectators' numbering and the
next ids are saved with the table's state (:meth:`Chat.state`); the rate limits'
memory is not (a restored table lets each author send at once).

**Who speaks.** An author is a browser: the SHA-256 of its ``cardlab_id`` cookie, the
key a seat and the host hold too. A seated person speaks under the seat's name. A
spectator speaks as "spectator N" (N counts the spectators of the table in the order
they first speak, the same N for the same browser) unless a message carries a ``name``:
checked like a seat's name (:func:`~cardlab.web.table_config.check_name`), not a seated
player's, not another spectator's and not a "spectator N"; the browser keeps it until it
gives another. Spectators are marked as such (``seat`` null), so a name never passes for
a player's.

**What a message may say.** :func:`clean_text`: line breaks and other white space become
spaces; control, format (bidirectional overrides and isolates, zero-width spaces),
private-use and unassigned characters are removed (the zero-width joiners of emoji and
of some scripts stay, inside the text); what is left is trimmed and holds 1 to
:data:`MAX_TEXT` characters. The page shows every text as text (``textContent``), never as markup.

**How often.** Each author at most one message per half second and five per ten
seconds (:data:`LIMITS`); a refused message does not count.

**Mute.** The host mutes an author by seat or by one of the author's messages
(:func:`host_chat_operation`); a muted author's new messages are refused, their earlier
ones stay. The host cannot be muted. A mute lasts as long as the table (it is saved with
the table's state, ``on_mute``) and follows the browser, not the seat.

**What a client is sent.** Every ``state`` carries the last :data:`SHOWN` messages
(``chat``), the same for everyone, because the room builds one text per (seat, host)
and spectators share it; the host's copy marks the messages whose author is muted and
lists the muted authors (``chat_mutes``). What only one browser may know, whether it is
muted and its spectator name, goes to its own connections alone as ``{"type":
"chat_status", ...}`` (:meth:`Chat.status`): in answer to each of its chat messages,
when the host mutes or unmutes it, and when it connects if it is muted or named.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import logging
import math
import re
import time
import unicodedata
from collections import OrderedDict, deque
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from cardlab.errors import CardlabError
from cardlab.store.chat import ChatLine
from cardlab.web.payload import RequestError, shown
from cardlab.web.table_config import check_name, name_key

if TYPE_CHECKING:
    from cardlab.web.table_outlets import Outlets
    from cardlab.web.table_seats import SeatInfo

log = logging.getLogger(__name__)

MAX_TEXT = 200  # characters of a message, after cleaning
KEEP = 100  # messages a table keeps
SHOWN = 50  # messages in each state
LIMITS: tuple[tuple[int, float], ...] = ((1, 0.5), (5, 10.0))  # (messages, per seconds)
MAX_AUTHORS = 1000  # authors whose rate and spectator name are remembered (least recent go)
SEND_TIMEOUT = 10.0

# control, format, private use, surrogates, unassigned, line and paragraph separators
_REMOVED = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
_JOINERS = "\u200c\u200d"  # zero-width non-joiner and joiner: emoji sequences, Persian
_DEFAULT_NAME = re.compile(r"spectator\d*")  # a name key that passes for a default name
_NUMBERED = re.compile(r"spectator [1-9]\d{0,8}")  # a spectator's default name


class ChatError(RequestError):
    """A chat message or a mute the table refuses; the message says why."""


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One message: ``seat`` from 1 (None: a spectator's), ``at`` in Unix seconds,
    ``host``: the host wrote it; ``author`` (its browser's key) never leaves the server."""

    id: int
    name: str
    seat: int | None
    text: str
    at: int
    host: bool
    author: str = field(repr=False)

    def line(self) -> ChatLine:
        """The message as the store keeps it."""
        at = datetime.datetime.fromtimestamp(self.at, datetime.UTC)
        return ChatLine(self.id, self.name, self.seat, self.text, self.host, self.author, at)

    @classmethod
    def from_line(cls, line: ChatLine) -> ChatMessage:
        """The message a stored line keeps."""
        at = int(line.at.timestamp())
        return cls(line.id, line.name, line.seat, line.text, at, line.host, line.author)

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "seat": self.seat,
            "text": self.text,
            "at": self.at,
            "host": self.host,
        }


def clean_text(text: object) -> str:
    """A message's text as it is kept and shown (see the module documentation);
    :class:`ChatError` when it is not text, empty or too long."""
    if not isinstance(text, str):
        raise ChatError(f"a chat message needs its 'text' as a string: {shown(text, 60)}")
    kept = "".join(
        " " if c.isspace() else c
        for c in text
        if c.isspace() or c in _JOINERS or unicodedata.category(c) not in _REMOVED
    ).strip(" " + _JOINERS)
    if not kept:
        raise ChatError("a chat message is empty: write something first")
    if len(kept) > MAX_TEXT:
        raise ChatError(
            f"a chat message has at most {MAX_TEXT} characters (this one has {len(kept)})"
        )
    return kept


class _Sender(Protocol):
    async def send_text(self, data: str) -> None: ...


@dataclass
class _Author:
    sent: deque[float] = field(default_factory=lambda: deque(maxlen=max(n for n, _ in LIMITS)))
    spectator: str = ""  # the name it speaks under as a spectator ("" until it speaks)


@dataclass(frozen=True, slots=True)
class ChatKept:
    """What a :class:`Chat` remembers (:meth:`Chat.kept`), to go on in another."""

    messages: tuple[ChatMessage, ...]
    next_id: int
    authors: tuple[tuple[str, _Author], ...]
    spectators: int
    muted: tuple[tuple[str, tuple[int, str]], ...]
    next_key: int


class Chat:
    """The chat of one table. ``is_host``: whether a browser key is the table's host now;
    ``on_change``: called after every change (the room pushes the state); ``on_mute``:
    after a mute or unmute (the room saves its state); ``keep``: writes a message to the
    store before it is shown (:class:`CardlabError` when it cannot; None: memory only),
    from a worker thread if ``off_loop``; ``away``: the store is unreachable (messages
    are kept in memory only); ``clock`` (seconds, for the rate limits) and ``wall`` (Unix
    seconds, for ``at``) are injected so tests control time."""

    def __init__(
        self,
        *,
        is_host: Callable[[str | None], bool] = lambda author: False,
        on_change: Callable[[], None] = lambda: None,
        on_mute: Callable[[], None] = lambda: None,
        keep: Callable[[ChatMessage], None] | None = None,
        off_loop: bool = False,
        away: Callable[[], bool] = lambda: False,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        self.is_host = is_host
        self.on_change = on_change
        self.on_mute = on_mute
        self.keep = keep
        self.off_loop = off_loop
        self.away = away
        self.clock = clock
        self.wall = wall
        # messages being written (off the loop), in the order sent, with their send times
        self.pending: OrderedDict[int, tuple[ChatMessage, float]] = OrderedDict()
        self._writer: asyncio.Task[None] | None = None
        self.messages: deque[ChatMessage] = deque(maxlen=KEEP)
        self._next_id = 1
        self._authors: OrderedDict[str, _Author] = OrderedDict()
        self._spectators = 0
        self._muted: dict[str, tuple[int, str]] = {}  # author -> (key, name when muted)
        self._next_key = 1
        self._listeners: dict[int, tuple[str | None, _Sender]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def kept(self) -> ChatKept:
        """What the chat remembers, for :meth:`take_over` (its listeners stay here)."""
        return ChatKept(
            tuple(self.messages),
            self._next_id,
            tuple(self._authors.items()),
            self._spectators,
            tuple(self._muted.items()),
            self._next_key,
        )

    def take_over(self, kept: ChatKept) -> None:
        """Go on from ``kept``, the chat of the same table in a room this process ran
        before (the table was restored from the store after an outage): its messages,
        speakers, spectators' names and mutes."""
        self.messages = deque(kept.messages, maxlen=KEEP)
        self._next_id = kept.next_id
        self._authors = OrderedDict(kept.authors)
        self._spectators = kept.spectators
        self._muted = dict(kept.muted)
        self._next_key = kept.next_key

    @classmethod
    def at_table(
        cls,
        out: Outlets,
        is_host: Callable[[str | None], bool],
        away: Callable[[], bool],
        off_loop: bool,
    ) -> Chat:
        """The chat of the table ``out`` names (``off_loop``: its store is written from a
        worker thread): each message written to its store's
        lines (its last :data:`KEEP`) before it is shown, and each mute saved with the
        table's state at once (as the host's pause is; the store away: at its next
        save), so both outlive a restart and a handover."""

        def keep(message: ChatMessage) -> None:
            out.store.add_chat_line(out.table_id, message.line(), keep=KEEP)

        def save_mutes() -> None:
            if not away():
                with contextlib.suppress(CardlabError):
                    out.save()

        return cls(
            is_host=is_host, on_change=out.notify, on_mute=save_mutes, keep=keep,
            off_loop=off_loop, away=away,
        )  # fmt: skip

    def state(self) -> dict[str, Any]:
        """What is saved with the table's state (its messages are the store's lines): the
        mutes, the spectators counted, the next message id and mute key."""
        return {
            "muted": [[author, key, name] for author, (key, name) in self._muted.items()],
            "spectators": self._spectators,
            "next_id": self._next_id,
            "next_key": self._next_key,
        }

    def restore(self, lines: Sequence[ChatLine], saved: dict[str, Any] | None) -> None:
        """Go on from the table's stored ``lines`` (oldest first) and its saved chat
        state (:meth:`state`; None: saved before the chat was). Each spectator who spoke
        keeps the name of its last line; the spectators' numbering goes on."""
        was = saved or {}
        self.messages = deque((ChatMessage.from_line(line) for line in lines), maxlen=KEEP)
        last = max((m.id for m in self.messages), default=0)
        self._next_id = max(last + 1, int(was.get("next_id", 1)))
        self._authors = OrderedDict()
        for message in self.messages:
            if message.seat is None:
                self._authors[message.author] = _Author(spectator=message.name)
                self._authors.move_to_end(message.author)
        numbered = [
            int(m.name.removeprefix("spectator "))
            for m in self.messages
            if m.seat is None and _NUMBERED.fullmatch(m.name)
        ]
        self._spectators = max([int(was.get("spectators", 0)), *numbered])
        self._muted = {
            str(author): (int(key), str(name)) for author, key, name in was.get("muted", [])
        }
        self._next_key = max(
            [int(was.get("next_key", 1)), *(key + 1 for key, _ in self._muted.values())]
        )

    # --- speaking ----------------------------------------------------------------------

    def post(
        self,
        author: str | None,
        text: object,
        *,
        seat: int | None = None,
        seat_name: str = "",
        name: object = None,
        taken: Collection[str] = (),
    ) -> ChatMessage:
        """Post ``text`` from the browser ``author``: seated in ``seat`` (from 1) under
        ``seat_name``, or a spectator (``seat`` None) who may give a ``name``; ``taken``:
        the name keys (:func:`~cardlab.web.table_config.name_key`) of the seated players.
        :class:`ChatError` (nothing changes) when the author is muted, the text is
        refused, the author writes too fast, or the name is refused."""
        if not author:
            raise ChatError("to chat, open the table's page first (it gives your browser its key)")
        if self.muted(author):
            raise ChatError("the host has muted you")
        body = clean_text(text)
        if seat is not None and name is not None:
            raise ChatError(f"a seated player chats under the seat's name ({seat_name!r})")
        record = self._authors.get(author)
        now = self.clock()
        wait = 0.0 if record is None else rate_wait(record.sent, now)
        if wait > 0:
            raise ChatError(f"you are sending messages too fast: wait {wait:.1f} s")
        speaker = seat_name if seat is not None else self._spectator_name(author, name, taken)
        if record is None:
            record = self._authors[author] = _Author()
            while len(self._authors) > MAX_AUTHORS:
                self._authors.popitem(last=False)
        self._authors.move_to_end(author)
        record.sent.append(now)
        if seat is None and record.spectator != speaker:
            if not record.spectator and name is None:
                self._spectators += 1
            record.spectator = speaker
        message = ChatMessage(
            self._next_id, speaker, seat, body, int(self.wall()), self.is_host(author), author
        )
        self._next_id += 1
        if self.keep is None or self.away():
            self._show(message)
        elif not self.off_loop:
            try:
                self.keep(message)
            except CardlabError as exc:
                self._not_kept(message, now)
                raise ChatError(_NOT_KEPT) from exc
            self._show(message)
        else:
            self.pending[message.id] = (message, now)
            if self._writer is None or self._writer.done():
                self._writer = asyncio.get_running_loop().create_task(self._write_pending())
        return message

    def _show(self, message: ChatMessage) -> None:
        self.messages.append(message)
        self.on_change()

    def _not_kept(self, message: ChatMessage, sent: float) -> None:
        """The store refused ``message``: it does not count against its author's rate."""
        record = self._authors.get(message.author)
        if record is not None:
            with contextlib.suppress(ValueError):
                record.sent.remove(sent)

    async def _write_pending(self) -> None:
        """Write the pending messages in order from a worker thread, showing each once
        it is stored (its author told it is posted) or telling its author it was not."""
        keep = self.keep
        while self.pending and keep is not None:
            message, sent = next(iter(self.pending.values()))
            try:
                await asyncio.to_thread(keep, message)
            except Exception as exc:  # the store's refusal or the driver's: not shown
                log.warning("chat message %d not stored: %s", message.id, exc)
                self.pending.pop(message.id, None)
                self._not_kept(message, sent)
                self._send(message.author, {"type": "error", "message": _NOT_KEPT, "about": "chat"})
                continue
            self.pending.pop(message.id, None)
            self._show(message)
            self._send(message.author, self.status(message.author, posted=message.id))

    def _spectator_name(self, author: str, name: object, taken: Collection[str]) -> str:
        record = self._authors.get(author)
        if name is None:
            if record is not None and record.spectator:
                return record.spectator
            return f"spectator {self._spectators + 1}"
        text = check_name(name)
        key = name_key(text)
        if _DEFAULT_NAME.fullmatch(key):
            raise ChatError(
                f"{text!r} is how spectators without a name are shown: choose another name"
            )
        if key in taken:
            raise ChatError(f"the name {text!r} is a player's at this table: choose another")
        for other, known in self._authors.items():
            if other != author and known.spectator and name_key(known.spectator) == key:
                raise ChatError(f"a spectator already chats as {text!r}: choose another name")
        return text

    # --- muting ------------------------------------------------------------------------

    def muted(self, author: str | None) -> bool:
        """The host muted ``author`` (the host, whoever it is now, never is)."""
        return author is not None and author in self._muted and not self.is_host(author)

    def mute(self, author: str, name: str) -> None:
        """Refuse ``author``'s new messages (``name``: how the host's list shows it)."""
        if self.is_host(author):
            raise ChatError("the host cannot be muted")
        if author not in self._muted:
            self._muted[author] = (self._next_key, name)
            self._next_key += 1
        self._changed(author)

    def unmute(self, author: str) -> None:
        """Let ``author`` write again (nothing happens if it was not muted)."""
        if self._muted.pop(author, None) is not None:
            self._changed(author)

    def author_of_key(self, key: object) -> str:
        """The muted author that the host's list shows with ``key``."""
        if isinstance(key, int) and not isinstance(key, bool):
            for author, (k, _) in self._muted.items():
                if k == key:
                    return author
        raise ChatError(f"nobody muted has the key {shown(key, 40)}")

    def author_of(self, message_id: object) -> tuple[str, str]:
        """The author of message ``message_id`` and the name it wrote under."""
        if isinstance(message_id, int) and not isinstance(message_id, bool):
            for message in self.messages:
                if message.id == message_id:
                    return message.author, message.name
        raise ChatError(f"no chat message {shown(message_id, 40)} (the chat keeps the last {KEEP})")

    def _changed(self, author: str) -> None:
        self.on_mute()
        self.on_change()
        self.tell(author)

    # --- what clients are sent ---------------------------------------------------------

    def recent(self, *, host: bool = False) -> list[dict[str, Any]]:
        """The last :data:`SHOWN` messages; for the host each says if its author is muted."""
        recent = list(self.messages)[-SHOWN:]
        if not host:
            return [m.as_dict() for m in recent]
        return [m.as_dict() | {"muted": self.muted(m.author)} for m in recent]

    def mutes(self) -> list[dict[str, Any]]:
        """The muted authors for the host: ``key`` (to unmute) and ``name``."""
        return [
            {"key": key, "name": name}
            for author, (key, name) in self._muted.items()
            if not self.is_host(author)
        ]

    def status(self, author: str | None, posted: int | None = None) -> dict[str, Any]:
        """What one browser alone is told: can it chat (it has a key), is it muted, the
        name it chats under as a spectator (None before its first message); ``posted``:
        the id of the message this answers."""
        record = None if author is None else self._authors.get(author)
        out: dict[str, Any] = {
            "type": "chat_status",
            "can_chat": bool(author),
            "muted": self.muted(author),
            "name": record.spectator if record is not None and record.spectator else None,
        }
        if posted is not None:
            out["posted"] = posted
        return out

    def listen(self, conn_id: int, conn: _Sender, author: str | None) -> None:
        """Send ``conn`` (of the browser ``author``) its status when the host changes it."""
        self._listeners[conn_id] = (author, conn)

    def unlisten(self, conn_id: int) -> None:
        self._listeners.pop(conn_id, None)

    def greeting(self, author: str | None) -> dict[str, Any] | None:
        """The status a new connection needs, or None when it is the default one (not
        muted, no spectator name yet), which the page assumes."""
        status = self.status(author)
        return status if status["muted"] or status["name"] is not None else None

    def tell(self, author: str) -> None:
        """Send ``author``'s connections its status (on the running loop, if any)."""
        self._send(author, self.status(author))

    def _send(self, author: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``author``'s connections (on the running loop, if any)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        text = json.dumps(message, ensure_ascii=False)
        for who, conn in list(self._listeners.values()):
            if who == author:
                task = loop.create_task(_deliver(conn, text))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)


_NOT_KEPT = "the server could not store the message: it was not sent (try again)"


async def _deliver(conn: _Sender, text: str) -> None:
    with contextlib.suppress(Exception):  # gone: it reconnects and is told again
        async with asyncio.timeout(SEND_TIMEOUT):  # (not wait_for: see table_room)
            await conn.send_text(text)


def rate_wait(sent: deque[float], now: float) -> float:
    """Seconds until one more message fits every limit (0: now), rounded up to 0.1."""
    wait = 0.0
    for count, seconds in LIMITS:
        if len(sent) >= count:
            wait = max(wait, sent[-count] + seconds - now)
    return math.ceil(wait * 10 - 1e-9) / 10 if wait > 0 else 0.0


# --- a WebSocket message and the host's operations (the seats passed in) -----------------------


def chat_message(
    chat: Chat,
    seats: Sequence[SeatInfo],
    seat: int | None,
    author: str | None,
    message: dict[str, Any],
) -> dict[str, Any] | None:
    """Do ``{"type": "chat", "text": ..., "name"?: ...}`` from the browser ``author`` in
    ``seat`` (from 0; None: a spectator). The reply for that client: its
    ``chat_status`` (with ``posted``), or ``{"type": "error", "message": ..., "about":
    "chat"}``; None while the message is being stored off the loop (its author is sent
    the status once it is). Everyone gets the message in the next state."""
    try:
        info = None if seat is None else seats[seat]
        taken = {name_key(s.name) for s in seats if s.kind != "open"}
        posted = chat.post(
            author,
            message.get("text"),
            seat=None if seat is None else seat + 1,
            seat_name="" if info is None else info.name,
            name=message.get("name"),
            taken=taken,
        )
    except CardlabError as exc:
        return {"type": "error", "message": str(exc)[:300], "about": "chat"}
    if posted.id in chat.pending:
        return None
    return chat.status(author, posted=posted.id)


def host_chat_operation(
    chat: Chat, seats: Sequence[SeatInfo], op: str, data: dict[str, Any]
) -> None:
    """The host's ``{"op": "mute", "seat": 3}`` or ``{"op": "mute", "message": 17}``
    (the author of that message); ``"unmute"`` takes the same or ``"key"`` from the
    host's list of muted authors (``chat_mutes``)."""
    given = [k for k in ("seat", "message", "key") if data.get(k) is not None]
    allowed = ("seat", "message") if op == "mute" else ("seat", "message", "key")
    if len(given) != 1 or given[0] not in allowed:
        raise ChatError(f"{op} names one of {', '.join(allowed)}: {shown(data, 60)}")
    if given[0] == "key":
        chat.unmute(chat.author_of_key(data["key"]))
        return
    if given[0] == "message":
        author, name = chat.author_of(data["message"])
    else:
        seat = data["seat"]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= len(seats):
            raise ChatError(f"a seat is a number from 1 to {len(seats)}: {shown(seat, 40)}")
        info = seats[seat - 1]
        if info.kind != "human" or not info.token_sha256:
            raise ChatError(f"seat {seat} has no person to {op}")
        author, name = info.token_sha256, info.name
    if op == "mute":
        chat.mute(author, name)
    else:
        chat.unmute(author)
