"""Saved puzzles rated by play, packs listed (docs/editor.md, "The community list").

A puzzle's Glicko-2 rating learned from its plays (null until the first play that teaches it)
and how many plays taught it; which plays did (one per address: docs/editor.md); whether a
pack is listed in the community list, and since when.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("puzzles") as batch:
        for column in ("rating", "rd", "volatility"):
            batch.add_column(sa.Column(column, sa.Float, nullable=True))
        batch.add_column(sa.Column("rated_plays", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("puzzle_plays") as batch:
        batch.add_column(sa.Column("rated", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("packs") as batch:
        batch.add_column(sa.Column("listed", sa.Boolean, nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("published_at", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_packs_published_at", ["published_at"])


def downgrade() -> None:
    with op.batch_alter_table("packs") as batch:
        batch.drop_index("ix_packs_published_at")
        batch.drop_column("published_at")
        batch.drop_column("listed")
    with op.batch_alter_table("puzzle_plays") as batch:
        batch.drop_column("rated")
    with op.batch_alter_table("puzzles") as batch:
        for column in ("rated_plays", "volatility", "rd", "rating"):
            batch.drop_column(column)
