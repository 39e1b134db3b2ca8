"""Seed contributions: the seed each seated person adds to a table's dice.

``seats.client_seed`` holds it (``NULL`` until given, and for bots). A table whose
``game_tables.client_seed`` is empty rolls from the server seed and these contributions;
tables made before keep the one client seed they were made with.

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
    op.add_column("seats", sa.Column("client_seed", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("client_seed")
