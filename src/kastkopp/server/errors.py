"""Refusals as HTTP answers: the error's code picks the status, in one table.

Every refusal is a :class:`kastkopp.engine.KastkoppError` whose class names a ``code``
(``illegal``, ``not_your_turn``, ``stale``, ``not_found``...); the answer is
``{"detail": "<one line in the request's language>", "code", "template", "params"}``.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from starlette.requests import HTTPConnection

from kastkopp.engine import KastkoppError, Message
from kastkopp.locale.messages import translate
from kastkopp.server import pages

# The HTTP status of each refusal's code; any other code is a 400.
STATUS = {
    "not_authenticated": 401,
    "not_found": 404,
    "stale": 409,
    "rate_limited": 429,
    "busy": 503,
}


def status_of(exc: KastkoppError) -> int:
    return STATUS.get(exc.code, 400)


async def kastkopp_error(request: Request, exc: Exception) -> Response:
    """A refusal in the language the request asks for (a page: its cookie or the
    browser's), else English; always the template and parameters, for programs that
    translate. A page asked for that is not there (``/play/unknown``) is a page too."""
    assert isinstance(exc, KastkoppError)
    retry_after = getattr(exc, "retry_after", None)
    headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
    detail = translate(exc, pages.language(request))
    if exc.code == "not_found" and is_page(request):
        return pages.page(request, "missing.html", detail=detail, status_code=404)
    return JSONResponse({"detail": detail, "code": exc.code, **exc.message.to_json()},
                        status_code=status_of(exc), headers=headers)


def is_page(request: Request) -> bool:
    """A browser's page, not the API (whose answers stay JSON)."""
    return request.method == "GET" and not request.url.path.startswith("/api/")


def refused(connection: HTTPConnection, message: Message, code: str,
            status: int = 403) -> Response:
    """A request refused before any route saw it, in the language it asks for."""
    return JSONResponse({"detail": translate(message, pages.language(connection)),
                         "code": code, **message.to_json()}, status_code=status)
