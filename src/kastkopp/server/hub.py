"""The hub: the table service every route, stream and series asks, one per process.

Every table being played is a :class:`kastkopp.engine.Table` folded from its log, held
as a :class:`~kastkopp.server.service.live.LiveTable`. The hub is made of one class per
job, each in a module of :mod:`kastkopp.server.service` (loading, telling watchers,
moves, bots, clocks, seating) and :mod:`kastkopp.server.hosted`; a move becomes durable
before it is acknowledged (:mod:`kastkopp.server.service.play`). With Redis, each commit
is announced on a channel and the other processes catch up from the database.

Nothing here knows any game: the server speaks only the protocol of :mod:`kastkopp.engine`.
"""

from __future__ import annotations

import asyncio

from kastkopp.server.hosted import Hosted
from kastkopp.server.service.bots import Bots
from kastkopp.server.service.clocks import Clocks
from kastkopp.server.service.live import (
    KEEPALIVE,
    LiveTable,
    SeatInfo,
    TableError,
    TableNotFound,
    Watcher,
    check_rules,
    check_seed,
)

__all__ = ["KEEPALIVE", "Hub", "LiveTable", "SeatInfo", "TableError", "TableNotFound",
           "Watcher", "check_rules", "check_seed"]


class Hub(Hosted, Clocks, Bots):
    """All live tables of this process, their watchers, bots and move clocks."""

    async def resume(self) -> None:
        """Resume the tables that were being played with a bot or a clock: bots move
        again, clocks run again. Tables of people alone are loaded when first asked for."""
        ids = await asyncio.to_thread(self._playing_ids)
        for table_id in ids:
            live = await self.get(table_id)
            self._after_change(live, drive_bots=True)
        self.spawn(self._clock_loop())
