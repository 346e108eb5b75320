"""Games and solo records.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("mode", sa.String(8), nullable=False),
        sa.Column("variant", sa.String(32), nullable=False),
        sa.Column("settings", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("events", sa.JSON, nullable=False),
        sa.Column("result", sa.JSON, nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_games_edition", "games", ["edition"])
    op.create_index("ix_games_finished_at", "games", ["finished_at"])
    op.create_table(
        "solo_records",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("goal", sa.String(8), nullable=False),
        sa.Column("amount", sa.Integer, nullable=False),
        sa.Column("side", sa.String(16), nullable=False),
        sa.Column("score", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_solo_records_name", "solo_records", ["name"])
    op.create_index("ix_solo_records_kind", "solo_records", ["edition", "goal", "amount", "side"])


def downgrade() -> None:
    op.drop_table("solo_records")
    op.drop_table("games")
