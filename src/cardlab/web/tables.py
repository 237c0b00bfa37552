"""The web tables: Mixwell poker in the browser, against bots and with friends.

Routes (mounted by :func:`cardlab.web.app.create_app`)::

    GET  /tables                              the lobby: public tables, create one
    GET  /tables/{id}                         a table (join with a name, then play)
    GET  /api/tables                          the public tables and their free seats
    POST /api/tables                          {"game", "seats", "stack", "bots", "public"?,
                                              ...} -> the table (the caller is its host)
    GET  /api/tables/options                  the games, bots and defaults for the form
    GET  /api/tables/{id}                     the table as the caller's seat sees it
    POST /api/tables/{id}/join                {"name", "seat"?, "client_seeds"?} -> the
                                              seat (idempotent; client_seeds: the page
                                              will send a client seed for each deal), or
                                              202 and a request for the host to approve
    GET  /api/tables/{id}/request             what became of the caller's seat request
    POST /api/tables/{id}/leave               give the seat back (stack to the ledger), or
                                              withdraw a pending seat request
    POST /api/tables/{id}/close               the host closes the table {"now"?: true}
    POST /api/tables/{id}/host                the host: {"op": "pause" | "resume" |
                                              "settings" | "remove" | "add_bot" |
                                              "transfer" | "approve" | "refuse", ...}
                                              (see host_operation)
    POST /api/tables/{id}/chips               {"amount"}: a rebuy or top-up between hands
    GET  /api/tables/{id}/ledger              buy-ins, cash-outs, each person's net
                                              (?format=csv)
    GET  /api/tables/{id}/hands.phhs          the finished hands, as the caller may see them
    WS   /api/tables/{id}/ws                  live: state pushed on every change; send
                                              {"type": "action", "action": "r 20",
                                              "turn"?: n}, {"type": "start"},
                                              {"type": "client_seed", "deal": n, "seed": s},
                                              {"type": "reveal"}, {"type": "leave"},
                                              {"type": "sit_out"}, {"type": "sit_in"},
                                              {"type": "show"} (the winner of a hand
                                              everyone folded to, before the next deal),
                                              {"type": "chat", "text": t, "name"?: n}
                                              (see table_chat: its answer, and what only
                                              this browser may know, is a "chat_status")

Who is who: a browser carries one secret, the HttpOnly cookie ``cardlab_id`` (set by a
table page, or by the first join or create that lacks it). A seat and a table's host
hold only its SHA-256, so joining twice from one browser gives the same seat, and
leaving makes the secret worthless at that table. Table ids carry 128 random bits; a
table is in the lobby only if its creator asks (``"public": true``).

Limits: the edge (:mod:`cardlab.web.guard`) refuses cross-site requests and non-JSON
state changes and rate-limits every client; here, tables created, joins and WebSocket
messages have their own budgets (429 with the seconds to wait), the table limit counts
live tables only, tables with no person seated close after ``idle_close`` seconds
without activity, and a table of bots stops dealing after ``bot_hands`` hands nobody
watched. Every bad request is a 400 with ``{"error": ...}``; every bad WebSocket
message gets ``{"type": "error", "message": ...}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import logging
import math
import secrets
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardlab import render
from cardlab.errors import CardlabError, GameError
from cardlab.table import TableGame
from cardlab.table.structure import table_game_names
from cardlab.web.guard import RateLimiter, client_key, too_many
from cardlab.web.lease import TableKeeper
from cardlab.web.payload import RequestError
from cardlab.web.table_chat import chat_message, host_chat_operation
from cardlab.web.table_config import (
    DEFAULT_BOT_DELAY,
    DEFAULT_CLOCK,
    DEFAULT_PAUSE,
    bot_names,
    parse_config,
)
from cardlab.web.table_phh import phhs
from cardlab.web.table_room import BOT_HANDS, Room, digest
from cardlab.web.table_seating import (
    AskLater,
    SeatRequest,
    approve,
    expire_requests,
    refuse,
    request_status,
    withdraw,
)
from cardlab.web.table_store import TableStore, open_table_store
from cardlab.web.verify_page import deck_orders_json

log = logging.getLogger(__name__)

MAX_BODY = 16 * 1024
MAX_MESSAGE = 2048
COOKIE = "cardlab_id"
COOKIE_AGE = 30 * 24 * 3600
IDLE_CLOSE = 30 * 60.0  # seconds: a table with no person seated and nothing happening
JANITOR_EVERY = 30.0


class TableNotFound(GameError):
    """No table has that id."""


class NotHost(GameError):
    """Only the table's host may do that."""


