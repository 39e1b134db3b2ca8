"""The table service's shared state: the live tables, their watchers and tasks.

The service is one object, :class:`kastkopp.server.hub.Hub`, made of one class per job,
each in its own module and each building on the one before: this state and the
lifecycle; :mod:`~kastkopp.server.service.cache` (loading tables);
:mod:`~kastkopp.server.service.broadcast` (telling watchers);
:mod:`~kastkopp.server.service.play` (moves); :mod:`~kastkopp.server.service.bots`;
:mod:`~kastkopp.server.service.clocks`; :mod:`~kastkopp.server.service.seating`; and
:mod:`kastkopp.server.hosted` (tables played elsewhere).
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from kastkopp.server import operations
from kastkopp.server.service.live import LiveTable, Watcher
from kastkopp.server.workers import Workers
from kastkopp.store import GameTable, Seat, Store
from kastkopp.store.log_writer import LogWriter


class TableService(ABC):
    """All live tables of this process, their watchers, bots and move clocks."""

    def __init__(self, store: Store, bot_delay: float = 0.0,
                 publish: Callable[[dict[str, Any]], None] | None = None,
                 workers: Workers | None = None) -> None:
        self.store = store
        self.writer = LogWriter(store, on_flush=operations.flushed)
        self.bot_delay = bot_delay
        # where bots' slow work (solves) is done; without, bots do it as they choose
        self.workers = workers
        # finished tables loaded again (a replay, a lobby of results): the recent ones
        self.finished: OrderedDict[str, None] = OrderedDict()
        self.publish = publish
        # called with a table's id when a game ends here (the series move on)
        self.on_finish: Callable[[str], Any] | None = None
        # awaited with a table's id when its last seed came (a series table starts then)
        self.on_ready: Callable[[str], Any] | None = None
        self.tables: dict[str, LiveTable] = {}
        self.account_watchers: dict[int, set[Watcher]] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.closed = False

    def spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def close(self) -> None:
        self.closed = True
        for task in list(self.tasks):
            task.cancel()
        for live in self.tables.values():
            for watcher in live.watchers:
                watcher.send(None)
        await asyncio.to_thread(self.writer.close)

    def _playing_ids(self) -> list[str]:
        """The tables being played that need this process to go on: a bot to move or a
        clock to run. A table of people alone waits for them, and is loaded when one
        comes back (so a restart answers at once however many such games are open)."""
        with self.store.session() as session:
            driven = (GameTable.clock != "none") | GameTable.id.in_(
                select(Seat.table_id).where(Seat.bot.is_not(None)))
            return list(session.scalars(select(GameTable.id)
                                        .where(GameTable.status == "playing", driven)))

    @abstractmethod
    async def _bot_move(self, live: LiveTable, seq: int) -> None:
        """The bot to move at ``seq`` moves (:class:`~kastkopp.server.service.bots.Bots`)."""
