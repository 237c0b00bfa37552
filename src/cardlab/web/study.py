"""The study page ``/study``: solve a postflop spot in a worker process, then browse it.

Routes::

    GET  /study                                   the page
    POST /api/study/solves                        a spot (JSON) -> {"id": ...} (a solve queued)
    GET  /api/study/solves/{id}                   its state and progress
    POST /api/study/solves/{id}/cancel            stop it (a stopped solve can still be browsed)
    GET  /api/study/solves/{id}/node?line=b50 c   a node of the finished solve

Why it is shaped so: a solve is seconds to minutes of CPU and up to
:data:`MAX_MEMORY` of arrays, so it never runs in the server's process. Solves run in
``max_running`` spawned worker processes fed by a queue of at most ``max_waiting``
(beyond: 503 with Retry-After); a client (by address, and by its browser cookie) has one
solve at a time, and starting one takes a token from the rate limiter's ``"create"``
bucket. Checking a spot (the library builds its showdown tables before it can estimate
the memory) and reading nodes run in one more worker process. A solve's progress and its
solution are files in a temporary folder (:mod:`cardlab.web.study_worker`); at most
``max_kept`` solves are kept, each for ``keep_seconds``, the least recently used
forgotten first, with their folder.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import multiprocessing
import secrets
import shutil
import tempfile
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.templating import Jinja2Templates

from cardlab import render
from cardlab.errors import CardlabError
from cardlab.web import study_worker as worker
from cardlab.web.guard import RateLimiter, client_key, too_many
from cardlab.web.payload import RequestError, shown
from cardlab.web.payload import field as payload_field
from cardlab.web.table_routes import COOKIE, COOKIE_AGE, browser_hash
from cardlab.web.table_seats import digest
from cardlab.web.verify_page import script_json

MAX_MEMORY = 256 * 2**20  # bytes a web solve may use (the CLI's default is the machine's)
MAX_ITERATIONS = 2000
MAX_TEXT = 2000  # characters of a board, range or size list
MAX_LINE = 400  # characters of a node's line
MAX_PENDING_READS = 8  # checks and node reads waiting for the reading process
STREETS = ("flop", "turn", "river")
SPOT_TEXT = ("game", "board", "oop", "ip")
FIELDS = frozenset({*SPOT_TEXT, "pot", "stack", "bets", "raises", "streets"})
FIELDS |= {"iterations", "target"}

EXAMPLES = {
    "standard": {
        "label": "Standard 52 cards, a turn spot",
        "game": "standard52-holdem",
        "board": "Td 9d 6h Qc",
        "oop": "AA,KK,QQ,AK,98s,87s,T9s",
        "ip": "JJ,TT,AQs,KQ,J8s,QTs",
        "pot": 100,
        "stack": 200,
        "bets": "50%",
        "raises": "a",
        "iterations": 300,
        "target": 0.5,
    },
    "fesca78": {
        "label": "FESCA78, a turn spot (Mixwell hands)",
        "game": "fesca78-holdem",
        "board": "M7 K7 G12 S9",
        "oop": "12-12, 10-10, 12-11s, 10-8s, 6-5s, 4-3s",
        "ip": "11-11, 9-9, 8-8, 12-10s, 11-10s, 9-8s, 6-5o",
        "pot": 100,
        "stack": 200,
        "bets": "50%",
        "raises": "a",
        "iterations": 300,
        "target": 0.5,
    },
}


@dataclass(frozen=True, slots=True)
class StudyLimits:
    """How much the study page may take of the server (see the module docstring)."""

    max_running: int = 2
    max_waiting: int = 4
    max_kept: int = 16
    keep_seconds: float = 1800.0
    max_memory: int = MAX_MEMORY
    max_iterations: int = MAX_ITERATIONS


@dataclass(slots=True)
class Job:
    """One solve: who asked, where its files are, and its future in the worker pool."""

    id: str
    folder: Path
    owners: tuple[str, str]  # (address key, browser hash)
    spot: dict[str, Any]
    iterations: int
    target: float | None
    memory_bytes: int = 0
    future: Future[dict[str, Any]] | None = None  # None while the spot is checked
    cancel_asked: bool = False
    touched: float = field(default_factory=time.monotonic)

    @property
    def active(self) -> bool:
        return self.future is None or not self.future.done()

    def state(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "iterations": self.iterations}
        out |= {"target": self.target, "memory_bytes": self.memory_bytes}
        future = self.future
        progress = worker.read_progress(str(self.folder))
        if future is None or (not future.done() and progress is None):
            out["state"] = "cancelling" if self.cancel_asked else "waiting"
        elif not future.done():
            out["state"] = "cancelling" if self.cancel_asked else "running"
            out["progress"] = progress
        elif future.cancelled():
            out["state"] = "cancelled"
        elif (error := future.exception()) is not None:
            out["state"] = "failed"
            out["error"] = _message(error)
        else:
            out["state"] = "cancelled" if self.cancel_asked else "done"
            out["result"] = future.result()
            out["browsable"] = True
        return out


class Studies:
    """The solves in progress and kept, the worker processes, and the limits."""

    def __init__(
        self,
        limits: StudyLimits | None = None,
        *,
        limiter: RateLimiter | None = None,
        solve_pool: Executor | None = None,
        read_pool: Executor | None = None,
    ) -> None:
        self.limits = limits or StudyLimits()
        self.limiter = limiter
        self.jobs: OrderedDict[str, Job] = OrderedDict()
        self._solve_pool = solve_pool
        self._read_pool = read_pool
        self._pending_reads = 0
        self._root: Path | None = None

    # --- the worker processes --------------------------------------------------------

    def solve_pool(self) -> Executor:
        if self._solve_pool is None:
            self._solve_pool = ProcessPoolExecutor(
                self.limits.max_running, mp_context=multiprocessing.get_context("spawn")
            )
        return self._solve_pool

    def read_pool(self) -> Executor:
        if self._read_pool is None:
            context = multiprocessing.get_context("spawn")
            self._read_pool = ProcessPoolExecutor(1, mp_context=context)
        return self._read_pool

    async def read(self, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` in the reading process, with a bound on the calls waiting."""
        if self._pending_reads >= MAX_PENDING_READS:
            raise Busy("the study page is busy reading solves: try again in a few seconds", 5)
        self._pending_reads += 1
        try:
            return await asyncio.wrap_future(self.read_pool().submit(fn, *args))
        except BrokenExecutor:  # the process died (out of memory?): a new one next time
            self._read_pool = None
            raise Busy("the study page's reading process stopped: try again", 5) from None
        finally:
            self._pending_reads -= 1

    def submit_solve(self, *args: Any) -> Future[dict[str, Any]]:
        """:func:`worker.run_solve` in the solve pool (a new pool if a worker died)."""
        try:
            return self.solve_pool().submit(worker.run_solve, *args)
        except BrokenExecutor:  # a worker died and took the pool down: start afresh
            self._solve_pool = None
            return self.solve_pool().submit(worker.run_solve, *args)

    def close(self) -> None:
        for job in self.jobs.values():
            if job.active:
                self._ask_cancel(job)
        for pool in (self._solve_pool, self._read_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._solve_pool = self._read_pool = None
        if self._root is not None:
            shutil.rmtree(self._root, ignore_errors=True)
            self._root = None

    # --- the jobs --------------------------------------------------------------------

    async def start(self, data: dict[str, Any], owners: tuple[str, str]) -> Job:
        """Check ``data`` (a spot and a run) and queue its solve."""
        spot, iterations, target = read_request(data, self.limits)
        self.sweep()
        for job in self.jobs.values():
            if job.active and (job.owners[0] == owners[0] or job.owners[1] == owners[1]):
                raise OneAtATime("you already have a solve running: wait for it or cancel it first")
        active = sum(job.active for job in self.jobs.values())
        if active >= self.limits.max_running + self.limits.max_waiting:
            raise Busy(f"the solve queue is full ({active} solves): try again in a minute", 60)
        if self.limiter is not None:
            wait = await self.limiter.take(owners[0], "create")
            if wait is not None:
                raise TooMany(wait)
        job = Job(secrets.token_urlsafe(18), self._folder(), owners, spot, iterations, target)
        self.jobs[job.id] = job  # counted from now on: a slot is held while it is checked
        try:
            job.folder.mkdir()
            refusal, memory = await self.read(worker.check_spot, spot, self.limits.max_memory)
            if refusal is not None:
                raise RequestError(refusal)
            job.memory_bytes = memory
            job.future = self.submit_solve(
                spot, iterations, target, self.limits.max_memory, str(job.folder)
            )
        except BaseException:
            self._forget(job)
            raise
        if job.cancel_asked:
            self.cancel(job.id)
        return job

    def get(self, job_id: str) -> Job:
        job = self.jobs.get(job_id)
        if job is None:
            raise UnknownSolve(f"no solve {shown(job_id, 40)} here (forgotten, or never made)")
        job.touched = time.monotonic()
        self.jobs.move_to_end(job_id)
        return job

    def cancel(self, job_id: str) -> Job:
        job = self.get(job_id)
        if not job.active:
            return job  # finished already: nothing to stop, and it stays "done"
        job.cancel_asked = True
        if job.future is not None and not job.future.cancel():
            self._ask_cancel(job)
        return job

    async def node(self, job_id: str, line: str) -> dict[str, Any]:
        job = self.get(job_id)
        if job.future is None or not job.future.done() or job.future.cancelled():
            raise RequestError("this solve has no solution to browse yet")
        if job.future.exception() is not None:
            raise RequestError(f"this solve failed: {_message(job.future.exception())}")
        if len(line) > MAX_LINE:
            raise RequestError(f"a line has at most {MAX_LINE} characters")
        result: dict[str, Any] = await self.read(worker.node_view, str(job.folder), line)
        return result

    def sweep(self) -> None:
        """Forget finished solves past ``keep_seconds``, then the least recently used past
        ``max_kept`` (a solve still running is never forgotten: the queue bounds those)."""
        now = time.monotonic()
        for job in list(self.jobs.values()):
            if not job.active and now - job.touched > self.limits.keep_seconds:
                self._forget(job)
        done = [job for job in self.jobs.values() if not job.active]
        for job in done[: max(0, len(done) - self.limits.max_kept)]:
            self._forget(job)

    def _forget(self, job: Job) -> None:
        self.jobs.pop(job.id, None)
        shutil.rmtree(job.folder, ignore_errors=True)

    def _folder(self) -> Path:
        if self._root is None:
            self._root = Path(tempfile.mkdtemp(prefix="cardlab-study-"))
            # removed at exit too when the server never ran its lifespan's end
            weakref.finalize(self, shutil.rmtree, self._root, True)
        return self._root / secrets.token_hex(8)

    @staticmethod
    def _ask_cancel(job: Job) -> None:
        with contextlib.suppress(OSError):
            (job.folder / worker.CANCEL).touch()


class Busy(CardlabError):
    """The queue (or the reading process) is full: 503 with Retry-After."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class OneAtATime(CardlabError):
    """The client already has a solve running: 429."""


class TooMany(CardlabError):
    """The client started too many solves lately: 429 with Retry-After."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"too many solves: try again in {math.ceil(wait)} s")
        self.wait = wait


class UnknownSolve(CardlabError):
    """No solve by that id: 404."""


def read_request(
    data: dict[str, Any], limits: StudyLimits
) -> tuple[dict[str, Any], int, float | None]:
    """(the spot's fields, iterations, target) from a request's JSON, every field checked
    for its type; what the values mean is checked by the library (:func:`check_spot`)."""
    unknown = set(data) - FIELDS
    if unknown:
        raise RequestError(f"unknown field {shown(sorted(unknown)[0])}: expected {_fields()}")
    spot: dict[str, Any] = {name: _text(data, name) for name in SPOT_TEXT}
    for name in ("pot", "stack"):
        value = payload_field(data, name, int)
        if not 1 <= value <= 10**9:
            raise RequestError(f"field {name!r} must be 1 to 1,000,000,000 chips: {shown(value)}")
        spot[name] = value
    spot["bets"] = _text(data, "bets", "50%")
    spot["raises"] = _text(data, "raises", "60%")
    streets = data.get("streets") or {}
    if not isinstance(streets, dict) or not all(
        isinstance(s, dict) and all(isinstance(v, str) and len(v) <= MAX_TEXT for v in s.values())
        for s in streets.values()
    ):
        raise RequestError(
            f"field 'streets' must be like {{'river': {{'bets': '75%'}}}}: {shown(streets)}"
        )
    spot["streets"] = streets
    iterations = payload_field(data, "iterations", int, 1000)
    if not 1 <= iterations <= limits.max_iterations:
        raise RequestError(
            f"this server runs 1 to {limits.max_iterations:,} iterations per solve, "
            f"got {shown(iterations)}"
        )
    target = data.get("target", 0.5)
    if target is not None and (
        isinstance(target, bool)
        or not isinstance(target, int | float)
        or not 0 < target <= 100
        or not math.isfinite(target)
    ):
        raise RequestError(f"field 'target' must be a % of the pot above 0: {shown(target)}")
    return spot, iterations, None if target is None else float(target)


def _text(data: dict[str, Any], name: str, default: str | None = None) -> str:
    value: str = payload_field(data, name, str, default)
    if len(value) > MAX_TEXT:
        raise RequestError(f"field {name!r} has more than {MAX_TEXT} characters")
    return value


def _fields() -> str:
    return ", ".join(sorted(FIELDS))


def _message(error: BaseException | None) -> str:
    return str(error)[:300] if isinstance(error, CardlabError) else "the solve failed"


def study_routes(
    studies: Studies,
    templates: Jinja2Templates,
    read_body: Callable[[Request], Awaitable[dict[str, Any]]],
) -> list[BaseRoute]:
    """The page and its JSON API (see the module docstring); ``read_body`` reads a
    request's JSON object within the app's size limit (the app's own reader)."""

    async def page(request: Request) -> Response:
        context = {
            "title": "Study a spot",
            "page": "study",
            "examples_json": script_json(EXAMPLES),
            "limits": studies.limits,
        }
        return templates.TemplateResponse(request, "study.html", context)

    async def create(request: Request) -> Response:
        data = await read_body(request)
        known = browser_hash(request)
        token = None if known is not None else secrets.token_urlsafe(32)
        owners = (client_key(request), known or digest(token or ""))
        try:
            job = await studies.start(data, owners)
        except REFUSALS as error:
            return refused(error)
        response = _json(job.state(), 202)
        if token is not None:
            response.set_cookie(
                COOKIE, token, max_age=COOKIE_AGE, httponly=True, samesite="strict", path="/"
            )
        return response

    async def status(request: Request) -> Response:
        return _or_refusal(lambda: _json(studies.get(request.path_params["job_id"]).state()))

    async def cancel(request: Request) -> Response:
        return _or_refusal(lambda: _json(studies.cancel(request.path_params["job_id"]).state()))

    async def node(request: Request) -> Response:
        line = request.query_params.get("line", "")
        try:
            return _json(await studies.node(request.path_params["job_id"], line))
        except REFUSALS as error:
            return refused(error)

    return [
        Route("/study", page),
        Route("/api/study/solves", create, methods=["POST"]),
        Route("/api/study/solves/{job_id}", status),
        Route("/api/study/solves/{job_id}/cancel", cancel, methods=["POST"]),
        Route("/api/study/solves/{job_id}/node", node),
    ]


REFUSALS = (Busy, OneAtATime, TooMany, UnknownSolve)


def refused(error: CardlabError) -> Response:
    """The HTTP answer of a refusal that is not a plain 400."""
    if isinstance(error, Busy):
        return JSONResponse(
            {"error": str(error), "retry_after": error.retry_after},
            status_code=503,
            headers={"Retry-After": str(error.retry_after)},
        )
    if isinstance(error, TooMany):
        return too_many(error.wait)
    status = 404 if isinstance(error, UnknownSolve) else 429
    return JSONResponse({"error": str(error)}, status_code=status)


def _or_refusal(answer: Callable[[], Response]) -> Response:
    try:
        return answer()
    except REFUSALS as error:
        return refused(error)


def _json(value: Any, status: int = 200) -> Response:
    return Response(render.to_json(value), status_code=status, media_type="application/json")
