"""Clocks: a seat whose time per move has run out gets its default move, or loses."""

from __future__ import annotations

import asyncio
import logging
import time

from kastkopp.engine import KastkoppError
from kastkopp.server.service.live import LiveTable
from kastkopp.server.service.play import Play
from kastkopp.store.log_writer import WriteConflict

log = logging.getLogger("kastkopp.server")


class Clocks(Play):
    """The move clocks of every live table, checked four times a second."""

    async def _clock_loop(self) -> None:
        while not self.closed:
            await asyncio.sleep(0.25)
            now = time.time()
            for live in list(self.tables.values()):
                deadline = live.deadline
                if deadline is None or now < deadline:
                    continue
                try:
                    await self._timeout(live, now)
                except (KastkoppError, WriteConflict):
                    continue
                except Exception:
                    log.exception("timeout at table %s", live.id)

    async def _timeout(self, live: LiveTable, now: float) -> None:
        async with live.lock:
            deadline = live.deadline
            if deadline is None or now < deadline or live.table is None:
                return
            seat = live.table.state.to_move()
            seq = live.seq
            if seat is None:
                return
            if live.on_timeout == "lose":
                await self.forfeit(live, seat)
                move = None
            else:
                move = str(live.table.state.default_action())
        if move is None:
            self._after_change(live, drive_bots=True)
        else:
            await self.act(live.id, None, move, seq, as_bot=seat)
