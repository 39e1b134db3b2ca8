"""Accounts: argon2 password hashes, session cookies for browsers, tokens for programs.

A token is 32 random bytes shown once; the database keeps only its SHA-256. Browsers get
it in an HttpOnly cookie (``Secure`` over HTTPS), bots and scripts send it as
``Authorization: Bearer <token>`` (never in a URL, where logs would keep it).
Guests are accounts without a password whose name is their nickname plus a short tag.
"""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from kastkopp.engine import KastkoppError
from kastkopp.server import children
from kastkopp.store import Account, Token

COOKIE = "kastkopp_session"
NAME = re.compile(r"^[A-Za-z0-9ÅÄÖÆØåäöæøÜüé_.-]{2,24}$")
MIN_PASSWORD = 8

T = TypeVar("T")

HASHING_NICENESS = 19  # the lowest priority: a login waits for the players, not they for it

# argon2id with OWASP's first recommended parameters (19 MiB, two passes, one lane) rather
# than argon2-cffi's default (RFC 9106's 64 MiB, three passes, four lanes): a ninth of the
# processor time and a third of the memory, in one thread. Hashes carry their parameters,
# so older ones still verify, and a login with one makes it anew (check_needs_rehash).
HASH_MEMORY_KIB = 19 * 1024
HASH_PASSES = 2
HASH_LANES = 1


_ARGON = PasswordHasher(time_cost=HASH_PASSES, memory_cost=HASH_MEMORY_KIB,
                        parallelism=HASH_LANES)


def _hash(password: str) -> str:
    return _ARGON.hash(password)


def _verify(hashed: str, password: str) -> bool:
    return _ARGON.verify(hashed, password)


class LowlyHasher:
    """argon2id (19 MiB, one thread each hash) in a process of its own at the lowest
    priority, so that a crowd of logins takes only the processor time the players leave.

    A process, not a thread: a thread of the server at the lowest priority still takes the
    interpreter's lock to hand its hash back, and the event loop would wait for it as long
    as anything else has the core. The caller's thread waits for the answer.

    >>> hasher = LowlyHasher()
    >>> hasher.verify(hasher.hash("a long secret"), "a long secret")
    True
    """

    def __init__(self) -> None:
        self.argon = _ARGON
        self._pool: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the hashing process (started at the first call; again
        after it died)."""
        with self._lock:
            if self._pool is None:
                self._pool = children.pool(1, HASHING_NICENESS)
            pool = self._pool
        try:
            return pool.submit(function, *args).result()
        except BrokenProcessPool:
            with self._lock:
                if self._pool is pool:
                    self._pool = None
            raise

    def close(self) -> None:
        """Stop the hashing process (a next call starts another)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def hash(self, password: str) -> str:
        return self.run(_hash, password)

    def verify(self, hashed: str, password: str) -> bool:
        return self.run(_verify, hashed, password)

    def check_needs_rehash(self, hashed: str) -> bool:
        return self.argon.check_needs_rehash(hashed)


_hasher = LowlyHasher()


def start_hashing() -> None:
    """Start the hashing process now, as the server starts: the first login then waits
    neither for it nor has the players wait while it starts (a second of importing)."""
    _hasher.run(os.getpid)


class AccountError(KastkoppError):
    """A registration, login or password change that cannot be done, with the reason."""


class NotAuthenticated(KastkoppError):
    """No valid session cookie or token came with the request."""

    code = "not_authenticated"


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: str) -> str:
    if not NAME.match(name):
        raise AccountError("a name is 2 to 24 letters, digits, '.', '_' or '-'")
    if name.lower().startswith("bot"):
        raise AccountError("names starting with 'bot' are kept for the house bots")
    return name


def check_password(password: str) -> str:
    if len(password) < MIN_PASSWORD:
        raise AccountError("a password needs at least {least} characters", least=MIN_PASSWORD)
    if len(password) > 256:
        raise AccountError("a password may be at most 256 characters")
    return password


def issue_token(session: Session, account: Account, kind: str, label: str = "") -> str:
    token = secrets.token_urlsafe(32)
    session.add(Token(digest=digest(token), account_id=account.id, kind=kind,
                      label=label[:80]))
    return token


def register(session: Session, name: str, password: str) -> Account:
    check_name(name)
    check_password(password)
    if session.scalar(select(Account).where(Account.name == name)) is not None:
        raise AccountError("the name '{name}' is taken", name=name)
    account = _insert(session, Account(name=name, password_hash=_hasher.hash(password),
                                       guest=False))
    if account is None:  # registered by someone else between the look and the insert
        raise AccountError("the name '{name}' is taken", name=name)
    return account


def guest(session: Session, nickname: str) -> Account:
    check_name(nickname[:19] or "-")
    for _ in range(20):
        name = f"{nickname[:19]}~{secrets.token_hex(2)}"
        if session.scalar(select(Account).where(Account.name == name)) is not None:
            continue
        account = _insert(session, Account(name=name, password_hash=None, guest=True))
        if account is not None:
            return account
    raise AccountError("no free guest name for '{nickname}' now; try another nickname",
                    nickname=nickname[:19])


def _insert(session: Session, account: Account) -> Account | None:
    """The account added, or ``None`` when its name was taken meanwhile (the unique key
    decides races between requests; the session stays usable)."""
    try:
        with session.begin_nested():
            session.add(account)
    except IntegrityError:
        return None
    return account


def login(session: Session, name: str, password: str) -> Account:
    account = session.scalar(select(Account).where(Account.name == name))
    wrong = AccountError("wrong name or password")
    if account is None or account.password_hash is None:
        _hasher.hash(password)  # spend the same time, so names cannot be probed
        raise wrong
    try:
        _hasher.verify(account.password_hash, password)
    except (VerificationError, InvalidHashError):
        raise wrong from None
    if _hasher.check_needs_rehash(account.password_hash):
        account.password_hash = _hasher.hash(password)
    return account


def change_password(session: Session, account: Account, old: str, new: str) -> None:
    if account.password_hash is None:
        raise AccountError("a guest has no password; register an account instead")
    try:
        _hasher.verify(account.password_hash, old)
    except (VerificationError, InvalidHashError):
        raise AccountError("the old password is wrong") from None
    account.password_hash = _hasher.hash(check_password(new))
    # Every other session ends with the old password; API tokens stay.
    session.execute(delete(Token).where(Token.account_id == account.id,
                                        Token.kind == "session"))


def account_for(session: Session, token: str | None) -> Account | None:
    if not token or len(token) > 200:
        return None
    row = session.get(Token, digest(token))
    return None if row is None else session.get(Account, row.account_id)


def accounts_for(session: Session, tokens: list[str]) -> dict[str, Account]:
    """The account of each token among ``tokens`` that opens one, in one query."""
    digests = {digest(token): token for token in tokens if token and len(token) <= 200}
    if not digests:
        return {}
    rows = session.execute(select(Token.digest, Account)
                           .join(Account, Account.id == Token.account_id)
                           .where(Token.digest.in_(list(digests))))
    return {digests[found]: account for found, account in rows}


def revoke(session: Session, token: str) -> None:
    session.execute(delete(Token).where(Token.digest == digest(token)))
