"""Freed memory goes back to the system (:mod:`ubongo.server.heap`): a heap left full of holes,
as a server's is after thousands of connections came and went, shrinks once the server asks.

Run in a fresh interpreter, so that the heap measured is the one this test made."""

from __future__ import annotations

import subprocess
import sys

import pytest

from ubongo.server.heap import release_freed_memory

PROGRAM = """
from ubongo.server.heap import release_freed_memory

def rss_mib():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

# 240 MB of buffers of the C allocator's heap (each over pymalloc's 512 bytes), then all but one
# in fifty freed: the heap keeps the pages between the survivors
made = [bytes(600) + str(i).encode() for i in range(400_000)]
kept = made[::50]
del made
before = rss_mib()
released = release_freed_memory()
print(before, rss_mib(), released, len(kept))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_heap_full_of_holes_shrinks_when_released() -> None:
    if not release_freed_memory():
        pytest.skip("this C library cannot hand freed pages back (not glibc)")
    out = subprocess.run(
        [sys.executable, "-c", PROGRAM], capture_output=True, text=True, check=True
    ).stdout.split()
    before, after, released = float(out[0]), float(out[1]), out[2]
    assert released == "True"
    assert before > 200, before  # the holes were still resident
    assert after < before / 2, (before, after)
