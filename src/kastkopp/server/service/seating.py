"""Seating: making a table, taking and leaving seats, seeds for the dice, the start.

The server's seed is committed when the table is made; the seated people add theirs
before the start (bots add none: the server plays them), and the first dice are dealt
with the table's new status.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from kastkopp.dice import CommitRevealDice
from kastkopp.engine import Table
from kastkopp.server.service.live import (
    CLOCKS,
    TIMEOUT_RULES,
    LiveTable,
    SeatInfo,
    TableError,
    check_rules,
    check_seed,
)
from kastkopp.server.service.play import Play
from kastkopp.store import Account, GameTable, Seat, TableSetting
from kastkopp.store.log_writer import event_row
from kastkopp.strategy import check_bot

MAX_PACE = 5.0  # seconds: slower than that a table of bots is a wait, not a game


def seated_bot(game: str, spec: str) -> str:
    """A bot as the server seats it (``bot:ismcts:sims=150`` → ``ismcts:sims=150``): one of
    the game's, its budget within the server's caps, else a :class:`RuleError` saying why."""
    return check_bot(game, spec, capped=True)


class Seating(Play):
    """Tables from their making to their first dice."""

    def create(self, owner: Account, game_name: str, preset: str | None,
               rules: dict[str, Any], players: int | None, seats: list[str | None],
               clock: str, seconds_per_move: int | None, on_timeout: str,
               client_seed: str | None, sit: bool, pace: float | None = None) -> str:
        """Create a table (runs in a worker thread). Returns its id.

        Its server seed is committed here, before anybody's seed is known: the seated
        people add theirs afterwards (:meth:`contribute`), so ``client_seed`` is refused."""
        if client_seed is not None:
            raise TableError("a seed is added once the table is made and its dice commitment "
                             "is public: send it when you join or start the table, or on its own")
        game = check_rules(game_name, preset, rules, players)
        seconds_per_move = check_timing(clock, seconds_per_move, on_timeout, pace)
        if len(seats) > game.players:
            raise TableError("{given} seats given for {players} players", given=len(seats),
                             players=game.players)
        infos = [SeatInfo() for _ in range(game.players)]
        for index, spec in enumerate(seats):
            if spec is None or spec == "":
                continue
            infos[index].bot = seated_bot(game.name, spec)
        if sit:
            free = next((i for i, s in enumerate(infos) if s.empty), None)
            if free is None:
                raise TableError("every seat has a bot; leave one free to sit down")
            infos[free] = SeatInfo(owner.id, owner.name)
        table_id = secrets.token_urlsafe(8)[:10]
        seed = secrets.token_bytes(32)
        with self.store.session() as session:
            session.add(GameTable(id=table_id, game=game.name, preset=preset,
                                  rules=game.rules.to_json(), players=game.players,
                                  status="open", owner_id=owner.id, server_seed=seed.hex(),
                                  seed_sha256=CommitRevealDice(server_seed=seed).commitment,
                                  client_seed="", clock=clock,
                                  seconds_per_move=seconds_per_move, on_timeout=on_timeout))
            session.flush()
            if pace is not None:
                session.add(TableSetting(table_id=table_id, pace=pace))
            for index, info in enumerate(infos):
                if not info.empty:
                    session.add(Seat(table_id=table_id, seat=index,
                                     account_id=info.account_id, bot=info.bot))
        return table_id

    async def join(self, table_id: str, account: Account, seat: int | None,
                   seed: str | None = None) -> LiveTable:
        """Sit down at an open table, adding ``seed`` to its dice if given."""
        check_seed(seed)
        live = await self.get(table_id)
        async with live.lock:
            if self.publish is not None:  # another process may have seated someone
                await self._catch_up(live)
            if live.status != "open":
                raise TableError("the game has started; you can watch it")
            if live.seat_of(account.id) is not None:
                raise TableError("you already sit in seat {seat}", seat=live.seat_of(account.id))
            free = [i for i, s in enumerate(live.seats) if s.empty]
            if not free:
                raise TableError("the table is full")
            if seat is None:
                seat = free[0]
            if seat not in free:
                raise TableError("seat {seat} is not free (free: {free})", seat=seat,
                                 free=", ".join(map(str, free)))
            await asyncio.to_thread(self._save_seat, live.id, seat, account.id, None)
            live.seats[seat] = SeatInfo(account.id, account.name)
            if seed is not None and live.shared_dice:
                await asyncio.to_thread(self._save_seed, live.id, seat, seed)
                live.seeds[seat] = seed
        self._changed(live)
        return live

    async def contribute(self, table_id: str, account: Account, seed: Any) -> LiveTable:
        """The account's seat adds its seed to the dice (or replaces it) before the start."""
        check_seed(seed, required=True)
        live = await self.get(table_id)
        async with live.lock:
            seat = live.seat_of(account.id)
            if seat is None:
                raise TableError("you have no seat at this table")
            if live.status != "open":
                raise TableError("the game has already started")
            if not live.shared_dice:
                raise TableError("this table's dice were made without seeds from its players")
            await asyncio.to_thread(self._save_seed, live.id, seat, seed)
            live.seeds[seat] = seed
            ready = not live.seeds_missing()
        self._changed(live)
        if ready and self.on_ready is not None:
            await self.on_ready(live.id)
        return live

    def _save_seed(self, table_id: str, seat: int, seed: str) -> None:
        with self.store.session() as session:
            row = session.scalar(select(Seat).where(Seat.table_id == table_id,
                                                    Seat.seat == seat))
            if row is not None:
                row.client_seed = seed

    async def leave(self, table_id: str, account: Account) -> LiveTable:
        live = await self.get(table_id)
        async with live.lock:
            seat = live.seat_of(account.id)
            if seat is None:
                raise TableError("you have no seat at this table")
            if live.status != "open":
                raise TableError("the game has started; a seat can only be left before")
            await asyncio.to_thread(self._save_seat, live.id, seat, None, None)
            live.seats[seat] = SeatInfo()
            live.seeds.pop(seat, None)
        self._changed(live)
        return live

    async def seat_bot(self, table_id: str, account: Account, seat: int,
                       bot: str) -> LiveTable:
        live = await self.get(table_id)
        async with live.lock:
            if live.owner_id != account.id:
                raise TableError("only the table's creator seats bots")
            if live.status != "open":
                raise TableError("the game has started")
            if not 0 <= seat < live.game.players or not live.seats[seat].empty:
                raise TableError("seat {seat} is not an empty seat", seat=seat)
            name = seated_bot(live.game.name, bot)
            await asyncio.to_thread(self._save_seat, live.id, seat, None, name)
            live.seats[seat] = SeatInfo(bot=name)
        self._changed(live)
        return live

    def _save_seat(self, table_id: str, seat: int, account_id: int | None,
                   bot: str | None) -> None:
        with self.store.session() as session:
            row = session.scalar(select(Seat).where(Seat.table_id == table_id,
                                                    Seat.seat == seat))
            if account_id is None and bot is None:
                if row is not None:
                    session.delete(row)
                return
            if row is None:
                session.add(Seat(table_id=table_id, seat=seat, account_id=account_id,
                                 bot=bot))
            else:
                row.account_id, row.bot = account_id, bot

    async def start(self, table_id: str, account: Account,
                    fill_bot: str | None = None, seed: str | None = None) -> LiveTable:
        """Start the game: empty seats get ``fill_bot`` (or the start is refused), and
        every seated person must have added a seed (``seed``: the creator's own, now)."""
        check_seed(seed)
        live = await self.get(table_id)
        async with live.lock:
            if self.publish is not None:  # another process may have seated someone
                await self._catch_up(live)
            if live.owner_id != account.id:
                raise TableError("only the table's creator starts the game")
            if live.status != "open":
                raise TableError("the game has already started")
            mine = live.seat_of(account.id)
            if seed is not None and mine is None:
                raise TableError("you have no seat at this table")
            given = seed is not None and mine is not None and live.shared_dice
            if missing := [i for i in live.seeds_missing() if not (given and i == mine)]:
                raise TableError("the dice wait for a seed from {names}",
                                 names=", ".join(live.seats[i].label(i) for i in missing))
            empty = [i for i, s in enumerate(live.seats) if s.empty]
            if empty and fill_bot is None:
                raise TableError("seat {seats} is empty: invite someone, seat a bot, or start "
                                 "with 'fill' naming a bot", seats=", ".join(map(str, empty)))
            name = seated_bot(live.game.name, fill_bot or "") if empty else ""
            if given:
                assert seed is not None and mine is not None
                await asyncio.to_thread(self._save_seed, live.id, mine, seed)
                live.seeds[mine] = seed
            if empty:
                for seat in empty:
                    await asyncio.to_thread(self._save_seat, live.id, seat, None, name)
                    live.seats[seat] = SeatInfo(bot=name)
            await self._deal(live)
        self._started(live)
        return live

    async def begin(self, table_id: str) -> LiveTable:
        """Start a table whose seats are all taken (the tables a series makes)."""
        live = await self.get(table_id)
        async with live.lock:
            if live.status != "open":
                return live
            if missing := live.seeds_missing():
                # it starts when the last of them adds a seed (see on_ready)
                for seat in missing:
                    account_id = live.seats[seat].account_id
                    assert account_id is not None
                    self._notify_account(account_id, {
                        "type": "seedWanted", "table": live.id, "seat": seat,
                        "seed_sha256": live.commitment})
                return live
            await self._deal(live)
        self._started(live)
        return live

    async def _deal(self, live: LiveTable) -> None:
        """The first dice of a game, committed with the table's new status."""
        table = Table(live.game, seats=[s.label(i) for i, s in enumerate(live.seats)],
                      dice=live.dice())
        values: dict[str, Any] = {"status": "playing", "started_at": datetime.now(UTC)}
        if live.shared_dice:  # the seeds as dealt, whatever a seat's row says later
            values["contributions"] = [c.to_json() for c in live.contributions()]
        values.update(self._finish_values(table.state))
        await self.writer.append(live.id, [event_row(e) for e in table.events], values)
        live.table = table
        live.status = values["status"]
        live.outcome = values.get("outcome")
        live.last_move_at = time.time()

    def _started(self, live: LiveTable) -> None:
        self._tell_started(live)
        if self.publish is not None:
            self.publish({"table": live.id, "seq": live.seq, "start": True})
        self._after_change(live, drive_bots=True)


def check_timing(clock: str, seconds_per_move: int | None, on_timeout: str,
                 pace: float | None) -> int | None:
    """A new table's clock, timeout rule and pace checked; the seconds per move it keeps
    (none without a clock)."""
    if clock not in CLOCKS:
        raise TableError("the clock is one of {clocks}, not '{clock}'",
                         clocks=", ".join(CLOCKS), clock=clock)
    if on_timeout not in TIMEOUT_RULES:
        raise TableError("on a timeout the table either plays a 'move' for the player "
                         "or the player will 'lose'; not '{rule}'", rule=on_timeout)
    if pace is not None and not 0 <= pace <= MAX_PACE:
        raise TableError("the pace is 0 to {most} seconds before each bot's move",
                         most=MAX_PACE)
    if clock == "none":
        return None
    if seconds_per_move is None or not 1 <= seconds_per_move <= 60 * 86400:
        raise TableError("a clock needs 1 second to 60 days per move")
    return seconds_per_move
