"""Reported lines of chat (table ``chat_reports``, docs/social.md): what a room heard a player
say, reported by another player, for the moderators.

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> reports = ReportRepository(db)
>>> reports.add(ChatReport("K7QXB", None, None, "Troll", "rude words", said_at=1.0, at=2.0))
1
>>> [(r.name, r.text) for r in reports.latest()]
[('Troll', 'rude words')]
>>> db.close()
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from .database import Database
from .tables import ChatReportRow, to_datetime, to_epoch


@dataclass(frozen=True)
class ChatReport:
    """A reported line: the room, who reported it (an account, or a guest: None), who said it
    (its account and seat name) and what, when said and when reported."""

    room: str
    reporter: int | None
    account: int | None
    name: str
    text: str
    said_at: float
    at: float
    id: int = 0


class ReportRepository:
    """Reported lines: keep one, the latest."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def add(self, report: ChatReport) -> int:
        """Keep ``report``; its id."""
        with self.database.write() as s:
            row = ChatReportRow(
                room=report.room,
                reporter_id=report.reporter,
                account_id=report.account,
                name=report.name,
                text=report.text,
                said_at=to_datetime(report.said_at),
                at=to_datetime(report.at),
            )
            s.add(row)
            s.flush()
            return row.id

    def latest(self, limit: int = 50, account: int | None = None) -> list[ChatReport]:
        """The latest reports, newest first (of what ``account`` said, if given)."""
        query = select(ChatReportRow).order_by(ChatReportRow.id.desc()).limit(limit)
        if account is not None:
            query = query.where(ChatReportRow.account_id == account)
        with self.database.session() as s:
            return [
                ChatReport(
                    r.room,
                    r.reporter_id,
                    r.account_id,
                    r.name,
                    r.text,
                    to_epoch(r.said_at),
                    to_epoch(r.at),
                    r.id,
                )
                for r in s.scalars(query)
            ]
