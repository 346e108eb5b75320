"""The database itself: its engines, its sessions, how one write is made, and the migrations.

SQLite by default, in the user's data directory; PostgreSQL (psycopg 3) by URL, e.g.
``postgresql+psycopg://user@host/ubongo``. The schema is brought up to date by the Alembic
migrations in ``ubongo/server/store/migrations`` (:meth:`Database.migrate`, at every start).

Every write is one transaction (:meth:`Database.write`) that is committed before the server
tells anybody about it, so a server killed afterwards loses nothing. A write that fails is
tried again by its caller after a growing delay (:class:`Backoff`).

>>> import tempfile, os
>>> from sqlalchemy import select
>>> from ubongo.server.store.tables import AccountRow, to_datetime
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> with db.write() as s:
...     s.add(AccountRow(name="Ada", name_key="ada", token_hash="00" * 32,
...                      created_at=to_datetime(1.0)))
>>> with db.session() as s:
...     list(s.scalars(select(AccountRow.name)))
['Ada']
>>> db.close()
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, delete, event, make_url, select
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

from .tables import OpenRoomRow, table_of

#: the PostgreSQL advisory lock that migrations take (any number of our own: "UBONGO" in hex)
MIGRATION_LOCK = 0x55424F4E474F


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
    :meth:`Database.checkpoint`). Its errors never carry the statement's parameters (a room's
    invite key, a token's hash): they are logged (docs/fair-play.md, "Logs")."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if url.startswith("sqlite"):
        path = url.split("///", 1)[-1]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": timeout}, hide_parameters=True)

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
    return create_engine(url, pool_pre_ping=True, hide_parameters=True)


def open_rooms_url(url: str) -> str:
    """Where a SQLite database file keeps its open rooms: a file of their own beside it.

    >>> open_rooms_url("sqlite:////var/lib/ubongo/ubongo.sqlite3")
    'sqlite:////var/lib/ubongo/ubongo.open-rooms.sqlite3'
    """
    found = make_url(url)
    path = Path(found.database or "")
    return found.set(
        database=str(path.with_name(f"{path.stem}.open-rooms{path.suffix}"))
    ).render_as_string(hide_password=False)


class Database:
    """The server's database: an engine for the repositories' sessions, and one for the saves
    of open rooms (:mod:`.open_rooms`); ``url`` by default ``$UBONGO_DATABASE_URL``, else a
    SQLite file in the user's data directory.

    A SQLite file keeps its open rooms in a file of their own beside it
    (:func:`open_rooms_url`): SQLite has one writer a file, and a room's save (which a player
    waits for) waited there behind the game being stored, then in SQLite's own retry sleeps
    (docs/arenas.md, "Open rooms in a file of their own"). PostgreSQL locks rows, not the
    database: its open rooms stay in its one database."""

    def __init__(self, url: str | None = None, timeout: float = 30.0) -> None:
        self.url = url or os.environ.get("UBONGO_DATABASE_URL") or default_database_url()
        self.engine = make_engine(self.url, timeout)
        # open rooms are saved on connections of their own (with SQLite: in a file of their
        # own) whose commits never checkpoint SQLite's journal (that can take a tenth of a
        # second, and players wait for these saves: store, then answer); :meth:`checkpoint`
        # does it when nobody waits
        self.rooms_engine = self.engine
        self._new_file = False
        # SQLite has one writer at a time, and a writer that finds the database busy sleeps
        # (1, 2, 5 ... 100 ms) before it tries again: finished games (many at once when rounds
        # end together, each in a thread of its own) queue here instead of in those sleeps
        self._one_writer: contextlib.AbstractContextManager[Any] = contextlib.nullcontext()
        if self.engine.dialect.name == "sqlite":
            self._one_writer = threading.Lock()
        if self.engine.dialect.name == "sqlite" and self.engine.url.database not in (
            None,
            "",
            ":memory:",
        ):
            self.rooms_engine = make_engine(open_rooms_url(self.url), timeout, autocheckpoint=False)
            # a database file made anew (a first start, or the old one deleted to start over)
            # has no open rooms, whatever a file of rooms beside it still holds
            self._new_file = not Path(str(self.engine.url.database)).exists()
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        #: told (what, seconds) after each write of games and rooms (the server's metrics)
        self.on_write: Callable[[str, float], None] | None = None

    @contextlib.contextmanager
    def timed(self, what: str) -> Iterator[None]:
        """Tell :attr:`on_write` how long a write of ``what`` took (failed ones too)."""
        start = time.perf_counter()
        try:
            yield
        finally:
            if self.on_write is not None:
                self.on_write(what, time.perf_counter() - start)

    @contextlib.contextmanager
    def write(self, timed: str | None = None) -> Iterator[Session]:
        """One write: a session in a transaction, committed when the block ends (rolled back
        if it raises), made while no other write of this process is (SQLite); ``timed``: the
        name :attr:`on_write` is told its time under."""
        with (
            self.timed(timed) if timed is not None else contextlib.nullcontext(),
            self._one_writer,
            self.session() as session,
            session.begin(),
        ):
            yield session

    def session(self) -> Session:
        """A session for reads (:meth:`write` for writes)."""
        return self._sessions()

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
        if self.rooms_engine is not self.engine:
            self._move_open_rooms()

    def _move_open_rooms(self) -> None:
        """Make the open rooms' own file's table, and move into it the rooms that a version
        before it saved in the main file (they reopen as they were). Rooms already in the
        file are newer and stay: a move cut short is done again at the next start. Beside a
        database file made anew, the rooms of the one before are forgotten: their seats'
        accounts and their games' ratings were in it."""
        table = table_of(OpenRoomRow)
        table.create(self.rooms_engine, checkfirst=True)
        if self._new_file:
            with self.rooms_engine.begin() as rooms:
                rooms.execute(delete(table))
        with self.engine.begin() as main:
            rows = [dict(row._mapping) for row in main.execute(select(table))]
            if rows:
                with self.rooms_engine.begin() as rooms:
                    rooms.execute(sqlite_insert(table).on_conflict_do_nothing(), rows)
                main.execute(delete(table))

    def checkpoint(self) -> None:
        """Copy the open rooms' SQLite journal into their file as far as no reader needs it
        (a passive checkpoint: writers go on meanwhile); nothing for other databases."""
        if self.rooms_engine is not self.engine:
            with self.rooms_engine.connect() as connection:
                connection.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")

    def close(self) -> None:
        self.engine.dispose()
        self.rooms_engine.dispose()
