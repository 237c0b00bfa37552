"""``cardlab web``: serve the web page to play on (needs the ``web`` extra)."""

from __future__ import annotations

import importlib.util
import socket
from typing import Any

import click

from cardlab.cli._common import FiniteFloat
from cardlab.errors import CardlabError

_NEEDED = ("starlette", "uvicorn", "jinja2", "websockets", "prometheus_client")
DURABILITY = {"strict": "FULL", "fast": "NORMAL"}  # --durability: the store's synchronous
OUTAGE_EXIT = 3  # the exit status after an outage of the store past --outage-limit


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (must be free).",
)
@click.option(
    "--db",
    "db",
    default=None,
    help="The hand store keeping the poker tables and their hands: a SQLite file or a "
    "postgresql:// URL "
    "(default: $CARDLAB_DB or cardlab.sqlite3 in your data folder, as `cardlab history`).",
)
@click.option(
    "--memory",
    is_flag=True,
    help="Keep tables and hands in memory only (gone when the server stops).",
)
@click.option(
    "--allow-origin",
    "origins",
    multiple=True,
    metavar="ORIGIN",
    callback=lambda ctx, param, value: _origins(value),
    help="Another origin allowed to change state, e.g. https://poker.example behind a "
    "reverse proxy (repeatable; the server's own origin is always allowed).",
)
@click.option(
    "--trust-proxy",
    is_flag=True,
    help="Take each client's address from X-Forwarded-For as the reverse proxies in front "
    "report it (only behind a proxy; see --proxy-hops and --proxy-address). Without it no "
    "forwarding header is believed.",
)
@click.option(
    "--proxy-hops",
    type=click.IntRange(1, 10),
    default=None,
    help="With --trust-proxy: the proxies in a row in front of this server, each appending "
    "to X-Forwarded-For (default 1: the client is its last address).",
)
@click.option(
    "--proxy-address",
    "proxy_addresses",
    multiple=True,
    metavar="NETWORK",
    help="With --trust-proxy: believe forwarding headers only from a proxy at this address "
    "or network, e.g. 127.0.0.1 or 10.0.0.0/8 (repeatable; default: any).",
)
@click.option(
    "--max-tables",
    type=click.IntRange(1, 100_000),
    default=500,
    show_default=True,
    help="Live tables at most.",
)
@click.option(
    "--idle-close",
    type=FiniteFloat(10, 7 * 24 * 3600),
    default=1800,
    show_default=True,
    help="Seconds after which a table with no person seated and no activity closes.",
)
@click.option(
    "--bot-hands",
    type=click.IntRange(1, 10**6),
    default=200,
    show_default=True,
    help="Hands a table of bots deals while nobody watches, then it waits.",
)
@click.option(
    "--retention-days",
    type=FiniteFloat(0.01, 36500),
    default=None,
    help="Delete hands and closed tables older than this many days (default: keep all).",
)
@click.option(
    "--redis",
    "redis_url",
    default=None,
    metavar="URL",
    help="Share the tables with other `cardlab web` processes on the same PostgreSQL "
    "--db: each table is run by the one process holding its lease in this Redis "
    "(redis://host:port/0) and taken over within seconds when that process dies; every "
    "process serves every table (relaying to its owner), and the lobby and rate limits "
    "are shared.",
)
@click.option(
    "--durability",
    type=click.Choice(sorted(DURABILITY)),
    default="strict",
    show_default=True,
    help="strict: every action is on the store's disk before anyone sees it (it survives "
    "a machine crash); fast: it is in the store's memory (it survives a killed cardlab "
    "process, a machine crash may lose the last second). PostgreSQL synchronous_commit "
    "on/off, SQLite synchronous FULL/NORMAL.",
)
@click.option(
    "--outage-limit",
    type=FiniteFloat(1, 7 * 24 * 3600),
    default=60,
    show_default=True,
    help="Seconds the PostgreSQL store may be unreachable before this process is unhealthy "
    "(/healthz 503; the tables pause and /readyz is 503 from the outage's start).",
)
@click.option(
    "--outage-exit",
    is_flag=True,
    help="Stop with exit status 3 once an outage of the store passes --outage-limit, so "
    "that a supervisor (systemd's Restart=on-failure) starts the process again.",
)
@click.option(
    "--log-level",
    type=click.Choice(["debug", "info", "warning", "error"]),
    default="warning",
    show_default=True,
    help="The least important messages logged (to stderr).",
)
@click.option(
    "--log-format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="Log lines as text or as one JSON object each.",
)
@click.option("--access-log", is_flag=True, help="Log one line per request.")
@click.option(
    "--metrics-token",
    default=None,
    envvar="CARDLAB_METRICS_TOKEN",
    metavar="TOKEN",
    help="Serve /metrics to anyone sending 'Authorization: Bearer TOKEN' "
    "(default: only to loopback clients not behind a proxy; or set $CARDLAB_METRICS_TOKEN).",
)
@click.option(
    "--max-sockets",
    type=click.IntRange(1, 10**6),
    default=None,
    help="WebSockets this process holds open at most; past it a page is told to try "
    "again (it reconnects, perhaps to another process), counted in /metrics and logged "
    "(default: no limit).",
)
@click.option(
    "--drain-timeout",
    type=FiniteFloat(0, 3600),
    default=60,
    show_default=True,
    help="With --redis: seconds a drain (SIGTERM, or POST /drain) waits for each table's "
    "hand to end before handing the table over mid-hand; the process then stops. Give "
    "systemd's TimeoutStopSec more than this.",
)
def web(
    host: str,
    port: int,
    db: str | None,
    memory: bool,
    origins: tuple[str, ...],
    trust_proxy: bool,
    proxy_hops: int | None,
    proxy_addresses: tuple[str, ...],
    max_tables: int,
    idle_close: float,
    bot_hands: int,
    retention_days: float | None,
    redis_url: str | None,
    durability: str,
    outage_limit: float,
    outage_exit: bool,
    log_level: str,
    log_format: str,
    access_log: bool,
    metrics_token: str | None,
    max_sockets: int | None,
    drain_timeout: float,
) -> None:
    """Serve Open Seven, Mixwell hands, a showdown, the rules and poker tables at
    http://HOST:PORT/."""
    missing = [name for name in _NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        raise CardlabError(f"the web page needs {', '.join(missing)}: pip install 'cardlab[web]'")
    proxies = _proxies(trust_proxy, proxy_hops, proxy_addresses)
    _check_free(host, port)
    import uvicorn

    from cardlab.store import Store
    from cardlab.web import create_app
    from cardlab.web.logs import log_config
    from cardlab.web.metrics import process_name

    if memory and db is not None:
        raise CardlabError("--memory and --db exclude each other")
    if metrics_token is not None and len(metrics_token) < 16:
        raise CardlabError("--metrics-token must be at least 16 characters")
    store = Store.in_memory() if memory else open_store(db, durability)
    keeper = cluster = None
    limiter: Any = "default"
    process = process_name()
    if redis_url is not None:
        keeper, cluster, limiter = _shared(redis_url, store, process)
    app = create_app(
        process=process,
        metrics_token=metrics_token,
        table_store=store,
        allowed_origins=origins,
        trust_forwarded=proxies,
        limiter=limiter,
        cluster=cluster,
        max_sockets=max_sockets,
        tables={
            "max_tables": max_tables,
            "idle_close": idle_close,
            "bot_hands": bot_hands,
            "retention_days": retention_days,
            "keeper": keeper,
            "drain_timeout": drain_timeout,
            "outage_limit": outage_limit,
        },
    )
    from cardlab import _prepare

    _prepare.in_thread(_warm_bots)  # while the server starts: tables deal meanwhile
    click.echo(f"cardlab web: http://{host}:{port}/  (Ctrl+C stops)", err=True)
    # the server, not uvicorn.run: run() swallows the KeyboardInterrupt the server raises
    # again after its graceful stop on Ctrl-C, and main's exit 130 would become 0
    # proxy_headers off: uvicorn would otherwise believe X-Forwarded-For from 127.0.0.1
    # (or $FORWARDED_ALLOW_IPS) whatever --trust-proxy says; the guard reads it, once
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=log_config(log_level, log_format),
        log_level=log_level,
        access_log=access_log,
        proxy_headers=False,
    )
    server = _server(config, app.state.tables)
    watch = app.state.tables.watch  # None: a store that cannot go away (SQLite, memory)
    if outage_exit and watch is not None:
        watch.stop = lambda: setattr(server, "should_exit", True)
    server.run()
    if watch is not None and watch.expired and outage_exit:
        click.echo(
            f"cardlab web: the store was unreachable for over {outage_limit:g} s "
            "(--outage-limit): stopped with status 3 to be started again",
            err=True,
        )
        raise SystemExit(OUTAGE_EXIT)


