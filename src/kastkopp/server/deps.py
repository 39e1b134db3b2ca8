"""What a route asks for: who is asking, the table service, the store, the settings.

Every router takes these as FastAPI dependencies (``me: Me``, ``hub: HubDep``...), so no
route module imports the app and the app imports every route module: the arrows point one
way. The objects themselves live on ``app.state``, put there by
:func:`kastkopp.server.app.create_app` (the store, the settings) and its lifespan (the
hub, the series runner, the limiter, the workers).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Annotated

from fastapi import Depends, Path, Request
from starlette.requests import HTTPConnection

from kastkopp.server import accounts, origin
from kastkopp.server.hub import Hub
from kastkopp.server.limits import Limiter, RateLimits
from kastkopp.server.lobby import ABANDONED_AFTER
from kastkopp.server.series import SeriesRunner
from kastkopp.store import Account, Store

TableId = Annotated[str, Path(min_length=1, max_length=16, pattern=r"^[A-Za-z0-9_-]+$")]


@dataclass(frozen=True)
class Settings:
    """How one server runs (see :func:`kastkopp.server.app.create_app` for each one)."""

    db: str | None = None
    redis_url: str | None = None
    bot_delay: float = 0.0
    migrate: bool = True
    maexchen: tuple[str, int] | None = None
    maexchen_timeout: float = 0.25
    origins: tuple[str, ...] = ()  # the other sites allowed (resolved: see origin)
    rate_limits: RateLimits | None = None
    workers: int = 1
    work_queue: int = 8
    warm_up: bool = False
    ladders: FilePath | None = None  # the folder of bot ladders /stats/GAME shows (see stats)
    abandoned_after: float = ABANDONED_AFTER  # seconds without a move (see server.lobby)


def settings_of(connection: HTTPConnection) -> Settings:
    settings: Settings = connection.app.state.settings
    return settings


def hub_of(connection: HTTPConnection) -> Hub:
    hub: Hub = connection.app.state.hub
    return hub


def store_of(connection: HTTPConnection) -> Store:
    store: Store = connection.app.state.store
    return store


def series_of(request: Request) -> SeriesRunner:
    runner: SeriesRunner = request.app.state.series
    return runner


def limiter_of(request: Request) -> Limiter:
    limiter: Limiter = request.app.state.limiter
    return limiter


def token_of(request: Request) -> str | None:
    return origin.bearer(request.headers) or request.cookies.get(accounts.COOKIE)


def account_for(store: Store, token: str | None) -> Account | None:
    with store.session() as session:
        return accounts.account_for(session, token)


def accounts_for(store: Store, tokens: list[str]) -> dict[str, Account]:
    """The accounts of many tokens at once (see :class:`kastkopp.server.batched.Batched`)."""
    with store.session() as session:
        return accounts.accounts_for(session, tokens)


def current(request: Request) -> Account:
    """The account of the request's session cookie or bearer token (else 401)."""
    account = account_for(store_of(request), token_of(request))
    if account is None:
        raise accounts.NotAuthenticated("log in first (a session cookie or an "
                                        "'Authorization: Bearer <token>' header)")
    return account


def optional(request: Request) -> Account | None:
    return account_for(store_of(request), token_of(request))


def address(request: Request) -> str:
    return request.client.host if request.client is not None else "-"


Me = Annotated[Account, Depends(current)]
HubDep = Annotated[Hub, Depends(hub_of)]
StoreDep = Annotated[Store, Depends(store_of)]
SeriesDep = Annotated[SeriesRunner, Depends(series_of)]
LimiterDep = Annotated[Limiter, Depends(limiter_of)]
SettingsDep = Annotated[Settings, Depends(settings_of)]
