"""Chat at a table: short messages from players and spectators (guests too).

- ``POST /api/tables/{id}/chat {"text"}`` — say something (logged in: an account or a guest)
- ``GET /api/tables/{id}/chat?after=N`` — the messages after message ``N`` (the last 100)

A message is stored before it is sent on, then every WebSocket watching the table (on
every server process, through Redis when there are several) gets
``{"type": "chat", "id", "author", "seat", "text", "at"}`` (``seat`` is ``null`` for a
spectator). The text is kept as written — pages draw it as text, never as markup — after
control characters are dropped and white space is squeezed; it is at most
:data:`MAX_LENGTH` characters, and one account says at most :data:`BURST` messages in
:data:`BURST_SECONDS` seconds at one table.
"""

from __future__ import annotations

import asyncio
import json
import threading
import unicodedata
from datetime import timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field
from sqlalchemy import func, select

from kastkopp.engine import KastkoppError
from kastkopp.server.deps import Me, TableId
from kastkopp.server.hub import Hub
from kastkopp.store import Account, ChatMessage, Store
from kastkopp.store.models import now

MAX_LENGTH = 280
BURST, BURST_SECONDS = 5, 10
HISTORY = 100

router = APIRouter(tags=["chat"])


class ChatError(KastkoppError):
    """A message that cannot be sent, and why."""


class ChatBody(BaseModel):
    text: str = Field(max_length=4 * MAX_LENGTH, examples=["good luck!"])


def clean(text: str) -> str:
    """The text without control characters, its white space squeezed; refused if empty
    or too long.

    >>> clean("  hej\\u0000 på\\n\\ndig  ")
    'hej på dig'
    """
    kept = "".join(" " if c.isspace() else c for c in text
                   if c.isspace() or not unicodedata.category(c).startswith("C"))
    squeezed = " ".join(kept.split())
    if not squeezed:
        raise ChatError("write something first: the message is empty")
    if len(squeezed) > MAX_LENGTH:
        raise ChatError("a message is at most {most} characters; this one has {length}",
                        most=MAX_LENGTH, length=len(squeezed))
    return squeezed


def to_json(row: ChatMessage, seat: int | None) -> dict[str, Any]:
    return {"type": "chat", "id": row.id, "author": row.author, "seat": seat,
            "text": row.text, "at": row.at.isoformat()}


# Counting and keeping are one step, or messages sent at the same moment would all pass
# the count (within one process; the limit is for a person typing, not a defence).
_saving = threading.Lock()


def _save(store: Store, table_id: str, account: Account, text: str) -> ChatMessage:
    with _saving, store.session() as session:
        since = now() - timedelta(seconds=BURST_SECONDS)
        recent = session.scalar(select(func.count()).select_from(ChatMessage).where(
            ChatMessage.table_id == table_id, ChatMessage.account_id == account.id,
            ChatMessage.at >= since)) or 0
        if recent >= BURST:
            raise ChatError("slow down: at most {most} messages in {seconds} seconds",
                            most=BURST, seconds=BURST_SECONDS)
        row = ChatMessage(table_id=table_id, account_id=account.id, author=account.name,
                          text=text, at=now())
        session.add(row)
        session.flush()
        return row


@router.post("/api/tables/{table_id}/chat")
async def say(table_id: TableId, body: ChatBody, request: Request,
              me: Me) -> dict[str, Any]:
    """Say something at the table; everyone watching it hears it at once."""
    hub: Hub = request.app.state.hub
    live = await hub.get(table_id)  # an unknown table is refused before anything is kept
    text = clean(body.text)
    row = await asyncio.to_thread(_save, request.app.state.store, live.id, me, text)
    message = to_json(row, live.seat_of(me.id))
    deliver(hub, live.id, message)
    if hub.publish is not None:  # the other processes' watchers hear it too
        hub.publish({"table": live.id, "chat": message})
    return message


def deliver(hub: Hub, table_id: str, message: dict[str, Any]) -> None:
    """Send a stored message to this process's watchers of the table (if it has any)."""
    live = hub.tables.get(table_id)
    if live is None:
        return
    line = json.dumps(message, ensure_ascii=False)
    for watcher in list(live.watchers):
        watcher.send(line)


@router.get("/api/tables/{table_id}/chat")
async def messages(table_id: TableId, request: Request,
                   after: Annotated[int, Query(ge=0, le=2**31 - 1)] = 0
                   ) -> list[dict[str, Any]]:
    """The table's messages after message ``after``, oldest first (at most the last 100)."""
    hub: Hub = request.app.state.hub
    live = await hub.get(table_id)
    store: Store = request.app.state.store

    def read() -> list[ChatMessage]:
        with store.session() as session:
            rows = session.scalars(select(ChatMessage).where(
                ChatMessage.table_id == live.id, ChatMessage.id > after)
                .order_by(ChatMessage.id.desc()).limit(HISTORY)).all()
            return list(reversed(rows))

    return [to_json(row, live.seat_of(row.account_id))
            for row in await asyncio.to_thread(read)]
