"""Limits on what one address or one name can ask of the server, with the ``limits``
library (moving windows, kept in the process's memory).

- logins: per address and per account name, so neither a flood from one place nor a
  guessing of one account's password from many goes far;
- new accounts and guests: per address, and guests for everybody together;
- new rule sets (a house rule set nobody has solved, whose table a bot or a hint needs
  solved: a solve in a worker and a file in the disk cache): per account and per address;
  the standard presets and rule sets already solved do not count;
- password hashing (argon2id, 19 MiB and tens of milliseconds each): at most one per two
  cores at once, in a process of their own at the lowest priority
  (:class:`~kastkopp.server.accounts.LowlyHasher`), a bounded number waiting; past that
  refused at once.

A refused request gets ``429`` with ``Retry-After`` (seconds) and a translated message; a
full hashing queue ``503`` (:class:`~kastkopp.server.workers.Busy`). Several server
processes each count for themselves.

A limit once used up is remembered until its window frees a place, so the next request
is refused without asking the window again; and a login from an address whose logins
are used up is refused by :class:`RefuseEarly` before any route reads it — a flood of
wrong passwords costs the server as little as a request can.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import math
import os
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter
from starlette.requests import HTTPConnection
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from kastkopp.engine import KastkoppError, Message
from kastkopp.locale.messages import translate
from kastkopp.server.languages import language
from kastkopp.server.workers import Busy

BLOCKED_KEPT = 10_000  # used-up limits remembered at once; expired ones go first


TOO_MANY = Message("too many attempts; try again in {seconds} s")
TOO_MANY_NEW_RULES = Message("too many new rule sets to solve; try again in {seconds} s or play "
                             "rules already solved")


class RateLimited(KastkoppError):
    """Too many requests of one kind from one address or for one name."""

    code = "rate_limited"

    def __init__(self, retry_after: int, said: Message = TOO_MANY) -> None:
        super().__init__(Message(said.template, {"seconds": retry_after}))
        self.retry_after = retry_after


HASHING_BUSY = Message("too many logins at once; try again in a moment")


@dataclass(frozen=True)
class RateLimits:
    """How much is allowed (``"N/second|minute|hour"``); the defaults are far above what a
    person does and far below a flood."""

    login_per_address: str = "30/minute"
    login_per_account: str = "10/minute"
    register_per_address: str = "10/minute"
    guest_per_address: str = "30/minute"
    guest_everybody: str = "600/minute"
    # rule sets nobody has solved yet (each a solve and a file of the disk cache)
    new_rules_per_account: str = "10/hour"
    new_rules_per_address: str = "20/hour"
    # argon2 hashes running at once (19 MiB each), half the cores: the rest play
    hashing_at_once: int = max(1, (os.cpu_count() or 2) // 2)
    hashing_waiting: int = 32  # requests waiting for one; more are refused at once
    # seconds a login refused unread is held before its answer (see RefuseEarly), and how
    # many are held at once (more are answered at once)
    refused_login_pause: float = 1.0
    refused_held: int = 1_000

    def __post_init__(self) -> None:
        for name in ("login_per_address", "login_per_account", "register_per_address",
                     "guest_per_address", "guest_everybody", "new_rules_per_account",
                     "new_rules_per_address"):
            try:
                parse(getattr(self, name))
            except ValueError:
                raise ValueError(f"a rate limit is like '30/minute', not "
                                 f"'{getattr(self, name)}'") from None


class Limiter:
    """The server's rate limits and its gate to password hashing."""

    def __init__(self, limits: RateLimits | None = None) -> None:
        self.limits = limits or RateLimits()
        self.window = MovingWindowRateLimiter(MemoryStorage())
        self._hashing = asyncio.Semaphore(self.limits.hashing_at_once)
        self.hashing_waiting = 0
        # (kind, key) -> when its used-up limit frees a place (time.time())
        self._blocked: dict[tuple[str, str], float] = {}

    def blocked(self, kind: str, key: str) -> int | None:
        """Seconds until ``key`` may try ``kind`` again, if its limit is known to be used up
        (``None``: it may try, as far as is known without asking the window)."""
        until = self._blocked.get((kind, key))
        if until is None:
            return None
        left = until - time.time()
        if left <= 0:
            del self._blocked[(kind, key)]
            return None
        return max(1, math.ceil(left))

    def _block(self, kind: str, key: str, until: float) -> None:
        if len(self._blocked) >= BLOCKED_KEPT:
            now = time.time()
            self._blocked = {k: t for k, t in self._blocked.items() if t > now}
            if len(self._blocked) >= BLOCKED_KEPT:
                return  # that many floods at once: each asks the window
        self._blocked[(kind, key)] = until

    async def check(self, *checks: tuple[str, str, str], said: Message = TOO_MANY) -> None:
        """Count one request against each ``(limit, kind, key)``, or raise
        :class:`RateLimited` (saying ``said``) if any is used up (and then count none)."""
        for _, kind, key in checks:
            if (seconds := self.blocked(kind, key)) is not None:
                raise RateLimited(seconds, said)
        items: list[tuple[RateLimitItem, str, str]] = [
            (_parsed(limit), kind, key) for limit, kind, key in checks]
        for item, kind, key in items:
            if not await self.window.test(item, kind, key):
                stats = await self.window.get_window_stats(item, kind, key)
                self._block(kind, key, stats.reset_time)
                raise RateLimited(max(1, math.ceil(stats.reset_time - time.time())), said)
        for item, kind, key in items:
            await self.window.hit(item, kind, key)

    async def login(self, address: str, name: str) -> None:
        await self.check((self.limits.login_per_address, "login", address),
                         (self.limits.login_per_account, "login-name", name.lower()))

    async def register(self, address: str) -> None:
        await self.check((self.limits.register_per_address, "register", address))

    async def guest(self, address: str) -> None:
        await self.check((self.limits.guest_per_address, "guest", address),
                         (self.limits.guest_everybody, "guest", "*"))

    async def new_rules(self, address: str, account_id: int) -> None:
        """Count a rule set nobody has solved, asked for by one account from one address."""
        await self.check((self.limits.new_rules_per_account, "new-rules", str(account_id)),
                         (self.limits.new_rules_per_address, "new-rules-address", address),
                         said=TOO_MANY_NEW_RULES)

    @contextlib.asynccontextmanager
    async def hashing(self) -> AsyncIterator[None]:
        """A turn to hash a password (run it in a thread); :class:`Busy` if too many
        wait already."""
        if self.hashing_waiting >= self.limits.hashing_waiting:
            raise Busy(HASHING_BUSY)
        self.hashing_waiting += 1
        try:
            async with self._hashing:
                yield
        finally:
            self.hashing_waiting -= 1


