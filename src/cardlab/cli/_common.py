"""Options and output helpers shared by the command modules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from cardlab import render

F = TypeVar("F", bound=Callable[..., Any])


def format_option(*choices: str) -> Callable[[F], F]:
    """``--format`` with the given choices (``text`` first, the default)."""
    names = choices or ("text", "json")
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(names),
        default=names[0],
        show_default=True,
        help="Output format: readable text, or JSON/CSV for scripts.",
    )


def emit(text: str) -> None:
    """Write command output to stdout, ending with exactly one newline."""
    click.echo(text.rstrip("\n"))


def emit_json(value: Any) -> None:
    emit(render.to_json(value))
