"""Play: a seat's frame, the log, an action over HTTP, and the play WebSocket.

``WS /api/tables/{id}/ws`` — frames ``{"type": "state", "seq", "view", "legal", ...}``;
send ``{"action": "<notation>", "seq": <seq seen>, "id": <any>}``, get ``ack`` or ``error``.
The socket is reached without the middleware stack (see
:class:`kastkopp.server.app.KastkoppApp`): :func:`socket` is the whole of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from pydantic import BaseModel, Field
from starlette.types import Receive, Send

from kastkopp.engine import IllegalAction, KastkoppError, Message, StaleAction
from kastkopp.locale.messages import translate
from kastkopp.server import accounts, origin, pages, wire
from kastkopp.server.balance import Balance, PlaySocket
from kastkopp.server.deps import HubDep, Me, TableId, optional, settings_of
from kastkopp.server.hub import Hub, LiveTable
from kastkopp.server.operations import SERVICE_RESTART
from kastkopp.store import Account

router = APIRouter(tags=["play"])

# Refused frames one WebSocket may send (moves played are not counted): far above any
# player's mistakes, well below a flood.
REFUSED_PER_SECOND = 20
REFUSED_BURST = 40

BAD_TOKEN = Message("the token is not valid; log in again")
NOT_A_FRAME = Message('a frame is a JSON object like {"action": "call", "seq": 12}')
ONLY_WATCHING = Message("log in to play; spectators only watch")


class ActionBody(BaseModel):
    action: str = Field(max_length=200, examples=["call"])
    # strict: "1", 5.0 or true are not the sequence number of any position
    seq: int = Field(ge=0, strict=True,
                     description="the sequence number of the position you saw")


class ActionOut(BaseModel):
    ok: bool
    seq: int


@router.get("/api/tables/{table_id}/state")
async def state(table_id: TableId, request: Request, hub: HubDep) -> dict[str, Any]:
    """Your seat's frame (a spectator's without a login)."""
    live = await hub.get(table_id)
    me = await asyncio.to_thread(optional, request)
    return live.frame(live.seat_of(me.id if me else None))


@router.get("/api/tables/{table_id}/log")
async def table_log(table_id: TableId, hub: HubDep) -> dict[str, Any]:
    """The log: while playing without hidden dice; at the end complete with the seed,
    so ``kastkopp verify`` can check every roll."""
    return (await hub.get(table_id)).public_log()


@router.post("/api/tables/{table_id}/action", response_model=ActionOut)
async def action(table_id: TableId, body: ActionBody, hub: HubDep, me: Me) -> dict[str, Any]:
    seq = await hub.act(table_id, me.id, body.action, body.seq)
    return {"ok": True, "seq": seq}


async def socket(scope: Any, receive: Receive, send: Send, table_id: str) -> None:
    """``WS /api/tables/{table_id}/ws``: one client at one table (see KastkoppApp)."""
    websocket = WebSocket(scope, receive, send)
    hub: Hub = websocket.app.state.hub
    lang = pages.language(websocket)
    token = origin.bearer(websocket.headers) or websocket.cookies.get(accounts.COOKIE)
    await websocket.accept()
    why = origin.socket_refusal(websocket, settings_of(websocket).origins)
    if why is not None:
        await websocket.send_text(wire.dumps({
            "type": "error", "code": why.code, "error": translate(why.message, lang),
            **why.message.to_json()}))
        await websocket.close(code=why.close)
        return
    try:
        live = await hub.get(table_id)
    except KastkoppError as exc:
        await websocket.send_text(json.dumps({"type": "error", "code": "not_found",
                                              "error": translate(exc, lang)}))
        await websocket.close(code=4404)
        return
    account = None
    if token:
        # a crowd coming back at once is looked up together
        account = await websocket.app.state.token_accounts.get(token)
        if account is None:
            await websocket.send_text(json.dumps(
                {"type": "error", "code": "not_authenticated",
                 "error": translate(BAD_TOKEN, lang)}))
            await websocket.close(code=4401)
            return
    await play(hub, live, receive, send, account, lang,
               getattr(websocket.app.state, "balance", None))


async def play(hub: Hub, live: LiveTable, receive: Receive, send: Send,
               account: Account | None, lang: str = "en",
               balance: Balance | None = None) -> None:
    """One client at one table, on an accepted socket: frames out through the watcher's
    queue, actions in. The socket's ASGI messages are used as they come: this is the
    loop every move of every player goes through. The socket is one of ``balance``'s,
    which may close it to share the sockets out (:mod:`kastkopp.server.balance`)."""
    seat = live.seat_of(account.id if account else None)
    watcher = hub.watch(live, seat)
    me = PlaySocket(watcher, live.id)
    if balance is not None:
        balance.sockets.add(me)

    async def send_frames() -> None:
        with contextlib.suppress(OSError, RuntimeError):  # the client has gone
            while True:
                text = await watcher.queue.get()
                if text is None:  # the end; 1012 if sent away: come back, elsewhere
                    await send({"type": "websocket.close",
                                "code": SERVICE_RESTART if me.leaving else 1000})
                    return
                await send({"type": "websocket.send", "text": text})

    loop = asyncio.get_running_loop()
    sender = loop.create_task(send_frames())
    budget = wire.FrameBudget(REFUSED_PER_SECOND, REFUSED_BURST, loop.time)
    try:
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                return  # websocket.disconnect: the client has gone
            if me.leaving:
                continue  # unread: its client sends it again on its next socket
            me.in_hand = True
            # a text frame, or a binary one holding the same JSON
            frame = message.get("text")
            if frame is None:
                frame = message.get("bytes") or b""
            if budget.allows():
                reply, costs = await handle(hub, live, account, frame, lang)
                if costs:
                    budget.spend()
            else:
                reply = {"type": "error", "error": f"too many frames refused: at most "
                         f"{REFUSED_PER_SECOND} a second; this one was not read"}
            watcher.send(wire.dumps(reply))
            me.in_hand = False
            if me.leaving:  # chosen to go while it was answered: the close follows
                watcher.send(None)
    finally:
        if balance is not None:
            balance.sockets.discard(me)
        hub.unwatch(live, watcher)
        sender.cancel()


async def handle(hub: Hub, live: LiveTable, account: Account | None,
                 text: str | bytes, lang: str = "en") -> tuple[dict[str, Any], bool]:
    """Answer one frame from a client: an ``ack`` or an ``error``; errors change nothing.
    And whether the frame costs the socket's budget: a refusal does, and so does a move
    sent again that had been made already (acknowledged, but nothing was played)."""
    try:
        message = wire.loads(text)
    except (ValueError, RecursionError):
        message = None
    if not isinstance(message, dict):
        return {"type": "error", "error": translate(NOT_A_FRAME, lang)}, True
    ref = message.get("id")
    if not isinstance(ref, str | int | None) or isinstance(ref, bool):
        ref = None
    if account is None:
        return {"type": "error", "id": ref, "error": translate(ONLY_WATCHING, lang)}, True
    try:
        answer = await hub.move(live.id, account.id, message.get("action"),
                                message.get("seq"))
    except IllegalAction as exc:
        return {"type": "error", "id": ref, "code": exc.code, "error": translate(exc, lang),
                "stale": isinstance(exc, StaleAction), "seq": live.seq}, True
    except KastkoppError as exc:
        return {"type": "error", "id": ref, "code": exc.code, "error": translate(exc, lang),
                "seq": live.seq}, True
    return {"type": "ack", "id": ref, "seq": answer.seq}, answer.again
