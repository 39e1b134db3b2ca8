"""What a site's operator and its proxy ask of a server process: health, readiness,
metrics, a graceful stop, and tables kept current when a sibling process died.

- ``GET /healthz`` — the process is up (200 while it runs, also while it drains).
- ``GET /readyz`` — the database and Redis answer and the schema is at the newest
  migration (200), else 503 naming what is not; 503 too once a stop has begun.
- ``GET /metrics`` — the Prometheus text format: moves acknowledged (and those sent again
  and acknowledged as already made), commit latency, open sockets, tables in memory,
  solves waiting.

On SIGTERM the process drains before uvicorn stops it: frames a socket sends from then on
are not read (the client sends them again elsewhere: nothing was done with them), the
moves already read are committed and acknowledged, and only then does uvicorn close the
listening socket and every WebSocket with 1012 ("service restart"), which the table page
and :class:`kastkopp.server.client.Player` take as "reconnect now" (through the proxy, to
any process).

Several processes share one database, and Redis tells them of each other's commits. A
process killed between a commit and its announcement leaves the others one position
behind; so every process also compares, a few times a second, the positions of the
tables it shows with the log and catches up the ones that moved elsewhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import func, select, text
from starlette.types import Message, Receive, Scope, Send

from kastkopp.store import LogEvent, Store
from kastkopp.store.log_writer import row_event

log = logging.getLogger("kastkopp.server")

SERVICE_RESTART = 1012  # the WebSocket close code for "the server restarts: come back"
RECONCILE_EVERY = 0.25  # seconds between comparisons of shown tables with the log
DRAIN_LIMIT = 10.0  # seconds a stop waits at most for moves in flight
COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

router = APIRouter(tags=["operations"])


# --------------------------------------------------------------------------- metrics


class Meters:
    """The counters the hub adds to, one set per process (Prometheus ``client_python``)."""

    def __init__(self) -> None:
        from prometheus_client import CollectorRegistry, Counter, Histogram

        self.registry = CollectorRegistry(auto_describe=True)
        self.moves = Counter("kastkopp_moves_acknowledged", "moves committed and "
                             "acknowledged", registry=self.registry)
        self.again = Counter("kastkopp_moves_acknowledged_again", "moves sent again (their "
                             "answer lost) found in the log and acknowledged as made",
                             registry=self.registry)
        self.commits = Histogram("kastkopp_commit_seconds", "from a move's rows handed to "
                                 "the log writer to their commit", buckets=COMMIT_BUCKETS,
                                 registry=self.registry)
        self.flushes = Histogram("kastkopp_log_flush_seconds", "the log writer writing and "
                                 "committing one batch of moves: the database's and the "
                                 "disk's part of a commit", buckets=COMMIT_BUCKETS,
                                 registry=self.registry)


_meters: Meters | None = None


def meters() -> Meters:
    global _meters
    if _meters is None:
        _meters = Meters()
    return _meters


def acknowledged() -> None:
    """A move was committed and is being acknowledged (called by the hub)."""
    meters().moves.inc()


def acknowledged_again() -> None:
    """A move sent again was found in the log and is acknowledged as made (by the hub)."""
    meters().again.inc()


def flushed(seconds: float) -> None:
    """The log writer wrote and committed one batch (called from its thread)."""
    meters().flushes.observe(seconds)


@contextlib.contextmanager
def commit_timer() -> Iterator[None]:
    """Time one append to the log, queue and commit (used by the log writer)."""
    started = time.perf_counter()
    try:
        yield
    finally:
        meters().commits.observe(time.perf_counter() - started)


class _Gauges:
    """What is read off the app at the moment of a scrape."""

    def __init__(self, app: FastAPI, sockets: Callable[[], int]) -> None:
        self.app, self.sockets = app, sockets

    def collect(self) -> Iterator[Any]:
        from prometheus_client.core import GaugeMetricFamily

        hub = getattr(self.app.state, "hub", None)
        workers = getattr(self.app.state, "workers", None)
        yield GaugeMetricFamily("kastkopp_open_sockets", "play WebSockets open",
                                value=self.sockets())
        yield GaugeMetricFamily("kastkopp_tables_in_memory", "live tables held by the hub",
                                value=0 if hub is None else len(hub.tables))
        yield GaugeMetricFamily("kastkopp_solve_queue", "solves pending in the workers",
                                value=0 if workers is None else len(workers.pending))
        yield GaugeMetricFamily("kastkopp_draining", "1 once a stop has begun",
                                value=1 if _ops(self.app).draining else 0)


# --------------------------------------------------------------------------- state


class Operations:
    """This process's sockets, its stop, and its catching up with the others."""

    def __init__(self) -> None:
        self.draining = False
        self.sockets = 0
        self.reading = 0  # sockets between a frame read and the next read (a move in hand)
        self.drained = asyncio.Event()
        self.stopped = asyncio.Event()  # set when draining begins: readers stop reading

    def wrap(self, play: Callable[[Scope, Receive, Send, str], Awaitable[None]]
             ) -> Callable[[Scope, Receive, Send, str], Awaitable[None]]:
        """The play socket, counted, and reading no frame once a stop has begun."""

        async def counted(scope: Scope, receive: Receive, send: Send, table_id: str) -> None:
            if self.draining:  # came in after the stop began: go elsewhere
                await receive()  # websocket.connect
                await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": SERVICE_RESTART})
                return
            self.sockets += 1
            holding = False

            async def guarded() -> Message:
                nonlocal holding
                if holding:
                    holding = False
                    self.reading -= 1
                message = await self._next(receive)
                if message["type"] == "websocket.receive":
                    holding = True
                    self.reading += 1
                return message

            try:
                await play(scope, guarded, send, table_id)
            finally:
                self.sockets -= 1
                if holding:
                    self.reading -= 1

        return counted

    async def _next(self, receive: Receive) -> Message:
        """The socket's next message; a frame that comes after the stop began is dropped
        unread (no ack goes out for it, so its sender sends it again elsewhere)."""
        while True:
            if self.draining:
                message = await receive()  # wait for uvicorn's close
                if message["type"] == "websocket.receive":
                    continue
                return message
            message = await receive()
            if message["type"] != "websocket.receive" or not self.draining:
                return message

    async def drain(self, hub: Any) -> None:
        """Wait until every move read is committed and its answer sent (bounded)."""
        self.draining = True
        deadline = time.monotonic() + DRAIN_LIMIT
        while time.monotonic() < deadline:
            busy = self.reading > 0 or _unsent(hub)
            if not busy:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the last frames reach the transports
        publishing = getattr(getattr(hub, "publish", None), "__self__", None)
        pending = list(getattr(publishing, "pending", ()))
        if pending:  # the other processes hear of the last commits from us, not later
            await asyncio.wait(pending, timeout=2)


