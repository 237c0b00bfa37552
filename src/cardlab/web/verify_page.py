"""The page ``/verify``: check the fair dealing of PHH hands in the browser.

The check itself runs in the browser (``static/verify.js``, the same steps as
:func:`cardlab.table.dealing.verify_deal`; docs/fair-dealing.md has the bytes), without asking
the server anything about the hands. The server only hands the page what the browser
cannot know by itself: each built-in deck's cards in the deck's listed order (the order
a shuffle starts from), as ASCII codes, in a ``<script type="application/json">`` tag.
"""

from __future__ import annotations

import json
from functools import lru_cache

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.templating import Jinja2Templates

from cardlab.decks import BUILTIN_DECKS, get_deck

# Characters that could end the <script> element or open an HTML comment or a CDATA
# section inside it; JSON spells them as \u escapes, which parse back to the same text.
_SCRIPT_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}
_SCRIPT_ESCAPES |= {0x2028: "\\u2028", 0x2029: "\\u2029"}


def deck_orders() -> dict[str, list[str]]:
    """Every built-in deck's cards as ASCII codes, in the deck's listed order."""
    return {name: [card.ascii for card in get_deck(name).cards] for name in BUILTIN_DECKS}


def script_json(value: object) -> str:
    """``value`` as JSON that is safe inside an HTML ``<script>`` element: no ``</``,
    ``<!--`` or ``]]>`` can appear in it, and ``json.loads`` reads back ``value``."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).translate(_SCRIPT_ESCAPES)


@lru_cache(maxsize=1)
def deck_orders_json() -> str:
    """:func:`deck_orders` as JSON for a ``<script type="application/json">`` tag."""
    return script_json(deck_orders())


def verify_routes(templates: Jinja2Templates) -> list[BaseRoute]:
    """``GET /verify``: paste or open a PHH file and check its deals in the browser."""

    async def verify_page(request: Request) -> Response:
        context = {
            "title": "Check the deal",
            "page": "verify",
            "deck_orders_json": deck_orders_json(),
        }
        return templates.TemplateResponse(request, "verify.html", context)

    return [Route("/verify", verify_page)]
