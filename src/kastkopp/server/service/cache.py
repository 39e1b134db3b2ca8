"""Loading tables: the live tables in memory, folded from their logs in the database.

A table is loaded on first use and kept while it is played or watched; finished tables
read again stay while they are among the most recent (:data:`FINISHED_KEPT`).
"""

from __future__ import annotations

import asyncio
from datetime import UTC
from typing import Any

from sqlalchemy import select

from kastkopp.engine import Table, game_from_json
from kastkopp.server import operations
from kastkopp.server.service.base import TableService
from kastkopp.server.service.live import LiveTable, SeatInfo, TableNotFound
from kastkopp.store import Account, GameTable, LogEvent, Seat, TableSetting
from kastkopp.store.log_writer import row_event

FINISHED_KEPT = 64  # finished tables read again, kept in memory (least recently used out)


class TableCache(TableService):
    """The live tables of this process, each loaded once from the database."""

    async def get(self, table_id: str) -> LiveTable:
        """The live table, loaded from the database on first use."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                live = self.tables.get(table_id)
                if live is None:
                    live = await asyncio.to_thread(self._load, table_id)
                    self.tables[table_id] = live
                    if live.status == "over":
                        self._keep_finished(live)
        finally:
            if not lock.locked() and self._loading.get(table_id) is lock:
                del self._loading[table_id]  # unknown ids must not pile up
        return live

    def _keep_finished(self, live: LiveTable) -> None:
        """A finished table read again stays while it is among the most recent; the
        database has it all, so the oldest unwatched one leaves memory."""
        self.finished[live.id] = None
        self.finished.move_to_end(live.id)
        while len(self.finished) > FINISHED_KEPT:
            table_id, _ = self.finished.popitem(last=False)
            old = self.tables.get(table_id)
            if old is not None and old.status == "over" and not old.watchers:
                del self.tables[table_id]

    def _load(self, table_id: str) -> LiveTable:
        with self.store.session() as session:
            row = session.get(GameTable, table_id) if len(table_id) <= 16 else None
            if row is None:
                raise TableNotFound("there is no table '{table}'", table=table_id)
            seats = self._seat_infos(session, row)
            events = [row_event(e) for e in session.scalars(
                select(LogEvent).where(LogEvent.table_id == table_id)
                .order_by(LogEvent.seq))]
            setting = session.get(TableSetting, table_id)
            last = session.scalar(select(LogEvent.at).where(LogEvent.table_id == table_id)
                                  .order_by(LogEvent.seq.desc()).limit(1))
        game = game_from_json({"game": row.game, "preset": row.preset,
                               "players": row.players, "rules": row.rules})
        live = LiveTable(id=row.id, game=game, owner_id=row.owner_id, seats=seats,
                         status=row.status, seed=bytes.fromhex(row.server_seed),
                         client_seed=row.client_seed, clock=row.clock,
                         seconds_per_move=row.seconds_per_move, on_timeout=row.on_timeout,
                         forfeit_seat=row.forfeit_seat, outcome=row.outcome,
                         source=row.source, seeds=self._seeds_of(table_id, row),
                         pace=setting.pace if setting is not None else None)
        if row.status != "open":
            live.table = self._replay(live, events)
        if last is not None:
            at = last if last.tzinfo else last.replace(tzinfo=UTC)
            live.last_move_at = at.timestamp()
        return live

    def _seeds_of(self, table_id: str, row: GameTable | None = None) -> dict[int, str]:
        """The seeds of a table: as dealt once it started, else as its seats hold them."""
        if row is not None and row.contributions is not None:
            return {int(c["seat"]): str(c["seed"]) for c in row.contributions}
        with self.store.session() as session:
            return {int(seat): str(seed) for seat, seed in session.execute(
                select(Seat.seat, Seat.client_seed).where(Seat.table_id == table_id,
                                                          Seat.client_seed.is_not(None)))}

    @staticmethod
    def _seat_infos(session: Any, row: GameTable) -> list[SeatInfo]:
        seats = [SeatInfo() for _ in range(row.players)]
        for seat_row in session.scalars(select(Seat).where(Seat.table_id == row.id)):
            name = None
            if seat_row.account_id is not None:
                account = session.get(Account, seat_row.account_id)
                name = account.name if account is not None else None
            elif seat_row.name is not None:
                name = seat_row.name
            seats[seat_row.seat] = SeatInfo(seat_row.account_id, name, seat_row.bot)
        return seats

    def _replay(self, live: LiveTable, events: list[dict[str, Any]]) -> Table:
        data = {"format": "kastkopp-log", "version": 1, **live.game.to_json(),
                "seats": [s.label(i) for i, s in enumerate(live.seats)],
                "dice": {"source": "commit-reveal"}, "events": events}
        return Table.from_json(data, dice=live.dice())

    async def _catch_up(self, live: LiveTable) -> None:
        """Reload a table's log, row and seats from the database (another process moved)."""
        if await operations.follow(self.store, live):  # a game in play: its new events only
            return
        fresh = await asyncio.to_thread(self._load, live.id)
        live.table, live.status, live.seats = fresh.table, fresh.status, fresh.seats
        live.seeds = fresh.seeds
        live.outcome, live.forfeit_seat = fresh.outcome, fresh.forfeit_seat
        live.last_move_at = fresh.last_move_at
        live.bots.clear()
