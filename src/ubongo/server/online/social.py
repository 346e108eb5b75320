"""Friends and challenges (docs/social.md): following, the friends list with who is online and
where, and challenges made, answered and taken back, each told at once to both accounts'
pages (:mod:`.notices`).

Following is one-way and private; two accounts that follow each other are friends, and only
friends see each other online. Anyone may challenge anyone (from a profile or a game's end),
within the limits: one open challenge per pair, ``--challenges-per-hour`` per account; a
challenge waits ``--challenge-seconds`` for its answer. An accepted challenge is a new room
with both players seated, the challenger as host: rated if the challenge said so (a private
rated room, under the fair-play rules of every rated game: docs/fair-play.md).
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from ..config import ServerConfig
from ..ops.clock import Clock
from ..protocol.incoming import ProtocolError, SettingsPatch
from ..protocol.social import encode_notice
from ..store import Challenge, Store
from .notices import Notices

#: how long the seat of an accepted challenge is offered to the challenger's pages over HTTP
SEAT_OFFERED_SECONDS = 600.0


class RoomMaker(Protocol):
    """What an accepted challenge needs of the rooms (the room service has it)."""

    async def create_room(
        self, name: str, settings: SettingsPatch, account: int | None = None
    ) -> dict[str, Any]: ...

    async def take_seat(
        self, code: str, name: str, account: int | None = None
    ) -> dict[str, Any]: ...


def challenge_view(c: Challenge, now: float) -> dict[str, Any]:
    """A challenge as the protocol's ``ChallengeView`` (times in milliseconds)."""
    return {
        "id": c.id,
        "from_id": c.from_id,
        "from_name": c.from_name,
        "to_id": c.to_id,
        "to_name": c.to_name,
        "edition": c.edition,
        "rated": c.rated,
        "made_at": round(c.made_at * 1000),
        "expires_at": round(c.expires_at * 1000),
        "status": c.state(now),
        "room": c.room,
    }


