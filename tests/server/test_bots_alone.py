"""Tables of bots alone, however many a guest starts, think together for at most their
share of the event loop's time (:data:`kastkopp.server.service.bots.BOTS_ALONE_SHARE`):
more such tables play slower, the players' moves are not slowed."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kastkopp.engine import Action, Player
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


@dataclass
class Watched(Player):
    """A real bot whose choices are seen: in which thread, and how many at once."""

    bot: Player
    threads: list[int]
    thinking: list[int]  # [now, most ever]

    def choose(self, view: dict[str, Any], legal: Sequence[Action],
               rng: random.Random) -> Action:
        self.threads.append(threading.get_ident())
        self.thinking[0] += 1
        self.thinking[1] = max(self.thinking)
        try:
            return self.bot.choose(view, legal, rng)
        finally:
            self.thinking[0] -= 1


def test_tables_of_bots_alone_think_off_the_event_loop_one_table_at_a_time(
        tmp_path: Path) -> None:
    store = Store(str(tmp_path / "kastkopp.db"))
    store.migrate()
    with store.session() as session:
        crowd = accounts.guest(session, "crowd")
    threads: list[int] = []
    thinking = [0, 0]

    async def run() -> list[int]:
        hub = Hub(store)
        try:
            ids = []
            for _ in range(3):
                table_id = await asyncio.to_thread(
                    hub.create, crowd, "liars_dice", None, {}, 10, ["bot:strong"] * 10,
                    "none", None, "move", None, False)
                live = await hub.get(table_id)
                for seat in range(10):
                    live.bots[seat] = Watched(live.bot(seat), threads, thinking)
                ids.append(table_id)
            for table_id in ids:
                await hub.start(table_id, crowd)
            while len(threads) < 12:
                await asyncio.sleep(0.05)
            return [(await hub.get(t)).seq for t in ids]
        finally:
            await hub.close()

    seqs = asyncio.run(run())
    assert all(seq > 1 for seq in seqs)
    assert threading.get_ident() not in threads  # asyncio.run's loop runs in this thread
    assert thinking[1] == 1
