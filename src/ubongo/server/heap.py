"""Freed memory handed back to the system.

Python gives most of what a finished room and a closed connection held back to the C
allocator, but glibc's allocator keeps the freed pages of its heap instead of returning them,
and on this server's pattern (thousands of connections and rooms made and dropped) it did not
reuse them well either: ``bench/server.py``'s ramp saw the server's resident memory grow by
about 50 MiB for every 1,000 players who came and went, with no room, connection or Python
object left alive (``docs/performance.md``, "Memory"). ``malloc_trim(0)`` consolidates the
free chunks and hands whole free pages back; with it after each step, the same ramp stays flat.

>>> isinstance(release_freed_memory(), bool)
True
"""

from __future__ import annotations

import ctypes
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
    """Hand the pages the C allocator holds free back to the system; ``False`` where that
    cannot be asked for. Tens of milliseconds on a large heap: call it off the event loop
    (ctypes releases the GIL for the call)."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
