"""``cardlab web``: serve the web page to play on (needs the ``web`` extra)."""

from __future__ import annotations

import importlib.util

import click

from cardlab.errors import CardlabError

_NEEDED = ("starlette", "uvicorn", "jinja2")


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True)
def web(host: str, port: int) -> None:
    """Serve Open Seven, Mixwell hands and a showdown at http://HOST:PORT/."""
    missing = [name for name in _NEEDED if importlib.util.find_spec(name) is None]
    if missing:
        raise CardlabError(f"the web page needs {', '.join(missing)}: pip install 'cardlab[web]'")
    import uvicorn

    from cardlab.web import create_app

    click.echo(f"cardlab web: http://{host}:{port}/  (Ctrl+C stops)", err=True)
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
