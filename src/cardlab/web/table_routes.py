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
                                              "transfer" | "approve" | "refuse" |
                                              "bomb_pot", ...}
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
                                              {"type": "straddle_on"} / "straddle_off",
                                              {"type": "show"} (the winner of a hand
                                              everyone folded to, before the next deal),
                                              {"type": "rabbit"} (anyone: the cards the
                                              last hand, won early, would have dealt),
                                              {"type": "hints", "on": bool, "against"?:
                                              a range or "random"} (a player's
                                              own hints: best hand, exact equity),
                                              {"type": "action", "action": "runs 2"}
                                              (all in: run the board twice; "runs": no
                                              preference),
                                              {"type": "chat", "text": t, "name"?: n}
                                              (see table_chat: its answer, and what only
                                              this browser may know, is a "chat_status"),
                                              {"type": "time_bank"} (the player to act:
                                              seconds from their bank), {"type": "react",
                                              "emoji": e}, {"type": "avatar", "avatar": a}
                                              (table_faces), {"type": "coach", "on": b}
                                              (table_coach: answered with a "coach")
    GET  /api/notes, POST /api/notes           the caller's player notes (web/notes.py)
    /tournaments, /api/mtts/...                multi-table tournaments (web/mtt_routes.py)

Who is who: a browser carries one secret, the HttpOnly cookie ``cardlab_id`` (set by a
table page, or by the first join or create that lacks it). A seat and a table's host
hold only its SHA-256, so joining twice from one browser gives the same seat, and
leaving makes the secret worthless at that table. Table ids carry 128 random bits; a
table is in the lobby only if its creator asks (``"public": true``).

Many processes (``cardlab web --redis``): the tables are the :class:`TableManager`'s
(:mod:`cardlab.web.table_manager`), each run by one process; a request or WebSocket
about a table another process runs is relayed to it (:mod:`cardlab.web.cluster`,
:mod:`cardlab.web.table_relay`), so every process serves every route below.