def _server(config: Any, manager: Any) -> Any:
    """The uvicorn server of ``cardlab web``: Ctrl+C (SIGINT) stops it at once, as
    uvicorn does; SIGTERM, with ``--redis``, drains it first (its tables handed over at
    their hands' ends, :mod:`cardlab.web.balance`), and so does ``POST /drain``; then it
    stops with exit status 0. A second SIGTERM stops it at once."""
    import signal

    import uvicorn

    class Server(uvicorn.Server):
        drain_asked = False

        def handle_exit(self, sig: int, frame: Any) -> None:
            balancer = manager.balancer
            if sig != signal.SIGTERM:
                super().handle_exit(sig, frame)
            elif balancer is not None and not self.drain_asked:
                self.drain_asked = True  # started on the loop, at the next tick
            else:
                self.should_exit = True  # not re-raised after the stop: exit status 0

        async def on_tick(self, counter: int) -> bool:
            balancer = manager.balancer
            if balancer is not None:
                if self.drain_asked:
                    balancer.request_drain()
                if balancer.drained is not None and balancer.drained.is_set():
                    return True
            return bool(await super().on_tick(counter))

    return Server(config)


def _proxies(trust: bool, hops: int | None, addresses: tuple[str, ...]) -> Any:
    """The proxies whose forwarding headers are believed (False: none)."""
    if not trust:
        if hops is not None or addresses:
            raise CardlabError("--proxy-hops and --proxy-address need --trust-proxy")
        return False
    from cardlab.web.guard import Proxies

    return Proxies(1 if hops is None else hops, addresses)


