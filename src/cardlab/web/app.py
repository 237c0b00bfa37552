"""The Starlette application: four pages and the JSON API behind them.

Routes::

    GET  /                          the home page
    GET  /openseven                 Open Seven
    GET  /hands                     Mixwell hands
    GET  /showdown                  play a showdown
    GET  /rules                     the rules of Mixwell poker, per deck

    GET  /api/openseven/odds?cards=N          exact odds per start and model
    POST /api/openseven/games                 {"cards": N, "seed"?: S} -> a new game
    GET  /api/openseven/games/{id}            the player's view (+ hints)
    POST /api/openseven/games/{id}/moves      {"move": "3" | "left" | "right"}
    GET  /api/decks                           the built-in decks and their cards
    POST /api/hands/evaluate                  {"deck": D, "cards": "木7 火7 ..."}
    POST /api/hands/compare                   {"deck": D, "hands": ["...", "..."]}
    GET  /api/hands/table?deck=D              the deck's five-card hand table
    GET  /api/games                           the games the showdown page deals
    POST /api/showdown/deals                  {"game": G, "opponents": k, "seed"?: S}
    GET  /api/showdown/deals/{id}             the deal as you see it
    POST /api/showdown/deals/{id}/next        reveal the next street (or the showdown)
    POST /api/showdown/deals/{id}/samples     sample this street's equity again, pooled
    GET  /api/rules?deck=D                    the rules page's hands, examples and steps
    GET  /healthz, /readyz, /metrics          the operator's (cardlab.web.metrics)

The hand replayer's routes are in :mod:`cardlab.web.replay`, the study page's (a postflop
solve in a worker process, then its tree) in :mod:`cardlab.web.study`.

A :class:`~cardlab.errors.CardlabError` becomes HTTP 400 ``{"error": message}``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, Literal

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

from cardlab import render
from cardlab.decks import BUILTIN_DECKS
from cardlab.errors import CardlabError
from cardlab.openseven import State
from cardlab.web import hands, openseven, rules, showdown
from cardlab.web.cluster import Cluster, ClusterForward
from cardlab.web.guard import DEFAULT_LIMITS, Guard, Proxies, RateLimiter
from cardlab.web.live_games import LiveGames
from cardlab.web.metrics import (
    MeteredStore,
    Metrics,
    SocketGauge,
    count_refusals,
    health_routes,
    process_name,
)
from cardlab.web.payload import RequestError, field, whole_number
from cardlab.web.payload import shown as payload_shown
from cardlab.web.replay import replay_routes
from cardlab.web.study import Studies, StudyLimits, study_routes
from cardlab.web.table_routes import TableManager, table_routes
from cardlab.web.table_store import TableStore, open_table_store

HERE = Path(__file__).resolve().parent
Handler = Callable[[Request], Awaitable[Response]]


def create_app(
    *,
    max_games: int = 1000,
    equity_samples: int = showdown.DEFAULT_SAMPLES,
    table_store: TableStore | None = None,
    allowed_origins: Sequence[str] = (),
    limiter: RateLimiter | Literal["default"] | None = "default",
    trust_forwarded: bool | Proxies = False,
    tables: dict[str, Any] | None = None,
    cluster: Cluster | None = None,
    study: StudyLimits | None = None,
    process: str | None = None,
    metrics_token: str | None = None,
    max_sockets: int | None = None,
) -> Starlette:
    """The web app. ``max_games``: games (and deals) kept in memory before the oldest
    are forgotten; ``equity_samples``: Monte Carlo showdowns per street; ``table_store``:
    where the poker tables are saved (None: in memory); ``allowed_origins``: origins
    besides the server's own allowed to change state (a reverse proxy's public address);
    ``limiter``: the rate limits per client (None: none; "default":
    :data:`~cardlab.web.guard.DEFAULT_LIMITS`); ``trust_forwarded``: take the client's
    address from ``X-Forwarded-For`` as the :class:`~cardlab.web.guard.Proxies` in front
    report it (True: one proxy at any address; only behind proxies); ``tables``: the
    :class:`~cardlab.web.table_routes.TableManager`'s settings (``max_tables``,
    ``idle_close``, ``bot_hands``, ``retention_days``, ``janitor_every``, ``keeper``,
    ``drain_timeout``);
    ``cluster``: the link to the other processes serving the same tables (``cardlab web
    --redis``, :mod:`cardlab.web.cluster`): requests about a table another process runs
    are relayed to it; ``study``: the study page's limits (solves running and waiting,
    kept, memory, iterations); ``process``: this process's id in the lobby, the logs and
    the metrics (default: host, pid and random digits); ``metrics_token``: the bearer token
    ``/metrics`` asks for (None: served to loopback clients only; see
    :mod:`cardlab.web.metrics`); ``max_sockets``: the WebSockets this process
    holds open at most (None: no limit; see :class:`~cardlab.web.metrics.SocketGauge`)."""
    if limiter == "default":
        limiter = RateLimiter(DEFAULT_LIMITS)
    metrics = Metrics(process if process is not None else process_name())
    if limiter is not None:
        count_refusals(limiter, metrics)
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    games: LiveGames[State] = LiveGames("game", max_games)
    deals: LiveGames[showdown.Deal] = LiveGames("deal", max_games)

    def page(name: str, title: str, **context: Any) -> Handler:
        async def endpoint(request: Request) -> Response:
            return templates.TemplateResponse(
                request, name, {"title": title, "page": name.removesuffix(".html")} | context
            )

        return endpoint

    async def os_odds(request: Request) -> Response:
        cards = _int_param(request, "cards", 7)
        return _json(await run_in_threadpool(openseven.odds_table, cards))

    async def os_new(request: Request) -> Response:
        data = await _body(request)
        cards = field(data, "cards", int)
        seed = data.get("seed")
        if seed is not None:
            seed = field(data, "seed", int)
        return _json(openseven.new_game(games, cards, seed))

    async def os_get(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        return _json(openseven.state_payload(game_id, games.get(game_id)))

    async def os_move(request: Request) -> Response:
        data = await _body(request)
        text = field(data, "move", str)
        return _json(openseven.move(games, request.path_params["game_id"], text))

    async def decks(request: Request) -> Response:
        return _json({"decks": hands.decks()})

    async def evaluate(request: Request) -> Response:
        data = await _body(request)
        return _json(hands.evaluate_hand(field(data, "deck", str), field(data, "cards", str)))

    async def compare(request: Request) -> Response:
        data = await _body(request)
        given = field(data, "hands", list)
        if not all(isinstance(h, str) for h in given):
            raise RequestError(f"field 'hands' must be a list of strings: {payload_shown(given)}")
        return _json(hands.compare_hands(field(data, "deck", str), given))

    async def table(request: Request) -> Response:
        deck = request.query_params.get("deck", "FESCA78")
        return _json(await run_in_threadpool(hands.hand_table, deck))

    async def game_list(request: Request) -> Response:
        return _json({"games": showdown.board_games()})

    async def deal_new(request: Request) -> Response:
        data = await _body(request)
        name = field(data, "game", str)
        opponents = field(data, "opponents", int, 1)
        seed = field(data, "seed", int) if data.get("seed") is not None else None
        result = await run_in_threadpool(
            showdown.new_deal, deals, name, opponents, seed, equity_samples
        )
        return _json(result)

    async def deal_get(request: Request) -> Response:
        deal_id = request.path_params["deal_id"]
        return _json(await run_in_threadpool(showdown.view, deals, deal_id, equity_samples))

    async def deal_next(request: Request) -> Response:
        deal_id = request.path_params["deal_id"]
        return _json(await run_in_threadpool(showdown.advance, deals, deal_id, equity_samples))

    async def deal_more(request: Request) -> Response:
        deal_id = request.path_params["deal_id"]
        return _json(await run_in_threadpool(showdown.refine, deals, deal_id, equity_samples))

    async def favicon(request: Request) -> Response:
        return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml")

    async def rules_data(request: Request) -> Response:
        deck = request.query_params.get("deck", "FESCA78")
        return _json(await run_in_threadpool(rules.rules_page, deck))

    routes = [
        Route("/", page("index.html", "cardlab")),
        Route(
            "/openseven",
            page("openseven.html", "Open Seven", max_cards=openseven.MAX_CARDS),
        ),
        Route("/hands", page("hands.html", "Mixwell hands", decks=BUILTIN_DECKS)),
        Route("/showdown", page("showdown.html", "Play a showdown")),
        Route("/rules", page("rules.html", "Mixwell poker rules", decks=BUILTIN_DECKS)),
        Route("/api/openseven/odds", os_odds),
        Route("/api/openseven/games", os_new, methods=["POST"]),
        Route("/api/openseven/games/{game_id}", os_get),
        Route("/api/openseven/games/{game_id}/moves", os_move, methods=["POST"]),
        Route("/api/decks", decks),
        Route("/api/hands/evaluate", evaluate, methods=["POST"]),
        Route("/api/hands/compare", compare, methods=["POST"]),
        Route("/api/hands/table", table),
        Route("/api/games", game_list),
        Route("/api/showdown/deals", deal_new, methods=["POST"]),
        Route("/api/showdown/deals/{deal_id}", deal_get),
        Route("/api/showdown/deals/{deal_id}/next", deal_next, methods=["POST"]),
        Route("/api/showdown/deals/{deal_id}/samples", deal_more, methods=["POST"]),
        Route("/api/rules", rules_data),
        Route("/favicon.ico", favicon),
        Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
    ]
    from cardlab.web.verify_page import verify_routes

    routes += verify_routes(templates)
    manager = TableManager(
        MeteredStore(table_store if table_store is not None else open_table_store(None), metrics),
        limiter=limiter,
        cluster=cluster,
        process=metrics.process,
        metrics=metrics,
        **(tables or {}),
    )
    metrics.watch(manager)
    routes += health_routes(manager, metrics, token=metrics_token)
    routes += table_routes(manager, templates)
    routes += replay_routes(manager, templates)
    studies = Studies(study, limiter=limiter)
    routes += study_routes(studies, templates, _body)
    handlers = {CardlabError: _user_error, HTTPException: _http_error}
    guard = Middleware(
        Guard,
        allowed_origins=allowed_origins,
        limiter=limiter,
        trust_forwarded=trust_forwarded,
    )
    middleware = [Middleware(SocketGauge, metrics=metrics, limit=max_sockets), guard]
    if cluster is not None:  # after the guard: a relayed request was checked here
        middleware.append(Middleware(ClusterForward, cluster=cluster))
    app = Starlette(
        routes=routes,
        exception_handlers=handlers,  # type: ignore[arg-type]
        lifespan=_lifespan(manager, studies),
        middleware=middleware,
    )
    app.state.tables = manager
    app.state.metrics = metrics
    app.state.study = studies
    return app


def _lifespan(manager: TableManager, studies: Studies) -> Callable[[Any], Any]:
    """The tables' lifespan; the study page's worker processes stopped after it."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        try:
            async with manager.lifespan(app):
                yield
        finally:
            studies.close()

    return lifespan


