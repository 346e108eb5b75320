"""Notices and presence across processes, through Redis (:mod:`ubongo.server.online.notices`).

A notice is published on one channel, ``ubongo:notices``, as ``{"to": account, "text": ...}``;
every process listens and hands it to its own pages of that account (a notice is rare: a
challenge, its answer). Presence is a hash per account, ``ubongo:presence:<account>``, with a
field per page (``<process>:<page>`` -> the room it shows, or ""), written when a page opens
or moves and deleted when it closes; each process renews its pages' hashes' time to live
every :data:`RENEW_SECONDS`, so that a process that dies leaves its pages online for at most
:data:`PRESENCE_TTL_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Sequence
from typing import Any, cast

import redis.asyncio as aioredis

from ..online.notices import Listener, LocalNotices, Presence
from ..ops import strong_random
from .keys import connect

log = logging.getLogger("ubongo.server.cluster")

CHANNEL = "ubongo:notices"
PRESENCE_TTL_SECONDS = 90
RENEW_SECONDS = 30.0


def presence_key(account: int) -> str:
    return f"ubongo:presence:{account}"


class RedisNotices(LocalNotices):
    """This process's pages, and every process's notices and presence through Redis."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.redis: aioredis.Redis = connect(url)
        self.process = strong_random.token_hex(6)
        self.tasks: list[asyncio.Task[None]] = []
        self.writes: asyncio.Queue[tuple[Listener, bool]] = asyncio.Queue()

    def _field(self, listener: Listener) -> str:
        return f"{self.process}:{listener.serial}"

    def _queue(self, listener: Listener, gone: bool = False) -> None:
        """Write the page's presence (or its end) in order: one writer, so that a page that
        opens and closes at once is never left online by writes that overtook each other."""
        self.writes.put_nowait((listener, gone))

    def listen(self, account: int) -> Listener:
        listener = super().listen(account)
        self._queue(listener)
        return listener

    def here(self, listener: Listener, room: str | None) -> None:
        super().here(listener, room)
        self._queue(listener)

    def leave(self, listener: Listener) -> None:
        super().leave(listener)
        self._queue(listener, gone=True)

    async def _writer(self) -> None:
        while True:
            listener, gone = await self.writes.get()
            try:
                if gone:
                    await self.redis.hdel(presence_key(listener.account), self._field(listener))
                else:
                    await self._write(listener)
            except Exception as e:  # Redis away: the renewal writes it again
                log.warning("presence not written: %s", e)

    async def _write(self, listener: Listener) -> None:
        key = presence_key(listener.account)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(key, self._field(listener), listener.room or "")
            pipe.expire(key, PRESENCE_TTL_SECONDS)
            await pipe.execute()

    async def send(self, account: int, text: str) -> None:
        await self.redis.publish(CHANNEL, json.dumps({"to": account, "text": text}))

    async def presence(self, accounts: Sequence[int]) -> dict[int, Presence]:
        if not accounts:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for account in accounts:
                pipe.hvals(presence_key(account))
            found = cast(list[list[str]], await pipe.execute())
        out = {}
        for account, rooms in zip(accounts, found, strict=True):
            if rooms:
                shown = [r for r in rooms if r]
                out[account] = Presence(shown[-1] if shown else None)
        return out

    async def start(self) -> None:
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(CHANNEL)
        self.tasks = [
            asyncio.create_task(self._listen(pubsub)),
            asyncio.create_task(self._renew()),
            asyncio.create_task(self._writer()),
        ]

    async def stop(self) -> None:
        await super().stop()
        for task in self.tasks:
            task.cancel()
        with contextlib.suppress(Exception):
            for pages in self.listeners.values():
                for listener in pages.values():
                    await self.redis.hdel(presence_key(listener.account), self._field(listener))
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _listen(self, pubsub: Any) -> None:
        """Hand each notice to this process's pages of its account (Redis away: try again)."""
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=None)
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as e:  # Redis away: wait, and listen again
                log.warning("notices: %s", e)
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(CHANNEL)
                continue
            if message is None or message.get("type") != "message":
                continue
            with contextlib.suppress(ValueError, KeyError, TypeError):
                data = json.loads(message["data"])
                self.deliver(int(data["to"]), str(data["text"]))

    async def _renew(self) -> None:
        """Keep this process's pages online in Redis (their hashes' time to live)."""
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            for pages in self.listeners.values():
                for listener in pages.values():
                    self._queue(listener)  # behind any page's end: never written after it
