"""A table's pace: the pause before each of its bots' moves, chosen when it is made.

``table_settings.pace`` in seconds; ``NULL`` keeps the server's pace (``--bot-delay``).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("table_settings", sa.Column("pace", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("table_settings") as batch:
        batch.drop_column("pace")