class TableManager:
    """Every live table by id, each stored as it plays (see :class:`Room`)."""

    def __init__(
        self,
        store: TableStore | None = None,
        *,
        max_tables: int = 500,
        idle_close: float = IDLE_CLOSE,
        bot_hands: int = BOT_HANDS,
        retention_days: float | None = None,
        limiter: RateLimiter | None = None,
        janitor_every: float = JANITOR_EVERY,
        keeper: TableKeeper | None = None,
    ) -> None:
        self.store: TableStore = store if store is not None else open_table_store(None)
        self.max_tables = max_tables
        self.idle_close = idle_close
        self.bot_hands = bot_hands
        self.retention_days = retention_days
        self.limiter = limiter
        self.janitor_every = janitor_every
        self.rooms: dict[str, Room] = {}
        self._janitor: asyncio.Task[None] | None = None
        # with --redis (cardlab.web.lease), only the tables whose lease this process holds
        self.keeper = keeper
        if keeper is None:
            for saved in self.store.tables():
                self._restore(saved)

    def _restore(self, saved: Any) -> Room | None:
        try:
            room = Room.restore(
                saved.table_id,
                saved.config,
                saved.state,
                self.store,
                bot_hands=self.bot_hands,
                on_close=self._closed,
            )
        except (CardlabError, KeyError, TypeError, ValueError):
            log.exception("table %r could not be restored", saved.table_id)
            return None
        self.rooms[saved.table_id] = room
        return room

    def create(self, data: dict[str, Any], host_sha256: str) -> Room:
        if len(self.rooms) >= self.max_tables:
            raise GameError(
                f"the server has {len(self.rooms)} live tables, its limit: try again later"
            )
        config = parse_config(data)
        table_id = secrets.token_urlsafe(16)  # 128 bits
        room = Room(
            table_id,
            config,
            self.store,
            host_sha256=host_sha256,
            bot_hands=self.bot_hands,
            on_close=self._closed,
        )
        if self.keeper is not None:
            self.keeper.take_new(table_id)
        with self.store.transaction():
            room.save()
            for seat, info in enumerate(room.seats):
                if info.kind == "bot":  # bots bring their chips too: the ledger balances
                    self.store.add_ledger(
                        table_id, seat, info.name, "buy-in", room.session.seats[seat].stack
                    )
        self.rooms[table_id] = room
        return room

    def get(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is None:
            raise TableNotFound(f"no table {table_id[:40]!r} (the link may be wrong or closed)")
        room.wake()
        return room

    def _closed(self, room: Room) -> None:
        self.rooms.pop(room.id, None)
        if self.keeper is not None:
            self.keeper.let_go(room.id)

    def keep(self) -> None:
        """With leases: stop the tables whose lease was lost, start those just taken."""
        keeper = self.keeper
        if keeper is None:
            return
        lost, taken = keeper.tick()
        for table_id in lost:
            room = self.rooms.pop(table_id, None)
            if room is not None:
                log.warning("lost the lease of table %r: another process runs it", table_id)
                room.close()
        for saved in taken:
            room = self._restore(saved)
            if room is not None:
                room.wake()
            else:
                keeper.let_go(saved.table_id)

    async def _keeper_loop(self) -> None:
        while True:
            try:
                self.keep()
            except Exception:  # Redis or the store away for a moment: try again
                log.exception("renewing or taking table leases failed")
            await asyncio.sleep(self.keeper.every if self.keeper is not None else 1.0)

    def wake_all(self) -> None:
        for room in self.rooms.values():
            room.wake()

    def close_all(self) -> None:
        for room in self.rooms.values():
            room.close()

    def sweep(self) -> list[str]:
        """Close the tables with no person seated that nothing happened at for
        ``idle_close`` seconds; the ids closed. (Seat requests past their time go too.)"""
        for room in list(self.rooms.values()):
            expire_requests(room)
        idle = [
            room
            for room in list(self.rooms.values())
            if not any(s.kind == "human" for s in room.seats)
            and not room.watched()
            and room.idle_for() >= self.idle_close
            and not room.live()
        ]
        for room in idle:
            room.close_table()
        return [room.id for room in idle]

    def prune(self) -> tuple[int, int]:
        """Apply the retention setting: hands and closed tables older than it go."""
        if self.retention_days is None:
            return 0, 0
        cutoff = datetime.datetime.now(datetime.UTC) - datetime.timedelta(days=self.retention_days)
        return self.store.prune(cutoff)

    async def _janitor_loop(self) -> None:
        while True:
            await asyncio.sleep(self.janitor_every)
            try:
                self.sweep()
                await asyncio.to_thread(self.prune)
            except Exception:  # the janitor must outlive a bad table
                log.exception("closing idle tables failed")

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Any) -> AsyncIterator[None]:
        """Start every table when the server starts; stop their tasks when it stops."""
        self.wake_all()
        with contextlib.suppress(CardlabError):
            self.prune()
        self._janitor = asyncio.get_running_loop().create_task(self._janitor_loop())
        keeping = None
        if self.keeper is not None:
            keeping = asyncio.get_running_loop().create_task(self._keeper_loop())
        try:
            yield
        finally:
            self._janitor.cancel()
            if keeping is not None:
                keeping.cancel()
            self.close_all()
            if self.keeper is not None:
                for table_id in list(self.keeper.held):
                    with contextlib.suppress(Exception):
                        self.keeper.let_go(table_id)


