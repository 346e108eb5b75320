"""Daily challenge results (one row per run, rated or not), and hints counted in solo records.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # batch mode: SQLite adds the column by copying the table
    with op.batch_alter_table("solo_records") as batch:
        batch.add_column(sa.Column("hints", sa.Integer, nullable=False, server_default="0"))
    op.create_table(
        "daily_results",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("account", sa.Integer, nullable=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("skipped", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("times", sa.JSON, nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("unrated", sa.String(120), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    # the day's leaderboard, and an account's earlier runs of a day
    op.create_index("ix_daily_results_day", "daily_results", ["edition", "day", "rated"])
    op.create_index("ix_daily_results_account", "daily_results", ["account", "edition", "day"])


def downgrade() -> None:
    op.drop_index("ix_daily_results_account", "daily_results")
    op.drop_index("ix_daily_results_day", "daily_results")
    op.drop_table("daily_results")
    with op.batch_alter_table("solo_records") as batch:
        batch.drop_column("hints")
