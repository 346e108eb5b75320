"""Freed memory handed back to the system.

A server whose players come and go grew for good: ``bench/server.py``'s ramp, with every room
forgotten between its steps and no room, connection or game state left alive, saw the
server's resident memory grow by about 45 MiB for every 1,000 players who came and went
(209, 249, 301, 336, 385 MiB after five steps of 1,000). Two things kept it: garbage in
reference cycles, which the generational collector reaches only in its rare full collections
(uvicorn's HTTP protocol objects and their transports among it), and the pages of glibc's
heap freed but not handed back, nor well reused. Once a minute the room service's sweeper now
runs a full collection, then ``malloc_trim(0)``; the same ramp stayed at 166-251 MiB
(``docs/performance.md``, "Memory"). A trim alone, without the collection, did not help.

>>> isinstance(release_freed_memory(), bool)
True
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Callable
from functools import cache


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or ``None`` where the C library has none (musl, macOS)."""
    try:
        trim = ctypes.CDLL(None).malloc_trim  # the process's own symbols: its C library's
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


def release_freed_memory() -> bool:
    """Collect the garbage in reference cycles, then hand the pages the C allocator holds
    free back to the system; ``False`` where the C library cannot be asked (the collection
    still ran). Tens of milliseconds on a large server: once a minute."""
    gc.collect()
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
