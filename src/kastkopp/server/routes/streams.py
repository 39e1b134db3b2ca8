"""NDJSON streams, one event a line: an account's events and a table's frames."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from kastkopp.server.deps import HubDep, Me, TableId, optional
from kastkopp.server.hub import KEEPALIVE, Watcher

router = APIRouter(tags=["streams"])


async def ndjson(watcher: Watcher, request: Request,
                 on_close: Callable[[], None]) -> AsyncIterator[str]:
    try:
        while True:
            try:
                text = await asyncio.wait_for(watcher.queue.get(), KEEPALIVE)
            except TimeoutError:
                if await request.is_disconnected():
                    return
                yield "\n"  # keep-alive, as the Lichess streams do
                continue
            if text is None:
                return
            yield text + "\n"
    finally:
        on_close()


@router.get("/api/stream/event", response_class=StreamingResponse)
async def event_stream(request: Request, hub: HubDep, me: Me) -> StreamingResponse:
    """NDJSON: ``gameStart``, ``yourTurn`` and ``gameFinish`` for your tables."""
    watcher = hub.watch_account(me.id)
    for table_id, seat in await asyncio.to_thread(hub.tables_of, me.id):
        live = await hub.get(table_id)
        watcher.send(json.dumps({"type": "gameStart", "table": table_id,
                                 "game": live.game.name, "seat": seat,
                                 "seed_sha256": live.commitment}))
        if live.to_move() == seat:
            watcher.send(json.dumps({"type": "yourTurn", "table": table_id,
                                     "seat": seat, "seq": live.seq,
                                     "deadline": live.deadline}))
    return StreamingResponse(
        ndjson(watcher, request, lambda: hub.unwatch_account(me.id, watcher)),
        media_type="application/x-ndjson")


@router.get("/api/stream/table/{table_id}", response_class=StreamingResponse)
async def table_stream(table_id: TableId, request: Request, hub: HubDep) -> StreamingResponse:
    """NDJSON: your seat's frame (a spectator's without a login) after every change."""
    live = await hub.get(table_id)
    me = await asyncio.to_thread(optional, request)
    watcher = hub.watch(live, live.seat_of(me.id if me else None))
    return StreamingResponse(
        ndjson(watcher, request, lambda: hub.unwatch(live, watcher)),
        media_type="application/x-ndjson")
