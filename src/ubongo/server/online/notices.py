"""Notices for an account wherever its pages are, and who is online (docs/social.md).

Every page of a signed-in player keeps one notice socket open (``/ws/notices``): it is a
:class:`Listener` here, which says which room its page shows. :class:`Notices` delivers a notice
to every listener of an account and says, for a list of accounts, which are online and where.
:class:`LocalNotices` knows this process's listeners; with several processes the cluster's
board (:class:`~ubongo.server.cluster.notices.RedisNotices`) shares both through Redis.

>>> import asyncio
>>> board = LocalNotices()
>>> ada = board.listen(1)
>>> board.here(ada, "ABCD")
>>> asyncio.run(board.send(1, "hi")), ada.queue.get_nowait()
(None, 'hi')
>>> asyncio.run(board.presence([1, 2]))
{1: Presence(room='ABCD')}
>>> board.leave(ada); asyncio.run(board.presence([1]))
{}
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

#: notices waiting for a page that does not read before it is dropped
MAX_WAITING = 100


@dataclass(frozen=True)
class Presence:
    """An online account: the room one of its pages shows, if any."""

    room: str | None


class Listener:
    """One page's notice socket: its account, what it is to be sent, the room it shows."""

    _serials = itertools.count(1)

    def __init__(self, account: int) -> None:
        self.account = account
        self.serial = next(self._serials)
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.room: str | None = None

    def deliver(self, text: str) -> None:
        """Queue ``text``; a page that has let :data:`MAX_WAITING` notices wait is closed (its
        page opens a new socket and reads the open challenges over HTTP)."""
        if self.queue.qsize() >= MAX_WAITING:
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)


class Notices(Protocol):
    """Where notices go and who is online."""

    def listen(self, account: int) -> Listener:
        """A new page of ``account`` listens."""
        ...

    def here(self, listener: Listener, room: str | None) -> None:
        """The listener's page shows ``room`` now (or none)."""
        ...

    def leave(self, listener: Listener) -> None:
        """The listener's page has closed its socket."""
        ...

    async def send(self, account: int, text: str) -> None:
        """Deliver a notice (its JSON text) to every page of ``account``, on any process."""
        ...

    async def presence(self, accounts: Sequence[int]) -> dict[int, Presence]:
        """Those of ``accounts`` with a page open, and where."""
        ...

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class LocalNotices(Notices):
    """The listeners of this process."""

    def __init__(self) -> None:
        self.listeners: dict[int, dict[int, Listener]] = {}

    def listen(self, account: int) -> Listener:
        listener = Listener(account)
        self.listeners.setdefault(account, {})[listener.serial] = listener
        return listener

    def here(self, listener: Listener, room: str | None) -> None:
        listener.room = room

    def leave(self, listener: Listener) -> None:
        pages = self.listeners.get(listener.account, {})
        pages.pop(listener.serial, None)
        if not pages:
            self.listeners.pop(listener.account, None)

    def deliver(self, account: int, text: str) -> None:
        """Queue ``text`` for this process's pages of ``account``."""
        for listener in list(self.listeners.get(account, {}).values()):
            listener.deliver(text)

    async def send(self, account: int, text: str) -> None:
        self.deliver(account, text)

    def local_presence(self, account: int) -> Presence | None:
        """Where ``account`` is on this process's pages (the room of the latest that shows
        one), or None if it has none here."""
        pages = self.listeners.get(account)
        if not pages:
            return None
        rooms = [p.room for p in pages.values() if p.room is not None]
        return Presence(rooms[-1] if rooms else None)

    async def presence(self, accounts: Sequence[int]) -> dict[int, Presence]:
        found = {a: self.local_presence(a) for a in accounts}
        return {a: p for a, p in found.items() if p is not None}

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        for pages in list(self.listeners.values()):
            for listener in pages.values():
                listener.queue.put_nowait(None)
