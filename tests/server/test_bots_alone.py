"""Tables of bots alone, however many a guest starts, think together for at most their
share of the event loop's time (:data:`kastkopp.server.service.bots.BOTS_ALONE_SHARE`):
more such tables play slower, the players' moves are not slowed."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from kastkopp.server import accounts
from kastkopp.server.hub import Hub
from kastkopp.store import Store

SHARE = 0.02  # (the server's is more) so that four tables of strong bots reach it at once


def test_many_tables_of_strong_bots_alone_think_for_their_share_of_the_time_together(
        tmp_path: Path):
    store = Store(str(tmp_path / "kastkopp.db"))
    store.migrate()
    with store.session() as session:
        crowd = accounts.guest(session, "crowd")

    async def run() -> tuple[float, float, list[int]]:
        hub = Hub(store)
        hub.bots_alone_share = SHARE
        try:
            ids = []
            for _ in range(4):
                table_id = await asyncio.to_thread(
                    hub.create, crowd, "liars_dice", None, {}, 10, ["bot:strong"] * 10,
                    "none", None, "move", None, False)
                ids.append(table_id)
            started = time.monotonic()
            for table_id in ids:
                await hub.start(table_id, crowd)
            await asyncio.sleep(1.5)
            elapsed = time.monotonic() - started
            return elapsed, hub.alone_thought, [(await hub.get(t)).seq for t in ids]
        finally:
            await hub.close()

    elapsed, thought, seqs = asyncio.run(run())
    assert all(seq > 1 for seq in seqs)  # every table plays
    # four tables paced each for itself think for up to 4 × 20 % of the time; together
    # they think for their share (the last move's time may still be to be waited for)
    assert 0 < thought <= SHARE * elapsed + 0.03
