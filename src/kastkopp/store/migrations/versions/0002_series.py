"""Matches and tournaments: series and the tables that play their games.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "series",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("format", sa.String(10), nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("preset", sa.String(40), nullable=True),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("best_of", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=True),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("recorded", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("owner_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "series_tables",
        sa.Column("table_id", sa.String(16),
                  sa.ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("series_id", sa.String(16), sa.ForeignKey("series.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("slot", sa.JSON(), nullable=False),
    )
    op.create_index("ix_series_tables_series_id", "series_tables", ["series_id"])


def downgrade() -> None:
    op.drop_table("series_tables")
    op.drop_table("series")
