"""The server's storage: SQLAlchemy 2 over SQLite (default) or PostgreSQL.

>>> store = Store("sqlite://")        # in memory; a file path or postgresql+psycopg://... too
>>> store.migrate()                   # Alembic: bring the schema to the newest revision
>>> store.url.get_backend_name()
'sqlite'

The default database is a SQLite file in the user data directory (see :func:`default_url`),
opened in WAL mode with ``synchronous=FULL`` so that a committed move survives a crash or
power cut, and readers never wait for the writer.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, make_url
from sqlalchemy.engine import URL
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from kastkopp.store.models import (
    Account,
    Base,
    ChatMessage,
    GameTable,
    KnownPlayer,
    LogEvent,
    ScoreSheet,
    Seat,
    Series,
    SeriesInvite,
    SeriesTable,
    TableSetting,
    Token,
)

__all__ = ["Account", "Base", "ChatMessage", "GameTable", "KnownPlayer", "LogEvent",
           "ScoreSheet", "Seat", "Series", "SeriesInvite", "SeriesTable", "Store",
           "TableSetting", "Token", "default_url"]

MIGRATIONS = Path(__file__).with_name("migrations")


def default_url() -> str:
    """``sqlite:///<user data dir>/kastkopp.db`` (the directory is created)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("kastkopp", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'kastkopp.db'}"


def normalise_url(url: str) -> str:
    """Accept a bare file path for SQLite and ``postgresql://`` for psycopg 3."""
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")  # every commit reaches the disk
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


class Store:
    """A database connection pool with sessions and the schema's migrations."""

    def __init__(self, url: str | None = None) -> None:
        self.url: URL = make_url(normalise_url(url or default_url()))
        kwargs: dict[str, Any] = {}
        if self.url.get_backend_name() == "sqlite":
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 10}
            if self.url.database in (None, "", ":memory:"):
                kwargs["poolclass"] = StaticPool  # one shared in-memory database
        else:
            kwargs["pool_size"] = 10
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        if self.url.get_backend_name() == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def is_sqlite(self) -> bool:
        return self.url.get_backend_name() == "sqlite"

    @property
    def is_sqlite_file(self) -> bool:
        """SQLite in a file (each connection its own), not one shared in memory."""
        return self.is_sqlite and self.url.database not in (None, "", ":memory:")

    def migrate(self, revision: str = "head") -> None:
        """Apply the Alembic migrations up to ``revision`` (safe to call on every start)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, revision)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session committed on success and rolled back on error."""
        with self.sessions() as session:
            try:
                yield session
                session.commit()
            except BaseException:
                session.rollback()
                raise

    def dispose(self) -> None:
        self.engine.dispose()
