"""The web tables: Mixwell poker in the browser, against bots and with friends.

Routes (mounted by :func:`cardlab.web.app.create_app`)::

    GET  /tables                              the lobby: open tables, create one
    GET  /tables/{id}                         a table (join with a name, then play)
    GET  /api/tables                          the tables and their free seats
    POST /api/tables                          {"game", "seats", "stack", "bots", ...} -> id
    GET  /api/tables/options                  the games, bots and defaults for the form
    GET  /api/tables/{id}                     the table as the caller's seat sees it
    POST /api/tables/{id}/join                {"name", "seat"?} -> the seat (+ its cookie)
    GET  /api/tables/{id}/hands.phhs          the finished hands, as the caller may see them
    WS   /api/tables/{id}/ws                  live: state pushed on every change;
                                              send {"type": "action", "action": "r 20",
                                              "turn"?: n} or {"type": "start"}

The seat's secret token is an HttpOnly cookie (``cardlab_seat_<id>``) set when joining;
it is the only way to act for a seat, so reloading the page or reconnecting returns the
player to their seat. Every bad request is a 400 with ``{"error": ...}``; every bad
WebSocket message gets ``{"type": "error", "message": ...}`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardlab.errors import CardlabError, GameError
from cardlab.poker.games import game_names
from cardlab.table import TableGame
from cardlab.web.payload import RequestError
from cardlab.web.table_config import (
    DEFAULT_BOT_DELAY,
    DEFAULT_CLOCK,
    DEFAULT_PAUSE,
    bot_names,
    parse_config,
)
from cardlab.web.table_phh import phhs
from cardlab.web.table_room import Room
from cardlab.web.table_store import TableStore, open_table_store

log = logging.getLogger(__name__)

MAX_BODY = 16 * 1024
MAX_MESSAGE = 2048
COOKIE_AGE = 30 * 24 * 3600


class TableNotFound(GameError):
    """No table has that id."""


class TableManager:
    """Every live table by id, saved in ``store`` after every hand."""

    def __init__(self, store: TableStore | None = None, *, max_tables: int = 500) -> None:
        self.store: TableStore = store if store is not None else open_table_store(None)
        self.max_tables = max_tables
        self.rooms: dict[str, Room] = {}
        for saved in self.store.tables():
            try:
                self.rooms[saved.table_id] = Room.restore(
                    saved.table_id, saved.config, saved.state, on_hand=self._on_hand
                )
            except (CardlabError, KeyError, TypeError, ValueError):
                log.exception("table %r could not be restored", saved.table_id)

    def create(self, data: dict[str, Any]) -> Room:
        if len(self.rooms) >= self.max_tables:
            raise GameError(f"the server has {len(self.rooms)} tables, its limit")
        config = parse_config(data)
        table_id = secrets.token_urlsafe(9)
        room = Room(table_id, config, on_hand=self._on_hand)
        self.rooms[table_id] = room
        self.save(room)
        return room

    def get(self, table_id: str) -> Room:
        room = self.rooms.get(table_id)
        if room is None:
            raise TableNotFound(f"no table {table_id[:40]!r} (the link may be wrong)")
        room.wake()
        return room

    def save(self, room: Room) -> None:
        config, state = room.snapshot()
        self.store.save_table(room.id, config, state)

    async def _on_hand(self, room: Room, record: Any) -> None:
        config, state = room.snapshot()

        def write() -> None:
            self.store.add_hand(record)
            self.store.save_table(room.id, config, state)

        await asyncio.to_thread(write)

    def wake_all(self) -> None:
        for room in self.rooms.values():
            room.wake()

    def close_all(self) -> None:
        for room in self.rooms.values():
            room.close()

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Any) -> AsyncIterator[None]:
        """Start every table when the server starts; stop their tasks when it stops."""
        self.wake_all()
        try:
            yield
        finally:
            self.close_all()


def options() -> dict[str, Any]:
    games = []
    for key in game_names():
        tg = TableGame.create(key)
        games.append(
            {
                "key": key,
                "name": tg.game.name,
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
        },
    }


def cookie_name(table_id: str) -> str:
    return f"cardlab_seat_{table_id}"


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
    message = str(exc)
    return JSONResponse({"error": message[:300]}, status_code=400)


def table_routes(manager: TableManager, templates: Jinja2Templates) -> list[BaseRoute]:
    """The pages, the JSON API and the WebSocket of the tables."""

    def seat_of(room: Room, request: Request | WebSocket) -> int | None:
        return room.seat_of_token(request.cookies.get(cookie_name(room.id)))

    async def lobby(request: Request) -> Response:
        return templates.TemplateResponse(
            request, "tables.html", {"title": "Poker tables", "page": "tables"}
        )

    async def table_page(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        room = manager.rooms.get(table_id)
        if room is None:
            return PlainTextResponse(f"no table {table_id[:40]!r}", status_code=404)
        return templates.TemplateResponse(
            request,
            "table.html",
            {"title": f"{room.game.game.name} table", "page": "tables", "table_id": room.id},
        )

    async def api_list(request: Request) -> Response:
        return JSONResponse({"tables": [_summary(r) for r in manager.rooms.values()]})

    async def api_options(request: Request) -> Response:
        return JSONResponse(options())

    async def api_create(request: Request) -> Response:
        try:
            room = manager.create(await _body(request))
            room.wake()
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse(_summary(room), status_code=201)

    async def api_get(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse(room.payload(seat_of(room, request)))

    async def api_join(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
            data = await _body(request)
            seat = seat_of(room, request)
            if seat is None:
                wanted = data.get("seat")
                if wanted is not None:
                    if isinstance(wanted, bool) or not isinstance(wanted, int):
                        raise RequestError(f"field 'seat' must be a seat number: {wanted!r:.40}")
                    wanted -= 1
                seat, token = room.join(data.get("name"), wanted)
                await asyncio.to_thread(manager.save, room)
            else:
                token = None
        except CardlabError as exc:
            return _error(exc)
        response = JSONResponse({"seat": seat + 1, "name": room.seats[seat].name})
        if token is not None:
            response.set_cookie(
                cookie_name(room.id),
                token,
                max_age=COOKIE_AGE,
                httponly=True,
                samesite="strict",
                path="/",
            )
        return response

    async def api_hands(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
        except CardlabError as exc:
            return _error(exc)
        seat = seat_of(room, request)
        text = phhs(list(room.finished), seat)
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
        conn_id = room.connect(websocket, seat)
        try:
            await websocket.send_text(json.dumps(room.payload(seat), ensure_ascii=False))
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                reply = handle_message(room, seat, message.get("text"), message.get("bytes"))
                if reply is not None:
                    await websocket.send_text(json.dumps(reply, ensure_ascii=False))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            room.disconnect(conn_id)

    return [
        Route("/tables", lobby),
        Route("/tables/{table_id}", table_page),
        Route("/api/tables", api_list, methods=["GET"]),
        Route("/api/tables", api_create, methods=["POST"]),
        Route("/api/tables/options", api_options),
        Route("/api/tables/{table_id}", api_get),
        Route("/api/tables/{table_id}/join", api_join, methods=["POST"]),
        Route("/api/tables/{table_id}/hands.phhs", api_hands),
        WebSocketRoute("/api/tables/{table_id}/ws", ws),
    ]


def handle_message(
    room: Room, seat: int | None, text: str | None, data: bytes | None = None
) -> dict[str, Any] | None:
    """Do what one WebSocket message asks; the reply for this client only (an error, a
    pong), or None when the change reaches everyone through the broadcast."""
    try:
        if text is None:
            raise RequestError("messages are JSON text, not binary")
        if len(text) > MAX_MESSAGE:
            raise RequestError(f"a message is at most {MAX_MESSAGE} characters")
        message = _object(text, "a message")
        kind = message.get("type")
        if kind == "ping":
            return {"type": "pong"}
        if kind == "start":
            room.start_now(seat)
            return None
        if kind == "action":
            action = message.get("action")
            if not isinstance(action, str):
                raise RequestError(f"an action message needs 'action' text: {action!r:.60}")
            turn = message.get("turn")
            if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
                raise RequestError(f"'turn' must be a whole number: {turn!r:.40}")
            room.act(seat, action, turn=turn)
            return None
        raise RequestError(f"unknown message type {str(kind)[:40]!r} (action, start or ping)")
    except CardlabError as exc:
        return {"type": "error", "message": str(exc)[:300]}