def _unsent(hub: Any) -> bool:
    return any(not watcher.queue.empty() for live in list(hub.tables.values())
               for watcher in list(live.watchers))


def _ops(app: FastAPI) -> Operations:
    ops: Operations = app.state.operations
    return ops


# --------------------------------------------------------------------------- catching up


def _positions(store: Store, ids: list[str]) -> dict[str, int]:
    with store.session() as session:
        rows = session.execute(select(LogEvent.table_id, func.max(LogEvent.seq))
                               .where(LogEvent.table_id.in_(ids))
                               .group_by(LogEvent.table_id))
        return {str(table_id): int(seq) + 1 for table_id, seq in rows}


def _since(store: Store, table_id: str, seq: int) -> tuple[list[Any], Any]:
    """The table's log events from ``seq`` on, and its row."""
    from kastkopp.store import GameTable

    with store.session() as session:
        events = list(session.scalars(select(LogEvent).where(
            LogEvent.table_id == table_id, LogEvent.seq >= seq).order_by(LogEvent.seq)))
        return events, session.get(GameTable, table_id)


async def follow(store: Store, live: Any) -> bool:
    """Bring a table being played up to its log by replaying only the events it has not
    seen (a reload replays the whole game, at every move another process makes). False
    when that cannot be done and the table must be loaded again whole."""
    table = live.table
    if table is None or live.status != "playing":
        return False
    events, row = await asyncio.to_thread(_since, store, live.id, len(table.events))
    if row is None or live.table is not table:
        return False
    return _replay_onto(live, [row_event(event) for event in events], row.status,
                        row.outcome, row.forfeit_seat, events[-1].at if events else None)


def follow_announced(live: Any, events: list[dict[str, Any]]) -> bool:
    """Bring a table being played up to the events another process announced with its
    commit, without reading the database. False when they do not follow on from the
    position held (one was missed: the log must be read)."""
    table = live.table
    if table is None or live.status != "playing" or not events:
        return False
    first = events[0].get("seq")
    if not isinstance(first, int) or first > len(table.events):
        return False
    new = events[len(table.events) - first:]  # those held already are skipped
    return not new or _replay_onto(live, new, "playing", live.outcome, live.forfeit_seat,
                                   datetime.now(UTC))


def _replay_onto(live: Any, events: list[dict[str, Any]], status: str, outcome: Any,
                 forfeit_seat: int | None, at: datetime | None) -> bool:
    """The events played on from the table held, made its position (all or nothing)."""
    moved = live.table.copy()
    try:
        for event in events:
            moved._replay_event(event)
    except Exception:
        return False
    rolls = [e["nonce"] for e in moved.events if e["type"] == "roll"]
    moved.dice.nonce = 1 + max(rolls, default=-1)
    live.table, live.status = moved, status
    live.outcome, live.forfeit_seat = outcome, forfeit_seat
    if at is not None:
        live.last_move_at = (at if at.tzinfo else at.replace(tzinfo=UTC)).timestamp()
    return True


