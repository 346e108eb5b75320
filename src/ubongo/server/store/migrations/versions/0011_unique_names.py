"""Unique names: each account keeps its name's key (``name_key``, UTS #39 skeleton of the
case-folded name) under a unique index, so that no two accounts hold names a reader cannot
tell apart (docs/fair-play.md, "Names").

The keys of the accounts stored before are computed here with the server's own key function
(:func:`ubongo.server.store.namekey.name_key`, which the repository uses for every new name),
and where two of those accounts share a key the older one (the lower id) keeps its name and
each later one is renamed with the first free suffix: "Alice", "ALICE", "Аlice" become
"Alice", "ALICE 2", "Аlice 3". A name of the bots or the site ("Bot 1 (hard)", "Admin")
becomes "Player <id>". Deterministic: the same database gives the same names on any machine.
A downgrade drops the keys and keeps the new names.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator

import sqlalchemy as sa
from alembic import op

from ubongo.server.store.namekey import is_reserved, name_key

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

#: the key column's width (store.namekey.MAX_KEY_CHARS when this was written: 32 characters of
#: a name, at most 18 of key each)
KEY_CHARS = 576
#: a name's longest form (the accounts table's)
NAME_CHARS = 32

log = logging.getLogger("alembic.runtime.migration")


def _suffixed(base: str, n: int) -> str:
    """``base`` with the suffix " n", cut to fit a name's 32 characters."""
    suffix = f" {n}"
    return base[: NAME_CHARS - len(suffix)].rstrip() + suffix


def backfilled(rows: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str, str]]:
    """Each account's (id, name, key) of the accounts ``rows`` (id, name), oldest first:
    every key's first holder (the lowest id) keeps its name; the others, and the names of the
    bots and the site, get a free one.

    >>> [n for _, n, _ in backfilled([(1, "Alice"), (2, "ALICE"), (3, "Alice 2"), (4, "Bot")])]
    ['Alice', 'ALICE 3', 'Alice 2', 'Player 4']
    """
    rows = sorted(rows)
    kept: dict[str, int] = {}
    for account, name in rows:
        if not is_reserved(name):
            kept.setdefault(name_key(name), account)
    taken = set(kept)
    for account, name in rows:
        key = name_key(name)
        if kept.get(key) == account:
            yield account, name, key
            continue
        base = f"Player {account}" if is_reserved(name) else name
        new, n = base, 1
        while name_key(new) in taken or is_reserved(new):
            n += 1
            new = _suffixed(base, n)
        taken.add(name_key(new))
        yield account, new, name_key(new)


def upgrade() -> None:
    # batch mode: SQLite adds the column (and later its index) by copying the table
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_key", sa.String(KEY_CHARS), nullable=True))
    accounts = sa.table(
        "accounts", sa.column("id", sa.Integer), sa.column("name"), sa.column("name_key")
    )
    bind = op.get_bind()
    rows = bind.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id)).all()
    old = dict(rows)
    filled = [{"account": a, "new_name": n, "key": k} for a, n, k in backfilled(rows)]
    if filled:
        bind.execute(
            accounts.update()
            .where(accounts.c.id == sa.bindparam("account"))
            .values(name=sa.bindparam("new_name"), name_key=sa.bindparam("key")),
            filled,
        )
    renamed = sum(1 for f in filled if f["new_name"] != old[f["account"]])
    if renamed:
        log.warning("renamed %d accounts: a name another account held, or the bots'", renamed)
    with op.batch_alter_table("accounts") as batch:
        batch.alter_column("name_key", existing_type=sa.String(KEY_CHARS), nullable=False)
        batch.create_index("ix_accounts_name_key", ["name_key"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_index("ix_accounts_name_key")
        batch.drop_column("name_key")
