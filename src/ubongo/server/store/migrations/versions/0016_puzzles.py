"""Saved puzzles, their plays, likes and reports (docs/editor.md).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

_WHEN = sa.DateTime(timezone=True)


def _by_account(name: str, *columns: sa.Column[object]) -> None:
    """A table of one row per puzzle and account."""
    op.create_table(
        name,
        sa.Column("puzzle_id", sa.String(16), sa.ForeignKey("puzzles.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        *columns,
    )


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("title", sa.String(64), nullable=False),
        sa.Column("puzzle", sa.JSON, nullable=False),
        sa.Column("solution", sa.JSON, nullable=False),
        sa.Column("pieces", sa.Integer, nullable=False),
        sa.Column("solutions", sa.Integer, nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("grade", sa.String(16), nullable=True),
        sa.Column("made_at", _WHEN, nullable=False),
        sa.Column("listed", sa.Boolean, nullable=False),
        sa.Column("published_at", _WHEN, nullable=True),
        sa.Column("hidden", sa.Boolean, nullable=False),
        sa.Column("title_hidden", sa.Boolean, nullable=False),
        sa.Column("plays", sa.Integer, nullable=False),
        sa.Column("solves", sa.Integer, nullable=False),
        sa.Column("likes", sa.Integer, nullable=False),
        sa.Column("reports", sa.Integer, nullable=False),
    )
    for column in ("account_id", "edition", "made_at", "published_at"):
        op.create_index(f"ix_puzzles_{column}", "puzzles", [column])
    _by_account(
        "puzzle_plays",
        sa.Column("outcome", sa.String(8), nullable=False),
        sa.Column("seconds", sa.Float, nullable=False),
        sa.Column("at", _WHEN, nullable=False),
    )
    _by_account("puzzle_likes", sa.Column("at", _WHEN, nullable=False))
    _by_account(
        "puzzle_reports",
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("at", _WHEN, nullable=False),
    )
    op.create_index("ix_puzzle_reports_at", "puzzle_reports", ["at"])


def downgrade() -> None:
    for name in ("puzzle_reports", "puzzle_likes", "puzzle_plays", "puzzles"):
        op.drop_table(name)
