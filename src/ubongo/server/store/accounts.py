"""Accounts and their public profiles: an account is a name and the hash of its token (never
the token: it is the only credential, and a copy of the database must not hand it out).

No two accounts hold names with one key (:func:`.namekey.name_key`: "Ada" and "ADA" are one
name): the key is stored beside the name under a unique index, so that of two accounts
taking one name at once (two processes, two threads) the database lets exactly one through;
the other is told :class:`NameTaken`.

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> accounts = AccountRepository(db)
>>> ada = accounts.create("Ada", "ab" * 32, at=1.0)
>>> accounts.rename(ada, "Ada L.")
>>> accounts.by_token("ab" * 32) == StoredAccount(ada, "Ada L.")
True
>>> accounts.create("ADA L.", "cd" * 32, at=2.0)
Traceback (most recent call last):
...
ubongo.server.store.accounts.NameTaken: ADA L.
>>> accounts.profile(ada).games
{}
>>> db.close()
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, aliased

from .database import Database
from .games import StoredGame
from .namekey import name_key
from .tables import (
    AccountRow,
    GameAccountRow,
    GameRow,
    RatingHistoryRow,
    to_datetime,
    to_epoch,
)


class NameTaken(Exception):
    """Another account holds a name with this name's key."""


@dataclass(frozen=True)
class StoredAccount:
    """An account: its id and its name now."""

    id: int
    name: str


@dataclass(frozen=True)
class SeatedGame:
    """A stored game, and the seat an account played in it."""

    game: StoredGame
    seat: int


@dataclass(frozen=True)
class Profile:
    """An account's public face: name, when it joined, its games played by edition, its
    recent games (newest first)."""

    id: int
    name: str
    joined: float
    games: dict[str, int]
    recent: list[SeatedGame]


class AccountRepository:
    """The accounts: creating one, finding one by its token's hash, renaming, profiles."""

    def __init__(self, database: Database) -> None:
        self.database = database

    def create(self, name: str, token_hash: str, at: float) -> int:
        """A new account; its id. :class:`NameTaken` if another account holds the name's key."""
        key = name_key(name)
        try:
            with self.database.write() as s:
                row = AccountRow(
                    name=name, name_key=key, token_hash=token_hash, created_at=to_datetime(at)
                )
                s.add(row)
                s.flush()
                return row.id
        except IntegrityError:
            self._name_taken(key, name, None)
            raise

    def by_token(self, token_hash: str) -> StoredAccount | None:
        """The account whose token has this hash."""
        with self.database.session() as s:
            row = s.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.token_hash == token_hash)
            ).first()
            return None if row is None else StoredAccount(row[0], row[1])

    def name_of(self, account: int) -> str | None:
        """The account's name now (None: no such account)."""
        with self.database.session() as s:
            return s.scalar(select(AccountRow.name).where(AccountRow.id == account))

    def rename(self, account: int, name: str) -> None:
        """A new name for the account (nothing if there is no such account);
        :class:`NameTaken` if another account holds the name's key (its own may change case:
        "ada" to "Ada")."""
        key = name_key(name)
        try:
            with self.database.write() as s:
                row = s.get(AccountRow, account)
                if row is not None:
                    row.name, row.name_key = name, key
        except IntegrityError:
            self._name_taken(key, name, account)
            raise

    def _name_taken(self, key: str, name: str, account: int | None) -> None:
        """Raise :class:`NameTaken` if an account other than ``account`` holds ``key`` (what
        broke the unique index; any other broken constraint is the caller's to raise)."""
        with self.database.session() as s:
            if _holder(s, key) not in (None, account):
                raise NameTaken(name)

    def profile(self, account: int, recent: int = 10) -> Profile | None:
        """An account's public face, with its ``recent`` latest games; ``None`` if there is
        no such account."""
        with self.database.session() as s:
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
            return Profile(
                id=row.id,
                name=row.name,
                joined=to_epoch(row.created_at),
                games={edition: n for edition, n in played},
                recent=[SeatedGame(StoredGame.of_row(g), seat) for g, seat in games],
            )

    def games(
        self,
        account: int,
        edition: str | None = None,
        rated: bool | None = None,
        with_account: int | None = None,
        limit: int = 20,
    ) -> list[SeatedGame]:
        """An account's games, newest first: of ``edition`` only; rated for it (``rated``
        True: its rating moved; False: it did not); played with ``with_account`` too."""
        mine = select(GameAccountRow.game_id).where(GameAccountRow.account_id == account)
        query = (
            select(GameRow, GameAccountRow.seat)
            .join(GameAccountRow, GameAccountRow.game_id == GameRow.id)
            .where(GameAccountRow.account_id == account)
        )
        if edition is not None:
            query = query.where(GameRow.edition == edition)
        if rated is not None:
            moved = select(RatingHistoryRow.game_id).where(RatingHistoryRow.account_id == account)
            query = query.where(GameRow.id.in_(moved) if rated else GameRow.id.not_in(moved))
        if with_account is not None:
            theirs = select(GameAccountRow.game_id).where(
                GameAccountRow.account_id == with_account, GameAccountRow.game_id.in_(mine)
            )
            query = query.where(GameRow.id.in_(theirs))
        with self.database.session() as s:
            rows = s.execute(query.order_by(GameRow.id.desc()).limit(limit)).all()
        return [SeatedGame(StoredGame.of_row(g), seat) for g, seat in rows]

    def seats_together(self, account: int, other: int, limit: int = 1000) -> list[SharedGame]:
        """The games ``account`` and ``other`` played together (newest first), with both
        seats: what a head-to-head record counts."""
        theirs = aliased(GameAccountRow)
        with self.database.session() as s:
            rows = s.execute(
                select(GameRow.result, GameAccountRow.seat, theirs.seat)
                .join(GameAccountRow, GameAccountRow.game_id == GameRow.id)
                .join(theirs, theirs.game_id == GameRow.id)
                .where(GameAccountRow.account_id == account, theirs.account_id == other)
                .order_by(GameRow.id.desc())
                .limit(limit)
            ).all()
        return [SharedGame(result, mine, their) for result, mine, their in rows]


@dataclass(frozen=True)
class SharedGame:
    """A game two accounts played together: its result, and each one's seat."""

    result: dict[str, Any]
    seat: int
    other_seat: int

    def standing(self) -> int:
        """1: the first account finished ahead of the other (a winner the other is not, or
        more points); -1: behind; 0: level."""
        winners = set(self.result.get("winners", []))
        scores = self.result.get("scores", {})

        def place(seat: int) -> tuple[bool, float]:
            return seat in winners, float(scores.get(str(seat)) or 0)

        mine, theirs = place(self.seat), place(self.other_seat)
        return (mine > theirs) - (mine < theirs)


def _holder(s: Session, key: str) -> int | None:
    return s.scalar(select(AccountRow.id).where(AccountRow.name_key == key))
