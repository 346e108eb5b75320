"""Rating rows: the ratings of rated games (tables ``ratings`` and ``rating_history``), and
what endless runs learn about tasks and players (``task_ratings``, ``player_ratings``).

Only rows are read and written here; the arithmetic that changes them lives with the ratings
(:mod:`ubongo.server.online.ratings`, :mod:`ubongo.server.online.task_ratings`) and is
handed in by the caller, so that a change is read, worked out and written in one transaction.

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> tasks = TaskRatingRepository(db)
>>> halved = lambda task, result: (task[0], task[1] / 2, task[2])
>>> tasks.learn(TaskResult("f" * 32, "classic", (1500.0, 300.0, 0.06), 0.0, 1.0,
...     (1500.0, 200.0, 0.06), (1510.0, 190.0, 0.06), at=1.0, account=None), halved)
(1500.0, 150.0, 0.06)
>>> tasks.of_task("f" * 32).plays
1
>>> db.close()
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sqlalchemy import BindParameter, Select, bindparam, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from .database import Database
from .tables import (
    AccountRow,
    PlayerRatingRow,
    RatingHistoryRow,
    RatingRow,
    TaskRatingRow,
    to_datetime,
    to_epoch,
)

#: a Glicko-2 rating: (rating, RD, volatility)
Glicko = tuple[float, float, float]


@dataclass(frozen=True)
class SkillRating:
    """One subject's rating of rated games in one edition (a row of ``ratings``): an account
    (``account:<id>``, with its ``account``) or a bot level (``bot:<level>``)."""

    subject: str
    mu: float
    sigma: float
    games: int
    account: int | None = None

    @staticmethod
    def of_row(row: RatingRow) -> SkillRating:
        return SkillRating(row.subject, row.mu, row.sigma, row.games, row.account_id)


@dataclass(frozen=True)
class RatingChange:
    """One rated game's change of an account's shown rating (the profile's chart)."""

    game_id: int
    at: float
    before: int
    after: int


@dataclass(frozen=True)
class RatedAccount:
    """An account's rating in an edition, with the account's name now."""

    rating: SkillRating
    name: str


@dataclass(frozen=True)
class AccountRatings:
    """An account's rating per edition, and per edition its latest rated games' changes
    (oldest first)."""

    ratings: dict[str, SkillRating]
    history: dict[str, list[RatingChange]]


#: accounts' shown ratings before and after a game, by account
Moves = dict[int, tuple[int, int]]


class RatingRows:
    """The rating rows of one edition inside the transaction that stores a rated game
    (``game_id``, finished ``at``): what :data:`.games.RateGame` reads and writes."""

    def __init__(self, session: Session, game_id: int, edition: str, at: float) -> None:
        self.session = session
        self.game_id = game_id
        self.edition = edition
        self.at = at
        self._rows: dict[str, RatingRow] = {}
        #: each account's shown rating before and after this game, as :meth:`changed` noted
        #: (the game's end screen shows them)
        self.moves: Moves = {}

    def locked(self, subjects: Iterable[str]) -> dict[str, SkillRating]:
        """The stored ratings of these subjects (none for a subject never rated), locked
        until the transaction ends (PostgreSQL): two games ending at once with the same bot
        level update it one after the other (SQLite: one writer at a time anyway)."""
        rows = self.session.scalars(
            select(RatingRow)
            .where(RatingRow.edition == self.edition, RatingRow.subject.in_(sorted(subjects)))
            .with_for_update()
        )
        self._rows.update((r.subject, r) for r in rows)
        return {key: SkillRating.of_row(r) for key, r in self._rows.items()}

    def put(self, rating: SkillRating) -> None:
        """Store a subject's new rating (read first with :meth:`locked`, or a new subject)."""
        row = self._rows.get(rating.subject)
        if row is None:
            row = RatingRow(edition=self.edition, subject=rating.subject, account_id=rating.account)
            self.session.add(row)
            self._rows[rating.subject] = row
        row.mu, row.sigma, row.games = rating.mu, rating.sigma, rating.games

    def changed(self, account: int, before: int, after: int) -> None:
        """Note an account's shown rating before and after this game."""
        self.moves[account] = (before, after)
        self.session.add(
            RatingHistoryRow(
                game_id=self.game_id,
                account_id=account,
                edition=self.edition,
                before=before,
                after=after,
                at=to_datetime(self.at),
            )
        )


@functools.cache
def _games_together() -> Select[int, int, int]:
    """The pair cap's count (:meth:`RatingRepository.games_together`) of the accounts
    ``wanted`` since ``since``, made once: made anew, the statement (its two aliases of the
    history, its clauses) took more CPU than the query, at every rated race."""
    one, two = aliased(RatingHistoryRow), aliased(RatingHistoryRow)
    wanted: BindParameter[list[int]] = bindparam("wanted", expanding=True)
    return (
        select(one.account_id, two.account_id, func.count())
        .join(two, one.game_id == two.game_id)
        .where(
            one.account_id.in_(wanted),
            two.account_id.in_(wanted),
            one.account_id < two.account_id,
            one.at >= bindparam("since"),
        )
        .group_by(one.account_id, two.account_id)
    )


class RatingRepository:
    """The ratings of rated games, read (they are written with the games: :class:`RatingRows`)."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def of(self, edition: str, subject: str) -> SkillRating | None:
        """A subject's rating in an edition, if it has played a rated game."""
        with self.database.session() as s:
            row = s.get(RatingRow, (edition, subject))
            return None if row is None else SkillRating.of_row(row)

    def accounts(self, edition: str, min_games: int) -> list[RatedAccount]:
        """The accounts with at least ``min_games`` rated games in ``edition`` (in no order),
        but those marked cheaters."""
        with self.database.session() as s:
            rows = s.execute(
                select(RatingRow, AccountRow.name)
                .join(AccountRow, RatingRow.account_id == AccountRow.id)
                .where(
                    RatingRow.edition == edition,
                    RatingRow.games >= min_games,
                    AccountRow.marked_at.is_(None),  # marked a cheater: off the leaderboard
                )
            ).all()
            return [RatedAccount(SkillRating.of_row(r), name) for r, name in rows]

    def bots(self, edition: str) -> list[SkillRating]:
        """The bot levels' ratings in ``edition`` (in no order)."""
        with self.database.session() as s:
            rows = s.scalars(
                select(RatingRow).where(
                    RatingRow.edition == edition, RatingRow.subject.startswith("bot:")
                )
            )
            return [SkillRating.of_row(r) for r in rows]

    def games_together(self, accounts: Iterable[int], since: float) -> dict[tuple[int, int], int]:
        """For each two of ``accounts`` (the lower id first) that played rated games together
        since ``since`` in which both their ratings moved, how many (what the cap of rated
        games between two accounts counts: docs/fair-play.md)."""
        wanted = sorted(set(accounts))
        if len(wanted) < 2:
            return {}
        with self.database.session() as s:
            asked = {"wanted": wanted, "since": to_datetime(since)}
            rows = s.execute(_games_together(), asked).all()
            return {(a, b): int(n) for a, b, n in rows}

    def of_account(self, account: int, latest: int = 100) -> AccountRatings:
        """An account's ratings and, per edition, the changes of its ``latest`` rated games,
        oldest first."""
        with self.database.session() as s:
            rows = s.scalars(select(RatingRow).where(RatingRow.account_id == account))
            found = {r.edition: SkillRating.of_row(r) for r in rows}
            history: dict[str, list[RatingChange]] = {}
            changes = s.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.account_id == account)
                .order_by(RatingHistoryRow.id.desc())
                .limit(latest * max(1, len(found)))
            )
            for h in changes:
                change = RatingChange(h.game_id, to_epoch(h.at), h.before, h.after)
                history.setdefault(h.edition, []).append(change)
            for edition in history:
                history[edition] = history[edition][:latest][::-1]
            return AccountRatings(found, history)


