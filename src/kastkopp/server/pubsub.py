"""Redis pub/sub between server processes that share one PostgreSQL database.

Each process announces ``{"table": id, "seq": n}`` after every commit on one channel; the
others catch that table up from the database (the log is the truth, the message only says
where to look) and send their own watchers the new views. Chat lines travel the same
channel as ``{"table": id, "chat": message}`` (already stored; only passed on), and each
process's count of play sockets as ``{"sockets": n}``, to a process that has just
started the tables another shows, ``{"shown": [ids], "first": n, "to": origin}``, and its
answer once it has read the first ``n``, ``{"read": n, "to": origin}``
(:mod:`kastkopp.server.balance`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import uuid
from collections.abc import Callable
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
        self.pending: set[asyncio.Task[Any]] = set()  # the sender, while it sends
        self.outbox: list[str] = []
        self.sender: asyncio.Task[None] | None = None
        # told of another process's count of play sockets: (its origin, the count)
        self.on_sockets: Callable[[str, int], None] | None = None
        # told by another the tables it shows, this process having just started: (their
        # ids, how many of them first, the origin to tell once those are read)
        self.on_shown: Callable[[list[str], int, str], None] | None = None
        # told by a process just started that it has read the first tables it was shown
        self.on_read: Callable[[str], None] | None = None

    def publish(self, message: dict[str, Any]) -> None:
        """Announce ``message``. Announcements go out in order on one connection, those
        made while one round trip is under way together in the next: a burst of commits
        (a crowd of players back at once) costs a few round trips, not a connection
        each."""
        self.outbox.append(json.dumps({**message, "origin": self.origin}))
        if self.sender is None:
            task = self.sender = asyncio.ensure_future(self._send())
            self.pending.add(task)
            task.add_done_callback(self.pending.discard)

    async def _send(self) -> None:
        try:
            while self.outbox:
                batch, self.outbox = self.outbox, []
                try:
                    async with self.client.pipeline(transaction=False) as pipe:
                        for text in batch:
                            pipe.publish(CHANNEL, text)
                        await pipe.execute()
                except Exception:  # at most once: the others find the moves in the log
                    log.warning("could not announce %d table event(s) on Redis", len(batch),
                                exc_info=True)
        finally:
            self.sender = None  # at once: a message published from now on starts another

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
                if "sockets" in data:  # another process's count (balance.py)
                    if self.on_sockets is not None:
                        self.on_sockets(str(data.get("origin")), int(data["sockets"]))
                    continue
                if "shown" in data:  # the tables another process shows (balance.py)
                    if data.get("to") == self.origin and self.on_shown is not None:
                        self.on_shown([str(table) for table in data["shown"]],
                                      int(data.get("first", 0)), str(data.get("origin")))
                    continue
                if "read" in data:  # a process just started has read them (balance.py)
                    if data.get("to") == self.origin and self.on_read is not None:
                        self.on_read(str(data.get("origin")))
                    continue
                if "chat" in data:  # a chat line: stored already, only to be passed on
                    deliver(self.hub, str(data["table"]), data["chat"])
                    continue
                events = data.get("events")
                await self.hub.remote_change(str(data["table"]), bool(data.get("start")),
                                             events if isinstance(events, list) else None)
            except Exception:
                log.exception("could not follow a table event from another process")

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        await self.client.aclose()