class Social:
    """Follows and challenges, over the store, told through ``notices``."""

    def __init__(self, store: Store, clock: Clock, config: ServerConfig, notices: Notices) -> None:
        self.store = store
        self.clock = clock
        self.notices = notices
        self.config = config

    # --- following ---------------------------------------------------------------------------

    async def follow(self, follower: int, followed: int) -> None:
        """``follower`` follows ``followed`` (``no_account``; ``bad_message`` for oneself;
        ``follow_limit`` past ``--follows-per-account``)."""
        if follower == followed:
            raise ProtocolError("bad_message", "an account cannot follow itself")
        await self._account(followed)
        await asyncio.to_thread(self._follow, follower, followed, self.clock.now())

    def _follow(self, follower: int, followed: int, now: float) -> None:
        book = self.store.follows
        if book.follows(follower, followed):
            return  # again: nothing changes, whatever the limit
        limit = self.config.follows_per_account
        if book.count(follower) >= limit:
            raise ProtocolError("follow_limit", f"an account follows at most {limit} others")
        book.follow(follower, followed, now)

    async def unfollow(self, follower: int, followed: int) -> None:
        await asyncio.to_thread(self.store.follows.unfollow, follower, followed)

    async def friends(self, account: int) -> list[dict[str, Any]]:
        """The accounts ``account`` follows; the mutual ones with whether they are online and
        the room their page shows."""
        followed = await asyncio.to_thread(self.store.follows.following, account)
        online = await self.notices.presence([f.id for f in followed if f.mutual])
        out = []
        for f in followed:
            here = online.get(f.id)
            out.append(
                {
                    "id": f.id,
                    "name": f.name,
                    "mutual": f.mutual,
                    "online": (here is not None) if f.mutual else None,
                    "room": here.room if here is not None else None,
                }
            )
        return out

    # --- challenges --------------------------------------------------------------------------

    async def challenge(self, sender: int, to: int, edition: str, rated: bool) -> dict[str, Any]:
        """A new challenge from ``sender``, told to both accounts' pages."""
        if sender == to:
            raise ProtocolError("bad_message", "an account cannot challenge itself")
        await self._account(to)
        now = self.clock.now()
        made = await asyncio.to_thread(self._make, sender, to, edition, rated, now)
        view = challenge_view(made, now)
        await self._tell(made, view)
        return view

    def _make(self, sender: int, to: int, edition: str, rated: bool, now: float) -> Challenge:
        book = self.store.challenges
        per_hour = self.config.challenges_per_hour
        if book.made_since(sender, now - 3600) >= per_hour:
            raise ProtocolError("rate_limited", f"at most {per_hour} challenges an hour")
        if any(c.from_id == sender and c.to_id == to for c in book.open_for(sender, now)):
            raise ProtocolError("already_challenged", "this account has your challenge already")
        expires = now + self.config.challenge_seconds
        return book.make(sender, to, edition, rated, at=now, expires_at=expires)

    async def challenges(self, account: int) -> dict[str, Any]:
        """The account's open challenges, received and made, and its seats lately accepted."""
        now = self.clock.now()
        book = self.store.challenges
        open_ = await asyncio.to_thread(book.open_for, account, now)
        accepted = await asyncio.to_thread(book.accepted_for, account, now - SEAT_OFFERED_SECONDS)
        return {
            "received": [challenge_view(c, now) for c in open_ if c.to_id == account],
            "made": [challenge_view(c, now) for c in open_ if c.from_id == account],
            "seats": [c.seat for c in accepted if c.seat is not None],
            "server_time": round(now * 1000),
        }

    async def accept(self, account: int, challenge: int, rooms: RoomMaker) -> dict[str, Any]:
        """The challenged account accepts: a room with both seated (the challenger as host),
        the challenger told its seat; the acceptor's seat is the answer."""
        found = await self._open(account, challenge, "to")
        settings = SettingsPatch(edition=found.edition, rated=found.rated)
        host = await rooms.create_room(found.from_name, settings, found.from_id)
        guest = await rooms.take_seat(host["code"], found.to_name, found.to_id)
        await self._answer(found, "accepted", room=host["code"], seat=host)
        return guest

    async def decline(self, account: int, challenge: int) -> dict[str, Any]:
        """The challenged account says no."""
        return await self._answer(await self._open(account, challenge, "to"), "declined")

    async def cancel(self, account: int, challenge: int) -> dict[str, Any]:
        """The challenger takes its challenge back."""
        return await self._answer(await self._open(account, challenge, "from"), "cancelled")

    async def _open(self, account: int, challenge: int, side: str) -> Challenge:
        """Challenge ``challenge`` if ``account`` is its sender (``side`` "from") or its
        receiver ("to"): ``no_challenge`` otherwise (whoever else asks learns nothing of it);
        ``challenge_gone`` if it is answered or expired."""
        found = await asyncio.to_thread(self.store.challenges.get, challenge)
        if found is None or (found.from_id if side == "from" else found.to_id) != account:
            raise ProtocolError("no_challenge", "no such challenge of yours")
        if found.state(self.clock.now()) != "open":
            raise ProtocolError("challenge_gone", "this challenge is answered or expired")
        return found

    async def _answer(
        self,
        found: Challenge,
        status: str,
        room: str | None = None,
        seat: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        book = self.store.challenges
        now = self.clock.now()
        if not await asyncio.to_thread(book.answer, found.id, status, now, room, seat):
            raise ProtocolError("challenge_gone", "this challenge is answered or expired")
        answered = await asyncio.to_thread(book.get, found.id)
        assert answered is not None
        view = challenge_view(answered, now)
        await self._tell(answered, view, seat)
        return view

    async def _tell(
        self, c: Challenge, view: dict[str, Any], seat: dict[str, Any] | None = None
    ) -> None:
        """Both accounts' pages hear of the challenge; the seat goes to the challenger only."""
        await self.notices.send(
            c.from_id, encode_notice({"type": "challenge", "challenge": view, "seat": seat})
        )
        await self.notices.send(
            c.to_id, encode_notice({"type": "challenge", "challenge": view, "seat": None})
        )

    async def _account(self, account: int) -> None:
        if await asyncio.to_thread(self.store.accounts.name_of, account) is None:
            raise ProtocolError("no_account", "no account with this id")
