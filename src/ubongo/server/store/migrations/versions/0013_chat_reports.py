"""Reported lines of chat (docs/social.md).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("said_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_chat_reports_account_id", "chat_reports", ["account_id"])
    op.create_index("ix_chat_reports_at", "chat_reports", ["at"])


def downgrade() -> None:
    op.drop_table("chat_reports")
