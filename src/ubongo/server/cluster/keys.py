"""The cluster's Redis keys and channels, and the Lua scripts that change them atomically.

Per room (``ubongo:room:<CODE>:...``): ``owner`` (the owner's node id, a lease), ``snap`` (the
durable snapshot), ``log`` (the latest numbered events) and the ``events`` pub/sub channel;
per process, its command channel ``ubongo:node:<id>``, its live games to watch and its open
games (``ubongo:live:<id>``, ``ubongo:open:<id>``: lists that live one lease long and are
renewed every beat), and its id in the set of processes (``ubongo:processes``).

>>> owner_key("ABCDE"), room_channel("ABCDE"), code_of(room_channel("ABCDE"))
('ubongo:room:ABCDE:owner', 'ubongo:room:ABCDE:events', 'ABCDE')
"""

from __future__ import annotations

from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import NoScriptError

PREFIX = "ubongo:"
#: the owner's lease; renewed every HEARTBEAT seconds
LEASE_MS = 5000
HEARTBEAT = 1.0
#: a room's keys outlive their last write by this long (then a dead room is forgotten)
KEEP_MS = 24 * 3600 * 1000

# KEYS owner, log, snap; ARGV node, "seq text", log size, keep ms, snapshot or "", channel
WRITE_EVENT = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[2])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[3]), -1)
redis.call('PEXPIRE', KEYS[2], ARGV[4])
if ARGV[5] ~= '' then redis.call('SET', KEYS[3], ARGV[5], 'PX', ARGV[4]) end
redis.call('PUBLISH', ARGV[6], ARGV[2])
return 1
"""
# KEYS owner; ARGV node, lease ms
RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
return 0
"""
# KEYS owner; ARGV node: give up a lease only if it is still this node's (or a dead one's)
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
return 0
"""
# KEYS owner, log, snap; ARGV node: a room closed by its owner
DROP = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
return 1
"""
# KEYS owner, snap; ARGV node, lease ms, keep ms: a new join code, unique across processes
RESERVE = """
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('EXISTS', KEYS[2]) == 1 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[2], '', 'PX', ARGV[3])
return 1
"""

SCRIPTS = {
    "write_event": WRITE_EVENT,
    "renew": RENEW,
    "release": RELEASE,
    "drop": DROP,
    "reserve": RESERVE,
}


def owner_key(code: str) -> str:
    return f"{PREFIX}room:{code}:owner"


def snap_key(code: str) -> str:
    return f"{PREFIX}room:{code}:snap"


def log_key(code: str) -> str:
    return f"{PREFIX}room:{code}:log"


def live_key(node: str) -> str:
    """Where process ``node`` keeps its list of live games to watch (renewed every beat)."""
    return f"{PREFIX}live:{node}"


#: every process that has beaten lately (a set; one whose ``live`` list has run out is taken
#: off it): what finds the processes, not a SCAN of ``live:*``, which walked every room's keys
#: (a day's rooms are kept: tens of thousands of keys at 1,000 players in an arena) and made
#: the arenas' leader late to renew its lease (docs/arenas.md, "A beat that walked the keys")
PROCESSES = f"{PREFIX}processes"


def open_key(node: str) -> str:  # (the open games: rooms waiting for players, listed)
    """Where process ``node`` keeps its list of open games to join (renewed every beat)."""
    return f"{PREFIX}open:{node}"


#: the process that leads the arenas (pairs and scores them: :mod:`.arenas`), a lease
ARENA_LEADER = f"{PREFIX}arenas:leader"


def room_keys(code: str) -> list[str]:
    """A room's owner, log and snapshot keys, in the order the scripts take them."""
    return [owner_key(code), log_key(code), snap_key(code)]


def room_channel(code: str) -> str:
    return f"{PREFIX}room:{code}:events"


def code_of(channel: str) -> str:
    """The room code in a room channel's name."""
    return channel[len(PREFIX) + 5 : -len(":events")]


def node_channel(node: str) -> str:
    return f"{PREFIX}node:{node}"


#: a process's Redis connections at once; one more call waits for one of them (up to
#: :data:`POOL_WAIT_SECONDS`) rather than failing ("Too many connections": the two-process
#: arena bench's thousand players asked more than redis-py's default hundred at once)
POOL_CONNECTIONS = 512
POOL_WAIT_SECONDS = 5.0


def connect(url: str) -> aioredis.Redis:
    """A process's client of the Redis at ``url``, over a pool that waits when it is full."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url, decode_responses=True, max_connections=POOL_CONNECTIONS, timeout=POOL_WAIT_SECONDS
    )
    return aioredis.Redis(connection_pool=pool)


class Scripts:
    """:data:`SCRIPTS` loaded into one Redis, run by name (loaded again if Redis forgot
    them: it restarted)."""

    def __init__(self, redis: aioredis.Redis) -> None:
        self.redis = redis
        self.sha: dict[str, str] = {}

    async def load(self) -> None:
        for name, source in SCRIPTS.items():
            self.sha[name] = await self.redis.script_load(source)

    def queue(self, pipe: Any, name: str, keys: list[str], args: list[Any]) -> Any:
        """Queue one script on a pipeline."""
        return pipe.evalsha(self.sha[name], len(keys), *keys, *args)

    async def run(self, name: str, keys: list[str], args: list[Any]) -> Any:
        """Run one script now. A Redis that restarted has forgotten them (NOSCRIPT): they
        are loaded again and the call repeated."""
        try:
            return await self.redis.evalsha(self.sha[name], len(keys), *keys, *args)
        except NoScriptError:
            await self.load()
            return await self.redis.evalsha(self.sha[name], len(keys), *keys, *args)
