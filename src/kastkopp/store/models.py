"""The tables of the server's database (SQLAlchemy 2 declarative models).

The log is the truth (see :mod:`kastkopp.engine`): :class:`LogEvent` rows keyed by
``(table_id, seq)`` are only ever inserted, and the unique key means two server processes
can never write two different moves at the same place in one game. Everything else about a
table is either set once (game, rules, seats, the dice seed) or derived from its log and
kept here only so it can be listed and counted without replaying (status, outcome).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def now() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, list[Any]: JSON}


class Account(Base):
    """A player: registered (with an argon2 password hash) or a guest with a nickname."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Token(Base):
    """A credential: a browser session (cookie) or an API token for bots and scripts.

    Only the SHA-256 of the token is stored, so a copy of the database opens no account.
    """

    __tablename__ = "tokens"

    digest: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    kind: Mapped[str] = mapped_column(String(10))  # "session" or "api"
    label: Mapped[str] = mapped_column(String(80), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class GameTable(Base):
    """A table: which game under which rules, its dice commitment and its move clock."""

    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    preset: Mapped[str | None] = mapped_column(String(40), nullable=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10), index=True)  # open, playing, over
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    # Commit–reveal dice: the hash is public from the start, the seed only at the end.
    server_seed: Mapped[str] = mapped_column(String(64))
    seed_sha256: Mapped[str] = mapped_column(String(64))
    client_seed: Mapped[str] = mapped_column(String(64))
    # Move clock: seconds per move (None: no clock) and what a timeout costs.
    clock: Mapped[str] = mapped_column(String(16), default="none")
    seconds_per_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    on_timeout: Mapped[str] = mapped_column(String(10), default="move")
    # Derived from the log when the game ends (or a player forfeits on time).
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    forfeit_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                        nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True),
                                                         nullable=True)
    # Who drives a hosted table (a Mäxchen server); None for the server's own tables.
    source: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # The seeds the seated people added, as the game was dealt with them (None while open).
    contributions: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)


class Seat(Base):
    """Who sits in a seat: an account or a bot (by name), or nobody yet."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          index=True)
    seat: Mapped[int] = mapped_column(Integer)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True,
                                                   index=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # A player from outside (a hosted table's seat), who has no account here.
    name: Mapped[str | None] = mapped_column(String(40), nullable=True)
    # The seed this seat's person added to the dice after the commitment (None: not yet).
    client_seed: Mapped[str | None] = mapped_column(String(64), nullable=True)


class LogEvent(Base):
    """One event of a table's log, exactly as :class:`kastkopp.engine.Table` records it."""

    __tablename__ = "log_events"

    # The key is the uniqueness that stops two writers from forking a game.
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))  # "roll", "action", "penalty" or "forfeit"
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str | None] = mapped_column(Text, nullable=True)
    nonce: Mapped[int | None] = mapped_column(Integer, nullable=True)
    faces: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class Series(Base):
    """A match or tournament run on the server (see :mod:`kastkopp.matches`).

    ``state`` is the library value's JSON (a fold of the results); ``recorded`` lists the
    tables whose results are in it, so a result is never counted twice.
    """

    __tablename__ = "series"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    format: Mapped[str] = mapped_column(String(10))  # match, chouette, knockout
    game: Mapped[str] = mapped_column(String(40))
    preset: Mapped[str | None] = mapped_column(String(40), nullable=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    best_of: Mapped[int] = mapped_column(Integer, default=1)
    games: Mapped[int | None] = mapped_column(Integer, nullable=True)  # chouette length
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    recorded: Mapped[list[Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(10))  # inviting, playing, over, declined
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SeriesInvite(Base):
    """A registered player named in someone else's series, who is seated only after
    accepting: ``answer`` is ``invited``, ``accepted`` or ``declined``."""

    __tablename__ = "series_invites"

    series_id: Mapped[str] = mapped_column(ForeignKey("series.id", ondelete="CASCADE"),
                                           primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            primary_key=True, index=True)
    answer: Mapped[str] = mapped_column(String(10))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class SeriesTable(Base):
    """Which table plays which game of a series (for a knockout: which match)."""

    __tablename__ = "series_tables"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    series_id: Mapped[str] = mapped_column(ForeignKey("series.id", ondelete="CASCADE"),
                                           index=True)
    slot: Mapped[dict[str, Any]] = mapped_column(JSON)


class ScoreSheet(Base):
    """A score sheet kept for an account: the entries as typed, never the derived numbers.

    The id is chosen by the browser that made the sheet, so a sheet made offline keeps its
    identity when it reaches the server; ``revision`` counts the saves the server accepted.
    """

    __tablename__ = "score_sheets"
    __table_args__ = (UniqueConstraint("account_id", "sheet_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    sheet_id: Mapped[str] = mapped_column(String(40))
    game: Mapped[str] = mapped_column(String(40))
    preset: Mapped[str | None] = mapped_column(String(40), nullable=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[Any]] = mapped_column(JSON)
    entries: Mapped[list[Any]] = mapped_column(JSON)
    revision: Mapped[int] = mapped_column(Integer, default=1)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class KnownPlayer(Base):
    """A name an account has written on its sheets, offered again on the next one."""

    __tablename__ = "known_players"
    __table_args__ = (UniqueConstraint("account_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"),
                                            index=True)
    name: Mapped[str] = mapped_column(String(40))


class ChatMessage(Base):
    """One line of a table's chat, with its author's name as it was when written."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          index=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id",
                                                              ondelete="SET NULL"),
                                                   nullable=True)
    author: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(400))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)


class TableSetting(Base):
    """Choices a table's creator made that are not house rules (the advisor's hints, the
    pace of the bots' moves)."""

    __tablename__ = "table_settings"

    table_id: Mapped[str] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"),
                                          primary_key=True)
    hints: Mapped[bool] = mapped_column(Boolean, default=True)
    # seconds before each bot's move (None: the server's pace)
    pace: Mapped[float | None] = mapped_column(Float, nullable=True)
