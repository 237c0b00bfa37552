"""Standard output and standard error that fail in one way the CLI's edge can catch.

A write to a full disk (``cardlab decks >/dev/full``), a closed pipe, or a failing
terminal raises :class:`OSError` from wherever the text was written: click, rich, a
``print``, or the interpreter flushing stdout as it exits. :func:`guarded` puts the
process's streams on a file that turns any such failure into :class:`OutputFailed`, so
that :func:`cardlab.cli.main` alone decides what it means; after a failure the stream
discards what is left, so nothing fails again on the way out.
"""

from __future__ import annotations

import errno
import io
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from cardlab.errors import CardlabError


class OutputFailed(BaseException):
    """A write to stdout or stderr failed. Not an :class:`OSError` (nor an
    :class:`Exception`): no ``except OSError`` meant for a file the command opened, nor
    click's or rich's own broken-pipe handling, nor a loop's ``except Exception``, may
    take it on the way to :func:`cardlab.cli.main`."""

    def __init__(self, stream: str, error: OSError) -> None:
        super().__init__(stream, error)
        self.stream = stream
        self.error = error

    @property
    def closed_pipe(self) -> bool:
        """The reader went away (``cardlab decks | head -1``)."""
        return self.error.errno in (errno.EPIPE, errno.ECONNRESET)

    def __str__(self) -> str:
        reason = self.error.strerror or str(self.error)
        return f"cannot write to {self.stream}: {reason}"


class _GuardedFile(io.FileIO):
    """Descriptor 1 or 2 (not closed with the stream): a failed write raises
    :class:`OutputFailed`, and every write after it is dropped."""

    def __init__(self, fd: int, stream: str) -> None:
        super().__init__(fd, "w", closefd=False)
        self.stream = stream
        self.failed = False

    def write(self, data: Any) -> int:
        if self.failed:
            return len(memoryview(data))
        try:
            written = super().write(data)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EINTR):
                raise  # not a failure: the buffer retries
            self.failed = True
            raise OutputFailed(self.stream, exc) from None
        return 0 if written is None else written


class ClosedInput(io.TextIOBase):
    """Standard input when the process has none: reading it is a :class:`CardlabError`
    (one line), where Python would raise ``RuntimeError: input(): lost sys.stdin`` or an
    ``AttributeError`` of ``None``. A command that reads nothing never notices."""

    def readable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        raise io.UnsupportedOperation("standard input is closed")

    def read(self, size: int | None = -1) -> str:
        raise CardlabError("cannot read standard input: it is closed (<&-)")

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        return self.read()


def _guard(stream: TextIO | None, name: str) -> TextIO | None:
    """A text stream like ``stream`` on a guarded file, or ``stream`` itself when it is
    not the process's own (a test's capture, a closed descriptor)."""
    if not isinstance(stream, io.TextIOWrapper):
        return stream
    try:
        fd = stream.fileno()
        os.fstat(fd)
        stream.flush()
    except (OSError, ValueError):
        return stream
    return io.TextIOWrapper(
        io.BufferedWriter(_GuardedFile(fd, name)),
        encoding=stream.encoding,
        errors=stream.errors,
        newline=None if os.name == "nt" else "\n",
        line_buffering=stream.line_buffering,
        write_through=stream.write_through,
    )


@contextmanager
def guarded() -> Iterator[None]:
    """stdout and stderr guarded while inside, the streams of before put back after.
    Flush (:func:`flush`) before leaving: a failure is then :class:`OutputFailed` inside,
    rather than a message from the interpreter as it exits."""
    saved = sys.stdin, sys.stdout, sys.stderr
    out = _guard(sys.stdout, "standard output")
    err = _guard(sys.stderr, "standard error")
    sys.stdout, sys.stderr = out, err
    if sys.stdin is None:  # started with descriptor 0 closed (`<&-`)
        sys.stdin = ClosedInput()
    try:
        yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


def flush() -> None:
    """Flush stdout and stderr (:class:`OutputFailed` if that fails)."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
