"""Who may queue for a quick match, and with whom it may be seated (``docs/fair-play.md``, "No
boosting, no dodging").

* **Addresses.** A second account on the same machine is the easy way to boost: it queues
  with the first and loses to it. So each ``POST /api/quickmatch`` (and each account made)
  notes the client's address key for the account (:func:`..ops.ratelimit.address_key`: IPv6
  by its /64), and the waiting player carries the hashes of every address its account was
  seen at in the last ``shared_address_days``; the matcher never seats together two whose
  addresses meet (:func:`.quickmatch.apart`). The store keeps only salted hashes
  (:class:`..store.AddressRepository`), and forgets them after the window.
* **Playban.** Leaving a rated game loses it, but a player who keeps leaving spoils the game
  of everyone matched with them: an account that left ``playban_leaves`` of its last
  ``playban_games`` rated games of the last 24 hours waits before its next quick match
  (``429 playban`` with ``Retry-After``), as lichess's playban does. The wait grows with each
  game left beyond that (``playban_minutes``) and runs from the end of the last game left;
  nothing is stored for it but the games themselves.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence

from ..config import ServerConfig
from ..ops.clock import Clock
from ..ops.ratelimit import RateLimited
from ..store import RatedSeat, Store

#: the games the playban looks at are of this many seconds before now
PLAYBAN_WINDOW_SECONDS = 24 * 3600.0
#: an address key that says nothing (no client address): never noted
UNKNOWN_ADDRESS = "unknown"


def playban_until(
    seats: Sequence[RatedSeat], leaves: int, games: int, minutes: Sequence[float]
) -> float | None:
    """When an account's playban ends (epoch seconds), from its rated seats newest first;
    ``None``: it has none. ``leaves`` of the latest ``games`` left start it; each game left
    beyond those takes the next of ``minutes`` (the last one for all after).

    >>> seats = [RatedSeat(i, 1000.0 - 100 * i, left=i < 3) for i in range(6)]
    >>> playban_until(seats, leaves=3, games=10, minutes=[5, 15])
    1300.0
    >>> playban_until(seats, leaves=4, games=10, minutes=[5, 15]) is None
    True
    >>> playban_until(seats, leaves=2, games=10, minutes=[5, 15])
    1900.0
    """
    left = [s for s in seats[:games] if s.left]
    if len(left) < leaves:
        return None
    step = min(len(left) - leaves, len(minutes) - 1)
    return left[0].finished_at + 60.0 * minutes[step]


class Playban(RateLimited):
    """An account that keeps leaving rated games waits ``retry_after`` seconds before its next
    quick match (HTTP 429 ``playban`` with ``Retry-After``)."""

    def __init__(self, left: int, games: int, retry_after: float) -> None:
        minutes = math.ceil(retry_after / 60)
        super().__init__(
            f"this account left {left} of its last {games} rated games: its next quick match "
            f"in {minutes} min",
            retry_after,
            code="playban",
        )


class Conduct:
    """Notes the addresses accounts come from, and admits an account to the quick-match
    queue (or refuses it, :class:`Playban`)."""

    def __init__(self, store: Store, clock: Clock, config: ServerConfig) -> None:
        self.store = store
        self.clock = clock
        self.window = config.shared_address_days * 24 * 3600
        self.leaves = config.playban_leaves
        self.games = config.playban_games
        self.minutes = config.playban_minutes

    async def seen(self, account: int, address: str) -> None:
        """The account was seen at ``address`` (an address key) now."""
        if self.window > 0 and address != UNKNOWN_ADDRESS:
            await asyncio.to_thread(self._note, account, address, self.clock.now())

    async def admit(self, account: int, address: str) -> tuple[str, ...]:
        """Let the account queue from ``address`` (:class:`Playban` if it must wait); the
        hashes of the addresses it was seen at within the window, this one included (the
        waiting player carries them: :class:`.quickmatch.Waiting`). One thread hop."""
        return await asyncio.to_thread(self._admit, account, address, self.clock.now())

    def _admit(self, account: int, address: str, now: float) -> tuple[str, ...]:
        seats = self.store.games.rated_seats(account, now - PLAYBAN_WINDOW_SECONDS)
        until = playban_until(seats, self.leaves, self.games, self.minutes)
        if until is not None and until > now:
            left = sum(1 for s in seats[: self.games] if s.left)
            raise Playban(left, min(self.games, len(seats)), until - now)
        if self.window <= 0:
            return ()
        if address != UNKNOWN_ADDRESS:
            self._note(account, address, now)
        return tuple(sorted(self.store.addresses.recent(account, now - self.window)))

    def _note(self, account: int, address: str, now: float) -> None:
        self.store.addresses.note(account, address, now, keep=self.window)
