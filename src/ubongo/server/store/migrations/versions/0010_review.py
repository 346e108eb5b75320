"""Held results and moderators' decisions (docs/fair-play.md): the held results, the decisions'
log, and the mark of an account found cheating.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("marked_at", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "held_results",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("reasons", sa.JSON, nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("held_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_held_results_account_id", "held_results", ["account_id"])
    op.create_index("ix_held_results_status", "held_results", ["status"])
    op.create_table(
        "review_decisions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("moderator", sa.String(64), nullable=False),
        sa.Column("decision", sa.String(8), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("held_id", sa.Integer, sa.ForeignKey("held_results.id"), nullable=True),
        sa.Column("note", sa.String(500), nullable=False),
        sa.Column("changes", sa.JSON, nullable=False),
    )
    op.create_index("ix_review_decisions_account_id", "review_decisions", ["account_id"])


def downgrade() -> None:
    op.drop_table("review_decisions")
    op.drop_table("held_results")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("marked_at")
