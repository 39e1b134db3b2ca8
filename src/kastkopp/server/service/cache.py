"""Loading tables: the live tables in memory, folded from their logs in the database.

A table is loaded on first use and kept while it is played or watched; finished tables
read again stay while they are among the most recent (:data:`FINISHED_KEPT`).
"""

from __future__ import annotations

import asyncio
import functools
from datetime import UTC
from typing import Any

from sqlalchemy import select

from kastkopp.engine import Table, game_from_json
from kastkopp.server import operations
from kastkopp.server.batched import Batched
from kastkopp.server.service.base import TableService
from kastkopp.server.service.live import LiveTable, SeatInfo, TableNotFound
from kastkopp.store import Account, GameTable, LogEvent, Seat, TableSetting
from kastkopp.store.log_writer import row_event

LOADED_TOGETHER = 32  # tables read in one batch at most
FINISHED_KEPT = 64  # finished tables read again, kept in memory (least recently used out)


class TableCache(TableService):
    """The live tables of this process, each loaded once from the database."""

    @functools.cached_property
    def _loads(self) -> Batched[str, LiveTable]:
        # tables asked for at the same moment (players coming back from a process that
        # died) are read from the database together; a few dozen at a time, so the first
        # players back need not wait for the replay of every table of the crowd
        return Batched(self._load_many, most=LOADED_TOGETHER)

    async def get(self, table_id: str) -> LiveTable:
        """The live table, loaded from the database on first use."""
        live = self.tables.get(table_id)
        if live is not None:
            return live
        loaded = await self._loads.get(table_id)
        live = self.tables.get(table_id)  # another caller's load came in first: one table
        if live is not None:
            return live
        if loaded is None:
            raise TableNotFound("there is no table '{table}'", table=table_id)
        self.tables[table_id] = loaded
        if loaded.status == "over":
            self._keep_finished(loaded)
        return loaded

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
        live = self._load_many([table_id]).get(table_id)
        if live is None:
            raise TableNotFound("there is no table '{table}'", table=table_id)
        if isinstance(live, Exception):
            raise live
        return live

    def _load_many(self, ids: list[str]) -> dict[str, LiveTable | Exception]:
        """The tables found among ``ids``, four queries however many (rows, not objects:
        a table's log may be long). A table that cannot be made from its rows is the
        error it raised, for its callers only: the others of the batch load."""
        ids = [table_id for table_id in ids if len(table_id) <= 16]
        if not ids:
            return {}
        with self.store.session() as session:
            rows = {row.id: row for row in
                    session.scalars(select(GameTable).where(GameTable.id.in_(ids)))}
            if not rows:
                return {}
            seats: dict[str, list[Any]] = {table_id: [] for table_id in rows}
            for seat in session.execute(
                    select(Seat.table_id, Seat.seat, Seat.account_id, Seat.bot, Seat.name,
                           Seat.client_seed, Account.name.label("account_name"))
                    .outerjoin(Account, Account.id == Seat.account_id)
                    .where(Seat.table_id.in_(list(rows)))):
                seats[seat.table_id].append(seat)
            events: dict[str, list[Any]] = {table_id: [] for table_id in rows}
            for event in session.execute(
                    select(LogEvent.table_id, LogEvent.seq, LogEvent.kind, LogEvent.seat,
                           LogEvent.action, LogEvent.nonce, LogEvent.faces, LogEvent.at)
                    .where(LogEvent.table_id.in_(list(rows)))
                    .order_by(LogEvent.table_id, LogEvent.seq)):
                events[event.table_id].append(event)
            paces = {str(table_id): pace for table_id, pace in session.execute(
                select(TableSetting.table_id, TableSetting.pace)
                .where(TableSetting.table_id.in_(list(rows))))}
        loaded: dict[str, LiveTable | Exception] = {}
        for table_id, row in rows.items():
            try:
                loaded[table_id] = self._live(row, seats[table_id], events[table_id],
                                              paces.get(table_id))
            except Exception as exc:  # its own callers hear of it
                loaded[table_id] = exc
        return loaded

    def _live(self, row: GameTable, seat_rows: list[Any], event_rows: list[Any],
              pace: float | None) -> LiveTable:
        """A table as held in memory, from its row, its seats' rows and its log's rows."""
        seats = [SeatInfo() for _ in range(row.players)]
        seeds: dict[int, str] = {}
        for seat in seat_rows:
            # a name without an account is a player from outside (a hosted table's seat)
            name = seat.account_name if seat.account_id is not None else seat.name
            seats[seat.seat] = SeatInfo(seat.account_id, name, seat.bot)
            if seat.client_seed is not None:
                seeds[int(seat.seat)] = str(seat.client_seed)
        if row.contributions is not None:  # the seeds as dealt once it started
            seeds = {int(c["seat"]): str(c["seed"]) for c in row.contributions}
        game = game_from_json({"game": row.game, "preset": row.preset,
                               "players": row.players, "rules": row.rules})
        live = LiveTable(id=row.id, game=game, owner_id=row.owner_id, seats=seats,
                         status=row.status, seed=bytes.fromhex(row.server_seed),
                         client_seed=row.client_seed, clock=row.clock,
                         seconds_per_move=row.seconds_per_move, on_timeout=row.on_timeout,
                         forfeit_seat=row.forfeit_seat, outcome=row.outcome,
                         source=row.source, seeds=seeds, pace=pace)
        if row.status != "open":
            live.table = self._replay(live, [row_event(e) for e in event_rows])
        if event_rows:
            at = event_rows[-1].at
            live.last_move_at = (at if at.tzinfo else at.replace(tzinfo=UTC)).timestamp()
        return live

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