MAX_BODY = 64 * 1024  # bytes: the largest request body read (a compare of 10 hands is < 1 KiB)
MAX_MESSAGE = 300  # characters of an error message sent back


class BodyTooLarge(RequestError):
    """A request body over :data:`MAX_BODY` bytes (HTTP 413)."""


async def _user_error(request: Request, exc: Exception) -> Response:
    message = str(exc)
    if len(message) > MAX_MESSAGE:
        message = message[: MAX_MESSAGE - 3] + "..."
    status = 413 if isinstance(exc, BodyTooLarge) else 400
    return JSONResponse({"error": message}, status_code=status)


async def _http_error(request: Request, exc: HTTPException) -> Response:
    """404 and 405 under ``/api/`` answer JSON like every other error there."""
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": f"{exc.detail}: {request.url.path[:80]!r}"}, exc.status_code)
    return PlainTextResponse(exc.detail, exc.status_code, headers=exc.headers)


def _json(value: Any) -> Response:
    return Response(render.to_json(value), media_type="application/json")


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object; at most :data:`MAX_BODY` bytes are read."""
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        raise BodyTooLarge(f"the request body is {declared} bytes; at most {MAX_BODY} are read")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise BodyTooLarge(f"the request body is over {MAX_BODY} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError) as exc:  # bad JSON, bad UTF-8, huge ints, deep nesting
        reason = "nested too deeply" if isinstance(exc, RecursionError) else "not valid JSON"
        start = raw[:60].decode("utf-8", "replace")
        message = f"the request body must be a JSON object ({reason}): {start!r}"
        raise RequestError(message) from None
    if not isinstance(data, dict):
        raise RequestError(f"the request body must be a JSON object: {payload_shown(data)}")
    return data


def _int_param(request: Request, name: str, default: int) -> int:
    text = request.query_params.get(name)
    return default if text is None else whole_number(text, f"parameter {name!r}")