Limits: the edge (:mod:`cardlab.web.guard`) refuses cross-site requests and non-JSON
state changes and rate-limits every client; here, tables created, joins and WebSocket
messages have their own budgets (429 with the seconds to wait), the table limit counts
live tables only, tables with no person seated close after ``idle_close`` seconds
without activity, and a table of bots stops dealing after ``bot_hands`` hands nobody
watched. Every bad request is a 400 with ``{"error": ...}``; every bad WebSocket
message gets ``{"type": "error", "message": ...}`` and changes nothing.
"""

from __future__ import annotations

import json
import logging
import math
import re
import secrets
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket, WebSocketDisconnect

from cardlab import render
from cardlab.errors import CardlabError, GameError, StoreError
from cardlab.table import TableGame
from cardlab.table.structure import table_game_names
from cardlab.web.cluster import Cluster
from cardlab.web.guard import BROWSER_COOKIE, client_key, take, too_many
from cardlab.web.mtt import MttHall
from cardlab.web.mtt_routes import mtt_routes
from cardlab.web.notes import note_routes
from cardlab.web.payload import RequestError
from cardlab.web.table_arrivals import AskLater, SeatRequest
from cardlab.web.table_chat import chat_message, host_chat_operation
from cardlab.web.table_config import (
    DEFAULT_BOT_DELAY,
    DEFAULT_CLOCK,
    DEFAULT_PAUSE,
    bot_names,
)
from cardlab.web.table_errors import StoreAway
from cardlab.web.table_manager import IDLE_CLOSE as IDLE_CLOSE
from cardlab.web.table_manager import TableManager as TableManager
from cardlab.web.table_manager import TableNotFound
from cardlab.web.table_odds import seen_by
from cardlab.web.table_phh import phhs
from cardlab.web.table_relay import RemoteSockets, relay_socket
from cardlab.web.table_room import Room, digest
from cardlab.web.verify_page import deck_orders_json
from cardlab.web.viewer_hud import ViewerHands, viewer_hud_routes

log = logging.getLogger(__name__)

MAX_BODY = 16 * 1024
MAX_MESSAGE = 2048
COOKIE = BROWSER_COOKIE
COOKIE_AGE = 30 * 24 * 3600
_TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class NotHost(GameError):
    """Only the table's host may do that."""


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
    if isinstance(exc, StoreAway | StoreError):  # the store is away: try again later
        return JSONResponse({"error": str(exc)[:300]}, 503, headers={"Retry-After": "5"})
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
    # the action messages timed (cardlab.web.metrics)
    handle = handle_message if manager.metrics is None else manager.metrics.timed(handle_message)
    if manager.cluster is not None:  # this process's side of the sockets relayed to it
        manager.remote = RemoteSockets(manager.cluster, manager.rooms.get, handle)

    def seat_of(room: Room, connection: HTTPConnection) -> int | None:
        return room.seating.seat_of_hash(browser_hash(connection, room.id))

    async def limited(connection: HTTPConnection, bucket: str) -> Response | None:
        if manager.limiter is None:
            return None
        wait = await take(manager.limiter, connection, bucket)
        return None if wait is None else too_many(wait)

    async def lobby(request: Request) -> Response:
        return templates.TemplateResponse(
            request, "tables.html", {"title": "Poker tables", "page": "tables"}
        )

    async def table_page(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        try:
            room = manager.find(table_id, browser_hash(request, table_id), wake=False)
        except TableNotFound:
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
                "bots": bot_names(),  # the host's menu: every bot this server runs
            },
        )
        if browser_hash(request) is None:
            _set_browser_cookie(response, secrets.token_urlsafe(32))
        return response

    async def api_list(request: Request) -> Response:
        listed = {r.id: manager.summary(r) for r in manager.rooms.values()}
        if manager.cluster is not None:  # every process's tables (this one's up to date)
            try:
                listed = await manager.cluster.tables() | listed
            except Exception as exc:  # Redis away: this process's tables meanwhile
                log.warning("the shared lobby cannot be read: %s", exc)
        return JSONResponse({"tables": [t for t in listed.values() if t.get("public")]})

    async def api_options(request: Request) -> Response:
        return JSONResponse(options())

    async def api_create(request: Request) -> Response:
        refused = await limited(request, "create")
        if refused is not None:
            return refused
        host, new_token = _browser(request)
        try:
            room = await manager.open_table(await _body(request), host)
            room.wake()
        except CardlabError as exc:
            return _error(exc)
        response = JSONResponse(manager.summary(room) | {"host": True}, status_code=201)
        if new_token is not None:
            _set_browser_cookie(response, new_token)
        return response

    async def api_get(request: Request) -> Response:
        try:
            table_id = request.path_params["table_id"]
            room = manager.find(table_id, browser_hash(request, table_id))
        except CardlabError as exc:
            return _error(exc)
        host = room.seating.is_host(browser_hash(request))
        return JSONResponse(room.payload(seat_of(room, request), host=host))

    async def api_join(request: Request) -> Response:
        refused = await limited(request, "join")
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
            seat = room.seating.join(data.get("name"), wanted, known, sends_seeds=sends)
        except CardlabError as exc:
            return _error(exc)
        if isinstance(seat, SeatRequest):  # the host approves or refuses (table_arrivals)
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
            if seat is None and room.seating.withdraw(browser_hash(request, room.id)):
                return JSONResponse({"left": True, "withdrawn": True})
            room.seating.leave(seat)
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse({"left": True})

    async def api_request(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse(room.seating.request_status(browser_hash(request, room.id)))

    async def api_close(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
            data = await _body(request)
            if not room.seating.is_host(browser_hash(request)):
                raise NotHost("only the table's host (its creator) can close it")
            now = data.get("now", False)
            if not isinstance(now, bool):
                raise RequestError(f"field 'now' must be true or false: {now!r:.40}")
            room.ending.request(now=now)
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse({"closed": room.closed, "closing": room.ending.closing})

    async def api_chips(request: Request) -> Response:
        try:
            room = manager.get(request.path_params["table_id"])
            data = await _body(request)
            room.seating.add_chips(seat_of(room, request), data.get("amount"))
        except CardlabError as exc:
            return _error(exc)
        seat = seat_of(room, request)
        return JSONResponse({"stack": None if seat is None else room.session.seats[seat].stack})

    async def api_ledger(request: Request) -> Response:
        try:
            table_id = request.path_params["table_id"]
            room = manager.find(table_id, browser_hash(request, table_id))
        except CardlabError as exc:
            return _error(exc)
        ledger = room.seating.ledger()
        if request.query_params.get("format") == "csv":
            header = ("player", "bought", "cashed", "on_table", "net")
            rows = ledger["players"]
            if ledger["tournament"] is not None:  # a sit-and-go settles by its prizes
                header = ("player", "place", "buy_in", "prize", "net")
                rows = ledger["tournament"]["players"]
            text = render.to_csv(header, [[r[k] for k in header] for r in rows])
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
            if not room.seating.is_host(browser_hash(request)):
                raise NotHost("only the table's host can do that")
            host_operation(room, data)
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse({"status": room.status(), "paused": room.controls.paused})

    async def api_hands(request: Request) -> Response:
        table_id = request.path_params["table_id"]
        browser = browser_hash(request, table_id)
        try:
            room = manager.find(table_id, browser)
        except TableNotFound as exc:
            return _error(exc)
        seat = seat_of(room, request)
        sitting = None if seat is None else room.seats[seat].sitting
        mine = room.seating.sittings_of(browser)
        text = phhs(list(room.runner.finished), seat, sitting, mine=mine)
        return PlainTextResponse(
            text,
            headers={"content-disposition": f'attachment; filename="table-{room.id}.phhs"'},
        )

    async def message_limit(websocket: WebSocket, conn: str) -> dict[str, Any] | None:
        """The error for a message over its connection's budget (None: within it)."""
        if manager.limiter is None:
            return None
        # per connection: friends behind one home router share an address
        wait = await manager.limiter.take(f"{client_key(websocket)}#{conn}", "message")
        if wait is None:
            return None
        return {
            "type": "error",
            "message": f"too many messages: wait {wait:.1f} s",
            "retry_after": round(wait, 2),
        }

    async def ws(websocket: WebSocket) -> None:
        table_id = websocket.path_params["table_id"]
        room = manager.rooms.get(table_id)
        if room is None:
            try:  # a closed table, for those who sat at it: its last state, then the end
                kept = manager.find(table_id, browser_hash(websocket, table_id), wake=False)
            except TableNotFound:
                kept = None
            if kept is not None:
                await websocket.accept()
                host = kept.seating.is_host(browser_hash(websocket))
                text = json.dumps(kept.payload(None, host=host), ensure_ascii=False)
                await websocket.send_text(text)
                await websocket.close()
                return
        if room is None and manager.cluster is not None:
            await relayed_ws(websocket, manager.cluster, table_id)
            return
        if room is None:
            await websocket.close(code=4404)
            return
        room.wake()
        await websocket.accept()
        seat = seat_of(room, websocket)
        host = room.seating.is_host(browser_hash(websocket))
        author = browser_hash(websocket, room.id)  # who chats (see table_chat)
        conn_id = room.connect(websocket, seat, host)
        room.chat.listen(conn_id, websocket, author)
        room.extras.coach.listen(conn_id, websocket, author)
        try:
            await websocket.send_text(json.dumps(room.payload(seat, host=host), ensure_ascii=False))
            greeting = room.chat.greeting(author)
            if greeting is not None:
                await websocket.send_text(json.dumps(greeting, ensure_ascii=False))
            coach = room.extras.coach.status(author)
            if coach["on"]:  # off is what the page assumes
                await websocket.send_text(json.dumps(coach, ensure_ascii=False))
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                refused = await message_limit(websocket, str(conn_id))
                if refused is not None:
                    await websocket.send_text(json.dumps(refused))
                    continue
                seat = seat_of(room, websocket) if seat is not None else None
                reply = handle(room, seat, message.get("text"), message.get("bytes"), author=author)
                if reply is not None:
                    await websocket.send_text(json.dumps(reply, ensure_ascii=False))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            room.chat.unlisten(conn_id)
            room.extras.coach.unlisten(conn_id)
            room.disconnect(conn_id)

    async def relayed_ws(websocket: WebSocket, cluster: Cluster, table_id: str) -> None:
        """A socket of a table another process runs: relayed (cardlab.web.table_relay)."""
        if not _TABLE_ID.fullmatch(table_id):
            await websocket.close(code=4404)
            return
        try:
            owner = await cluster.owner(table_id)
            known = owner is not None or await cluster.known(table_id)
        except Exception as exc:  # Redis away: the page tries again
            log.warning("relaying a socket of table %r failed: %s", table_id, exc)
            await websocket.close(code=1013)
            return
        if not known:
            await websocket.close(code=4404)
            return
        if owner is None or owner == cluster.node:  # between owners: the page tries again
            await websocket.close(code=1013)
            return
        await relay_socket(
            websocket,
            cluster,
            table_id,
            owner,
            author=browser_hash(websocket, table_id),
            browser=browser_hash(websocket),
            runs_here=manager.runs,
            limit=lambda conn: message_limit(websocket, conn),
        )

    async def notes_limited(request: Request, bucket: str) -> Response | None:
        return await limited(request, bucket)

    hall = MttHall(manager)  # multi-table tournaments (web/mtt.py), on these tables
    mtts = mtt_routes(hall, templates, browser_hash, _body, limited, _set_browser_cookie)
    return [
        *mtts,
        *note_routes(lambda: manager.store, browser_hash, _body, notes_limited),
        *viewer_hud_routes(ViewerHands(lambda: manager.store), browser_hash, notes_limited),
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
    "bomb_pot",
)


def host_operation(room: Room, data: dict[str, Any]) -> None:
    """Do what the host asks: ``{"op": "pause"}``, ``"resume"``, ``{"op": "settings",
    "settings": {"blinds": [2, 4], ...}}`` (from the next hand), ``{"op": "remove",
    "seat": 3}``, ``{"op": "add_bot", "seat": 3, "bot": "equity"}``, ``{"op":
    "transfer", "seat": 2}``; ``{"op": "mute", "seat": 2}`` or ``"message": 17`` (the
    chat, see :func:`~cardlab.web.table_chat.host_chat_operation`) and ``"unmute"``;
    ``{"op": "approve", "request": "Xy3..."}`` and ``"refuse"`` (seat requests, see
    :mod:`cardlab.web.table_arrivals`)."""
    op = data.get("op")
    if op == "pause":
        room.controls.pause(True)
    elif op == "resume":
        room.controls.pause(False)
    elif op == "settings":
        settings = data.get("settings")
        if not isinstance(settings, dict):
            raise RequestError(f"'settings' must be an object: {settings!r:.60}")
        room.controls.change_settings(settings)
    elif op == "remove":
        room.seating.remove(data.get("seat"))
    elif op == "add_bot":
        room.seating.add_bot(data.get("seat"), data.get("bot"))
    elif op == "transfer":
        room.transfer_host(data.get("seat"))
    elif op == "approve":
        room.seating.approve(data.get("request"))
    elif op == "refuse":
        room.seating.refuse(data.get("request"))
    elif op in ("mute", "unmute"):
        host_chat_operation(room.chat, room.seats, op, data)
    elif op == "bomb_pot":  # the next hand is a bomb pot (docs/home-games.md)
        room.house.call_bomb_pot()
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
        if kind != "chat":  # chat goes on in memory while the store is away (table_chat)
            room.gate.check()
        if kind == "start":
            room.seating.start_now(seat)
            return None
        if kind == "client_seed":
            room.fair.offer(seat, message.get("deal"), message.get("seed"))
            return None
        if kind == "reveal":
            room.ending.request_reveal(seat)
            return None
        if kind == "leave":
            room.seating.leave(seat)
            return None
        if kind in ("sit_out", "sit_in"):
            room.seating.sit_out(seat, kind == "sit_out")
            return None
        if kind in ("straddle_on", "straddle_off"):  # straddle when the rule lets me
            room.house.want_straddle(seat, kind == "straddle_on")
            return None
        if kind == "show":  # the winner of a hand everyone else folded to shows after it
            room.runner.show_hand(seat, room.closed)
            return None
        if kind == "rabbit":  # anyone: the cards a hand won early would have dealt
            room.runner.rabbit_hunt()
            return None
        if kind == "hints":  # a player's own hints, off by default
            hand = room.session.hand
            position = None if hand is None or seat is None else room.session.position_of(seat)
            known = seen_by(hand, position)
            room.odds.set_hints(
                seat, message.get("on"), message.get("against"), game=room.game.game, known=known
            )
            return None
        if kind == "chat":
            return chat_message(room.chat, room.seats, seat, author, message)
        if kind == "time_bank":
            added = room.extras.use_time_bank(seat)
            return {"type": "time_bank", "added": added}
        if kind == "react":
            reaction = room.extras.faces.react(author, seat, message.get("emoji"))
            return {"type": "reacted", "id": reaction.id}
        if kind == "avatar":
            room.extras.faces.choose(seat, message.get("avatar"))
            return None
        if kind == "coach":
            return room.extras.coach.switch(author, message.get("on"))
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
            "(action, show, rabbit, hints, start, client_seed, reveal, leave, sit_out, sit_in, "
            "straddle_on, straddle_off, chat, time_bank, react, avatar, coach or ping)"
        )
    except CardlabError as exc:
        return {"type": "error", "message": str(exc)[:300]}
