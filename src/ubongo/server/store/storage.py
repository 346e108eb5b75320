"""Stored results: every finished game (so it replays) and the solo records; and the rooms
that are open, so that they outlive a restart of the server.

SQLAlchemy 2 with Alembic migrations (in ``ubongo/server/store/migrations``, run by
:meth:`Storage.migrate` when the server starts). SQLite by default, in the user's data
directory; PostgreSQL (psycopg 3) by URL, e.g. ``postgresql+psycopg://user@host/ubongo``.

Every write is one transaction that is committed before the server tells anybody the game is
over, so a server killed afterwards loses nothing.

>>> import tempfile, os
>>> url = "sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3")
>>> store = Storage(url)
>>> store.migrate()
>>> gid = store.save_game(GameRecord(room="ABCD", edition="classic", mode="solo",
...     variant="standard", settings={}, seed=7, events=[], result={},
...     players=[{"seat": 0, "name": "Ada"}], started_at=1.0, finished_at=2.0))
>>> _ = store.save_solo_record(SoloRecord(game_id=gid, name="Ada", edition="classic",
...     goal="time", amount=5, side="A", score=3, seconds=300.0, finished_at=2.0))
>>> [(r["name"], r["score"]) for r in store.leaderboard("classic", "time", 5, "A")]
[('Ada', 3)]
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    true,
)
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.sql.expression import Executable

from ubongo.puzzles import ratings as task_ratings

from ..online import ratings


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """A finished game: enough to replay it (settings, seed, events) and its result."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    room: Mapped[str] = mapped_column(String(16))
    edition: Mapped[str] = mapped_column(String(16), index=True)
    mode: Mapped[str] = mapped_column(String(8))
    variant: Mapped[str] = mapped_column(String(32))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    events: Mapped[list[Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    players: Mapped[list[Any]] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SoloRecordRow(Base):
    """One solo run's result: tasks done in the time (goal ``time``) or time for the tasks."""

    __tablename__ = "solo_records"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    name: Mapped[str] = mapped_column(String(32), index=True)
    edition: Mapped[str] = mapped_column(String(16))
    goal: Mapped[str] = mapped_column(String(8))
    amount: Mapped[int] = mapped_column(Integer)
    side: Mapped[str] = mapped_column(String(16))
    score: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    #: false: faster than a human hand places the pieces; kept, but not ranked
    plausible: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    #: the run's account (``None``: a run from before accounts, known by its name only)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    #: hints asked for during the run (the leaderboard shows hinted runs)
    hints: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: tasks put aside (skipped or given up): the rulebooks let a stuck player draw another
    #: board, the clock running on; the records show how many
    skipped: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class AccountRow(Base):
    """A player's account: its public name and the hash of its token (never the token: the
    token is the only credential, and a copy of the database must not hand it out)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameAccountRow(Base):
    """Who played a stored game with an account: one row per seat that had one (the games'
    own ``players`` keep every seat's name as it was)."""

    __tablename__ = "game_accounts"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)


class TaskRatingRow(Base):
    """A task's rating learned from endless runs, by its fingerprint
    (:func:`ubongo.puzzles.ratings.task_fingerprint`): kept for the task with the whole time
    limit of its side (``docs/ratings.md``)."""

    __tablename__ = "task_ratings"

    fingerprint: Mapped[str] = mapped_column(String(32), primary_key=True)
    edition: Mapped[str] = mapped_column(String(16), index=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class PlayerRatingRow(Base):
    """An account's endless rating in one edition."""

    __tablename__ = "player_ratings"

    account_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edition: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    rd: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    plays: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class DailyResultRow(Base):
    """One daily challenge run: its day, each task's time, and whether it is rated (on the
    day's leaderboard: the account's first run of the day, played on its day, plausible)."""

    __tablename__ = "daily_results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    edition: Mapped[str] = mapped_column(String(16))
    day: Mapped[str] = mapped_column(String(10))
    account: Mapped[int | None] = mapped_column(Integer, nullable=True)
    name: Mapped[str] = mapped_column(String(32))
    solved: Mapped[int] = mapped_column(Integer)
    skipped: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    times: Mapped[list[Any]] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean)
    unrated: Mapped[str | None] = mapped_column(String(120), nullable=True)
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class RatingRow(Base):
    """One subject's rating in one edition (:mod:`..online.ratings`): an account (``account:<id>``)
    or a bot level (``bot:<level>``)."""

    __tablename__ = "ratings"

    edition: Mapped[str] = mapped_column(String(16), primary_key=True)
    subject: Mapped[str] = mapped_column(String(32), primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class RatingHistoryRow(Base):
    """An account's display rating before and after one rated game (the profile's chart)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"))
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id"), index=True)
    edition: Mapped[str] = mapped_column(String(16))
    before: Mapped[int] = mapped_column(Integer)
    after: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OpenRoomRow(Base):
    """A room that was open when last saved: its durable form (:mod:`..rooms.durable`), replaced at
    each save and deleted when the room closes."""

    __tablename__ = "open_rooms"

    code: Mapped[str] = mapped_column(String(16), primary_key=True)
    room: Mapped[dict[str, Any]] = mapped_column(JSON)
    saved_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class GameRecord:
    room: str
    edition: str
    mode: str
    variant: str
    settings: dict[str, Any]
    seed: int
    events: list[Any]
    result: dict[str, Any]
    #: each seat: ``seat``, ``name``, ``kind``, ``level`` and ``account`` (if it had one)
    players: list[dict[str, Any]]
    started_at: float
    finished_at: float
    #: a rated game: its players' ratings change when it is stored (:mod:`..online.ratings`)
    rated: bool = False


@dataclass(frozen=True)
class SoloRecord:
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
class TaskResult:
    """One rated task of an endless run (the rules' ``task_rated`` event): the task's
    fingerprint, its model rating with the whole limit (``prior``, used when the task is new
    here), how much harder its time limit made it (``shift``), the player's score (1 solved in
    time, 0 not), and the player's rating before and after it."""

    fingerprint: str
    edition: str
    prior: tuple[float, float, float]
    shift: float
    score: float
    before: tuple[float, float, float]
    after: tuple[float, float, float]
    at: float
    account: int | None = None


#: a stored task's deviation stays in this range: tasks are rated by many players, and a floor
#: keeps a much-played task's rating able to follow what players do
TASK_RD_BOUNDS = (30.0, 350.0)
#: the PostgreSQL advisory lock that migrations take (any number of our own: "UBONGO" in hex)
MIGRATION_LOCK = 0x55424F4E474F


@dataclass(frozen=True)
class DailyRecord:
    """A daily run to store: ``facts`` as :func:`..online.daily.daily_facts` makes them (edition,
    date, times, solved, skipped, seconds); ``unrated``: why it cannot be rated, if that is
    known before it is stored (else it is rated when it is its account's first of the day)."""

    game_id: int
    name: str
    account: int | None
    facts: dict[str, Any]
    finished_at: float
    unrated: str | None = None


@dataclass(frozen=True)
class Backoff:
    """How long to wait before trying a failed write again: ``first`` seconds, doubling up to
    ``longest`` (``ServerConfig.store_retry_seconds`` and ``store_retry_max_seconds``).

    >>> [Backoff(0.5, 3.0).delay(n) for n in range(1, 6)]
    [0.5, 1.0, 2.0, 3.0, 3.0]
    """

    first: float = 1.0
    longest: float = 60.0

    def delay(self, failures: int) -> float:
        """The wait after the ``failures``-th failure in a row (from 1)."""
        return min(self.longest, self.first * 2.0 ** min(failures - 1, 60))


def _dt(epoch_seconds: float) -> datetime:
    return datetime.fromtimestamp(epoch_seconds, UTC)


def _epoch(value: datetime) -> float:
    if value.tzinfo is None:  # SQLite gives back naive datetimes: they were stored as UTC
        value = value.replace(tzinfo=UTC)
    return value.timestamp()


def default_database_url() -> str:
    """``sqlite:///<user data dir>/ubongo.sqlite3`` ($XDG_DATA_HOME/ubongo on Linux)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("ubongo", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'ubongo.sqlite3'}"


def make_engine(url: str, timeout: float = 30.0, autocheckpoint: bool = True) -> Engine:
    """An engine for ``url``; SQLite gets a journal that survives a killed process, and waits
    ``timeout`` seconds for a lock before a write fails (``autocheckpoint=False``: its commits
    never copy the journal into the database file; somebody else must, see
    :meth:`Storage.checkpoint`)."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": timeout})

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute("PRAGMA foreign_keys=ON")
            if not autocheckpoint:
                cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


@functools.cache
def _room_upsert(dialect: str) -> Executable:
    """The upsert of saved rooms in ``dialect`` (``sqlite`` or ``postgresql``), made once: a
    room is saved at every verdict, and each statement made anew left a few dozen objects in
    reference cycles (its ``excluded`` alias and their columns) for the garbage collector,
    whose collections then paused every room (docs/performance.md, "Capacity")."""
    ins = (sqlite_insert if dialect == "sqlite" else postgresql_insert)(OpenRoomRow)
    excluded = ins.excluded
    return ins.on_conflict_do_update(
        index_elements=[OpenRoomRow.code],
        set_={"room": excluded.room, "saved_at": excluded.saved_at},
    )


def _upsert_rooms(connection: Connection, rows: list[dict[str, Any]]) -> None:
    """Insert or replace saved rooms: one statement where the database has an upsert."""
    name = connection.dialect.name
    if name in ("sqlite", "postgresql"):
        connection.execute(_room_upsert(name), rows)
        return
    codes = [row["code"] for row in rows]
    connection.execute(delete(OpenRoomRow).where(OpenRoomRow.code.in_(codes)))
    connection.execute(insert(OpenRoomRow), rows)


class Storage:
    """The server's database: games, solo records, the leaderboard."""

    def __init__(self, url: str | None = None, timeout: float = 30.0) -> None:
        self.url = url or os.environ.get("UBONGO_DATABASE_URL") or default_database_url()
        self.engine = make_engine(self.url, timeout)
        # open rooms are saved on connections of their own whose commits never checkpoint
        # SQLite's journal (that can take a tenth of a second, and players wait for these
        # saves: store, then answer); :meth:`checkpoint` does it when nobody waits
        self._rooms_engine = self.engine
        # SQLite has one writer at a time, and a writer that finds the database busy sleeps
        # (1, 2, 5 ... 100 ms) before it tries again: finished games (many at once when rounds
        # end together, each in a thread of its own) queue here instead, so that a room's
        # save (which players wait for) meets at most one of them
        self._one_writer: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
        if self.engine.dialect.name == "sqlite":
            self._one_writer = threading.Lock()
        if self.engine.dialect.name == "sqlite" and self.engine.url.database not in (
            None,
            "",
            ":memory:",
        ):
            self._rooms_engine = make_engine(self.url, timeout, autocheckpoint=False)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        #: told (what, seconds) after each write of games and rooms (the server's metrics)
        self.on_write: Callable[[str, float], None] | None = None

    @contextlib.contextmanager
    def _timed(self, what: str) -> Iterator[None]:
        """Tell :attr:`on_write` how long a write of ``what`` took (failed ones too)."""
        start = time.perf_counter()
        try:
            yield
        finally:
            if self.on_write is not None:
                self.on_write(what, time.perf_counter() - start)

    def migrate(self) -> None:
        """Bring the schema up to date (Alembic ``upgrade head``)."""
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", "ubongo.server.store:migrations")
        with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":
                # several processes starting together on one database (behind a load
                # balancer): one migrates, the others wait for its commit and find the schema
                # up to date (the lock ends with the transaction)
                connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
            config.attributes["connection"] = connection
            command.upgrade(config, "head")

    def close(self) -> None:
        self.engine.dispose()
        self._rooms_engine.dispose()

    def session(self) -> Session:
        return self._sessions()

    # --- writes: one transaction each ---------------------------------------------------------

    @staticmethod
    def _game_row(game: GameRecord) -> GameRow:
        return GameRow(
            room=game.room,
            edition=game.edition,
            mode=game.mode,
            variant=game.variant,
            settings=game.settings,
            seed=game.seed,
            events=game.events,
            result=game.result,
            players=game.players,
            started_at=_dt(game.started_at),
            finished_at=_dt(game.finished_at),
        )

    @staticmethod
    def _record_row(record: SoloRecord, game_id: int) -> SoloRecordRow:
        return SoloRecordRow(
            game_id=game_id,
            name=record.name,
            edition=record.edition,
            goal=record.goal,
            amount=record.amount,
            side=record.side,
            score=record.score,
            seconds=record.seconds,
            finished_at=_dt(record.finished_at),
            plausible=record.plausible,
            account_id=record.account,
            hints=record.hints,
            skipped=record.skipped,
        )

    @staticmethod
    def _add_game(s: Session, game: GameRecord) -> GameRow:
        """The game's row, and a row for each seat played with an account."""
        row = Storage._game_row(game)
        s.add(row)
        s.flush()
        for p in game.players:
            if p.get("account") is not None:
                s.add(GameAccountRow(game_id=row.id, seat=p["seat"], account_id=p["account"]))
        if game.rated:
            Storage._rate(s, row.id, game)
        return row

    @staticmethod
    def _rate(s: Session, game_id: int, game: GameRecord) -> None:
        """Update the ratings of a rated game's accounts and bot levels from its final
        ranking, in the game's own transaction (a game is stored with its ratings or not at
        all). A person without an account plays with a new rating that is not kept."""
        scores = {str(k): v for k, v in game.result.get("scores", {}).items()}
        winners = [str(w) for w in game.result.get("winners", [])]
        place = ratings.places(scores, winners)
        seats: list[tuple[ratings.Subject, str]] = []
        for p in game.players:
            player = str(p["seat"])
            if player not in place:
                continue
            if p.get("account") is not None:
                seats.append((ratings.Subject.of_account(int(p["account"])), player))
            elif p.get("kind") == "bot" and p.get("level"):
                seats.append((ratings.Subject.of_bot(str(p["level"])), player))
            else:
                seats.append((ratings.Subject(f"guest:{player}"), player))
        if len(seats) < 2:
            return
        keys = sorted({subject.key for subject, _ in seats})
        # locked until the transaction ends (PostgreSQL): two games ending at once with the
        # same bot level update it one after the other (SQLite: one writer at a time anyway)
        rows = {
            r.subject: r
            for r in s.scalars(
                select(RatingRow)
                .where(RatingRow.edition == game.edition, RatingRow.subject.in_(keys))
                .with_for_update()
            )
        }
        before = {key: ratings.Rating(r.mu, r.sigma, r.games) for key, r in rows.items()}
        new = ratings.update(
            [(subject, before.get(subject.key, ratings.Rating())) for subject, _ in seats],
            [place[player] for _, player in seats],
        )
        at = _dt(game.finished_at)
        for subject, _ in seats:
            if subject.key not in new or subject.key.startswith("guest:"):
                continue
            rating = new.pop(subject.key)
            row = rows.get(subject.key)
            if row is None:
                row = RatingRow(
                    edition=game.edition, subject=subject.key, account_id=subject.account
                )
                s.add(row)
            row.mu, row.sigma, row.games = rating.mu, rating.sigma, rating.games
            if subject.account is not None:
                old = before.get(subject.key, ratings.Rating())
                s.add(
                    RatingHistoryRow(
                        game_id=game_id,
                        account_id=subject.account,
                        edition=game.edition,
                        before=old.display,
                        after=rating.display,
                        at=at,
                    )
                )

    def save_game(self, game: GameRecord) -> int:
        with self._timed("game"), self._one_writer, self.session() as s, s.begin():
            return self._add_game(s, game).id

    def save_solo_record(self, record: SoloRecord) -> int:
        with self._one_writer, self.session() as s, s.begin():
            row = self._record_row(record, record.game_id)
            s.add(row)
            s.flush()
            return row.id

    def save_solo_game(self, game: GameRecord, record: SoloRecord) -> tuple[int, int]:
        """A solo game and its record in one transaction: both are stored or neither."""
        with self._timed("solo_game"), self._one_writer, self.session() as s, s.begin():
            g = self._add_game(s, game)
            r = self._record_row(record, g.id)
            s.add(r)
            s.flush()
            return g.id, r.id

    def rate_task(self, result: TaskResult) -> tuple[float, float, float]:
        """Learn from one rated task, in one transaction: the task's rating (its stored one,
        or the model's prior if it is new) is updated as one Glicko-2 period with one game
        against the player as rated before it, the task scoring ``1 - score``; the account's
        rating (if any) becomes the player's rating after it. Returns the task's new rating
        (whole limit)."""
        for attempt in range(2):
            try:
                with self._one_writer, self.session() as s, s.begin():
                    return self._rate_task(s, result)
            except IntegrityError:
                # another process stored the same new task (or account) first: once more
                if attempt:
                    raise
        raise AssertionError("unreachable")

    @staticmethod
    def _rate_task(s: Session, result: TaskResult) -> tuple[float, float, float]:
        at = _dt(result.at)
        row = s.get(TaskRatingRow, result.fingerprint)
        if row is None:
            row = TaskRatingRow(
                fingerprint=result.fingerprint,
                edition=result.edition,
                rating=result.prior[0],
                rd=result.prior[1],
                volatility=result.prior[2],
                plays=0,
                updated_at=at,
            )
            s.add(row)
        # the task as played (its limit shifts it), against the player as rated before it
        played = task_ratings.Rating(row.rating + result.shift, row.rd, row.volatility)
        player = task_ratings.Rating(*result.before)
        new = task_ratings.update(played, [(player, 1.0 - result.score)], rd_bounds=TASK_RD_BOUNDS)
        row.rating, row.rd, row.volatility = new.rating - result.shift, new.rd, new.volatility
        row.plays += 1
        row.updated_at = at
        if result.account is not None:
            key = (result.account, result.edition)
            mine = s.get(PlayerRatingRow, key)
            if mine is None:
                mine = PlayerRatingRow(account_id=result.account, edition=result.edition, plays=0)
                s.add(mine)
            mine.rating, mine.rd, mine.volatility = result.after
            mine.plays += 1
            mine.updated_at = at
        s.flush()
        return (row.rating, row.rd, row.volatility)

    def task_rating(self, fingerprint: str) -> dict[str, Any] | None:
        """A task's learned rating: rating, rd, volatility, plays (``None``: never rated)."""
        with self.session() as s:
            row = s.get(TaskRatingRow, fingerprint)
            if row is None:
                return None
            return {
                "edition": row.edition,
                "rating": row.rating,
                "rd": row.rd,
                "volatility": row.volatility,
                "plays": row.plays,
            }

    def player_rating(self, account: int, edition: str) -> tuple[float, float, float] | None:
        """An account's endless rating in ``edition`` (rating, RD, volatility), if it has one."""
        with self.session() as s:
            row = s.get(PlayerRatingRow, (account, edition))
            return None if row is None else (row.rating, row.rd, row.volatility)

    def save_daily_game(
        self, game: GameRecord, record: DailyRecord
    ) -> tuple[int, tuple[bool, str | None]]:
        """A daily run and its result in one transaction; the game's id, and whether the run
        is rated (or why not): it needs an account, and that account's first run of this
        edition and day (any earlier run, rated or not, was the one)."""
        facts = record.facts
        with self._timed("daily_game"), self._one_writer, self.session() as s, s.begin():
            unrated = record.unrated
            if record.account is None:
                unrated = "no account (only signed-in players' runs are on the leaderboard)"
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
                    unrated = "not this account's first run of the day"
            g = self._add_game(s, game)
            s.add(
                DailyResultRow(
                    game_id=g.id,
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
                    finished_at=_dt(record.finished_at),
                )
            )
            s.flush()
            return g.id, (unrated is None, unrated)

    def daily_results(self, edition: str, day: str, limit: int = 50) -> list[dict[str, Any]]:
        """The day's leaderboard: rated runs, most tasks solved first, then the fastest."""
        with self.session() as s:
            rows = s.scalars(
                select(DailyResultRow)
                .where(
                    DailyResultRow.rated.is_(True),
                    DailyResultRow.edition == edition,
                    DailyResultRow.day == day,
                )
                .order_by(DailyResultRow.solved.desc(), DailyResultRow.seconds, DailyResultRow.id)
                .limit(limit)
            )
            return [
                {
                    "rank": i,
                    "game_id": r.game_id,
                    "name": r.name,
                    "solved": r.solved,
                    "skipped": r.skipped,
                    "seconds": r.seconds,
                    "times": r.times,
                    "finished_at": _epoch(r.finished_at),
                }
                for i, r in enumerate(rows, 1)
            ]

    def save_open_rooms(
        self, rooms: dict[str, dict[str, Any]], closed: Iterable[str], saved_at: float
    ) -> None:
        """Replace the saved form of ``rooms`` (code -> durable data) and forget the ``closed``
        ones, in one transaction. With SQLite the commit does not checkpoint the journal
        (copy it into the database file, which can take a tenth of a second): the caller runs
        :meth:`checkpoint` now and then, when nobody waits for it."""
        # SQL statements, not ORM objects, on connections that never checkpoint: this runs
        # once per disk flush on a busy server, and its time is what a player waits for
        with self._timed("open_rooms"), self._rooms_engine.begin() as connection:
            gone = set(closed) - rooms.keys()
            if gone:
                connection.execute(delete(OpenRoomRow).where(OpenRoomRow.code.in_(gone)))
            if rooms:
                at = _dt(saved_at)
                rows = [{"code": c, "room": d, "saved_at": at} for c, d in rooms.items()]
                _upsert_rooms(connection, rows)

    def checkpoint(self) -> None:
        """Copy SQLite's journal into the database file as far as no reader needs it (a
        passive checkpoint: writers go on meanwhile); nothing for other databases."""
        if self._rooms_engine is not self.engine:
            with self.engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def open_rooms(self) -> list[dict[str, Any]]:
        """The rooms saved as open, oldest save first."""
        with self.session() as s:
            rows = s.scalars(select(OpenRoomRow).order_by(OpenRoomRow.saved_at))
            return [r.room for r in rows]

    # --- reads -------------------------------------------------------------------------------

    @staticmethod
    def _game_json(row: GameRow, full: bool) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": row.id,
            "room": row.room,
            "edition": row.edition,
            "mode": row.mode,
            "variant": row.variant,
            "players": row.players,
            "winners": row.result.get("winners", []),
            "started_at": _epoch(row.started_at),
            "finished_at": _epoch(row.finished_at),
        }
        if full:
            data.update(settings=row.settings, seed=row.seed, events=row.events, result=row.result)
        return data

    def game(self, game_id: int) -> dict[str, Any] | None:
        with self.session() as s:
            row = s.get(GameRow, game_id)
            return None if row is None else self._game_json(row, full=True)

    def games(self, limit: int = 20) -> list[dict[str, Any]]:
        with self.session() as s:
            rows = s.scalars(select(GameRow).order_by(GameRow.id.desc()).limit(limit))
            return [self._game_json(r, full=False) for r in rows]

    @staticmethod
    def _record_order(goal: str) -> Any:
        # time goal: most tasks, then the earliest; tasks goal: least time, then the earliest
        if goal == "time":
            return (SoloRecordRow.score.desc(), SoloRecordRow.seconds, SoloRecordRow.id)
        return (SoloRecordRow.seconds, SoloRecordRow.score.desc(), SoloRecordRow.id)

    @staticmethod
    def _record_json(row: SoloRecordRow, account_name: str | None) -> dict[str, Any]:
        # a run with an account shows the account's name as it is now
        return {
            "id": row.id,
            "game_id": row.game_id,
            "name": account_name if account_name is not None else row.name,
            "account": row.account_id,
            "edition": row.edition,
            "goal": row.goal,
            "amount": row.amount,
            "side": row.side,
            "score": row.score,
            "seconds": row.seconds,
            "finished_at": _epoch(row.finished_at),
            "hints": row.hints,
            "skipped": row.skipped,
        }

    @staticmethod
    def _records() -> Any:
        """Plausible solo runs with their account's name (if they have an account)."""
        return (
            select(SoloRecordRow, AccountRow.name)
            .outerjoin(AccountRow, SoloRecordRow.account_id == AccountRow.id)
            .where(SoloRecordRow.plausible.is_(True))
        )

    def leaderboard(
        self, edition: str, goal: str, amount: int, side: str, limit: int = 20
    ) -> list[dict[str, Any]]:
        """The best runs of one kind, best first, numbered from 1 (one person may appear
        several times, as on a paper list of records); implausible runs are left out."""
        with self.session() as s:
            rows = s.execute(
                self._records()
                .where(
                    SoloRecordRow.edition == edition,
                    SoloRecordRow.goal == goal,
                    SoloRecordRow.amount == amount,
                    SoloRecordRow.side == side,
                )
                .order_by(*self._record_order(goal))
                .limit(limit)
            ).all()
            return [{"rank": i, **self._record_json(r, n)} for i, (r, n) in enumerate(rows, 1)]

    def personal_bests(
        self, name: str | None = None, account: int | None = None
    ) -> list[dict[str, Any]]:
        """The best run of each (edition, goal, amount, side) of one account, or of one
        display name's runs without an account (those from before accounts), plausible
        runs only."""
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
        with self.session() as s:
            kinds = s.execute(
                select(*kind, func.count())
                .where(whose, SoloRecordRow.plausible.is_(True))
                .group_by(*kind)
                .order_by(*kind)
            ).all()
            bests = []
            for edition, goal, amount, side, runs in kinds:
                best, account_name = s.execute(
                    self._records()
                    .where(
                        whose,
                        SoloRecordRow.edition == edition,
                        SoloRecordRow.goal == goal,
                        SoloRecordRow.amount == amount,
                        SoloRecordRow.side == side,
                    )
                    .order_by(*self._record_order(goal))
                    .limit(1)
                ).one()
                bests.append({**self._record_json(best, account_name), "runs": runs})
            return bests

    # --- accounts ----------------------------------------------------------------------------

    def create_account(self, name: str, token_hash: str, at: float) -> int:
        """A new account; its id."""
        with self._one_writer, self.session() as s, s.begin():
            row = AccountRow(name=name, token_hash=token_hash, created_at=_dt(at))
            s.add(row)
            s.flush()
            return row.id

    def account_by_token(self, token_hash: str) -> tuple[int, str] | None:
        """The account (id, name) whose token has this hash."""
        with self.session() as s:
            row = s.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.token_hash == token_hash)
            ).first()
            return None if row is None else (row[0], row[1])

    def rename_account(self, account: int, name: str) -> None:
        with self._one_writer, self.session() as s, s.begin():
            row = s.get(AccountRow, account)
            if row is not None:
                row.name = name

    # --- ratings -----------------------------------------------------------------------------

    def rating_of(self, edition: str, subject: str) -> ratings.Rating:
        """A subject's rating in an edition (a new one if it has played no rated game)."""
        with self.session() as s:
            row = s.get(RatingRow, (edition, subject))
            return ratings.Rating() if row is None else ratings.Rating(row.mu, row.sigma, row.games)

    def ratings_leaderboard(
        self, edition: str, min_games: int = ratings.LEADERBOARD_GAMES, limit: int = 50
    ) -> dict[str, Any]:
        """The accounts of an edition with at least ``min_games`` rated games, best display
        rating first (numbered from 1), and the bot levels' ratings for comparison."""
        with self.session() as s:
            rows = s.execute(
                select(RatingRow, AccountRow.name)
                .join(AccountRow, RatingRow.account_id == AccountRow.id)
                .where(RatingRow.edition == edition, RatingRow.games >= min_games)
            ).all()
            ranked = sorted(
                rows, key=lambda rn: (-ratings.display(rn[0].mu, rn[0].sigma), rn[0].subject)
            )
            players = [
                {
                    "rank": i,
                    "account": r.account_id,
                    "name": name,
                    **ratings.Rating(r.mu, r.sigma, r.games).to_json(),
                }
                for i, (r, name) in enumerate(ranked[:limit], 1)
            ]
            bot_rows = s.scalars(
                select(RatingRow).where(
                    RatingRow.edition == edition, RatingRow.subject.startswith("bot:")
                )
            )
            bots = [
                {
                    "level": r.subject.removeprefix("bot:"),
                    **ratings.Rating(r.mu, r.sigma, r.games).to_json(bot=True),
                }
                for r in bot_rows
            ]
            bots.sort(key=lambda b: b["rating"])
            return {"edition": edition, "min_games": min_games, "players": players, "bots": bots}

    def account_ratings(self, account: int) -> tuple[dict[str, Any], dict[str, Any]]:
        """An account's rating per edition, and per edition its rated games' changes
        (oldest first, the latest 100)."""
        with self.session() as s:
            rows = s.scalars(
                select(RatingRow).where(
                    RatingRow.subject == ratings.Subject.of_account(account).key
                )
            )
            found = {r.edition: ratings.Rating(r.mu, r.sigma, r.games).to_json() for r in rows}
            history: dict[str, list[dict[str, Any]]] = {}
            changes = s.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.account_id == account)
                .order_by(RatingHistoryRow.id.desc())
                .limit(100 * max(1, len(found)))
            )
            for h in changes:
                history.setdefault(h.edition, []).append(
                    {"game_id": h.game_id, "at": _epoch(h.at), "before": h.before, "after": h.after}
                )
            for edition in history:
                history[edition] = history[edition][:100][::-1]
            return found, history

    def profile(self, account: int, recent: int = 10) -> dict[str, Any] | None:
        """An account's public face: name, when it joined, games played by edition, its
        recent games (newest first); ``None`` if there is no such account."""
        with self.session() as s:
            row = s.get(AccountRow, account)
            if row is None:
                return None
            played = s.execute(
                select(GameRow.edition, func.count())
                .join(GameAccountRow, GameAccountRow.game_id == GameRow.id)
                .where(GameAccountRow.account_id == account)
                .group_by(GameRow.edition)
                .order_by(GameRow.edition)
            ).all()
            games = s.execute(
                select(GameRow, GameAccountRow.seat)
                .join(GameAccountRow, GameAccountRow.game_id == GameRow.id)
                .where(GameAccountRow.account_id == account)
                .order_by(GameRow.id.desc())
                .limit(recent)
            ).all()
            return {
                "id": row.id,
                "name": row.name,
                "joined": _epoch(row.created_at),
                "games": {edition: n for edition, n in played},
                "recent": [{**self._game_json(g, full=False), "seat": seat} for g, seat in games],
            }
