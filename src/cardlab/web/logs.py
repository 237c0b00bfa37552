"""How ``cardlab web`` logs: its level, text or JSON lines, with or without an access log.

:func:`log_config` is the :func:`logging.config.dictConfig` given to uvicorn: uvicorn's own
messages, its access log (one line per request, when asked) and cardlab's (a lease taken
over or lost, a table that cannot be restored, Redis or the store away) all go to stderr
through one handler, as text or as one JSON object per line (:class:`JsonLines`).
"""

from __future__ import annotations

import datetime
import json
import logging
from typing import Any

LEVELS = ("debug", "info", "warning", "error")
FORMATS = ("text", "json")
TEXT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


class JsonLines(logging.Formatter):
    """A record as one JSON object: ``time`` (UTC, ISO 8601), ``level``, ``logger``,
    ``message``; an access-log record also has ``client``, ``method``, ``path``,
    ``http`` and ``status``; a logged exception its ``error`` text."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            client, method, path, http, status = args
            line |= {
                "client": client,
                "method": method,
                "path": path,
                "http": http,
                "status": status,
            }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def log_config(level: str, form: str) -> dict[str, Any]:
    """The logging set-up for ``--log-level level --log-format form``."""
    if level not in LEVELS:
        raise ValueError(f"log level must be one of {', '.join(LEVELS)}: {level!r}")
    if form not in FORMATS:
        raise ValueError(f"log format must be text or json: {form!r}")
    formatter: dict[str, Any] = (
        {"()": f"{__name__}.JsonLines"} if form == "json" else {"format": TEXT}
    )
    logger = {"handlers": ["stderr"], "level": level.upper(), "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": "main",
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {"uvicorn": logger, "uvicorn.access": logger, "cardlab": logger},
    }
