"""Challenges (table ``challenges``, docs/social.md): one account proposes a game to another,
which accepts or declines it before it expires; the challenger may take it back.

A challenge's status changes once, from ``open``, in one conditional write: of two answers at
the same moment (two tabs, two processes) exactly one wins.

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> from ubongo.server.store.accounts import AccountRepository
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> ada, bob = (AccountRepository(db).create(n, n * 64, at=0.0) for n in "ab")
>>> book = ChallengeRepository(db)
>>> c = book.make(ada, bob, "classic", rated=True, at=10.0, expires_at=70.0)
>>> (c.from_name, c.to_name, c.status), [x.id for x in book.open_for(bob, now=20.0)] == [c.id]
(('a', 'b', 'open'), True)
>>> book.answer(c.id, "declined", now=30.0), book.answer(c.id, "accepted", now=31.0)
(True, False)
>>> book.get(c.id).status, book.open_for(bob, now=32.0)
('declined', [])
>>> db.close()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.orm import aliased

from .database import Database
from .tables import AccountRow, ChallengeRow, to_datetime, to_epoch

#: what an open challenge may become
ANSWERS = ("accepted", "declined", "cancelled")


@dataclass(frozen=True)
class Challenge:
    """A challenge as stored, with both accounts' names now."""

    id: int
    from_id: int
    from_name: str
    to_id: int
    to_name: str
    edition: str
    rated: bool
    made_at: float
    expires_at: float
    status: str
    room: str | None = None
    seat: dict[str, Any] | None = None

    def state(self, now: float) -> str:
        """Its status at ``now``: an open challenge past its time is ``expired``."""
        return "expired" if self.status == "open" and now >= self.expires_at else self.status


class ChallengeRepository:
    """Challenges: make one, answer one, an account's open ones."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def make(
        self, from_id: int, to_id: int, edition: str, rated: bool, at: float, expires_at: float
    ) -> Challenge:
        """A new open challenge."""
        with self.database.write() as s:
            row = ChallengeRow(
                from_id=from_id,
                to_id=to_id,
                edition=edition,
                rated=rated,
                made_at=to_datetime(at),
                expires_at=to_datetime(expires_at),
                status="open",
            )
            s.add(row)
            s.flush()
            made = row.id
        found = self.get(made)
        assert found is not None
        return found

    def get(self, challenge: int) -> Challenge | None:
        """The challenge with this id."""
        found = self._select(ChallengeRow.id == challenge)
        return found[0] if found else None

    def answer(
        self,
        challenge: int,
        status: str,
        now: float,
        room: str | None = None,
        seat: dict[str, Any] | None = None,
    ) -> bool:
        """Close an open challenge that has not expired at ``now`` as ``status`` (one of
        :data:`ANSWERS`; an accepted one with its room and the challenger's seat): False if
        it was no longer open."""
        if status not in ANSWERS:
            raise ValueError(f"not an answer: {status}")
        at = to_datetime(now)
        with self.database.write() as s:
            done = s.execute(
                update(ChallengeRow)
                .where(
                    ChallengeRow.id == challenge,
                    ChallengeRow.status == "open",
                    ChallengeRow.expires_at > at,
                )
                .values(status=status, room=room, seat=seat)
            )
        return bool(getattr(done, "rowcount", 0))

    def open_for(self, account: int, now: float) -> list[Challenge]:
        """The open, unexpired challenges ``account`` made or was sent, newest first."""
        return self._select(
            or_(ChallengeRow.from_id == account, ChallengeRow.to_id == account),
            ChallengeRow.status == "open",
            ChallengeRow.expires_at > to_datetime(now),
        )

    def accepted_for(self, account: int, since: float) -> list[Challenge]:
        """The challenges ``account`` made that were accepted since ``since``, newest first
        (their seats, for a page that missed the notice)."""
        return self._select(
            ChallengeRow.from_id == account,
            ChallengeRow.status == "accepted",
            ChallengeRow.made_at >= to_datetime(since),
        )

    def made_since(self, account: int, since: float) -> int:
        """How many challenges ``account`` made since ``since``."""
        with self.database.session() as s:
            found = s.scalar(
                select(func.count())
                .select_from(ChallengeRow)
                .where(ChallengeRow.from_id == account, ChallengeRow.made_at >= to_datetime(since))
            )
        return int(found or 0)

    def _select(self, *where: Any) -> list[Challenge]:
        sender, receiver = aliased(AccountRow), aliased(AccountRow)
        with self.database.session() as s:
            rows = s.execute(
                select(ChallengeRow, sender.name, receiver.name)
                .join(sender, sender.id == ChallengeRow.from_id)
                .join(receiver, receiver.id == ChallengeRow.to_id)
                .where(*where)
                .order_by(ChallengeRow.made_at.desc(), ChallengeRow.id.desc())
                .limit(50)
            ).all()
        return [_challenge(row, a, b) for row, a, b in rows]


def _challenge(row: ChallengeRow, from_name: str, to_name: str) -> Challenge:
    return Challenge(
        id=row.id,
        from_id=row.from_id,
        from_name=from_name,
        to_id=row.to_id,
        to_name=to_name,
        edition=row.edition,
        rated=row.rated,
        made_at=to_epoch(row.made_at),
        expires_at=to_epoch(row.expires_at),
        status=row.status,
        room=row.room,
        seat=row.seat,
    )
