"""Packs: an account's ordered sets of saved puzzles (docs/editor.md, "Packs").

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "packs",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("title", sa.String(64), nullable=False),
        sa.Column("puzzle_ids", sa.JSON, nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
    )
    for column in ("account_id", "made_at"):
        op.create_index(f"ix_packs_{column}", "packs", [column])


def downgrade() -> None:
    op.drop_table("packs")
