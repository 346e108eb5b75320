"""The addresses each account used lately, salted and hashed (quick match does not seat
together accounts that shared one: docs/fair-play.md), and the database's own secrets (the
salt).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "account_addresses",
        sa.Column(
            "account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True, nullable=False
        ),
        sa.Column("address", sa.String(64), primary_key=True, nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_account_addresses_address", "account_addresses", ["address"])
    op.create_index("ix_account_addresses_last_seen", "account_addresses", ["last_seen"])
    op.create_table(
        "server_secrets",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.String(128), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_secrets")
    op.drop_index("ix_account_addresses_last_seen", "account_addresses")
    op.drop_index("ix_account_addresses_address", "account_addresses")
    op.drop_table("account_addresses")
