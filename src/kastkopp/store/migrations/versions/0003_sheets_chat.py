"""Score sheets and remembered players per account, table chat, table settings.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "score_sheets",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("sheet_id", sa.String(40), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("preset", sa.String(40), nullable=True),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("entries", sa.JSON(), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("account_id", "sheet_id"),
    )
    op.create_index("ix_score_sheets_account_id", "score_sheets", ["account_id"])
    op.create_table(
        "known_players",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(),
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.UniqueConstraint("account_id", "name"),
    )
    op.create_index("ix_known_players_account_id", "known_players", ["account_id"])
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("table_id", sa.String(16),
                  sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("account_id", sa.Integer(),
                  sa.ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
        sa.Column("author", sa.String(40), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_messages_table_id", "chat_messages", ["table_id"])
    op.create_table(
        "table_settings",
        sa.Column("table_id", sa.String(16),
                  sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("hints", sa.Boolean(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_settings")
    op.drop_table("chat_messages")
    op.drop_table("known_players")
    op.drop_table("score_sheets")