def options() -> dict[str, Any]:
    games = []
    for key in table_game_names():
        tg = TableGame.create(key)
        games.append(
            {
                "key": key,
                "deck": tg.game.deck.name,
                "name": tg.title,
                "base": tg.game.base.key,
                "max_seats": tg.max_seats,
                "stakes": tg.stakes.describe(),
            }
        )
    return {
        "games": games,
        "bots": bot_names(),
        "betting": ["no-limit", "pot-limit", "fixed-limit"],
        "defaults": {
            "game": "fesca78-holdem",
            "seats": 6,
            "stack": 200,
            "clock": DEFAULT_CLOCK,
            "bot_delay": DEFAULT_BOT_DELAY,
            "pause": DEFAULT_PAUSE,
            "public": False,
        },
    }


def _summary(room: Room) -> dict[str, Any]:
    return {
        "id": room.id,
        "name": room.config.name,
        "game": room.config.game,
        "game_name": room.game.game.name,
        "stakes": room.game.stakes.describe(),
        "seats": room.config.seats,
        "open_seats": room.open_seats,
        "bots": sum(1 for s in room.seats if s.kind == "bot"),
        "hands_played": room.session.hands_played,
        "status": room.status(),
        "public": room.config.public,
        "practice": room.config.practice,
        "url": f"/tables/{room.id}",
    }


async def _body(request: Request) -> dict[str, Any]:
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise RequestError(f"the request body is over {MAX_BODY} bytes")
        chunks.append(chunk)
    return _object(b"".join(chunks) or b"{}", "the request body")


def _object(raw: bytes | str, what: str) -> dict[str, Any]:
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
        raise RequestError(f"{what} must be a JSON object: {text[:60]!r}") from None
    if not isinstance(data, dict):
        raise RequestError(f"{what} must be a JSON object: {str(data)[:60]!r}")
    return data


def _error(exc: Exception) -> Response:
    if isinstance(exc, AskLater):  # too many seat requests, or asked again too soon
        seconds = max(1, math.ceil(exc.retry_after))
        return JSONResponse(
            {"error": str(exc)[:300], "retry_after": seconds},
            status_code=429,
            headers={"Retry-After": str(seconds)},
        )
    status = 404 if isinstance(exc, TableNotFound) else 403 if isinstance(exc, NotHost) else 400
    return JSONResponse({"error": str(exc)[:300]}, status_code=status)


def browser_hash(connection: HTTPConnection, table_id: str | None = None) -> str | None:
    """The SHA-256 of the caller's browser secret (or, for tables made before it, of
    the old per-table seat cookie)."""
    token = connection.cookies.get(COOKIE)
    if token and len(token) <= 200:
        return digest(token)
    if table_id is not None:
        legacy = connection.cookies.get(f"cardlab_seat_{table_id}")
        if legacy and len(legacy) <= 200:
            return digest(legacy)
    return None


