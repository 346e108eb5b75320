"""Follows and challenges (docs/social.md).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "follows",
        sa.Column("follower_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("followed_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_follows_followed_id", "follows", ["followed_id"])
    op.create_table(
        "challenges",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("from_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("to_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("rated", sa.Boolean, nullable=False),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("room", sa.String(16), nullable=True),
        sa.Column("seat", sa.JSON, nullable=True),
    )
    op.create_index("ix_challenges_from_id", "challenges", ["from_id"])
    op.create_index("ix_challenges_to_id", "challenges", ["to_id"])
    op.create_index("ix_challenges_made_at", "challenges", ["made_at"])


def downgrade() -> None:
    op.drop_table("challenges")
    op.drop_table("follows")
