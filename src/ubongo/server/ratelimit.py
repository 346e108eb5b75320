"""A token bucket per connection: ``rate`` messages a second, bursts up to ``burst``.

>>> bucket = TokenBucket(rate=1.0, burst=2, now=0.0)
>>> [bucket.allow(0.0) for _ in range(3)]
[True, True, False]
>>> bucket.allow(1.0)
True
"""

from __future__ import annotations


class TokenBucket:
    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.at = now
        self.refused = 0

    def allow(self, now: float) -> bool:
        """Take one token if there is one; count the refusals."""
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.refused += 1
        return False
