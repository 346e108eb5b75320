"""The server's clock: one time line for deadlines, finish order and what clients are told.

Times are seconds on a clock that never goes backwards (``time.monotonic``) but is anchored to
the wall clock when the server starts, so the same number is both what the rules compare
(``now``) and, times 1000, the ``server_time`` clients see (milliseconds since the epoch).

>>> clock = Clock()
>>> a = clock.now(); b = clock.now()
>>> b >= a
True
>>> abs(clock.ms(a) - a * 1000) < 1
True
"""

from __future__ import annotations

import time


class Clock:
    """Monotonic seconds since the epoch, as judged at start-up."""

    def __init__(self) -> None:
        self._epoch = time.time()
        self._mono = time.monotonic()

    def now(self) -> float:
        return self._epoch + (time.monotonic() - self._mono)

    @staticmethod
    def ms(seconds: float | None) -> int | None:
        """Seconds to the integer milliseconds of the protocol (``None`` stays ``None``)."""
        return None if seconds is None else round(seconds * 1000)

    def now_ms(self) -> int:
        return round(self.now() * 1000)

    def loop_delay(self, at: float) -> float:
        """Seconds from now until ``at`` (0 if it has passed), for scheduling."""
        return max(0.0, at - self.now())

    def not_before(self, at: float) -> None:
        """Move this clock forward if it is behind ``at`` (a time another process's clock
        gave, e.g. a game taken over): the rules never see time go backwards."""
        behind = at - self.now()
        if behind > 0:
            self._epoch += behind
