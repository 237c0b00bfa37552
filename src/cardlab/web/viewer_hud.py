"""The HUD from a viewer's own hand histories: a browser uploads a file of its hands
(PHH, or a site's text: PokerStars, GGPoker, PokerNow's log, ... read by
:func:`cardlab.table.sites.iter_entries`), the server reads and replays each hand and
keeps it for that browser alone (:mod:`cardlab.store.viewer_hands`), and the table's HUD
shows, beside the table's own figures, each player's figures from those hands.

Routes (mounted with the tables)::

    GET  /api/hud/mine          {"hands": n, "players": {name key: {"name", "hands",
                                "vpip", "pfr", "three_bet", "aggression",
                                "went_to_showdown", ...}}}: this browser's figures
    POST /api/hud/mine          {"text": the file's text, "name"?: its file name}:
                                {"added", "already", "skipped": [...], "skipped_count",
                                "hands"}
    POST /api/hud/mine/forget   forget this browser's hands: {"forgotten": n}

The figures are counted by :func:`cardlab.table.player_stats.summarize` and
:func:`~cardlab.table.player_stats.player_stats` (:func:`cardlab.web.table_hud.hud_row`
for the row), the very code of ``cardlab history stats`` on the same hands, by player
name; a player is found by name key (:func:`~cardlab.web.table_config.name_key`, as the
notes are). They read what each player did, never hidden cards. The owner is the
browser (the SHA-256 of its ``cardlab_id`` cookie, never the cookie). An upload is at
most :data:`MAX_UPLOAD` bytes (the replayer's limit); a file with no hand that can be
read, or not a hand history at all, is one 400 naming what is wrong; a file with some
bad hands keeps the good ones and lists the others (as ``cardlab history import``
does). The edge checks the origin (:mod:`cardlab.web.guard`) and each browser has its
own ``"hud_upload"`` budget.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cardlab.errors import CardlabError, HistoryError
from cardlab.table import phh, sites
from cardlab.table.player_stats import HandSummary, player_stats, summarize
from cardlab.web.payload import RequestError, shown
from cardlab.web.table_config import name_key
from cardlab.web.table_hud import NoEquities, hud_row

__all__ = ["MAX_UPLOAD", "ViewerHands", "figures_of", "read_upload", "viewer_hud_routes"]

MAX_UPLOAD = 1024 * 1024
"""Bytes of one uploaded file: the replayer's upload limit (``replay.MAX_PHH``, which
imports the tables' routes, so it is not imported here)."""
MAX_BODY = 2 * MAX_UPLOAD + 1024  # the JSON of a file of MAX_UPLOAD bytes, escaped
MAX_SKIPPED = 5  # bad hands named in an answer
_SUFFIXES = (".phh", ".phhs", ".txt", ".csv", ".xml", ".log")
_MESSAGE = 300


class ViewerHandStore(Protocol):
    def add_viewer_hands(self, writer: str, texts: Sequence[str]) -> tuple[int, int]: ...

    def viewer_hands(self, writer: str) -> list[str]: ...

    def viewer_hands_mark(self, writer: str) -> tuple[int, str]: ...

    def forget_viewer_hands(self, writer: str) -> int: ...


