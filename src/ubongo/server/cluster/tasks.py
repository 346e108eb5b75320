"""The tasks in play of a cluster, in Redis: a task dealt on one process is refused a hint on
every other (:mod:`..online.tasks_in_play`). One key a task, ``ubongo:play:<fingerprint>``,
that expires when its round can no longer be running."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable

import redis.asyncio as aioredis

from .keys import connect

log = logging.getLogger("ubongo.server")

PREFIX = "ubongo:play:"


class RedisTasksInPlay:
    """:class:`..online.tasks_in_play.TasksInPlay` over Redis."""

    def __init__(self, url: str) -> None:
        self.redis: aioredis.Redis = connect(url)
        self._writes: set[asyncio.Task[None]] = set()

    def add(self, fingerprints: Iterable[str], seconds: float) -> None:
        # a deal must not wait for Redis: the note is written beside it
        task = asyncio.get_running_loop().create_task(self._note(list(fingerprints), seconds))
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _note(self, fingerprints: list[str], seconds: float) -> None:
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for fp in fingerprints:
                    pipe.set(PREFIX + fp, 1, ex=max(1, round(seconds)))
                await pipe.execute()
        except Exception as e:  # Redis away: the rooms go on; the hint route may answer
            log.warning("the tasks in play could not be noted in Redis: %s", type(e).__name__)

    async def has(self, fingerprint: str) -> bool:
        return bool(await self.redis.exists(PREFIX + fingerprint))

    async def close(self) -> None:
        await self.redis.aclose()
