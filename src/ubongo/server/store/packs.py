"""Packs (tables ``packs`` and ``pack_puzzles``; docs/editor.md, "Packs"): an account's
ordered set of saved puzzles of one edition, with a title, under a random link id. What a pack
may hold is checked before it is kept (:mod:`..online.packs`); here it is kept, read, listed
in the community list's orders, and hidden by a moderator.

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> from ubongo.server.store.accounts import AccountRepository
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> ada = AccountRepository(db).create("ada", "a" * 64, at=0.0)
>>> packs = PackRepository(db)
>>> from ubongo import editions
>>> ed = editions.names()[0]
>>> packs.save(NewPack("k1", ada, ed, "Two areas", ["p2", "p1"]), at=10.0)
>>> found = packs.get("k1")
>>> found.title, found.puzzle_ids, found.author_name, packs.made_since(ada, 5.0), packs.kept(ada)
('Two areas', ['p2', 'p1'], 'ada', 1, 1)
>>> [p.id for p in packs.of_account(ada)], packs.get("nope")
(['k1'], None)
>>> from ubongo.server.store.puzzles import NewPuzzle, PuzzleRepository
>>> one = NewPuzzle("p1", ada, ed, "One", {"edition": ed}, [], 3, 1, 20.0, None)
>>> PuzzleRepository(db).save(one, at=9.0)
>>> packs.change("k1", 11.0, None, ["p1"], True)
>>> [(p.pack.id, p.pack.puzzle_ids, p.puzzles) for p in packs.listed(ed, "played", 10)]
[('k1', ['p1'], 1)]
>>> db.close()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, and_, delete, func, or_, select
from sqlalchemy.orm import Session

from ..protocol.packs import PackOrder
from .database import Database
from .puzzles import Decided
from .review import log_decision
from .tables import (
    AccountRow,
    PackPuzzleRow,
    PackRow,
    PuzzleRow,
    to_datetime,
    to_epoch,
)


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
    hidden: bool = False


_WITH_AUTHOR = select(PackRow, AccountRow.name).join(
    AccountRow, AccountRow.id == PackRow.account_id
)

#: each pack's puzzles that a list shows (not hidden; the pack's maker's own, or published:
#: as :func:`..online.packs.shown_puzzles` reads them): how many, their plays and likes added up
_SHOWN = (
    select(
        PackPuzzleRow.pack_id,
        func.count().label("puzzles"),
        func.sum(PuzzleRow.plays).label("plays"),
        func.sum(PuzzleRow.likes).label("likes"),
    )
    .join(PuzzleRow, PuzzleRow.id == PackPuzzleRow.puzzle_id)
    .join(PackRow, PackRow.id == PackPuzzleRow.pack_id)
    .where(
        PuzzleRow.hidden.is_(False),
        or_(PuzzleRow.account_id == PackRow.account_id, PuzzleRow.listed.is_(True)),
    )
    .group_by(PackPuzzleRow.pack_id)
    .subquery()
)
_ORDERS = {
    "newest": (PackRow.published_at.desc(), PackRow.id),
    "played": (_SHOWN.c.plays.desc(), PackRow.published_at.desc(), PackRow.id),
    "liked": (_SHOWN.c.likes.desc(), PackRow.published_at.desc(), PackRow.id),
}


@dataclass(frozen=True)
class ListedPack:
    """A pack in the community list, with its puzzles that may be shown: how many, and their
    counted plays and likes added up."""

    pack: SavedPack
    puzzles: int
    plays: int
    likes: int


def _saved_all(s: Session, query: Select[PackRow, str]) -> list[SavedPack]:
    """The packs ``query`` finds (rows and their authors' names), each with its puzzles."""
    found = s.execute(query).all()
    ids = _puzzle_ids(s, [row.id for row, _ in found])
    return [_saved(row, name, ids[row.id]) for row, name in found]


def _puzzle_ids(s: Session, packs: list[str]) -> dict[str, list[str]]:
    """The puzzles of each of ``packs``, in order."""
    ids: dict[str, list[str]] = {pack: [] for pack in packs}
    if ids:
        places = (
            select(PackPuzzleRow.pack_id, PackPuzzleRow.puzzle_id)
            .where(PackPuzzleRow.pack_id.in_(ids))
            .order_by(PackPuzzleRow.pack_id, PackPuzzleRow.position)
        )
        for pack, pid in s.execute(places):
            ids[pack].append(pid)
    return ids


def _saved(row: PackRow, name: str, ids: list[str]) -> SavedPack:
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
        row.hidden,
    )


