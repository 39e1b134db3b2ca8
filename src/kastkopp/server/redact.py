"""Tokens never reach the logs: the server's log lines are cleaned of ``token=`` values.

Clients send their token in a cookie or an ``Authorization`` header, which no log line
shows; a client that still puts one in a URL (``?token=``) is refused, but the server's
access log writes the URL of every request before the app answers it. This filter on
uvicorn's loggers hides the value first.

>>> hide("GET /api/tables/x/ws?lang=sv&token=abc123 HTTP/1.1")
'GET /api/tables/x/ws?lang=sv&token=[hidden] HTTP/1.1'
"""

from __future__ import annotations

import logging
import re

TOKEN = re.compile(r"((?:access_|api_|session_)?token=)[^&\s\"']+", re.IGNORECASE)
LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn")


def hide(text: str) -> str:
    return TOKEN.sub(r"\1[hidden]", text)


class HideTokens(logging.Filter):
    """Rewrites a record's message and string arguments without their tokens."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = hide(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(hide(a) if isinstance(a, str) else a for a in record.args)
        return True


def hide_tokens_in_logs() -> None:
    """Install the filter on uvicorn's loggers (once, however often it is called)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, HideTokens) for f in logger.filters):
            logger.addFilter(HideTokens())
