"""Accounts, tokens, tables, seats and the append-only log.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("guest", sa.Boolean(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("label", sa.String(80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tokens_account_id", "tokens", ["account_id"])
    op.create_table(
        "game_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("preset", sa.String(40), nullable=True),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("owner_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("seed_sha256", sa.String(64), nullable=False),
        sa.Column("client_seed", sa.String(64), nullable=False),
        sa.Column("clock", sa.String(16), nullable=False),
        sa.Column("seconds_per_move", sa.Integer(), nullable=True),
        sa.Column("on_timeout", sa.String(10), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("forfeit_seat", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_game_tables_game", "game_tables", ["game"])
    op.create_index("ix_game_tables_status", "game_tables", ["status"])
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(16),
                  sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("bot", sa.String(40), nullable=True),
        sa.UniqueConstraint("table_id", "seat"),
    )
    op.create_index("ix_seats_table_id", "seats", ["table_id"])
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.create_table(
        "log_events",
        sa.Column("table_id", sa.String(16),
                  sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.Text(), nullable=True),
        sa.Column("nonce", sa.Integer(), nullable=True),
        sa.Column("faces", sa.JSON(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("log_events")
    op.drop_table("seats")
    op.drop_table("game_tables")
    op.drop_table("tokens")
    op.drop_table("accounts")