def _place(s: Session, pack: str, ids: list[str]) -> None:
    """Put ``ids`` in ``pack``, in that order, instead of what it held."""
    s.execute(delete(PackPuzzleRow).where(PackPuzzleRow.pack_id == pack))
    s.add_all(PackPuzzleRow(pack_id=pack, position=n, puzzle_id=pid) for n, pid in enumerate(ids))


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
                    made_at=to_datetime(at),
                    listed=False,
                    published_at=None,
                )
            )
            s.flush()
            _place(s, new.id, new.puzzle_ids)

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
                _place(s, pack, ids)
            if listed is not None:
                row.listed = listed
                if listed and row.published_at is None:
                    row.published_at = to_datetime(at)

    def listed(
        self, edition: str, order: PackOrder, limit: int, offset: int = 0
    ) -> list[ListedPack]:
        """``edition``'s listed packs that no moderator hid and that have a puzzle to show, in
        ``order`` (newest: first listed last first; played, liked: their shown puzzles' plays
        or likes added up, most first), the ``limit`` after ``offset``."""
        query = (
            select(PackRow, AccountRow.name, _SHOWN.c.puzzles, _SHOWN.c.plays, _SHOWN.c.likes)
            .join(AccountRow, AccountRow.id == PackRow.account_id)
            .join(_SHOWN, _SHOWN.c.pack_id == PackRow.id)
            .where(
                and_(
                    PackRow.edition == edition,
                    PackRow.listed.is_(True),
                    PackRow.hidden.is_(False),
                )
            )
            .order_by(*_ORDERS[order])
            .offset(offset)
            .limit(limit)
        )
        with self.database.session() as s:
            found = s.execute(query).all()
            ids = _puzzle_ids(s, [row.id for row, *_ in found])
        return [
            ListedPack(_saved(row, name, ids[row.id]), int(n), int(plays), int(likes))
            for row, name, n, plays, likes in found
        ]

    def get(self, pack: str) -> SavedPack | None:
        """The pack of link id ``pack``."""
        with self.database.session() as s:
            found = _saved_all(s, _WITH_AUTHOR.where(PackRow.id == pack))
        return found[0] if found else None

    def delete(self, pack: str, account: int) -> bool:
        """``account``'s pack gone, with its rows of puzzles (the puzzles stay; False: there
        is no such pack of ``account``'s)."""
        with self.database.write() as s:
            row = s.get(PackRow, pack)
            if row is None or row.account_id != account:
                return False
            s.execute(delete(PackPuzzleRow).where(PackPuzzleRow.pack_id == pack))
            s.delete(row)
        return True

    def hide(self, pack: str, hidden: bool, by: Decided) -> dict[str, Any] | None:
        """A moderator's decision, logged with the review's (``hide``, under the maker's
        account): hide the pack (or show it again). What it changed; None when there is no
        such pack."""
        with self.database.write() as s:
            row = s.get(PackRow, pack)
            if row is None:
                return None
            row.hidden = hidden
            changes = {"pack": pack, "hidden": hidden}
            log_decision(s, by.at, by.moderator, "hide", row.account_id, None, by.note, changes)
        return changes

    def of_account(self, account: int, limit: int = 200) -> list[SavedPack]:
        """``account``'s packs, newest first."""
        query = (
            _WITH_AUTHOR.where(PackRow.account_id == account)
            .order_by(PackRow.made_at.desc(), PackRow.id)
            .limit(limit)
        )
        with self.database.session() as s:
            return _saved_all(s, query)

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
