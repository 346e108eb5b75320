"""Arenas, their players and their races (docs/arenas.md).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "arenas",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("edition", sa.String(16), nullable=False),
        sa.Column("title", sa.String(64), nullable=False),
        sa.Column("side", sa.String(16), nullable=False),
        sa.Column("seats", sa.Integer, nullable=False),
        sa.Column("minutes", sa.Integer, nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seed", sa.String(32), nullable=False),
        sa.Column("made_by", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("made_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("private", sa.Boolean, nullable=False),
        sa.Column("slot", sa.String(64), nullable=True, unique=True),
        sa.Column("frozen_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_arenas_starts_at", "arenas", ["starts_at"])
    op.create_index("ix_arenas_ends_at", "arenas", ["ends_at"])
    op.create_index("ix_arenas_made_by", "arenas", ["made_by"])
    op.create_table(
        "arena_players",
        sa.Column("arena_id", sa.String(16), sa.ForeignKey("arenas.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("paused", sa.Boolean, nullable=False),
        sa.Column("harder", sa.Boolean, nullable=False),
        sa.Column("removed", sa.Boolean, nullable=False),
        sa.Column("results", sa.JSON, nullable=False),
        sa.Column("points", sa.Integer, nullable=False),
        sa.Column("place", sa.Integer, nullable=True),
    )
    op.create_index("ix_arena_players_account_id", "arena_players", ["account_id"])
    op.create_table(
        "arena_races",
        sa.Column("arena_id", sa.String(16), sa.ForeignKey("arenas.id"), primary_key=True),
        sa.Column("number", sa.Integer, primary_key=True),
        sa.Column("room", sa.String(16), nullable=False),
        sa.Column("accounts", sa.JSON, nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("arena_races")
    op.drop_table("arena_players")
    op.drop_table("arenas")
