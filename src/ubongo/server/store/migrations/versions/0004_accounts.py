"""Accounts: a name and the hash of a token; the games played with an account; solo runs
belong to an account (runs from before keep their name and no account, and stay readable).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "game_accounts",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
    )
    op.create_index("ix_game_accounts_account_id", "game_accounts", ["account_id"])
    # batch mode: SQLite adds the column (and its key) by copying the table
    with op.batch_alter_table("solo_records") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer, nullable=True))
        batch.create_foreign_key("fk_solo_records_account_id", "accounts", ["account_id"], ["id"])
        batch.create_index("ix_solo_records_account_id", ["account_id"])


def downgrade() -> None:
    with op.batch_alter_table("solo_records") as batch:
        batch.drop_index("ix_solo_records_account_id")
        batch.drop_constraint("fk_solo_records_account_id", type_="foreignkey")
        batch.drop_column("account_id")
    op.drop_index("ix_game_accounts_account_id", "game_accounts")
    op.drop_table("game_accounts")
    op.drop_table("accounts")
