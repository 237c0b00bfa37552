"""Player notes over the web: what a browser writes about other players, kept in the
store (:mod:`cardlab.store.notes`) and shown to that browser alone.

Routes (mounted with the tables)::

    GET  /api/notes     the caller's notes: {"notes": [{"name", "key", "note", "colour",
                        "updated_at"}], "colours": [...]}
    POST /api/notes     {"name", "note"?, "colour"?}: the caller's note on the player
                        ``name`` (replaced; an empty note without a colour deletes it)

The writer is the browser (the SHA-256 of its ``cardlab_id`` cookie), so notes follow it
from table to table and no other browser can read them; the subject is the player's name
key (:func:`~cardlab.web.table_config.name_key`: "Ann" and "ａｎｎ" are one player).
Every field is checked (:func:`parse_note`: one 400 naming it), the edge checks the
origin (:mod:`cardlab.web.guard`) and each browser has its own ``"notes"`` budget of
writes (429 with the seconds to wait).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from cardlab.errors import CardlabError
from cardlab.web.payload import RequestError, shown
from cardlab.web.table_config import MAX_NAME, name_key

__all__ = ["COLOURS", "MAX_NOTE", "NoteStore", "note_routes", "parse_note"]

MAX_NOTE = 500  # characters of a note
COLOURS = ("", "red", "orange", "yellow", "green", "blue", "purple", "grey")
"""The colour tags ("" for none), named; the page draws them."""

_REMOVED = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})


class NoteStore(Protocol):
    def save_note(self, writer: str, subject: str, name: str, note: str, colour: str) -> None: ...

    def delete_note(self, writer: str, subject: str) -> bool: ...

    def notes(self, writer: str) -> list[Any]: ...


@dataclass(frozen=True, slots=True)
class NoteRequest:
    name: str
    key: str
    note: str
    colour: str

    @property
    def empty(self) -> bool:
        return not self.note and not self.colour


def parse_note(data: dict[str, Any]) -> NoteRequest:
    """A checked note from JSON: ``name`` the player (1 to 24 characters), ``note`` up to
    :data:`MAX_NOTE` characters (line breaks kept, other control and format characters
    refused), ``colour`` one of :data:`COLOURS`. :class:`RequestError` naming the field."""
    unknown = sorted(repr(str(k)[:30]) for k in data if k not in ("name", "note", "colour"))
    if unknown:
        raise RequestError(f"a note has 'name', 'note' and 'colour', not {', '.join(unknown)}")
    name = data.get("name")
    if not isinstance(name, str) or not " ".join(name.split()):
        raise RequestError(f"field 'name' must be the player's name: {shown(name, 40)}")
    name = " ".join(name.split())
    if len(name) > MAX_NAME or any(unicodedata.category(c) in _REMOVED for c in name):
        raise RequestError(f"field 'name' is not a player's name: {shown(name, 40)}")
    note = data.get("note", "")
    if note is None:
        note = ""
    if not isinstance(note, str):
        raise RequestError(f"field 'note' must be text: {shown(note, 40)}")
    note = note.replace("\r\n", "\n").strip()
    bad = [c for c in note if c != "\n" and unicodedata.category(c) in _REMOVED]
    if bad:
        raise RequestError(
            f"field 'note' may not hold control or format characters (U+{ord(bad[0]):04X})"
        )
    if len(note) > MAX_NOTE:
        raise RequestError(f"field 'note' has at most {MAX_NOTE} characters (this one {len(note)})")
    colour = data.get("colour", "")
    if colour is None:
        colour = ""
    if not isinstance(colour, str) or colour not in COLOURS:
        named = ", ".join(c for c in COLOURS if c)
        raise RequestError(f"field 'colour' is one of {named} or \"\": {shown(colour, 40)}")
    return NoteRequest(name, name_key(name), note, colour)


def note_routes(
    store: Callable[[], NoteStore],
    writer: Callable[[Request], str | None],
    body: Callable[[Request], Any],
    limited: Callable[[Request, str], Any],
) -> list[BaseRoute]:
    """The routes; ``writer(request)``: the caller's browser hash (None without the
    cookie), ``body(request)``: the checked JSON object, ``limited(request, bucket)``:
    the 429 answer when the caller is over that budget (else None)."""

    async def api_notes(request: Request) -> Response:
        who = writer(request)
        if who is None:
            return JSONResponse({"notes": [], "colours": list(COLOURS)})
        try:
            notes = store().notes(who)
        except CardlabError as exc:
            return JSONResponse({"error": str(exc)[:300]}, status_code=503)
        return JSONResponse(
            {
                "notes": [
                    {
                        "name": n.name,
                        "key": n.subject,
                        "note": n.note,
                        "colour": n.colour,
                        "updated_at": n.updated_at.isoformat(),
                    }
                    for n in notes
                ],
                "colours": list(COLOURS),
            }
        )

    async def api_save(request: Request) -> Response:
        refused = await limited(request, "notes")
        if refused is not None:
            return refused  # type: ignore[no-any-return]
        try:
            data = await body(request)
            note = parse_note(data)
            who = writer(request)
            if who is None:
                raise RequestError("notes are kept per browser: open a table's page first")
        except CardlabError as exc:
            return JSONResponse({"error": str(exc)[:300]}, status_code=400)
        try:
            if note.empty:
                store().delete_note(who, note.key)
            else:
                store().save_note(who, note.key, note.name, note.note, note.colour)
        except CardlabError as exc:
            return JSONResponse({"error": str(exc)[:300]}, status_code=400)
        out = {"name": note.name, "key": note.key, "note": note.note, "colour": note.colour}
        return JSONResponse(out | {"deleted": note.empty})

    return [
        Route("/api/notes", api_notes, methods=["GET"]),
        Route("/api/notes", api_save, methods=["POST"]),
    ]
