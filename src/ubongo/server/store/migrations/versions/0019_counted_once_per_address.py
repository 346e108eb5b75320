"""Plays and likes of a saved puzzle counted once per address (docs/editor.md, "One address,
one count").

A like is kept for each account, but counts in the puzzle's likes only if no account of its
address (nor the author's) liked it before: ``puzzle_likes.counted``. Plays already said
which of them taught the rating (``puzzle_plays.rated``, one per address); the puzzle's play
and solve counts now count those only, and are counted again here from them.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("puzzle_likes") as batch:
        batch.add_column(sa.Column("counted", sa.Boolean, nullable=False, server_default=sa.true()))
    plays = sa.table(
        "puzzle_plays",
        sa.column("puzzle_id", sa.String),
        sa.column("outcome", sa.String),
        sa.column("rated", sa.Boolean),
    )
    puzzles = sa.table(
        "puzzles", sa.column("id", sa.String), sa.column("plays"), sa.column("solves")
    )
    counted = sa.and_(plays.c.puzzle_id == puzzles.c.id, plays.c.rated.is_(True))
    count = sa.select(sa.func.count()).select_from(plays)
    op.execute(
        puzzles.update().values(
            plays=count.where(counted).scalar_subquery(),
            solves=count.where(counted, plays.c.outcome == "solved").scalar_subquery(),
        )
    )


def downgrade() -> None:
    with op.batch_alter_table("puzzle_likes") as batch:
        batch.drop_column("counted")
