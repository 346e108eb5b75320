"""Accounts without friction: a client asks for one on its first visit and keeps its token.

The token is the credential: 256 random bits, sent as ``Authorization: Bearer <token>``. The
server keeps only its SHA-256 hash. A token is not a password (nobody chooses or reuses it,
and guessing 256 random bits is hopeless), so a fast hash is enough: what it protects against
is a copy of the database handing out working tokens. Lookups are by the hash, indexed.

A new account has a pronounceable name the player may change:

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
import secrets
from dataclasses import dataclass

from ..ops.clock import Clock
from ..ops.ratelimit import AddressLimit
from ..protocol.incoming import ProtocolError
from ..store import Store
from .names import clean_name

CONSONANTS = "bdfgklmnprstvz"
VOWELS = "aeiou"


def default_name(rng: random.Random) -> str:
    """Three open syllables and a number: easy to say, seldom taken twice."""
    word = "".join(rng.choice(CONSONANTS) + rng.choice(VOWELS) for _ in range(3))
    return f"{word.capitalize()} {rng.randrange(10, 100)}"


def new_token() -> str:
    return secrets.token_urlsafe(32)


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

    def __init__(self, store: Store, clock: Clock, per_hour: int) -> None:
        self.store = store
        self.clock = clock
        self.created = AddressLimit("accounts created", per_hour / 3600, per_hour)
        self._rng = random.SystemRandom()

    async def create(self, address: str, name: str | None) -> tuple[Account, str]:
        """A new account and its token (told once: only its hash is kept)."""
        self.created.spend(address, self.clock.now())
        name = clean_name(name) if name else default_name(self._rng)
        token = new_token()
        account_id = await asyncio.to_thread(
            self.store.accounts.create, name, token_hash(token), self.clock.now()
        )
        return Account(account_id, name), token

    async def of_token(self, token: str) -> Account:
        """The token's account; ``bad_token`` if no account has it."""
        found = await asyncio.to_thread(self.store.accounts.by_token, token_hash(token))
        if found is None:
            raise ProtocolError("bad_token", "no account has this token")
        return Account(found.id, found.name)

    async def rename(self, account: Account, name: str) -> Account:
        name = clean_name(name)
        await asyncio.to_thread(self.store.accounts.rename, account.id, name)
        return Account(account.id, name)
