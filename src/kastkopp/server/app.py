"""The web application: accounts, the lobby, play over WebSocket, and a bot API.

>>> from kastkopp.server.app import create_app
>>> app = create_app("sqlite://")         # or a file path, or postgresql+psycopg://...

Routes (all JSON; errors are ``{"detail": "<one line a player understands>"}``):

- ``POST /api/account/register|login|guest|logout|password|tokens``, ``GET /api/account``
- ``GET /api/games`` — every registered game with presets, rules and bots
- ``GET|POST /api/tables``, ``GET /api/tables/{id}``, ``POST .../join|leave|start``,
  ``POST .../seats/{seat}/bot``, ``GET .../state``, ``GET .../log``, ``POST .../action``
- ``WS /api/tables/{id}/ws`` — frames ``{"type": "state", "seq", "view", "legal", ...}``;
  send ``{"action": "<notation>", "seq": <seq seen>, "id": <any>}``, get ``ack`` or ``error``
- ``GET /api/stream/event`` and ``/api/stream/table/{id}`` — NDJSON, one event a line
- ``POST /api/series``, ``GET /api/series/{id}`` — matches, chouettes and knockouts;
  ``POST /api/series/{id}/accept|decline``, ``GET /api/account/invitations`` — consent
- ``GET /api/stats/{game}``, ``/api/ratings/{game}``, ``/api/players/{name}/history``
- ``GET /tables/{id}`` — older invite links, sent on to the table's page ``/play/{id}``
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from kastkopp.engine import KastkoppError
from kastkopp.server import (
    accounts,
    chat,
    errors,
    hints,
    operations,
    origin,
    pages,
    replays,
    review,
    review_try,
    sheets_api,
)
from kastkopp.server.balance import Balance
from kastkopp.server.batched import Batched
from kastkopp.server.bodies import StrictJson
from kastkopp.server.deps import Settings, accounts_for
from kastkopp.server.hub import Hub
from kastkopp.server.limits import Limiter, RateLimits, RefuseEarly
from kastkopp.server.lobby import ABANDONED_AFTER
from kastkopp.server.redact import hide_tokens_in_logs
from kastkopp.server.routes import accounts as account_routes
from kastkopp.server.routes import play, series, stats, streams, tables
from kastkopp.server.series import SeriesRunner
from kastkopp.server.stats import ladder_folder
from kastkopp.server.workers import Workers
from kastkopp.store import Store
from kastkopp.strategy.work import load_kernels, warm_up_works

if TYPE_CHECKING:
    from kastkopp.server.pubsub import RedisBridge

# In the order they are matched.
ROUTERS = (account_routes.router, tables.router, play.router, streams.router,
           series.router, stats.router, pages.router, sheets_api.router, chat.router,
           hints.router, replays.router, review.router, review_try.router,
           operations.router)


# --------------------------------------------------------------------------- the app class

PLAY_SOCKET = re.compile(r"/api/tables/([^/]+)/ws")


class KastkoppApp(FastAPI):
    """FastAPI, with the play WebSocket (``/api/tables/{id}/ws``) reached directly.

    A table's frames are the server's hot path, thousands a second. Through the
    middleware stack every frame sent or received passes error pages, body limits,
    telemetry and exception handlers that are there for HTTP and do nothing for this
    socket; and every coroutine a waiting socket leaves behind is one more object for the
    garbage collector to look at, a thousand sockets at a time. Everything else (HTTP,
    the lifespan) goes the usual way.
    """

    play_socket: Callable[[Scope, Receive, Send, str], Awaitable[None]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and self.play_socket is not None:
            match = PLAY_SOCKET.fullmatch(scope["path"])
            if match:
                scope["app"] = self
                await self.play_socket(scope, receive, send, match[1])
                return
        await super().__call__(scope, receive, send)



# --------------------------------------------------------------------------- the app


def create_app(db: str | None = None, *, redis_url: str | None = None,
               bot_delay: float = 0.0, migrate: bool = True,
               maexchen: tuple[str, int] | None = None,
               maexchen_timeout: float = 0.25, origins: list[str] | None = None,
               rate_limits: RateLimits | None = None, workers: int = 1, work_queue: int = 8,
               warm_up: bool = False, ladders: Path | None = None,
               abandoned_after: float = ABANDONED_AFTER) -> KastkoppApp:
    """The server as an ASGI app; the database is migrated and the tables resumed on start.

    Solves for bots and hints run in ``workers`` worker processes, at most ``work_queue``
    waiting (:mod:`kastkopp.server.workers`); ``warm_up`` solves the standard presets'
    tables into the disk cache in the background at start. Logins and new accounts are
    limited by ``rate_limits`` (:mod:`kastkopp.server.limits`).

    With ``maexchen=(host, port)`` a Mäxchen bot-competition server (UDP) runs alongside
    for the app's lifetime, as ``app.state.maexchen``; each of its rounds is a watch-only
    table (``app.state.maexchen_tables``).

    ``bot_delay`` is the pace of tables made without one (seconds before each bot's
    move); a table being played where nobody moved for ``abandoned_after`` seconds leaves
    the lobby's list (:mod:`kastkopp.server.lobby`).

    ``origins`` are the sites besides the server's own whose pages may act for a logged-in
    browser (else ``KASTKOPP_ORIGINS``; see :mod:`kastkopp.server.origin`).

    ``ladders`` is the folder of bot ladders ``/stats/GAME`` shows (else ``KASTKOPP_LADDERS``,
    else the ladders kastkopp comes with; see :func:`kastkopp.server.stats.ladder_folder`).
    """
    settings = Settings(db, redis_url, bot_delay, migrate, maexchen, maexchen_timeout,
                        origin.configured_origins(origins), rate_limits, workers,
                        work_queue, warm_up, ladder_folder(ladders), abandoned_after)
    app = KastkoppApp(title="kastkopp", version="0.1.0", lifespan=lifespan,
                      description="Scandinavian dice games online: tables, bots, fair dice.")
    app.state.settings = settings
    app.state.store = Store(db)
    # the last added runs first: a request from another site is refused before its body
    # is read
    app.add_middleware(StrictJson, respond=errors.refused)
    app.add_middleware(origin.SameOrigin, cookie=accounts.COOKIE, allowed=settings.origins,
                       respond=errors.refused)
    app.add_middleware(RefuseEarly)  # a login flood refused before anything else
    app.add_exception_handler(KastkoppError, errors.kastkopp_error)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=pages.HERE / "static"), name="static")
    app.play_socket = play.socket
    return app


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The table service and what runs beside it, for as long as the app serves."""
    settings: Settings = app.state.settings
    store: Store = app.state.store
    hide_tokens_in_logs()
    if settings.migrate:
        await asyncio.to_thread(store.migrate)
    bridge = None
    if settings.redis_url:
        from kastkopp.server.pubsub import RedisBridge

        bridge = RedisBridge(settings.redis_url)
    # The compiled code bots choose with, loaded before the process takes any player (see
    # load_kernels): it holds the interpreter's lock for parts of a second, which a crowd
    # sent to a process just started would otherwise wait through.
    await asyncio.to_thread(load_kernels)
    pool = app.state.workers = Workers(settings.workers, settings.work_queue)
    app.state.limiter = Limiter(settings.rate_limits)
    hub = app.state.hub = Hub(store, bot_delay=settings.bot_delay, workers=pool,
                              publish=bridge.publish if bridge is not None else None)
    app.state.token_accounts = Batched(functools.partial(accounts_for, store))
    runner = app.state.series = SeriesRunner(hub)
    hub.on_finish, hub.on_ready = runner.table_finished, runner.table_ready
    await hub.resume()
    await runner.resume()
    balance = app.state.balance = Balance(bridge.publish if bridge is not None else None)
    if bridge is not None:
        bridge.on_sockets = balance.hear
        bridge.on_read = balance.read
        bridge.on_shown = functools.partial(_shown, hub, bridge)
        await bridge.start(hub)
        hub.spawn(balance.run())  # the others hear of this process: they share out
    if settings.warm_up:
        hub.spawn(_warm_up(pool))
    hub.spawn(asyncio.to_thread(accounts.start_hashing))
    try:
        async with contextlib.AsyncExitStack() as stack:
            if settings.maexchen is not None:
                await _maexchen_alongside(app, stack, hub, settings)
            yield
    finally:
        balance.stopped = True
        await hub.close()
        pool.close()
        if bridge is not None:
            await bridge.close()
        store.dispose()


