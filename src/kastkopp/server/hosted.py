"""Hosted tables: games played somewhere else (a Mäxchen server), shown here.

A hosted table's driver reports each move here, the engine checks it and rolls the dice
from the same seed as the driver, and the table is stored, streamed and replayed like any
other. Nobody here moves. :mod:`kastkopp.interop.maexchen_web` drives them; the server
knows nothing of where they come from but the ``source`` it is given.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from datetime import UTC, datetime

from sqlalchemy import select

from kastkopp.dice import CommitRevealDice, seed_commitment
from kastkopp.engine import Game, IllegalAction
from kastkopp.server.service.live import LiveTable, SeatInfo, TableError
from kastkopp.server.service.seating import Seating
from kastkopp.store import GameTable, Seat
from kastkopp.store.log_writer import event_row


class Hosted(Seating):
    """Watch-only tables whose moves come from outside."""

    async def host(self, game: Game, seats: list[str], source: str,
                   dice: CommitRevealDice) -> LiveTable:
        """A watch-only table for a game being played by ``source`` with these dice."""
        if len(seats) != game.players:
            raise TableError("{given} seats given for {players} players", given=len(seats),
                             players=game.players)
        # stored as they are, or the rolls and the seats' names would not be the driver's
        if len(dice.client_seed) > 64 or any(len(name) > 40 for name in seats):
            raise TableError("a hosted table's client seed is at most 64 characters and its "
                             "players' names at most 40")
        seed, client_seed = dice.server_seed, dice.client_seed
        table_id = await asyncio.to_thread(self._save_hosted, game, seats, source, seed,
                                           client_seed)
        live = LiveTable(id=table_id, game=game, owner_id=None,
                         seats=[SeatInfo(name=name) for name in seats], status="open",
                         seed=seed, client_seed=client_seed, source=source)
        async with live.lock:
            self.tables[table_id] = live
            await self._deal(live)
        self._started(live)
        return live

    def _save_hosted(self, game: Game, seats: list[str], source: str, seed: bytes,
                     client_seed: str) -> str:
        table_id = secrets.token_urlsafe(8)[:10]
        with self.store.session() as session:
            session.add(GameTable(id=table_id, game=game.name, preset=game.preset,
                                  rules=game.rules.to_json(), players=game.players,
                                  status="open", owner_id=None, server_seed=seed.hex(),
                                  seed_sha256=seed_commitment(seed), client_seed=client_seed,
                                  source=source))
            session.flush()
            for index, name in enumerate(seats):
                session.add(Seat(table_id=table_id, seat=index, name=name))
        return table_id

    async def _hosted(self, table_id: str) -> LiveTable:
        live = await self.get(table_id)
        if live.source is None:
            raise TableError("this table is played here; its moves cannot come from outside")
        return live

    async def hosted_act(self, table_id: str, seat: int, action: str) -> int:
        """A move made at a hosted table's source; checked, stored and streamed."""
        live = await self._hosted(table_id)
        return await self.act(table_id, None, action, live.seq, as_bot=seat)

    async def hosted_penalty(self, table_id: str, seat: int, reason: str) -> int:
        """A seat lost at a hosted table outside the rules (time, a refused answer)."""
        live = await self._hosted(table_id)
        async with live.lock:
            table = live.table
            if table is None or live.status != "playing":
                raise IllegalAction("the game is not being played")
            move = table.preview(lambda t: t.penalize(seat, reason))
            values = self._finish_values(move.state)
            await self.writer.append(live.id, [event_row(e) for e in move.events],
                                     values or None)
            table.accept(move)
            if values:
                live.status, live.outcome = values["status"], values["outcome"]
            live.last_move_at = time.time()
        self._after_change(live, drive_bots=True)
        return live.seq

    async def end_hosted(self, source: str, idle: float) -> list[str]:
        """Close the hosted tables of ``source`` still playing but without a move for
        ``idle`` seconds (their driver stopped, or forgot them in a restart): over, with no
        outcome. Returns their ids."""
        def ids() -> list[str]:
            with self.store.session() as session:
                return list(session.scalars(select(GameTable.id).where(
                    GameTable.status == "playing", GameTable.source == source)))
        ended = []
        for table_id in await asyncio.to_thread(ids):
            live = await self.get(table_id)
            async with live.lock:
                if live.status != "playing" or time.time() - live.last_move_at < idle:
                    continue
                await self.writer.append(live.id, [], {"status": "over",
                                                       "finished_at": datetime.now(UTC)})
                live.status = "over"
            ended.append(table_id)
            self._after_change(live, drive_bots=False)
        return ended
