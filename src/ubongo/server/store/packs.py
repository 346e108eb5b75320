"""Packs (table ``packs``; docs/editor.md, "Packs"): an account's ordered set of saved
puzzles of one edition, with a title, under a random link id. What a pack may hold is
checked before it is kept (:mod:`..online.packs`); here it is only kept and read.

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> from ubongo.server.store.accounts import AccountRepository
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> ada = AccountRepository(db).create("ada", "a" * 64, at=0.0)
>>> packs = PackRepository(db)
>>> packs.save(NewPack("k1", ada, "trigo", "Two areas", ["p2", "p1"]), at=10.0)
>>> found = packs.get("k1")
>>> found.title, found.puzzle_ids, found.author_name, packs.made_since(ada, 5.0), packs.kept(ada)
('Two areas', ['p2', 'p1'], 'ada', 1, 1)
>>> [p.id for p in packs.of_account(ada)], packs.get("nope")
(['k1'], None)
>>> db.close()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from .database import Database
from .tables import AccountRow, PackRow, to_datetime, to_epoch


@dataclass(frozen=True)
class NewPack:
    """A pack to keep: its link id, author, edition, title and puzzles' ids in order."""

    id: str
    account: int
    edition: str
    title: str
    puzzle_ids: list[str]


@dataclass(frozen=True)
class SavedPack:
    """A kept pack with its author's name now."""

    id: str
    account: int
    author_name: str
    edition: str
    title: str
    puzzle_ids: list[str]
    made_at: float
    published: bool = False
    published_at: float | None = None


_WITH_AUTHOR = select(PackRow, AccountRow.name).join(
    AccountRow, AccountRow.id == PackRow.account_id
)


def _saved(row: PackRow, name: str) -> SavedPack:
    ids = [str(i) for i in row.puzzle_ids]
    published = to_epoch(row.published_at) if row.published_at is not None else None
    return SavedPack(
        row.id,
        row.account_id,
        name,
        row.edition,
        row.title,
        ids,
        to_epoch(row.made_at),
        row.listed,
        published,
    )


class PackRepository:
    """Packs: keep one, read one, an account's own, and the counts its limits need."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def save(self, new: NewPack, at: float) -> None:
        """Keep ``new``."""
        with self.database.write() as s:
            s.add(
                PackRow(
                    id=new.id,
                    account_id=new.account,
                    edition=new.edition,
                    title=new.title,
                    puzzle_ids=list(new.puzzle_ids),
                    made_at=to_datetime(at),
                    listed=False,
                    published_at=None,
                )
            )

    def change(
        self, pack: str, at: float, title: str | None, ids: list[str] | None, listed: bool | None
    ) -> None:
        """Change ``pack``'s title, puzzles or listing (None: unchanged); first listed at
        ``at`` if it never was (listed again, it keeps that date)."""
        with self.database.write() as s:
            row = s.get(PackRow, pack)
            if row is None:
                return
            if title is not None:
                row.title = title
            if ids is not None:
                row.puzzle_ids = list(ids)
            if listed is not None:
                row.listed = listed
                if listed and row.published_at is None:
                    row.published_at = to_datetime(at)

    def listed(self, edition: str, limit: int, offset: int = 0) -> list[SavedPack]:
        """``edition``'s listed packs, first listed last first, the ``limit`` after ``offset``."""
        query = (
            _WITH_AUTHOR.where(PackRow.edition == edition, PackRow.listed.is_(True))
            .order_by(PackRow.published_at.desc(), PackRow.id)
            .offset(offset)
            .limit(limit)
        )
        with self.database.session() as s:
            return [_saved(row, name) for row, name in s.execute(query)]

    def get(self, pack: str) -> SavedPack | None:
        """The pack of link id ``pack``."""
        with self.database.session() as s:
            found = s.execute(_WITH_AUTHOR.where(PackRow.id == pack)).first()
        return _saved(found[0], found[1]) if found is not None else None

    def of_account(self, account: int, limit: int = 200) -> list[SavedPack]:
        """``account``'s packs, newest first."""
        query = (
            _WITH_AUTHOR.where(PackRow.account_id == account)
            .order_by(PackRow.made_at.desc(), PackRow.id)
            .limit(limit)
        )
        with self.database.session() as s:
            return [_saved(row, name) for row, name in s.execute(query)]

    def made_since(self, account: int, since: float) -> int:
        """How many packs ``account`` made since ``since``."""
        return self._count(PackRow.account_id == account, PackRow.made_at >= to_datetime(since))

    def kept(self, account: int) -> int:
        """How many packs ``account`` keeps."""
        return self._count(PackRow.account_id == account)

    def _count(self, *where: Any) -> int:
        with self.database.session() as s:
            found = s.scalar(select(func.count()).select_from(PackRow).where(*where))
        return int(found or 0)
