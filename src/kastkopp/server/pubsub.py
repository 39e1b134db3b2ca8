"""Redis pub/sub between server processes that share one PostgreSQL database.

Each process announces ``{"table": id, "seq": n}`` after every commit on one channel; the
others catch that table up from the database (the log is the truth, the message only says
where to look) and send their own watchers the new views. Chat lines travel the same
channel as ``{"table": id, "chat": message}`` (already stored; only passed on).
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from typing import Any

from kastkopp.server.chat import deliver
from kastkopp.server.hub import Hub

CHANNEL = "kastkopp:tables"
log = logging.getLogger("kastkopp.server")


class RedisBridge:
    def __init__(self, url: str) -> None:
        import redis.asyncio as redis

        self.client = redis.from_url(url)
        self.origin = uuid.uuid4().hex
        self.hub: Hub | None = None
        self.task: asyncio.Task[None] | None = None
        self.pending: set[asyncio.Task[Any]] = set()

    def publish(self, message: dict[str, Any]) -> None:
        text = json.dumps({**message, "origin": self.origin})
        task = asyncio.ensure_future(self.client.publish(CHANNEL, text))
        self.pending.add(task)
        task.add_done_callback(self.pending.discard)

    async def start(self, hub: Hub) -> None:
        self.hub = hub
        pubsub = self.client.pubsub()
        await pubsub.subscribe(CHANNEL)
        self.task = asyncio.get_running_loop().create_task(self._listen(pubsub))

    async def _listen(self, pubsub: Any) -> None:
        assert self.hub is not None
        async for message in pubsub.listen():
            if message.get("type") != "message":
                continue
            try:
                data = json.loads(message["data"])
                if data.get("origin") == self.origin:
                    continue
                if "chat" in data:  # a chat line: stored already, only to be passed on
                    deliver(self.hub, str(data["table"]), data["chat"])
                    continue
                await self.hub.remote_change(str(data["table"]), bool(data.get("start")))
            except Exception:
                log.exception("could not follow a table event from another process")

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        await self.client.aclose()