def _file_name(name: str | None) -> str:
    """The upload's file name as messages show it (and its suffix, which says PHH)."""
    base = (name or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = "".join(c for c in base if c.isprintable())[:80]
    return base or "the file"


def read_upload(raw: bytes, name: str | None = None) -> tuple[list[str], list[str]]:
    """The hands of an uploaded hand-history file, each as PHH text that replays, and
    the errors of the hands that could not be read or replayed. :class:`RequestError`
    when the file is over :data:`MAX_UPLOAD` bytes, is no hand history cardlab reads,
    or has no hand that replays."""
    called = _file_name(name)
    if not raw.strip():
        raise RequestError("the upload is empty: send a hand-history file's bytes")
    if len(raw) > MAX_UPLOAD:
        raise RequestError(f"{called} is {len(raw):,} bytes; the HUD reads at most {MAX_UPLOAD:,}")
    suffix = Path(called).suffix.lower()
    texts: list[str] = []
    skipped: list[str] = []
    with tempfile.TemporaryDirectory(prefix="cardlab-hud-") as folder:
        path = Path(folder) / ("upload" + (suffix if suffix in _SUFFIXES else ".txt"))
        path.write_bytes(raw)

        def named(message: str) -> str:
            return message.replace(str(path), called)

        try:
            for entry in sites.iter_entries(path):
                if entry.history is None:
                    skipped.append(named(entry.error or f"hand {entry.number}: unreadable"))
                    continue
                try:
                    text = phh.dumps(entry.history)
                    summarize(phh.loads(text), cache=NoEquities(), label=sites.label(entry))
                except (CardlabError, ValueError, TypeError, ArithmeticError) as exc:
                    skipped.append(named(f"{sites.label(entry)}: {exc}"))
                    continue
                texts.append(text)
        except HistoryError as exc:
            raise RequestError(named(str(exc))) from None
        except (ValueError, TypeError, RecursionError, ArithmeticError, UnicodeError) as exc:
            raise RequestError(f"{called} is no hand history cardlab reads: {exc}") from None
    if not texts:
        first = f": {skipped[0]}" if skipped else ""
        raise RequestError(f"{called} has no hand that cardlab can replay{first}")
    return texts, skipped


def figures_of(texts: Iterable[str]) -> dict[str, dict[str, Any]]:
    """Each player's HUD figures over the hands ``texts`` (PHH), by name key: the row
    of :func:`~cardlab.web.table_hud.hud_row` and the name. A hand that no longer
    replays is left out (as ``cardlab history stats`` skips it); of two names with one
    key, the one with more hands."""
    cache = NoEquities()
    summaries: list[HandSummary] = []
    for k, text in enumerate(texts, 1):
        try:
            summaries.append(summarize(phh.loads(text), cache=cache, label=f"hand {k}"))
        except (CardlabError, ValueError):
            continue
    out: dict[str, dict[str, Any]] = {}
    for stats in player_stats(summaries):
        key = name_key(stats.name)
        if key not in out or out[key]["hands"] < stats.hands:
            out[key] = {"name": stats.name} | hud_row(stats)
    return out


class ViewerHands:
    """The browsers' own figures: counted again when the store's mark of the browser's
    hands changes (so every process of a cluster sees an upload), kept for the most
    recent :data:`KEPT` browsers."""

    KEPT = 256

    def __init__(self, store: Callable[[], ViewerHandStore]) -> None:
        self.store = store
        self._figures: OrderedDict[str, tuple[tuple[int, str], dict[str, dict[str, Any]]]] = (
            OrderedDict()
        )
        self._lock = threading.Lock()

    def figures(self, writer: str) -> tuple[int, dict[str, dict[str, Any]]]:
        """(hands kept, figures by name key) of ``writer``."""
        mark = self.store().viewer_hands_mark(writer)
        with self._lock:
            known = self._figures.get(writer)
            if known is not None and known[0] == mark:
                self._figures.move_to_end(writer)
                return mark[0], known[1]
        if not mark[0]:
            return 0, {}
        figures = figures_of(self.store().viewer_hands(writer))
        with self._lock:
            self._figures[writer] = (mark, figures)
            while len(self._figures) > self.KEPT:
                self._figures.popitem(last=False)
        return mark[0], figures

    def add(self, writer: str, raw: bytes, name: str | None) -> dict[str, Any]:
        texts, skipped = read_upload(raw, name)
        added, already = self.store().add_viewer_hands(writer, texts)
        return {
            "added": added,
            "already": already,
            "skipped": [s[:_MESSAGE] for s in skipped[:MAX_SKIPPED]],
            "skipped_count": len(skipped),
            "hands": self.figures(writer)[0],
        }

    def forget(self, writer: str) -> int:
        return self.store().forget_viewer_hands(writer)


async def _upload(request: Request) -> tuple[bytes, str | None]:
    """The file's bytes and name from the JSON body ``{"text", "name"?}``."""
    too_big = f"the HUD reads a file of {MAX_UPLOAD:,} bytes at most"
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        raise RequestError(f"the request is {int(declared):,} bytes; {too_big}")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise RequestError(f"the request is over {MAX_BODY:,} bytes; {too_big}")
        chunks.append(chunk)
    want = 'the request body must be a JSON object {"text": the file\'s text, "name": its name}'
    try:
        data = json.loads(b"".join(chunks) or b"{}")
    except (ValueError, RecursionError):
        raise RequestError(want) from None
    if not isinstance(data, dict):
        raise RequestError(want)
    unknown = sorted(repr(str(k)[:30]) for k in data if k not in ("text", "name"))
    if unknown:
        raise RequestError(f"an upload has 'text' and 'name', not {', '.join(unknown)}")
    text, name = data.get("text"), data.get("name")
    if not isinstance(text, str):
        raise RequestError(f"field 'text' must be the hand-history file's text: {shown(text, 40)}")
    if name is not None and (not isinstance(name, str) or len(name) > 200):
        raise RequestError(f"field 'name' must be the file's name: {shown(name, 40)}")
    try:
        raw = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise RequestError(
            f"field 'text' is not valid Unicode (at character {exc.start})"
        ) from None
    return raw, name


def _error(exc: Exception, status: int = 400) -> Response:
    message = str(exc)
    if len(message) > _MESSAGE:
        message = message[: _MESSAGE - 3] + "..."
    return JSONResponse({"error": message}, status_code=status)


def viewer_hud_routes(
    hands: ViewerHands,
    writer: Callable[[Request], str | None],
    limited: Callable[[Request, str], Any],
) -> list[BaseRoute]:
    """The routes; ``writer(request)``: the caller's browser hash (None without the
    cookie), ``limited(request, bucket)``: the 429 answer when the caller is over that
    budget (else None)."""

    async def api_mine(request: Request) -> Response:
        who = writer(request)
        if who is None:
            return JSONResponse({"hands": 0, "players": {}})
        try:
            count, figures = await asyncio.to_thread(hands.figures, who)
        except CardlabError as exc:
            return _error(exc, 503)
        return JSONResponse({"hands": count, "players": figures})

    async def api_upload(request: Request) -> Response:
        refused = await limited(request, "hud_upload")
        if refused is not None:
            return refused  # type: ignore[no-any-return]
        try:
            who = writer(request)
            if who is None:
                raise RequestError("your hands are kept per browser: open a table's page first")
            raw, name = await _upload(request)
            answer = await asyncio.to_thread(hands.add, who, raw, name)
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse(answer)

    async def api_forget(request: Request) -> Response:
        refused = await limited(request, "hud_upload")
        if refused is not None:
            return refused  # type: ignore[no-any-return]
        who = writer(request)
        if who is None:
            return JSONResponse({"forgotten": 0})
        try:
            forgotten = await asyncio.to_thread(hands.forget, who)
        except CardlabError as exc:
            return _error(exc)
        return JSONResponse({"forgotten": forgotten})

    return [
        Route("/api/hud/mine", api_mine, methods=["GET"]),
        Route("/api/hud/mine", api_upload, methods=["POST"]),
        Route("/api/hud/mine/forget", api_forget, methods=["POST"]),
    ]
