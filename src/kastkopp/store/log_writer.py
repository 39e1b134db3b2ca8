"""The log writer: one thread that commits the moves of many tables in one transaction.

A move is acknowledged only once its log events are committed; grouping the commits of
many tables costs one disk flush per batch instead of one per move. On a SQLite file the
rows go straight through the driver (see :meth:`LogWriter._commit_sqlite`); elsewhere
through SQLAlchemy. The unique ``(table_id, seq)`` key is the arbiter between processes:
a row somebody else wrote first is a :class:`WriteConflict`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from kastkopp.store import GameTable, LogEvent, Store

SQLITE_INSERT = ("INSERT INTO log_events (table_id, seq, kind, seat, action, nonce, faces, at) "
                 "VALUES ")
SQLITE_ROW = "(?, ?, ?, ?, ?, ?, ?, ?)"
SQLITE_ROWS_PER_STATEMENT = 4000  # at most; fewer where the SQLite takes fewer parameters
SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"  # SQLAlchemy's storage format for DateTime on SQLite
# The least time from the start of one commit to the start of the next. A disk flush costs
# the same for one move as for fifty; under load the moves of those few milliseconds share
# one (a move after a quiet spell is written at once, without waiting).
MIN_GAP = 0.005


@functools.cache
def sqlite_insert(rows: int) -> str:
    """One INSERT of ``rows`` log rows (a statement per batch size, kept by SQLite's cache)."""
    return SQLITE_INSERT + ", ".join([SQLITE_ROW] * rows)


class WriteConflict(Exception):
    """Another writer committed this sequence number first."""


class WriterClosed(Exception):
    """The writer was closed (the server is stopping): the rows were not written."""


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

    def __init__(self, store: Store, max_batch: int = 512,
                 on_flush: Callable[[float], None] | None = None,
                 min_gap: float = MIN_GAP) -> None:
        self.store = store
        self.max_batch = max_batch
        self.min_gap = min_gap
        # told, from the writer's thread, the seconds each batch took to write and commit
        self.on_flush = on_flush
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
        self.closed = False
        self.thread = threading.Thread(target=self._run, name="kastkopp-log-writer",
                                       daemon=True)
        self.thread.start()

    async def append(self, table_id: str, rows: list[dict[str, Any]],
                     table_values: dict[str, Any] | None = None) -> None:
        await self.submit(table_id, rows, table_values)

    def submit(self, table_id: str, rows: list[dict[str, Any]],
               table_values: dict[str, Any] | None = None) -> asyncio.Future[None]:
        """Queue the rows; the future is settled once they are committed (or refused).

        Once queued the rows are written whatever becomes of the caller, so a caller that
        is cancelled while it waits must still learn the answer (``asyncio.shield``)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.closed:  # nobody would write them: refused, not waited for forever
            future.set_exception(WriterClosed(table_id))
            return future
        self.queue.put(_Write(table_id, rows, table_values, future.get_loop(), future))
        return future

    def close(self) -> None:
        self.closed = True
        self.queue.put(None)
        self.thread.join(timeout=10)
        if self._sqlite is not None and not self.thread.is_alive():
            self._sqlite.close()

    def _run(self) -> None:
        last = -self.min_gap
        while True:
            first = self.queue.get()
            if first is None:
                self._refuse_the_rest()
                return
            wait = last + self.min_gap - time.perf_counter()
            if wait > 0:  # the last commit has just begun: the next moves come along
                time.sleep(wait)
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
            started = last = time.perf_counter()
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
            if self.on_flush is not None:
                self.on_flush(time.perf_counter() - started)
            # One wake-up of each event loop for the whole batch, not one per move.
            loops: dict[asyncio.AbstractEventLoop, list[_Write]] = {}
            for item in batch:
                loops.setdefault(item.loop, []).append(item)
            for loop, items in loops.items():
                # RuntimeError: that loop has closed, and nobody waits any more.
                with contextlib.suppress(RuntimeError):
                    loop.call_soon_threadsafe(_settle_all, items)

    def _refuse_the_rest(self) -> None:
        """Rows queued after the writer was closed are refused, so nobody waits for them."""
        while True:
            try:
                item = self.queue.get_nowait()
            except queue.Empty:
                return
            if item is not None:
                item.error = WriterClosed(item.table_id)
                with contextlib.suppress(RuntimeError):
                    item.loop.call_soon_threadsafe(_settle_all, [item])

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


def commit_end(store: Store, table_id: str, seq: int) -> int:
    """The position just after the commit that wrote event ``seq`` of a table: the
    ``seq`` its move's acknowledgement gave. The rows of one commit share its time stamp
    (one a batch, see :meth:`LogWriter._commit`), and a process commits a table's moves
    one at a time (under the table's lock)."""
    stamp = (select(LogEvent.at)
             .where(LogEvent.table_id == table_id, LogEvent.seq == seq).scalar_subquery())
    with store.session() as session:
        last = session.scalar(select(func.max(LogEvent.seq)).where(
            LogEvent.table_id == table_id, LogEvent.seq >= seq, LogEvent.at == stamp))
    return seq + 1 if last is None else int(last) + 1


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