async def _maexchen_alongside(app: FastAPI, stack: contextlib.AsyncExitStack, hub: Hub,
                              settings: Settings) -> None:
    """A Mäxchen server whose rounds are shown as watch-only (hosted) tables."""
    from kastkopp.interop.maexchen import running  # the server needs it only when asked
    from kastkopp.interop.maexchen_web import MaexchenTables

    assert settings.maexchen is not None
    app.state.maexchen = await stack.enter_async_context(
        running(*settings.maexchen, answer_timeout=settings.maexchen_timeout))
    app.state.maexchen_tables = await stack.enter_async_context(
        MaexchenTables(hub, app.state.maexchen))


def _shown(hub: Hub, bridge: RedisBridge, table_ids: list[str], first: int,
           origin: str) -> None:
    """Another process (``origin``) told this one, just started, the tables it shows."""
    told = functools.partial(bridge.publish, {"read": first, "to": origin})
    hub.spawn(_read_ahead(hub, table_ids, first, told))


async def _read_ahead(hub: Hub, table_ids: list[str], first: int,
                      told: Callable[[], None]) -> None:
    """Read the tables another process shows, this one having just started: the ``first``
    are those of the players about to be sent here, the others' come here if it dies
    (:mod:`kastkopp.server.balance`). Read together (a few dozen a batch) before they are
    asked for, one at a time, by a crowd; ``told`` once the first are read, for the other
    process to send their players then."""
    async def read(ids: list[str]) -> None:
        await asyncio.gather(*(hub.get(table_id) for table_id in ids),
                             return_exceptions=True)  # a table gone meanwhile: not needed

    await read(table_ids[:first])
    told()
    await read(table_ids[first:])


async def _warm_up(workers: Workers) -> None:
    """The standard presets' solved tables, made in the background at start."""
    await workers.warm_up(await asyncio.to_thread(warm_up_works))
