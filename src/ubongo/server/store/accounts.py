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

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .database import Database
from .games import StoredGame
from .namekey import name_key
from .tables import AccountRow, GameAccountRow, GameRow, to_datetime, to_epoch


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


def _holder(s: Session, key: str) -> int | None:
    return s.scalar(select(AccountRow.id).where(AccountRow.name_key == key))
