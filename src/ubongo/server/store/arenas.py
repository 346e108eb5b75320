"""Arenas (tables ``arenas``, ``arena_players``, ``arena_races``; docs/arenas.md): what each
plays and when, every player's sheet, and every race.

The arena's director (:mod:`..online.arenas`) keeps a running arena in memory and writes
through to here: a player's sheet as they join, pause or take the harder side; a race when it
starts, and its end with its players' sheets in one transaction; the final places when the
standings freeze. A player marked a cheater leaves every arena's standings, and the places of
the finished ones are recomputed (:meth:`ArenaRepository.remove_player`).

>>> import tempfile, os
>>> from ubongo.arena import Arena, Format, Sheet
>>> from ubongo.server.store.database import Database
>>> from ubongo.server.store.accounts import AccountRepository
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> ada, bob = (AccountRepository(db).create(n, n * 64, at=0.0) for n in "ab")
>>> arenas = ArenaRepository(db)
>>> a = Arena("a1", "Hourly", Format("classic", 30, 2, "A", "s"), 100.0, 1900.0)
>>> arenas.make(a, made_at=50.0, slot="hourly:100"), arenas.make(a, 50.0, slot="hourly:100")
(True, False)
>>> arenas.race_started("a1", 1, "ABCDE", [ada, bob, None], at=200.0)
>>> won = Sheet(ada, "a", 100.0).scored(1, 1, False, 260.0)
>>> second = Sheet(bob, "b", 90.0).scored(1, 2, False, 260.0)
>>> arenas.race_ended("a1", 1, at=260.0, game_id=None, sheets=[won, second])
>>> [(s.name, s.points) for s in arenas.sheets("a1")]
[('b', 1), ('a', 2)]
>>> arenas.freeze("a1", at=1950.0)
>>> [(t.arena.id, t.points, t.place) for t in arenas.taken_part(bob)]
[('a1', 1, 2)]
>>> arenas.remove_player(ada)
1
>>> [(t.points, t.place) for t in arenas.taken_part(bob)], arenas.sheets("a1")[1].removed
([(1, 1)], True)
>>> db.close()
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ubongo.arena import Arena, Format, RaceResult, Sheet, standings

from .database import Database
from .tables import ArenaPlayerRow, ArenaRaceRow, ArenaRow, table_of, to_datetime, to_epoch


@dataclass(frozen=True)
class Race:
    """A race of an arena as stored: its number, room, seats' accounts (``None``: a bot),
    times and stored game."""

    number: int
    room: str
    accounts: tuple[int | None, ...]
    started_at: float
    ended_at: float | None
    game_id: int | None


@dataclass(frozen=True)
class TakenPart:
    """An arena an account played in: the arena, its points, and its final place (``None``:
    not over yet, or removed)."""

    arena: Arena
    points: int
    place: int | None


def _arena(row: ArenaRow) -> Arena:
    return Arena(
        id=row.id,
        title=row.title,
        format=Format(row.edition, row.minutes, row.seats, row.side, row.seed),
        starts_at=to_epoch(row.starts_at),
        ends_at=to_epoch(row.ends_at),
        made_by=row.made_by,
        private=row.private,
        frozen_at=None if row.frozen_at is None else to_epoch(row.frozen_at),
    )


def _place(s: Session, arena_id: str) -> None:
    """Each player's place in an arena's final standings, counted again."""
    rows = s.scalars(select(ArenaPlayerRow).where(ArenaPlayerRow.arena_id == arena_id)).all()
    by_account = {r.account_id: r for r in rows}
    for r in rows:
        r.place = None
    for place, sheet in enumerate(standings(_sheet(r) for r in rows), start=1):
        by_account[sheet.account].place = place


def remove_from_arenas(s: Session, account: int) -> int:
    """In the session ``s``: the account leaves every arena's standings, and the places of
    the frozen ones are counted again (a moderator marked it a cheater: docs/arenas.md). How
    many arenas it was in."""
    rows = s.scalars(select(ArenaPlayerRow).where(ArenaPlayerRow.account_id == account)).all()
    for r in rows:
        r.removed = True
    s.flush()
    for r in rows:
        arena = s.get(ArenaRow, r.arena_id)
        if arena is not None and arena.frozen_at is not None:
            _place(s, r.arena_id)
    return len(rows)


def _result_json(r: RaceResult) -> list[Any]:
    return [r.race, r.place, r.harder, r.points, r.fire, r.at, r.game]


def _sheet(row: ArenaPlayerRow) -> Sheet:
    results = tuple(
        RaceResult(
            int(n),
            None if p is None else int(p),
            bool(h),
            int(pt),
            bool(f),
            float(at),
            None if game is None else int(game),
        )
        for n, p, h, pt, f, at, game in row.results
    )
    return Sheet(
        account=row.account_id,
        name=row.name,
        joined_at=to_epoch(row.joined_at),
        results=results,
        paused=row.paused,
        harder=row.harder,
        removed=row.removed,
    )


#: the tables of the writes every race makes, written with SQL statements rather than through
#: the ORM's objects: its bookkeeping was a third of their CPU, and the rows it read back whole
#: (every result of each player) grew with the arena (docs/arenas.md, "Less CPU a race")
_RACES, _PLAYERS = table_of(ArenaRaceRow), table_of(ArenaPlayerRow)
#: a sheet written to its row: the columns set are the keys of each row's values beside these
_WRITE_SHEET = update(_PLAYERS).where(
    _PLAYERS.c.arena_id == bindparam("in_arena"), _PLAYERS.c.account_id == bindparam("of")
)


def _write_sheets(connection: Connection, arena_id: str, sheets: Sequence[Sheet]) -> None:
    """Write each sheet to its player's row, made if the player has none. The rows are read
    in one query, not one each; a player marked a cheater meanwhile (another process: the
    moderators' CLI) stays removed."""
    rows = connection.execute(
        select(_PLAYERS.c.account_id, _PLAYERS.c.removed).where(
            _PLAYERS.c.arena_id == arena_id,
            _PLAYERS.c.account_id.in_([sheet.account for sheet in sheets]),
        )
    )
    removed: dict[int, bool] = {account: gone for account, gone in rows}
    old, new = [], []
    for sheet in sheets:
        row = {
            "name": sheet.name,
            "joined_at": to_datetime(sheet.joined_at),
            "paused": sheet.paused,
            "harder": sheet.harder,
            "removed": bool(removed.get(sheet.account)) or sheet.removed,
            "results": [_result_json(r) for r in sheet.results],
            "points": sheet.points,
        }
        if sheet.account in removed:
            old.append({**row, "in_arena": arena_id, "of": sheet.account})
        else:
            new.append({**row, "arena_id": arena_id, "account_id": sheet.account})
    if old:
        connection.execute(_WRITE_SHEET, old)
    if new:
        connection.execute(insert(_PLAYERS), new)


class ArenaRepository:
    """Arenas: make one, their sheets and races, freeze one, an account's arenas."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def make(self, arena: Arena, made_at: float, slot: str | None = None) -> bool:
        """Store a new arena; ``False`` if its id or its schedule ``slot`` exists already
        (another process made the slot's arena first)."""
        f = arena.format
        try:
            with self.database.write() as s:
                s.add(
                    ArenaRow(
                        id=arena.id,
                        edition=f.edition,
                        title=arena.title,
                        side=f.side,
                        seats=f.seats,
                        minutes=f.minutes,
                        starts_at=to_datetime(arena.starts_at),
                        ends_at=to_datetime(arena.ends_at),
                        seed=f.seed,
                        made_by=arena.made_by,
                        made_at=to_datetime(made_at),
                        private=arena.private,
                        slot=slot,
                    )
                )
        except IntegrityError:
            return False
        return True

    def get(self, arena_id: str) -> Arena | None:
        with self.database.session() as s:
            row = s.get(ArenaRow, arena_id)
            return None if row is None else _arena(row)

    def listing(self, since: float, limit: int = 50) -> list[Arena]:
        """The public arenas not frozen, or frozen since ``since``: soonest first."""
        with self.database.session() as s:
            rows = s.scalars(
                select(ArenaRow)
                .where(
                    ArenaRow.private.is_(False),
                    (ArenaRow.frozen_at.is_(None)) | (ArenaRow.frozen_at >= to_datetime(since)),
                )
                .order_by(ArenaRow.starts_at, ArenaRow.id)
                .limit(limit)
            ).all()
            return [_arena(r) for r in rows]

    def unfrozen(self) -> list[Arena]:
        """Every arena whose standings are not final (a starting process takes them up)."""
        with self.database.session() as s:
            rows = s.scalars(select(ArenaRow).where(ArenaRow.frozen_at.is_(None))).all()
            return [_arena(r) for r in rows]

    def made_since(self, account: int, since: float) -> int:
        """How many arenas ``account`` made since ``since``."""
        with self.database.session() as s:
            found = s.scalar(
                select(func.count())
                .select_from(ArenaRow)
                .where(ArenaRow.made_by == account, ArenaRow.made_at >= to_datetime(since))
            )
        return int(found or 0)

    def sheets(self, arena_id: str) -> list[Sheet]:
        """Every player's sheet, removed ones included, in the order they joined."""
        with self.database.session() as s:
            rows = s.scalars(
                select(ArenaPlayerRow)
                .where(ArenaPlayerRow.arena_id == arena_id)
                .order_by(ArenaPlayerRow.joined_at, ArenaPlayerRow.account_id)
            ).all()
            return [_sheet(r) for r in rows]

    def save_sheet(self, arena_id: str, sheet: Sheet) -> None:
        """Store a player's sheet (a new player, or one who paused or changed side)."""
        with self.database.write() as s:
            _write_sheets(s.connection(), arena_id, [sheet])

    def forget(self, arena_id: str, account: int) -> None:
        """A player who withdrew before their first race leaves no sheet."""
        with self.database.write() as s:
            row = s.get(ArenaPlayerRow, (arena_id, account))
            if row is not None and not row.results:
                s.delete(row)

    def race_started(
        self, arena_id: str, number: int, room: str, accounts: Sequence[int | None], at: float
    ) -> None:
        with self.database.write() as s:
            s.connection().execute(
                insert(_RACES).values(
                    arena_id=arena_id,
                    number=number,
                    room=room,
                    accounts=list(accounts),
                    started_at=to_datetime(at),
                )
            )

    def race_ended(
        self, arena_id: str, number: int, at: float, game_id: int | None, sheets: Sequence[Sheet]
    ) -> None:
        """A race's end and its players' sheets, in one transaction."""
        with self.database.write() as s:
            connection = s.connection()
            connection.execute(
                update(_RACES)
                .where(_RACES.c.arena_id == arena_id, _RACES.c.number == number)
                .values(ended_at=to_datetime(at), game_id=game_id)
            )
            _write_sheets(connection, arena_id, sheets)

    def races(self, arena_id: str) -> list[Race]:
        with self.database.session() as s:
            rows = s.scalars(
                select(ArenaRaceRow)
                .where(ArenaRaceRow.arena_id == arena_id)
                .order_by(ArenaRaceRow.number)
            ).all()
            return [
                Race(
                    r.number,
                    r.room,
                    tuple(r.accounts),
                    to_epoch(r.started_at),
                    None if r.ended_at is None else to_epoch(r.ended_at),
                    r.game_id,
                )
                for r in rows
            ]

    def freeze(self, arena_id: str, at: float) -> None:
        """The standings are final: the arena frozen at ``at``, each player's place stored."""
        with self.database.write() as s:
            row = s.get(ArenaRow, arena_id)
            if row is None or row.frozen_at is not None:
                return
            row.frozen_at = to_datetime(at)
            _place(s, arena_id)

    def remove_player(self, account: int) -> int:
        """An account marked a cheater leaves every arena's standings; the places of the
        frozen ones it played in are counted again. How many arenas it was in."""
        with self.database.write() as s:
            return remove_from_arenas(s, account)

    def taken_part(self, account: int, limit: int = 20) -> list[TakenPart]:
        """The arenas ``account`` played a race in, latest first."""
        with self.database.session() as s:
            rows = s.execute(
                select(ArenaRow, ArenaPlayerRow)
                .join(ArenaPlayerRow, ArenaPlayerRow.arena_id == ArenaRow.id)
                .where(ArenaPlayerRow.account_id == account)
                .order_by(ArenaRow.starts_at.desc(), ArenaRow.id)
            ).all()
            played = [(a, p) for a, p in rows if p.results]
            return [
                TakenPart(_arena(a), p.points, None if p.removed else p.place)
                for a, p in played[:limit]
            ]
