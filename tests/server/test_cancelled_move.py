"""A move whose mover is cancelled while its rows wait to be committed (the server stopping
under a bot that was answering): the rows are written all the same, so the table takes
the move, and the cancellation is a cancellation, not a move that "could not be saved"."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import func, select

from kastkopp.engine import IllegalAction
from kastkopp.server import accounts
from kastkopp.server.hub import Hub
from kastkopp.store import LogEvent, Store


def logged(store: Store, table_id: str) -> int:
    with store.session() as session:
        return int(session.scalar(select(func.count()).select_from(LogEvent)
                                  .where(LogEvent.table_id == table_id)) or 0)


def test_a_cancelled_mover_leaves_the_table_holding_what_the_log_holds(tmp_path: Path):
    path = tmp_path / "kastkopp.db"
    store = Store(str(path))
    store.migrate()
    with store.session() as session:
        anna, bo = (accounts.guest(session, name) for name in ("Anna", "Bo"))

    async def run() -> None:
        hub = Hub(store)
        try:
            table_id = await asyncio.to_thread(hub.create, anna, "mia", None, {}, 2,
                                               [None, None], "none", None, "move", None, True)
            await hub.join(table_id, bo, None, seed="b")
            await hub.start(table_id, anna, seed="a")
            live = await hub.get(table_id)
            seat = live.to_move()
            assert seat is not None
            mover = [anna, bo][seat]
            # another connection holds the database's write lock: the move's rows wait
            blocker = sqlite3.connect(path, isolation_level=None)
            blocker.execute("BEGIN IMMEDIATE")
            try:
                moving = asyncio.ensure_future(hub.act(
                    table_id, mover.id, live.frame(seat)["legal"][0], live.seq))
                await asyncio.sleep(0.2)
                assert not moving.done()
                moving.cancel()
                await asyncio.sleep(0.05)
            finally:
                blocker.execute("COMMIT")
                blocker.close()
            with pytest.raises(asyncio.CancelledError):
                await moving
            assert live.seq == logged(store, table_id) > 0
            # and the table plays on from there
            seat = live.to_move()
            assert seat is not None
            await hub.act(table_id, [anna, bo][seat].id, live.frame(seat)["legal"][0],
                          live.seq)
            assert live.seq == logged(store, table_id)
        finally:
            await hub.close()

    asyncio.run(run())


def test_a_move_refused_by_the_database_is_refused_to_the_mover_and_changes_nothing(
        tmp_path: Path):
    path = tmp_path / "kastkopp.db"
    store = Store(str(path))
    store.migrate()
    with store.session() as session:
        anna, bo = (accounts.guest(session, name) for name in ("Anna", "Bo"))

    async def run() -> None:
        hub = Hub(store)
        try:
            table_id = await asyncio.to_thread(hub.create, anna, "mia", None, {}, 2,
                                               [None, None], "none", None, "move", None, True)
            await hub.join(table_id, bo, None, seed="b")
            await hub.start(table_id, anna, seed="a")
            live = await hub.get(table_id)
            seat, seq = live.to_move(), live.seq
            assert seat is not None
            before = live.frame(seat)
            # the file cannot be written at all (a full disk behaves the same)
            blocker = sqlite3.connect(path, isolation_level=None)
            blocker.execute("BEGIN EXCLUSIVE")
            hub.writer._sqlite.execute("PRAGMA busy_timeout=100")  # type: ignore[union-attr]
            try:
                with pytest.raises(IllegalAction, match="could not be saved"):
                    await hub.act(table_id, [anna, bo][seat].id, before["legal"][0], seq)
            finally:
                blocker.execute("COMMIT")
                blocker.close()
            assert live.seq == seq == logged(store, table_id)
            assert live.frame(seat) == before
        finally:
            await hub.close()

    asyncio.run(run())
