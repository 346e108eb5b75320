"""The addresses accounts used lately (table ``account_addresses``): quick match does not seat
together two accounts that shared one (docs/fair-play.md, "No boosting, no dodging").

An address is never stored as it is: only a keyed hash of it (HMAC-SHA-256 with a salt the
database makes for itself at first use, table ``server_secrets``, cut to 32 hex digits), so
that the database says which accounts shared an address but not which address it was. Every
process on one database hashes alike, since the salt is the database's. A row says when the
account was last seen there; rows older than what the caller keeps are deleted as new ones
come.

>>> import tempfile, os
>>> from ubongo.server.store.database import Database
>>> db = Database("sqlite:///" + os.path.join(tempfile.mkdtemp(), "doc.sqlite3"))
>>> db.migrate()
>>> from ubongo.server.store.accounts import AccountRepository
>>> ada, bob = (AccountRepository(db).create(n, n * 32, at=0.0) for n in "ab")
>>> book = AddressRepository(db)
>>> book.note(ada, "192.0.2.7", at=100.0, keep=50.0)
>>> book.note(bob, "192.0.2.7", at=120.0, keep=50.0)
>>> book.recent(ada, since=60.0) == book.recent(bob, since=60.0)
True
>>> "192.0.2.7" in book.recent(ada, since=60.0)
False
>>> book.recent(ada, since=110.0)
frozenset()
>>> db.close()
"""

from __future__ import annotations

import hashlib
import hmac

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from ..ops import strong_random
from .database import Database
from .tables import AccountAddressRow, ServerSecretRow, to_datetime

#: the name of the salt's row in ``server_secrets``
SALT = "address_salt"
#: hex digits of a stored address hash (128 bits: no two addresses collide)
HASH_DIGITS = 32


class AddressRepository:
    """The accounts' recent addresses, hashed: noting one, and an account's since a time."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._salt: bytes | None = None

    def salt(self) -> bytes:
        """The database's salt of address hashes, made at first use (a race between two
        processes making it is won by the first to store it; the other reads that one)."""
        if self._salt is not None:
            return self._salt
        for _ in range(2):
            with self.database.session() as s:
                found = s.get(ServerSecretRow, SALT)
            if found is not None:
                self._salt = bytes.fromhex(found.value)
                return self._salt
            try:
                with self.database.write() as s:
                    s.add(ServerSecretRow(name=SALT, value=strong_random.token_hex(32)))
            except IntegrityError:
                continue  # another process made it first: read that one
        raise RuntimeError("the address salt could not be made")

    def hashed(self, address: str) -> str:
        """An address as it is stored: its keyed hash."""
        digest = hmac.new(self.salt(), address.encode(), hashlib.sha256).hexdigest()
        return digest[:HASH_DIGITS]

    def note(self, account: int, address: str, at: float, keep: float) -> None:
        """The account was seen at ``address`` at ``at``; every row last seen more than
        ``keep`` seconds before ``at`` is deleted (no one's old addresses are kept)."""
        key = self.hashed(address)
        for attempt in range(2):
            try:
                with self.database.write() as s:
                    s.execute(
                        delete(AccountAddressRow).where(
                            AccountAddressRow.last_seen < to_datetime(at - keep)
                        )
                    )
                    row = s.get(AccountAddressRow, (account, key))
                    if row is None:
                        s.add(
                            AccountAddressRow(
                                account_id=account, address=key, last_seen=to_datetime(at)
                            )
                        )
                    else:
                        row.last_seen = to_datetime(at)
                return
            except IntegrityError:
                # the same account and address noted at once by two requests: once more
                if attempt:
                    raise

    def recent(self, account: int, since: float) -> frozenset[str]:
        """The hashes of the addresses the account was seen at since ``since``."""
        with self.database.session() as s:
            found = s.scalars(
                select(AccountAddressRow.address).where(
                    AccountAddressRow.account_id == account,
                    AccountAddressRow.last_seen >= to_datetime(since),
                )
            )
            return frozenset(found)