def _set_browser_cookie(response: Response, token: str) -> None:
    response.set_cookie(
        COOKIE, token, max_age=COOKIE_AGE, httponly=True, samesite="strict", path="/"
    )


def _browser(request: Request) -> tuple[str, str | None]:
    """(the caller's browser hash, a new secret to set when the caller had none)."""
    known = browser_hash(request)
    if known is not None:
        return known, None
    token = secrets.token_urlsafe(32)
    return digest(token), token


def table_routes(manager: TableManager, templates: Jinja2Templates) -> list[BaseRoute]:
    """The pages, the JSON API and the WebSocket of the tables."""

    def seat_of(room: Room, connection: HTTPConnection) -> int | None:
        return room.seat_of_hash(browser_hash(connection, room.id))

    def limited(connection: HTTPConnection, bucket: str) -> Response | None:
        if manager.limiter is None:
            return None
        wait = manager.limiter.hit(client_key(connection), bucket)
        return None if wait is None else too_many(wait)

    async def lobby(request: Request) -> Response:
        return templates.TemplateResponse(
            request, "tables.html", {"title": "Poker tables", "page": "tables"}
        )

    async def table_page(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        room = manager.rooms.get(table_id)
        if room is None:
            return PlainTextResponse(f"no table {table_id[:40]!r}", status_code=404)
        response = templates.TemplateResponse(
            request,
            "table.html",
            {
                "title": f"{room.game.game.name} table",
                "page": "tables",
                "table_id": room.id,
                "practice": room.config.practice,
                "deck_orders_json": deck_orders_json(),
            },
        )
        if browser_hash(request) is None:
            _set_browser_cookie(response, secrets.token_urlsafe(32))
        return response

    async def api_list(request: Request) -> Response:
        public = [r for r in manager.rooms.values() if r.config.public]
        return JSONResponse({"tables": [_summary(r) for r in public]})

    async def api_options(request: Request) -> Response:
        return JSONResponse(options())

    async def api_create(request: Request) -> Response:
        refused = limited(request, "create")
        if refused is not None:
            return refused
        host, new_token = _browser(request)
        try:
            room = manager.create(await _body(request), host)
            room.wake()
        except CardlabError as exc:
            return _error(exc)
        response = JSONResponse(_summary(room) | {"host": True}, status_code=201)
        if new_token is not None:
            _set_browser_cookie(response, new_token)
        return response

    async def api_get(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
        except CardlabError as exc:
            return _error(exc)
        host = room.is_host(browser_hash(request))
        return JSONResponse(room.payload(seat_of(room, request), host=host))

    async def api_join(request: Request) -> Response:
        refused = limited(request, "join")
        if refused is not None:
            return refused
        new_token: str | None = None
        try:
            room = manager.get(request.path_params["table_id"])
            data = await _body(request)
            known = browser_hash(request, room.id)
            if known is None:
                new_token = secrets.token_urlsafe(32)
                known = digest(new_token)
            wanted = data.get("seat")
            if wanted is not None:
                if isinstance(wanted, bool) or not isinstance(wanted, int):
                    raise RequestError(f"field 'seat' must be a seat number: {wanted!r:.40}")
                wanted -= 1
            sends = data.get("client_seeds", False)
            if not isinstance(sends, bool):
                raise RequestError(f"field 'client_seeds' must be true or false: {sends!r:.40}")
            seat = room.join(data.get("name"), wanted, known, sends_seeds=sends)
        except CardlabError as exc:
            return _error(exc)
        if isinstance(seat, SeatRequest):  # the host approves or refuses (table_seating)
            body = {"pending": True, "request": seat.id, "name": seat.name}
            response = JSONResponse(body | {"status": "waiting for the host to approve"}, 202)
        else:
            response = JSONResponse({"seat": seat + 1, "name": room.seats[seat].name})
        if new_token is not None:
            _set_browser_cookie(response, new_token)
        return response

    async def api_leave(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
            await _body(request)
            seat = seat_of(room, request)
            if seat is None and withdraw(room, browser_hash(request, room.id)):
                return JSONResponse({"left": True, "withdrawn": True})
            room.leave(seat)
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse({"left": True})

    async def api_request(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse(request_status(room, browser_hash(request, room.id)))

    async def api_close(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
            data = await _body(request)
            if not room.is_host(browser_hash(request)):
                raise NotHost("only the table's host (its creator) can close it")
            now = data.get("now", False)
            if not isinstance(now, bool):
                raise RequestError(f"field 'now' must be true or false: {now!r:.40}")
            room.request_close(now=now)
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse({"closed": room.closed, "closing": room.closing})

    async def api_chips(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
            data = await _body(request)
            room.add_chips(seat_of(room, request), data.get("amount"))
        except CardlabError as exc:
            return _error(exc)
        seat = seat_of(room, request)
        return JSONResponse({"stack": None if seat is None else room.session.seats[seat].stack})

    async def api_ledger(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
        except CardlabError as exc:
            return _error(exc)
        ledger = room.ledger()
        if request.query_params.get("format") == "csv":
            header = ("player", "bought", "cashed", "on_table", "net")
            text = render.to_csv(header, [[r[k] for k in header] for r in ledger["players"]])
            return PlainTextResponse(
                text,
                media_type="text/csv",
                headers={"content-disposition": f'attachment; filename="ledger-{room.id}.csv"'},
            )
        return JSONResponse(ledger)

    async def api_host(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
            data = await _body(request)
            if not room.is_host(browser_hash(request)):
                raise NotHost("only the table's host can do that")
            host_operation(room, data)
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse({"status": room.status(), "paused": room.paused})

    async def api_hands(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        room = manager.rooms.get(table_id)
        if room is None:
            return _error(TableNotFound(f"no table {table_id[:40]!r}"))
        seat = seat_of(room, request)
        sitting = None if seat is None else room.seats[seat].sitting
        text = phhs(list(room.finished), seat, sitting)
        return PlainTextResponse(
            text,
            headers={"content-disposition": f'attachment; filename="table-{room.id}.phhs"'},
        )

    async def ws(websocket: WebSocket) -> None:
        table_id = websocket.path_params["table_id"]
        room = manager.rooms.get(table_id)
        if room is None:
            await websocket.close(code=4404)
            return
        room.wake()
        await websocket.accept()
        seat = seat_of(room, websocket)
        host = room.is_host(browser_hash(websocket))
        author = browser_hash(websocket, room.id)  # who chats (see table_chat)
        conn_id = room.connect(websocket, seat, host)
        room.chat.listen(conn_id, websocket, author)
        try:
            await websocket.send_text(json.dumps(room.payload(seat, host=host), ensure_ascii=False))
            greeting = room.chat.greeting(author)
            if greeting is not None:
                await websocket.send_text(json.dumps(greeting, ensure_ascii=False))
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if manager.limiter is not None:
                    # per connection: friends behind one home router share an address
                    key = f"{client_key(websocket)}#{conn_id}"
                    wait = manager.limiter.hit(key, "message")
                    if wait is not None:
                        reply: dict[str, Any] | None = {
                            "type": "error",
                            "message": f"too many messages: wait {wait:.1f} s",
                            "retry_after": round(wait, 2),
                        }
                        await websocket.send_text(json.dumps(reply))
                        continue
                seat = seat_of(room, websocket) if seat is not None else None
                reply = handle_message(
                    room, seat, message.get("text"), message.get("bytes"), author=author
                )
                if reply is not None:
                    await websocket.send_text(json.dumps(reply, ensure_ascii=False))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            room.chat.unlisten(conn_id)
            room.disconnect(conn_id)

    return [
        Route("/tables", lobby),
        Route("/tables/{table_id}", table_page),
        Route("/api/tables", api_list, methods=["GET"]),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/options", api_options),
        Route("/api/tables/{table_id}", api_get),
        Route("/api/tables/{table_id}/join", api_join, methods=["POST"]),
        Route("/api/tables/{table_id}/leave", api_leave, methods=["POST"]),
        Route("/api/tables/{table_id}/request", api_request),
        Route("/api/tables/{table_id}/close", api_close, methods=["POST"]),
        Route("/api/tables/{table_id}/chips", api_chips, methods=["POST"]),
        Route("/api/tables/{table_id}/host", api_host, methods=["POST"]),
        Route("/api/tables/{table_id}/ledger", api_ledger),
        Route("/api/tables/{table_id}/hands.phhs", api_hands),
        WebSocketRoute("/api/tables/{table_id}/ws", ws),
    ]


HOST_OPERATIONS = (
    "pause",
    "resume",
    "settings",
    "remove",
    "add_bot",
    "transfer",
    "mute",
    "unmute",
    "approve",
    "refuse",
)


def host_operation(room: Room, data: dict[str, Any]) -> None:
    """Do what the host asks: ``{"op": "pause"}``, ``"resume"``, ``{"op": "settings",
    "settings": {"blinds": [2, 4], ...}}`` (from the next hand), ``{"op": "remove",
    "seat": 3}``, ``{"op": "add_bot", "seat": 3, "bot": "equity"}``, ``{"op":
    "transfer", "seat": 2}``; ``{"op": "mute", "seat": 2}`` or ``"message": 17`` (the
    chat, see :func:`~cardlab.web.table_chat.host_chat_operation`) and ``"unmute"``;
    ``{"op": "approve", "request": "Xy3..."}`` and ``"refuse"`` (seat requests, see
    :mod:`cardlab.web.table_seating`)."""
    op = data.get("op")
    if op == "pause":
        room.pause(True)
    elif op == "resume":
        room.pause(False)
    elif op == "settings":
        settings = data.get("settings")
        if not isinstance(settings, dict):
            raise RequestError(f"'settings' must be an object: {settings!r:.60}")
        room.change_settings(settings)
    elif op == "remove":
        room.remove(data.get("seat"))
    elif op == "add_bot":
        room.add_bot(data.get("seat"), data.get("bot"))
    elif op == "transfer":
        room.transfer_host(data.get("seat"))
    elif op == "approve":
        approve(room, data.get("request"))
    elif op == "refuse":
        refuse(room, data.get("request"))
    elif op in ("mute", "unmute"):
        host_chat_operation(room, op, data)
    else:
        raise RequestError(f"unknown host operation {str(op)[:30]!r} (one of {HOST_OPERATIONS})")


def handle_message(
    room: Room,
    seat: int | None,
    text: str | None,
    data: bytes | None = None,
    *,
    author: str | None = None,
) -> dict[str, Any] | None:
    """Do what one WebSocket message asks; the reply for this client only (an error, a
    pong, a chat status), or None when the change reaches everyone through the
    broadcast. ``author``: the browser's key (its chat messages are its)."""
    try:
        if text is None:
            raise RequestError("messages are JSON text, not binary")
        if len(text) > MAX_MESSAGE:
            raise RequestError(f"a message is at most {MAX_MESSAGE} characters")
        message = _object(text, "a message")
        kind = message.get("type")
        if kind == "ping":
            return {"type": "pong"}
        if room.closed:
            raise RequestError("the table is closed")
        if kind == "start":
            room.start_now(seat)
            return None
        if kind == "client_seed":
            room.offer_seed(seat, message.get("deal"), message.get("seed"))
            return None
        if kind == "reveal":
            room.request_reveal(seat)
            return None
        if kind == "leave":
            room.leave(seat)
            return None
        if kind in ("sit_out", "sit_in"):
            room.sit_out(seat, kind == "sit_out")
            return None
        if kind == "show":  # the winner of a hand everyone else folded to shows after it
            room.show_hand(seat)
            return None
        if kind == "chat":
            return chat_message(room, seat, author, message)
        if kind == "action":
            action = message.get("action")
            if not isinstance(action, str):
                raise RequestError(f"an action message needs 'action' text: {action!r:.60}")
            turn = message.get("turn")
            if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
                raise RequestError(f"'turn' must be a whole number: {turn!r:.40}")
            room.act(seat, action, turn=turn)
            return None
        raise RequestError(
            f"unknown message type {str(kind)[:40]!r} "
            "(action, show, start, client_seed, reveal, leave, sit_out, sit_in, chat or ping)"
        )
    except CardlabError as exc:
        return {"type": "error", "message": str(exc)[:300]}
