"""Seed contributions: the seed each seated person adds to a table's dice.

``seats.client_seed`` holds it while the table is open (``NULL`` until given, and for bots);
``game_tables.contributions`` keeps the ones the game was dealt with, written with its first
roll, so a seed changed in another process at that moment cannot change a started game's
dice. A table whose ``game_tables.client_seed`` is empty rolls from the server seed and
these contributions; tables made before keep the one client seed they were made with.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("client_seed", sa.String(64), nullable=True))
    op.add_column("game_tables", sa.Column("contributions", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("contributions")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("client_seed")
