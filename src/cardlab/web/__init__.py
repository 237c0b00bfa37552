"""The web page to play on: Open Seven, Mixwell hands and a showdown, in a browser.

``cardlab web`` serves :func:`create_app` with uvicorn. The pages call a small JSON API
(``/api/...``); every answer there comes from the library, and bad input is an HTTP 400
with ``{"error": "<the CardlabError message>"}``. Needs the ``web`` extra
(``pip install 'cardlab[web]'``).
"""

from cardlab.web.app import create_app

__all__ = ["create_app"]
