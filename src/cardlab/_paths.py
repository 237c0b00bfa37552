"""File names checked against what the operating system takes, before anything is made.

A name the system refuses (a component over 255 bytes, a path over 4,095, a NUL byte)
fails deep inside ``mkdir``, SQLite or ``bind`` as an ``OSError``; checked here first it
is one sentence naming the option and the part that is too long.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from cardlab.errors import CardlabError

NAME_MAX = 255  # bytes of one component (Linux, macOS, Windows' NTFS in characters)
PATH_MAX = 4095  # bytes of a whole path, as open() takes it


def check_name(
    path: str | os.PathLike[str],
    what: str,
    error: Callable[[str], CardlabError] = CardlabError,
) -> None:
    """Refuse ``path`` (``what`` names it: "--db", "CARDLAB_DAEMON_DIR") if the system
    cannot take it as a name."""
    text = os.fspath(path)
    shown = text if len(text) <= 60 else text[:40] + "..." + text[-12:]
    if "\x00" in text:
        raise error(f"cannot use {what} {shown!r}: a file name holds no NUL character")
    raw = os.fsencode(text)
    longest = max(raw.split(b"/"), key=len)
    if len(longest) > NAME_MAX:
        part = os.fsdecode(longest)
        raise error(
            f"cannot use {what} {shown!r}: the name {part[:20] + '...'!r} is "
            f"{len(longest):,} bytes, and a file name has at most {NAME_MAX}"
        )
    if len(raw) > PATH_MAX:
        raise error(
            f"cannot use {what} {shown!r}: the path is {len(raw):,} bytes, and the system "
            f"takes at most {PATH_MAX}"
        )
