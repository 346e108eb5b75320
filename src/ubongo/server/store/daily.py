"""Daily challenge results: each daily run, stored with its game, and each day's leaderboard.

A run is rated (on its day's leaderboard) when it is its account's first run of the edition
and day and nothing made it unrated before it was stored (played on another day, too fast);
a run without an account is never rated.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from .database import Database
from .games import GameRecord, add_game, held_too, under_review
from .review import HELD
from .tables import AccountRow, DailyResultRow, to_datetime, to_epoch


@dataclass(frozen=True)
class DailyRecord:
    """A daily run to store: ``facts`` as :func:`ubongo.server.online.daily.daily_facts` makes
    them (edition, date, times, solved, skipped, seconds); ``unrated``: why it cannot be
    rated, if that is known before it is stored (else it is rated when it is its account's
    first of the day)."""

    game_id: int
    name: str
    account: int | None
    facts: dict[str, Any]
    finished_at: float
    unrated: str | None = None


@dataclass(frozen=True)
class DailyRun:
    """A rated daily run as its day's leaderboard shows it: under its account's name now
    (the name it was played under if its account is gone), linked to the account."""

    game_id: int
    name: str
    account: int | None
    solved: int
    #: tasks put aside or given up
    skipped: int
    #: the whole run
    seconds: float
    #: each task's seconds (``None``: not solved)
    times: list[float | None]
    finished_at: float


#: a run without an account is never rated
NO_ACCOUNT = "no account (only signed-in players' runs are on the leaderboard)"
#: only an account's first run of an edition and day is rated
NOT_FIRST = "not this account's first run of the day"


class DailyRepository:
    """The daily runs: storing one with its game, and a day's leaderboard."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def save(self, game: GameRecord, record: DailyRecord) -> tuple[int, tuple[bool, str | None]]:
        """A daily run and its game in one transaction; the game's id, and whether the run
        is rated (or why not): it needs an account, and that account's first run of this
        edition and day (any earlier run, rated or not, was the one)."""
        facts = record.facts
        with self.database.write("daily_game") as s:
            unrated = record.unrated
            if record.account is None:
                unrated = NO_ACCOUNT
            elif unrated is None:
                earlier = s.scalar(
                    select(func.count())
                    .select_from(DailyResultRow)
                    .where(
                        DailyResultRow.account == record.account,
                        DailyResultRow.edition == facts["edition"],
                        DailyResultRow.day == facts["date"],
                    )
                )
                if earlier:
                    unrated = NOT_FIRST
                elif under_review(s, [record.account]):  # reviewed as a whole: held too
                    game = held_too(game, {record.account}, "daily")
                    unrated = HELD
            game_id = add_game(s, game)
            s.add(
                DailyResultRow(
                    game_id=game_id,
                    edition=facts["edition"],
                    day=facts["date"],
                    account=record.account,
                    name=record.name,
                    solved=facts["solved"],
                    skipped=facts["skipped"],
                    seconds=facts["seconds"],
                    times=facts["times"],
                    rated=unrated is None,
                    unrated=unrated,
                    finished_at=to_datetime(record.finished_at),
                )
            )
            s.flush()
            return game_id, (unrated is None, unrated)

    def leaderboard(self, edition: str, day: str, limit: int = 50) -> list[DailyRun]:
        """The day's leaderboard (``day``: YYYY-MM-DD): rated runs, most tasks solved first,
        then the fastest."""
        with self.database.session() as s:
            rows = s.execute(
                select(DailyResultRow, AccountRow.name)
                .outerjoin(AccountRow, DailyResultRow.account == AccountRow.id)
                .where(
                    DailyResultRow.rated.is_(True),
                    DailyResultRow.edition == edition,
                    DailyResultRow.day == day,
                )
                .order_by(DailyResultRow.solved.desc(), DailyResultRow.seconds, DailyResultRow.id)
                .limit(limit)
            ).all()
            return [
                DailyRun(
                    game_id=r.game_id,
                    name=r.name if name is None else name,
                    account=r.account if name is not None else None,
                    solved=r.solved,
                    skipped=r.skipped,
                    seconds=r.seconds,
                    times=r.times,
                    finished_at=to_epoch(r.finished_at),
                )
                for r, name in rows
            ]
