"""Accounts: register, log in (a person, a guest), log out, passwords and API tokens.

Rate-limited (429), and the password hashing a few at a time in threads (503 when too many
wait): a flood of logins takes neither the memory nor the event loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from kastkopp.server import accounts
from kastkopp.server.deps import LimiterDep, Me, StoreDep, address, token_of
from kastkopp.store import Account, Store

router = APIRouter(tags=["account"])


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


def out(account: Account) -> dict[str, Any]:
    return {"id": account.id, "name": account.name, "guest": account.guest}


def signed_in(request: Request, account: Account, token: str) -> JSONResponse:
    response = JSONResponse({"account": out(account), "token": token})
    response.set_cookie(accounts.COOKIE, token, httponly=True, samesite="lax",
                        secure=request.url.scheme == "https", max_age=90 * 86400)
    return response


def in_session(store: Store, act: Callable[..., Account], *args: Any) -> tuple[Account, str]:
    with store.session() as session:
        account = act(session, *args)
        return account, accounts.issue_token(session, account, "session")


@router.post("/api/account/register", response_model=LoginOut)
async def register(body: Credentials, request: Request, store: StoreDep,
                   limiter: LimiterDep) -> Response:
    await limiter.register(address(request))
    async with limiter.hashing():
        account, token = await asyncio.to_thread(in_session, store, accounts.register,
                                                 body.name, body.password)
    return signed_in(request, account, token)


@router.post("/api/account/login", response_model=LoginOut)
async def login(body: Credentials, request: Request, store: StoreDep,
                limiter: LimiterDep) -> Response:
    await limiter.login(address(request), body.name)
    async with limiter.hashing():
        account, token = await asyncio.to_thread(in_session, store, accounts.login,
                                                 body.name, body.password)
    return signed_in(request, account, token)


@router.post("/api/account/guest", response_model=LoginOut)
async def guest(body: GuestBody, request: Request, store: StoreDep,
                limiter: LimiterDep) -> Response:
    await limiter.guest(address(request))
    account, token = await asyncio.to_thread(in_session, store, accounts.guest,
                                             body.nickname)
    return signed_in(request, account, token)


@router.post("/api/account/logout")
def logout(request: Request, me: Me, store: StoreDep) -> Response:
    token = token_of(request)
    with store.session() as session:
        if token:
            accounts.revoke(session, token)
    response = JSONResponse({"ok": True})
    response.delete_cookie(accounts.COOKIE)
    return response


@router.post("/api/account/password")
async def password(body: PasswordChange, request: Request, me: Me, store: StoreDep,
                   limiter: LimiterDep) -> Response:
    def change(session: Any, account_id: int) -> Account:
        account = session.get(Account, account_id)
        assert account is not None
        accounts.change_password(session, account, body.old_password, body.new_password)
        return account

    await limiter.login(address(request), me.name)  # a way to guess the password too
    async with limiter.hashing():
        account, token = await asyncio.to_thread(in_session, store, change, me.id)
    return signed_in(request, account, token)


@router.post("/api/account/tokens")
def new_token(body: TokenRequest, me: Me, store: StoreDep) -> dict[str, str]:
    """An API token for a bot or a script: send it as ``Authorization: Bearer``."""
    with store.session() as session:
        return {"token": accounts.issue_token(session, me, "api", body.label)}


@router.get("/api/account", response_model=AccountOut)
def whoami(me: Me) -> dict[str, Any]:
    return out(me)
