"""The quick-match queue of a cluster, in Redis: every process's matcher sees every waiting
player, and claiming a group takes all of its players out in one Lua call (or none), so that
no player is seated twice.

Keys: ``ubongo:quick:waiting`` (a hash: account id -> the waiting player as JSON) and
``ubongo:quick:seat:<account>`` (the seat left for a player's waiting request, kept
:data:`~ubongo.server.online.quickmatch.SEAT_KEPT_SECONDS`). The request polls for its seat on the
process it came to, wherever its room was made.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

import redis.asyncio as aioredis

from ..online.quickmatch import SEAT_KEPT_SECONDS, Queue, Waiting

WAITING = "ubongo:quick:waiting"

# all of ARGV's fields in the hash, then none of them: 1; else 0 and nothing changes
CLAIM = """
for i = 1, #ARGV do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then return 0 end
end
redis.call('HDEL', KEYS[1], unpack(ARGV))
return 1
"""


def seat_key(account: int) -> str:
    return f"ubongo:quick:seat:{account}"


class RedisQueue(Queue):
    """The queue shared by the processes on one Redis."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis
        self._claim = redis.register_script(CLAIM)

    async def add(self, w: Waiting) -> bool:
        await self.redis.delete(seat_key(w.account))
        return bool(await self.redis.hsetnx(WAITING, str(w.account), w.to_json()))

    async def remove(self, account: int) -> bool:
        return bool(await self.redis.hdel(WAITING, str(account)))

    async def waiting(self) -> list[Waiting]:
        found = cast(dict[str, str], await self.redis.hgetall(WAITING))
        return [Waiting.from_json(text) for text in found.values()]

    async def is_waiting(self, account: int) -> bool:
        return bool(await self.redis.hexists(WAITING, str(account)))

    async def claim(self, accounts: Sequence[int]) -> bool:
        return bool(await self._claim(keys=[WAITING], args=[str(a) for a in accounts]))

    async def put_back(self, group: Sequence[Waiting]) -> None:
        for w in group:
            await self.redis.hsetnx(WAITING, str(w.account), w.to_json())

    async def deliver(self, account: int, seat: dict[str, Any]) -> None:
        await self.redis.set(seat_key(account), json.dumps(seat), ex=SEAT_KEPT_SECONDS)

    async def collect(self, account: int) -> dict[str, Any] | None:
        text = cast(str | None, await self.redis.getdel(seat_key(account)))
        return None if text is None else dict(json.loads(text))
