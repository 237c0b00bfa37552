"""The routes of multi-table tournaments (:mod:`cardlab.web.mtt`)::

    GET  /tournaments                   the tournaments, and a form to create one
    GET  /tournaments/{id}              a tournament's lobby: register, start, standings
    GET  /api/mtts                      every tournament of this server
    POST /api/mtts                      {"name"?, "game", "table_size", "stack",
                                        "levels"?, "level_hands" | "level_minutes",
                                        "tournament_buy_in"?, "payouts"?, "clock"?,
                                        "pause"?, "bot_delay"?} -> it (the caller hosts)
    GET  /api/mtts/{id}                 the lobby as the caller sees it
    POST /api/mtts/{id}/register        {"name"} (a person), or the host's {"bot", "name"?}
    POST /api/mtts/{id}/unregister      the caller's registration (the host: {"name"})
    POST /api/mtts/{id}/start           the host starts it: the draw, the tables

Who is who: the browser's ``cardlab_id`` cookie, as at the tables. Bad requests are a
400 with ``{"error"}``; only the host registers bots and starts (403).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.templating import Jinja2Templates

from cardlab.errors import CardlabError
from cardlab.web.mtt import MttHall, MttNotFound, NotMttHost
from cardlab.web.table_seats import digest

__all__ = ["mtt_routes"]


def _error(exc: Exception) -> Response:
    status = 404 if isinstance(exc, MttNotFound) else 403 if isinstance(exc, NotMttHost) else 400
    return JSONResponse({"error": str(exc)[:300]}, status_code=status)


def mtt_routes(
    hall: MttHall,
    templates: Jinja2Templates,
    browser: Callable[[HTTPConnection], str | None],
    body: Callable[[Request], Awaitable[dict[str, Any]]],
    limited: Callable[[HTTPConnection, str], Awaitable[Response | None]],
    set_cookie: Callable[[Response, str], None],
) -> list[BaseRoute]:
    """The pages and the JSON API; ``browser(request)``: the caller's browser hash,
    ``body``: the checked JSON object, ``limited(request, bucket)``: the 429 answer
    when over budget, ``set_cookie(response, token)``: give a browser its secret."""

    def caller(request: Request) -> tuple[str, str | None]:
        known = browser(request)
        if known is not None:
            return known, None
        token = secrets.token_urlsafe(32)
        return digest(token), token

    def answer(data: dict[str, Any], token: str | None, status: int = 200) -> Response:
        response = JSONResponse(data, status_code=status)
        if token is not None:
            set_cookie(response, token)
        return response

    async def page_list(request: Request) -> Response:
        return templates.TemplateResponse(
            request, "mtts.html", {"title": "Tournaments", "page": "tables", "mtt_id": ""}
        )

    async def page_lobby(request: Request) -> Response:
        mtt_id = request.path_params["mtt_id"]
        if mtt_id not in hall.runs:
            return JSONResponse({"error": f"no tournament {mtt_id[:40]!r}"}, status_code=404)
        response = templates.TemplateResponse(
            request, "mtts.html", {"title": "Tournament", "page": "tables", "mtt_id": mtt_id}
        )
        if browser(request) is None:
            set_cookie(response, secrets.token_urlsafe(32))
        return response

    async def api_list(request: Request) -> Response:
        return JSONResponse({"tournaments": [r.summary() for r in hall.runs.values()]})

    async def api_create(request: Request) -> Response:
        refused = await limited(request, "create")
        if refused is not None:
            return refused
        host, token = caller(request)
        try:
            run = hall.create(await body(request), host)
        except CardlabError as exc:
            return _error(exc)
        return answer(run.lobby(host), token, 201)

    async def api_get(request: Request) -> Response:
        try:
            run = hall.get(request.path_params["mtt_id"])
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse(run.lobby(browser(request)))

    async def api_register(request: Request) -> Response:
        refused = await limited(request, "join")
        if refused is not None:
            return refused
        who, token = caller(request)
        try:
            run = hall.get(request.path_params["mtt_id"])
            name = run.register(await body(request), who)
        except CardlabError as exc:
            return _error(exc)
        return answer(run.lobby(who) | {"registered_as": name}, token)

    async def api_unregister(request: Request) -> Response:
        try:
            run = hall.get(request.path_params["mtt_id"])
            run.unregister(await body(request), browser(request))
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse(run.lobby(browser(request)))

    async def api_start(request: Request) -> Response:
        try:
            run = hall.get(request.path_params["mtt_id"])
            await body(request)
            run.start(browser(request))
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse(run.lobby(browser(request)))

    return [
        Route("/tournaments", page_list),
        Route("/tournaments/{mtt_id}", page_lobby),
        Route("/api/mtts", api_list, methods=["GET"]),
        Route("/api/mtts", api_create, methods=["POST"]),
        Route("/api/mtts/{mtt_id}", api_get),
        Route("/api/mtts/{mtt_id}/register", api_register, methods=["POST"]),
        Route("/api/mtts/{mtt_id}/unregister", api_unregister, methods=["POST"]),
        Route("/api/mtts/{mtt_id}/start", api_start, methods=["POST"]),
    ]
