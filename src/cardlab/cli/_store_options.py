"""The ``--db`` option of ``cardlab history`` and its subcommands, and the store it
names (shared by :mod:`cardlab.cli.history` and the subcommands in their own modules)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from cardlab.errors import CardlabError
from cardlab.store import Store

F = TypeVar("F", bound=Callable[..., Any])

DB_HELP = "The hand store file (default: $CARDLAB_DB or cardlab.sqlite3 in your data folder)."


def db_option(fn: F) -> F:
    """``--db FILE``: taken before the subcommand (``history --db F list``) and after it
    (``history list --db F``), as ``play`` and ``arena`` take it."""
    return click.option("--db", type=click.Path(dir_okay=False), default=None, help=DB_HELP)(fn)


def open_store(ctx: click.Context, db: str | None, *, read_only: bool) -> Store:
    """The store named by ``--db`` (given before or after the subcommand); the commands
    that only read open it read-only, so they never change the file."""
    before = ctx.obj.get("db") if ctx.obj else None
    if db is not None and before is not None and db != before:
        raise CardlabError(f"--db is given twice, {before!r} and {db!r}: give it once")
    return Store.open(db if db is not None else before, read_only=read_only)
