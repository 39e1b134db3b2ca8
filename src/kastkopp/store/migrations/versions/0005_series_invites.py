"""Series invitations: a registered player named in someone else's series must accept.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "series_invites",
        sa.Column("series_id", sa.String(16),
                  sa.ForeignKey("series.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("account_id", sa.Integer,
                  sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("answer", sa.String(10), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_series_invites_account_id", "series_invites", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_series_invites_account_id", "series_invites")
    op.drop_table("series_invites")
