"""Running ``cardlab`` in this process as a shell would: the arguments, text piped to
stdin, stdout and stderr captured (through click's :class:`~click.testing.CliRunner`
isolation, so the streams are real UTF-8 text streams), and the exit code of
:func:`cardlab.cli.main`, which is what the ``cardlab`` script returns.

A long computation can be replaced by :func:`start` (``monkeypatch``): reaching it means
the input was accepted, and the run ends there with the code ``None``.
"""

from __future__ import annotations

import contextlib
import sys
import traceback
from contextlib import AbstractContextManager
from typing import NoReturn

from click.testing import CliRunner

from _support import deadline
from cardlab.cli import main

TIMEOUT = 60  # seconds a command may take before the case counts as hanging


class Hung(BaseException):
    """A command still running at its deadline. Not an ``OSError`` (as ``TimeoutError``
    is), so that no ``except OSError`` in the code under test can mistake it for a
    failed read and turn a hang into a message."""


def hang_guard(seconds: int) -> AbstractContextManager[None]:
    """Raise :class:`Hung` in this thread after ``seconds`` (a blocked ``open()`` of a
    FIFO is interrupted too)."""
    return deadline(seconds, Hung)


class Started(Exception):
    """Raised by a stand-in for a long computation: the input was accepted."""


def start(*args: object, **kwargs: object) -> NoReturn:
    """A stand-in for a long computation (see :class:`Started`)."""
    raise Started


def run_cli(
    args: list[str],
    stdin: str | None = "",
    *,
    timeout: int = TIMEOUT,
    full_disk: bool = False,
    env: dict[str, str] | None = None,
) -> tuple[int | None, str, str]:
    """(exit code, or ``None`` when a stand-in computation was reached; stdout; stderr).

    ``stdin`` None: standard input closed (``<&-``); ``full_disk``: stdout is
    ``/dev/full`` (every write fails with ENOSPC); ``env``: variables set for the run.
    An exception that escapes :func:`cardlab.cli.main` is what the script would print: a
    traceback on stderr and exit code 1. A run past ``timeout`` raises :class:`Hung`."""
    code: int | None = 0
    crash = ""
    runner = CliRunner()
    with (
        hang_guard(timeout),
        runner.isolation(input=stdin or "", env=env) as (out, err, _),
        contextlib.ExitStack() as stack,
    ):
        if stdin is None:
            sys.stdin = None  # type: ignore[assignment]  # as Python starts with fd 0 closed
        if full_disk:
            sys.stdout = stack.enter_context(open("/dev/full", "w", encoding="utf-8"))
        try:
            main(args)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        except Started:
            code = None
        except Exception:
            code, crash = 1, traceback.format_exc()
    return code, out.getvalue().decode("utf-8"), err.getvalue().decode("utf-8") + crash


def assert_answer_or_one_line(
    code: int | None, out: str, err: str, *, codes: tuple[int | None, ...] = (None, 0, 1, 2)
) -> None:
    """An answer (``codes``), never a traceback, and a refusal (exit 2) is one line on
    stderr in cardlab's words. 130 (interrupted) is never right for piped input."""
    assert code in codes, (code, out[-2000:], err[-2000:])
    assert "Traceback" not in out + err, (out[-2000:], err[-2000:])
    if code == 2:
        assert err.startswith("cardlab: error: ") and err.count("\n") == 1, err
        assert err.endswith("\n"), err
