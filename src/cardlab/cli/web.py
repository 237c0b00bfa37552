"""``cardlab web``: serve the web page to play on (needs the ``web`` extra)."""

from __future__ import annotations

import importlib.util
import socket

import click

from cardlab.errors import CardlabError

_NEEDED = ("starlette", "uvicorn", "jinja2", "websockets")


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
    help="The hand store (SQLite) keeping the poker tables and their hands "
    "(default: $CARDLAB_DB or cardlab.sqlite3 in your data folder, as `cardlab history`).",
)
@click.option(
    "--memory",
    is_flag=True,
    help="Keep tables and hands in memory only (gone when the server stops).",
)
def web(host: str, port: int, db: str | None, memory: bool) -> None:
    """Serve Open Seven, Mixwell hands, a showdown, the rules and poker tables at
    http://HOST:PORT/."""
    missing = [name for name in _NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        raise CardlabError(f"the web page needs {', '.join(missing)}: pip install 'cardlab[web]'")
    _check_free(host, port)
    import uvicorn

    from cardlab.store import Store
    from cardlab.web import create_app

    if memory and db is not None:
        raise CardlabError("--memory and --db exclude each other")
    store = Store.in_memory() if memory else Store.open(db)
    _warm_bots()
    click.echo(f"cardlab web: http://{host}:{port}/  (Ctrl+C stops)", err=True)
    uvicorn.run(create_app(table_store=store), host=host, port=port, log_level="warning")


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


def _warm_bots() -> None:
    """On the first run after an install, compile the bots' equity kernels before serving
    (with a line saying so), rather than stall the first table's first bot decision."""
    from cardlab.poker.equity import COMPILE_SECONDS, RANDOM, kernels_compiled, sample_equity
    from cardlab.poker.games import get_game

    if kernels_compiled(False):
        return
    click.echo(
        f"cardlab web: preparing the bots' equity kernels (first run after install, "
        f"about {COMPILE_SECONDS} s)...",
        err=True,
    )
    for name in ("fesca78-holdem", "standard52-holdem"):  # both sizes of hash index
        sample_equity(get_game(name), [RANDOM, RANDOM], samples=1000, rng=0)