@dataclass(frozen=True)
class TaskResult:
    """One rated task of an endless run (the rules' ``task_rated`` event): the task's
    fingerprint, its model rating with the whole limit (``prior``, used when the task is new
    here), how much harder its time limit made it (``shift``), the player's score (1 solved in
    time, 0 not), and the player's rating before and after it."""

    fingerprint: str
    edition: str
    prior: Glicko
    shift: float
    score: float
    before: Glicko
    after: Glicko
    at: float
    account: int | None = None


#: what a task learns from one result: its new rating (whole limit) from its rating before
RateTask = Callable[[Glicko, TaskResult], Glicko]


@dataclass(frozen=True)
class TaskRating:
    """A task's rating learned from endless runs (whole limit), and how often it was played."""

    edition: str
    rating: float
    rd: float
    volatility: float
    plays: int


class TaskRatingRepository:
    """What endless runs learned: each task's rating, each account's rating."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def learn(self, result: TaskResult, rate: RateTask) -> Glicko:
        """Learn from one rated task, in one transaction: the task's rating (its stored one,
        or the ``prior`` if it is new) becomes what ``rate`` makes of it, and the account's
        rating (if any) the player's rating after the task. The task's new rating."""
        for attempt in range(2):
            try:
                with self.database.write() as s:
                    return _learn(s, result, rate)
            except IntegrityError:
                # another process stored the same new task (or account) first: once more
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def of_task(self, fingerprint: str) -> TaskRating | None:
        """A task's learned rating (``None``: never rated)."""
        with self.database.session() as s:
            row = s.get(TaskRatingRow, fingerprint)
            if row is None:
                return None
            return TaskRating(row.edition, row.rating, row.rd, row.volatility, row.plays)

    def of_player(self, account: int, edition: str) -> Glicko | None:
        """An account's endless rating in ``edition``, if it has one."""
        with self.database.session() as s:
            row = s.get(PlayerRatingRow, (account, edition))
            return None if row is None else (row.rating, row.rd, row.volatility)


def _learn(s: Session, result: TaskResult, rate: RateTask) -> Glicko:
    at = to_datetime(result.at)
    row = s.get(TaskRatingRow, result.fingerprint)
    if row is None:
        rating, rd, volatility = result.prior
        row = TaskRatingRow(
            fingerprint=result.fingerprint,
            edition=result.edition,
            rating=rating,
            rd=rd,
            volatility=volatility,
            plays=0,
            updated_at=at,
        )
        s.add(row)
    row.rating, row.rd, row.volatility = rate((row.rating, row.rd, row.volatility), result)
    row.plays += 1
    row.updated_at = at
    if result.account is not None:
        mine = s.get(PlayerRatingRow, (result.account, result.edition))
        if mine is None:
            mine = PlayerRatingRow(account_id=result.account, edition=result.edition, plays=0)
            s.add(mine)
        mine.rating, mine.rd, mine.volatility = result.after
        mine.plays += 1
        mine.updated_at = at
    s.flush()
    return (row.rating, row.rd, row.volatility)
