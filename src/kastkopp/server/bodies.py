"""Request bodies that no JSON text can be: refused with a 422 before any route reads them.

JSON may escape a lone UTF-16 surrogate (``"\\ud800"``): Python's parser reads it into a
string that cannot be written as UTF-8, so it fails later — in the database, or in the
error that quotes it back — as a server error. A body holding such an escape is read
once more with orjson, which refuses lone surrogates, and refused if it does not parse.
Only bodies with a ``\\uD8..``–``\\uDF..`` escape are read twice; the rest pass as sent.

>>> lone_surrogate(b'{"name": "\\\\ud800"}')
True
>>> lone_surrogate(b'{"name": "\\\\ud83c\\\\udfb2"}')     # a pair: one character
False
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import orjson
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as AsgiMessage

from kastkopp.engine import Message

SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")

MALFORMED = Message("the body is not JSON that can be read: {reason}")
LONE_SURROGATE = Message("a text holds half of a character (a lone surrogate such as "
                         "\\ud800)")


def lone_surrogate(body: bytes) -> bool:
    """Whether a JSON body escapes a surrogate that is not half of a pair."""
    if not SURROGATE_ESCAPE.search(body):
        return False
    try:
        orjson.loads(body)
    except orjson.JSONDecodeError:
        try:  # Python reads what orjson refuses only for lone surrogates
            json.loads(body)
        except ValueError:
            return False  # not JSON at all: the route says so
        return True
    return False


Respond = Callable[[HTTPConnection, Message, str, int], ASGIApp]


class StrictJson:
    """ASGI middleware: a request body with a lone surrogate gets a 422 (``malformed_body``)."""

    def __init__(self, app: ASGIApp, respond: Respond) -> None:
        self.app, self.respond = app, respond

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if lone_surrogate(body):
            why = Message(MALFORMED.template, {"reason": LONE_SURROGATE})
            await self.respond(HTTPConnection(scope), why, "malformed_body", 422)(
                scope, receive, send)
            return
        await self.app(scope, _replay([{"type": "http.request", "body": body,
                                        "more_body": False}], receive), send)


def _replay(messages: list[AsgiMessage], receive: Receive) -> Receive:
    """``receive`` that hands out ``messages`` first, then what the client sends next."""
    pending = list(messages)

    async def replayed() -> AsgiMessage:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed
