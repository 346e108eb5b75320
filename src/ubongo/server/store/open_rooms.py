"""Open rooms: each room's durable form (a JSON document :mod:`ubongo.server.rooms.durable`
makes and reads; opaque here), replaced at each save and deleted when the room closes, so
that rooms outlive a restart of the server.

These saves are what a player waits for (store, then answer: ``docs/server.md``), so they are
plain SQL statements on connections of their own that never checkpoint SQLite's journal
(:meth:`OpenRoomRepository.checkpoint` does, when nobody waits), and with SQLite in a file of
their own, where no game being stored holds the one writer's lock
(:func:`.database.open_rooms_url`).

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> rooms = OpenRoomRepository(db)
>>> rooms.save({"ABCD": {"code": "ABCD"}, "EFGH": {"code": "EFGH"}}, [], saved_at=1.0)
>>> rooms.save({}, ["ABCD"], saved_at=2.0)
>>> rooms.all()
[{'code': 'EFGH'}]
>>> db.close()
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection
from sqlalchemy.sql.expression import Executable

from .database import Database
from .tables import OpenRoomRow, to_datetime


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


class OpenRoomRepository:
    """The rooms saved as open."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def save(
        self, rooms: dict[str, dict[str, Any]], closed: Iterable[str], saved_at: float
    ) -> None:
        """Replace the saved form of ``rooms`` (code -> durable data) and forget the ``closed``
        ones, in one transaction. With SQLite the commit does not checkpoint the journal
        (copy it into the database file, which can take a tenth of a second): the caller runs
        :meth:`checkpoint` now and then, when nobody waits for it."""
        # SQL statements, not ORM objects, on connections that never checkpoint: this runs
        # once per disk flush on a busy server, and its time is what a player waits for
        with self.database.timed("open_rooms"), self.database.rooms_engine.begin() as connection:
            gone = set(closed) - rooms.keys()
            if gone:
                connection.execute(delete(OpenRoomRow).where(OpenRoomRow.code.in_(gone)))
            if rooms:
                at = to_datetime(saved_at)
                rows = [{"code": c, "room": d, "saved_at": at} for c, d in rooms.items()]
                _upsert_rooms(connection, rows)

    def checkpoint(self) -> None:
        """Copy SQLite's journal into the database file as far as no reader needs it
        (:meth:`.database.Database.checkpoint`)."""
        self.database.checkpoint()

    def all(self) -> list[dict[str, Any]]:
        """The durable forms of the rooms saved as open, oldest save first."""
        with self.database.rooms_engine.connect() as connection:
            rows = connection.execute(select(OpenRoomRow.room).order_by(OpenRoomRow.saved_at))
            return [room for (room,) in rows]
