"""Solo records: each solo run's result, stored with its game, and the leaderboards read from
them (implausible runs, faster than a hand places the pieces, are kept but never ranked).

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> records = RecordRepository(db)
>>> game = GameRecord(room="ABCD", edition="classic", mode="solo", variant="standard",
...     settings={}, seed=7, events=[], result={}, players=[{"seat": 0, "name": "Ada"}],
...     started_at=1.0, finished_at=2.0)
>>> _ = records.save(game, SoloRecord(game_id=0, name="Ada", edition="classic", goal="time",
...     amount=5, side="A", score=3, seconds=300.0, finished_at=2.0))
>>> [(r.name, r.score) for r in records.leaderboard("classic", "time", 5, "A")]
[('Ada', 3)]
>>> db.close()
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session

from .database import Database
from .games import GameRecord, add_game, held_too, under_review
from .tables import AccountRow, SoloRecordRow, to_datetime, to_epoch


@dataclass(frozen=True)
class SoloRecord:
    """A solo run's result to store with its game (``game_id``: set when they are stored)."""

    game_id: int
    name: str
    edition: str
    goal: str
    amount: int
    side: str
    score: int
    seconds: float
    finished_at: float
    extra: dict[str, Any] = field(default_factory=dict)
    #: false: a task was solved faster than a hand can place its pieces (not ranked)
    plausible: bool = True
    account: int | None = None
    hints: int = 0
    #: tasks put aside (skipped or given up)
    skipped: int = 0


@dataclass(frozen=True)
class SoloRun:
    """A stored solo run as the records show it: a run with an account bears the account's
    name as it is now (``account`` ``None``: a run from before accounts, or without one)."""

    id: int
    game_id: int
    name: str
    account: int | None
    edition: str
    goal: str
    amount: int
    side: str
    #: tasks solved
    score: int
    seconds: float
    finished_at: float
    hints: int
    skipped: int

    @staticmethod
    def of_row(row: SoloRecordRow, account_name: str | None) -> SoloRun:
        return SoloRun(
            id=row.id,
            game_id=row.game_id,
            name=account_name if account_name is not None else row.name,
            account=row.account_id,
            edition=row.edition,
            goal=row.goal,
            amount=row.amount,
            side=row.side,
            score=row.score,
            seconds=row.seconds,
            finished_at=to_epoch(row.finished_at),
            hints=row.hints,
            skipped=row.skipped,
        )


@dataclass(frozen=True)
class PersonalBest:
    """A player's best run of one kind, and how many plausible runs of that kind it made."""

    run: SoloRun
    runs: int


def _order(goal: str) -> tuple[Any, ...]:
    # time goal: most tasks, then the earliest; tasks goal: least time, then the earliest
    if goal == "time":
        return (SoloRecordRow.score.desc(), SoloRecordRow.seconds, SoloRecordRow.id)
    return (SoloRecordRow.seconds, SoloRecordRow.score.desc(), SoloRecordRow.id)


def _plausible_runs() -> Select[SoloRecordRow, str | None]:
    """Plausible solo runs with their account's name (if they have an account)."""
    return (
        select(SoloRecordRow, AccountRow.name)
        .outerjoin(AccountRow, SoloRecordRow.account_id == AccountRow.id)
        .where(SoloRecordRow.plausible.is_(True))
    )


def _kind(edition: str, goal: str, amount: int, side: str) -> tuple[Any, ...]:
    return (
        SoloRecordRow.edition == edition,
        SoloRecordRow.goal == goal,
        SoloRecordRow.amount == amount,
        SoloRecordRow.side == side,
    )


def add_record(session: Session, record: SoloRecord, game_id: int) -> int:
    """Add a solo run's row for the stored game ``game_id``; its id."""
    row = SoloRecordRow(
        game_id=game_id,
        name=record.name,
        edition=record.edition,
        goal=record.goal,
        amount=record.amount,
        side=record.side,
        score=record.score,
        seconds=record.seconds,
        finished_at=to_datetime(record.finished_at),
        plausible=record.plausible,
        account_id=record.account,
        hints=record.hints,
        skipped=record.skipped,
    )
    session.add(row)
    session.flush()
    return row.id


class RecordRepository:
    """The solo records: storing a run with its game, the leaderboards, personal bests."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def save(self, game: GameRecord, record: SoloRecord) -> tuple[int, int]:
        """A solo game and its record in one transaction (both are stored or neither): the
        game's id and the record's."""
        with self.database.write("solo_game") as s:
            account = record.account
            # an account with results held is reviewed as a whole: its new run is held too
            if record.plausible and account is not None and under_review(s, [account]):
                game = held_too(game, {account}, "solo")
                record = replace(record, plausible=False)
            game_id = add_game(s, game)
            return game_id, add_record(s, record, game_id)

    def leaderboard(
        self, edition: str, goal: str, amount: int, side: str, limit: int = 20
    ) -> list[SoloRun]:
        """The best runs of one kind, best first (one person may appear several times, as on
        a paper list of records); implausible runs are left out."""
        with self.database.session() as s:
            rows = s.execute(
                _plausible_runs()
                .where(*_kind(edition, goal, amount, side))
                .order_by(*_order(goal))
                .limit(limit)
            ).all()
            return [SoloRun.of_row(r, n) for r, n in rows]

    def personal_bests(
        self, name: str | None = None, account: int | None = None
    ) -> list[PersonalBest]:
        """The best run of each (edition, goal, amount, side) of one account, or of one
        display name's runs without an account (those from before accounts), plausible
        runs only, by kind."""
        whose = (
            SoloRecordRow.account_id == account
            if account is not None
            else (SoloRecordRow.name == name) & SoloRecordRow.account_id.is_(None)
        )
        kind = (
            SoloRecordRow.edition,
            SoloRecordRow.goal,
            SoloRecordRow.amount,
            SoloRecordRow.side,
        )
        with self.database.session() as s:
            kinds = s.execute(
                select(*kind, func.count())
                .where(whose, SoloRecordRow.plausible.is_(True))
                .group_by(*kind)
                .order_by(*kind)
            ).all()
            bests = []
            for edition, goal, amount, side, runs in kinds:
                best, account_name = s.execute(
                    _plausible_runs()
                    .where(whose, *_kind(edition, goal, amount, side))
                    .order_by(*_order(goal))
                    .limit(1)
                ).one()
                bests.append(PersonalBest(SoloRun.of_row(best, account_name), runs))
            return bests
