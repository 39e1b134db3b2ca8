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
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Path, Query, Request, WebSocket
from fastapi.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from pydantic import BaseModel, Field
from sqlalchemy import select
from starlette.requests import HTTPConnection
from starlette.types import Receive, Scope, Send

from kastkopp.engine import IllegalAction, KastkoppError, Message, registered
from kastkopp.locale.messages import translate
from kastkopp.server import accounts, hints, origin, pages, review, stats, wire
from kastkopp.server.bodies import StrictJson
from kastkopp.server.hub import KEEPALIVE, Hub, LiveTable, StaleAction, TableError, Watcher
from kastkopp.server.limits import Limiter, RateLimited, RateLimits, RefuseEarly
from kastkopp.server.redact import hide_tokens_in_logs
from kastkopp.server.series import SeriesRunner
from kastkopp.server.workers import Busy, Workers
from kastkopp.store import Account, GameTable, Store
from kastkopp.strategy import bot_help, bot_names
from kastkopp.strategy.work import warm_up_works

log = logging.getLogger("kastkopp.server")

# Refused frames one WebSocket may send (moves played are not counted): far above any
# player's mistakes, well below a flood.
REFUSED_PER_SECOND = 20
REFUSED_BURST = 40

TableId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]


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


# --------------------------------------------------------------------------- bodies


class Credentials(BaseModel):
    name: str = Field(min_length=1, max_length=40, examples=["anna"])
    password: str = Field(min_length=1, max_length=256)


class GuestBody(BaseModel):
    nickname: str = Field(min_length=1, max_length=19, examples=["Anna"])


class PasswordChange(BaseModel):
    old_password: str = Field(max_length=256)
    new_password: str = Field(max_length=256)


class TokenRequest(BaseModel):
    label: str = Field(default="", max_length=80)


class AccountOut(BaseModel):
    id: int
    name: str
    guest: bool


class LoginOut(BaseModel):
    account: AccountOut
    token: str


class TimeControl(BaseModel):
    """No clock, live (seconds per move) or correspondence (hours or days per move)."""

    kind: str = Field(default="none", pattern="^(none|live|correspondence)$")
    seconds: int | None = Field(default=None, ge=1, le=3600)
    hours: int | None = Field(default=None, ge=1, le=24 * 60)
    days: int | None = Field(default=None, ge=1, le=60)
    on_timeout: str = Field(default="move", pattern="^(move|lose)$")

    def seconds_per_move(self) -> int | None:
        if self.kind == "live":
            return self.seconds or 60
        if self.kind == "correspondence":
            return (self.days or 0) * 86400 + (self.hours or 0) * 3600 or 86400
        return None


class CreateTable(BaseModel):
    game: str = Field(max_length=40, examples=["mia"])
    preset: str | None = Field(default=None, max_length=40)
    rules: dict[str, str | int | bool] = Field(default_factory=dict)
    players: int | None = Field(default=None, ge=1, le=20)
    seats: list[str | None] = Field(default_factory=list, max_length=20,
                                    description="per seat: a bot ('bot:random') or null")
    time_control: TimeControl = Field(default_factory=TimeControl)
    client_seed: str | None = Field(default=None, max_length=64, description="refused: "
                                     "seeds are added after the table is made")
    sit: bool = Field(default=True, description="take the first free seat yourself")
    hints: bool = Field(default=True, description="players may ask the advisor for a hint "
                        "(games with an advisor)")


class JoinBody(BaseModel):
    seat: int | None = Field(default=None, ge=0, le=19)
    seed: str | None = Field(default=None, description="your seed for the dice: 1 to 64 "
                             "printable characters, no spaces")


class SeedBody(BaseModel):
    seed: Any = Field(description="your seed for the dice: 1 to 64 printable characters, "
                      "no spaces", examples=["3f9a0c27d1e84b65"])


class BotBody(BaseModel):
    bot: str = Field(max_length=40, examples=["random"])


class StartBody(BaseModel):
    fill: str | None = Field(default=None, max_length=40,
                             description="a bot for every empty seat")
    seed: str | None = Field(default=None, description="your own seed for the dice, if "
                             "you have not added it yet")


