"""Ratings: one per edition for each account and each bot level (OpenSkill mu, sigma, games);
and each rated game's change of an account's display rating, for the profile's chart.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("edition", sa.String(16), primary_key=True),
        sa.Column("subject", sa.String(32), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("games", sa.Integer, nullable=False),
    )
    op.create_index("ix_ratings_account_id", "ratings", ["account_id"])
    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("before", sa.Integer, nullable=False),
        sa.Column("after", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rating_history_account_id", "rating_history", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_account_id", "rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_account_id", "ratings")
    op.drop_table("ratings")
