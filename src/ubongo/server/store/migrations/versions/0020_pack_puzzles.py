"""A pack's puzzles a row each, and packs a moderator hid (docs/editor.md, "Packs in the list").

The community list sorts packs by their puzzles' plays and likes added up, which the database
does over ``pack_puzzles`` (a pack, a place in its order, a puzzle); the list of ids the pack's
row kept is moved there and dropped. ``packs.hidden``: hidden by a moderator.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-27
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None

_PACKS = sa.table("packs", sa.column("id", sa.String), sa.column("puzzle_ids", sa.JSON))
_ROWS = sa.table(
    "pack_puzzles",
    sa.column("pack_id", sa.String),
    sa.column("position", sa.Integer),
    sa.column("puzzle_id", sa.String),
)


def upgrade() -> None:
    # the ids are read, and the packs' table changed, before the rows that point to it exist:
    # SQLite changes a table by copying it, and dropping the old one would break their keys
    db = op.get_bind()
    rows = [
        {"pack_id": pack, "position": n, "puzzle_id": str(pid)}
        for pack, ids in db.execute(sa.select(_PACKS.c.id, _PACKS.c.puzzle_ids))
        for n, pid in enumerate(json.loads(ids) if isinstance(ids, str) else ids)
    ]
    with op.batch_alter_table("packs") as batch:
        batch.drop_column("puzzle_ids")
        batch.add_column(sa.Column("hidden", sa.Boolean, nullable=False, server_default=sa.false()))
    op.create_table(
        "pack_puzzles",
        sa.Column("pack_id", sa.String(16), sa.ForeignKey("packs.id"), primary_key=True),
        sa.Column("position", sa.Integer, primary_key=True),
        sa.Column("puzzle_id", sa.String(16), nullable=False),
    )
    op.create_index("ix_pack_puzzles_puzzle_id", "pack_puzzles", ["puzzle_id"])
    if rows:
        op.bulk_insert(_ROWS, rows)


def downgrade() -> None:
    db = op.get_bind()
    order = sa.select(_ROWS.c.pack_id, _ROWS.c.puzzle_id).order_by(
        _ROWS.c.pack_id, _ROWS.c.position
    )
    ids: dict[str, list[str]] = {}
    for pack, pid in db.execute(order):
        ids.setdefault(pack, []).append(pid)
    op.drop_table("pack_puzzles")
    with op.batch_alter_table("packs") as batch:
        batch.drop_column("hidden")
        batch.add_column(sa.Column("puzzle_ids", sa.JSON, nullable=False, server_default="[]"))
    for pack, kept in ids.items():
        db.execute(_PACKS.update().where(_PACKS.c.id == pack).values(puzzle_ids=kept))
