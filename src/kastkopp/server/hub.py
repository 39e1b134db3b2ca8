"""The hub: live tables in memory, their logs in the database, and who is watching.

Every table being played is an :class:`kastkopp.engine.Table` folded from its log. A move
goes through :meth:`Hub.act`, under the table's lock:

1. the seat must be the mover's and the sequence number the one the client saw (the
   length of the log), so a stale or repeated action is refused and changes nothing;
2. the engine applies it (an illegal action raises with the game's own message);
3. the new log events are written and committed (:class:`LogWriter` groups the commits of
   many tables into one transaction, so durability costs one disk flush per batch);
4. only then is the move acknowledged and each watcher sent its own seat's view.

If the write fails because another process wrote that sequence number first (two servers
on one PostgreSQL), the table is reloaded from the database and the action is refused as
stale: the unique ``(table_id, seq)`` key is the arbiter. With Redis, each commit is
announced on a channel and the other processes catch up from the database.

Nothing here knows any game: the server speaks only the protocol of :mod:`kastkopp.engine`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import random
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from kastkopp.dice import (
    CommitRevealDice,
    Contribution,
    hmac_sha256,
    is_client_seed,
    seed_commitment,
)
from kastkopp.engine import (
    Game,
    IllegalAction,
    KastkoppError,
    Player,
    RuleError,
    State,
    Table,
    forfeit_outcome,
    game_from_json,
    load,
    seen_by,
    term,
)
from kastkopp.server.wire import dumps
from kastkopp.server.workers import Busy, Workers
from kastkopp.store import Account, GameTable, LogEvent, Seat, Store
from kastkopp.strategy import bot_names, make_bot
from kastkopp.strategy.work import cheap_choice, work_for

log = logging.getLogger("kastkopp.server")

CLOCKS = ("none", "live", "correspondence")
TIMEOUT_RULES = ("move", "lose")
KEEPALIVE = 7.0  # seconds between keep-alive lines on NDJSON streams
# Bots alone at a table move one at a time, at least this long apart and at least
# BOT_PACE_FACTOR times as long as the last one thought: a table of ten strong bots
# shares the event loop with everybody instead of playing its whole game at once.
BOT_PACE = 0.02
BOT_PACE_FACTOR = 4.0
BOT_WAIT = 5.0  # seconds a bot waits for its solve before playing its cheap choice
FINISHED_KEPT = 64  # finished tables read again, kept in memory (least recently used out)


class TableError(KastkoppError):
    """A table operation that cannot be done now (full, started, not yours...)."""


SQLITE_INSERT = ("INSERT INTO log_events (table_id, seq, kind, seat, action, nonce, faces, at) "
                 "VALUES ")
SQLITE_ROW = "(?, ?, ?, ?, ?, ?, ?, ?)"
SQLITE_ROWS_PER_STATEMENT = 4000  # at most; fewer where the SQLite takes fewer parameters
SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"  # SQLAlchemy's storage format for DateTime on SQLite


@functools.cache
def sqlite_insert(rows: int) -> str:
    """One INSERT of ``rows`` log rows (a statement per batch size, kept by SQLite's cache)."""
    return SQLITE_INSERT + ", ".join([SQLITE_ROW] * rows)


class StaleAction(IllegalAction):
    """An action sent for a position that is no longer the table's (seen too late, or twice)."""


class WriteConflict(Exception):
    """Another writer committed this sequence number first."""


# --------------------------------------------------------------------------- writing


@dataclass
class _Write:
    table_id: str
    rows: list[dict[str, Any]]
    table_values: dict[str, Any] | None
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[None]
    error: BaseException | None = None


class LogWriter:
    """One thread that commits log events, many tables' events per transaction.

    :meth:`append` returns once the rows are committed (or raises :class:`WriteConflict`).
    """

    def __init__(self, store: Store, max_batch: int = 512) -> None:
        self.store = store
        self.max_batch = max_batch
        # A file database gets a connection of the writer's own, held open and out of the
        # pool, in autocommit mode: each statement is its own transaction. An in-memory
        # one is a single connection shared by everybody, so it goes through SQLAlchemy.
        self._sqlite: sqlite3.Connection | None = None
        self.rows_per_statement = SQLITE_ROWS_PER_STATEMENT
        if store.is_sqlite_file:
            pooled = store.engine.raw_connection()
            connection = pooled.driver_connection
            assert isinstance(connection, sqlite3.Connection)
            pooled.detach()
            connection.isolation_level = None
            self._sqlite = connection
            # 32,766 parameters since SQLite 3.32, 999 before
            self.rows_per_statement = max(1, min(SQLITE_ROWS_PER_STATEMENT, connection.getlimit(
                sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // SQLITE_ROW.count("?")))
        self.queue: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="kastkopp-log-writer",
                                       daemon=True)
        self.thread.start()

    async def append(self, table_id: str, rows: list[dict[str, Any]],
                     table_values: dict[str, Any] | None = None) -> None:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self.queue.put(_Write(table_id, rows, table_values, loop, future))
        await future

    def close(self) -> None:
        self.queue.put(None)
        self.thread.join(timeout=10)
        if self._sqlite is not None and not self.thread.is_alive():
            self._sqlite.close()

    def _run(self) -> None:
        while True:
            first = self.queue.get()
            if first is None:
                return
            batch = [first]
            while len(batch) < self.max_batch:
                try:
                    item = self.queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    self.queue.put(None)
                    break
                batch.append(item)
            try:
                self._commit(batch)
            except IntegrityError:
                # Somebody else wrote one of these places: find which, one at a time.
                for item in batch:
                    try:
                        self._commit([item])
                    except IntegrityError:
                        item.error = WriteConflict(item.table_id)
                    except Exception as exc:  # the database is down: refuse, keep running
                        item.error = exc
            except Exception as exc:
                for item in batch:
                    item.error = exc
            # One wake-up of each event loop for the whole batch, not one per move.
            loops: dict[asyncio.AbstractEventLoop, list[_Write]] = {}
            for item in batch:
                loops.setdefault(item.loop, []).append(item)
            for loop, items in loops.items():
                # RuntimeError: that loop has closed, and nobody waits any more.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_settle_all, items)

    def _commit(self, batch: list[_Write]) -> None:
        at = datetime.now(UTC)
        if self._sqlite is not None and not any(item.table_values for item in batch):
            self._commit_sqlite(batch, at)
            return
        with self.store.engine.begin() as connection:
            rows = [{**row, "table_id": item.table_id, "at": at}
                    for item in batch for row in item.rows]
            if rows:
                connection.execute(insert(LogEvent), rows)
            for item in batch:
                if item.table_values:
                    connection.execute(update(GameTable)
                                       .where(GameTable.id == item.table_id)
                                       .values(**item.table_values))

    def _commit_sqlite(self, batch: list[_Write], at: datetime) -> None:
        """The moves of a batch straight through the driver, as SQLAlchemy would store
        them: one INSERT of every row on the writer's own connection, a transaction by
        itself. SQLite is entered once per batch, not once per row, and the writer asks
        for the interpreter's lock back once, not at every step, which under load is
        what delays a commit most."""
        connection = self._sqlite
        assert connection is not None
        stamp = at.strftime(SQLITE_TIME)
        values = [(item.table_id, row["seq"], row["kind"], row["seat"], row["action"],
                   row["nonce"], faces_json(row["faces"]), stamp)
                  for item in batch for row in item.rows]
        size = self.rows_per_statement
        chunks = [values[start:start + size] for start in range(0, len(values), size)]
        try:
            if len(chunks) > 1:
                connection.execute("BEGIN IMMEDIATE")
            for chunk in chunks:
                connection.execute(sqlite_insert(len(chunk)),
                                   [value for row in chunk for value in row])
            if len(chunks) > 1:
                connection.execute("COMMIT")
        except sqlite3.Error as exc:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            if isinstance(exc, sqlite3.IntegrityError):
                raise IntegrityError(SQLITE_INSERT, None, exc) from exc
            raise


def faces_json(faces: list[int] | None) -> str:
    """``json.dumps(faces)`` as SQLAlchemy stores a JSON column, written out for the few
    whole numbers a roll has (the writer does it for every roll of every batch)."""
    if faces is None:
        return "null"
    return "[" + ", ".join([str(face) for face in faces]) + "]"


def _settle_all(items: list[_Write]) -> None:
    for item in items:
        if item.future.done():
            continue
        if item.error is None:
            item.future.set_result(None)
        else:
            item.future.set_exception(item.error)


_MASK64 = (1 << 64) - 1


class BotRandom(random.Random):
    """A :class:`random.Random` on SplitMix64: seeded at once, where the Mersenne
    Twister's seeding fills 624 words, for each of the thousands of bot moves a second.

    A bot's choice needs a few numbers of good quality, not a long period. Every method
    of ``random.Random`` (``choice``, ``shuffle``, ``random``, ``gauss``...) works on it.
    """

    def seed(self, a: Any = None, version: int = 2) -> None:
        """An integer seed (``None``: one from the operating system)."""
        self._state = (secrets.randbits(64) if a is None else int(a)) & _MASK64

    def _next64(self) -> int:
        self._state = state = (self._state + 0x9E3779B97F4A7C15) & _MASK64
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def random(self) -> float:
        return (self._next64() >> 11) * (1.0 / (1 << 53))

    def getrandbits(self, k: int) -> int:
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        bits, have = 0, 0
        while have < k:
            bits, have = (bits << 64) | self._next64(), have + 64
        return bits >> (have - k)

    def getstate(self) -> Any:
        return self._state

    def setstate(self, state: Any) -> None:
        self._state = int(state) & _MASK64


def bot_rng(server_seed: bytes, seq: int) -> random.Random:
    """The bots' dice of thought at one position of a table.

    Keyed by the table's server seed, which nobody outside the server knows until the game
    is over (when every cup is lifted anyway): an opponent who could compute a bot's random
    choices could read its hidden dice from what it says. The seed is stored with the table,
    so every process driving the bot chooses alike.
    """
    digest = hmac_sha256(server_seed, b"bot-choice:%d" % seq)
    return BotRandom(int.from_bytes(digest[:8], "big"))


@dataclass
class Tentative:
    """What a move did to a table, not yet shown to anybody: the new events and position."""

    events: list[dict[str, Any]]
    state: State
    nonce: int
    forfeited: int | None = None

    def apply_to(self, table: Table) -> None:
        """Make the move part of the table (once it is committed)."""
        table.events.extend(self.events)
        table.state = self.state
        table.dice.nonce = self.nonce
        table.forfeited = self.forfeited


def tentatively(table: Table, play: Callable[[Table], object]) -> Tentative:
    """Run ``play`` on the table and take it back: the table is as before, the move returned.

    Unlike a copy of the table this costs nothing for the length of the log, and it runs
    without a pause, so nobody can see the table in between.
    """
    before, state, nonce = len(table.events), table.state, table.dice.nonce
    forfeited = table.forfeited
    try:
        play(table)
        return Tentative(table.events[before:], table.state, table.dice.nonce,
                         table.forfeited)
    finally:
        del table.events[before:]
        table.state, table.dice.nonce, table.forfeited = state, nonce, forfeited


def event_row(event: dict[str, Any]) -> dict[str, Any]:
    """An engine log event as a ``log_events`` row."""
    if event["type"] == "roll":
        return {"seq": event["seq"], "kind": "roll", "seat": event["seat"],
                "nonce": event["nonce"], "faces": list(event["faces"]), "action": None}
    if event["type"] == "penalty":  # the reason is kept where an action's text goes
        return {"seq": event["seq"], "kind": "penalty", "seat": event["seat"],
                "action": event["reason"], "nonce": None, "faces": None}
    if event["type"] == "forfeit":
        return {"seq": event["seq"], "kind": "forfeit", "seat": event["seat"],
                "action": None, "nonce": None, "faces": None}
    return {"seq": event["seq"], "kind": "action", "seat": event["seat"],
            "action": event["action"], "nonce": None, "faces": None}


def row_event(row: LogEvent) -> dict[str, Any]:
    if row.kind == "roll":
        return {"seq": row.seq, "type": "roll", "seat": row.seat, "nonce": row.nonce,
                "faces": list(row.faces or [])}
    if row.kind == "forfeit":
        return {"seq": row.seq, "type": "forfeit", "seat": row.seat}
    if row.kind == "penalty":
        return {"seq": row.seq, "type": "penalty", "seat": row.seat, "reason": row.action}
    return {"seq": row.seq, "type": "action", "seat": row.seat, "action": row.action}


# --------------------------------------------------------------------------- live tables


@dataclass
class SeatInfo:
    account_id: int | None = None
    name: str | None = None
    bot: str | None = None

    @property
    def empty(self) -> bool:
        # a name without an account is a player from outside (a hosted table's seat)
        return self.account_id is None and self.bot is None and self.name is None

    def label(self, seat: int) -> str:
        if self.bot is not None:
            return f"bot:{self.bot}"
        return self.name or f"seat {seat + 1}"

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "account": self.account_id}


@dataclass(eq=False)
class Watcher:
    """A WebSocket or NDJSON stream that receives one seat's frames (``None``: spectator)."""

    seat: int | None
    queue: asyncio.Queue[str | None] = field(default_factory=asyncio.Queue)

    def send(self, text: str | None) -> None:
        self.queue.put_nowait(text)


@dataclass(eq=False)
class LiveTable:
    id: str
    game: Game
    owner_id: int | None
    seats: list[SeatInfo]
    status: str
    seed: bytes
    client_seed: str
    clock: str = "none"
    seconds_per_move: int | None = None
    on_timeout: str = "move"
    forfeit_seat: int | None = None
    outcome: dict[str, Any] | None = None
    table: Table | None = None
    last_move_at: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: set[Watcher] = field(default_factory=set)
    bots: dict[int, Player] = field(default_factory=dict)
    bot_thought: float = 0.0  # processor seconds the last bot move took (for the pace)
    # who drives a hosted table (e.g. "Mäxchen"); None for the server's own tables
    source: str | None = None
    # The seed each seated person added to the dice after the commitment, by seat.
    seeds: dict[int, str] = field(default_factory=dict)
    # Frames as sent, per seat, for the position they were made in (see frame_text).
    _frames: dict[int | None, str] = field(default_factory=dict, repr=False)
    _frames_of: tuple[Any, ...] = field(default=(), repr=False)

    @property
    def seq(self) -> int:
        return 0 if self.table is None else len(self.table.events)

    @functools.cached_property
    def commitment(self) -> str:
        """The SHA-256 of the dice seed, public from the start."""
        return seed_commitment(self.seed)

    # -- the dice ------------------------------------------------------------------------
    # The server's seed is committed when the table is made; the client seed is made of
    # the seeds the seated people add afterwards (bots add none: the server plays them).
    # A hosted table's driver gives its client seed whole, and tables made before
    # contributions keep the one client seed they were made with.
    @property
    def shared_dice(self) -> bool:
        return self.source is None and not self.client_seed

    def contributions(self) -> list[Contribution]:
        return [Contribution(seat, self.seats[seat].label(seat), seed)
                for seat, seed in sorted(self.seeds.items())]

    def seeds_missing(self) -> list[int]:
        """The seats of people who have not yet added their seed (the game waits for them)."""
        if not self.shared_dice:
            return []
        return [i for i, s in enumerate(self.seats)
                if s.account_id is not None and i not in self.seeds]

    def dice(self) -> CommitRevealDice:
        if not self.shared_dice:
            return CommitRevealDice(server_seed=self.seed, client_seed=self.client_seed)
        return CommitRevealDice.shared(self.seed, self.contributions())

    def seat_of(self, account_id: int | None) -> int | None:
        if account_id is None:
            return None
        for index, seat in enumerate(self.seats):
            if seat.account_id == account_id:
                return index
        return None

    def to_move(self) -> int | None:
        if self.status != "playing" or self.table is None:
            return None
        return self.table.state.to_move()

    @property
    def deadline(self) -> float | None:
        if self.seconds_per_move is None:  # most tables: no clock, nothing to work out
            return None
        seat = self.to_move()
        if seat is None or self.seats[seat].bot:
            return None
        return self.last_move_at + self.seconds_per_move

    def bot(self, seat: int) -> Player:
        if seat not in self.bots:
            self.bots[seat] = make_bot(self.game, self.seats[seat].bot or "random")
        return self.bots[seat]

    @property
    def bots_only(self) -> bool:
        """Nobody but bots sits here (nobody waits for their moves either)."""
        return all(info.bot is not None for info in self.seats)

    # -- what clients see --------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        """The table as the lobby shows it: public to everybody."""
        data: dict[str, Any] = {
            "id": self.id, "game": self.game.name, "title": self.game.title,
            "preset": self.game.preset, "players": self.game.players,
            "rules": self.game.rules.changed(), "status": self.status,
            "seats": [s.to_json() for s in self.seats], "seq": self.seq,
            "to_move": self.to_move(), "clock": self.clock,
            "seconds_per_move": self.seconds_per_move, "on_timeout": self.on_timeout,
            "deadline": self.deadline, "seed_sha256": self.commitment,
            "client_seed": self.client_seed, "invite": f"/play/{self.id}",
            "source": self.source,
        }
        if self.shared_dice:
            data["contributions"] = [c.to_json() for c in self.contributions()]
            data["seeds_missing"] = self.seeds_missing()
        if self.status == "over":
            data["server_seed"] = self.seed.hex()
            data["outcome"] = self.outcome
            data["forfeit_seat"] = self.forfeit_seat
        return data

    def frame(self, seat: int | None) -> dict[str, Any]:
        """What one seat is sent after every change: its view and the public table facts."""
        frame: dict[str, Any] = {
            "type": "state", "table": self.id, "seq": self.seq, "status": self.status,
            "seat": seat, "seats": [s.label(i) for i, s in enumerate(self.seats)],
            "seed_sha256": self.commitment, "deadline": self.deadline,
            "to_move": None, "legal": [],
        }
        if self.source is not None:
            frame["source"] = self.source  # a hosted table: its moves come from outside
        if self.table is not None:
            state = self.table.state
            frame["to_move"] = state.to_move() if self.status == "playing" else None
            frame["view"] = state.view(seat)
            frame["legal"] = (state.legal_notations()
                              if seat is not None and frame["to_move"] == seat else [])
        if self.status == "over":
            frame["server_seed"] = self.seed.hex()
            frame["outcome"] = self.outcome
            frame["forfeit_seat"] = self.forfeit_seat
        return frame

    def frame_text(self, seat: int | None) -> str:
        """:meth:`frame` as JSON text, made once per position and seat however many
        watch it (spectators, a player on two devices, reconnects)."""
        key = (self.seq, self.status, self.deadline, self.forfeit_seat,
               tuple(s.label(i) for i, s in enumerate(self.seats)))
        if key != self._frames_of:
            self._frames, self._frames_of = {}, key
        text = self._frames.get(seat)
        if text is None:
            text = self._frames[seat] = dumps(self.frame(seat))
        return text

    def public_log(self) -> dict[str, Any]:
        """The log for anyone: complete with the seed once over; while playing, as a
        stranger sees it (:meth:`Table.events_seen_by`: no private faces, other seats'
        actions in their public notation)."""
        if self.table is None:
            raise TableError("the table has not started; there is no log yet")
        over = self.status == "over"
        data = self.table.to_json(reveal=over)
        data["table"] = self.id
        if self.forfeit_seat is not None:
            data["forfeit_seat"] = self.forfeit_seat
        if not over:
            data["events"] = seen_by(self.game, self.table.events, None)
        return data


# --------------------------------------------------------------------------- the hub


class Hub:
    """All live tables of this process, their watchers, bots and move clocks."""

    def __init__(self, store: Store, bot_delay: float = 0.0,
                 publish: Callable[[dict[str, Any]], None] | None = None,
                 workers: Workers | None = None) -> None:
        self.store = store
        self.writer = LogWriter(store)
        self.bot_delay = bot_delay
        # where bots' slow work (solves) is done; without, bots do it as they choose
        self.workers = workers
        self.bot_pace = BOT_PACE
        # finished tables loaded again (a replay, a lobby of results): the recent ones
        self.finished: OrderedDict[str, None] = OrderedDict()
        self.publish = publish
        # called with a table's id when a game ends here (the series move on)
        self.on_finish: Callable[[str], Any] | None = None
        # awaited with a table's id when its last seed came (a series table starts then)
        self.on_ready: Callable[[str], Any] | None = None
        self.tables: dict[str, LiveTable] = {}
        self.account_watchers: dict[int, set[Watcher]] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self._loading: dict[str, asyncio.Lock] = {}
        self.closed = False

    # -- lifecycle ---------------------------------------------------------------------
    async def resume(self) -> None:
        """Resume every table that was being played: bots move again, clocks run again."""
        ids = await asyncio.to_thread(self._playing_ids)
        for table_id in ids:
            live = await self.get(table_id)
            self._after_change(live, drive_bots=True)
        self._spawn(self._clock_loop())

    async def close(self) -> None:
        self.closed = True
        for task in list(self.tasks):
            task.cancel()
        for live in self.tables.values():
            for watcher in live.watchers:
                watcher.send(None)
        await asyncio.to_thread(self.writer.close)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _playing_ids(self) -> list[str]:
        with self.store.session() as session:
            return list(session.scalars(select(GameTable.id)
                                        .where(GameTable.status == "playing")))

    # -- loading -----------------------------------------------------------------------
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
                raise TableError("there is no table '{table}'", table=table_id)
            seats = self._seat_infos(session, row)
            events = [row_event(e) for e in session.scalars(
                select(LogEvent).where(LogEvent.table_id == table_id)
                .order_by(LogEvent.seq))]
            last = session.scalar(select(LogEvent.at).where(LogEvent.table_id == table_id)
                                  .order_by(LogEvent.seq.desc()).limit(1))
        game = game_from_json({"game": row.game, "preset": row.preset,
                               "players": row.players, "rules": row.rules})
        live = LiveTable(id=row.id, game=game, owner_id=row.owner_id, seats=seats,
                         status=row.status, seed=bytes.fromhex(row.server_seed),
                         client_seed=row.client_seed, clock=row.clock,
                         seconds_per_move=row.seconds_per_move, on_timeout=row.on_timeout,
                         forfeit_seat=row.forfeit_seat, outcome=row.outcome,
                         source=row.source, seeds=self._seeds_of(table_id, row))
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

    # -- creating and seating ------------------------------------------------------------
    def create(self, owner: Account, game_name: str, preset: str | None,
               rules: dict[str, Any], players: int | None, seats: list[str | None],
               clock: str, seconds_per_move: int | None, on_timeout: str,
               client_seed: str | None, sit: bool) -> str:
        """Create a table (runs in a worker thread). Returns its id.

        Its server seed is committed here, before anybody's seed is known: the seated
        people add theirs afterwards (:meth:`contribute`), so ``client_seed`` is refused."""
        if client_seed is not None:
            raise TableError("a seed is added once the table is made and its dice commitment "
                             "is public: send it when you join or start the table, or on its own")
        game = check_rules(game_name, preset, rules, players)
        if clock not in CLOCKS:
            raise TableError("the clock is one of {clocks}, not '{clock}'",
                             clocks=", ".join(CLOCKS), clock=clock)
        if on_timeout not in TIMEOUT_RULES:
            raise TableError("on a timeout the table either plays a 'move' for the player "
                             "or the player will 'lose'; not '{rule}'", rule=on_timeout)
        if clock == "none":
            seconds_per_move = None
        elif seconds_per_move is None or not 1 <= seconds_per_move <= 60 * 86400:
            raise TableError("a clock needs 1 second to 60 days per move")
        if len(seats) > game.players:
            raise TableError("{given} seats given for {players} players", given=len(seats),
                             players=game.players)
        infos = [SeatInfo() for _ in range(game.players)]
        known = bot_names(game.name)
        for index, spec in enumerate(seats):
            if spec is None or spec == "":
                continue
            name = spec.removeprefix("bot:")
            if name not in known:
                raise TableError("seat {seat}: no bot '{name}' for {game} (bots: {bots})",
                                 seat=index + 1, name=name, game=game.name,
                                 bots=", ".join(known))
            infos[index].bot = name
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
            name = bot.removeprefix("bot:")
            known = bot_names(live.game.name)
            if name not in known:
                raise TableError("no bot '{name}' for {game} (bots: {bots})", name=name,
                                 game=live.game.name, bots=", ".join(known))
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
            name = (fill_bot or "").removeprefix("bot:")
            known = bot_names(live.game.name)
            if empty and name not in known:
                raise TableError("no bot '{name}' for {game} (bots: {bots})", name=name,
                                 game=live.game.name, bots=", ".join(known))
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

    @staticmethod
    def _finish_values(state: State) -> dict[str, Any]:
        if not state.is_over():
            return {}
        return {"status": "over", "outcome": state.outcome().to_json(),
                "finished_at": datetime.now(UTC)}

    # -- playing -----------------------------------------------------------------------
    async def act(self, table_id: str, account_id: int | None, text: Any,
                  seq: Any, *, as_bot: int | None = None) -> int:
        """One action by the account's seat, seen at ``seq``. Returns the new sequence."""
        if not isinstance(text, str) or not text.strip():
            raise IllegalAction("send an action in the game's notation, e.g. "
                                "{\"action\": \"call\", \"seq\": 12}")
        if isinstance(seq, bool) or not isinstance(seq, int):
            raise IllegalAction("send the sequence number you saw with the action "
                                "(\"seq\": a whole number)")
        live = await self.get(table_id)
        async with live.lock:
            if live.table is None or live.status == "open":
                raise IllegalAction("the game has not started yet")
            if live.status == "over":
                raise IllegalAction("the game is over")
            seat = as_bot if as_bot is not None else live.seat_of(account_id)
            if seat is None:
                raise IllegalAction("you have no seat at this table; you can only watch")
            if seq != live.seq:
                raise StaleAction("the table is at {at}, not {seq}: your action was for a "
                                  "position that has passed (or was sent twice)", at=live.seq,
                                  seq=seq)
            table = live.table
            to_move = table.state.to_move()
            if to_move != seat:
                who = term("nobody") if to_move is None else table.seats[to_move]
                raise IllegalAction("it is not your turn; it is {who}'s", who=who)
            if as_bot is None and live.seats[seat].bot is not None:
                raise IllegalAction("a bot plays this seat")
            # The move is taken back at once, so nobody sees it before it is committed.
            def play(table: Table) -> None:
                table.act(seat, text.strip())
                if not self.bot_delay:
                    self._answer_by_bots(live, table)

            move = tentatively(table, play)
            rows = [event_row(e) for e in move.events]
            values = self._finish_values(move.state)
            try:
                await self.writer.append(live.id, rows, values or None)
            except BaseException as exc:
                if isinstance(exc, WriteConflict):
                    await self._catch_up(live)
                    raise StaleAction("another move was made first; look again") from None
                log.exception("could not write table %s", live.id)
                raise IllegalAction("the move could not be saved; try again") from None
            move.apply_to(table)
            if values:
                live.status, live.outcome = values["status"], values["outcome"]
            live.last_move_at = time.time()
            new_seq = live.seq
        self._after_change(live, drive_bots=True)
        return new_seq

    def _answer_by_bots(self, live: LiveTable, table: Table, limit: int = 10_000) -> None:
        """Bots that move at once do so in the same commit as the move they answer.

        Not at a table of bots only (they are paced, see :meth:`_bot_move`), and not a
        bot that needs slow work first (a solve): that one moves by itself later."""
        if live.bots_only:
            return
        for _ in range(limit):
            state = table.state
            seat = state.to_move()
            if state.is_over() or seat is None or live.seats[seat].bot is None:
                return
            view = state.view(seat)
            if self.workers is not None and work_for(live.bot(seat), view) is not None:
                return
            rng = bot_rng(live.seed, len(table.events))
            table.act(seat, live.bot(seat).choose(view, state.legal_actions(), rng))

    async def _catch_up(self, live: LiveTable) -> None:
        """Reload a table's log, row and seats from the database (another process moved)."""
        fresh = await asyncio.to_thread(self._load, live.id)
        live.table, live.status, live.seats = fresh.table, fresh.status, fresh.seats
        live.seeds = fresh.seeds
        live.outcome, live.forfeit_seat = fresh.outcome, fresh.forfeit_seat
        live.last_move_at = fresh.last_move_at
        live.bots.clear()

    async def remote_change(self, table_id: str, started: bool = False) -> None:
        """Another process changed a table: catch up and tell this process's watchers."""
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
            await self._catch_up(live)
        if (live.seq, live.status) != (seq, status) or status == "open":
            if status == "open" and live.status == "playing":
                self._tell_started(live)
            self._after_change(live, drive_bots=False)

    def _tell_started(self, live: LiveTable) -> None:
        for index, info in enumerate(live.seats):
            if info.account_id is not None:
                self._notify_account(info.account_id, {
                    "type": "gameStart", "table": live.id, "game": live.game.name,
                    "seat": index, "seed_sha256": live.commitment})

    async def forfeit(self, live: LiveTable, seat: int) -> None:
        """The seat ran out of time and the table plays 'lose': the others win.

        The forfeit is an event of the log, so a replay of the log ends the same way."""
        table = live.table
        if table is None:
            raise TableError("the game has not started")
        move = tentatively(table, lambda t: t.forfeit(seat))
        outcome = forfeit_outcome(live.game.players, seat).to_json()
        values = {"status": "over", "outcome": outcome, "forfeit_seat": seat,
                  "finished_at": datetime.now(UTC)}
        await self.writer.append(live.id, [event_row(e) for e in move.events], values)
        move.apply_to(table)
        live.status, live.outcome, live.forfeit_seat = "over", outcome, seat

    # -- tables driven from outside -----------------------------------------------------
    # A hosted table is played somewhere else (a Mäxchen server): its driver reports each
    # move here, the engine checks it and rolls the dice from the same seed as the driver,
    # and the table is stored, streamed and replayed like any other. Nobody here moves.

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
            move = tentatively(table, lambda t: t.penalize(seat, reason))
            values = self._finish_values(move.state)
            await self.writer.append(live.id, [event_row(e) for e in move.events],
                                     values or None)
            move.apply_to(table)
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

    # -- bots and clocks ---------------------------------------------------------------
    async def _bot_move(self, live: LiveTable, seq: int) -> None:
        delay = self.bot_delay
        if live.bots_only:
            delay = max(delay, self.bot_pace, BOT_PACE_FACTOR * live.bot_thought)
        if delay:
            await asyncio.sleep(delay)
        if live.seq != seq or live.table is None or live.status != "playing":
            return
        seat = live.table.state.to_move()
        if seat is None or live.seats[seat].bot is None:
            return
        bot = live.bot(seat)
        if self.workers is not None and not await self._bot_ready(live, seq, seat):
            return  # the table moved on while the bot's solve ran
        state = live.table.state
        view, legal, rng = state.view(seat), state.legal_actions(), bot_rng(live.seed, seq)
        started = time.thread_time()
        if self.workers is not None and work_for(bot, view) is not None:
            action = cheap_choice(bot, view, legal, rng)  # its solve could not be had
        else:
            action = bot.choose(view, legal, rng)
        live.bot_thought = time.thread_time() - started
        try:
            await self.act(live.id, None, str(action), seq, as_bot=seat)
        except StaleAction:
            return  # another process moved this bot first

    async def _bot_ready(self, live: LiveTable, seq: int, seat: int) -> bool:
        """Have the bot's slow work done by the workers, the event loop free meanwhile.
        False if the table moved on; True also when the work could not be done (the
        queue is full, a worker failed): the bot then plays its cheap choice."""
        assert self.workers is not None and live.table is not None
        work = work_for(live.bot(seat), live.table.state.view(seat))
        if work is None:
            return True
        try:
            async with asyncio.timeout(BOT_WAIT):
                await self.workers.run(work)
        except (Busy, TimeoutError):
            pass  # the work goes on (or is refused); the bot plays its cheap choice now
        except Exception:
            log.exception("a bot's work at table %s", live.id)
        return live.seq == seq and live.table is not None and live.status == "playing"

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

    # -- telling watchers --------------------------------------------------------------
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

    def _after_change(self, live: LiveTable, drive_bots: bool) -> None:
        self._broadcast(live)
        if drive_bots and self.publish is not None:
            self.publish({"table": live.id, "seq": live.seq})
        if live.status == "over":
            for index, seated in enumerate(live.seats):
                if seated.account_id is not None:
                    self._notify_account(seated.account_id, {
                        "type": "gameFinish", "table": live.id, "seat": index,
                        "outcome": live.outcome, "server_seed": live.seed.hex()})
            if drive_bots and self.on_finish is not None:
                self._spawn(self.on_finish(live.id))
            self._forget_if_unwatched(live)
            return
        seat = live.to_move()
        if seat is None:
            return
        info = live.seats[seat]
        if info.bot is not None:
            if drive_bots:
                self._spawn(self._bot_move(live, live.seq))
        elif info.account_id is not None:
            self._notify_account(info.account_id, {
                "type": "yourTurn", "table": live.id, "seat": seat, "seq": live.seq,
                "deadline": live.deadline})

    # -- account helpers -----------------------------------------------------------------
    def tables_of(self, account_id: int) -> list[tuple[str, int]]:
        """(table, seat) for every table being played where the account sits."""
        with self.store.session() as session:
            rows = session.execute(
                select(Seat.table_id, Seat.seat).join(GameTable, GameTable.id == Seat.table_id)
                .where(Seat.account_id == account_id, GameTable.status == "playing"))
            return [(str(t), int(s)) for t, s in rows]


def check_seed(seed: Any, required: bool = False) -> None:
    """Refuse a seed that is not 1 to 64 printable characters (or a missing one)."""
    if seed is None and not required:
        return
    if not is_client_seed(seed):
        raise TableError("a seed is 1 to 64 letters, digits or punctuation marks, without "
                         "spaces, not {seed}", seed=repr(seed)[:80])


def check_rules(game_name: str, preset: str | None, rules: dict[str, Any],
                players: int | None) -> Game:
    """Load a game for a table, turning every bad value into a :class:`RuleError`."""
    try:
        return load(game_name, preset=preset, players=players, **rules)
    except KastkoppError:
        raise
    except (TypeError, ValueError) as exc:
        raise RuleError("the rules cannot be read: {error}", error=str(exc)) from None