class ActionBody(BaseModel):
    action: str = Field(max_length=200, examples=["call"])
    # strict: "1", 5.0 or true are not the sequence number of any position
    seq: int = Field(ge=0, strict=True,
                     description="the sequence number of the position you saw")


class CreateSeries(BaseModel):
    """A match (two players, best of N), a chouette (three or more, N games) or a
    knockout (a bracket of matches). Players are account names or bots (``bot:random``,
    ``bot:random#2`` for a second)."""

    format: str = Field(pattern="^(match|chouette|knockout)$", examples=["match"])
    game: str = Field(max_length=40, examples=["mia"])
    preset: str | None = Field(default=None, max_length=40)
    rules: dict[str, str | int | bool] = Field(default_factory=dict)
    players: list[str] = Field(min_length=2, max_length=64)
    best_of: int = Field(default=1, ge=1, le=21)
    games: int | None = Field(default=None, ge=1, le=200)


class ActionOut(BaseModel):
    ok: bool
    seq: int



# --------------------------------------------------------------------------- who asks


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def token_of(request: Request) -> str | None:
    return origin.bearer(request.headers) or request.cookies.get(accounts.COOKIE)


def current(request: Request) -> Account:
    """The account of the request's session cookie or bearer token (else 401)."""
    account = _account(request.app.state.store, token_of(request))
    if account is None:
        raise accounts.NotAuthenticated("log in first (a session cookie or an "
                                        "'Authorization: Bearer <token>' header)")
    return account


def optional(request: Request) -> Account | None:
    return _account(request.app.state.store, token_of(request))


def address(request: Request) -> str:
    return request.client.host if request.client is not None else "-"


def limiter_of(request: Request) -> Limiter:
    limiter: Limiter = request.app.state.limiter
    return limiter


Me = Annotated[Account, Depends(current)]


# --------------------------------------------------------------------------- the app


