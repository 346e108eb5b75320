"""Rating history found by game, and an account's by time (docs/performance.md).

Every rated game stored reads its rating moves back for the end screen (``of_game``: by game
id) and counts the games its accounts played together in the last day (the pair cap:
``games_together``, by account and time, then by game). Without an index on ``game_id`` the
first read every row of ``rating_history``, and the second every row of each account's history
ever: both grew with the table, on every race.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-27
"""

from __future__ import annotations

from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_rating_history_game_id", "rating_history", ["game_id"])
    op.create_index("ix_rating_history_account_at", "rating_history", ["account_id", "at"])


def downgrade() -> None:
    op.drop_index("ix_rating_history_account_at", "rating_history")
    op.drop_index("ix_rating_history_game_id", "rating_history")
