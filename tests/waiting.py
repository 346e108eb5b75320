"""Waiting for a state nobody announces: a row in the database, a log line, a metric, a
process, a port, what a page shows. A test that is *told* of the thing waits for the telling
instead (``server_harness.Client.wait`` for a message, Playwright's ``expect`` for an element);
``tests/test_no_sleeps.py`` keeps fixed sleeps out of the tests.

No processes here (unlike ``server_harness``): a test that only polls stays a fast test.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

#: seconds between two looks of :func:`eventually`
LOOK_EVERY = 0.05


def eventually(
    look: Callable[[], T | None], what: str, timeout: float = 10.0, every: float = LOOK_EVERY
) -> T:
    """The first truthy answer of ``look()``, asked again every ``every`` seconds: how a test
    waits for a state nobody tells it of (a row in the database, a log line, a metric, a
    process or a port). Fails naming ``what`` after ``timeout`` seconds. ``look`` may raise to
    give up early (a process that died)."""
    deadline = time.monotonic() + timeout
    while True:
        found = look()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(every)  # between two looks: the state is read again, not assumed


async def eventually_async(
    look: Callable[[], T | None], what: str, timeout: float = 10.0, every: float = LOOK_EVERY
) -> T:
    """:func:`eventually` inside an event loop (the server under test runs in the same loop,
    so the pauses between looks must let it run)."""
    deadline = time.monotonic() + timeout
    while True:
        found = look()
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        await asyncio.sleep(every)  # between two looks: the loop runs the server meanwhile
