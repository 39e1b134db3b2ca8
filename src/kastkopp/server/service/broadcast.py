"""Telling watchers: each seat's frame after every change, and accounts' own events.

After a change every watcher of the table is sent its own seat's frame; an account's
event stream hears ``gameStart``, ``yourTurn``, ``seedWanted`` and ``gameFinish``. With
several processes, each change is published and the others catch up
(:meth:`Broadcasting.remote_change`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from kastkopp.server import operations
from kastkopp.server.service.cache import TableCache
from kastkopp.server.service.live import LiveTable, Watcher
from kastkopp.server.wire import dumps
from kastkopp.store import GameTable, Seat


class Broadcasting(TableCache):
    """Watchers of tables and of accounts, and what they are told after a change."""

    def watch(self, live: LiveTable, seat: int | None) -> Watcher:
        watcher = Watcher(seat)
        live.watchers.add(watcher)
        watcher.send(live.frame_text(seat))
        return watcher

    def unwatch(self, live: LiveTable, watcher: Watcher) -> None:
        live.watchers.discard(watcher)
        self._forget_if_unwatched(live)

    def _forget_if_unwatched(self, live: LiveTable) -> None:
        """A finished table nobody watches leaves memory; the database still has it all."""
        if live.status == "over" and not live.watchers and \
                self.tables.get(live.id) is live:
            del self.tables[live.id]

    def watch_account(self, account_id: int) -> Watcher:
        watcher = Watcher(None)
        self.account_watchers.setdefault(account_id, set()).add(watcher)
        return watcher

    def unwatch_account(self, account_id: int, watcher: Watcher) -> None:
        watchers = self.account_watchers.get(account_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self.account_watchers[account_id]

    def _notify_account(self, account_id: int, event: dict[str, Any]) -> None:
        watchers = self.account_watchers.get(account_id)
        if watchers:
            text = dumps(event)
            for watcher in watchers:
                watcher.send(text)

    def _changed(self, live: LiveTable) -> None:
        """Lobby changes (seats): tell the watchers and other processes."""
        self._broadcast(live)
        if self.publish is not None:
            self.publish({"table": live.id, "seq": live.seq})

    def _broadcast(self, live: LiveTable) -> None:
        for watcher in list(live.watchers):
            watcher.send(live.frame_text(watcher.seat))

    def _after_change(self, live: LiveTable, drive_bots: bool,
                      events: list[dict[str, Any]] | None = None) -> None:
        """Tell everybody of a change; ``events``, the new log events of a move that left
        the game on, go with the announcement so the other processes need not read them."""
        self._broadcast(live)
        if drive_bots and self.publish is not None:
            message: dict[str, Any] = {"table": live.id, "seq": live.seq}
            if events:
                message["events"] = events
            self.publish(message)
        if live.status == "over":
            for index, seated in enumerate(live.seats):
                if seated.account_id is not None:
                    self._notify_account(seated.account_id, {
                        "type": "gameFinish", "table": live.id, "seat": index,
                        "outcome": live.outcome, "server_seed": live.seed.hex()})
            if drive_bots and self.on_finish is not None:
                self.spawn(self.on_finish(live.id))
            self._forget_if_unwatched(live)
            return
        seat = live.to_move()
        if seat is None:
            return
        info = live.seats[seat]
        if info.bot is not None:
            if drive_bots:
                self.spawn(self._bot_move(live, live.seq))
        elif info.account_id is not None:
            self._notify_account(info.account_id, {
                "type": "yourTurn", "table": live.id, "seat": seat, "seq": live.seq,
                "deadline": live.deadline})

    def _tell_started(self, live: LiveTable) -> None:
        for index, info in enumerate(live.seats):
            if info.account_id is not None:
                self._notify_account(info.account_id, {
                    "type": "gameStart", "table": live.id, "game": live.game.name,
                    "seat": index, "seed_sha256": live.commitment})

    async def remote_change(self, table_id: str, started: bool = False,
                            events: list[dict[str, Any]] | None = None) -> None:
        """Another process changed a table: catch up (from the ``events`` it announced,
        else from the log) and tell this process's watchers."""
        live = self.tables.get(table_id)
        if live is None:
            if not self.account_watchers:
                return
            live = await self.get(table_id)
            if not any(info.account_id in self.account_watchers for info in live.seats):
                del self.tables[table_id]  # nobody here cares about this table
                return
            if started:
                self._tell_started(live)
            self._after_change(live, drive_bots=False)
            return
        async with live.lock:
            seq, status = live.seq, live.status
            if not (events and operations.follow_announced(live, events)):
                await self._catch_up(live)
        if (live.seq, live.status) != (seq, status) or status == "open":
            if status == "open" and live.status == "playing":
                self._tell_started(live)
            self._after_change(live, drive_bots=False)

    def tables_of(self, account_id: int) -> list[tuple[str, int]]:
        """(table, seat) for every table being played where the account sits."""
        with self.store.session() as session:
            rows = session.execute(
                select(Seat.table_id, Seat.seat).join(GameTable, GameTable.id == Seat.table_id)
                .where(Seat.account_id == account_id, GameTable.status == "playing"))
            return [(str(t), int(s)) for t, s in rows]
