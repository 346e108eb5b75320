"""Accounts without friction: a client asks for one on its first visit and keeps its token.

The token is the credential: 256 random bits, sent as ``Authorization: Bearer <token>``. The
server keeps only its SHA-256 hash. A token is not a password (nobody chooses or reuses it,
and guessing 256 random bits is hopeless), so a fast hash is enough: what it protects against
is a copy of the database handing out working tokens. Lookups are by the hash, indexed.

A new account has a pronounceable name the player may change. A chosen name, new or changed,
is refused if it is the bots' or the site's (``name_reserved``) or if another account holds a
name with its key (``name_taken``: :mod:`.names`); a drawn name that another account holds is
drawn again.

>>> import random
>>> default_name(random.Random(3))
'Gupelu 70'
>>> len(new_token()), token_hash("abc")[:12]
(43, 'ba7816bf8f01')
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from dataclasses import dataclass

from ..ops import strong_random
from ..ops.clock import Clock
from ..ops.ratelimit import AddressLimit
from ..protocol.incoming import ProtocolError
from ..store import NameTaken, Store
from .names import check_name, name_taken

CONSONANTS = "bdfgklmnprstvz"
VOWELS = "aeiou"
#: names drawn for one new account before giving up (30 million names: a second draw is rare)
DRAWS = 8


def default_name(rng: random.Random) -> str:
    """Three open syllables and a number: easy to say, seldom taken twice."""
    word = "".join(rng.choice(CONSONANTS) + rng.choice(VOWELS) for _ in range(3))
    return f"{word.capitalize()} {rng.randrange(10, 100)}"


def new_token() -> str:
    return strong_random.token_urlsafe(32)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True)
class Account:
    """Who a request comes from: the account's id and its name now."""

    id: int
    name: str


class Accounts:
    """The accounts: creating one (limited per client address), knowing a request's account
    from its token, renaming, and the public profile."""

    def __init__(
        self, store: Store, clock: Clock, per_hour: int, rng: random.Random | None = None
    ) -> None:
        self.store = store
        self.clock = clock
        self.created = AddressLimit("accounts created", per_hour / 3600, per_hour)
        #: what draws new accounts' names (a seeded one in tests)
        self.rng = rng or strong_random.SOURCE

    async def create(self, address: str, name: str | None) -> tuple[Account, str]:
        """A new account and its token (told once: only its hash is kept), named ``name``
        (``name_reserved``, ``name_taken``) or by a drawn name."""
        chosen = check_name(name) if name else None
        self.created.spend(address, self.clock.now())
        token = new_token()
        for _ in range(DRAWS):
            given = chosen or default_name(self.rng)
            try:
                account_id = await asyncio.to_thread(
                    self.store.accounts.create, given, token_hash(token), self.clock.now()
                )
            except NameTaken:
                if chosen:
                    raise name_taken() from None
                continue
            return Account(account_id, given), token
        raise ProtocolError("unavailable", "no free name was found; try again")

    async def of_token(self, token: str) -> Account:
        """The token's account; ``bad_token`` if no account has it."""
        found = await asyncio.to_thread(self.store.accounts.by_token, token_hash(token))
        if found is None:
            raise ProtocolError("bad_token", "no account has this token")
        return Account(found.id, found.name)

    async def rename(self, account: Account, name: str) -> Account:
        """The account under a new name (``name_reserved``, ``name_taken``)."""
        name = check_name(name)
        try:
            await asyncio.to_thread(self.store.accounts.rename, account.id, name)
        except NameTaken:
            raise name_taken() from None
        return Account(account.id, name)
