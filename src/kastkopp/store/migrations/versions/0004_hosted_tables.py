"""Hosted tables: games played elsewhere (a Mäxchen server) and watched here.

``game_tables.source`` names who drives a table (``NULL`` for the server's own), and
``seats.name`` holds the name of a player from outside, who has no account here.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("source", sa.String(40), nullable=True))
    op.add_column("seats", sa.Column("name", sa.String(40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("name")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("source")
