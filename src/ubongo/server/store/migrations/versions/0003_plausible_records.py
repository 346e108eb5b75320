"""Solo records marked plausible or not: runs faster than a hand can place the pieces are
kept but not ranked.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite adds the column by copying the table
    with op.batch_alter_table("solo_records") as batch:
        batch.add_column(
            sa.Column("plausible", sa.Boolean, nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("solo_records") as batch:
        batch.drop_column("plausible")
