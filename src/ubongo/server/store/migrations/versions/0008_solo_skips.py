"""Tasks put aside counted in solo records (the result, the records and the leaderboard show them).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite adds the column by copying the table; runs stored before this
    # revision did not count their skips, and show none
    with op.batch_alter_table("solo_records") as batch:
        batch.add_column(sa.Column("skipped", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("solo_records") as batch:
        batch.drop_column("skipped")