def open_store(db: str | None, durability: str) -> Any:
    """The store of ``cardlab web --db DB --durability D`` (see the option's help):
    strict commits wait for the disk (PostgreSQL ``synchronous_commit = on``, SQLite
    ``synchronous = FULL``), fast ones do not (``off``; WAL with ``NORMAL``)."""
    from cardlab.store import Store

    if durability not in DURABILITY:
        raise CardlabError(f"--durability must be strict or fast: {durability!r}")
    return Store.open(db, synchronous="FULL" if durability == "strict" else "NORMAL")


def _shared(url: str, store: Any, process: str) -> tuple[Any, Any, Any]:
    """What a process sharing its tables through the Redis at ``url`` needs: its lease
    keeper, its link to the other processes, and rate limits they share."""
    import redis.asyncio

    from cardlab.web.cluster import Cluster
    from cardlab.web.guard import DEFAULT_LIMITS, SharedRateLimiter

    keeper = _keeper(url, store, process)
    client = redis.asyncio.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5)
    cluster = Cluster(client, keeper.leases.owner)
    return keeper, cluster, SharedRateLimiter(client, DEFAULT_LIMITS)


def _keeper(url: str, store: Any, process: str) -> Any:
    """The lease keeper of a process sharing its tables through the Redis at ``url``."""
    from cardlab.web.lease import TableKeeper, TableLeases, connect

    if store.location is None:
        raise CardlabError(
            "--redis needs a store the processes share (--db postgresql://...), not --memory"
        )
    client = connect(url)
    try:
        client.ping()
    except Exception as exc:  # redis.ConnectionError and kin; redis may not be imported
        raise CardlabError(f"cannot reach the Redis at {url!r}: {exc}") from None
    # the lease owner is the process's id: the lobby's, the logs' and the metrics'
    return TableKeeper(TableLeases(client, owner=process), store)


def _origins(texts: tuple[str, ...]) -> tuple[str, ...]:
    """``--allow-origin``: each checked as the web server's own field checks it
    (scheme://host[:port]), before anything starts."""
    try:
        from cardlab.web.guard import allowed_origin
    except ImportError:  # no web extra: the command says what is missing
        return texts
    return tuple(allowed_origin(text) for text in texts)


def _check_free(host: str, port: int) -> None:
    """Refuse a port in use (or an address not of this machine) before uvicorn starts."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise CardlabError(f"cannot listen on {host!r}: unknown address ({exc})") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            probe.bind(address)
        except OSError as exc:
            raise CardlabError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


WARM_QUIET = 2.0  # seconds a warm-up may take before it says what it is doing


def _warm_bots() -> None:
    """Compile the bots' equity kernels if numba's disk cache lacks them (rather than
    stall the first table's first bot decision): in a thread beside the server, one
    process of the machine at a time (:func:`cardlab._prepare.machine_lock`: of several
    processes started at once, one compiles and the others then load), the bots of this
    process waiting for it (:func:`cardlab._prepare.wait_in_process`). Only a warm-up that takes
    more than :data:`WARM_QUIET` seconds says so, with how long the last compile took
    here if that was measured (never a guess); and only a warm-up that really compiled
    (numba missed its cache) is kept as the time a compile takes. A cache that only
    looked cold (a kernel the warm-up never calls has an empty index) costs a second,
    says nothing and records nothing."""
    from cardlab.poker.equity import RANDOM, kernels_compiled, sample_equity
    from cardlab.poker.games import get_game
    from cardlab.poker.plan import compiled_here, sampling_kernels

    if kernels_compiled(False):
        return
    import threading
    import time

    from cardlab import _prepare
    from cardlab._compile_times import compile_seconds, record_compile_seconds

    measured = compile_seconds("web bots")
    about = f", about {measured:.0f} s on this machine last time" if measured else ""
    said = threading.Event()

    def say() -> None:
        said.set()
        click.echo(
            f"cardlab web: preparing the bots' equity kernels (first run after install{about})...",
            err=True,
        )

    notice = threading.Timer(WARM_QUIET, say)
    notice.daemon = True
    kernels = sampling_kernels()
    before = compiled_here(kernels)
    root = _prepare.cache_dir()
    start = time.monotonic()
    notice.start()
    try:
        with _prepare.machine_lock(root):
            for name in ("fesca78-holdem", "standard52-holdem"):  # both sizes of hash index
                sample_equity(get_game(name), [RANDOM, RANDOM], samples=1000, rng=0)
    finally:
        notice.cancel()
    took = time.monotonic() - start
    compiled = compiled_here(kernels) > before
    _prepare.note(root, compiled, "bots", took)
    if compiled:
        record_compile_seconds("web bots", took)
    if said.is_set():
        click.echo(f"cardlab web: the kernels are ready ({took:.0f} s)", err=True)