async def reconcile(hub: Any) -> list[str]:
    """Catch up every watched table being played whose log is longer than ours."""
    shown = {table_id: live.seq for table_id, live in list(hub.tables.items())
             if live.status == "playing" and live.watchers}
    if not shown:
        return []
    behind = [table_id for table_id, seq in
              (await asyncio.to_thread(_positions, hub.store, list(shown))).items()
              if seq > shown[table_id]]
    for table_id in behind:
        await hub.remote_change(table_id)
    return behind


async def _reconcile_loop(app: FastAPI) -> None:
    while True:
        await asyncio.sleep(RECONCILE_EVERY)
        hub = getattr(app.state, "hub", None)
        if hub is None or hub.closed:
            continue
        try:
            caught = await reconcile(hub)
        except Exception:  # the database is away for a moment: try again later
            log.warning("could not compare the tables with the log", exc_info=True)
            continue
        if caught:
            log.info("caught up %d table(s) moved by another process", len(caught))


# --------------------------------------------------------------------------- stopping


def _take_sigterm(app: FastAPI, loop: asyncio.AbstractEventLoop) -> Callable[[], None]:
    """Drain on SIGTERM, then hand the signal to whoever had it (uvicorn: it stops).
    Returns what puts the previous handler back."""
    previous = signal.getsignal(signal.SIGTERM)
    if not callable(previous):
        return lambda: None  # not uvicorn's: nobody to hand the stop to

    def handed(signum: int, frame: Any) -> None:
        loop.call_soon_threadsafe(lambda: asyncio.ensure_future(_stop(signum, frame)))

    async def _stop(signum: int, frame: Any) -> None:
        ops = _ops(app)
        balance = getattr(app.state, "balance", None)
        if balance is not None:
            balance.stopped = True  # no more counts: the others stop counting this one
        if not ops.draining:
            log.info("stopping: reading no more moves, finishing those in hand")
            await ops.drain(app.state.hub)
        previous(signum, frame)

    try:
        signal.signal(signal.SIGTERM, handed)
    except ValueError:  # not the main thread (a test's server in a thread)
        return lambda: None

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)

    return restore


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Runs inside the app's own lifespan: the hub is there already."""
    ops = app.state.operations = Operations()
    meters()  # made before the first move, so a scrape lists every metric
    from prometheus_client import CollectorRegistry

    registry = CollectorRegistry(auto_describe=True)
    registry.register(_Gauges(app, lambda: ops.sockets))
    app.state.gauges = registry
    play = getattr(app, "play_socket", None)
    if play is not None:
        app.play_socket = ops.wrap(play)  # type: ignore[attr-defined]
    loop = asyncio.get_running_loop()
    restore = _take_sigterm(app, loop)
    # Several processes share a server database; SQLite is one process's (and an
    # in-memory one is a single connection that a reader must not share with the writer).
    store: Store = app.state.store
    task = None if store.is_sqlite else loop.create_task(_reconcile_loop(app))
    try:
        yield
    finally:
        ops.draining = True
        if task is not None:
            task.cancel()
        restore()


router.lifespan_context = lifespan


# --------------------------------------------------------------------------- routes


@router.get("/healthz")
def healthz() -> dict[str, str]:
    """The process is up."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(request: Request) -> Response:
    """The database and Redis answer, the schema is current, and no stop has begun."""
    app = request.app
    problems: dict[str, str] = {}
    if _ops(app).draining:
        problems["process"] = "stopping"
    store: Store = app.state.store
    try:
        current = await asyncio.to_thread(_schema_is_current, store)
        if not current:
            problems["migrations"] = "the schema is not at the newest migration"
    except Exception as exc:
        problems["database"] = type(exc).__name__
    hub = getattr(app.state, "hub", None)
    bridge = getattr(getattr(hub, "publish", None), "__self__", None)
    if bridge is not None:
        try:
            async with asyncio.timeout(2):
                await bridge.client.ping()
        except Exception as exc:
            problems["redis"] = type(exc).__name__
    if problems:
        return JSONResponse({"status": "unavailable", "problems": problems},
                            status_code=503)
    return JSONResponse({"status": "ready"})


@functools.cache
def _heads() -> frozenset[str]:
    """The newest revisions the migrations shipped with this code know."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from kastkopp.store import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return frozenset(ScriptDirectory.from_config(config).get_heads())


def _schema_is_current(store: Store) -> bool:
    with store.engine.connect() as connection:
        rows = connection.execute(text("SELECT version_num FROM alembic_version"))
        return {str(row[0]) for row in rows} == _heads()


@router.get("/metrics")
def metrics(request: Request) -> Response:
    """The Prometheus text exposition format."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

    body = generate_latest(meters().registry) + generate_latest(request.app.state.gauges)
    return Response(body, media_type=CONTENT_TYPE_LATEST)