def create_app(db: str | None = None, *, redis_url: str | None = None,
               bot_delay: float = 0.0, migrate: bool = True,
               maexchen: tuple[str, int] | None = None,
               maexchen_timeout: float = 0.25, origins: list[str] | None = None,
               rate_limits: RateLimits | None = None, workers: int = 1, work_queue: int = 8,
               warm_up: bool = False) -> KastkoppApp:
    """The server as an ASGI app; the database is migrated and the tables resumed on start.

    Solves for bots and hints run in ``workers`` worker processes, at most ``work_queue``
    waiting (:mod:`kastkopp.server.workers`); ``warm_up`` solves the standard presets'
    tables into the disk cache in the background at start. Logins and new accounts are
    limited by ``rate_limits`` (:mod:`kastkopp.server.limits`).

    With ``maexchen=(host, port)`` a Mäxchen bot-competition server (UDP) runs alongside
    for the app's lifetime, as ``app.state.maexchen``; each of its rounds is a watch-only
    table (``app.state.maexchen_tables``).

    ``origins`` are the sites besides the server's own whose pages may act for a logged-in
    browser (else ``KASTKOPP_ORIGINS``; see :mod:`kastkopp.server.origin`).
    """
    store = Store(db)
    allowed = origin.configured_origins(origins)
    bridge = None
    if redis_url:
        from kastkopp.server.pubsub import RedisBridge

        bridge = RedisBridge(redis_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hide_tokens_in_logs()
        if migrate:
            await asyncio.to_thread(store.migrate)
        pool = Workers(workers, work_queue)
        app.state.workers = pool
        app.state.limiter = Limiter(rate_limits)
        hub = Hub(store, bot_delay=bot_delay,
                  publish=bridge.publish if bridge is not None else None, workers=pool)
        app.state.hub = hub
        runner = SeriesRunner(hub)
        app.state.series = runner
        hub.on_finish = runner.table_finished
        hub.on_ready = runner.table_ready
        await hub.resume()
        await runner.resume()
        if bridge is not None:
            await bridge.start(hub)
        if warm_up:
            hub._spawn(_warm_up(pool))
        async with contextlib.AsyncExitStack() as stack:
            if maexchen is not None:
                from kastkopp.interop.maexchen import running
                from kastkopp.interop.maexchen_web import MaexchenTables

                app.state.maexchen = await stack.enter_async_context(
                    running(*maexchen, answer_timeout=maexchen_timeout))
                # its rounds are shown as watch-only tables
                app.state.maexchen_tables = await stack.enter_async_context(
                    MaexchenTables(hub, app.state.maexchen))
            try:
                yield
            finally:
                await stack.aclose()
                await hub.close()
                pool.close()
                if bridge is not None:
                    await bridge.close()
                store.dispose()

    app = KastkoppApp(title="kastkopp", version="0.1.0", lifespan=lifespan,
                  description="Scandinavian dice games online: tables, bots, fair dice.")
    app.state.store = store
    # the last added runs first: a request from another site is refused before its body
    # is read
    app.add_middleware(StrictJson, respond=refused)
    app.add_middleware(origin.SameOrigin, cookie=accounts.COOKIE, allowed=allowed,
                       respond=refused)
    app.add_middleware(RefuseEarly)  # a login flood refused before anything else

    @app.exception_handler(KastkoppError)
    async def kastkopp_error(request: Request, exc: KastkoppError) -> JSONResponse:
        status = 401 if isinstance(exc, accounts.NotAuthenticated) else \
            409 if isinstance(exc, StaleAction) else \
            404 if isinstance(exc, TableError) and str(exc).startswith("there is no") else 400
        # in the language the request asks for (a page: its cookie or the browser's), else
        # English; always the template and parameters, for programs that translate
        detail = translate(exc, pages.language(request))
        headers = {}
        if isinstance(exc, RateLimited):
            status, headers = 429, {"Retry-After": str(exc.retry_after)}
        elif isinstance(exc, Busy):
            status, headers = 503, {"Retry-After": "30"}
        return JSONResponse({"detail": detail, **exc.message.to_json()}, status_code=status,
                            headers=headers)

    def signed_in(request: Request, account: Account, token: str) -> JSONResponse:
        response = JSONResponse({"account": out(account), "token": token})
        response.set_cookie(accounts.COOKIE, token, httponly=True, samesite="lax",
                            secure=request.url.scheme == "https", max_age=90 * 86400)
        return response

    def out(account: Account) -> dict[str, Any]:
        return {"id": account.id, "name": account.name, "guest": account.guest}

    # -- accounts ------------------------------------------------------------------------
    # Rate-limited (429), and the password hashing a few at a time in threads (503 when
    # too many wait): a flood of logins takes neither the memory nor the event loop.
    def in_session(act: Callable[..., Account], *args: Any) -> tuple[Account, str]:
        with store.session() as session:
            account = act(session, *args)
            return account, accounts.issue_token(session, account, "session")

    @app.post("/api/account/register", response_model=LoginOut, tags=["account"])
    async def register(body: Credentials, request: Request) -> Response:
        limiter = limiter_of(request)
        await limiter.register(address(request))
        async with limiter.hashing():
            account, token = await asyncio.to_thread(in_session, accounts.register,
                                                     body.name, body.password)
        return signed_in(request, account, token)

    @app.post("/api/account/login", response_model=LoginOut, tags=["account"])
    async def login(body: Credentials, request: Request) -> Response:
        limiter = limiter_of(request)
        await limiter.login(address(request), body.name)
        async with limiter.hashing():
            account, token = await asyncio.to_thread(in_session, accounts.login,
                                                     body.name, body.password)
        return signed_in(request, account, token)

    @app.post("/api/account/guest", response_model=LoginOut, tags=["account"])
    async def guest(body: GuestBody, request: Request) -> Response:
        await limiter_of(request).guest(address(request))
        account, token = await asyncio.to_thread(in_session, accounts.guest, body.nickname)
        return signed_in(request, account, token)

    @app.post("/api/account/logout", tags=["account"])
    def logout(request: Request, me: Me) -> Response:
        token = token_of(request)
        with store.session() as session:
            if token:
                accounts.revoke(session, token)
        response = JSONResponse({"ok": True})
        response.delete_cookie(accounts.COOKIE)
        return response

    @app.post("/api/account/password", tags=["account"])
    async def password(body: PasswordChange, request: Request, me: Me) -> Response:
        def change(session: Any, account_id: int) -> Account:
            account = session.get(Account, account_id)
            assert account is not None
            accounts.change_password(session, account, body.old_password, body.new_password)
            return account

        limiter = limiter_of(request)
        await limiter.login(address(request), me.name)  # a way to guess the password too
        async with limiter.hashing():
            account, token = await asyncio.to_thread(in_session, change, me.id)
        return signed_in(request, account, token)

    @app.post("/api/account/tokens", tags=["account"])
    def new_token(body: TokenRequest, me: Me) -> dict[str, str]:
        """An API token for a bot or a script: send it as ``Authorization: Bearer``."""
        with store.session() as session:
            return {"token": accounts.issue_token(session, me, "api", body.label)}

    @app.get("/api/account", response_model=AccountOut, tags=["account"])
    def whoami(me: Me) -> dict[str, Any]:
        return out(me)

    # -- games ---------------------------------------------------------------------------
    @app.get("/api/games", tags=["games"])
    def games() -> list[dict[str, Any]]:
        return [{"name": name, "title": cls.title, "summary": cls.summary,
                 "players": [cls.min_players, cls.max_players],
                 "default_players": cls.default_players,
                 "presets": {p: cls.rules_class.PRESET_HELP.get(p, "")
                             for p in cls.rules_class.PRESETS},
                 "rules": [s.to_json() for s in cls.rules_class.specs()],
                 "bots": {b: bot_help(name, b) for b in bot_names(name)}}
                for name, cls in sorted(registered().items())]

    # -- the lobby -----------------------------------------------------------------------
    @app.get("/api/tables", tags=["tables"])
    async def lobby(request: Request,
                    status: Annotated[str, Query(pattern="^(open|playing|over)$")] = "open",
                    limit: Annotated[int, Query(ge=1, le=200)] = 50) -> list[dict[str, Any]]:
        def ids() -> list[str]:
            with store.session() as session:
                return list(session.scalars(
                    select(GameTable.id).where(GameTable.status == status)
                    .order_by(GameTable.created_at.desc()).limit(limit)))
        hub = hub_of(request)
        return [(await hub.get(i)).summary() for i in await asyncio.to_thread(ids)]

    @app.post("/api/tables", status_code=201, tags=["tables"])
    async def create(body: CreateTable, request: Request, me: Me) -> dict[str, Any]:
        hub = hub_of(request)
        table_id = await asyncio.to_thread(
            hub.create, me, body.game, body.preset, dict(body.rules), body.players,
            list(body.seats), body.time_control.kind, body.time_control.seconds_per_move(),
            body.time_control.on_timeout, body.client_seed, body.sit)
        if not body.hints:
            await asyncio.to_thread(hints.set_allowed, store, table_id, False)
        return (await hub.get(table_id)).summary()

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def table(table_id: TableId, request: Request) -> dict[str, Any]:
        return (await hub_of(request).get(table_id)).summary()

    @app.post("/api/tables/{table_id}/join", tags=["tables"])
    async def join(table_id: TableId, body: JoinBody, request: Request,
                   me: Me) -> dict[str, Any]:
        return (await hub_of(request).join(table_id, me, body.seat, body.seed)).summary()

    @app.post("/api/tables/{table_id}/seed", tags=["tables"])
    async def seed(table_id: TableId, body: SeedBody, request: Request,
                   me: Me) -> dict[str, Any]:
        """Add your seed to the table's dice (or replace it) before the game starts: the
        dice come from the server's committed seed and every seated person's seed."""
        return (await hub_of(request).contribute(table_id, me, body.seed)).summary()

    @app.post("/api/tables/{table_id}/leave", tags=["tables"])
    async def leave(table_id: TableId, request: Request, me: Me) -> dict[str, Any]:
        return (await hub_of(request).leave(table_id, me)).summary()

    @app.post("/api/tables/{table_id}/seats/{seat}/bot", tags=["tables"])
    async def seat_bot(table_id: TableId, seat: Annotated[int, Path(ge=0, le=19)],
                       body: BotBody, request: Request, me: Me) -> dict[str, Any]:
        return (await hub_of(request).seat_bot(table_id, me, seat, body.bot)).summary()

    @app.post("/api/tables/{table_id}/start", tags=["tables"])
    async def start(table_id: TableId, body: StartBody, request: Request,
                    me: Me) -> dict[str, Any]:
        return (await hub_of(request).start(table_id, me, body.fill, body.seed)).summary()

    @app.get("/api/tables/{table_id}/state", tags=["play"])
    async def state(table_id: TableId, request: Request) -> dict[str, Any]:
        """Your seat's frame (a spectator's without a login)."""
        live = await hub_of(request).get(table_id)
        me = await asyncio.to_thread(optional, request)
        return live.frame(live.seat_of(me.id if me else None))

    @app.get("/api/tables/{table_id}/log", tags=["play"])
    async def table_log(table_id: TableId, request: Request) -> dict[str, Any]:
        """The log: while playing without hidden dice; at the end complete with the seed,
        so ``kastkopp verify`` can check every roll."""
        return (await hub_of(request).get(table_id)).public_log()

    @app.post("/api/tables/{table_id}/action", response_model=ActionOut, tags=["play"])
    async def action(table_id: TableId, body: ActionBody, request: Request,
                     me: Me) -> dict[str, Any]:
        seq = await hub_of(request).act(table_id, me.id, body.action, body.seq)
        return {"ok": True, "seq": seq}

    # -- streams ---------------------------------------------------------------------------
    async def ndjson(watcher: Watcher, request: Request,
                     on_close: Any) -> AsyncIterator[str]:
        try:
            while True:
                try:
                    text = await asyncio.wait_for(watcher.queue.get(), KEEPALIVE)
                except TimeoutError:
                    if await request.is_disconnected():
                        return
                    yield "\n"  # keep-alive, as the Lichess streams do
                    continue
                if text is None:
                    return
                yield text + "\n"
        finally:
            on_close()

    @app.get("/api/stream/event", tags=["streams"],
             response_class=StreamingResponse)
    async def event_stream(request: Request, me: Me) -> StreamingResponse:
        """NDJSON: ``gameStart``, ``yourTurn`` and ``gameFinish`` for your tables."""
        hub = hub_of(request)
        watcher = hub.watch_account(me.id)
        for table_id, seat in await asyncio.to_thread(hub.tables_of, me.id):
            live = await hub.get(table_id)
            watcher.send(json.dumps({"type": "gameStart", "table": table_id,
                                     "game": live.game.name, "seat": seat,
                                     "seed_sha256": live.commitment}))
            if live.to_move() == seat:
                watcher.send(json.dumps({"type": "yourTurn", "table": table_id,
                                         "seat": seat, "seq": live.seq,
                                         "deadline": live.deadline}))
        return StreamingResponse(
            ndjson(watcher, request, lambda: hub.unwatch_account(me.id, watcher)),
            media_type="application/x-ndjson")

    @app.get("/api/stream/table/{table_id}", tags=["streams"],
             response_class=StreamingResponse)
    async def table_stream(table_id: TableId, request: Request) -> StreamingResponse:
        """NDJSON: your seat's frame (a spectator's without a login) after every change."""
        hub = hub_of(request)
        live = await hub.get(table_id)
        me = await asyncio.to_thread(optional, request)
        watcher = hub.watch(live, live.seat_of(me.id if me else None))
        return StreamingResponse(
            ndjson(watcher, request, lambda: hub.unwatch(live, watcher)),
            media_type="application/x-ndjson")

    # -- the WebSocket ---------------------------------------------------------------------
    async def play(scope: Scope, receive: Receive, send: Send, table_id: str) -> None:
        """``WS /api/tables/{table_id}/ws``: one client at one table (see KastkoppApp)."""
        websocket = WebSocket(scope, receive, send)
        hub: Hub = websocket.app.state.hub
        lang = pages.language(websocket)
        token = origin.bearer(websocket.headers) or websocket.cookies.get(accounts.COOKIE)
        await websocket.accept()
        why = origin.socket_refusal(websocket, allowed)
        if why is not None:
            await websocket.send_text(wire.dumps({
                "type": "error", "code": why.code, "error": translate(why.message, lang),
                **why.message.to_json()}))
            await websocket.close(code=why.close)
            return
        try:
            live = await hub.get(table_id)
        except KastkoppError as exc:
            await websocket.send_text(json.dumps({"type": "error", "code": "not_found",
                                                  "error": translate(exc, lang)}))
            await websocket.close(code=4404)
            return
        account = None
        if token:
            account = await asyncio.to_thread(_account, store, token)
            if account is None:
                await websocket.send_text(json.dumps(
                    {"type": "error", "code": "not_authenticated",
                     "error": translate(BAD_TOKEN, lang)}))
                await websocket.close(code=4401)
                return
        await _play(hub, live, receive, send, account, lang)

    app.play_socket = play

    # -- matches and tournaments -----------------------------------------------------------
    @app.post("/api/series", status_code=201, tags=["series"])
    async def create_series(body: CreateSeries, request: Request, me: Me) -> dict[str, Any]:
        """Start a match, chouette or knockout: its tables are made and started as it goes.

        A registered player other than you is invited and must accept first
        (``POST /api/series/{id}/accept``); guests and bots are seated at once."""
        runner: SeriesRunner = request.app.state.series
        series_id = await asyncio.to_thread(
            runner.create, me, body.format, body.game, body.preset, dict(body.rules),
            [p.strip() for p in body.players], body.best_of, body.games)
        await runner.advance(series_id)
        return await asyncio.to_thread(runner.summary, series_id)

    @app.post("/api/series/{series_id}/accept", tags=["series"])
    async def accept_series(series_id: TableId, request: Request, me: Me) -> dict[str, Any]:
        """Accept an invitation: the series starts once every invited player has."""
        runner: SeriesRunner = request.app.state.series
        await asyncio.to_thread(runner.answer, series_id, me, True)
        await runner.advance(series_id)
        return await asyncio.to_thread(runner.summary, series_id)

    @app.post("/api/series/{series_id}/decline", tags=["series"])
    async def decline_series(series_id: TableId, request: Request,
                             me: Me) -> dict[str, Any]:
        """Decline an invitation: the series is not played."""
        runner: SeriesRunner = request.app.state.series
        await asyncio.to_thread(runner.answer, series_id, me, False)
        return await asyncio.to_thread(runner.summary, series_id)

    @app.get("/api/account/invitations", tags=["account"])
    async def invitations(request: Request, me: Me) -> list[dict[str, Any]]:
        """The series you are invited to and have not answered."""
        runner: SeriesRunner = request.app.state.series
        ids = await asyncio.to_thread(runner.invitations, me)
        return [await asyncio.to_thread(runner.summary, i) for i in ids]

    @app.get("/api/series/{series_id}", tags=["series"])
    async def series(series_id: TableId, request: Request) -> dict[str, Any]:
        """Score, standings or bracket, and every table of the series."""
        runner: SeriesRunner = request.app.state.series
        return await asyncio.to_thread(runner.summary, series_id)

    @app.get("/api/stats/{game}", tags=["statistics"])
    def game_stats(game: Annotated[str, Path(max_length=40)]) -> list[dict[str, Any]]:
        """Wins by seat and draws per preset and player count."""
        return stats.by_seat(store, game)

    @app.get("/api/ratings/{game}", tags=["statistics"])
    def ratings(game: Annotated[str, Path(max_length=40)],
                limit: Annotated[int, Query(ge=1, le=500)] = 50) -> list[dict[str, Any]]:
        """The leaderboard: openskill ratings from every finished game, multi-player aware."""
        return stats.leaderboard(store, game)[:limit]

    @app.get("/api/players/{name}/history", tags=["statistics"])
    def history(name: Annotated[str, Path(max_length=40)],
                limit: Annotated[int, Query(ge=1, le=500)] = 100) -> list[dict[str, Any]]:
        return stats.history(store, name, limit)

    @app.get("/tables/{table_id}", include_in_schema=False)
    async def invite(table_id: TableId, request: Request) -> Response:
        """Older invitations: the table's page is the invitation now."""
        live = await hub_of(request).get(table_id)
        return RedirectResponse(f"/play/{live.id}", status_code=303)

    pages.mount(app)
    app.include_router(review.router)
    return app


def refused(connection: HTTPConnection, message: Message, code: str,
            status: int = 403) -> Response:
    """A request refused before any route saw it, in the language it asks for."""
    return JSONResponse({"detail": translate(message, pages.language(connection)),
                         "code": code, **message.to_json()}, status_code=status)


async def _warm_up(workers: Workers) -> None:
    """The standard presets' solved tables, made in the background at start."""
    await workers.warm_up(await asyncio.to_thread(warm_up_works))


def _account(store: Store, token: str | None) -> Account | None:
    with store.session() as session:
        return accounts.account_for(session, token)


async def _play(hub: Hub, live: LiveTable, receive: Receive, send: Send,
                account: Account | None, lang: str = "en") -> None:
    """One client at one table, on an accepted socket: frames out through the watcher's
    queue, actions in. The socket's ASGI messages are used as they come: this is the
    loop every move of every player goes through."""
    seat = live.seat_of(account.id if account else None)
    watcher = hub.watch(live, seat)

    async def send_frames() -> None:
        with contextlib.suppress(OSError, RuntimeError):  # the client has gone
            while True:
                text = await watcher.queue.get()
                if text is None:
                    await send({"type": "websocket.close", "code": 1000})
                    return
                await send({"type": "websocket.send", "text": text})

    loop = asyncio.get_running_loop()
    sender = loop.create_task(send_frames())
    budget = wire.FrameBudget(REFUSED_PER_SECOND, REFUSED_BURST, loop.time)
    try:
        while True:
            message = await receive()
            if message["type"] != "websocket.receive":
                return  # websocket.disconnect: the client has gone
            # a text frame, or a binary one holding the same JSON
            frame = message.get("text")
            if frame is None:
                frame = message.get("bytes") or b""
            if budget.allows():
                reply = await _handle(hub, live, account, frame, lang)
                if reply["type"] == "error":
                    budget.spend()
            else:
                reply = {"type": "error", "error": f"too many frames refused: at most "
                         f"{REFUSED_PER_SECOND} a second; this one was not read"}
            watcher.send(wire.dumps(reply))
    finally:
        hub.unwatch(live, watcher)
        sender.cancel()


BAD_TOKEN = Message("the token is not valid; log in again")
NOT_A_FRAME = Message('a frame is a JSON object like {"action": "call", "seq": 12}')
ONLY_WATCHING = Message("log in to play; spectators only watch")


async def _handle(hub: Hub, live: LiveTable, account: Account | None,
                  text: str | bytes, lang: str = "en") -> dict[str, Any]:
    """Answer one frame from a client: an ``ack`` or an ``error``; errors change nothing."""
    try:
        message = wire.loads(text)
    except (ValueError, RecursionError):
        message = None
    if not isinstance(message, dict):
        return {"type": "error", "error": translate(NOT_A_FRAME, lang)}
    ref = message.get("id")
    if not isinstance(ref, str | int | None) or isinstance(ref, bool):
        ref = None
    if account is None:
        return {"type": "error", "id": ref, "error": translate(ONLY_WATCHING, lang)}
    try:
        seq = await hub.act(live.id, account.id, message.get("action"), message.get("seq"))
    except IllegalAction as exc:
        return {"type": "error", "id": ref, "error": translate(exc, lang),
                "stale": isinstance(exc, StaleAction), "seq": live.seq}
    except KastkoppError as exc:
        return {"type": "error", "id": ref, "error": translate(exc, lang), "seq": live.seq}
    return {"type": "ack", "id": ref, "seq": seq}
