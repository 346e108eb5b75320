"""Who follows whom (table ``follows``, docs/social.md): following is one-way and public to
nobody but the follower; two accounts that follow each other are friends.

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> from ubongo.server.store.accounts import AccountRepository
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> ada, bob, cy = (AccountRepository(db).create(n, n * 64, at=0.0) for n in "abc")
>>> follows = FollowRepository(db)
>>> follows.follow(ada, bob, at=1.0), follows.follow(ada, bob, at=2.0)
(True, False)
>>> follows.follow(bob, ada, at=3.0), follows.follow(ada, cy, at=4.0)
(True, True)
>>> [(f.name, f.mutual) for f in follows.following(ada)]
[('b', True), ('c', False)]
>>> follows.unfollow(ada, cy), follows.count(ada)
(True, 1)
>>> db.close()
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from .database import Database
from .tables import AccountRow, FollowRow, to_datetime


@dataclass(frozen=True)
class Followed:
    """An account someone follows: its id, its name now, and whether it follows back."""

    id: int
    name: str
    mutual: bool


class FollowRepository:
    """Follows: make one, undo one, an account's list."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def follow(self, follower: int, followed: int, at: float) -> bool:
        """``follower`` follows ``followed`` from ``at`` (False: it did already)."""
        try:
            with self.database.write() as s:
                if s.get(FollowRow, (follower, followed)) is not None:
                    return False
                s.add(FollowRow(follower_id=follower, followed_id=followed, since=to_datetime(at)))
        except IntegrityError:
            return False  # the same follow, made at the same moment by another request
        return True

    def unfollow(self, follower: int, followed: int) -> bool:
        """``follower`` no longer follows ``followed`` (False: it did not)."""
        with self.database.write() as s:
            gone = s.execute(
                delete(FollowRow).where(
                    FollowRow.follower_id == follower, FollowRow.followed_id == followed
                )
            )
        return bool(getattr(gone, "rowcount", 0))

    def count(self, follower: int) -> int:
        """How many accounts ``follower`` follows."""
        with self.database.session() as s:
            found = s.scalar(
                select(func.count()).select_from(FollowRow).where(FollowRow.follower_id == follower)
            )
        return int(found or 0)

    def following(self, follower: int) -> list[Followed]:
        """The accounts ``follower`` follows, by name, each saying whether it follows back."""
        back = select(FollowRow.follower_id).where(FollowRow.followed_id == follower)
        with self.database.session() as s:
            rows = s.execute(
                select(AccountRow.id, AccountRow.name, AccountRow.id.in_(back))
                .join(FollowRow, FollowRow.followed_id == AccountRow.id)
                .where(FollowRow.follower_id == follower)
                .order_by(func.lower(AccountRow.name), AccountRow.id)
            ).all()
        return [Followed(int(i), str(n), bool(m)) for i, n, m in rows]

    def follows(self, follower: int, followed: int) -> bool:
        """Whether ``follower`` follows ``followed``."""
        with self.database.session() as s:
            return s.get(FollowRow, (follower, followed)) is not None