@functools.lru_cache(maxsize=64)
def _parsed(limit: str) -> RateLimitItem:
    return parse(limit)


class RefuseEarly:
    """ASGI middleware: a login from an address whose logins are used up is answered
    ``429``, as the route would answer it, without routing, reading or validating the
    request.

    The answer comes after a pause (:attr:`RateLimits.refused_login_pause`, never longer
    than the wait it announces): a client that tries again as soon as it is refused (a
    flood of wrong passwords) is slowed to one try a second on each of its connections,
    and the server's time goes to its players. A pause costs a sleeping request; past
    :attr:`RateLimits.refused_held` of them at once the refusal is answered at once.
    """

    PATH = "/api/account/login"

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.held = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["path"] == self.PATH and \
                scope.get("method") == "POST":
            limiter: Limiter | None = getattr(scope["app"].state, "limiter", None)
            client = scope.get("client")
            address = client[0] if client else "-"
            seconds = None if limiter is None else limiter.blocked("login", address)
            if seconds is not None:
                assert limiter is not None
                pause = min(limiter.limits.refused_login_pause, seconds)
                if pause > 0 and self.held < limiter.limits.refused_held:
                    self.held += 1
                    try:
                        await asyncio.sleep(pause)
                    finally:
                        self.held -= 1
                    seconds = limiter.blocked("login", address) or 1  # the wait left
                refused = RateLimited(seconds)
                response = JSONResponse(
                    {"detail": translate(refused, language(HTTPConnection(scope))),
                     **refused.message.to_json()},
                    status_code=429, headers={"Retry-After": str(seconds)})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)
