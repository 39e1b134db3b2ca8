"""Same origin: what a browser sends with the session cookie must come from our own pages.

A browser attaches the session cookie to requests that other sites make it send: a form
posted from elsewhere, or a WebSocket opened by a page of another site. Such requests
carry the other site in ``Origin`` (and ``Sec-Fetch-Site``), which a page cannot forge, so

- the play WebSocket is refused when its ``Origin`` is not this server's
  (:func:`refused_origin`); a program without an ``Origin`` (a bot) is not a browser;
- a state change (POST, PUT, PATCH, DELETE) without a bearer token is refused when it
  comes from another site, and one with the session cookie is refused as a form
  (``text/plain``, urlencoded or multipart): our pages send JSON (:class:`SameOrigin`).

A request with ``Authorization: Bearer`` is a program's; no browser adds that header to
another site's request, so it cannot be forged across sites and is not checked.

The server's own origin is the host the request was sent to; more (a page served from
another host) are allowed with ``create_app(origins=[...])`` or ``KASTKOPP_ORIGINS``
(comma-separated, like ``https://kastkopp.example``).

>>> refused_origin({"origin": "https://evil.example", "host": "kastkopp.example"}, ())
'https://evil.example'
>>> refused_origin({"origin": "https://kastkopp.example", "host": "kastkopp.example"}, ())
>>> refused_origin({"host": "kastkopp.example"}, ())      # a program, not a browser
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from kastkopp.engine import Message

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# What a form on another site can send without asking the server first (no preflight).
FORM_TYPES = ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data")
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}

CROSS_ORIGIN = Message("refused: this came from another site ({origin}); only this "
                       "server's own pages may act for your account")
FORM_POST = Message("refused: send JSON (Content-Type: application/json), not a form")
TOKEN_IN_URL = Message("refused: a token does not go in the URL, where logs and browser "
                       "histories keep it; send it in an 'Authorization: Bearer <token>' "
                       "header")


def configured_origins(origins: Iterable[str] | None = None) -> tuple[str, ...]:
    """The allowed origins besides the server's own: given, else ``KASTKOPP_ORIGINS``."""
    if origins is None:
        origins = os.environ.get("KASTKOPP_ORIGINS", "").split(",")
    return tuple(normal for o in origins if (normal := _normal(o.strip())))


def _normal(origin: str) -> str:
    """``scheme://host[:port]`` in lower case, a default port left out; "" if not one."""
    try:
        parts = urlsplit(origin.lower())
        port = parts.port
    except ValueError:
        return ""
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return ""
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    shown = "" if port in (None, DEFAULT_PORTS[parts.scheme]) else f":{port}"
    return f"{parts.scheme}://{host}{shown}"


def _host(origin: str) -> str:
    """The ``host[:port]`` of a normal origin, a default port left out."""
    return origin.split("://", 1)[1]


def _own_host(host: str) -> str:
    """The ``Host`` header as :func:`_host` writes it (a default port left out)."""
    host = host.lower()
    for port in (":80", ":443"):
        if host.endswith(port):
            return host[: -len(port)]
    return host


def refused_origin(headers: Mapping[str, str], allowed: tuple[str, ...]) -> str | None:
    """The other site a browser says the request came from, or ``None`` if it is ours.

    Same origin is the host the request was sent to (any scheme: behind a proxy that ends
    TLS the server sees plain HTTP), or one of ``allowed``. Without ``Origin`` a browser's
    ``Sec-Fetch-Site`` decides; without either it is a program, not a browser.
    """
    origin = headers.get("origin")
    if origin is not None:
        normal = _normal(origin)
        if normal and (_host(normal) == _own_host(headers.get("host", ""))
                       or normal in allowed):
            return None
        return origin[:100] or "null"
    site = headers.get("sec-fetch-site")
    if site in ("cross-site", "same-site"):
        return site
    return None


def bearer(headers: Mapping[str, str]) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header."""
    header = headers.get("authorization", "")
    if header[:7].lower() == "bearer ":
        return header[7:].strip() or None
    return None


@dataclass(frozen=True)
class Refusal:
    """Why a WebSocket is closed at once: the message, its error code, the close code."""

    message: Message
    code: str
    close: int


def socket_refusal(connection: HTTPConnection, allowed: tuple[str, ...]) -> Refusal | None:
    """Why the play WebSocket may not be opened as asked, or ``None`` when it may.

    A token in the URL is refused (its holder has to send it another way), and so is a
    browser's socket from another site's page; a program's bearer token is never forged.
    """
    if "token" in connection.query_params:
        return Refusal(TOKEN_IN_URL, "token_in_url", 4400)
    if bearer(connection.headers):
        return None
    other = refused_origin(connection.headers, allowed)
    if other is not None:
        return Refusal(Message(CROSS_ORIGIN.template, {"origin": other}), "cross_origin",
                       4403)
    return None


def refusal(connection: HTTPConnection, cookie: str,
            allowed: tuple[str, ...]) -> Message | None:
    """Why a state change may not be done as sent, or ``None`` when it may."""
    if connection.scope.get("method") not in UNSAFE or bearer(connection.headers):
        return None
    other = refused_origin(connection.headers, allowed)
    if other is not None:
        return Message(CROSS_ORIGIN.template, {"origin": other})
    kind = connection.headers.get("content-type", "").split(";")[0].strip().lower()
    if cookie in connection.cookies and kind in FORM_TYPES:
        return FORM_POST
    return None


class SameOrigin:
    """ASGI middleware: refuses (403) the state changes :func:`refusal` refuses.

    ``respond`` writes the refusal in the request's language, with the error code
    ``cross_origin`` or ``form_post``.
    """

    def __init__(self, app: ASGIApp, cookie: str, allowed: tuple[str, ...],
                 respond: Callable[[HTTPConnection, Message, str, int], ASGIApp]) -> None:
        self.app, self.cookie, self.allowed, self.respond = app, cookie, allowed, respond

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") in UNSAFE:
            connection = HTTPConnection(scope)
            why = refusal(connection, self.cookie, self.allowed)
            if why is not None:
                code = "form_post" if why is FORM_POST else "cross_origin"
                await self.respond(connection, why, code, 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)
