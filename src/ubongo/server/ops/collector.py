"""The garbage collector's schedule for a server that holds thousands of sockets.

CPython frees most objects by their reference counts; its collector is for objects in
reference cycles, and it walks three generations. A collection stops every room for as long
as it walks, and on a server the walk is long: each awaited message leaves a few dozen young
objects (coroutines, futures, contexts) that live until that player's next message, and each
connected player holds about 260 objects the collector tracks (1.3 million at 5,000 players).

- **Young and middle generations**: small (:data:`YOUNG`, :data:`MIDDLE`), so that the frequent
  collections stay short: under 5 ms and under 30 ms at 5,000 players, where 10,000 / 20 gave
  pauses of 40-60 and 90-150 ms and a p99 submission-to-verdict of 55-66 ms
  (docs/performance.md, "Capacity").
- **Full collections**: on a clock (:func:`collect_fully_every`, ``--full-collection-seconds``,
  an hour by default), never by Python's count of middle collections. A full collection walks
  everything the players hold (about 1.1 s at 5,000 players) and no threshold makes it
  shorter; by count it came every few minutes under a growing load, in the middle of rounds.
  What the server drops is freed by reference counts (closed sockets: no cycles,
  tests/test_server_socket_memory.py), so little waits for the hour; ``/metrics`` shows every
  pause (``ubongo_gc_pause_seconds{generation}``).
"""

from __future__ import annotations

import asyncio
import gc

#: net allocations of tracked objects between two young collections
YOUNG = 500
#: young collections between two middle ones
MIDDLE = 10
#: middle collections between two full ones by count: never (they come on a clock)
NEVER = 1_000_000_000


def tune() -> tuple[int, int, int]:
    """Set the server's schedule; the thresholds it replaced (to put back when done).

    Everything loaded so far (code, decks) lives as long as the process: it is collected
    once and then frozen, out of every later walk.

    >>> before = tune()
    >>> gc.get_threshold() == (YOUNG, MIDDLE, NEVER)
    True
    >>> restore(before)
    """
    before = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, NEVER)
    return before


def restore(thresholds: tuple[int, int, int]) -> None:
    """Undo :func:`tune` (a server in a process that goes on, as in the tests): nothing
    frozen, and the ``thresholds`` it replaced."""
    gc.unfreeze()
    gc.set_threshold(*thresholds)


async def collect_fully_every(seconds: float) -> None:
    """A full collection every ``seconds``, for as long as the server runs."""
    while True:
        await asyncio.sleep(seconds)
        gc.collect()
